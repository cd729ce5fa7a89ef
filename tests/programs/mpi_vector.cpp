// A C++ MPI program (built with mpicxx and OMPI_CXX/MPICH_CXX=taintprof-c++): rank 0
// reads the size, broadcasts it, every rank fills its share of a std::vector and the
// ranks reduce a sum.
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <taintprof.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int n = 0;
  if (rank == 0) {
    n = std::atoi(argv[1]);
    taintprof::register_variable(&n, "n");
  }
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<double> v(n / p);
  for (size_t i = 0; i < v.size(); i++) /* @fill */
    v[i] = 0.5 * i;
  double mine = 0, all = 0;
  for (double x : v) /* @sum */
    mine += x;
  MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("sum %.1f\n", all);
  MPI_Finalize();
  return 0;
}
