/* The OpenMP thread count as the implicit parameter `threads` (off by default). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  tp_register_variable(&n, sizeof n, "n");
  double s = 0;
  int t = omp_get_max_threads();
  for (int i = 0; i < n / t; i++) /* @share */
    s += i;
  for (int k = 0; k < t; k++) /* @threads */
    s += k;
  printf("%f\n", s);
  return 0;
}
