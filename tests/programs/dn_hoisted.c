/* A denormal made by a loop-invariant product (denormal mode, tests/tests/denormal_e2e.rs):
 * at -O2 the optimizer hoists `tiny * scale` out of the loop and gives it line 0; the
 * report must still name the line it was written on. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = 1000;
  float scale = (float)argc;
  float *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++)
    a[i] = (i % 2) ? 1e-39f * scale : 1.0f; /* @scale */
  float s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * 1e10f;
  printf("%g\n", s);
  free(a);
  return 0;
}
