/* Registers 17 distinct parameters: the 17th must be refused with a clear error and left
 * unlabelled; registering a name twice reuses its label. */
#include <stdio.h>
#include <taintprof.h>

static int v[17];
static int data[64];
static char name[17][8];

__attribute__((noinline)) static long loop_over(int bound) {
  long s = 0;
  for (int i = 0; i < bound; i++) /* @over */
    s += data[i % 64] * i;
  return s;
}

int main(void) {
  for (int i = 0; i < 17; i++) {
    v[i] = 10 + i;
    snprintf(name[i], sizeof name[i], "p%d", i + 1);
    tp_register_variable(&v[i], sizeof v[i], name[i]);
  }
  for (int i = 0; i < 64; i++)
    data[i] = i * 3;
  int again = 5;
  tp_register_variable(&again, sizeof again, "p3"); /* same name: same label */
  long r = loop_over(v[0]); /* @ctx_p1 */
  r += loop_over(v[16]);     /* @ctx_p17 */
  r += loop_over(again);     /* @ctx_again */
  printf("%ld\n", r);
  return 0;
}
