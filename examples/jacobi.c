/* The thesis's jacobi (denormal tracing, section 6.1.1): Laplace's equation on a 512 x 512
 * float grid by Jacobi iteration. Edges 1.0 and interior 0.0 make a band of denormals
 * sweep inward; interior 0.1 (or 1e-20) avoids them.
 *
 *   taintprof-cc -O2 --tp-mode=denormal examples/jacobi.c -o jacobi
 *   ./jacobi 0.0 400
 *   taintprof denormals jacobi.<pid>.denormal.json --html jacobi-html
 *
 * The same source builds without taintprof: cc -DTAINTPROF_DISABLE examples/jacobi.c */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static void sweep(const float *prev, float *cur, int n) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      cur[i * n + j] = 0.25f * (prev[(i - 1) * n + j] + prev[(i + 1) * n + j] +
                                prev[i * n + j - 1] + prev[i * n + j + 1]);
}

int main(int argc, char **argv) {
  float interior = argc > 1 ? (float)atof(argv[1]) : 0.0f;
  int iterations = argc > 2 ? atoi(argv[2]) : 400;
  int n = 512;
  float *a = malloc((size_t)n * n * sizeof *a), *b = malloc((size_t)n * n * sizeof *b);
  tp_array_shape(a, n, n, "a");
  tp_array_shape(b, n, n, "b");
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      a[i * n + j] = b[i * n + j] = (i == 0 || j == 0 || i == n - 1 || j == n - 1) ? 1.0f : interior;
  char label[32];
  for (int it = 0; it < iterations; it += 2) {
    sweep(a, b, n);
    sweep(b, a, n);
    if ((it + 2) % 50 == 0) {
      snprintf(label, sizeof label, "iteration %d", it + 2);
      tp_snapshot(label);
    }
  }
  double sum = 0;
  for (int i = 0; i < n * n; i++)
    sum += a[i];
  printf("mean %.6f\n", sum / ((double)n * n));
  free(a);
  free(b);
  return 0;
}
