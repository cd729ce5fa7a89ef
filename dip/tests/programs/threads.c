/* Four threads, each producing denormals on its own line. Thread 3 blocks every
 * signal first (a common pattern), which must not break the profiler. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static volatile float tiny = 1e-39f;
static float sums[4];
static int reps = 2000;

__attribute__((noinline)) static void *work0(void *p) {
  float s = 0;
  for (int i = 0; i < reps; i++) s += tiny * 0.5f; /* @w0 */
  sums[0] = s;
  return p;
}
__attribute__((noinline)) static void *work1(void *p) {
  float s = 0;
  for (int i = 0; i < reps; i++) s += tiny * 0.25f; /* @w1 */
  sums[1] = s;
  return p;
}
__attribute__((noinline)) static void *work2(void *p) {
  float s = 0;
  for (int i = 0; i < reps; i++) s += tiny * 0.125f; /* @w2 */
  sums[2] = s;
  return p;
}
__attribute__((noinline)) static void *work3(void *p) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  float s = 0;
  for (int i = 0; i < reps; i++) s += tiny * 0.0625f; /* @w3 */
  sums[3] = s;
  return p;
}

int main(int argc, char **argv) {
  if (argc > 1) reps = atoi(argv[1]);
  void *(*fns[4])(void *) = {work0, work1, work2, work3};
  pthread_t t[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, fns[i], NULL);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  printf("%a %a %a %a\n", sums[0], sums[1], sums[2], sums[3]);
  return 0;
}
