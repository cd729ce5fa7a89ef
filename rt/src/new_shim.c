/*
 * Wrappers for C++ operator new / new[] (all replaceable allocation variants).
 *
 * The real operator may throw std::bad_alloc. These wrappers are C compiled with
 * -fexceptions (so they have unwind tables) and call the real operator directly: an
 * exception unwinds straight through them to the program's handler and never crosses
 * a Rust frame. Only after a successful allocation do they call into Rust
 * (__tp_alloc_clear, which cannot unwind) to clear the shadow of the new block.
 *
 * The references to the real operators are weak. A C program linked (by a C driver,
 * without libstdc++) against an instrumented C++ shared library pulls this object in,
 * because the library's `__tpw__Znwm` & co. are resolved by the runtime in the
 * executable; with strong references that link failed ("undefined reference to
 * operator new[](unsigned long, std::align_val_t)", muparser's C example). When the
 * link did not bind an operator, the wrapper looks it up at run time in the global
 * scope, where the C++ library's libstdc++ (or a replacement operator the program
 * exports) has it.
 *
 * Mangled names (Itanium ABI, x86-64 size_t = unsigned long = 'm'):
 *   _Znwm                              operator new(size_t)
 *   _Znam                              operator new[](size_t)
 *   _ZnwmRKSt9nothrow_t                operator new(size_t, const std::nothrow_t&)
 *   _ZnamRKSt9nothrow_t                operator new[](size_t, const std::nothrow_t&)
 *   _ZnwmSt11align_val_t               operator new(size_t, std::align_val_t)
 *   _ZnamSt11align_val_t               operator new[](size_t, std::align_val_t)
 *   _ZnwmSt11align_val_tRKSt9nothrow_t operator new(size_t, std::align_val_t, const std::nothrow_t&)
 *   _ZnamSt11align_val_tRKSt9nothrow_t operator new[](size_t, std::align_val_t, const std::nothrow_t&)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Defined in Rust (wrappers.rs): clears the shadow of [p, p + usable size). */
extern void __tp_alloc_clear(void *p, size_t n);

#define TP_WEAK __attribute__((weak))
extern void *_Znwm(size_t) TP_WEAK;
extern void *_Znam(size_t) TP_WEAK;
extern void *_ZnwmRKSt9nothrow_t(size_t, const void *) TP_WEAK;
extern void *_ZnamRKSt9nothrow_t(size_t, const void *) TP_WEAK;
extern void *_ZnwmSt11align_val_t(size_t, size_t) TP_WEAK;
extern void *_ZnamSt11align_val_t(size_t, size_t) TP_WEAK;
extern void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t, size_t, const void *) TP_WEAK;
extern void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t, size_t, const void *) TP_WEAK;

#define TP_EXPORT __attribute__((visibility("default")))

/* The real operator `name`: the one the link bound (`bound`), else the global
 * scope's. Only instrumented C++ code calls the wrappers, and its module needs
 * libstdc++, so the lookup finds it; if not, say so and stop rather than call null. */
static void *tp_real_new(void *bound, const char *name) {
  if (bound)
    return bound;
  void *f = dlsym(RTLD_DEFAULT, name);
  if (!f) {
    static const char msg[] = "taintprof: no C++ operator new in the process (";
    (void)!write(2, msg, sizeof msg - 1);
    (void)!write(2, name, strlen(name));
    (void)!write(2, ")\n", 2);
    abort();
  }
  return f;
}

#define REAL(fn) ((__typeof__(&fn))tp_real_new((void *)&fn, #fn))

TP_EXPORT void *__tpw__Znwm(size_t n) {
  void *p = REAL(_Znwm)(n);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__Znam(size_t n) {
  void *p = REAL(_Znam)(n);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__ZnwmRKSt9nothrow_t(size_t n, const void *nt) {
  void *p = REAL(_ZnwmRKSt9nothrow_t)(n, nt);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__ZnamRKSt9nothrow_t(size_t n, const void *nt) {
  void *p = REAL(_ZnamRKSt9nothrow_t)(n, nt);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__ZnwmSt11align_val_t(size_t n, size_t al) {
  void *p = REAL(_ZnwmSt11align_val_t)(n, al);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__ZnamSt11align_val_t(size_t n, size_t al) {
  void *p = REAL(_ZnamSt11align_val_t)(n, al);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__ZnwmSt11align_val_tRKSt9nothrow_t(size_t n, size_t al, const void *nt) {
  void *p = REAL(_ZnwmSt11align_val_tRKSt9nothrow_t)(n, al, nt);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__ZnamSt11align_val_tRKSt9nothrow_t(size_t n, size_t al, const void *nt) {
  void *p = REAL(_ZnamSt11align_val_tRKSt9nothrow_t)(n, al, nt);
  __tp_alloc_clear(p, n);
  return p;
}
