/* The creator question (thesis 6.5, where it took manual reasoning): expf fills a kernel
 * with denormals, the kernel is multiplied into a work array, and the work array is
 * memcpy'd into a third. All three arrays must name the expf line as the creator. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define N 4096
float kernel[N], image[N], work[N], copy[N];

__attribute__((noinline)) static void init_kernel(const float *offsets) {
  for (int i = 0; i < N; i++)
    kernel[i] = expf(-(88.5f + offsets[i])); /* @expf */
}

__attribute__((noinline)) static void apply(void) {
  for (int i = 0; i < N; i++)
    work[i] = kernel[i] * image[i]; /* @multiply */
}

int main(void) {
  static float offsets[N];
  for (int i = 0; i < N; i++) {
    offsets[i] = (float)(i % 12);        /* expf(-88.5 .. -99.5): all denormal */
    image[i] = 0.5f + (float)(i % 7) / 14.0f;
  }
  init_kernel(offsets);
  apply();
  memcpy(copy, work, sizeof copy);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += copy[i]; /* @read_copy */
  printf("%g\n", s);
  return 0;
}
