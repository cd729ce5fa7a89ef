/* steady: a loop whose denormal events always come in the same mix — per iteration
 * three multiplications with a denormal operand on the @three line and one on the
 * @one line — between stretches of normal work, so that sampled and exact profiles
 * must give the same shares (3/4 and 1/4).
 *
 *   steady [iterations [work]]   default 50000 iterations, 2000 steps of work each */
#include <stdio.h>
#include <stdlib.h>

volatile float denormal = 1e-40f;
volatile float sink;

int main(int argc, char **argv) {
  long iterations = argc > 1 ? atol(argv[1]) : 50000;
  int work = argc > 2 ? atoi(argv[2]) : 2000;
  float x = 1.0f;
  for (long i = 0; i < iterations; i++) {
    for (int k = 0; k < work; k++)
      x = x * 0.5f + 1.0f;
    float a = denormal, b = denormal, c = denormal, e = denormal;
    sink = a * 3.0f; sink = b * 5.0f; sink = c * 7.0f; /* @three */
    sink = e * 9.0f; /* @one */
  }
  printf("x = %.9g\n", x);
  return 0;
}
