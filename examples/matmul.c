/* The bundled example: create two matrices and multiply them.
 *
 *   taintprof-cc -O2 examples/matmul.c -o matmul
 *   taintprof run -- ./matmul 96 64 48
 *
 * The three sizes m, n, k are registered as performance parameters (one line each);
 * the report then says which loop's trip count depends on which of them. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

/* A rows x cols matrix filled with a deterministic pattern. */
static float *create(int rows, int cols, int seed) {
  float *a = malloc((size_t)rows * cols * sizeof *a);
  for (int i = 0; i < rows; i++)            /* depends on rows: m, then k */
    for (int j = 0; j < cols; j++)          /* depends on cols: k, then n */
      a[i * cols + j] = (float)((i * 7 + j * 3 + seed) % 11) - 5.0f;
  return a;
}

/* C (m x n) = A (m x k) * B (k x n) */
static void multiply(const float *A, const float *B, float *C, int m, int n, int k) {
  for (int i = 0; i < m; i++)               /* m */
    for (int j = 0; j < n; j++) {           /* n */
      float s = 0.0f;
      for (int l = 0; l < k; l++)           /* k */
        s += A[i * k + l] * B[l * n + j];
      C[i * n + j] = s;
    }
}

static double checksum(const float *C, int len) {
  double sum = 0.0;
  for (int i = 0; i < len; i++)             /* m*n: both */
    sum += C[i] * (double)((i % 5) + 1);
  return sum;
}

int main(int argc, char **argv) {
  int m = argc > 1 ? atoi(argv[1]) : 96;
  int n = argc > 2 ? atoi(argv[2]) : 64;
  int k = argc > 3 ? atoi(argv[3]) : 48;
  tp_register_variable(&m, sizeof m, "m");
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&k, sizeof k, "k");

  float *A = create(m, k, 1);
  float *B = create(k, n, 2);
  float *C = malloc((size_t)m * n * sizeof *C);
  multiply(A, B, C, m, n, k);
  printf("checksum %.1f\n", checksum(C, m * n));
  free(A);
  free(B);
  free(C);
  return 0;
}
