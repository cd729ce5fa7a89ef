/* jacobi_floor: the Jacobi workload (bench/workloads/jacobi.c) instrumented by hand for
 * denormal tracing, as cheaply as I could write it, to measure the floor of what
 * compile-time instrumentation can cost on this stencil.
 *
 *   jacobi_floor [n [iterations [interior [fast_only]]]]   default 1024 1000 0.5 0
 *
 * It keeps what taintprof's denormal report needs, for the 8-element vector body
 * (two <4 x float> chunks, the shape clang -O2 gives the sweep):
 *   - per site (8 loads, 8 operations, 2 stores): denormal loads, operands, results,
 *     stores, in lane-wise vector accumulators summed at exit;
 *   - per element of each array: denormal reads and writes;
 *   - a tag per element in shadow memory (creator site << 16 | origin array), carried
 *     through the operations with selects, stored with the value;
 *   - per store: the origin map of (dest, src) per element and the creator count of
 *     dest, through a one-entry cache per store site (misses go to a plain C loop).
 * and it is cheaper than any general pass can be: the array is checked once per group
 * (not once per site), every update is vector-wide and the only branches are per load
 * site (skipped when no lane is denormal) and per store cache, tags are 32 bits
 * (taintprof's are 64), and the fast path is the same minimum-of-(|bits|-1) filter
 * against 2^-101 that taintprof's coverage uses (four tested loads per chunk).
 * The remainder columns (6 per row) are not traced.
 *
 * Build variants (what each feature costs):
 *   -DMETA16=1  16-bit counters, tags (8-bit creator, 8-bit origin) and origin maps
 *   -DNOELEM=1  no per-element read/write counters
 *   -DNOTAGS=1  no tags: no origins, no creators
 *   fast_only=1 at run time: the cold region returns at once (the fast path's cost)
 * bench/floor/run.sh builds them next to native and taintprof and times them.
 */
#include <emmintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef META16
#define META16 0
#endif
#ifndef NOELEM
#define NOELEM 0
#endif
#ifndef NOTAGS
#define NOTAGS 0
#endif

#if META16
typedef uint16_t meta_t;
#define CR_SHIFT 8
#define CR_MASK 0x7f00
#define ORG_MASK 0xff
#else
typedef uint32_t meta_t;
#define CR_SHIFT 16
#define CR_MASK 0x7fff0000
#define ORG_MASK 0xffff
#endif

/* One marked array: its data, per-element counters, shadow tags, origin maps by source. */
typedef struct {
  float *base;
  size_t n;
  uint32_t id;
  meta_t *reads, *writes, *shadow;
  meta_t *omap[3];
  uint64_t creators[8];
} Arr;

static Arr arrs[3];
static __m128i acc_load[8], acc_opnd[8], acc_res[8], acc_store[2], acc_cr[2];
static uint64_t exec_groups, cold_entries, real_entries, slow_events;
static int fast_only;

/* Store sites' one-entry caches: the origin and creator seen last, and the array. */
static uint32_t cache_org[2], cache_cr[2];
static Arr *cache_arr[2];

#define ABS _mm_set1_epi32(0x7fffffff)

/* All-ones lanes where v is denormal: 0 < |bits| < 0x00800000. */
static inline __m128i isden(__m128 v) {
  __m128i b = _mm_and_si128(_mm_castps_si128(v), ABS);
  b = _mm_add_epi32(b, _mm_set1_epi32(0x7fffffff));
  return _mm_cmplt_epi32(b, _mm_set1_epi32((int)0x807fffffu));
}

/* Metadata access, 4 elements at p: counters -= mask (mask lanes are -1). */
#if META16
static inline void count4(meta_t *p, __m128i m) {
  __m128i c = _mm_loadl_epi64((const __m128i *)p);
  _mm_storel_epi64((__m128i *)p, _mm_sub_epi16(c, _mm_packs_epi32(m, m)));
}
static inline __m128i tags4(const meta_t *p) {
  return _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)p), _mm_setzero_si128());
}
static inline void put_tags4(meta_t *p, __m128i t) {
  _mm_storel_epi64((__m128i *)p, _mm_packs_epi32(t, t)); /* tags < 0x8000 */
}
#else
static inline void count4(meta_t *p, __m128i m) {
  _mm_storeu_si128((__m128i *)p, _mm_sub_epi32(_mm_loadu_si128((const __m128i *)p), m));
}
static inline __m128i tags4(const meta_t *p) {
  return _mm_loadu_si128((const __m128i *)p);
}
static inline void put_tags4(meta_t *p, __m128i t) {
  _mm_storeu_si128((__m128i *)p, t);
}
#endif

