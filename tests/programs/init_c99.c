/* The paper's section 3.1 C99 matrix initialisation; tests compare it with the C++
 * `matrix` class version in matrix_class.cpp: both must give the same answer. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

__attribute__((noinline)) void init_c99(int Rows, int Columns, float A[Rows][Columns], float val) {
  for (int i = 0; i < Rows; i++) /* @c99_rows */
    for (int j = 0; j < Columns; j++) /* @c99_cols */
      A[i][j] = val + i - j;
}

int main(void) {
  int rows = 40, cols = 30;
  tp_register_variable(&rows, sizeof rows, "rows");
  tp_register_variable(&cols, sizeof cols, "cols");
  float(*A)[cols] = malloc(sizeof(float) * rows * cols);
  init_c99(rows, cols, A, 1.5f);
  printf("%.1f\n", A[rows - 1][cols - 1]);
  free(A);
  return 0;
}
