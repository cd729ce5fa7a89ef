/* 256 calling contexts of one loop: eight levels of functions, each calling the next
 * from two call sites. Only the last path (the second call site at every level) runs
 * the loop to n; the others run it to 3. The report lists a limited number of contexts
 * (TAINTPROF_MAX_CONTEXTS) but must show the one that depends on n. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static volatile long sink;

__attribute__((noinline)) static void leaf(int k) {
  for (int i = 0; i < k; i++) /* @leaf */
    sink += i;
}

__attribute__((noinline)) static void f0(int n, int path) { leaf(path == 255 ? n : 3); }

/* Two call sites per level, on separate lines (contexts are told apart by line). */
__attribute__((noinline)) static void f1(int n, int path) {
  f0(n, path * 2);
  f0(n, path * 2 + 1);
}
__attribute__((noinline)) static void f2(int n, int path) {
  f1(n, path * 2);
  f1(n, path * 2 + 1);
}
__attribute__((noinline)) static void f3(int n, int path) {
  f2(n, path * 2);
  f2(n, path * 2 + 1);
}
__attribute__((noinline)) static void f4(int n, int path) {
  f3(n, path * 2);
  f3(n, path * 2 + 1);
}
__attribute__((noinline)) static void f5(int n, int path) {
  f4(n, path * 2);
  f4(n, path * 2 + 1);
}
__attribute__((noinline)) static void f6(int n, int path) {
  f5(n, path * 2);
  f5(n, path * 2 + 1);
}
__attribute__((noinline)) static void f7(int n, int path) {
  f6(n, path * 2);
  f6(n, path * 2 + 1);
}
__attribute__((noinline)) static void f8(int n, int path) {
  f7(n, path * 2);
  f7(n, path * 2 + 1);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  tp_register_variable(&n, sizeof n, "n");
  f8(n, 0);
  printf("sink %ld\n", sink);
  return 0;
}
