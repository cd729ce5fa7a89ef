// Code annotated for Perf-Taint builds unchanged with taintprof.
#include <cstdio>
#include <perf-taint/PerfTaint.hpp>

EXTRAP void compute(int size, int steps, double *out) {
  for (int s = 0; s < steps; s++) /* @steps */
    for (int i = 0; i < size; i++) /* @size */
      out[i % 64] += s * 0.5 + i;
}

int main() {
  int size = 100, steps = 20;
  perf_taint::register_variable(&size, VARIABLE_NAME(size));
  perf_taint_register_variable(&steps, sizeof(steps), "steps");
  double out[64] = {0};
  compute(size, steps, out);
  std::printf("%s %.1f\n", VARIABLE_NAME(size), out[3]);
  return 0;
}
