// An instrumented C++ shared library (shared_main.c links it): its loops depend on the
// parameter the C program registers, and it allocates with operator new[], which the
// runtime in the executable wraps.
extern "C" double kernel_sum(int n) {
  double *a = new double[n];
  for (int i = 0; i < n; i++) /* @fill */
    a[i] = i * 0.5;
  double s = 0;
  for (int i = 0; i < n; i++) /* @sum */
    s += a[i];
  delete[] a;
  return s;
}
