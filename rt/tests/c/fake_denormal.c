/*
 * A hand-"instrumented" denormal-mode program for the runtime's integration tests: it
 * declares the v3 descriptors itself (fake_dn_abi.h) and calls the hooks the way the
 * pass would, around a Jacobi kernel (the thesis's 6.1.1: edges fixed, interior 0, the
 * stencil averages the edge value inwards until it underflows into denormals).
 *
 *   fake_denormal MODE N ITERS
 *
 * MODE: basic | crash | mixed | sigusr1 | snapshot | threads | ops | ftz | bench | thesis
 *
 * Edges are 1e-36 (so that a small grid underflows within a few cells) except in mode
 * `thesis`: the thesis's set-up (edges 1.0, interior 0.0; run it as `thesis 512 768`).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xmmintrin.h>

#include "fake_dn_abi.h"

void tp_array_shape(const void *ptr, size_t rows, size_t cols, const char *name);
void tp_snapshot(const char *label);

#define F "fake_denormal.c"
static const SrcLoc L_load[] = {{"sweep", "sweep", F, 20, 24, 9, 0}};
static const SrcLoc L_add1[] = {{"sweep", "sweep", F, 20, 24, 31, 0}};
static const SrcLoc L_add2[] = {{"sweep", "sweep", F, 20, 25, 31, 0}};
static const SrcLoc L_add3[] = {{"sweep", "sweep", F, 20, 26, 31, 0}};
static const SrcLoc L_mul[] = {{"sweep", "sweep", F, 20, 23, 20, 0}};
static const SrcLoc L_store[] = {{"sweep", "sweep", F, 20, 23, 18, 0}};
static const SrcLoc L_gload[] = {{"seed", "seed", F, 60, 62, 10, 0}};
static const SrcLoc L_tstore[] = {{"corner", "corner", F, 70, 73, 12, 0}};

enum { S_LOAD, S_ADD1, S_ADD2, S_ADD3, S_MUL, S_STORE, S_GLOAD, S_TSTORE, N_SITES };
static DnModuleDesc module;
#define SITE(loc, op, fl, blk, i) {{loc, 1, 0, 0}, op, FP_FLOAT, 1, fl, 0, blk, i, &module, FPSITE_NO_COUNTERS, i}
static const FpSiteDesc sites[N_SITES] = {
    SITE(L_load, "load", FPSITE_LOAD, 0, S_LOAD),
    SITE(L_add1, "fadd", 0, 0, S_ADD1),
    SITE(L_add2, "fadd", 0, 0, S_ADD2),
    SITE(L_add3, "fadd", 0, 0, S_ADD3),
    SITE(L_mul, "fmul", 0, 0, S_MUL),
    SITE(L_store, "store", FPSITE_STORE, 0, S_STORE),
    SITE(L_gload, "load", FPSITE_LOAD, 1, S_GLOAD),
    SITE(L_tstore, "store", FPSITE_STORE, 2, S_TSTORE),
};

/* A global source of denormals (set through integer bits: no instrumented store). */
static float seeds[16];
static const FpArrayDesc globals[] = {
    {"seeds", "", F, 8, FP_FLOAT, ARRAY_GLOBAL, 4, 0, 16, seeds},
};
static const FpArrayDesc tmp_desc = {"tmp", "corner", F, 71, FP_FLOAT, ARRAY_STACK, 4, 0, 8, 0};
static const AllocSiteDesc alloc_a = {"a", "main", F, 40, FP_FLOAT, 0, 4, 0};
static const AllocSiteDesc alloc_b = {"", "main", F, 41, FP_FLOAT, 0, 4, 0};

static DnModuleDesc module = {DN_MODULE_MAGIC, DN_ABI_VERSION, F, sites, N_SITES, 3,
                              globals, 1, 0, DN_BASE_UNREGISTERED, 0};

