// accessors: a C++ template-heavy kernel built from small accessor functions, in the
// style of the `matrix` class of the Perf-Taint paper (section 3.1) (a `taintprof bench`
// workload).
//
//   accessors [n [reps]]           default: 1024 x 1024 image, 24 repetitions
//
// The sizes live inside objects (`matrix<T>::Rows`, `Columns`) and every element access
// goes through `at(i, j)`, `getRows()` and `getColumns()`, through accessor objects
// (`clamped<M>`: reads outside the image return the nearest edge element) and through
// row iterators fed to a generic algorithm (`std::inner_product`). All of it is
// inlined at -O2; a tracer must still see that the loops depend on n through the
// objects. Each repetition smooths the image with a 5 x 5 kernel (a templated
// convolution, float) and multiplies a double matrix with a vector (a templated
// matrix-vector product over row iterators). n and reps are the registered parameters.
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <utility>
#include "tp_bench.h"

template <typename T> class matrix {
  unsigned Rows, Columns;
  T *A;

public:
  matrix(unsigned rows, unsigned cols)
      : Rows(rows), Columns(cols), A(new T[(size_t)rows * cols]()) {}
  matrix(const matrix &) = delete;
  matrix &operator=(const matrix &) = delete;
  ~matrix() { delete[] A; }

  T &at(unsigned i, unsigned j) { return A[(size_t)i * Columns + j]; }
  const T &at(unsigned i, unsigned j) const { return A[(size_t)i * Columns + j]; }
  unsigned getRows() const { return Rows; }
  unsigned getColumns() const { return Columns; }
  T *data() { return A; }
  void swap(matrix &o) {
    std::swap(Rows, o.Rows);
    std::swap(Columns, o.Columns);
    std::swap(A, o.A);
  }

  // A row as an iterator range.
  class row_iterator {
    const matrix *M;
    unsigned Row, Col;

  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = long;
    using pointer = const T *;
    using reference = const T &;
    row_iterator(const matrix *m, unsigned row, unsigned col) : M(m), Row(row), Col(col) {}
    const T &operator*() const { return M->at(Row, Col); }
    row_iterator &operator++() {
      ++Col;
      return *this;
    }
    bool operator==(const row_iterator &o) const { return Col == o.Col; }
    bool operator!=(const row_iterator &o) const { return Col != o.Col; }
  };
  row_iterator row_begin(unsigned i) const { return row_iterator(this, i, 0); }
  row_iterator row_end(unsigned i) const { return row_iterator(this, i, getColumns()); }
};

// Reads a matrix with indices clamped to its edges (for stencils and convolutions).
template <typename M> class clamped {
  const M &m;

  static int clamp(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

public:
  explicit clamped(const M &mat) : m(mat) {}
  unsigned getRows() const { return m.getRows(); }
  unsigned getColumns() const { return m.getColumns(); }
  auto operator()(int i, int j) const {
    return m.at(clamp(i, (int)getRows() - 1), clamp(j, (int)getColumns() - 1));
  }
};

// out = src convolved with kernel (kernel centred; src read through an accessor).
template <typename T, typename Src>
void convolve(const Src &src, const matrix<T> &kernel, matrix<T> &out) {
  int kr = (int)kernel.getRows() / 2, kc = (int)kernel.getColumns() / 2;
  for (unsigned i = 0; i < out.getRows(); i++)
    for (unsigned j = 0; j < out.getColumns(); j++) {
      T s = T(0);
      for (unsigned ki = 0; ki < kernel.getRows(); ki++)
        for (unsigned kj = 0; kj < kernel.getColumns(); kj++)
          s += kernel.at(ki, kj) * src((int)(i + ki) - kr, (int)(j + kj) - kc);
      out.at(i, j) = s;
    }
}

// y = A x, each row through its iterators and a generic algorithm.
template <typename T> void matvec(const matrix<T> &A, const T *x, T *y) {
  for (unsigned i = 0; i < A.getRows(); i++)
    y[i] = std::inner_product(A.row_begin(i), A.row_end(i), x, T(0));
}

template <typename T> double weighted_sum(const matrix<T> &a) {
  double s = 0.0;
  for (unsigned i = 0; i < a.getRows(); i++)
    for (unsigned j = 0; j < a.getColumns(); j++)
      s += (double)a.at(i, j) * (double)((i + 2 * j) % 7 + 1);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  int reps = argc > 2 ? std::atoi(argv[2]) : 24;
  if (n < 1 || reps < 0) {
    std::fprintf(stderr, "usage: accessors [n >= 1 [reps >= 0]]\n");
    return 2;
  }
  TP_BENCH_PARAM(n);
  TP_BENCH_PARAM(reps);

  matrix<float> image(n, n), smooth(n, n), kernel(5, 5);
  matrix<double> A(n, n);
  double *x = new double[n], *y = new double[n];
  TP_BENCH_ARRAY(image.data(), n, n, "image");
  TP_BENCH_ARRAY(smooth.data(), n, n, "smooth");
  TP_BENCH_ARRAY(A.data(), n, n, "A");
  for (unsigned i = 0; i < image.getRows(); i++)
    for (unsigned j = 0; j < image.getColumns(); j++)
      image.at(i, j) = 1.0f + (float)((i * 7 + j * 13) % 17) / 16.0f;
  // A binomial smoothing kernel, normalized: values stay within [1, 2].
  static const float w[5] = {1, 4, 6, 4, 1};
  for (unsigned i = 0; i < 5; i++)
    for (unsigned j = 0; j < 5; j++)
      kernel.at(i, j) = w[i] * w[j] / 256.0f;
  for (unsigned i = 0; i < A.getRows(); i++)
    for (unsigned j = 0; j < A.getColumns(); j++)
      A.at(i, j) = (i == j) ? 0.25 : 0.25 / n * ((double)((i + j) % 5) - 2.0);
  for (int i = 0; i < n; i++)
    x[i] = 1.0 + (double)(i % 3);

  int every = reps >= 8 ? reps / 8 : 1;
  for (int r = 0; r < reps; r++) {
    convolve(clamped<matrix<float>>(image), kernel, smooth);
    image.swap(smooth);
    matvec(A, x, y);
    // Keep x bounded: y = A x has norm at most about |x|.
    for (int i = 0; i < n; i++)
      x[i] = y[i] + 1.0;
    if ((r + 1) % every == 0)
      TP_BENCH_SNAPSHOT_ITER(r + 1);
  }
  double xs = 0.0;
  for (int i = 0; i < n; i++)
    xs += x[i] * (double)(i % 5 + 1);
  std::printf("checksum %.17g\n", weighted_sum(image) + xs);
  delete[] x;
  delete[] y;
  return 0;
}
