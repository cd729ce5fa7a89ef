/* A program with its own SIGFPE handler: it unmasks divide-by-zero, divides by zero,
 * and its handler masks the exception in the saved context so the division completes
 * (to infinity) when the handler returns. Its own SIGTRAP handler gets a raise(SIGTRAP).
 * Denormal arithmetic before and after. */
#define _GNU_SOURCE
#include <fenv.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

static volatile int fpe_calls, fpe_code, trap_calls;
static volatile float tiny = 1e-40f;
static volatile double zero = 0.0;

static void on_fpe(int sig, siginfo_t *si, void *ctx) {
  ucontext_t *uc = ctx;
  fpe_calls++;
  fpe_code = si->si_code;
  uc->uc_mcontext.fpregs->mxcsr |= 0x200; /* mask divide-by-zero */
  uc->uc_mcontext.fpregs->mxcsr &= ~0x3f; /* clear the flags */
  (void)sig;
}

static void on_trap(int sig) {
  (void)sig;
  trap_calls++;
}

__attribute__((noinline)) float denormal_work(int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += tiny * 3.0f; /* @work */
  return s;
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fpe;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGFPE, &sa, NULL);
  signal(SIGTRAP, on_trap);
  struct sigaction back;
  sigaction(SIGFPE, NULL, &back);
  int same = back.sa_sigaction == on_fpe;
  float a = denormal_work(100);
  feenableexcept(FE_DIVBYZERO);
  volatile double q = 1.0 / zero;
  fedisableexcept(FE_DIVBYZERO);
  raise(SIGTRAP);
  float b = denormal_work(100);
  printf("handler=%d code=%s q=%g trap=%d query=%d sums=%a %a\n", fpe_calls,
         fpe_code == FPE_FLTDIV ? "FPE_FLTDIV" : "other", (double)q, trap_calls, same, a, b);
  return 0;
}
