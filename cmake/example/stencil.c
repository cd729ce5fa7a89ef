#include "stencil.h"

void stencil_step(const double *src, double *dst, int n) {
  dst[0] = src[0];
  dst[n - 1] = src[n - 1];
  for (int i = 1; i < n - 1; i++) /* depends on n */
    dst[i] = src[i] + 0.25 * (src[i - 1] - 2.0 * src[i] + src[i + 1]);
}
