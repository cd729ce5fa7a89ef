/* The denormal mode's profile tier (--tp-denormal=profile) against the full tier: a
 * function creates denormals from normal operands and returns them (a creator in a
 * callee), the caller stores them into a heap array, memcpy copies the array, and a
 * loop carries the copies on through a call that takes a denormal argument (operations
 * with a denormal operand: not creators). Both tiers must count every site the same,
 * and name the same creator site. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Denormal for 1 <= x < 16; 0x1p-130f is itself a denormal constant, which does not
 * keep the multiply from being the creator. */
__attribute__((noinline)) static float shrink(float x) {
  return x * 0x1p-130f; /* @shrink */
}

/* y is denormal, and so is y * 2. */
__attribute__((noinline)) static double grow(double acc, float y) {
  return acc * 0.5 + y * 2.0f; /* @grow */
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  if (n < 16) {
    fprintf(stderr, "usage: dn_profile [n >= 16]\n");
    return 2;
  }
  float *made = malloc((size_t)n * sizeof *made);
  float *copied = malloc((size_t)n * sizeof *copied);
  if (!made || !copied)
    return 1;
  for (int i = 0; i < n; i++)
    made[i] = shrink(1.0f + (float)(i % 16)); /* @store */
  memcpy(copied, made, (size_t)n * sizeof *copied);
  double acc = 0;
  for (int i = 0; i < n; i++)
    acc = grow(acc, copied[i]);
  printf("%.17g\n", acc);
  free(made);
  free(copied);
  return 0;
}
