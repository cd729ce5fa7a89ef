/*
 * Wrappers for C++ operator new / new[] (all replaceable allocation variants).
 *
 * The real operator may throw std::bad_alloc. These wrappers are C compiled with
 * -fexceptions (so they have unwind tables) and call the real operator directly: an
 * exception unwinds straight through them to the program's handler and never crosses
 * a Rust frame. Only after a successful allocation do they call into Rust
 * (__tp_alloc_clear, which cannot unwind) to clear the shadow of the new block.
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
#include <stddef.h>

/* Defined in Rust (wrappers.rs): clears the shadow of [p, p + usable size). */
extern void __tp_alloc_clear(void *p, size_t n);

extern void *_Znwm(size_t);
extern void *_Znam(size_t);
extern void *_ZnwmRKSt9nothrow_t(size_t, const void *);
extern void *_ZnamRKSt9nothrow_t(size_t, const void *);
extern void *_ZnwmSt11align_val_t(size_t, size_t);
extern void *_ZnamSt11align_val_t(size_t, size_t);
extern void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t, size_t, const void *);
extern void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t, size_t, const void *);

#define TP_EXPORT __attribute__((visibility("default")))

TP_EXPORT void *__tpw__Znwm(size_t n) {
  void *p = _Znwm(n);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__Znam(size_t n) {
  void *p = _Znam(n);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__ZnwmRKSt9nothrow_t(size_t n, const void *nt) {
  void *p = _ZnwmRKSt9nothrow_t(n, nt);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__ZnamRKSt9nothrow_t(size_t n, const void *nt) {
  void *p = _ZnamRKSt9nothrow_t(n, nt);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__ZnwmSt11align_val_t(size_t n, size_t al) {
  void *p = _ZnwmSt11align_val_t(n, al);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__ZnamSt11align_val_t(size_t n, size_t al) {
  void *p = _ZnamSt11align_val_t(n, al);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__ZnwmSt11align_val_tRKSt9nothrow_t(size_t n, size_t al, const void *nt) {
  void *p = _ZnwmSt11align_val_tRKSt9nothrow_t(n, al, nt);
  __tp_alloc_clear(p, n);
  return p;
}
TP_EXPORT void *__tpw__ZnamSt11align_val_tRKSt9nothrow_t(size_t n, size_t al, const void *nt) {
  void *p = _ZnamSt11align_val_tRKSt9nothrow_t(n, al, nt);
  __tp_alloc_clear(p, n);
  return p;
}
