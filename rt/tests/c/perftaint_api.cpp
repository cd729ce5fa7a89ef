// Code annotated for Perf-Taint with the whole API: the qualified and the old
// unqualified register_variable, has_label, delete_label, delete_labels.
#include <cstdio>
#include <cstdlib>
#include <perf-taint/PerfTaint.hpp>

__attribute__((noinline)) long loop_n(int bound) {
  long s = 0;
  for (int i = 0; i < bound; i++) /* @deleted */
    s += i ^ (s >> 3);
  return s;
}

__attribute__((noinline)) long loop_m(int bound) {
  long s = 0;
  for (int i = 0; i < bound; i++) /* @kept */
    s += i ^ (s >> 2);
  return s;
}

__attribute__((noinline)) long loop_k(int bound) {
  long s = 0;
  for (int i = 0; i < bound; i++) /* @array */
    s += i ^ (s >> 1);
  return s;
}

__attribute__((noinline)) long loop_q(int bound) {
  long s = 0;
  for (int i = 0; i < bound; i++) /* @query */
    s += i ^ (s >> 4);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 30;
  int m = argc > 2 ? std::atoi(argv[2]) : 40;
  int k[4];
  for (int i = 0; i < 4; i++)
    k[i] = n + i;
  int table[4] = {1, 2, 3, 4};

  perf_taint::register_variable(&n, VARIABLE_NAME(n));
  register_variable(&m, "m"); // Perf-Taint's old unqualified form
  perf_taint::register_variable(&k, "k");

  bool n_before = perf_taint::has_label(&n, "n");
  bool n_is_m = perf_taint::has_label(&n, "m");
  bool n_unknown = perf_taint::has_label(&n, "never_registered");
  perf_taint::delete_label(&n);
  bool n_after = perf_taint::has_label(&n, "n");
  bool k_before = perf_taint::has_label(k, 4, "k");
  perf_taint::delete_labels(k, 4);
  bool k_after = perf_taint::has_label(k, 4, "k");
  bool m_still = perf_taint::has_label(&m, "m");
  // A query through a pointer that depends on m: the answer depends on no parameter.
  int q = 5;
  if (perf_taint::has_label(&table[m % 4], "m"))
    q = 7;

  std::printf("n_before=%d n_is_m=%d n_unknown=%d n_after=%d k_before=%d k_after=%d m_still=%d\n",
              n_before, n_is_m, n_unknown, n_after, k_before, k_after, m_still);
  long s = loop_n(n) + loop_m(m) + loop_k(k[2]) + loop_q(q);
  std::printf("s=%ld\n", s);
  return 0;
}
