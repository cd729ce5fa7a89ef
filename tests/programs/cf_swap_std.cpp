// Double-buffered time stepping with std::swap of two grid pointers: after the time loop
// a sweep over u->n depends on n only.
//
//   cf_swap_std N STEPS
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>
#include <taintprof.h>

struct Grid {
  int n;
  std::vector<double> a;
  explicit Grid(int n) : n(n), a(n, 0.0) {}
};

static void relax(Grid *dst, const Grid *src) {
  for (int i = 1; i < dst->n - 1; i++) /* @relax */
    dst->a[i] = 0.5 * (src->a[i - 1] + src->a[i + 1]);
}

static double total(const Grid *g) {
  double s = 0;
  for (int i = 0; i < g->n; i++) /* @total */
    s += g->a[i];
  return s;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  int n = std::atoi(argv[1]), steps = std::atoi(argv[2]);
  taintprof::register_variable(&n, "n");
  taintprof::register_variable(&steps, "steps");
  Grid *u = new Grid(n), *v = new Grid(n);
  u->a[0] = v->a[0] = 1.0;
  for (int t = 0; t < steps; t++) { /* @time */
    relax(v, u);
    std::swap(u, v);
  }
  std::printf("%g\n", total(u));
  delete u;
  delete v;
  return 0;
}
