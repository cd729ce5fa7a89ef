/* mpi_stencil: a 2-D heat-diffusion stencil in double, its rows distributed over MPI
 * ranks (a `taintprof bench` workload, LULESH-like in shape; built with the MPI
 * compile and link flags and run under mpirun in every configuration).
 *
 *   mpirun -np P mpi_stencil [n [iters]]   default: 2048 x 2048 grid, 100 iterations
 *
 * Rank 0 reads n and iters, registers them (TP_BENCH_PARAM) and broadcasts them. The
 * process count p is what MPI_Comm_size says (taintprof's MPI library makes it the
 * implicit parameter p). Rank r owns n / p consecutive rows (the first n % p ranks one
 * more) and keeps a ghost row above and below them. Each iteration exchanges the ghost
 * rows with both neighbours (MPI_Sendrecv; MPI_PROC_NULL at the edges), updates every
 * interior cell it owns from its four neighbours (u' = u + k * (sum of neighbours -
 * 4 u)), and sums the squared change over all ranks (MPI_Allreduce of the residual).
 * The left edge is held at 1, the rest of the boundary and the interior start at 0.25,
 * so values stay in [0.25, 1]: no denormals. Each cell is computed from the previous
 * grid only, so the grid does not depend on p; the checksum (a weighted sum, reduced
 * to rank 0 with MPI_Reduce) does only through the order of the reduction, which is
 * the same in every configuration for one p. Rank 0 alone prints `checksum <value>`
 * (stdout) and the last residual (stderr). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "tp_bench.h"

/* Sets this rank's rows and its ghost rows: 1 in the left column, 0.25 elsewhere. */
static void init(double *u, int n, int rows) {
  for (int i = 0; i < rows + 2; i++)
    for (int j = 0; j < n; j++)
      u[(size_t)i * n + j] = j == 0 ? 1.0 : 0.25;
}

/* Exchanges ghost rows: the first owned row goes up, the last down. */
static void halo(double *u, int n, int rows, int up, int down) {
  MPI_Sendrecv(u + n, n, MPI_DOUBLE, up, 1, u + (size_t)(rows + 1) * n, n, MPI_DOUBLE,
               down, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(u + (size_t)rows * n, n, MPI_DOUBLE, down, 2, u, n, MPI_DOUBLE, up, 2,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Updates the owned interior cells (global rows 1 .. n - 2) into v; the boundary rows
 * and columns are copied. The local sum of squared changes. */
static double step(const double *restrict u, double *restrict v, int n, int first,
                   int rows, double k) {
  double res = 0.0;
  for (int i = 1; i <= rows; i++) {
    int g = first + i - 1;
    size_t row = (size_t)i * n;
    if (g == 0 || g == n - 1) {
      for (int j = 0; j < n; j++)
        v[row + j] = u[row + j];
      continue;
    }
    v[row] = u[row];
    v[row + n - 1] = u[row + n - 1];
    for (int j = 1; j < n - 1; j++) {
      size_t c = row + j;
      double x = u[c] + k * (u[c - n] + u[c + n] + u[c - 1] + u[c + 1] - 4.0 * u[c]);
      res += (x - u[c]) * (x - u[c]);
      v[c] = x;
    }
  }
  return res;
}

static double checksum(const double *u, int n, int first, int rows) {
  double s = 0.0;
  for (int i = 1; i <= rows; i++) {
    int g = first + i - 1;
    for (int j = 0; j < n; j++)
      s += u[(size_t)i * n + j] * (double)((g + 3 * j) % 7 + 1);
  }
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int params[2] = {0, 0};
  if (rank == 0) {
    int n = argc > 1 ? atoi(argv[1]) : 2048;
    int iters = argc > 2 ? atoi(argv[2]) : 100;
    TP_BENCH_PARAM(n);
    TP_BENCH_PARAM(iters);
    params[0] = n;
    params[1] = iters;
  }
  MPI_Bcast(params, 2, MPI_INT, 0, MPI_COMM_WORLD);
  int n = params[0], iters = params[1];
  if (n < 3 || iters < 0 || n < p) {
    if (rank == 0)
      fprintf(stderr, "usage: mpirun -np P mpi_stencil [n >= max(3, P) [iters >= 0]]\n");
    MPI_Finalize();
    return 2;
  }

  /* This rank's rows of the global grid: [first, first + rows). */
  int rows = n / p + (rank < n % p);
  int first = rank * (n / p) + (rank < n % p ? rank : n % p);
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int down = rank < p - 1 ? rank + 1 : MPI_PROC_NULL;

  double *u = malloc((size_t)(rows + 2) * n * sizeof *u);
  double *v = malloc((size_t)(rows + 2) * n * sizeof *v);
  if (!u || !v) {
    fprintf(stderr, "mpi_stencil: rank %d: out of memory for n = %d\n", rank, n);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  TP_BENCH_ARRAY(u, rows + 2, n, "u");
  TP_BENCH_ARRAY(v, rows + 2, n, "v");
  init(u, n, rows);
  init(v, n, rows);
  int every = iters >= 8 ? iters / 8 : 1;
  double residual = 0.0;
  for (int it = 0; it < iters; it++) {
    halo(u, n, rows, up, down);
    double mine = step(u, v, n, first, rows, 0.2);
    MPI_Allreduce(&mine, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double *t = u;
    u = v;
    v = t;
    if ((it + 1) % every == 0)
      TP_BENCH_SNAPSHOT_ITER(it + 1);
  }
  double mine = checksum(u, n, first, rows), total = 0.0;
  MPI_Reduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    fprintf(stderr, "mpi_stencil: %d ranks, residual %.6g\n", p, residual);
    printf("checksum %.17g\n", total);
  }
  free(u);
  free(v);
  MPI_Finalize();
  return 0;
}
