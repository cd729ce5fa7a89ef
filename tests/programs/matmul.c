/* Matrix create-and-multiply with parameters m, n, k (Perf-Taint's running example). */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static float *create(int rows, int cols, int seed) {
  float *a = malloc((size_t)rows * cols * sizeof *a);
  for (int i = 0; i < rows; i++) /* @create_rows */
    for (int j = 0; j < cols; j++) /* @create_cols */
      a[i * cols + j] = (float)((i * 7 + j * 3 + seed) % 11) - 5.0f;
  return a;
}

static void multiply(const float *A, const float *B, float *C, int m, int n, int k) {
  for (int i = 0; i < m; i++) /* @mul_i */
    for (int j = 0; j < n; j++) { /* @mul_j */
      float s = 0.0f;
      for (int l = 0; l < k; l++) /* @mul_l */
        s += A[i * k + l] * B[l * n + j];
      C[i * n + j] = s;
    }
}

static double checksum(const float *C, int len) {
  double sum = 0.0;
  for (int i = 0; i < len; i++) /* @checksum */
    sum += C[i] * (double)((i % 5) + 1);
  return sum;
}

int main(int argc, char **argv) {
  int m = argc > 1 ? atoi(argv[1]) : 24;
  int n = argc > 2 ? atoi(argv[2]) : 16;
  int k = argc > 3 ? atoi(argv[3]) : 12;
  tp_register_variable(&m, sizeof m, "m");
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&k, sizeof k, "k");
  float *A = create(m, k, 1); /* @call_create_a */
  float *B = create(k, n, 2); /* @call_create_b */
  float *C = malloc((size_t)m * n * sizeof *C);
  multiply(A, B, C, m, n, k);
  printf("checksum %.1f\n", checksum(C, m * n));
  free(A);
  free(B);
  free(C);
  return 0;
}