/* A taint-mode module (for the mixed-mode error). */
typedef struct { const void *chain; uint32_t n_chain, flags; uint64_t trip; const void *parent, *func; const char *routine, *cost; } LoopDesc;
typedef struct {
  uint32_t magic, abi_version;
  const char *source_file;
  const void *funcs;
  uint32_t n_funcs, n_loops;
  const LoopDesc *loops;
  void *branches;
  uint32_t n_branches, flags;
  void *next;
} ModuleDesc;
static ModuleDesc taint_module = {0x544d5044u, DN_ABI_VERSION, "taint_part.c", 0, 0, 0, 0, 0, 0, 0, 0};
void __tp_register_module(ModuleDesc *m);

__attribute__((constructor)) static void register_module(void) { __tpd_register_module(&module); }

static int N = 64;
static float edge = 1e-36f;
static int thesis;

/* cur = 0.25 * (up + down + left + right) for the interior, instrumented by hand. */
static void sweep(float *cur, const float *prev, int r0, int r1) {
  uint64_t *blk = tp_blocks();
  uint64_t base = module.base;
  for (int i = r0; i < r1; i++) {
    for (int j = 1; j < N - 1; j++) {
      blk[base + 0]++;
      uint32_t t1, t2, t3, t4, s1, s2, s3, m;
      float a = tp_load(&sites[S_LOAD], &prev[(i - 1) * N + j], &t1);
      float b = tp_load(&sites[S_LOAD], &prev[(i + 1) * N + j], &t2);
      float c = tp_load(&sites[S_LOAD], &prev[i * N + j - 1], &t3);
      float d = tp_load(&sites[S_LOAD], &prev[i * N + j + 1], &t4);
      float x = tp_binop(&sites[S_ADD1], a + b, a, t1, b, t2, &s1);
      float y = tp_binop(&sites[S_ADD2], x + c, x, s1, c, t3, &s2);
      float z = tp_binop(&sites[S_ADD3], y + d, y, s2, d, t4, &s3);
      float w = tp_binop(&sites[S_MUL], 0.25f * z, 0.25f, 0, z, s3, &m);
      tp_store(&sites[S_STORE], &cur[i * N + j], w, m);
    }
  }
}

/* Reads a denormal seed (a "source" array) and puts it in the first interior cell. */
static void seed(float *a) {
  uint64_t *blk = tp_blocks();
  blk[module.base + 1]++;
  uint32_t t;
  float v = tp_load(&sites[S_GLOAD], &seeds[3], &t);
  tp_store(&sites[S_STORE], &a[N + 1], v, t);
}

/* A stack array that receives denormals from the seeds. */
static void corner(void) {
  float tmp[8];
  __tpd_array_enter(tmp, &tmp_desc);
  uint64_t *blk = tp_blocks();
  blk[module.base + 2]++;
  for (int k = 0; k < 8; k++) {
    uint32_t t;
    float v = tp_load(&sites[S_GLOAD], &seeds[3], &t);
    tp_store(&sites[S_TSTORE], &tmp[k], v, t);
  }
  __tpd_array_leave(tmp);
  volatile float sink = tmp[0];
  (void)sink;
}

static float *grid(const AllocSiteDesc *site) {
  float *g = malloc((size_t)N * N * sizeof *g);
  __tpd_alloc(g, (size_t)N * N * sizeof *g, site);
  for (int i = 0; i < N * N; i++) {
    int r = i / N, c = i % N;
    g[i] = (r == 0 || c == 0 || r == N - 1 || c == N - 1) ? edge : 0.0f;
  }
  return g;
}

struct job {
  float *cur;
  const float *prev;
  int r0, r1;
  pthread_barrier_t *bar;
  int iters;
  float **a, **b;
};

