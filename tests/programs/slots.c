/* Address-taken locals and control flow. A value written into a stack slot inside a
 * loop over `reps` does not depend on `reps` (the slot lives inside the loop, as a
 * register would); a count kept in memory across the iterations does. */
#include <stdio.h>
#include <taintprof.h>

/* Keeps its argument's slot in memory at every optimization level. */
static void __attribute__((noinline)) escape(int *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

static long __attribute__((noinline)) work(const int *bound) {
  long s = 0;
  for (int i = 0; i < *bound; i++) /* @slot_loop */
    s = s * 3 + (i ^ 5);
  return s;
}

/* `n` has its address taken: a stack slot written at every call. */
static long step(int n) { return work(&n); }

static void __attribute__((noinline)) bump(int *count) { ++*count; }

int main(void) {
  int n = 1000, reps = 5;
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&reps, sizeof reps, "reps");
  long total = 0;
  int bumps = 0;
  int kept[1] = {0};
  for (int r = 0; r < reps; r++) { /* @reps */
    total += step(n);
    bump(&bumps);
    kept[0] = kept[0] + 1;
    escape(kept);
  }
  for (int i = 0; i < bumps; i++) /* @bumps_loop */
    total = total * 3 + (i ^ 7);
  for (int i = 0; i < kept[0]; i++) /* @kept_loop */
    total = total * 5 + (i ^ 9);
  printf("%ld\n", total);
  return 0;
}
