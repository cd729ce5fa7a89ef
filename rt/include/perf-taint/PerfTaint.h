/*
 * Perf-Taint compatibility (C). Code annotated for Perf-Taint
 * (https://github.com/spcl/perf-taint) builds unchanged against taintprof:
 *
 *     #include "perf-taint/PerfTaint.h"
 *     perf_taint_register_variable(&size, sizeof(size), VARIABLE_NAME(size));
 *
 * Each call is forwarded to its taintprof counterpart (see taintprof.h), with the same
 * rules: at most 16 distinct names, repeated names share a label, names of at most 64
 * ASCII letters, digits and _ . - : [ ] (refused otherwise, with an error on stderr).
 */
#ifndef TAINTPROF_PERF_TAINT_H
#define TAINTPROF_PERF_TAINT_H

#include <stddef.h>

/* The name of a variable as a string literal: VARIABLE_NAME(size) is "size". */
#define VARIABLE_NAME(x) #x
/* Perf-Taint's marker for Extra-P instrumentation; taintprof needs nothing. */
#define EXTRAP

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the `size` bytes at `addr` as the performance parameter `name`
 * (tp_register_variable). */
void perf_taint_register_variable(const void *addr, size_t size, const char *name);

/* 1 if any of the `size` bytes at `addr` depends on parameter `name`, else 0
 * (tp_has_label). */
int perf_taint_has_label(const void *addr, size_t size, const char *name);

/* Removes every label of the `size` bytes at `addr` (tp_delete_label). */
void perf_taint_delete_label(const void *addr, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* TAINTPROF_PERF_TAINT_H */
