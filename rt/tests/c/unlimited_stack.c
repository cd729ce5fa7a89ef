/* Run under `ulimit -s unlimited`: prints what the program sees of its start (stack
 * limit, arguments, environment, default thread stack size), does some work controlled
 * by a registered parameter (taint mode) and on denormal floats (denormal mode), and
 * exits with the status given as argument 2.
 *
 *   unlimited_stack <n> <status> [more arguments, printed back]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <taintprof.h>

extern char **environ;

static float a[256];

__attribute__((noinline)) static double work(int n) {
  double s = 0;
  for (int i = 0; i < n; i++) /* @work */
    s += a[i % 256] * 0.5f;
  return s;
}

static int guard_in(char **env) {
  for (char **e = env; e && *e; e++)
    if (strncmp(*e, "TAINTPROF_REEXEC", 16) == 0)
      return 1;
  return 0;
}

static void *thread_main(void *arg) {
  pthread_attr_t attr;
  size_t *size = arg;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstacksize(&attr, size);
    pthread_attr_destroy(&attr);
  }
  return NULL;
}

int main(int argc, char **argv, char **envp) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) != 0)
    return 100;
  printf("stack_soft=%s\n", rl.rlim_cur == RLIM_INFINITY ? "unlimited" : "finite");
  printf("stack_hard=%s\n", rl.rlim_max == RLIM_INFINITY ? "unlimited" : "finite");
  printf("argc=%d\n", argc);
  for (int i = 0; i < argc; i++)
    printf("argv[%d]=<%s>\n", i, argv[i]);
  printf("guard_getenv=%d guard_environ=%d guard_envp=%d\n",
         getenv("TAINTPROF_REEXEC") != NULL, guard_in(environ), guard_in(envp));
  printf("marker=%s\n", getenv("UNLIMITED_STACK_MARKER") ? getenv("UNLIMITED_STACK_MARKER") : "(unset)");
  pthread_attr_t attr;
  size_t def = 0, used = 0;
  if (pthread_getattr_default_np(&attr) == 0) {
    pthread_attr_getstacksize(&attr, &def);
    pthread_attr_destroy(&attr);
  }
  pthread_t t;
  if (pthread_create(&t, NULL, thread_main, &used) == 0)
    pthread_join(t, NULL);
  printf("default_thread_stack=%zu\n", def);
  printf("thread_stack=%zu\n", used);
  if (argc < 3)
    return 101;
  int n = atoi(argv[1]);
  tp_register_variable(&n, sizeof n, "n");
  for (int i = 0; i < 256; i++)
    a[i] = i % 2 ? 1e-39f : 1.0f;
  printf("work=%g\n", work(n));
  fflush(stdout);
  return atoi(argv[2]);
}
