/* Three parameters, two of them coupled: x and y multiply (nested loops), z adds
 * (a separate phase). The experiment design needs the x-y grid and a z sweep only. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static float grid[256 * 256];

__attribute__((noinline)) static float stencil(int x, int y) {
  float s = 0;
  for (int i = 0; i < x; i++) /* @x */
    for (int j = 0; j < y; j++) /* @y */
      s += grid[(i * 256 + j) & 0xffff];
  return s;
}

__attribute__((noinline)) static float reduce(int z) {
  float s = 0;
  for (int k = 0; k < z; k++) /* @z */
    s += grid[(k * 13) & 0xffff];
  return s;
}

__attribute__((noinline)) static int banner(void) { return printf("three_params\n"); }

int main(int argc, char **argv) {
  int x = argc > 1 ? atoi(argv[1]) : 32;
  int y = argc > 2 ? atoi(argv[2]) : 24;
  int z = argc > 3 ? atoi(argv[3]) : 100;
  for (int i = 0; i < 256 * 256; i++)
    grid[i] = (float)(i % 9);
  tp_register_variable(&x, sizeof x, "x");
  tp_register_variable(&y, sizeof y, "y");
  tp_register_variable(&z, sizeof z, "z");
  banner();
  printf("%.1f\n", stencil(x, y) + reduce(z));
  return 0;
}