static Arr *lookup(const float *p) {
  for (int k = 1; k <= 2; k++)
    if (p >= arrs[k].base && p < arrs[k].base + arrs[k].n)
      return &arrs[k];
  return 0;
}

static uint64_t hsum(__m128i v) {
  uint32_t x[4];
  _mm_storeu_si128((__m128i *)x, v);
  return (uint64_t)x[0] + x[1] + x[2] + x[3];
}

/* A store whose lanes missed the site's cache: count lane by lane, refill the cache. */
static void __attribute__((noinline)) store_slow(int k, Arr *d, size_t e, __m128i tag,
                                                 __m128i m) {
  uint32_t t[4], mm[4];
  _mm_storeu_si128((__m128i *)t, tag);
  _mm_storeu_si128((__m128i *)mm, m);
  slow_events++;
  for (int l = 0; l < 4; l++) {
    if (!mm[l])
      continue;
    uint32_t org = t[l] & ORG_MASK, cr = t[l] >> CR_SHIFT;
    if (org) {
      d->omap[org][e + l]++;
      cache_org[k] = org;
    }
    d->creators[cr & 7]++;
    cache_cr[k] = cr;
  }
  cache_arr[k] = d;
}

/* The cold region of one group: recompute, re-test exactly, count and tag. */
static __attribute__((noinline)) void cold(const float *src, float *dst, size_t off,
                                           size_t n) {
  cold_entries++;
  if (fast_only)
    return;
  const float *s = src + off, *up = s - n, *dn = s + n;
  __m128 u0 = _mm_loadu_ps(up), u1 = _mm_loadu_ps(up + 4);
  __m128 w0 = _mm_loadu_ps(dn), w1 = _mm_loadu_ps(dn + 4);
  __m128 l0 = _mm_loadu_ps(s - 1), l1 = _mm_loadu_ps(s + 3);
  __m128 r0 = _mm_loadu_ps(s + 1), r1 = _mm_loadu_ps(s + 5);
  __m128i mu0 = isden(u0), mu1 = isden(u1), mw0 = isden(w0), mw1 = isden(w1);
  __m128i ml0 = isden(l0), ml1 = isden(l1), mr0 = isden(r0), mr1 = isden(r1);
  __m128 a0 = _mm_add_ps(u0, w0), a1 = _mm_add_ps(u1, w1);
  __m128 b0 = _mm_add_ps(a0, l0), b1 = _mm_add_ps(a1, l1);
  __m128 c0 = _mm_add_ps(b0, r0), c1 = _mm_add_ps(b1, r1);
  __m128 o0 = _mm_mul_ps(c0, _mm_set1_ps(0.25f)), o1 = _mm_mul_ps(c1, _mm_set1_ps(0.25f));
  __m128i ma0 = isden(a0), ma1 = isden(a1), mb0 = isden(b0), mb1 = isden(b1);
  __m128i mc0 = isden(c0), mc1 = isden(c1), mo0 = isden(o0), mo1 = isden(o1);
  __m128i any = _mm_or_si128(_mm_or_si128(_mm_or_si128(mu0, mu1), _mm_or_si128(mw0, mw1)),
                             _mm_or_si128(_mm_or_si128(ml0, ml1), _mm_or_si128(mr0, mr1)));
  any = _mm_or_si128(any, _mm_or_si128(_mm_or_si128(ma0, ma1), _mm_or_si128(mb0, mb1)));
  any = _mm_or_si128(any, _mm_or_si128(_mm_or_si128(mc0, mc1), _mm_or_si128(mo0, mo1)));
  if (_mm_movemask_epi8(any) == 0)
    return; /* entered through the raised threshold, nothing denormal */
  real_entries++;
  /* One window check per array and group. */
  static Arr *cs, *cd;
  if (!cs || (uintptr_t)(up - 1 - cs->base) >= cs->n - n * 2 - 9)
    cs = lookup(s);
  if (!cd || (uintptr_t)(dst + off - cd->base) >= cd->n - 8)
    cd = lookup(dst + off);
  Arr *S = cs, *D = cd;
  const __m128i Z = _mm_setzero_si128();
  const __m128i CR = _mm_set1_epi32(CR_MASK);
  const __m128i ID = _mm_set1_epi32((int)S->id);
#define LOAD(k, m, ptr, tg)                                                                  \
  __m128i tg = Z;                                                                            \
  {                                                                                          \
    size_t ee = (size_t)((ptr) - S->base);                                                   \
    if (_mm_movemask_epi8(m)) { /* a load site with no denormal lane does nothing */          \
      if (!NOELEM)                                                                           \
        count4(S->reads + ee, m);                                                            \
      acc_load[k] = _mm_sub_epi32(acc_load[k], m);                                           \
      if (!NOTAGS)                                                                           \
        tg = _mm_and_si128(_mm_or_si128(_mm_and_si128(tags4(S->shadow + ee), CR), ID), m);  \
    }                                                                                        \
  }
  LOAD(0, mu0, up, tu0)
  LOAD(1, mu1, up + 4, tu1)
  LOAD(2, mw0, dn, tw0)
  LOAD(3, mw1, dn + 4, tw1)
  LOAD(4, ml0, s - 1, tl0)
  LOAD(5, ml1, s + 3, tl1)
  LOAD(6, mr0, s + 1, tr0)
  LOAD(7, mr1, s + 5, tr1)
  /* An operation: count; the result's tag is the first denormal operand's, else this
   * site's (it created the denormal), and only on denormal lanes. */
#define OP(k, ma, ta, mb, tb, mres, tres, mine)                                              \
  __m128i tres;                                                                              \
  {                                                                                          \
    acc_opnd[k] = _mm_sub_epi32(_mm_sub_epi32(acc_opnd[k], ma), mb);                         \
    acc_res[k] = _mm_sub_epi32(acc_res[k], mres);                                            \
    __m128i t = _mm_or_si128(ta, _mm_and_si128(_mm_cmpeq_epi32(ta, Z), tb));                 \
    t = _mm_or_si128(t, _mm_and_si128(_mm_cmpeq_epi32(t, Z), _mm_set1_epi32(mine << CR_SHIFT))); \
    tres = _mm_and_si128(t, mres);                                                           \
  }
  OP(0, mu0, tu0, mw0, tw0, ma0, ta0, 1)
  OP(1, mu1, tu1, mw1, tw1, ma1, ta1, 1)
  OP(2, ma0, ta0, ml0, tl0, mb0, tb0, 2)
  OP(3, ma1, ta1, ml1, tl1, mb1, tb1, 2)
  OP(4, mb0, tb0, mr0, tr0, mc0, tc0, 3)
  OP(5, mb1, tb1, mr1, tr1, mc1, tc1, 3)
  OP(6, mc0, tc0, Z, Z, mo0, to0, 4)
  OP(7, mc1, tc1, Z, Z, mo1, to1, 4)
#define STORE(k, m, tg, ee)                                                                  \
  {                                                                                          \
    if (!NOELEM)                                                                             \
      count4(D->writes + (ee), m);                                                           \
    acc_store[k] = _mm_sub_epi32(acc_store[k], m);                                           \
    if (!NOTAGS) {                                                                           \
      put_tags4(D->shadow + (ee), tg);                                                       \
      __m128i org = _mm_and_si128(tg, _mm_set1_epi32(ORG_MASK));                             \
      __m128i has = _mm_andnot_si128(_mm_cmpeq_epi32(org, Z), m);                            \
      __m128i cr = _mm_srli_epi32(tg, CR_SHIFT);                                             \
      __m128i bad =                                                                          \
          _mm_andnot_si128(_mm_cmpeq_epi32(org, _mm_set1_epi32((int)cache_org[k])), has);    \
      bad = _mm_or_si128(                                                                    \
          bad, _mm_andnot_si128(_mm_cmpeq_epi32(cr, _mm_set1_epi32((int)cache_cr[k])), m));  \
      if (cache_arr[k] != D || _mm_movemask_epi8(bad)) {                                     \
        store_slow(k, D, ee, tg, m);                                                         \
      } else {                                                                               \
        count4(D->omap[cache_org[k]] + (ee), has);                                           \
        acc_cr[k] = _mm_sub_epi32(acc_cr[k], m);                                             \
      }                                                                                      \
    }                                                                                        \
  }
  STORE(0, mo0, to0, off)
  STORE(1, mo1, to1, off + 4)
}

