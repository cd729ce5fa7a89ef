/* omp_stencil: a 2-D heat-diffusion stencil in double, parallelized with OpenMP (a
 * `taintprof bench` workload; built with -fopenmp in every configuration).
 *
 *   omp_stencil [n [iters]]        default: 2048 x 2048 grid, 80 iterations
 *
 * Each iteration updates every interior cell from its four neighbours
 * (u' = u + k * (sum of neighbours - 4 u)) with `#pragma omp parallel for` over the
 * rows, then swaps the grids. The left edge is held at 1, the rest of the boundary and
 * the interior start at 0.25, so values stay in [0.25, 1]: no denormals. Each cell is
 * computed by exactly one thread from the previous grid, so the result does not depend
 * on the number of threads (the bench runs with OMP_NUM_THREADS=2); the checksum is
 * summed serially. n and iters are the registered parameters: the parallel row loop
 * and the column loop depend on n, the time loop on iters. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "tp_bench.h"

static void init(double *u, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      u[(size_t)i * n + j] = j == 0 ? 1.0 : 0.25;
}

static void step(const double *restrict u, double *restrict v, int n, double k) {
#pragma omp parallel for schedule(static)
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++) {
      size_t c = (size_t)i * n + j;
      v[c] = u[c] + k * (u[c - n] + u[c + n] + u[c - 1] + u[c + 1] - 4.0 * u[c]);
    }
}

static double checksum(const double *u, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s += u[(size_t)i * n + j] * (double)((i + 3 * j) % 7 + 1);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2048;
  int iters = argc > 2 ? atoi(argv[2]) : 80;
  if (n < 3 || iters < 0) {
    fprintf(stderr, "usage: omp_stencil [n >= 3 [iters >= 0]]\n");
    return 2;
  }
  TP_BENCH_PARAM(n);
  TP_BENCH_PARAM(iters);

  double *u = malloc((size_t)n * n * sizeof *u);
  double *v = malloc((size_t)n * n * sizeof *v);
  if (!u || !v) {
    fprintf(stderr, "omp_stencil: out of memory for n = %d\n", n);
    return 1;
  }
  TP_BENCH_ARRAY(u, n, n, "u");
  TP_BENCH_ARRAY(v, n, n, "v");
  init(u, n);
  init(v, n);
  int every = iters >= 8 ? iters / 8 : 1;
  for (int it = 0; it < iters; it++) {
    step(u, v, n, 0.2);
    double *t = u;
    u = v;
    v = t;
    if ((it + 1) % every == 0)
      TP_BENCH_SNAPSHOT_ITER(it + 1);
  }
  fprintf(stderr, "omp_stencil: %d threads\n", omp_get_max_threads());
  printf("checksum %.17g\n", checksum(u, n));
  free(u);
  free(v);
  return 0;
}
