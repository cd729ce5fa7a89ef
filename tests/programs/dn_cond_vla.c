/* A variable-length array declared in a conditional block (denormal mode,
 * tests/tests/denormal_e2e.rs): it exists on some calls only, so it does not dominate
 * the function's return. The pass once released it there by name, which is invalid IR
 * (clang crashed on opus's ALLOC macro). */
#include <stdio.h>
#include <stdlib.h>

static float work(int n, int use_tmp, float scale) {
  float r = 0;
  if (use_tmp) {
    float tmp[n]; /* @vla */
    for (int i = 0; i < n; i++)
      tmp[i] = scale * (float)(i % 3); /* @fill */
    for (int i = 0; i < n; i++)
      r += tmp[i];
  }
  return r;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 64;
  float s = 0;
  for (int k = 0; k < 100; k++)
    s += work(n, k & 1, 1e-39f);
  printf("sum %g\n", s);
  return 0;
}
