/* The thesis's jacobi with its sweep parallelized by OpenMP: every cell is computed by
 * one thread from the previous grid, so the denormal counts, origins and creators must
 * not depend on the number of threads (denormal mode's counters are per thread and
 * merged at exit).
 *
 *   dn_openmp [iterations]     default 120, a 192 x 192 grid */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

int main(int argc, char **argv) {
  int n = 192, iterations = argc > 1 ? atoi(argv[1]) : 120;
  float *a = malloc((size_t)n * n * sizeof *a);
  float *b = malloc((size_t)n * n * sizeof *b);
  tp_array_shape(a, n, n, "a");
  tp_array_shape(b, n, n, "b");
  for (int i = 0; i < n * n; i++)
    a[i] = b[i] = (i < n || i % n == 0) ? 1.0f : 0.0f;
  for (int t = 0; t < iterations; t++) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        b[i * n + j] = 0.25f * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + /* @stencil */
                                a[i * n + j - 1] + a[i * n + j + 1]);
    float *x = a;
    a = b;
    b = x;
  }
  double sum = 0;
  for (int i = 0; i < n * n; i++)
    sum += a[i];
  printf("%.9g\n", sum);
  return 0;
}
