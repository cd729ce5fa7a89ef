// The public C++ headers compile cleanly and work.
#include <cstdio>
#include "taintprof.h"
#include "perf-taint/PerfTaint.hpp"

struct Options {
  int nx;
  double eps;
};

int main() {
  Options o{3, 1e-3};
  taintprof::register_variable(&o.nx, "nx");
  perf_taint::register_variable(&o.eps, VARIABLE_NAME(eps));
  taintprof::array_shape(&o.eps, 1, 1);  // denormal mode only: no effect here
  taintprof::snapshot("start");
  std::printf("nx=%u eps=%u\n", static_cast<unsigned>(tp_read_label(&o.nx, sizeof o.nx)),
              static_cast<unsigned>(tp_read_label(&o.eps, sizeof o.eps)));
  tp_write_report();
  return 0;
}
