/*
 * Thread-local slots of the taintprof label ABI (see taintprof-abi, "Thread-local
 * slots"). Instrumented IR declares these as
 *     external thread_local(initialexec) global ...
 * and reads/writes them directly, so they must be defined with the initial-exec
 * model: one %fs-relative access, no __tls_get_addr call.
 */
#include <stdint.h>

#define TP_TLS __attribute__((tls_model("initial-exec"), visibility("default"))) __thread

/* Labels of the arguments of the call in flight ([MAX_ARG_SLOTS x i16]). */
TP_TLS uint16_t __tp_arg_tls[64] __attribute__((aligned(64)));
/* Label of the return value of the call in flight. */
TP_TLS uint16_t __tp_ret_tls;
/* Labels of each argument (and of the return value) that came from a loop's back edge
 * in the caller: an identity use drops them (taintprof-abi, TLS_ARG_ITER_LABELS). */
TP_TLS uint16_t __tp_argz_tls[64] __attribute__((aligned(64)));
TP_TLS uint16_t __tp_retz_tls;
/* Control label in force at the call site (control-flow tainting). */
TP_TLS uint16_t __tp_ctrl_tls;
/* Union of the labels of the variadic arguments of the call in flight. */
TP_TLS uint16_t __tp_va_label_tls;
/* Bytes of variadic arguments passed on the stack. */
TP_TLS uint64_t __tp_va_bytes_tls;
/* For byval arguments: the caller's source object ([MAX_ARG_SLOTS x ptr]). */
TP_TLS void *__tp_byval_tls[64] __attribute__((aligned(64)));
/* Calling-context node of the function currently running on this thread. */
TP_TLS void *__tp_ctx_tls;
/* SiteDesc of the call in flight. */
TP_TLS const void *__tp_site_tls;
/* The function the call in flight calls (its callee operand): an instrumented callee
 * that finds another address here was called from uninstrumented code. */
TP_TLS void *__tp_callee_tls;

/* The loops this thread is executing (taintprof-abi, TLS_LOOPS_IN_FLIGHT): pushed where
 * a loop is entered, popped where it is left, read by the report writer. */
struct tp_loop_in_flight {
  void *node;
  const void *desc;
  uint64_t label;
};
TP_TLS struct tp_loop_in_flight __tp_loops_tls[256] __attribute__((aligned(64)));
TP_TLS uint64_t __tp_loop_depth_tls;

/* Denormal mode (taintprof-abi, "Denormal mode"): this thread's block counters
 * (u64[DN_THREAD_COUNTERS], null until __tpd_thread_counters), the tags of the FP
 * arguments of the call in flight, and the tag of the FP return value. */
TP_TLS uint64_t *__tpd_counters_tls;
TP_TLS uint64_t __tpd_arg_tags_tls[64] __attribute__((aligned(64)));
TP_TLS uint64_t __tpd_ret_tag_tls;

/* Accessors for the Rust side of the runtime (Rust cannot name foreign TLS). */
uint16_t *__tp_tls_args(void) { return __tp_arg_tls; }
uint16_t *__tp_tls_ret(void) { return &__tp_ret_tls; }
void **__tp_tls_ctx(void) { return &__tp_ctx_tls; }
const void **__tp_tls_site(void) { return &__tp_site_tls; }
uint16_t *__tp_tls_ctrl(void) { return &__tp_ctrl_tls; }
void **__tp_tls_callee(void) { return &__tp_callee_tls; }
struct tp_loop_in_flight *__tp_tls_loops(void) { return __tp_loops_tls; }
uint64_t *__tp_tls_loop_depth(void) { return &__tp_loop_depth_tls; }
uint64_t **__tpd_tls_counters(void) { return &__tpd_counters_tls; }
uint64_t *__tpd_tls_arg_tags(void) { return __tpd_arg_tags_tls; }
uint64_t *__tpd_tls_ret_tag(void) { return &__tpd_ret_tag_tls; }

/* The runtime's own per-thread state (what `thread_local!` held before the runtime
 * became no_std): the calling-context ThreadState and the denormal-mode DnThread of
 * this thread, null until it first runs instrumented code. Read and written inline by
 * the Rust side (`c_tls_ptr!` in lib.rs: the %fs-relative access of initial-exec TLS),
 * never by instrumented code, hence hidden. */
#define TP_TLS_INTERNAL __attribute__((tls_model("initial-exec"), visibility("hidden"))) __thread
TP_TLS_INTERNAL void *__tp_thread_state_tls;
TP_TLS_INTERNAL void *__tpd_thread_state_tls;
/* Time mode: this thread's TimeThread (rt/src/time/mod.rs). */
TP_TLS_INTERNAL void *__tp_time_tls;
