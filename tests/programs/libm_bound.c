/* A bound computed with libm: (int)sqrt(n). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

__attribute__((noinline)) static double side(int n, const double *v) {
  double s = 0;
  int root = (int)sqrt((double)n);
  for (int i = 0; i < root; i++) /* @sqrt */
    s += v[i] * v[i];
  return s;
}

__attribute__((noinline)) static double powers(int e, const double *v) {
  double s = 0;
  int lim = (int)pow(2.0, (double)e);
  for (int i = 0; i < lim; i++) /* @pow */
    s += v[i % 64];
  return s;
}

int main(void) {
  int n = 400, e = 5;
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&e, sizeof e, "e");
  double *v = malloc(64 * sizeof *v);
  for (int i = 0; i < 64; i++)
    v[i] = i;
  printf("%.1f %.1f\n", side(n, v), powers(e, v));
  free(v);
  return 0;
}
