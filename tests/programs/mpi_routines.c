/* MPI routines of the routine database (rt/routines.txt, "# MPI") without MPI: the
 * calls go to stubs defined in mpi_stub.c, another translation unit, so the pass sees
 * calls of external declarations, as in an MPI program. The process count p, which the
 * MPI interception library registers from MPI_Comm_size, is registered here by hand
 * with __tp_implicit_p between the two phases: collectives (`comm=`) depend on p from
 * then on. (tests/tests/mpi_routines.rs)
 *   ./mpi_routines iters n */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

/* Open MPI's handles are pointers. */
typedef void *MPI_Comm;
typedef void *MPI_Datatype;
typedef void *MPI_Op;
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm);
int MPI_Barrier(MPI_Comm comm);
int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
             MPI_Comm comm);
extern unsigned short __tp_implicit_p(void *size, unsigned long n);

static int world, dbl, sum;
#define COMM ((MPI_Comm)&world)
#define DOUBLE ((MPI_Datatype)&dbl)
#define SUM ((MPI_Op)&sum)

/* Before p is registered: the collective's label is its count's. */
void before_p(double *a, double *b, int n, int iters) {
    for (int t = 0; t < iters; t++) /* @before */
        MPI_Allreduce(a, b, n, DOUBLE, SUM, COMM); /* @allreduce_before */
}

/* After: collectives add p, even with a constant count or none; a point-to-point
 * send does not. */
void after_p(double *a, double *b, int n, int iters) {
    for (int t = 0; t < iters; t++) { /* @after */
        MPI_Allreduce(a, b, n, DOUBLE, SUM, COMM); /* @allreduce */
        MPI_Allreduce(a, b, 1, DOUBLE, SUM, COMM); /* @scalar */
        MPI_Barrier(COMM); /* @barrier */
        MPI_Send(a, n, DOUBLE, 0, 0, COMM); /* @send */
    }
}

int main(int argc, char **argv) {
    if (argc < 3)
        return 2;
    int iters = atoi(argv[1]), n = atoi(argv[2]);
    tp_register_variable(&iters, sizeof iters, "iters");
    tp_register_variable(&n, sizeof n, "n");
    double *a = malloc(sizeof(double) * 64), *b = malloc(sizeof(double) * 64);
    before_p(a, b, n, iters);
    int size = 4;
    __tp_implicit_p(&size, sizeof size);
    after_p(a, b, n, iters);
    printf("%d\n", size);
    free(a);
    free(b);
    return 0;
}
