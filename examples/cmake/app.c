/* The program of the CMake example: `app [n]` registers n as a taintprof parameter and
 * sums the first n terms of the harmonic series, so the report lists one loop over n. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  if (n < 0) {
    fprintf(stderr, "usage: app [n >= 0]\n");
    return 2;
  }
  tp_register_variable(&n, sizeof n, "n");

  double sum = 0.0;
  for (int i = 0; i < n; i++) /* @harmonic */
    sum += 1.0 / (i + 1);
  printf("H(%d) = %.6f\n", n, sum);
  return 0;
}
