/* Built with -ffast-math, whose start-up code sets flush-to-zero and
 * denormals-are-zero: there are no denormals to trace, and the report must say so. */
#include <stdio.h>

volatile float tiny = 1e-39f;

int main(void) {
  float s = 0;
  for (int i = 0; i < 1000; i++)
    s += tiny * 0.5f;
  printf("%g\n", s);
  return 0;
}
