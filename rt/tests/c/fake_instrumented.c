/*
 * A hand-"instrumented" C program for the runtime's integration tests: it declares the
 * ABI types and hooks itself (fake_abi.h, as the pass's output would), registers a module from a
 * constructor, keeps the calling context in __tp_ctx_tls like instrumented code does,
 * and reports loop exits with labels read from shadow memory.
 *
 *   fake_instrumented MODE N
 *
 * MODE: exit | return | segv | abort | threads | params17 | midrun | bench | wrappers |
 *       overflow | busy_exit | busy_wait | fork
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fake_abi.h"

#define LOC(fn, fl, l, c) { fn, fn, "fake_instrumented.c", fl, l, c, 0 }

static const SrcLoc loop_compute_1[] = { LOC("compute", 40, 42, 3) };
static const SrcLoc loop_compute_2[] = { LOC("compute", 40, 50, 3) };     /* never runs */
static const SrcLoc site_main_compute[] = { LOC("main", 200, 210, 5) };
static const SrcLoc site_worker_compute[] = { LOC("worker", 80, 85, 7) };
static const SrcLoc branch_compute[] = { LOC("compute", 40, 44, 5) };
static const SrcLoc succ_compute[][1] = { { LOC("compute", 40, 45, 7) }, { LOC("compute", 40, 47, 7) } };

static const FuncDesc funcs[] = {
  { LOC("main", 200, 200, 1), 1, 0 },
  { LOC("compute", 40, 40, 1), 1, 2 },
  { LOC("worker", 80, 80, 1), 1, 0 },
};
static const LoopDesc loops[] = {
  { loop_compute_1, 1, 0, 0, 0, &funcs[1] },
  { loop_compute_2, 1, 2, 16, 0, &funcs[1] },
};
static const SiteDesc sites[] = { { site_main_compute, 1, 0, 0 }, { site_worker_compute, 1, 0, 0 } };
static const SiteDesc branch_sites[] = { { branch_compute, 1, 0, &loops[0] } };
static const SiteDesc succ_sites[] = { { succ_compute[0], 1, 0, 0 }, { succ_compute[1], 1, 0, 0 } };
static BranchRec branches[] = { { &branch_sites[0], succ_sites, 2, 0, 0, 0, 0 } };
static ModuleDesc module = {
  0x544d5044u, 13, "fake_instrumented.c", funcs, 3, 2, loops, branches, 1, 0, 0,
};
static ModuleDesc bad_module = {
  0x544d5044u, 999, "from_the_future.c", funcs, 0, 0, loops, 0, 0, 0, 0,
};

/* Must run after the runtime's .preinit_array entry: the shadow is already mapped. */
static int shadow_mapped_in_constructor = -1;
__attribute__((constructor(101))) static void early_constructor(void) {
  shadow_mapped_in_constructor = madvise((void *)0x100000000000ull, 4096, MADV_NORMAL) == 0;
}
__attribute__((constructor)) static void register_module(void) {
  __tp_register_module(&module);
  __tp_register_module(&bad_module);
}

/* What the pass emits around a function body. */
#define ENTER(fdesc)                                       \
  void *tp_saved = __tp_ctx_tls;                           \
  void *tp_node = __tp_enter(tp_saved, __tp_site_tls, fdesc); \
  __tp_ctx_tls = tp_node
#define LEAVE() __tp_ctx_tls = tp_saved
#define CALL_SITE(i) __tp_site_tls = &sites[i]

static volatile long sink;

static void compute(long n, uint16_t label) {
  ENTER(&funcs[1]);
  /* A branch on the parameter: only its first successor is ever taken. */
  tp_branch(&branches[0], label, n >= 0 ? 0 : 1);
  for (long i = 0; i < n; i++) sink += i;
  __tp_loop_exit(tp_node, &loops[0], label);
  LEAVE();
}

static long thread_n;
static void *worker(void *arg) {
  ENTER(&funcs[2]);
  uint16_t label = __tp_shadow_union(&thread_n, sizeof thread_n);
  CALL_SITE(1);
  compute(thread_n + (long)(intptr_t)arg, label);
  LEAVE();
  return 0;
}

static volatile int keep_going = 1;
static volatile int *volatile bad_pointer = (int *)8;

/* Instrumented recursion without end: a stack overflow (SIGSEGV on the guard page). */
static long overflow(long depth, uint16_t label) {
  ENTER(&funcs[1]);
  volatile char pad[1024];
  pad[0] = (char)depth;
  CALL_SITE(1);
  long r = keep_going ? overflow(depth + 1, label) + pad[0] : 0;
  LEAVE();
  return r;
}

