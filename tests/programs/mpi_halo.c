/* A LULESH-like MPI program: the problem size and step count are read on rank 0 and
 * broadcast; each rank owns n / p elements, exchanges halos of m values with its
 * neighbours (Isend/Irecv/Waitall), reduces the time step over all ranks every step
 * (MPI_Allreduce), and checks its values with an error exit that never runs. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static double elem_work(const double *v, int k) {
  double s = 0;
  for (int i = 0; i < k; i++) /* @elem */
    s += v[i] * 0.5;
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int params[3] = {0, 0, 0};
  if (rank == 0) {
    int n = atoi(argv[1]), iters = atoi(argv[2]), m = atoi(argv[3]);
    tp_register_variable(&n, sizeof n, "n");
    tp_register_variable(&iters, sizeof iters, "iters");
    tp_register_variable(&m, sizeof m, "m");
    params[0] = n;
    params[1] = iters;
    params[2] = m;
  }
  MPI_Bcast(params, 3, MPI_INT, 0, MPI_COMM_WORLD); /* @bcast_call */
  int n = params[0], iters = params[1], m = params[2];

  double check = 0;
  for (int i = 0; i < n; i++) /* @bcast */
    check += i;
  for (int r = 0; r < p; r++) /* @ranks */
    check += r;
  int local = n / p;
  double *v = malloc(sizeof(double) * (local > 0 ? local : 1));
  for (int i = 0; i < local; i++) { /* @share */
    v[i] = 1.0 + i;
    if (v[i] <= 0) {
      fprintf(stderr, "negative volume\n");
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }

  /* The largest m over the ranks (all have the same). */
  int mmax = 0;
  MPI_Allreduce(&m, &mmax, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD); /* @allreduce_call */
  for (int i = 0; i < mmax; i++) /* @allreduce */
    check += 1;

  /* A ring: each rank sends its step count to the next, blocking. */
  int next = (rank + 1) % p, prev = (rank + p - 1) % p, got = 0;
  MPI_Sendrecv(&iters, 1, MPI_INT, next, 1, &got, 1, MPI_INT, prev, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  for (int i = 0; i < got; i++) /* @sendrecv */
    check += 2;
  int got2 = 0;
  if (rank == 0)
    MPI_Send(&n, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Recv(&got2, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < got2; i++) /* @send */
    check += 3;

  /* Halos of m values with both neighbours, non-blocking. */
  int *out = malloc(sizeof(int) * 2 * (m > 0 ? m : 1));
  int *in = malloc(sizeof(int) * 2 * (m > 0 ? m : 1));
  for (int i = 0; i < 2 * m; i++) /* @fill */
    out[i] = m;
  MPI_Request req[4];
  MPI_Irecv(in, m, MPI_INT, prev, 3, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(in + m, m, MPI_INT, next, 4, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(out, m, MPI_INT, next, 3, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(out + m, m, MPI_INT, prev, 4, MPI_COMM_WORLD, &req[3]);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  for (int i = 0; i < in[0]; i++) /* @halo */
    check += 4;

  double dt = 1.0;
  for (int t = 0; t < iters; t++) { /* @time */
    double mine = elem_work(v, local);
    MPI_Allreduce(&mine, &dt, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD); /* @dt */
    check += dt;
    /* The halo's sums over all ranks: m values. */
    MPI_Allreduce(MPI_IN_PLACE, in, m, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* @sums */
  }
  if (rank == 0)
    printf("check %.1f\n", check);
  free(v);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
