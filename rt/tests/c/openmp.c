/*
 * OpenMP: a parallel loop whose body calls an "instrumented" function. Worker threads
 * start with an empty context (their outlined function is a root of their tree); the
 * master keeps main's context. Labels differ per thread through a labelled variable.
 *
 *   openmp N
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "fake_abi.h"

#define LOC(fn, fl, l, c) { fn, fn, "openmp.c", fl, l, c, 0 }
static const SrcLoc loop_body[] = { LOC("body", 10, 12, 3) };
static const SrcLoc site_main[] = { LOC("main", 30, 40, 9) };
static const FuncDesc funcs[] = { { LOC("main", 30, 30, 1), 1, 0 }, { LOC("body", 10, 10, 1), 1, 1 } };
static const LoopDesc loops[] = { { loop_body, 1, 0, 0, 0, &funcs[1] } };
static const SiteDesc sites[] = { { site_main, 1, 0, 0 } };
static ModuleDesc module = { 0x544d5044u, 13, "openmp.c", funcs, 2, 1, loops, 0, 0, 0, 0 };
__attribute__((constructor)) static void reg(void) { __tp_register_module(&module); }

static volatile long sink;
static void body(long n, uint16_t label) {
  void *saved = __tp_ctx_tls;
  void *me = __tp_enter(saved, __tp_site_tls, &funcs[1]);
  __tp_ctx_tls = me;
  for (long i = 0; i < n; i++) sink += i;
  __tp_loop_exit(me, &loops[0], label);
  __tp_ctx_tls = saved;
}

int main(int argc, char **argv) {
  void *saved = __tp_ctx_tls;
  __tp_ctx_tls = __tp_enter(saved, __tp_site_tls, &funcs[0]);
  long n = argc > 1 ? atol(argv[1]) : 1000;
  tp_register_variable(&n, sizeof n, "n");
  uint16_t label = __tp_shadow_union(&n, sizeof n);
  int threads = 0;
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads();
#pragma omp for schedule(static, 7)
    for (long i = 0; i < n; i++) {
      __tp_site_tls = &sites[0];
      body(i % 50, label);
    }
  }
  printf("threads=%d\n", threads);
  __tp_ctx_tls = saved;
  return 0;
}
