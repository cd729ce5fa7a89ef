// Denormal mode on C++ containers: std::vector<float> buffers are marked heap arrays,
// named after the user's variable at every optimization level. After inlining (-O2,
// -O3), the buffer comes from operator new inside main, bound to a part of `fine` and
// to the parameters of inlined library helpers (`__first`, ...). Without inlining
// (-O0) it is allocated inside std::allocator<float>::allocate, which knows no
// variable: main names it after each call it passes `fine` to. `grown` gets its buffer
// in push_back, inside a function that only has a reference to it (where it is `out`,
// until main names it). `cells` is a member, allocated in the constructor (where it is
// `this->cells`, until main names it `g.cells`).
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Grid {
  int n;
  std::vector<float> cells;
  explicit Grid(int n) : n(n), cells(n, 1.0f) {} /* @cells */
  __attribute__((noinline)) void decay(float f) {
    for (float &c : cells)
      c *= f;
  }
};

__attribute__((noinline)) static void fill(std::vector<double> &out, int n, double scale) {
  for (int i = 0; i < n; i++)
    out.push_back(scale * 1e-300 * 1e-10); /* @push */
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 256;
  std::vector<float> coarse(n, 1.0f);
  std::vector<float> fine(n, 0.0f); /* @fine */
  for (int i = 0; i < n; i++)
    fine[i] = coarse[i] * 1e-39f; /* @scale */
  std::vector<double> grown; /* @grown */
  fill(grown, n, argc);
  Grid g(n); /* @grid */
  g.decay(1e-39f * argc);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += fine[i] + grown[i] * 1e300 + g.cells[i];
  printf("%g\n", s);
  return 0;
}
