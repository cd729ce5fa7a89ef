/* Built with -ffast-math: the start-up code sets FTZ/DAZ before main. */
#include <stdio.h>

static volatile float tiny = 1e-39f;

int main(void) {
  float s = 0;
  for (int i = 0; i < 1000; i++) s += tiny * 0.5f; /* @work */
  printf("%a\n", s);
  return 0;
}
