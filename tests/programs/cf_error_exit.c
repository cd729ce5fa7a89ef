/* Control flow that ends the program: validity checks with an error exit inside loops,
 * as real solvers write them (LULESH's `if (v <= 0) exit(VolumeError)`). The checked
 * values depend on `scale` (data), the loops on `n` and `steps`. An exit path is not a
 * way out of a loop, and a check whose other side ends the program decides nothing
 * after it, so no loop here may depend on `scale`.
 *
 *   cf_error_exit N STEPS SCALE */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static double *x;
static int n, steps;
static double scale;

static double min_value(void) {
  double m = 1e300;
  for (int i = 0; i < n; i++) /* @min */
    if (x[i] < m)
      m = x[i];
  return m;
}

static void check(void) {
  for (int i = 0; i < n; i++) { /* @check */
    if (x[i] < 0) {
      fprintf(stderr, "negative value at %d\n", i);
      exit(3);
    }
  }
}

static double sweep(double dt) {
  double s = 0;
  for (int i = 0; i < n; i++) /* @sweep */
    s += x[i] * dt;
  return s;
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  n = atoi(argv[1]);
  steps = atoi(argv[2]);
  scale = atof(argv[3]);
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&steps, sizeof steps, "steps");
  tp_register_variable(&scale, sizeof scale, "scale");
  x = malloc((size_t)n * sizeof *x);
  if (!x) {
    perror("malloc");
    exit(1);
  }
  for (int i = 0; i < n; i++) /* @init */
    x[i] = scale * (i + 1);
  double acc = 0;
  int done = 0;
  for (int t = 0; t < steps; t++) { /* @time */
    double dt = min_value();
    if (dt <= 0) {
      fprintf(stderr, "time step %g is not positive\n", dt);
      exit(2);
    }
    check();
    acc += sweep(dt);
    done++;
  }
  /* `done` counts the time steps: it depends on steps, not on the checks' data. */
  for (int k = 0; k < done; k++) /* @after */
    acc += k;
  printf("%g\n", acc);
  return 0;
}
