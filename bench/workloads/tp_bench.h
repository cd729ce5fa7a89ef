/* tp_bench.h: how a `taintprof bench` workload registers its parameters.
 *
 * Every workload is compiled once per configuration, with one of these defined:
 *
 *   TP_BENCH_TAINT   taintprof: tp_register_variable (the taintprof runtime)
 *   TP_BENCH_DFSAN   DataFlowSanitizer: one label bit per variable (1, 2, 4, ...)
 *   (neither)        native: registration compiles to nothing
 *
 * so all configurations run the same code and differ only in the instrumentation.
 * Each workload prints one line `checksum <value>`; the bench checks that every
 * configuration prints the same one. */
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

#endif