static void *worker(void *p) {
  struct job *j = p;
  for (int it = 0; it < j->iters; it++) {
    float *cur = (it % 2) ? *j->a : *j->b, *prev = (it % 2) ? *j->b : *j->a;
    sweep(cur, prev, j->r0, j->r1);
    pthread_barrier_wait(j->bar);
  }
  return 0;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void bench(long n) {
  float *a = grid(&alloc_a);
  for (int i = 0; i < N * N; i++) a[i] = 1e-40f;
  uint32_t t = 0, r = 0;
  uint32_t ot[2] = {0, 0};
  volatile uint64_t sink = 0;
  double t0 = now();
  for (long k = 0; k < n; k++) {
    __tpd_load(&sites[S_LOAD], &a[k & 1023], 1, &t);
    sink += t;
  }
  double t1 = now();
  for (long k = 0; k < n; k++) {
    ot[0] = t;
    __tpd_op(&sites[S_ADD1], 1, 1, ot, &r);
    sink += r;
  }
  double t2 = now();
  for (long k = 0; k < n; k++) {
    __tpd_store(&sites[S_STORE], &a[k & 1023], 1, &r);
  }
  double t3 = now();
  /* Unmarked memory: the store misses every array. */
  static float unmarked[1024];
  for (long k = 0; k < n; k++) {
    __tpd_store(&sites[S_STORE], &unmarked[k & 1023], 1, &r);
  }
  double t4 = now();
  printf("load_ns=%.1f op_ns=%.1f store_ns=%.1f store_unmarked_ns=%.1f\n", (t1 - t0) * 1e9 / n,
         (t2 - t1) * 1e9 / n, (t3 - t2) * 1e9 / n, (t4 - t3) * 1e9 / n);
  (void)sink;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "basic";
  if (argc > 2) N = atoi(argv[2]);
  int iters = argc > 3 ? atoi(argv[3]) : 100;
  if (!strcmp(mode, "bench")) {
    bench(iters);
    return 0;
  }
  if (!strcmp(mode, "mixed")) __tp_register_module(&taint_module);
  if (!strcmp(mode, "thesis")) {
    thesis = 1;
    edge = 1.0f;
  }
  if (!strcmp(mode, "ftz")) _mm_setcsr(_mm_getcsr() | 0x8040);
  uint32_t bits = 0x00000100u; /* a denormal, written as integer bits */
  memcpy(&seeds[3], &bits, 4);
  float *a = grid(&alloc_a), *b = grid(&alloc_b);
  tp_array_shape(a, (size_t)N, (size_t)N, NULL);
  tp_array_shape(b, (size_t)N, (size_t)N, "b");
  if (!strcmp(mode, "threads")) {
    enum { T = 4 };
    pthread_t th[T];
    struct job jobs[T];
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, 0, T);
    int rows = (N - 2 + T - 1) / T;
    for (int k = 0; k < T; k++) {
      int r0 = 1 + k * rows, r1 = r0 + rows > N - 1 ? N - 1 : r0 + rows;
      jobs[k] = (struct job){0, 0, r0, r1, &bar, iters, &a, &b};
      pthread_create(&th[k], 0, worker, &jobs[k]);
    }
    for (int k = 0; k < T; k++) pthread_join(th[k], 0);
  } else {
    for (int it = 0; it < iters; it++) {
      float *cur = (it % 2) ? a : b, *prev = (it % 2) ? b : a;
      if (!thesis) seed(cur);
      sweep(cur, prev, 1, N - 1);
      if (it == iters / 2 && !thesis) corner();
      if (!strcmp(mode, "snapshot") && it % 10 == 9) tp_snapshot("iter");
      if (!strcmp(mode, "sigusr1") && (it == 10 || it == 20)) kill(getpid(), SIGUSR1);
      if (!strcmp(mode, "ops") && it % 20 == 0) usleep(20000);
      if (!strcmp(mode, "crash") && it == iters / 2) {
        fflush(stdout);
        *(volatile int *)0 = 1;
      }
    }
  }
  printf("center=%g\n", (double)a[(N / 2) * N + N / 2]);
  __tpd_release(a);
  free(a);
  __tpd_release(b);
  free(b);
  return 0;
}
