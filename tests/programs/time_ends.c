/* Time mode: a record survives SIGTERM and _exit (tests/tests/time_mode.rs). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <taintprof.h>

static volatile double sink;

static void work(int n, const char *how) {
  for (int i = 0; i < n; i++) /* @work-loop */
    sink += i * 0.5;
  if (strcmp(how, "term") == 0)
    raise(SIGTERM);
  if (strcmp(how, "exit") == 0)
    _exit(3);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  const char *how = argc > 2 ? argv[2] : "none";
  tp_register_variable(&n, sizeof n, "n");
  work(n, "none");
  work(n, how);
  return 0;
}
