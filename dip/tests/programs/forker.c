/* fork + exec: every process writes its own report. `forker` forks a child that
 * does denormal work and exits, then execs itself as `forker child`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile float tiny = 1e-39f;

__attribute__((noinline)) float work(int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += tiny * 0.5f; /* @work */
  return s;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) {
    printf("exec child %a\n", work(30));
    return 0;
  }
  float s = work(10);
  pid_t p = fork();
  if (p == 0) {
    printf("fork child %a\n", work(20));
    fflush(stdout);
    exit(0);
  }
  int st;
  waitpid(p, &st, 0);
  p = fork();
  if (p == 0) {
    execl("/proc/self/exe", argv[0], "child", (char *)NULL);
    _exit(127);
  }
  waitpid(p, &st, 0);
  printf("parent %a\n", s);
  return 0;
}
