/* Parameter values and build ids in the raw run record (tests/tests/record_e2e.rs).
 * Registers parameters of every size the runtime reads (1, 2, 4, 8 bytes: signed
 * integers by the runtime's rule, since the API carries no type), one of another size
 * (no value), a name registered twice with one value and one registered again with
 * another; calls kernel_sum of the instrumented shared library shared_kernel.cpp.
 *
 *   param_values N   (N = 40 in the test) */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

double kernel_sum(int n);

struct triple {
  int a, b, c;
};

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 40;
  signed char level = -3;
  unsigned char small = 200;
  short offset = -300;
  long long big = 1LL << 40;
  unsigned int wide = 4000000000u;
  double tol = 0.5;
  struct triple grid = {4, 5, 6};
  int steps = 7, steps_again = 7;
  int m = 10;

  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&level, sizeof level, "level");
  tp_register_variable(&small, sizeof small, "small");
  tp_register_variable(&offset, sizeof offset, "offset");
  tp_register_variable(&big, sizeof big, "big");
  tp_register_variable(&wide, sizeof wide, "wide");
  tp_register_variable(&tol, sizeof tol, "tol");
  tp_register_variable(&grid, sizeof grid, "grid");
  tp_register_variable(&steps, sizeof steps, "steps");
  tp_register_variable(&steps_again, sizeof steps_again, "steps");
  tp_register_variable(&m, sizeof m, "m");
  m = 20;
  tp_register_variable(&m, sizeof m, "m");

  double s = 0;
  for (int t = 0; t < steps; t++) /* @steps */
    s += kernel_sum(n);
  printf("sum %g\n", s);
  return 0;
}
