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
 *   TAINTPROF_UNLIMITED_STACK_MIB=N  under `ulimit -s unlimited`, the program is
 *                             re-executed once at start-up with an N MiB stack limit
 *                             (default 8192) so that its memory layout leaves room for the
 *                             shadow memory, and the limit is set back to unlimited;
 *                             0: do not (the program then cannot start)
 *
 * Denormal mode (taintprof-cc --tp-mode=denormal): the program counts, for every
 * floating-point operation, the denormal operands and results it saw; follows every
 * floating-point array and counts denormal reads and writes per element over time; and
 * tells where denormals come from. The report is $TAINTPROF_OUT/<program>.<pid>.denormal.json.
 * Two functions help reading it:
 *
 *     float *t = malloc(n * m * sizeof *t);
 *     tp_array_shape(t, n, m, "temperature");   // name it, heatmaps n x m
 *     for (int it = 0; it < iters; it++) {
 *       step(t);
 *       if (it % 100 == 0) tp_snapshot("step");  // heatmaps over time
 *     }
 *
 *   TAINTPROF_SNAPSHOT_OPS=N     also snapshot every N million floating-point operations
 *   TAINTPROF_SNAPSHOT_MEMORY=M  MiB that kept snapshots may use (default 256)
 *   TAINTPROF_ALL_SITES=1        list every FP site in the report, not only those that
 *                                saw denormals
 *   kill -USR1 <pid>             take a snapshot from outside (unless the program
 *                                handles SIGUSR1 itself)
 *
 * These functions are thread-safe. They exist only in programs linked with the runtime.
 *
 * Building the same code without taintprof (a plain compiler, no runtime): define
 * TAINTPROF_DISABLE (cc -DTAINTPROF_DISABLE ...) and every call above compiles to nothing,
 * so the annotations can stay in production code.
 */
#ifndef TAINTPROF_H
#define TAINTPROF_H

#include <stddef.h>
#include <stdint.h>

#define TAINTPROF_VERSION_MAJOR 0
#define TAINTPROF_VERSION_MINOR 1
/* Most parameters that can be registered. */
#define TAINTPROF_MAX_PARAMETERS 16
/* Longest parameter name, in bytes. */
#define TAINTPROF_MAX_NAME_LENGTH 64

#ifdef TAINTPROF_DISABLE
/* Built without taintprof: the API is a set of no-ops (see the top of this file). */
static inline void tp_register_variable(const void *addr, size_t size, const char *name) {
  (void)addr; (void)size; (void)name;
}
static inline void tp_write_report(void) {}
static inline uint16_t tp_read_label(const void *addr, size_t size) {
  (void)addr; (void)size;
  return 0;
}
static inline int tp_has_label(const void *addr, size_t size, const char *name) {
  (void)addr; (void)size; (void)name;
  return 0;
}
static inline void tp_delete_label(const void *addr, size_t size) { (void)addr; (void)size; }
static inline void tp_array_shape(const void *ptr, size_t rows, size_t cols, const char *name) {
  (void)ptr; (void)rows; (void)cols; (void)name;
}
static inline void tp_snapshot(const char *label) { (void)label; }
#else /* !TAINTPROF_DISABLE */
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
 * The value of the bytes at the first registration of `name` is kept in the raw run
 * record (<program>.<pid>.taintprof.rec) for performance models: `size` 1, 2, 4 or 8 is
 * read as a signed integer of that size (there is no type to tell unsigned or floating
 * point); other sizes record no value. Register a parameter after it is set.
 *
 * Names: 1 to TAINTPROF_MAX_NAME_LENGTH (64) bytes of ASCII letters, digits and
 * `_ . - : [ ]`, starting with a letter, a digit or `_` ("n", "opts.nx", "grid[0]",
 * "ns::size"). Names appear in report tables, volume expressions ("n*m + k",
 * "(n,m)^2"), `taintprof report --subset n,m`, Score-P filter comments, CSV and JSON;
 * spaces, commas, quotes, operators and control characters would make those ambiguous,
 * and a name longer than 64 bytes does not fit a table column.
 *
 * A call is refused -- an error is printed on stderr (once per name and reason), the
 * bytes stay unlabelled, the report lists the name under "rejected_parameters", and
 * the program goes on -- when:
 *   - `name` is NULL, empty, longer than 64 bytes or has a character outside that set;
 *   - `addr` is NULL, `size` is 0, or [addr, addr + size) is not a user address range;
 *   - it would be a 17th distinct name.
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

/*
 * Returns 1 if the label of any of the `size` bytes at `addr` includes the registered
 * parameter `name`, else 0 (also when no parameter has that name).
 */
int tp_has_label(const void *addr, size_t size, const char *name);

/*
 * Removes every label of the `size` bytes at `addr`: values loaded from them afterwards
 * depend on no parameter (values computed from them before keep their labels). A NULL
 * `addr` or a `size` of 0 does nothing.
 */
void tp_delete_label(const void *addr, size_t size);

/*
 * Denormal mode: names the floating-point array that contains `ptr` and gives it a
 * `rows` x `cols` shape (row-major), which the report uses for its heatmaps (without a
 * shape, arrays are shown folded into a near-square layout). `name` (copied; may be
 * NULL to keep the name the compiler found) replaces the variable name in the report;
 * `rows` or `cols` 0 keeps the shape. May be called before the array exists: the shape
 * then applies to the next array that starts exactly at `ptr`. No effect in taint mode.
 */
void tp_array_shape(const void *ptr, size_t rows, size_t cols, const char *name);

/*
 * Denormal mode: records a snapshot now, labelled `label` (copied, at most 64 bytes):
 * each array's cumulative denormal reads and writes, and its heatmap of the reads and
 * writes since the previous snapshot. Snapshots are also taken every
 * TAINTPROF_SNAPSHOT_OPS million FP operations, on SIGUSR1 and at exit. No effect in
 * taint mode.
 */
void tp_snapshot(const char *label);

#ifdef __cplusplus
} /* extern "C" */
#endif
#endif /* TAINTPROF_DISABLE */

#ifdef __cplusplus
namespace taintprof {
/* Registers the object `*p` (all sizeof(T) bytes) as parameter `name`. */
template <class T>
inline void register_variable(T *p, const char *name) {
  tp_register_variable(static_cast<const void *>(p), sizeof(T), name);
}
/* Whether any byte of `*p` (or of the `n` objects at `p`) depends on parameter `name`. */
template <class T>
inline bool has_label(const T *p, const char *name) {
  return tp_has_label(static_cast<const void *>(p), sizeof(T), name) != 0;
}
template <class T>
inline bool has_label(const T *p, size_t n, const char *name) {
  return tp_has_label(static_cast<const void *>(p), n * sizeof(T), name) != 0;
}
/* Removes the labels of `*p` (or of the `n` objects at `p`). */
template <class T>
inline void delete_label(const T *p, size_t n = 1) {
  tp_delete_label(static_cast<const void *>(p), n * sizeof(T));
}
/* Denormal mode: names the array at `p` and gives it a rows x cols shape. */
template <class T>
inline void array_shape(const T *p, size_t rows, size_t cols, const char *name = 0) {
  tp_array_shape(static_cast<const void *>(p), rows, cols, name);
}
/* Denormal mode: records a snapshot now. */
inline void snapshot(const char *label) { tp_snapshot(label); }
} /* namespace taintprof */
#endif

#endif /* TAINTPROF_H */
