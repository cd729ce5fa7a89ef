/*
 * Perf-Taint compatibility (C++). Code annotated for Perf-Taint builds unchanged:
 *
 *     #include "perf-taint/PerfTaint.hpp"
 *     perf_taint::register_variable(&opts.nx, VARIABLE_NAME(size));
 *     register_variable(&steps, "steps");            // the old, unqualified form
 *     if (perf_taint::has_label(&x, "size")) ...     // does x depend on size?
 *     perf_taint::delete_label(&x);                  // x depends on nothing now
 *     perf_taint::delete_labels(buf, n);             // nor do buf[0..n)
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

/* Whether any byte of `*p` depends on the registered parameter `name` (false for a name
 * that was never registered). */
template <typename T>
inline bool has_label(const T *p, const char *name) {
  return perf_taint_has_label(static_cast<const void *>(p), sizeof(T), name) != 0;
}
/* The same for the `n` objects at `p`. */
template <typename T>
inline bool has_label(const T *p, size_t n, const char *name) {
  return perf_taint_has_label(static_cast<const void *>(p), n * sizeof(T), name) != 0;
}

/* Removes every label of `*p`: values loaded from it afterwards depend on no parameter. */
template <typename T>
inline void delete_label(const T *p) {
  perf_taint_delete_label(static_cast<const void *>(p), sizeof(T));
}
/* The same for the `n` objects at `p`. */
template <typename T>
inline void delete_label(const T *p, size_t n) {
  perf_taint_delete_label(static_cast<const void *>(p), n * sizeof(T));
}
/* Removes every label of the array of `n` objects at `p`. */
template <typename T>
inline void delete_labels(const T *p, size_t n) {
  perf_taint_delete_label(static_cast<const void *>(p), n * sizeof(T));
}
} /* namespace perf_taint */

/* Perf-Taint's older, unqualified spelling of perf_taint::register_variable. */
template <typename T>
inline void register_variable(T *p, const char *name) {
  perf_taint::register_variable(p, name);
}

#endif /* TAINTPROF_PERF_TAINT_HPP */
