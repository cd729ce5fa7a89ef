/* A kernel in an instrumented shared library that the program opens with dlopen: its
 * hooks, TLS slots and wrappers resolve to the runtime inside the executable, which
 * exports them (the runtime's export list, libtaintprof_rt.exports). */
double kernel(int n) {
  double s = 0;
  for (int i = 0; i < n; i++) /* @kernel */
    s += i * 0.5;
  return s;
}
