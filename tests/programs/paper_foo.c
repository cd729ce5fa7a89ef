/* The Perf-Taint paper's section 3.2 example: foo(a, b, c). `a` reaches the result by
 * data flow, `b` by explicit control flow (d++ / d-- under `if (b)`), `c` through the
 * join after `if (c) d = pow(d, 2)`. A loop bounded by foo's result depends on all three. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static double work[1024];

__attribute__((noinline)) static int foo(int a, int b, int c) {
  int d = 2 * a;
  if (b)
    d++;
  else
    d--;
  if (c)
    d = (int)pow(d, 2);
  return d;
}

__attribute__((noinline)) static double consume(int bound) {
  double s = 0;
  for (int i = 0; i < bound; i++) /* @foo_bound */
    s += work[i % 1024];
  return s;
}

int main(int argc, char **argv) {
  int a = 20, b = argc > 1 ? atoi(argv[1]) : 1, c = argc > 2 ? atoi(argv[2]) : 1;
  for (int i = 0; i < 1024; i++)
    work[i] = i * 0.5;
  tp_register_variable(&a, sizeof a, "a");
  tp_register_variable(&b, sizeof b, "b");
  tp_register_variable(&c, sizeof c, "c");
  printf("%.1f\n", consume(foo(a, b, c)));
  return 0;
}
