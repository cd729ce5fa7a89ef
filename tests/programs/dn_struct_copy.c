/* A heap struct of floats and ints, copied whole (denormal mode,
 * tests/tests/denormal_e2e.rs). LAME's gr_info: MDCT values next to the quantized
 * integers, copied with memcpy. The block is followed as an array of floats, but small
 * integers look like denormal floats bit for bit: a copy must count only the
 * denormals the program's floating-point code put there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  float xr[64];
  int enc[64];
} granule;

__attribute__((noinline)) static void save(granule *dst, const granule *src) {
  memcpy(dst, src, sizeof *dst);
}

int main(int argc, char **argv) {
  float scale = (float)argc;
  granule *g = calloc(2, sizeof *g);
  for (int i = 0; i < 64; i++) {
    g[0].xr[i] = (i < 5) ? 1e-39f * scale : 1.0f + (float)i; /* @fill */
    g[0].enc[i] = i + 1; /* as floats: 1.4e-45 ... 9.0e-44, denormal bit patterns */
  }
  save(&g[1], &g[0]);
  float s = 0;
  long e = 0;
  for (int i = 0; i < 64; i++) {
    s += g[1].xr[i];
    e += g[1].enc[i];
  }
  printf("%g %ld\n", s, e);
  free(g);
  return 0;
}
