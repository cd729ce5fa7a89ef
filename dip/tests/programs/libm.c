/* libm calls whose results are denormal: expf(-100) ~ 3.7e-44, exp(-740) ~ 4e-322. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200;
  volatile float xf = -100.0f;
  volatile double xd = -740.0;
  float sf = 0;
  double sd = 0;
  for (int i = 0; i < n; i++) {
    sf += expf(xf); /* @expf */
    sd += exp(xd);  /* @exp */
  }
  printf("%a %a\n", sf, sd);
  return 0;
}
