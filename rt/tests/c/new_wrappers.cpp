// The operator-new wrappers must let std::bad_alloc propagate to the caller and must
// hand back unlabelled memory.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

extern "C" {
void *__tpw__Znwm(std::size_t);
void *__tpw__Znam(std::size_t);
void *__tpw__ZnwmRKSt9nothrow_t(std::size_t, const std::nothrow_t &);
void *__tpw__ZnamRKSt9nothrow_t(std::size_t, const std::nothrow_t &);
void *__tpw__ZnwmSt11align_val_t(std::size_t, std::align_val_t);
void *__tpw__ZnamSt11align_val_t(std::size_t, std::align_val_t);
void *__tpw__ZnwmSt11align_val_tRKSt9nothrow_t(std::size_t, std::align_val_t, const std::nothrow_t &);
void *__tpw__ZnamSt11align_val_tRKSt9nothrow_t(std::size_t, std::align_val_t, const std::nothrow_t &);
std::uint16_t __tp_shadow_union(const void *, std::size_t);
void __tp_shadow_set(void *, std::uint16_t, std::size_t);
}

int main() {
  const std::size_t huge = ~std::size_t(0) / 2;
  int caught = 0;
  try {
    void *p = __tpw__Znwm(huge);
    std::printf("no throw %p\n", p);
  } catch (const std::bad_alloc &) {
    caught++;
  }
  try {
    void *p = __tpw__ZnamSt11align_val_t(huge, std::align_val_t(64));
    std::printf("no throw %p\n", p);
  } catch (const std::bad_alloc &) {
    caught++;
  }
  std::printf("caught=%d\n", caught);
  std::printf("nothrow_null=%d\n", __tpw__ZnwmRKSt9nothrow_t(huge, std::nothrow) == nullptr &&
                                       __tpw__ZnamSt11align_val_tRKSt9nothrow_t(huge, std::align_val_t(64), std::nothrow) == nullptr);
  // Stale labels of freed memory never reappear.
  unsigned labels = 0;
  for (int i = 0; i < 8; i++) {
    char *a = static_cast<char *>(__tpw__Znam(256));
    labels |= __tp_shadow_union(a, 256);
    __tp_shadow_set(a, 0xffff, 256);
    delete[] a;
    char *b = static_cast<char *>(__tpw__Znwm(256));
    labels |= __tp_shadow_union(b, 256);
    __tp_shadow_set(b, 0xffff, 256);
    ::operator delete(b);
    void *c = __tpw__ZnwmSt11align_val_t(256, std::align_val_t(64));
    labels |= __tp_shadow_union(c, 256) | (reinterpret_cast<std::uintptr_t>(c) % 64 ? 0x10000 : 0);
    ::operator delete(c, std::align_val_t(64));
    void *d = __tpw__ZnamRKSt9nothrow_t(256, std::nothrow);
    labels |= __tp_shadow_union(d, 256);
    ::operator delete[](d);
    void *e = __tpw__ZnwmSt11align_val_tRKSt9nothrow_t(256, std::align_val_t(64), std::nothrow);
    labels |= __tp_shadow_union(e, 256);
    ::operator delete(e, std::align_val_t(64));
  }
  std::printf("stale_labels=%u\n", labels);
  return 0;
}
