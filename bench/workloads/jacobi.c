/* jacobi: 2-D Jacobi stencil on an n x n float grid (a `taintprof bench` workload).
 *
 *   jacobi [n [iterations [interior]]]   default: 1024 x 1024, 1000 iterations, 0.5
 *
 * The grid size n and the iteration count are the registered parameters: the sweep's
 * loops depend on n, the time-step loop on iterations. The boundary is held at 1.
 * With the default interior 0.5 no value becomes denormal (the slowdown measured is the
 * instrumentation's, not the FPU's). With interior 0 (the `jacobi-denormal` workload,
 * the thesis's set-up in 6.4) the boundary's influence spreads inward as a wavefront of
 * ever smaller values: once it is some 64 cells in, the values at its front are
 * denormal, and the stencil reads and writes denormals until they grow out of range. */
#include <stdio.h>
#include <stdlib.h>
#include "tp_bench.h"

static void init(float *a, int n, float interior) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      a[i * n + j] = (i == 0 || j == 0 || i == n - 1 || j == n - 1) ? 1.0f : interior;
}

static void sweep(const float *restrict src, float *restrict dst, int n) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      dst[i * n + j] = 0.25f * (src[(i - 1) * n + j] + src[(i + 1) * n + j] +
                                src[i * n + j - 1] + src[i * n + j + 1]);
}

static double checksum(const float *a, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      sum += (double)a[i * n + j] * (double)((i + 2 * j) % 7 + 1);
  return sum;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  int iterations = argc > 2 ? atoi(argv[2]) : 1000;
  float interior = argc > 3 ? (float)atof(argv[3]) : 0.5f;
  if (n < 3 || iterations < 0) {
    fprintf(stderr, "usage: jacobi [n >= 3 [iterations >= 0 [interior]]]\n");
    return 2;
  }
  TP_BENCH_PARAM(n);
  TP_BENCH_PARAM(iterations);

  float *a = malloc((size_t)n * n * sizeof *a);
  float *b = malloc((size_t)n * n * sizeof *b);
  if (!a || !b) {
    fprintf(stderr, "jacobi: out of memory for n = %d\n", n);
    return 1;
  }
  TP_BENCH_ARRAY(a, n, n, "a");
  TP_BENCH_ARRAY(b, n, n, "b");
  init(a, n, interior);
  init(b, n, interior);
  /* Eight snapshots over the run in denormal mode (the heatmaps' frames). */
  int every = iterations >= 8 ? iterations / 8 : 1;
  for (int it = 0; it < iterations; it++) {
    sweep(a, b, n);
    float *t = a;
    a = b;
    b = t;
    if ((it + 1) % every == 0)
      TP_BENCH_SNAPSHOT_ITER(it + 1);
  }
  printf("checksum %.17g\n", checksum(a, n));
  free(a);
  free(b);
  return 0;
}
