/* pthreads: every thread runs loops bounded by parameters. */
#include <pthread.h>
#include <stdio.h>
#include <taintprof.h>

static int n = 2000, chunks = 4;
static double partial[8];

static void *worker(void *arg) {
  long id = (long)arg;
  double s = 0;
  for (int i = (int)id; i < n; i += chunks) /* @worker */
    s += i * 0.25;
  partial[id] = s;
  return 0;
}

int main(void) {
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&chunks, sizeof chunks, "chunks");
  pthread_t t[8];
  for (long i = 0; i < chunks; i++) /* @spawn */
    pthread_create(&t[i], 0, worker, (void *)i);
  for (long i = 0; i < chunks; i++) /* @join */
    pthread_join(t[i], 0);
  double s = 0;
  for (int i = 0; i < chunks; i++)
    s += partial[i];
  printf("%.2f\n", s);
  return 0;
}
