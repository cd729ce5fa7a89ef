/* The thesis's jacobi (section 6.1.1): Laplace's equation by Jacobi iteration on a
 * 512 x 512 float grid, two arrays a and b swapping roles every iteration. With edges
 * 1.0 and interior 0.0 the averaging smears the edge values inward and a band of
 * denormals appears; with interior 0.1 there are none.
 *
 *   jacobi_dn [interior [iterations [n]]]     defaults: 0.0, 200, 512 */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static void init(float *g, int n, float interior) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      g[i * n + j] = (i == 0 || j == 0 || i == n - 1 || j == n - 1) ? 1.0f : interior;
}

static void sweep(const float *prev, float *cur, int n) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      cur[i * n + j] = 0.25f * (prev[(i - 1) * n + j] + prev[(i + 1) * n + j] + /* @stencil */
                                prev[i * n + j - 1] + prev[i * n + j + 1]);
}

int main(int argc, char **argv) {
  float interior = argc > 1 ? (float)atof(argv[1]) : 0.0f;
  int iterations = argc > 2 ? atoi(argv[2]) : 200;
  int n = argc > 3 ? atoi(argv[3]) : 512;
  float *a = malloc((size_t)n * n * sizeof *a);
  float *b = malloc((size_t)n * n * sizeof *b);
  tp_array_shape(a, n, n, "a");
  tp_array_shape(b, n, n, "b");
  init(a, n, interior);
  init(b, n, interior);
  for (int it = 0; it < iterations; it += 2) {
    sweep(a, b, n);
    sweep(b, a, n);
  }
  double sum = 0;
  for (int i = 0; i < n * n; i++)
    sum += a[i];
  printf("sum %.6f\n", sum);
  free(a);
  free(b);
  return 0;
}
