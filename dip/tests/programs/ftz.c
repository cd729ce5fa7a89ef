/* Sets flush-to-zero and denormals-are-zero itself (as -ffast-math does). */
#include <stdio.h>
#include <stdlib.h>
#include <xmmintrin.h>

static volatile float tiny = 1e-39f;

__attribute__((noinline)) float work(int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += tiny * 0.5f; /* @work */
  return s;
}

int main(int argc, char **argv) {
  float before = work(10);
  if (argc < 2 || atoi(argv[1]))
    _mm_setcsr(_mm_getcsr() | 0x8040);
  float after = work(1000);
  printf("%a %a\n", before, after);
  return 0;
}
