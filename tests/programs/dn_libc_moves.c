/* Denormals moved by the C library rather than by the program's own code (denormal mode,
 * tests/tests/denormal_e2e.rs): realloc moving a block, and memcpy called as a library
 * function (built with -fno-builtin, so the call stays a call to the wrapped memcpy). The
 * runtime's wrappers move the stored tags with the bytes, one shadow byte per byte in
 * denormal mode, so the array the denormals end up in still names the multiply that
 * created them; a lost tag would name the load that first read them instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int n = 1000;
  float scale = (float)argc;
  float *a = malloc(n * sizeof *a);
  if (!a)
    return 1;
  for (int i = 0; i < n; i++)
    a[i] = (i % 2) ? 1e-39f * scale : 1.0f; /* @fill */
  /* 400 KB: served by mmap, so the block moves. */
  float *moved = realloc(a, 100000 * sizeof *moved);
  if (!moved)
    return 1;
  float *c = malloc(n * sizeof *c);
  if (!c)
    return 1;
  memcpy(c, moved, n * sizeof *c);
  float s = 0;
  for (int i = 0; i < n; i++)
    s += c[i] * 1e10f; /* @use */
  printf("%g\n", s);
  free(moved);
  free(c);
  return 0;
}
