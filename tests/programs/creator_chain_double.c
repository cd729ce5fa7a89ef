/* Double-precision variant of creator_chain.c: exp() of -709 .. -740 is subnormal. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define N 2048
double kernel[N], image[N], work[N], copy[N];

__attribute__((noinline)) static void init_kernel(const double *offsets) {
  for (int i = 0; i < N; i++)
    kernel[i] = exp(-(709.5 + offsets[i])); /* @exp */
}

__attribute__((noinline)) static void apply(void) {
  for (int i = 0; i < N; i++)
    work[i] = kernel[i] * image[i]; /* @multiply */
}

int main(void) {
  static double offsets[N];
  for (int i = 0; i < N; i++) {
    offsets[i] = (double)(i % 30);
    image[i] = 0.5 + (double)(i % 7) / 14.0;
  }
  init_kernel(offsets);
  apply();
  memcpy(copy, work, sizeof copy);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += copy[i];
  printf("%g\n", s);
  return 0;
}
