/* How a process ends, and what its report says: normally, by SIGTERM in the middle of
 * the time loop (a batch job at its wall-clock limit), by _exit() or exit() inside the
 * loop, from its own SIGSEGV handler that calls _exit(), by exec of another program,
 * or by an exec that fails.
 *
 *   process_ends N STEPS MODE
 *     MODE 0 normal, 1 SIGTERM at step 10, 2 _exit(4) at step 10, 3 exec /bin/true at
 *     step 10, 4 exit(5) at step 10, 5 SIGSEGV at step 10 caught by the program's own
 *     handler that calls _exit(6), 6 an exec that fails, then a normal end,
 *     7 _exit(7) after the loop, 8 exec of itself (/proc/self/exe) in mode 0 at step 10. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <taintprof.h>

volatile double sink;
volatile int *volatile nowhere;

static void sweep(double *u, int n) {
  for (int i = 0; i < n; i++) /* @sweep */
    u[i] = u[i] * 0.5 + 1.0;
}

static void on_segv(int sig) {
  (void)sig;
  _exit(6);
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  int n = atoi(argv[1]), steps = atoi(argv[2]), mode = atoi(argv[3]);
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&steps, sizeof steps, "steps");
  double *u = calloc(n, sizeof *u);
  if (mode == 5) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_segv;
    sigaction(SIGSEGV, &sa, NULL);
  }
  for (int t = 0; t < steps; t++) { /* @time */
    sweep(u, n);
    if (t == 10) {
      if (mode == 1)
        raise(SIGTERM);
      if (mode == 2)
        _exit(4);
      if (mode == 3) {
        char *args[] = {"true", NULL};
        execv("/bin/true", args);
      }
      if (mode == 4)
        exit(5);
      if (mode == 5)
        sink = *nowhere;
      if (mode == 8) {
        char *args[] = {argv[0], argv[1], argv[2], "0", NULL};
        execv("/proc/self/exe", args);
      }
      if (mode == 6) {
        char *args[] = {"missing", NULL};
        execv("/nonexistent/taintprof-test", args);
      }
    }
  }
  sink = u[0];
  free(u);
  if (mode == 7)
    _exit(7);
  return 0;
}
