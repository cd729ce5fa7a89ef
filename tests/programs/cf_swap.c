/* Double-buffered time stepping: two grids swap roles every step, by hand
 * (w = u; u = v; v = w). After the time loop a sweep over u->n depends on n only: which
 * buffer `u` names was decided by the time loop, but its size is n either way.
 *
 *   cf_swap N STEPS */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

struct grid {
  int n;
  double *a;
};

static struct grid *make(int n) {
  struct grid *g = malloc(sizeof *g);
  g->n = n;
  g->a = calloc((size_t)n, sizeof *g->a);
  return g;
}

static void relax(struct grid *dst, const struct grid *src) {
  for (int i = 1; i < dst->n - 1; i++) /* @relax */
    dst->a[i] = 0.5 * (src->a[i - 1] + src->a[i + 1]);
}

static double total(const struct grid *g) {
  double s = 0;
  for (int i = 0; i < g->n; i++) /* @total */
    s += g->a[i];
  return s;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  int n = atoi(argv[1]), steps = atoi(argv[2]);
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&steps, sizeof steps, "steps");
  struct grid *u = make(n), *v = make(n);
  u->a[0] = v->a[0] = 1.0;
  for (int t = 0; t < steps; t++) { /* @time */
    relax(v, u);
    struct grid *w = u;
    u = v;
    v = w;
  }
  printf("%g\n", total(u));
  return 0;
}
