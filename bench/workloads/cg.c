/* cg: conjugate-gradient solve of the 2-D Poisson equation on an n x n grid, with the
 * matrix in compressed sparse row (CSR) form (a `taintprof bench` workload).
 *
 *   cg [n [iters]]                 default: 700 x 700 grid (490,000 unknowns), 100 iterations
 *
 * The matrix is the 5-point Laplacian (4 on the diagonal, -1 for each grid neighbour,
 * Dirichlet boundary), built row by row into CSR arrays; the right-hand side is 1
 * everywhere and the start vector 0. Each of the `iters` CG iterations is one sparse
 * matrix-vector product (SpMV), two dot products and three axpys, all in double.
 * n and iters are the registered parameters: the SpMV's row loop depends on n (through
 * the row count), its inner loop on the row pointers (computed from n), the iteration
 * loop on iters (a fixed count: no convergence test, so the work does not depend on the
 * data). Residuals fall slowly (the condition number grows like n^2; for n >= 16 and
 * iters <= n the residual stays far above zero), so no value comes near the denormal
 * range. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "tp_bench.h"

/* A square sparse matrix in CSR form. */
typedef struct {
  int rows;
  int *rowptr; /* rows + 1 entries: row i is [rowptr[i], rowptr[i+1]) */
  int *col;
  double *val;
} csr;

/* The 5-point Laplacian on an n x n grid (unknown k = i * n + j). */
static int poisson(csr *a, int n) {
  int rows = n * n;
  a->rows = rows;
  a->rowptr = malloc((size_t)(rows + 1) * sizeof *a->rowptr);
  a->col = malloc((size_t)rows * 5 * sizeof *a->col);
  a->val = malloc((size_t)rows * 5 * sizeof *a->val);
  if (!a->rowptr || !a->col || !a->val)
    return -1;
  int nnz = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      a->rowptr[i * n + j] = nnz;
      /* Columns in increasing order: north, west, centre, east, south. */
      if (i > 0) {
        a->col[nnz] = (i - 1) * n + j;
        a->val[nnz++] = -1.0;
      }
      if (j > 0) {
        a->col[nnz] = i * n + j - 1;
        a->val[nnz++] = -1.0;
      }
      a->col[nnz] = i * n + j;
      a->val[nnz++] = 4.0;
      if (j < n - 1) {
        a->col[nnz] = i * n + j + 1;
        a->val[nnz++] = -1.0;
      }
      if (i < n - 1) {
        a->col[nnz] = (i + 1) * n + j;
        a->val[nnz++] = -1.0;
      }
    }
  }
  a->rowptr[rows] = nnz;
  return nnz;
}

/* y = A x */
static void spmv(const csr *a, const double *restrict x, double *restrict y) {
  for (int i = 0; i < a->rows; i++) {
    double s = 0.0;
    for (int k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
      s += a->val[k] * x[a->col[k]];
    y[i] = s;
  }
}

static double dot(const double *x, const double *y, int len) {
  double s = 0.0;
  for (int i = 0; i < len; i++)
    s += x[i] * y[i];
  return s;
}

/* y += alpha x */
static void axpy(double alpha, const double *restrict x, double *restrict y, int len) {
  for (int i = 0; i < len; i++)
    y[i] += alpha * x[i];
}

/* p = r + beta p */
static void xpby(const double *restrict r, double beta, double *restrict p, int len) {
  for (int i = 0; i < len; i++)
    p[i] = r[i] + beta * p[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 700;
  int iters = argc > 2 ? atoi(argv[2]) : 100;
  if (n < 2 || iters < 0) {
    fprintf(stderr, "usage: cg [n >= 2 [iters >= 0]]\n");
    return 2;
  }
  TP_BENCH_PARAM(n);
  TP_BENCH_PARAM(iters);

  csr a;
  if (poisson(&a, n) < 0) {
    fprintf(stderr, "cg: out of memory for n = %d\n", n);
    return 1;
  }
  int rows = a.rows;
  double *x = calloc((size_t)rows, sizeof *x);
  double *r = malloc((size_t)rows * sizeof *r);
  double *p = malloc((size_t)rows * sizeof *p);
  double *q = malloc((size_t)rows * sizeof *q);
  if (!x || !r || !p || !q) {
    fprintf(stderr, "cg: out of memory for n = %d\n", n);
    return 1;
  }
  TP_BENCH_ARRAY(x, n, n, "x");
  TP_BENCH_ARRAY(r, n, n, "r");
  TP_BENCH_ARRAY(p, n, n, "p");
  TP_BENCH_ARRAY(q, n, n, "q");
  /* b = 1, x0 = 0: r0 = p0 = b. */
  for (int i = 0; i < rows; i++)
    r[i] = p[i] = 1.0;
  double rr = dot(r, r, rows);
  double rr0 = rr;
  int every = iters >= 8 ? iters / 8 : 1;
  for (int it = 0; it < iters; it++) {
    spmv(&a, p, q);
    double alpha = rr / dot(p, q, rows);
    axpy(alpha, p, x, rows);
    axpy(-alpha, q, r, rows);
    double rr_new = dot(r, r, rows);
    xpby(r, rr_new / rr, p, rows);
    rr = rr_new;
    if ((it + 1) % every == 0)
      TP_BENCH_SNAPSHOT_ITER(it + 1);
  }
  double sum = 0.0;
  for (int i = 0; i < rows; i++)
    sum += x[i] * (double)(i % 7 + 1);
  printf("relative residual %.3e\n", sqrt(rr / rr0));
  printf("checksum %.17g\n", sum);
  free(a.rowptr);
  free(a.col);
  free(a.val);
  free(x);
  free(r);
  free(p);
  free(q);
  return 0;
}
