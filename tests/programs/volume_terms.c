/* Volumes as data (`volume_terms`): a nest n*n*m (a power), a loop over n*m (a joint
 * factor), and `main`, whose own loops are constant. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static double buf[1 << 16];

__attribute__((noinline)) static double kernel(int n, int m) {
  double s = 0;
  for (int i = 0; i < n; i++)       /* @vt_i */
    for (int j = 0; j < n; j++)     /* @vt_j */
      for (int k = 0; k < m; k++)   /* @vt_k */
        s += buf[(i * 31 + j * 7 + k) & 0xffff];
  for (int t = 0; t < n * m; t++)   /* @vt_joint */
    s += buf[(t * 13) & 0xffff];
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 40;
  int m = argc > 2 ? atoi(argv[2]) : 30;
  for (int i = 0; i < (1 << 16); i++)
    buf[i] = (i % 11) * 0.5;
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&m, sizeof m, "m");
  printf("%.1f\n", kernel(n, m));
  return 0;
}
