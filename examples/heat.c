/* A small 2-D heat-diffusion solver: the worked example of the README.
 *
 *   taintprof-cc -O2 examples/heat.c -o heat
 *   taintprof run -- ./heat 128 50 20
 *   taintprof report heat.<pid>.taintprof.json --design n=32,64,128,256,512 steps=10,20,40,80,160 probes=5,10,20,40,80
 *
 * Three performance parameters: the grid size n, the number of time steps, and the
 * number of probe points evaluated at the end. The time loop multiplies with the grid;
 * the probes are a separate phase, so the experiment design needs far fewer runs than
 * the full factorial. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static void init(double *u, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      u[i * n + j] = (i == 0) ? 100.0 : 0.0; /* hot top edge */
}

/* One explicit Euler step of the heat equation on the interior. */
static void step(const double *u, double *v, int n, double alpha) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      v[i * n + j] = u[i * n + j] + alpha * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                                             u[i * n + j - 1] + u[i * n + j + 1] - 4.0 * u[i * n + j]);
}

/* Bilinear interpolation of the field at (x, y) in [0, 1]^2. */
static double probe(const double *u, int n, double x, double y) {
  double fx = x * (n - 1), fy = y * (n - 1);
  int i = (int)fy, j = (int)fx;
  if (i >= n - 1) i = n - 2;
  if (j >= n - 1) j = n - 2;
  double dy = fy - i, dx = fx - j;
  return (1 - dy) * ((1 - dx) * u[i * n + j] + dx * u[i * n + j + 1]) +
         dy * ((1 - dx) * u[(i + 1) * n + j] + dx * u[(i + 1) * n + j + 1]);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 128;
  int steps = argc > 2 ? atoi(argv[2]) : 50;
  int probes = argc > 3 ? atoi(argv[3]) : 20;
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&steps, sizeof steps, "steps");
  tp_register_variable(&probes, sizeof probes, "probes");

  double *u = malloc((size_t)n * n * sizeof *u), *v = malloc((size_t)n * n * sizeof *v);
  init(u, n);
  init(v, n);
  for (int t = 0; t < steps; t++) {
    step(u, v, n, 0.2);
    double *w = u;
    u = v;
    v = w;
  }
  double sum = 0;
  for (int p = 0; p < probes; p++)
    sum += probe(u, n, 0.5, (p + 0.5) / probes);
  printf("mean temperature along the centre line: %.4f\n", sum / probes);
  free(u);
  free(v);
  return 0;
}
