/* The raw run record of a small program (tests/tests/record_e2e.rs): a loop over n in
 * sweep, called from main's time loop over steps (sweep is kept out of line, so -O0
 * and -O2 both give it a calling context of its own), a recursion decided by k (fib),
 * and the ways a run ends.
 *
 *   record_tree N STEPS K MODE
 *     MODE 0 return from main, 1 SIGTERM at step 2 of the time loop, 2 _exit(4) after
 *     the loop, 3 exit(5) after the loop, 4 SIGSEGV after the loop, 5 tp_write_report()
 *     after the loop then a normal end, 6 tp_write_report() after the loop then
 *     SIGKILL (no final report: the mid-run one stays). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <taintprof.h>

volatile double sink;
volatile int *volatile nowhere;

__attribute__((noinline)) static void sweep(double *u, int n) {
  for (int i = 0; i < n; i++) /* @sweep */
    u[i] = u[i] * 0.5 + 1.0;
}

__attribute__((noinline)) int fib(int k) {
  return k < 2 ? k : fib(k - 1) + fib(k - 2); /* @fib */
}

int main(int argc, char **argv) {
  if (argc < 5)
    return 2;
  int n = atoi(argv[1]), steps = atoi(argv[2]), k = atoi(argv[3]), mode = atoi(argv[4]);
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&steps, sizeof steps, "steps");
  tp_register_variable(&k, sizeof k, "k");
  double *u = calloc(n, sizeof *u);
  for (int t = 0; t < steps; t++) { /* @time */
    sweep(u, n);
    if (t == 2 && mode == 1)
      raise(SIGTERM);
  }
  sink = u[0] + fib(k);
  free(u);
  if (mode == 2)
    _exit(4);
  if (mode == 3)
    exit(5);
  if (mode == 4)
    sink = *nowhere;
  if (mode == 5 || mode == 6)
    tp_write_report();
  if (mode == 6)
    raise(SIGKILL);
  return 0;
}
