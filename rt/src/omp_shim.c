/* omp_shim.c: the OpenMP thread count as the implicit parameter `threads`
 * (TAINTPROF_IMPLICIT_THREADS=1; rt/src/mpi.rs, rt/abilist.txt lists these as `wrap`).
 *
 * The wrappers call the real functions through weak references, so that a program that
 * does not use OpenMP links without libomp (it never calls them then). */
#include <stddef.h>
#include <stdint.h>

extern int omp_get_num_threads(void) __attribute__((weak));
extern int omp_get_max_threads(void) __attribute__((weak));
extern uint16_t __tp_implicit_threads(void *count, size_t n);
extern uint16_t *__tp_tls_ret(void);

int __tpw_omp_get_num_threads(void) {
    int n = omp_get_num_threads ? omp_get_num_threads() : 1;
    *__tp_tls_ret() = __tp_implicit_threads(&n, sizeof n);
    return n;
}

int __tpw_omp_get_max_threads(void) {
    int n = omp_get_max_threads ? omp_get_max_threads() : 1;
    *__tp_tls_ret() = __tp_implicit_threads(&n, sizeof n);
    return n;
}
