/* tp_spawn: runs a command and reports what the kernel accounted to it alone (a
 * helper of `taintprof bench`, compiled by it with clang at start-up).
 *
 *   tp_spawn <report-file> <program> [args...]
 *
 * Why: a process's peak resident memory (ru_maxrss) survives exec: it includes the
 * memory of the process it was forked from at the time of the fork. A program started
 * directly by the bench would report at least the bench's own few MiB. This helper is
 * tiny (linked statically when possible), so the program it forks starts from almost
 * nothing and ru_maxrss is the program's own peak.
 *
 * The report file gets one line:
 *
 *   <max_rss_kib> <user_seconds> <system_seconds> <wall_seconds>
 *
 * with the wall-clock time from just before the fork to the reaping of the program.
 * The helper exits like the program: with its exit status, or killed by the same
 * signal. Exit status 127 without a report line: the program could not be started. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; }

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: tp_spawn <report-file> <program> [args...]\n");
    return 127;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "tp_spawn: fork: %s\n", strerror(errno));
    return 127;
  }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    fprintf(stderr, "tp_spawn: cannot run %s: %s\n", argv[2], strerror(errno));
    _exit(127);
  }
  int status = 0;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0) {
    if (errno != EINTR) {
      fprintf(stderr, "tp_spawn: wait4: %s\n", strerror(errno));
      return 127;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  FILE *f = fopen(argv[1], "w");
  if (f) {
    fprintf(f, "%ld %.6f %.6f %.9f\n", (long)ru.ru_maxrss, seconds(ru.ru_utime),
            seconds(ru.ru_stime), wall);
    fclose(f);
  }
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    signal(sig, SIG_DFL);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    raise(sig);
    return 128 + sig;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}
