/* LULESH's regElemSize(r)++ (Perf-Taint section 5.2): per-region counts are incremented
 * in a loop over numElem(); a later loop bounded by a count depends on the element count
 * only through control flow. So does a plain count++ in a loop over n. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

#define NREG 4
static int n_elems;
static int regNumList[100000];
static int regElemSize[NREG];
static double elem_value[100000];

__attribute__((noinline)) static int numElem(void) { return n_elems; }

__attribute__((noinline)) static void build_regions(void) {
  for (int i = 0; i < numElem(); ++i) { /* @count_elems */
    int r = regNumList[i] - 1;
    regElemSize[r]++;
  }
}

__attribute__((noinline)) static double per_region(int r) {
  double s = 0;
  for (int j = 0; j < regElemSize[r]; j++) /* @region_loop */
    s += elem_value[j];
  return s;
}

__attribute__((noinline)) static int count_positive(int n) {
  int count = 0;
  for (int i = 0; i < n; i++) /* @count_loop */
    if (elem_value[i] > 0)
      count++;
  return count;
}

__attribute__((noinline)) static double up_to_count(int count) {
  double s = 0;
  for (int i = 0; i < count; i++) /* @after_count */
    s += elem_value[i] * 2;
  return s;
}

int main(void) {
  n_elems = 5000;
  for (int i = 0; i < 100000; i++) {
    regNumList[i] = (i % NREG) + 1;
    elem_value[i] = (i % 3) - 0.5;
  }
  tp_register_variable(&n_elems, sizeof n_elems, "size");
  build_regions();
  double s = 0;
  for (int r = 0; r < NREG; r++) /* @regions */
    s += per_region(r);
  s += up_to_count(count_positive(n_elems));
  printf("%.1f\n", s);
  return 0;
}
