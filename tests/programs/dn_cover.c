/* dn_cover: sums, differences and power-of-two multiples of normal values that come
 * out denormal. Denormal mode leaves such values out of the fast-path test and tests
 * their inputs against a raised threshold instead (`cover` in
 * pass/src/denormal/func.rs); the inputs here sit right above the smallest normal, so
 * every denormal intermediate must still reach the cold region and be counted.
 *
 * Prints how many denormal intermediates each marked line computes, found by the
 * program itself with fpclassify; the test compares these with the report. */
#include <math.h>
#include <stdio.h>

#define N 1003 /* not a multiple of the vector width: remainder loops too */

static float a[N], b[N], c[N], r[N], q[N];
static double da[N], db[N], dr[N];

__attribute__((noinline)) static void kernels(void) {
  for (int i = 0; i < N; i++) {
    float s = a[i] + b[i]; /* SUM1 */
    r[i] = s + c[i];       /* SUM2 */
  }
  for (int i = 0; i < N; i++)
    q[i] = 0.25f * (a[i] - c[i]); /* SCALE */
  for (int i = 0; i < N; i++)
    dr[i] = -(da[i] - db[i]) / 4.0; /* DDIV */
}

static int subnormal_f(float x) { return fpclassify(x) == FP_SUBNORMAL; }
static int subnormal_d(double x) { return fpclassify(x) == FP_SUBNORMAL; }

int main(void) {
  const float m = ldexpf(1.0f, -126); /* the smallest normal float */
  const double dm = ldexp(1.0, -1022);
  for (int i = 0; i < N; i++) {
    switch (i % 5) {
    case 0: /* 1.5 m - m = 0.5 m: two normals whose sum is denormal */
      a[i] = 1.5f * m, b[i] = -m, c[i] = 1.0f;
      break;
    case 1: /* near-underflow inputs whose sums stay normal (the raised threshold's
               false positives) */
      a[i] = ldexpf(1.0f, -110), b[i] = ldexpf(1.0f, -112), c[i] = ldexpf(3.0f, -111);
      break;
    case 2: /* 3m + 2m is normal, 0.25 (3m - 0) is not */
      a[i] = 3.0f * m, b[i] = 2.0f * m, c[i] = 0.0f;
      break;
    case 3: /* an exact cancellation to zero, then a denormal-free sum */
      a[i] = 1.75f * m, b[i] = -1.75f * m, c[i] = 2.0f;
      break;
    default: /* ordinary values */
      a[i] = 1.0f + (float)i, b[i] = 0.5f, c[i] = -3.0f;
      break;
    }
    da[i] = (i % 3 == 0) ? 1.25 * dm : (i % 3 == 1) ? 8.0 * dm : 1.0 + i;
    db[i] = (i % 3 == 0) ? dm : (i % 3 == 1) ? 4.0 * dm : 0.5;
  }
  kernels();
  /* What the marked lines computed, classified here (these lines are sites of their
     own; the test reads the marked lines only). */
  int sum1 = 0, sum2 = 0, scale = 0, ddiv = 0;
  for (int i = 0; i < N; i++) {
    volatile float s = a[i] + b[i];
    volatile float t = s + c[i];
    volatile float q = 0.25f * (a[i] - c[i]);
    volatile double d = -(da[i] - db[i]) / 4.0;
    sum1 += subnormal_f(s);
    sum2 += subnormal_f(t);
    scale += subnormal_f(q);
    ddiv += subnormal_d(d);
  }
  printf("SUM1 %d\nSUM2 %d\nSCALE %d\nDDIV %d\n", sum1, sum2, scale, ddiv);
  printf("checksum %.9g %.9g %.17g\n", r[N / 2], q[N / 5], dr[N / 3]);
  return 0;
}
