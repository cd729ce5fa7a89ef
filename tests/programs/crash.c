/* Runs parameter-dependent loops, then crashes: the report must still be written. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static volatile int *nowhere;
static int data[64] = {1, 2, 3, 4, 5, 6, 7, 8};

__attribute__((noinline)) static long work(int n) {
  long s = 0;
  for (int i = 0; i < n; i++) /* @before_crash */
    s += data[i % 64] * i;
  return s;
}

int main(int argc, char **argv) {
  int n = 123;
  tp_register_variable(&n, sizeof n, "n");
  printf("%ld\n", work(n));
  fflush(stdout);
  if (argc > 1 && argv[1][0] == 'a')
    abort();
  return *nowhere; /* SIGSEGV */
}
