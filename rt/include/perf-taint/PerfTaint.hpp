/*
 * Perf-Taint compatibility (C++). Code annotated for Perf-Taint builds unchanged:
 *
 *     #include "perf-taint/PerfTaint.hpp"
 *     perf_taint::register_variable(&opts.nx, VARIABLE_NAME(size));
 */
#ifndef TAINTPROF_PERF_TAINT_HPP
#define TAINTPROF_PERF_TAINT_HPP

#include "PerfTaint.h"

namespace perf_taint {
/* Marks the object `*p` (all sizeof(T) bytes) as the performance parameter `name`. */
template <typename T>
inline void register_variable(T *p, const char *name) {
  perf_taint_register_variable(static_cast<const void *>(p), sizeof(T), name);
}
} /* namespace perf_taint */

#endif /* TAINTPROF_PERF_TAINT_HPP */
