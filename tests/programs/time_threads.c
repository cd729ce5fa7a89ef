/* Time mode: the threads' trees are summed by call path (tests/tests/time_mode.rs). */
#include <pthread.h>
#include <stdlib.h>
#include <taintprof.h>

static int n;

static double kernel(int m) {
  double s = 0;
  for (int i = 0; i < m; i++) /* @kernel-loop */
    s += i * 0.25;
  return s;
}

static void *worker(void *arg) {
  double *out = arg;
  for (int r = 0; r < 5; r++)
    *out += kernel(n);
  return NULL;
}

int main(int argc, char **argv) {
  n = argc > 1 ? atoi(argv[1]) : 1000;
  tp_register_variable(&n, sizeof n, "n");
  pthread_t t[4];
  double out[4] = {0};
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, worker, &out[i]);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  return out[0] > 0 ? 0 : 1;
}
