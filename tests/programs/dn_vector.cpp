// Denormal mode on C++ containers: std::vector<float> buffers are marked heap arrays.
// After inlining (-O2, -O3), the buffer comes from operator new inside main, bound to a
// part of `fine` and to the parameters of inlined library helpers (`__first`, ...): the
// report must name it after the user's variable. Without inlining (-O0) it is
// allocated inside std::allocator<float>::allocate, which knows no variable: the report
// names it after that allocation site.
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 256;
  std::vector<float> coarse(n, 1.0f);
  std::vector<float> fine(n, 0.0f); /* @fine */
  for (int i = 0; i < n; i++)
    fine[i] = coarse[i] * 1e-39f; /* @scale */
  double s = 0;
  for (int i = 0; i < n; i++)
    s += fine[i];
  printf("%g\n", s);
  return 0;
}
