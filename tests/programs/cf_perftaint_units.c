/* Two shapes from Perf-Taint's own unit tests that it correctly leaves without
 * parameters: a function whose result is 2 on both branches (the decision selects
 * nothing), and a bound read from constant data (every entry the same, so which entry
 * a parameter picked changes nothing). The loops depend on `m` only. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static const int widths[4] = {3, 3, 3, 3};
static double sink;

__attribute__((noinline)) static int two(int x) {
  if (x > 3)
    return 2;
  else
    return 2;
}

__attribute__((noinline)) static void same_on_both_sides(int k, int m) {
  int b = two(k) * m;
  for (int i = 0; i < b; i++) /* @both */
    sink += i;
}

__attribute__((noinline)) static void constant_table(int k, int m) {
  int b = widths[k % 4] * m;
  for (int i = 0; i < b; i++) /* @table */
    sink += 2 * i;
}

int main(int argc, char **argv) {
  int k = argc > 1 ? atoi(argv[1]) : 5;
  int m = argc > 2 ? atoi(argv[2]) : 10;
  tp_register_variable(&k, sizeof k, "k");
  tp_register_variable(&m, sizeof m, "m");
  same_on_both_sides(k, m);
  constant_table(k, m);
  printf("%f\n", sink);
  return 0;
}
