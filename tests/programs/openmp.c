/* OpenMP: a parallel loop bounded by a parameter. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

/* Called once per repetition; `n` reaches the outlined body through a stack slot. */
static void scale(double *a, int n, double f) {
#pragma omp parallel for /* @omp_step */
  for (int i = 0; i < n; i++)
    a[i] *= f;
}

int main(void) {
  int n = 100000, reps = 3;
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&reps, sizeof reps, "reps");
  double *a = malloc(n * sizeof *a);
  double total = 0;
  for (int r = 0; r < reps; r++) { /* @reps */
    /* An OpenMP worksharing loop is named by its directive's line. */
#pragma omp parallel for reduction(+ : total) /* @omp_for */
    for (int i = 0; i < n; i++) {
      a[i] = i * 0.5 + r;
      total += a[i];
    }
    scale(a, n, 0.5);
  }
  printf("%.1f threads=%d\n", total, omp_get_max_threads());
  free(a);
  return 0;
}
