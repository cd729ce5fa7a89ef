/* matmul: dense matrix multiply C = A * B in double precision (a `taintprof bench`
 * workload).
 *
 *   matmul [m [n [k]]]             A is m x k, B is k x n; default 1280 x 1280 x 1280 (about 0.6 s at -O2)
 *
 * m, n and k are the registered parameters; the triple loop of multiply() depends on
 * all three, the initialization loops on two each. */
#include <stdio.h>
#include <stdlib.h>
#include "tp_bench.h"

static double *create(int rows, int cols, int seed) {
  double *a = malloc((size_t)rows * cols * sizeof *a);
  if (!a)
    return NULL;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      a[i * cols + j] = 0.25 * ((i * 7 + j * 3 + seed) % 11) - 1.2;
  return a;
}

/* i-k-j order: the inner loop streams through rows of B and C. */
static void multiply(const double *restrict A, const double *restrict B,
                     double *restrict C, int m, int n, int k) {
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < n; j++)
      C[i * n + j] = 0.0;
    for (int l = 0; l < k; l++) {
      double a = A[i * k + l];
      for (int j = 0; j < n; j++)
        C[i * n + j] += a * B[l * n + j];
    }
  }
}

static double checksum(const double *C, int len) {
  double sum = 0.0;
  for (int i = 0; i < len; i++)
    sum += C[i] * (double)((i % 5) + 1);
  return sum;
}

int main(int argc, char **argv) {
  int m = argc > 1 ? atoi(argv[1]) : 1280;
  int n = argc > 2 ? atoi(argv[2]) : m;
  int k = argc > 3 ? atoi(argv[3]) : n;
  if (m < 1 || n < 1 || k < 1) {
    fprintf(stderr, "usage: matmul [m [n [k]]] (all >= 1)\n");
    return 2;
  }
  TP_BENCH_PARAM(m);
  TP_BENCH_PARAM(n);
  TP_BENCH_PARAM(k);

  double *A = create(m, k, 1);
  double *B = create(k, n, 2);
  double *C = malloc((size_t)m * n * sizeof *C);
  if (!A || !B || !C) {
    fprintf(stderr, "matmul: out of memory\n");
    return 1;
  }
  TP_BENCH_ARRAY(A, m, k, "A");
  TP_BENCH_ARRAY(B, k, n, "B");
  TP_BENCH_ARRAY(C, m, n, "C");
  multiply(A, B, C, m, n, k);
  printf("checksum %.17g\n", checksum(C, m * n));
  free(A);
  free(B);
  free(C);
  return 0;
}
