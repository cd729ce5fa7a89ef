/* Two calls of one function on one source line (`return work(a) + work(b);`): two
 * calling contexts, so `a` and `b` add; merged into one they would look
 * multiplicative, `(a,b)`.
 *
 *   cf_two_calls A B */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static volatile long sink;

static long work(int k) {
  long s = 0;
  for (int i = 0; i < k; i++) /* @work */
    s += i * (sink + 1);
  return s;
}

static long both(int a, int b) { return work(a) + work(b); } /* @both */

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  int a = atoi(argv[1]), b = atoi(argv[2]);
  tp_register_variable(&a, sizeof a, "a");
  tp_register_variable(&b, sizeof b, "b");
  printf("%ld\n", both(a, b));
  return 0;
}
