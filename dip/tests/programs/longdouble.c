/* x87 (long double) denormal operands, through memory and registers. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64
long double a[N], b[N];

__attribute__((noinline)) long double dot(const long double *x, const long double *y, int n) {
  long double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * y[i]; /* @dot */
  return s;
}

__attribute__((noinline)) float fsum(const float *x, int n) {
  long double s = 0;
  for (int i = 0; i < n; i++) s += x[i]; /* @fsum */
  return (float)s;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 10;
  float f[N];
  for (int i = 0; i < N; i++) {
    a[i] = LDBL_MIN / (i + 2);
    b[i] = (i % 3) ? 1.5L : LDBL_MIN / 3;
    f[i] = (i % 2) ? 1e-39f : 1.0f;
  }
  long double s = 0;
  float t = 0;
  for (int r = 0; r < reps; r++) {
    __asm__ volatile("" ::: "memory"); /* the calls read memory: do not hoist them */
    s += dot(a, b, N);
    t += fsum(f, N);
  }
  const unsigned char *p = (const unsigned char *)&s;
  for (int i = 0; i < 10; i++) printf("%02x", p[i]);
  printf(" %a\n", t);
  return 0;
}
