/* tp_bench.h: how a `taintprof bench` workload registers its parameters.
 *
 * Every workload is compiled once per configuration, with one of these defined:
 *
 *   TP_BENCH_TAINT     taintprof: tp_register_variable (the taintprof runtime)
 *   TP_BENCH_DFSAN     DataFlowSanitizer: one label bit per variable (1, 2, 4, ...)
 *   TP_BENCH_DENORMAL  taintprof denormal mode: parameters are not registered; arrays
 *                      get names and 2-D shapes (TP_BENCH_ARRAY) and the time loop
 *                      takes snapshots (TP_BENCH_SNAPSHOT_ITER) for the heatmaps
 *   (none)             native: all of these compile to nothing
 *
 * so all configurations run the same code and differ only in the instrumentation.
 * Each workload prints one line `checksum <value>`; the bench checks that every
 * configuration prints the same one. The header works for C and C++ workloads.
 * DFSan builds also pass dfsan_abilist.txt (next to this file), which declares the C++
 * and OpenMP runtimes uninstrumented. */
#ifndef TP_BENCH_H
#define TP_BENCH_H

#if defined(TP_BENCH_TAINT)
#include <taintprof.h>
#define TP_BENCH_PARAM(var) tp_register_variable(&(var), sizeof(var), #var)
#elif defined(TP_BENCH_DFSAN)
#include <sanitizer/dfsan_interface.h>
static dfsan_label tp_bench_next_label = 1;
#define TP_BENCH_PARAM(var)                                                    \
  do {                                                                         \
    dfsan_set_label(tp_bench_next_label, &(var), sizeof(var));                 \
    tp_bench_next_label = (dfsan_label)(tp_bench_next_label << 1);             \
  } while (0)
#else
#define TP_BENCH_PARAM(var) ((void)0)
#endif

#if defined(TP_BENCH_DENORMAL)
#include <stdio.h>
#include <taintprof.h> /* tp_array_shape, tp_snapshot */
#define TP_BENCH_ARRAY(p, rows, cols, name)                                    \
  tp_array_shape((p), (size_t)(rows), (size_t)(cols), (name))
#define TP_BENCH_SNAPSHOT_ITER(k)                                              \
  do {                                                                         \
    char tp_bench_label_[32];                                                  \
    snprintf(tp_bench_label_, sizeof tp_bench_label_, "iter %d", (int)(k));    \
    tp_snapshot(tp_bench_label_);                                              \
  } while (0)
#else
#define TP_BENCH_ARRAY(p, rows, cols, name) ((void)0)
#define TP_BENCH_SNAPSHOT_ITER(k) ((void)0)
#endif

#endif
