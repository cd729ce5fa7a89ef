/* The denormal-mode ABI (taintprof-abi v5, "Denormal mode") as instrumented code sees it. */
#ifndef FAKE_DN_ABI_H
#define FAKE_DN_ABI_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DN_ABI_VERSION 13u
#define DN_MODULE_MAGIC 0x4e445054u
#define DN_BASE_UNREGISTERED UINT64_MAX
enum { FP_HALF = 1, FP_FLOAT = 2, FP_DOUBLE = 3 };
enum { FPSITE_LOAD = 1, FPSITE_STORE = 2, FPSITE_CALL = 4, FPSITE_NO_RESULT = 8 };
enum { ARRAY_GLOBAL = 1, ARRAY_STATIC = 2, ARRAY_STACK = 3, ARRAY_HEAP = 4 };

typedef struct { const char *function, *linkage, *file; uint32_t fn_line, line, column, _reserved; } SrcLoc;
typedef struct { const SrcLoc *chain; uint32_t n_chain, flags; const void *loop_; } SiteDesc;
typedef struct DnModuleDesc DnModuleDesc;
typedef struct {
  SiteDesc site;
  const char *op;
  uint16_t ty, lanes, flags, const_operands;
  uint32_t block, index;
  const DnModuleDesc *module;
  uint32_t counters, creator; /* FPSITE_NO_COUNTERS: counted by the hooks */
} FpSiteDesc;
#define FPSITE_NO_COUNTERS UINT32_MAX
typedef struct {
  const char *name, *function, *file;
  uint32_t line;
  uint16_t elem_ty, kind;
  uint32_t elem_size, _reserved;
  uint64_t elements;
  const void *addr;
} FpArrayDesc;
typedef struct {
  const char *name, *function, *file;
  uint32_t line;
  uint16_t elem_ty, flags;
  uint32_t elem_size, _reserved;
} AllocSiteDesc;
struct DnModuleDesc {
  uint32_t magic, abi_version;
  const char *source_file;
  const FpSiteDesc *sites;
  uint32_t n_sites, n_blocks;
  const FpArrayDesc *arrays;
  uint32_t n_arrays, flags;
  uint64_t base;
  DnModuleDesc *next;
};
_Static_assert(sizeof(FpSiteDesc) == 64, "FpSiteDesc");
_Static_assert(sizeof(FpArrayDesc) == 56, "FpArrayDesc");
_Static_assert(sizeof(AllocSiteDesc) == 40, "AllocSiteDesc");
_Static_assert(sizeof(DnModuleDesc) == 64, "DnModuleDesc");

void __tpd_register_module(DnModuleDesc *m);
uint64_t *__tpd_thread_counters(void);
/* Tags are 32 bits: origin array id << 16 | creator index. */
void __tpd_op(const FpSiteDesc *s, uint64_t operand_mask, uint64_t result_mask,
              const uint32_t *operand_tags, uint32_t *result_tags);
void __tpd_load(const FpSiteDesc *s, const void *addr, uint64_t lane_mask, uint32_t *tags);
void __tpd_store(const FpSiteDesc *s, void *addr, uint64_t lane_mask, const uint32_t *tags);
void __tpd_array_enter(void *addr, const FpArrayDesc *a);
void __tpd_array_leave(void *addr);
void *__tpd_alloc(void *block, size_t bytes, const AllocSiteDesc *site);
void __tpd_release(void *block);
extern __thread uint64_t *__tpd_counters_tls __attribute__((tls_model("initial-exec")));
extern __thread uint64_t __tpd_arg_tags_tls[64] __attribute__((tls_model("initial-exec")));
extern __thread uint64_t __tpd_ret_tag_tls __attribute__((tls_model("initial-exec")));

static inline int tp_isden(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return (b & 0x7f800000u) == 0 && (b & 0x007fffffu) != 0;
}

/* What the pass emits: the fast path checks, the cold path runs only for denormals. */
static inline float tp_load(const FpSiteDesc *s, const float *p, uint32_t *tag) {
  float v = *p;
  *tag = 0;
  if (__builtin_expect(tp_isden(v), 0)) __tpd_load(s, p, 1, tag);
  return v;
}
static inline float tp_binop(const FpSiteDesc *s, float r, float a, uint32_t ta, float b,
                             uint32_t tb, uint32_t *tr) {
  uint64_t om = (uint64_t)tp_isden(a) | ((uint64_t)tp_isden(b) << 16);
  uint64_t rm = (uint64_t)tp_isden(r);
  *tr = 0;
  if (__builtin_expect(om | rm, 0)) {
    uint32_t ot[2] = {ta, tb};
    __tpd_op(s, om, rm, ot, tr);
  }
  return r;
}
static inline void tp_store(const FpSiteDesc *s, float *p, float v, uint32_t tag) {
  *p = v;
  if (__builtin_expect(tp_isden(v), 0)) __tpd_store(s, p, 1, &tag);
}
static inline uint64_t *tp_blocks(void) {
  uint64_t *b = __tpd_counters_tls;
  return b ? b : __tpd_thread_counters();
}
#endif
