/* A C program (linked by the C driver, without libstdc++) that calls an instrumented
 * C++ shared library, shared_kernel.cpp. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

double kernel_sum(int n);

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  tp_register_variable(&n, sizeof n, "n");
  printf("sum %g\n", kernel_sum(n));
  return 0;
}
