/* Loops that -O2 turns into memset/memcpy (loop idiom recognition), and library
 * routines called explicitly. At -O0 the loops are natural loops; at -O2 they are
 * llvm.memset/llvm.memcpy calls, reported as library loops at the same source loop
 * (tests/tests/vanishing_loops.rs). The loop bodies are on their own lines: the
 * intrinsic's position is the store's, the loop's the `for` keyword's.
 *   ./cf_memset n steps m    (m <= n) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <taintprof.h>

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void init(double *a, int n) {
    for (int i = 0; i < n; i++) /* @init */
        a[i] = 0.0;
}

void step(double *restrict dst, double *restrict src, int n, int steps) {
    for (int t = 0; t < steps; t++) { /* @time */
        for (int i = 0; i < n; i++) /* @copy */
            dst[i] = src[i];
        src[t % n] += dst[(t + 1) % n];
    }
}

int main(int argc, char **argv) {
    if (argc < 4)
        return 2;
    int n = atoi(argv[1]), steps = atoi(argv[2]), m = atoi(argv[3]);
    tp_register_variable(&n, sizeof n, "n");
    tp_register_variable(&steps, sizeof steps, "steps");
    tp_register_variable(&m, sizeof m, "m");
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    init(a, n);
    init(b, n);
    for (int i = 0; i < n; i++) /* @fill */
        b[i] = (i * 7) % 11;
    step(a, b, n, steps);
    qsort(a, n, sizeof *a, cmp); /* @qsort */
    double *c = malloc(m * sizeof *c);
    memcpy(c, b, m * sizeof *c); /* @memcpy */
    double d[16];
    memset(d, 0, sizeof d); /* @const */
    printf("%g\n", a[0] + a[n - 1] + c[m - 1] + d[3]);
    free(a);
    free(b);
    free(c);
    return 0;
}