/* Threads that keep calling the hooks until the process ends. */
static volatile int ready_threads;
static SiteDesc many_sites[4096];
static void *busy(void *arg) {
  ENTER(&funcs[2]);
  __sync_fetch_and_add(&ready_threads, 1);
  for (unsigned long i = 0;; i++) {
    CALL_SITE(1);
    compute(1 + (long)(i % 3), (uint16_t)(1u << ((uintptr_t)arg % 16)));
    /* New contexts keep appearing (tables grow while the report is written). */
    void *n = __tp_enter(tp_node, &many_sites[(i * 7) % 4096], &funcs[1]);
    __tp_loop_exit(n, &loops[i % 2], 0);
  }
  LEAVE();
  return 0;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  ENTER(&funcs[0]);
  const char *mode = argc > 1 ? argv[1] : "exit";
  long n = argc > 2 ? atol(argv[2]) : 10;
  printf("shadow-mapped-in-constructor=%d\n", shadow_mapped_in_constructor);
  fflush(stdout);
  tp_register_variable(&n, sizeof n, "n");
  uint16_t label = __tp_shadow_union(&n, sizeof n);
  printf("label(n)=%u\n", label);
  fflush(stdout);

  if (!strcmp(mode, "bench")) {
    long iters = n;
    void *root = __tp_enter(0, 0, &funcs[0]);
    double t0 = now();
    for (long i = 0; i < iters; i++) {
      void *node = __tp_enter(root, &sites[0], &funcs[1]);
      __asm__ volatile("" : : "r"(node) : "memory");
    }
    double t1 = now();
    void *node = __tp_enter(root, &sites[0], &funcs[1]);
    for (long i = 0; i < iters; i++) {
      __tp_loop_exit(node, &loops[0], (uint16_t)(i & 1));
      __asm__ volatile("" : : : "memory");
    }
    double t2 = now();
    printf("enter_ns=%.2f loop_exit_ns=%.2f\n", (t1 - t0) / iters * 1e9, (t2 - t1) / iters * 1e9);
    return 0;
  }

  CALL_SITE(0);
  compute(n, label);

  if (!strcmp(mode, "overflow")) {
    printf("%ld\n", overflow(0, label));
  } else if (!strcmp(mode, "busy_exit") || !strcmp(mode, "busy_wait")) {
    pthread_t t[3];
    for (int i = 0; i < 4096; i++) many_sites[i] = sites[i % 2];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, busy, (void *)(intptr_t)i);
    while (ready_threads < 3) usleep(1000);
    usleep(20000);
    if (!strcmp(mode, "busy_exit")) exit(0);
    printf("ready\n");
    fflush(stdout);
    for (;;) pause();
  } else if (!strcmp(mode, "fork")) {
    pid_t child = fork();
    if (child == 0) {
      CALL_SITE(0);
      compute(n, label);
      exit(0);
    }
    int st;
    waitpid(child, &st, 0);
    printf("child=%d\n", (int)child);
  } else if (!strcmp(mode, "segv")) {
    fflush(stdout);
    *bad_pointer = 1;
  } else if (!strcmp(mode, "abort")) {
    abort();
  } else if (!strcmp(mode, "threads")) {
    pthread_t t[4];
    thread_n = n;
    tp_register_variable(&thread_n, sizeof thread_n, "threads_n");
    for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, worker, (void *)(intptr_t)i);
    for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
  } else if (!strcmp(mode, "params17")) {
    static int vars[17];
    char name[16];
    for (int i = 0; i < 17; i++) {
      snprintf(name, sizeof name, "p%d", i + 1);
      tp_register_variable(&vars[i], sizeof vars[i], name);
    }
    printf("label(p17)=%u\n", __tp_shadow_union(&vars[16], sizeof vars[16]));
  } else if (!strcmp(mode, "midrun")) {
    tp_write_report();
    CALL_SITE(0);
    compute(n, 0);
  } else if (!strcmp(mode, "wrappers")) {
    char buf[32];
    const char *text = "12345";
    char copy[8];
    __tp_shadow_set((void *)text, 0, 6);
    tp_register_variable(text, 6, "text");
    __tpw_memcpy(copy, text, 6);
    printf("label(copy)=%u\n", __tp_shadow_union(copy, 6));
    long v = __tpw_strtol(copy, 0, 10);
    printf("strtol=%ld ret_label=%u\n", v, __tp_ret_tls);
    snprintf(buf, sizeof buf, "%ld", v);
    /* Control-flow tainting: a copy under a labelled condition is a plain overwrite and
     * takes no control label (docs/internal/control-flow.md, Rule 2). */
    char out[8];
    __tp_shadow_set(out, 0, sizeof out);
    __tp_ctrl_tls = label;
    __tp_callee_tls = (void *)__tpw_memcpy;
    __tpw_memcpy(out, buf, 4);
    __tp_ctrl_tls = 0;
    printf("label(ctrl_copy)=%u\n", __tp_shadow_union(out, 4));
    __tp_shadow_or(out + 4, 8, 4);
    printf("label(or)=%u\n", __tp_shadow_union(out + 4, 4));
  }
  LEAVE();
  if (!strcmp(mode, "exit")) exit(3);
  return 0;
}
