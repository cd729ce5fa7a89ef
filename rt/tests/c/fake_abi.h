/* The taintprof ABI as instrumented code sees it (mirrors taintprof-abi). */
#ifndef FAKE_ABI_H
#define FAKE_ABI_H
#include <stddef.h>
#include <stdint.h>

typedef struct { const char *function, *linkage, *file; uint32_t fn_line, line, column, _reserved; } SrcLoc;
struct LoopDesc;
typedef struct { const SrcLoc *chain; uint32_t n_chain, flags; const struct LoopDesc *loop_; } SiteDesc;
typedef struct { SrcLoc loc; uint32_t flags, n_loops; } FuncDesc;
typedef struct LoopDesc {
  const SrcLoc *chain;
  uint32_t n_chain, flags;
  uint64_t const_trip_count;
  const struct LoopDesc *parent;
  const FuncDesc *func;
  const char *routine, *cost; /* library loops (LOOP_LIBRARY); null otherwise */
} LoopDesc;
typedef struct {
  const SiteDesc *site;
  const SiteDesc *succ;
  uint32_t n_succ;
  uint16_t label, flags;
  uint64_t taken, executions;
} BranchRec;
typedef struct ModuleDesc {
  uint32_t magic, abi_version;
  const char *source_file;
  const FuncDesc *funcs;
  uint32_t n_funcs, n_loops;
  const LoopDesc *loops;
  BranchRec *branches;
  uint32_t n_branches, flags;
  struct ModuleDesc *next;
} ModuleDesc;

void *__tp_enter(void *parent, const SiteDesc *site, const FuncDesc *f);
void __tp_loop_exit(void *node, const LoopDesc *loop, uint16_t label);
void __tp_register_module(ModuleDesc *m);
uint16_t __tp_shadow_union(const void *p, size_t n);
void __tp_shadow_set(void *p, uint16_t label, size_t n);
void __tp_shadow_or(void *p, uint16_t label, size_t n);
void __tp_branch_update(BranchRec *b, uint16_t label, uint64_t taken_bit);
void tp_register_variable(const void *addr, size_t size, const char *name);
void tp_write_report(void);
void *__tpw_memcpy(void *d, const void *s, size_t n);
long __tpw_strtol(const char *s, char **e, int base);
extern __thread void *__tp_ctx_tls __attribute__((tls_model("initial-exec")));
extern __thread const void *__tp_site_tls __attribute__((tls_model("initial-exec")));
extern __thread uint16_t __tp_ret_tls __attribute__((tls_model("initial-exec")));
extern __thread uint16_t __tp_ctrl_tls __attribute__((tls_model("initial-exec")));
extern __thread void *__tp_callee_tls __attribute__((tls_model("initial-exec")));

/* What the pass emits at a branch sink: the fast path checks, the cold path ORs. */
static inline void tp_branch(BranchRec *b, uint16_t label, unsigned succ) {
  uint64_t bit = 1ull << succ;
  b->executions++;
  if ((b->label | label) != b->label || !(b->taken & bit)) __tp_branch_update(b, label, bit);
}

#endif
