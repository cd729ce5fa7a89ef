/* Call paths and their volumes summed over calls (issue 25: the prior of a measured
 * call path): sweep runs n^2 per call, iters times per solve, and solve runs steps times.
 * `smooth` is small enough to be inlined at -O2; `setup` is called once, and `probe` in
 * a loop of constant trip count. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static double grid[256 * 256];

static void sweep(int n) {
  for (int i = 0; i < n; i++)     /* @sweep_i */
    for (int j = 0; j < n; j++)   /* @sweep_j */
      grid[i * n + j] = 0.5 * (grid[i * n + j] + 1.0);
}

static inline void smooth(int n) {
  for (int i = 0; i < n; i++) /* @smooth */
    grid[i] *= 0.25;
}

static void solve(int n, int iters) {
  for (int k = 0; k < iters; k++) { /* @solve */
    sweep(n);                       /* @call_sweep */
    smooth(n);
  }
}

static void setup(int n) {
  for (int i = 0; i < n * n; i++) /* @setup */
    grid[i] = i % 7;
}

static double probe(int n, int at) {
  double s = 0;
  for (int j = 0; j < n; j++) /* @probe */
    s += grid[(at * 31) % (n * n)] + j;
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 32;
  int steps = argc > 2 ? atoi(argv[2]) : 3;
  int iters = argc > 3 ? atoi(argv[3]) : 2;
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&steps, sizeof steps, "steps");
  tp_register_variable(&iters, sizeof iters, "iters");
  setup(n);
  double s = 0;
  for (int t = 0; t < steps; t++) /* @steps */
    solve(n, iters);              /* @call_solve */
  for (int q = 0; q < 3; q++)     /* @probes */
    s += probe(n, q);
  printf("%.1f %.1f\n", grid[n + 1], s);
  return 0;
}
