// The C++ shape of a solver selector: each solver constructs its grid (a constructor,
// a std::vector sized n); the sweep over the grid depends on n, not on `method`.
#include <cstdio>
#include <cstdlib>
#include <taintprof.h>
#include <vector>

struct Grid {
  int n;
  std::vector<double> a;
  explicit Grid(int size) : n(size), a(size, 1.0) {}
  double sweep() const {
    double s = 0;
    for (int i = 0; i < n; i++) /* @sweep */
      s += a[i] * i;
    return s;
  }
};

struct Solver {
  virtual ~Solver() = default;
  virtual double solve(int n, int its) = 0;
};

struct Direct : Solver {
  double solve(int n, int) override {
    Grid g(n);
    return g.sweep();
  }
};

struct Iterative : Solver {
  double solve(int n, int its) override {
    Grid g(n);
    double s = 0;
    for (int k = 0; k < its; k++) /* @its */
      s += g.sweep();
    return s;
  }
};

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int method = argc > 2 ? atoi(argv[2]) : 1;
  int its = argc > 3 ? atoi(argv[3]) : 5;
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&method, sizeof method, "method");
  tp_register_variable(&its, sizeof its, "its");
  Solver *s;
  if (method == 0) /* @select */
    s = new Direct;
  else
    s = new Iterative;
  double r = s->solve(n, its);
  delete s;
  std::printf("%f\n", r);
  return 0;
}
