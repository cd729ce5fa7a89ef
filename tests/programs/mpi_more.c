/* More ways data moves between ranks: persistent requests, matched probes, gathers,
 * scatters, all-to-all, in-place reductions, scans, a split communicator, Waitany.
 * Rank 0 registers n and k and broadcasts them; every loop below is bounded by a value
 * that reached its rank through one of these calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int params[2] = {0, 0};
  if (rank == 0) {
    int n = atoi(argv[1]), k = atoi(argv[2]);
    tp_register_variable(&n, sizeof n, "n");
    tp_register_variable(&k, sizeof k, "k");
    params[0] = n;
    params[1] = k;
  }
  MPI_Bcast(params, 2, MPI_INT, 0, MPI_COMM_WORLD);
  int n = params[0], k = params[1];
  int next = (rank + 1) % p, prev = (rank + p - 1) % p;
  double s = 0; /* floating point: the loops below are not folded into closed forms */

  /* Persistent requests, started twice. */
  int out = k, in = 0;
  MPI_Request pr[2];
  MPI_Recv_init(&in, 1, MPI_INT, prev, 5, MPI_COMM_WORLD, &pr[0]);
  MPI_Send_init(&out, 1, MPI_INT, next, 5, MPI_COMM_WORLD, &pr[1]);
  for (int round = 0; round < 2; round++) {
    MPI_Startall(2, pr);
    MPI_Waitall(2, pr, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&pr[0]);
  MPI_Request_free(&pr[1]);
  for (int i = 0; i < in; i++) /* @persistent */
    s += i;

  /* A matched probe. */
  int got = 0;
  if (rank == 0) {
    MPI_Send(&n, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Message msg;
    MPI_Status st;
    MPI_Mprobe(0, 6, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv(&got, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
  }
  for (int i = 0; i < got; i++) /* @mrecv */
    s += i;

  /* Gather to rank 0, scatter from it, all-to-all. */
  int mine = n + rank;
  int *all = malloc(sizeof(int) * p);
  MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int bound = rank == 0 ? all[1] : 0;
  for (int i = 0; i < bound; i++) /* @gather */
    s += i;
  for (int r = 0; r < p; r++)
    all[r] = k;
  int part = 0;
  MPI_Scatter(all, 1, MPI_INT, &part, 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int i = 0; i < part; i++) /* @scatter */
    s += i;
  int *to = malloc(sizeof(int) * p), *from = malloc(sizeof(int) * p);
  for (int r = 0; r < p; r++)
    to[r] = n;
  MPI_Alltoall(to, 1, MPI_INT, from, 1, MPI_INT, MPI_COMM_WORLD);
  for (int i = 0; i < from[0]; i++) /* @alltoall */
    s += i;

  /* In place, and a prefix. */
  int x = k;
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  for (int i = 0; i < x; i++) /* @inplace */
    s += i;
  int pre = 0;
  MPI_Scan(&k, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < pre; i++) /* @scan */
    s += i;

  /* A split communicator: its size depends on p, its broadcasts carry labels. */
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  int q, hn = rank < 2 ? n : 0;
  MPI_Comm_size(half, &q);
  for (int i = 0; i < q; i++) /* @split_size */
    s += i;
  MPI_Bcast(&hn, 1, MPI_INT, 0, half);
  for (int i = 0; i < hn; i++) /* @split_bcast */
    s += i;
  MPI_Comm_free(&half);

  /* Waitany over a receive and a send. */
  int wa = 0, wb = k;
  MPI_Request rq[2];
  MPI_Irecv(&wa, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(&wb, 1, MPI_INT, next, 7, MPI_COMM_WORLD, &rq[1]);
  for (int done = 0; done < 2; done++) {
    int idx;
    MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE);
  }
  for (int i = 0; i < wa; i++) /* @waitany */
    s += i;

  if (rank == 0)
    printf("s %.0f\n", s);
  free(all);
  free(to);
  free(from);
  MPI_Finalize();
  return 0;
}
