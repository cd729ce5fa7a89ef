// The program half of the CMake example: `heat [n [steps]]` registers n and steps as
// taintprof parameters and runs `steps` stencil steps on n points.
#include <cstdio>
#include <cstdlib>
#include <taintprof.h>
#include <utility>
#include <vector>

#include "stencil.h"

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 64;
  int steps = argc > 2 ? std::atoi(argv[2]) : 10;
  if (n < 3 || steps < 0) {
    std::fprintf(stderr, "usage: heat [n >= 3 [steps >= 0]]\n");
    return 2;
  }
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&steps, sizeof steps, "steps");

  std::vector<double> a(n, 0.0), b(n, 0.0);
  a[0] = 1.0;
  for (int s = 0; s < steps; s++) { // depends on steps
    stencil_step(a.data(), b.data(), n);
    std::swap(a, b);
  }
  double sum = 0.0;
  for (double v : a) // depends on n
    sum += v;
  std::printf("sum %.6f\n", sum);
  return 0;
}
