/* Denormals copied element by element and with memcpy (denormal mode,
 * tests/tests/denormal_e2e.rs). -O2 turns the copy loop into a memcpy; the arrays'
 * counts, origins and creators must not depend on that. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Not inlined, so that -O2 keeps the three arrays (it would forward a's values to c). */
__attribute__((noinline)) static void copy_loop(float *restrict dst, const float *restrict src,
                                                int n) {
  for (int i = 0; i < n; i++)
    dst[i] = src[i]; /* @copy */
}

__attribute__((noinline)) static void copy_block(float *restrict dst, const float *restrict src,
                                                 int n) {
  memcpy(dst, src, n * sizeof *dst);
}

int main(int argc, char **argv) {
  int n = 1000;
  float scale = (float)argc;
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  for (int i = 0; i < n; i++)
    a[i] = (i % 2) ? 1e-39f * scale : 1.0f; /* @fill */
  copy_loop(b, a, n);
  copy_block(c, b, n);
  float s = 0;
  for (int i = 0; i < n; i++)
    s += c[i] * 1e10f;
  printf("%g\n", s);
  free(a);
  free(b);
  free(c);
  return 0;
}
