/*
 * Wrappers for the exec family (rt/abilist.txt: `wrap`). A successful exec replaces the
 * program without running exit handlers, so the report of the run so far is written
 * first (`__tp_before_exec`, as `<prog>.before-exec.<pid>.taintprof.json`). If the exec
 * fails the program goes on, and `__tp_exec_failed` lets the report at exit be written
 * as usual (it replaces nothing: the names differ).
 *
 * The variadic forms (execl, execlp, execle) collect their arguments here, in C, which
 * Rust cannot do on stable; they then call the array forms of libc.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

void __tp_before_exec(void);
void __tp_exec_failed(void);

int __tpw_execve(const char *path, char *const argv[], char *const envp[]) {
  __tp_before_exec();
  int r = execve(path, argv, envp);
  __tp_exec_failed();
  return r;
}

int __tpw_execv(const char *path, char *const argv[]) {
  __tp_before_exec();
  int r = execv(path, argv);
  __tp_exec_failed();
  return r;
}

int __tpw_execvp(const char *file, char *const argv[]) {
  __tp_before_exec();
  int r = execvp(file, argv);
  __tp_exec_failed();
  return r;
}

int __tpw_execvpe(const char *file, char *const argv[], char *const envp[]) {
  __tp_before_exec();
  int r = execvpe(file, argv, envp);
  __tp_exec_failed();
  return r;
}

int __tpw_fexecve(int fd, char *const argv[], char *const envp[]) {
  __tp_before_exec();
  int r = fexecve(fd, argv, envp);
  __tp_exec_failed();
  return r;
}

/* The argument list of execl/execlp/execle: `first`, then the variadic arguments up to
 * the terminating null pointer (`first` may itself be that null pointer), then, for
 * execle, the environment. Counted first, then copied into a VLA on this stack: an exec
 * needs no heap, and may be called after fork in a multi-threaded program. */
#define COLLECT_ARGS(first, argv_out, envp_out, want_envp)                              \
  size_t n_ = 0;                                                                        \
  if ((first) != NULL) {                                                                \
    va_list ap_;                                                                        \
    va_start(ap_, first);                                                               \
    n_ = 1;                                                                             \
    while (va_arg(ap_, char *) != NULL)                                                 \
      n_++;                                                                             \
    va_end(ap_);                                                                        \
  }                                                                                     \
  char *argv_out[n_ + 1];                                                               \
  char *const *envp_out = NULL;                                                         \
  {                                                                                     \
    va_list ap_;                                                                        \
    va_start(ap_, first);                                                               \
    argv_out[0] = (char *)(first);                                                      \
    for (size_t i_ = 1; i_ <= n_; i_++) /* ends with the null pointer */               \
      argv_out[i_] = va_arg(ap_, char *);                                               \
    if (want_envp)                                                                      \
      envp_out = va_arg(ap_, char *const *);                                            \
    va_end(ap_);                                                                        \
  }                                                                                     \
  (void)envp_out;

int __tpw_execl(const char *path, const char *arg, ...) {
  COLLECT_ARGS(arg, argv, envp, 0)
  return __tpw_execv(path, argv);
}

int __tpw_execlp(const char *file, const char *arg, ...) {
  COLLECT_ARGS(arg, argv, envp, 0)
  return __tpw_execvp(file, argv);
}

int __tpw_execle(const char *path, const char *arg, ...) {
  COLLECT_ARGS(arg, argv, envp, 1)
  return __tpw_execve(path, argv, envp);
}
