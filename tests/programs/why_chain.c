/* Chains for `taintprof report --why`: how each parameter reaches each loop.
 *  - `n` is registered in main, passed to `mesh_init`, stored into a struct field, read
 *    back in `smooth` through a pointer: the sweep depends on n through a call, a
 *    store and a load.
 *  - `steps` reaches the time loop in `run` as an argument.
 *  - `method` selects the solver: the iterative solver's loop runs only on one side
 *    of that branch, but its trip count is `its`; `method` reaches no loop.
 *  - `scale` reaches `refine`'s loop through a global written under a branch.
 *
 *   why_chain N STEPS METHOD ITS SCALE */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

struct mesh {
  double *u;
  int cells;
  int pad;
};

static int levels;

static void mesh_init(struct mesh *m, int n) {
  m->cells = 2 * n; /* @store */
  m->u = calloc((size_t)m->cells, sizeof(double));
}

static double __attribute__((noinline)) smooth(struct mesh *m) {
  double s = 0;
  for (int i = 1; i < m->cells - 1; i++) { /* @sweep */
    m->u[i] = 0.5 * (m->u[i - 1] + m->u[i + 1]) + 1.0;
    s += m->u[i];
  }
  return s;
}

static double __attribute__((noinline)) solve_iterative(struct mesh *m, int its) {
  double s = 0;
  for (int k = 0; k < its; k++) /* @its */
    s += smooth(m);
  return s;
}

static double __attribute__((noinline)) refine(void) {
  double s = 0;
  for (int l = 0; l < levels; l++) /* @refine */
    s += l * 0.5;
  return s;
}

static double __attribute__((noinline)) run(struct mesh *m, int steps, int method, int its) {
  double s = 0;
  for (int t = 0; t < steps; t++) { /* @time */
    if (method == 1) /* @select */
      s += solve_iterative(m, its);
    else
      s += smooth(m);
  }
  return s;
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: why_chain N STEPS METHOD ITS SCALE\n");
    return 2;
  }
  int n = atoi(argv[1]);
  int steps = atoi(argv[2]);
  int method = atoi(argv[3]);
  int its = atoi(argv[4]);
  int scale = atoi(argv[5]);
  tp_register_variable(&n, sizeof n, "n"); /* @reg_n */
  tp_register_variable(&steps, sizeof steps, "steps");
  tp_register_variable(&method, sizeof method, "method");
  tp_register_variable(&its, sizeof its, "its"); /* @reg_its */
  tp_register_variable(&scale, sizeof scale, "scale"); /* @reg_scale */
  if (scale > 2) /* @levels_branch */
    levels = scale * 3; /* @levels */
  else
    levels = 4;
  struct mesh m;
  mesh_init(&m, n); /* @init */
  double s = run(&m, steps, method, its); /* @run */
  s += refine();
  printf("%.3f\n", s);
  free(m.u);
  return 0;
}
