/*
 * taintprof.h — the public interface of the taintprof runtime (libtaintprof_rt.a).
 *
 * Mark the inputs that control how much work your program does ("performance
 * parameters"), build with taintprof-cc / taintprof-c++, run once on a small input, and
 * read the report: which parameters control which loops, in which calling contexts.
 *
 *     int n = atoi(argv[1]);
 *     tp_register_variable(&n, sizeof n, "n");
 *
 * C++:
 *
 *     taintprof::register_variable(&opts.size, "size");
 *
 * At most 16 distinct parameter names can be registered (each gets one bit of a 16-bit
 * label). The report is written when the program exits (also through exit() or a fatal
 * signal) as $TAINTPROF_OUT/<program>.<pid>.taintprof.json; see docs/report-schema.md.
 *
 * Environment (read once at start-up):
 *   TAINTPROF_OUT             report directory (default: working directory at start-up)
 *   TAINTPROF_QUIET=1         do not print where the report was written
 *   TAINTPROF_REPORT=0        write no report
 *   TAINTPROF_HANDLE_SIGNALS=0  no handlers for fatal signals (no partial reports)
 *   TAINTPROF_VERBOSE=1       print start-up details
 *
 * These functions are thread-safe. They exist only in programs linked with the runtime.
 */
#ifndef TAINTPROF_H
#define TAINTPROF_H

#include <stddef.h>
#include <stdint.h>

#define TAINTPROF_VERSION_MAJOR 0
#define TAINTPROF_VERSION_MINOR 1
/* Most parameters that can be registered. */
#define TAINTPROF_MAX_PARAMETERS 16

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Marks the `size` bytes at `addr` as the performance parameter `name`.
 *
 * The first registration of a name takes the next free label bit; registering the same
 * name again (for another variable, or the same one after it changed) reuses its bit.
 * The bytes' previous labels are replaced. Values computed from these bytes carry the
 * label, and every loop whose exit condition depends on them reports `name`.
 *
 * A 17th distinct name is refused: an error is printed on stderr, the bytes stay
 * unlabelled, and the report lists the name under "rejected_parameters".
 */
void tp_register_variable(const void *addr, size_t size, const char *name);

/*
 * Writes a report of the run so far, now, under the same file name as the final report
 * (which replaces it when the program exits). Useful for long-running programs.
 */
void tp_write_report(void);

/*
 * Returns the union of the labels of the `size` bytes at `addr`: bit i set means the
 * bytes depend on the i-th registered parameter. For tests and debugging.
 */
uint16_t tp_read_label(const void *addr, size_t size);

#ifdef __cplusplus
} /* extern "C" */

namespace taintprof {
/* Registers the object `*p` (all sizeof(T) bytes) as parameter `name`. */
template <class T>
inline void register_variable(T *p, const char *name) {
  tp_register_variable(static_cast<const void *>(p), sizeof(T), name);
}
} /* namespace taintprof */
#endif

#endif /* TAINTPROF_H */
