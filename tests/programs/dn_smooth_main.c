/* Drives dn_smooth_lib.c (a shared library): a decaying tone, then silence.
 *   dn_smooth_main [frames]   default 400 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct smoother smoother;
smoother *smoother_new(int n);
void smoother_run(smoother *st, const float *x);
double smoother_sum(const smoother *st);
void smoother_free(smoother *st);

int main(int argc, char **argv) {
  int frames = argc > 1 ? atoi(argv[1]) : 400;
  enum { N = 64 };
  float x[N];
  smoother *st = smoother_new(N);
  for (int f = 0; f < frames; f++) {
    for (int i = 0; i < N; i++)
      x[i] = f < 20 ? (float)(sin(0.3 * (f * N + i)) * exp(-f / 4.0)) : 0.0f;
    smoother_run(st, x);
  }
  printf("sum %.9g\n", smoother_sum(st));
  smoother_free(st);
  return 0;
}
