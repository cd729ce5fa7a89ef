// The C++ `matrix` class of the Perf-Taint paper (section 3.1): sizes hidden in an
// object, reached through small accessors.
#include <cstdio>
#include <cstdlib>
#include <taintprof.h>

class matrix {
  int Rows, Columns;
  float *A;

public:
  matrix(int r, int c) : Rows(r), Columns(c), A(new float[(size_t)r * c]) {}
  ~matrix() { delete[] A; }
  float &at(unsigned i, unsigned j) { return A[i * Columns + j]; }
  unsigned getColumns() { return Columns; }
  unsigned getRows() { return Rows; }
  // Small enough to be inlined at -O2: its loop must still be attributed to it.
  void scale(float f) {
    for (int k = 0; k < Rows * Columns; k++) /* @method */
      A[k] *= f;
  }
};

__attribute__((noinline)) void init_cpp(matrix &A, float val) {
  for (int i = 0; i < A.getRows(); i++) /* @cpp_rows */
    for (int j = 0; j < A.getColumns(); j++) /* @cpp_cols */
      A.at(i, j) = val + i - j;
}

template <typename T> __attribute__((noinline)) T sum_all(matrix &A) {
  T s = 0;
  for (unsigned i = 0; i < A.getRows(); i++) /* @tmpl_rows */
    for (unsigned j = 0; j < A.getColumns(); j++) /* @tmpl_cols */
      s += A.at(i, j);
  return s;
}

int main(int argc, char **argv) {
  int rows = 40, cols = 30;
  taintprof::register_variable(&rows, "rows");
  taintprof::register_variable(&cols, "cols");
  matrix M(rows, cols);
  init_cpp(M, 1.5f);
  M.scale(2.0f);
  std::printf("%.1f\n", sum_all<double>(M));
  return 0;
}
