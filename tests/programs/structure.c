/* Model structure: sequenced loops (additive), nested loops (multiplicative), a call
 * inside a loop (nesting across calls), a parameter-selected algorithm, recursion, and
 * functions that are constant statically or dynamically. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static double buf[1 << 16];

__attribute__((noinline)) static double sequenced(int a, int b) {
  double s = 0;
  for (int i = 0; i < a; i++) /* @seq_a */
    s += buf[i & 0xffff];
  for (int j = 0; j < b; j++) /* @seq_b */
    s += buf[(j * 3) & 0xffff];
  return s;
}

__attribute__((noinline)) static double nested(int a, int b) {
  double s = 0;
  for (int i = 0; i < a; i++) /* @nest_a */
    for (int j = 0; j < b; j++) /* @nest_b */
      s += buf[(i * b + j) & 0xffff];
  return s;
}

__attribute__((noinline)) static double row(int b, int i) {
  double s = 0;
  for (int j = 0; j < b; j++) /* @row_b */
    s += buf[(i * 7 + j) & 0xffff];
  return s;
}

/* A call inside a loop: row's loop nests under this loop (a*b). */
__attribute__((noinline)) static double across_call(int a, int b) {
  double s = 0;
  for (int i = 0; i < a; i++) /* @call_loop */
    s += row(b, i);
  return s;
}

/* Two algorithms, chosen by a parameter. */
__attribute__((noinline)) static double direct(int n) {
  double s = 0;
  for (int i = 0; i < n; i++) /* @direct */
    s += buf[i & 0xffff];
  return s;
}

__attribute__((noinline)) static double iterative(int n, int sweeps) {
  double s = 0;
  for (int k = 0; k < sweeps; k++) /* @sweeps */
    for (int i = 0; i < n; i++) /* @iter_n */
      s += buf[(i + k) & 0xffff] * 0.5;
  return s;
}

__attribute__((noinline)) static double solve(int algo, int n, int sweeps) {
  if (algo == 1) /* @algo_branch */
    return direct(n); /* @direct_call */
  else
    return iterative(n, sweeps); /* @iterative_call */
}

/* Recursion: a divide-and-conquer sum with a loop at the leaves. */
__attribute__((noinline)) static double tree_sum(int lo, int hi) {
  if (hi - lo <= 64) {
    double s = 0;
    for (int i = lo; i < hi; i++) /* @leaf */
      s += buf[i & 0xffff];
    return s;
  }
  int mid = lo + (hi - lo) / 2;
  return tree_sum(lo, mid) + tree_sum(mid, hi);
}

/* Statically constant: a fixed-trip loop and no calls. */
__attribute__((noinline)) static double fixed_work(void) {
  double s = 0;
  for (int i = 0; i < 16; i++) /* @fixed */
    s += buf[i];
  return s;
}

/* Dynamically constant: its loop depends on a value that is not a parameter. */
__attribute__((noinline)) static double unregistered_work(int reps) {
  double s = 0;
  for (int r = 0; r < reps; r++) /* @unreg */
    s += buf[(r * 5) & 0xffff];
  return s;
}

int main(int argc, char **argv) {
  int a = 30, b = 40, n = 500, sweeps = 3, algo = 1, len = 1000;
  int reps = argc > 1 ? atoi(argv[1]) : 7;
  if (argc > 2)
    algo = atoi(argv[2]);
  for (int i = 0; i < (1 << 16); i++)
    buf[i] = (i % 17) * 0.25;
  tp_register_variable(&a, sizeof a, "a");
  tp_register_variable(&b, sizeof b, "b");
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&sweeps, sizeof sweeps, "sweeps");
  tp_register_variable(&algo, sizeof algo, "algo");
  tp_register_variable(&len, sizeof len, "len");
  double s = sequenced(a, b) + nested(a, b) + across_call(a, b) + solve(algo, n, sweeps) +
             tree_sum(0, len) + fixed_work() + unregistered_work(reps);
  printf("%.2f\n", s);
  return 0;
}
