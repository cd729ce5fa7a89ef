/* Cost driven by recursion depth (docs/internal/control-flow.md, "Recursion"): a
 * recursion whose continuation is decided by a parameter is a loop over it, located at
 * that decision (the markers).
 *
 * - fib(k): the decision `k < 2` depends on k, so fib's recursion is a loop over {k};
 * - vcycle(levels, n): a multigrid V-cycle, `levels` deep, smoothing n points on the
 *   way down and up: the recursion is a loop over {levels} around the smooth loops
 *   over {n} (volume levels * n, an over-approximation of the geometric sum);
 * - depth(5): a fixed-depth recursion decided by an unregistered value: constant;
 * - is_even/is_odd(m): mutual recursion over {m};
 * - ping/pong(m): a cycle whose only decision is in ping: pong's recursion takes the
 *   label of the decisions that led to its call (over {m}), it is not constant.
 *
 *   cf_recursion K LEVELS N M */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static volatile double sink;
static volatile int five = 5;

__attribute__((noinline)) int fib(int k) {
  return k < 2 ? k : fib(k - 1) + fib(k - 2); /* @fib */
}

__attribute__((noinline)) static void smooth(double *u, int n) {
  for (int i = 1; i < n - 1; i++) /* @smooth */
    u[i] = 0.5 * (u[i - 1] + u[i + 1]) + sink;
}

__attribute__((noinline)) void vcycle(double *u, int l, int n) {
  smooth(u, n);
  if (l > 0) /* @vcycle */
    vcycle(u, l - 1, n / 2);
  smooth(u, n);
}

__attribute__((noinline)) int depth(int d) {
  if (d == 0) /* @depth */
    return (int)sink;
  return 1 + depth(d - 1);
}

int is_odd(int m);

__attribute__((noinline)) int is_even(int m) {
  if (m == 0) /* @even */
    return 1;
  return is_odd(m - 1) + (int)sink;
}

__attribute__((noinline)) int is_odd(int m) {
  if (m == 0) /* @odd */
    return (int)sink;
  return is_even(m - 1) + (int)sink;
}

void pong(int x);

/* A cycle decided in one function only: pong recurses unconditionally, ping decides. */
__attribute__((noinline)) void ping(int x) {
  sink += x;
  if (x > 0) /* @ping */
    pong(x - 1);
}

__attribute__((noinline)) void pong(int x) {
  sink -= x;
  ping(x); /* @pong */
}

int main(int argc, char **argv) {
  if (argc < 5)
    return 2;
  int k = atoi(argv[1]), levels = atoi(argv[2]), n = atoi(argv[3]), m = atoi(argv[4]);
  tp_register_variable(&k, sizeof k, "k");
  tp_register_variable(&levels, sizeof levels, "levels");
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&m, sizeof m, "m");
  double *u = calloc((size_t)n, sizeof *u);
  printf("%d\n", fib(k));
  vcycle(u, levels, n);
  printf("%d %d\n", depth(five), is_even(m));
  ping(m);
  free(u);
  return 0;
}