static void sweep(const float *restrict src, float *restrict dst, size_t n) {
  const __m128 q = _mm_set1_ps(0.25f);
  const __m128 lim = _mm_castsi128_ps(_mm_set1_epi32(0x0d000000)); /* 2^-101 */
  const __m128i M1 = _mm_set1_epi32(-1);
  for (size_t i = 1; i < n - 1; i++) {
    size_t j = 1;
    for (; j + 8 <= n - 1; j += 8) {
      size_t off = i * n + j;
      const float *s = src + off, *up = s - n, *dn = s + n;
      __m128 u0 = _mm_loadu_ps(up), u1 = _mm_loadu_ps(up + 4);
      __m128 w0 = _mm_loadu_ps(dn), w1 = _mm_loadu_ps(dn + 4);
      __m128 l0 = _mm_loadu_ps(s - 1), l1 = _mm_loadu_ps(s + 3);
      __m128 r0 = _mm_loadu_ps(s + 1), r1 = _mm_loadu_ps(s + 5);
      /* The filter: min over (|bits| - 1) as floats (a zero gives NaN, ignored). */
#define T(v) _mm_castsi128_ps(_mm_add_epi32(_mm_and_si128(_mm_castps_si128(v), ABS), M1))
      __m128 acc = _mm_min_ps(T(u0), _mm_castsi128_ps(_mm_set1_epi32(0x7f800000)));
      acc = _mm_min_ps(T(u1), acc);
      acc = _mm_min_ps(T(w0), acc);
      acc = _mm_min_ps(T(w1), acc);
      acc = _mm_min_ps(T(l0), acc);
      acc = _mm_min_ps(T(l1), acc);
      acc = _mm_min_ps(T(r0), acc);
      acc = _mm_min_ps(T(r1), acc);
      __m128 o0 = _mm_mul_ps(_mm_add_ps(_mm_add_ps(_mm_add_ps(u0, w0), l0), r0), q);
      __m128 o1 = _mm_mul_ps(_mm_add_ps(_mm_add_ps(_mm_add_ps(u1, w1), l1), r1), q);
      (*(volatile uint64_t *)&exec_groups)++; /* the block counter (executions) */
      if (__builtin_expect(_mm_movemask_ps(_mm_cmplt_ps(acc, lim)) != 0, 0))
        cold(src, dst, off, n);
      _mm_storeu_ps(dst + off, o0);
      _mm_storeu_ps(dst + off + 4, o1);
    }
    for (; j < n - 1; j++)
      dst[i * n + j] = 0.25f * (src[(i - 1) * n + j] + src[(i + 1) * n + j] +
                                src[i * n + j - 1] + src[i * n + j + 1]);
  }
}

