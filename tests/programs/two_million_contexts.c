/* About 2 million calling contexts, for measuring the report and record writers at
 * exit (docs/internal/record.md, "Measured"): main calls f20, every f<i> calls f<i-1>
 * from two call sites (on lines of their own, so they are two contexts), down to f0.
 * That is 2^21 nodes (2,097,152) plus main, each running one loop over the registered
 * parameter n (one loop record per node). No function is recursive, so nothing is
 * folded.
 *
 *   two_million_contexts [N]   (N = 2 by default) */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static volatile long sink;

__attribute__((noinline)) static void f0(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
}

__attribute__((noinline)) static void f1(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f0(n);
  f0(n);
}

__attribute__((noinline)) static void f2(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f1(n);
  f1(n);
}

__attribute__((noinline)) static void f3(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f2(n);
  f2(n);
}

__attribute__((noinline)) static void f4(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f3(n);
  f3(n);
}

__attribute__((noinline)) static void f5(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f4(n);
  f4(n);
}

__attribute__((noinline)) static void f6(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f5(n);
  f5(n);
}

__attribute__((noinline)) static void f7(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f6(n);
  f6(n);
}

__attribute__((noinline)) static void f8(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f7(n);
  f7(n);
}

__attribute__((noinline)) static void f9(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f8(n);
  f8(n);
}

__attribute__((noinline)) static void f10(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f9(n);
  f9(n);
}

__attribute__((noinline)) static void f11(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f10(n);
  f10(n);
}

__attribute__((noinline)) static void f12(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f11(n);
  f11(n);
}

__attribute__((noinline)) static void f13(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f12(n);
  f12(n);
}

__attribute__((noinline)) static void f14(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f13(n);
  f13(n);
}

__attribute__((noinline)) static void f15(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f14(n);
  f14(n);
}

__attribute__((noinline)) static void f16(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f15(n);
  f15(n);
}

__attribute__((noinline)) static void f17(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f16(n);
  f16(n);
}

__attribute__((noinline)) static void f18(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f17(n);
  f17(n);
}

__attribute__((noinline)) static void f19(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f18(n);
  f18(n);
}

__attribute__((noinline)) static void f20(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
  f19(n);
  f19(n);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  tp_register_variable(&n, sizeof n, "n");
  f20(n);
  printf("sink %ld\n", sink);
  return 0;
}
