/* The taintprof ABI as instrumented code sees it (mirrors taintprof-abi). */
#ifndef FAKE_ABI_H
#define FAKE_ABI_H
#include <stddef.h>
#include <stdint.h>

typedef struct { const char *function, *linkage, *file; uint32_t fn_line, line, column, _reserved; } SrcLoc;
typedef struct { const SrcLoc *chain; uint32_t n_chain, flags; } SiteDesc;
typedef struct { const SrcLoc *chain; uint32_t n_chain, flags; uint64_t const_trip_count; } LoopDesc;
typedef struct { SrcLoc loc; uint32_t flags, n_loops; } FuncDesc;
typedef struct { const SiteDesc *site; uint32_t n_succ; uint16_t label, flags; uint64_t taken, executions; } BranchRec;
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
void tp_register_variable(const void *addr, size_t size, const char *name);
void tp_write_report(void);
void *__tpw_memcpy(void *d, const void *s, size_t n);
long __tpw_strtol(const char *s, char **e, int base);
extern __thread void *__tp_ctx_tls __attribute__((tls_model("initial-exec")));
extern __thread const void *__tp_site_tls __attribute__((tls_model("initial-exec")));
extern __thread uint16_t __tp_ret_tls __attribute__((tls_model("initial-exec")));

#endif