static void make_array(Arr *a, uint32_t id, size_t n) {
  a->n = n;
  a->id = id;
  a->base = aligned_alloc(64, n * 4 + 64);
  a->reads = calloc(n + 16, sizeof(meta_t));
  a->writes = calloc(n + 16, sizeof(meta_t));
  a->shadow = calloc(n + 16, sizeof(meta_t));
  for (int k = 0; k <= 2; k++)
    a->omap[k] = calloc(n + 16, sizeof(meta_t));
  if (!a->base || !a->reads || !a->writes || !a->shadow || !a->omap[0] || !a->omap[1] ||
      !a->omap[2]) {
    fprintf(stderr, "jacobi_floor: out of memory\n");
    exit(1);
  }
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? (size_t)atoi(argv[1]) : 1024;
  int iterations = argc > 2 ? atoi(argv[2]) : 1000;
  float interior = argc > 3 ? (float)atof(argv[3]) : 0.5f;
  fast_only = argc > 4 ? atoi(argv[4]) : 0;
  if (n < 16 || iterations < 0) {
    fprintf(stderr, "usage: jacobi_floor [n >= 16 [iterations >= 0 [interior [fast_only]]]]\n");
    return 2;
  }
  make_array(&arrs[1], 1, n * n);
  make_array(&arrs[2], 2, n * n);
  float *a = arrs[1].base, *b = arrs[2].base;
  for (int k = 0; k < 2; k++) {
    float *x = k ? b : a;
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++)
        x[i * n + j] = (i == 0 || j == 0 || i == n - 1 || j == n - 1) ? 1.0f : interior;
  }
  for (int it = 0; it < iterations; it++) {
    sweep(a, b, n);
    float *t = a;
    a = b;
    b = t;
  }
  double sum = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      sum += (double)a[i * n + j] * (double)((i + 2 * j) % 7 + 1);
  printf("checksum %.17g\n", sum);
  uint64_t loads = 0, res = 0, opnd = 0, stores = hsum(acc_store[0]) + hsum(acc_store[1]);
  for (int k = 0; k < 8; k++)
    loads += hsum(acc_load[k]), res += hsum(acc_res[k]), opnd += hsum(acc_opnd[k]);
  uint64_t reads[3] = {0, 0, 0};
  for (int k = 1; k <= 2; k++)
    for (size_t e = 0; e < n * n; e++)
      reads[k] += arrs[k].reads[e];
  fprintf(stderr,
          "groups %lu, cold entries %lu (%lu with a denormal), cache misses %lu\n"
          "denormal loads %lu (per-element reads: a %lu, b %lu), operands %lu, results %lu, "
          "stores %lu\n",
          (unsigned long)exec_groups, (unsigned long)cold_entries, (unsigned long)real_entries,
          (unsigned long)slow_events, (unsigned long)loads, (unsigned long)reads[1],
          (unsigned long)reads[2], (unsigned long)opnd, (unsigned long)res,
          (unsigned long)stores);
  return 0;
}
