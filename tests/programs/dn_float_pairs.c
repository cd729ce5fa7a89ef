/* Complex floats moved two at a time as a double, as FFTW's cpy2d does in a
 * single-precision build ("copy R[2] as double") (denormal mode,
 * tests/tests/denormal_e2e.rs). The bits are floats, not doubles: a pair whose
 * imaginary part is 0 reads as a denormal double, and must not be reported as one.
 * The strides come from the command line, as FFTW's come from its plan. */
#include <stdio.h>
#include <stdlib.h>

typedef double __attribute__((may_alias)) pair_t;

__attribute__((noinline)) static void cpy2d_pair(const float *in, float *out, long n, long is,
                                                 long os) {
  for (long i = 0; i < n; i++) {
    pair_t x0 = *(const pair_t *)&in[i * is]; /* @load */
    *(pair_t *)&out[i * os] = x0;             /* @store */
  }
}

int main(int argc, char **argv) {
  long n = 1000;
  long stride = argc > 1 ? atol(argv[1]) : 2;
  float scale = (float)argc;
  float *x = malloc(2 * n * sizeof *x), *y = malloc(2 * n * sizeof *y);
  for (long i = 0; i < n; i++) {
    x[2 * i] = 1.0f + (float)i;
    x[2 * i + 1] = 0.0f;
  }
  for (long i = 0; i < 10; i++)
    x[2 * i] = 1e-39f * scale; /* @fill */
  cpy2d_pair(x, y, n * 2 / stride, stride, stride);
  double s = 0;
  for (long i = 0; i < 2 * n; i++)
    s += y[i];
  printf("%g\n", s);
  free(x);
  free(y);
  return 0;
}
