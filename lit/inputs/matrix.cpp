// Source of matrix.ll: clang-19 -O2 -gline-tables-only -fdebug-info-for-profiling -S -emit-llvm matrix.cpp
class matrix {
  int Rows, Columns;
  float *A;
public:
  matrix(int r, int c, float *a) : Rows(r), Columns(c), A(a) {}
  float &at(unsigned i, unsigned j) { return A[i * Columns + j]; }
  unsigned getColumns() { return Columns; }
  unsigned getRows() { return Rows; }
};

void init_cpp(matrix &A, float val) {
  for (int i = 0; i < A.getRows(); i++)
    for (int j = 0; j < A.getColumns(); j++)
      A.at(i, j) = val;
}

static inline int count(int n) {
  int c = 0;
  while (n > 1) { n = n % 2 ? 3 * n + 1 : n / 2; c++; }
  return c;
}

int main(int argc, char **argv) {
  float buf[64];
  matrix m(argc, 8, buf);
  init_cpp(m, 1.0f);
  return count(argc) + (int)m.at(0, 0);
}
