/* A noise suppressor's recursive smoothing, after speexdsp's preprocess.c, built as a
 * shared library in denormal mode (tests/tests/denormal_e2e.rs). On silence the smoothed
 * spectra decay geometrically through the denormal range. Several arrays are live in
 * the loop, so the cold code holds many values in registers across its rare calls into
 * the runtime: an instrumented shared library once crashed there, on its first cache
 * miss, because the lazy PLT resolver clobbered r10. */
#include <stdlib.h>

typedef struct {
  int n;
  float *ps, *zeta, *prior, *gain, *old_ps;
} smoother;

smoother *smoother_new(int n) {
  smoother *st = malloc(sizeof *st);
  st->n = n;
  st->ps = calloc((size_t)n, sizeof(float));
  st->zeta = calloc((size_t)n, sizeof(float));
  st->prior = calloc((size_t)n, sizeof(float));
  st->gain = calloc((size_t)n, sizeof(float));
  st->old_ps = calloc((size_t)n, sizeof(float));
  for (int i = 0; i < n; i++)
    st->gain[i] = 1.0f;
  return st;
}

void smoother_run(smoother *st, const float *x) {
  int n = st->n;
  for (int i = 0; i < n; i++)
    st->ps[i] = x[i] * x[i];
  for (int i = 0; i < n; i++) {
    st->zeta[i] = 0.7f * st->zeta[i] + 0.3f * st->prior[i]; /* @zeta */
    st->prior[i] = 0.5f * st->prior[i] + 0.5f * st->ps[i] / (1.0f + st->old_ps[i]);
    st->gain[i] = st->zeta[i] / (1.0f + st->zeta[i]) + 0.5f;
    st->old_ps[i] = 0.2f * st->old_ps[i] + 0.8f * st->gain[i] * st->gain[i] * st->ps[i];
  }
}

double smoother_sum(const smoother *st) {
  double s = 0;
  for (int i = 0; i < st->n; i++)
    s += (double)st->zeta[i] + st->prior[i] + st->gain[i] + st->old_ps[i];
  return s;
}

void smoother_free(smoother *st) {
  free(st->ps);
  free(st->zeta);
  free(st->prior);
  free(st->gain);
  free(st->old_ps);
  free(st);
}
