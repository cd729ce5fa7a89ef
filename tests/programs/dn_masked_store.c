/* A conditional store that the vectorizer makes a masked store (built with -mavx2 at
 * -O2; denormal mode, tests/tests/denormal_e2e.rs). The lanes outside the mask keep
 * their memory, denormals included, and so must their tags: every denormal read from a
 * in the end was created on the line marked @fill, none by the load that reads it. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void halve_some(float *restrict a, const int *restrict keep,
                                                 int n) {
  for (int i = 0; i < n; i++)
    if (!keep[i])
      a[i] = a[i] * 0.5f; /* @halve */
}

int main(int argc, char **argv) {
  int n = 1024;
  float scale = (float)argc;
  float *a = malloc(n * sizeof *a);
  int *keep = malloc(n * sizeof *keep);
  if (!a || !keep)
    return 1;
  for (int i = 0; i < n; i++) {
    a[i] = 1e-39f * scale; /* @fill */
    keep[i] = i % 4 == 0;
  }
  halve_some(a, keep, n);
  float s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * 1e10f; /* @use */
  printf("%g\n", s);
  free(a);
  free(keep);
  return 0;
}
