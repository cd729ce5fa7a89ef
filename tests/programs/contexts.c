/* One function called twice with different parameters: two calling contexts. */
#include <stdio.h>
#include <taintprof.h>

static float vec[10000];

__attribute__((noinline)) static float kernel(int len) {
  float s = 0;
  for (int i = 0; i < len; i++) /* @kernel */
    s += vec[i];
  return s;
}

__attribute__((noinline)) static float phase(int len) {
  return kernel(len) * 0.5f; /* @phase_call */
}

int main(void) {
  int m = 300, n = 500;
  tp_register_variable(&m, sizeof m, "m");
  tp_register_variable(&n, sizeof n, "n");
  for (int i = 0; i < 10000; i++)
    vec[i] = (float)(i % 13);
  float r = kernel(m); /* @call_m */
  r += kernel(n);      /* @call_n */
  r += phase(n);       /* @call_phase */
  printf("%.1f\n", r);
  return 0;
}
