/* Loops the optimizer folds at -O2: a sum with a closed form (over k), and a loop with
 * a constant trip count that is fully unrolled. At -O0 they are loops; at -O2 they are
 * gone and reported as folded (tests/tests/vanishing_loops.rs). The loop in `scale`
 * survives at -O2 (vectorized) and must not be reported as folded.
 *   ./cf_folded k n */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

int sum_k(int k) {
    int s = 0;
    for (int i = 0; i < k; i++) /* @sum */
        s += i;
    return s;
}

double first4(const double *x) {
    double s = 0;
    for (int i = 0; i < 4; i++) /* @unrolled */
        s += x[i] * (i + 1);
    return s;
}

void scale(double *x, int n) {
    for (int i = 0; i < n; i++) /* @scale */
        x[i] = x[i] * 1.5 + i;
}

int main(int argc, char **argv) {
    if (argc < 3)
        return 2;
    int k = atoi(argv[1]), n = atoi(argv[2]);
    tp_register_variable(&k, sizeof k, "k");
    tp_register_variable(&n, sizeof n, "n");
    double *x = calloc(n + 4, sizeof *x);
    scale(x, n);
    printf("%d %g\n", sum_k(k), first4(x));
    free(x);
    return 0;
}
