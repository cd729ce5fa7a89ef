/* Denormal arithmetic, then a crash (SIGSEGV). */
#include <stdio.h>

static volatile float tiny = 1e-39f;
int *volatile nowhere = 0;

int main(void) {
  float s = 0;
  for (int i = 0; i < 100; i++) s += tiny * 0.5f; /* @work */
  printf("%a\n", s);
  fflush(stdout);
  return *nowhere;
}
