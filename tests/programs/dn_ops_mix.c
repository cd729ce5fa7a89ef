/* Every kind of FP operation site meeting denormals, for the comparison of the inline
 * operation code with the `__tpd_op` hook (TAINTPROF_DN_INLINE_OPS=0): binary
 * operations that create denormals from normal operands (cancellation, scaling) and
 * carry them on, fneg, float<->double conversions, fmaf (three operands), sqrt, fabs, a
 * comparison (no FP result), libm calls (expf, ldexp) and vectorizable loops over
 * marked arrays (element-wise at -O3). The result depends on the denormals, so nothing
 * is optimized away. */
#include <math.h>
#include <stdio.h>

#define N 1024
float a[N], b[N], c[N];
double d[N];

__attribute__((noinline)) static void make(float scale) {
  for (int i = 0; i < N; i++) {
    float x = 1.0f + (float)(i % 5) * 0x1p-23f;      /* normal */
    float y = 1.0f;                                    /* normal */
    a[i] = (x - y) * scale;                            /* @cancel: denormal from normals */
    b[i] = expf(-(87.5f + (float)(i % 9)));            /* @expf: libm creates */
  }
}

__attribute__((noinline)) static void mix(void) {
  for (int i = 0; i < N; i++) {
    float s = a[i] + b[i];                             /* @add: denormal operands */
    float m = fmaf(a[i], 0.5f, b[i]);                  /* @fma: three operands */
    c[i] = -(s * 0.75f) + m;                           /* @neg */
    d[i] = (double)c[i] * 0x1p-900;                    /* @widen: fpext, then a double denormal */
  }
}

__attribute__((noinline)) static double reduce(void) {
  double t = 0;
  int small = 0;
  for (int i = 0; i < N; i++) {
    float back = (float)(d[i] * 0x1p900);              /* @narrow: fptrunc of a normal */
    if (fabsf(c[i]) < 1e-39f)                          /* @compare */
      small++;
    t += sqrt(d[i] * d[i] + 1e-300) + ldexp(back, -3); /* @sqrt */
  }
  return t + small;
}

int main(int argc, char **argv) {
  (void)argv;
  make(argc > 5 ? 1.0f : 0x1p-110f);
  mix();
  printf("%.9g\n", reduce());
  return 0;
}
