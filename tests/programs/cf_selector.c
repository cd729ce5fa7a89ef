/* A parameter that selects the solver (`method`): the objects each solver builds carry
 * their size `n`, not the selector. The selector belongs in the branch report.
 * A count kept in memory under a data-dependent `if` (`above`) still depends on the
 * threshold: the decision changes the count, it does not just pick an object. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

typedef struct {
  int n;
  double *a;
} Grid;

static int above; /* how many values exceeded the threshold */

__attribute__((noinline)) static Grid *grid_new(int n) {
  Grid *g = malloc(sizeof *g);
  g->n = n;
  g->a = calloc((size_t)n, sizeof(double));
  return g;
}

__attribute__((noinline)) static void grid_free(Grid *g) {
  free(g->a);
  free(g);
}

__attribute__((noinline)) static double sweep(Grid *g) {
  double s = 0;
  for (int i = 0; i < g->n; i++) { /* @sweep */
    g->a[i] += 0.5 * i;
    s += g->a[i];
  }
  return s;
}

__attribute__((noinline)) static double solve_direct(int n) {
  Grid *g = grid_new(n);
  double s = sweep(g);
  grid_free(g);
  return s;
}

__attribute__((noinline)) static double solve_iterative(int n, int its) {
  Grid *g = grid_new(n);
  double s = 0;
  for (int k = 0; k < its; k++) /* @its */
    s += sweep(g);
  grid_free(g);
  return s;
}

__attribute__((noinline)) static void count_above(const double *x, int n, double t) {
  for (int i = 0; i < n; i++) /* @count */
    if (x[i] > t)
      above++;
}

__attribute__((noinline)) static double report_above(void) {
  double s = 0;
  for (int j = 0; j < above; j++) /* @above */
    s += j;
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int method = argc > 2 ? atoi(argv[2]) : 1;
  int its = argc > 3 ? atoi(argv[3]) : 5;
  double t = argc > 4 ? atof(argv[4]) : 0.5;
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&method, sizeof method, "method");
  tp_register_variable(&its, sizeof its, "its");
  tp_register_variable(&t, sizeof t, "t");
  double r;
  if (method == 0) /* @select */
    r = solve_direct(n);
  else
    r = solve_iterative(n, its);
  double *x = malloc((size_t)n * sizeof *x);
  for (int i = 0; i < n; i++) /* @fill */
    x[i] = (double)(i % 7) / 7.0;
  count_above(x, n, t);
  r += report_above();
  printf("%f %d\n", r, above);
  free(x);
  return 0;
}
