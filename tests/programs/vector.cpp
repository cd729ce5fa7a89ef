// A std::vector sized by a parameter, iterated by index and by range-for.
#include <cstdio>
#include <numeric>
#include <vector>
#include <taintprof.h>

__attribute__((noinline)) static double by_index(const std::vector<double> &v) {
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) /* @index */
    s += v[i] * 2.0;
  return s;
}

__attribute__((noinline)) static double by_range(const std::vector<double> &v) {
  double s = 0;
  for (double x : v) /* @range */
    s += x;
  return s;
}

int main() {
  int n = 1000;
  taintprof::register_variable(&n, "n");
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), 1.0);
  std::printf("%.1f %.1f\n", by_index(v), by_range(v));
  return 0;
}
