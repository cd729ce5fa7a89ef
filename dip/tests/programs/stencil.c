/* A Jacobi-like stencil on floats (thesis Fig. 4.3) and a double that is halved into
 * the subnormal range. `stencil N ITERS INTERIOR`: interior 0.0 makes denormals appear
 * at the wavefront; a normal interior (0.1, 0.5) avoids them. Prints a checksum so runs
 * with and without the profiler can be compared bit for bit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void sweep(float *cur, const float *prev, int n) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      cur[i * n + j] = 0.25f * (prev[(i - 1) * n + j] + prev[(i + 1) * n + j] + prev[i * n + j - 1] + prev[i * n + j + 1]); /* @stencil */
}

__attribute__((noinline)) double halve(double d, int times) {
  for (int k = 0; k < times; k++)
    d = d / 2.0; /* @halve */
  return d;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 128;
  int iters = argc > 2 ? atoi(argv[2]) : 100;
  float interior = argc > 3 ? (float)atof(argv[3]) : 0.0f;
  int halvings = argc > 4 ? atoi(argv[4]) : 1060;
  float *a = malloc(sizeof(float) * n * n), *b = malloc(sizeof(float) * n * n);
  for (int i = 0; i < n * n; i++) a[i] = b[i] = interior;
  for (int i = 0; i < n; i++) {
    a[i] = b[i] = a[(n - 1) * n + i] = b[(n - 1) * n + i] = 1.0f;
    a[i * n] = b[i * n] = a[i * n + n - 1] = b[i * n + n - 1] = 1.0f;
  }
  for (int it = 0; it < iters; it++) {
    if (it & 1) sweep(a, b, n);
    else sweep(b, a, n);
  }
  unsigned h = 0;
  for (int i = 0; i < n * n; i++) {
    unsigned u;
    memcpy(&u, &a[i], 4);
    h = h * 31 + u;
  }
  double d = halve(1.0, halvings);
  printf("checksum %08x halved %a\n", h, d);
  free(a);
  free(b);
  return 0;
}
