/* ownrt: a program with its own handler for the signal the sampling timer uses
 * (SIGRTMAX-2). The profiler must hand the signal over: the handler is never called
 * by anything but the program's own raise(), and the program's results stay right.
 *
 *   ownrt [iterations]   default 200000 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static volatile sig_atomic_t calls;
static void on_rt(int sig) { (void)sig; calls++; }

volatile float denormal = 1e-40f;
volatile float sink;

int main(int argc, char **argv) {
  long iterations = argc > 1 ? atol(argv[1]) : 200000;
  signal(SIGRTMAX - 2, on_rt);
  float x = 1.0f;
  for (long i = 0; i < iterations; i++) {
    for (int k = 0; k < 200; k++)
      x = x * 0.5f + 1.0f;
    sink = denormal * 3.0f; /* @work */
  }
  raise(SIGRTMAX - 2);
  printf("x = %.9g, handler calls = %d\n", x, (int)calls);
  return 0;
}
