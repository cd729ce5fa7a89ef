/* One-sided communication: rank 0 registers n and k and moves them to other ranks'
 * windows with MPI_Put and MPI_Accumulate, rank 2 fetches one with MPI_Get (fence
 * epochs), and rank 0 puts one under a passive lock. No rank but 0 registers
 * anything: the labels and their names come through the windows. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int n = 0, k = 0;
  if (rank == 0) {
    n = atoi(argv[1]);
    k = atoi(argv[2]);
    tp_register_variable(&n, sizeof n, "n");
    tp_register_variable(&k, sizeof k, "k");
  }
  int *buf;
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win);
  for (int i = 0; i < 4; i++)
    buf[i] = 0;
  if (rank == 0)
    buf[1] = k;
  MPI_Win_fence(0, win);
  if (rank == 0) {
    MPI_Put(&n, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Accumulate(&k, 1, MPI_INT, 3, 2, 1, MPI_INT, MPI_SUM, win);
  }
  int g = 0;
  if (rank == 2)
    MPI_Get(&g, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  double s = 0;
  int put = rank == 1 ? buf[0] : 0;
  for (int i = 0; i < put; i++) /* @put */
    s += i;
  for (int i = 0; i < g; i++) /* @get */
    s += i;
  int acc = rank == 3 ? buf[2] : 0;
  for (int i = 0; i < acc; i++) /* @accumulate */
    s += i;

  /* Passive target. */
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    MPI_Put(&k, 1, MPI_INT, 1, 3, 1, MPI_INT, win);
    MPI_Win_unlock(1, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
  int locked = rank == 1 ? buf[3] : 0;
  MPI_Win_unlock(rank, win);
  for (int i = 0; i < locked; i++) /* @lock */
    s += i;

  MPI_Win_free(&win);
  if (rank == 0)
    printf("s %.0f\n", s);
  MPI_Finalize();
  return 0;
}
