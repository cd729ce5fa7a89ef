/* The paper's section 4.1 example: iterate(pow(params.size, 2), optimize_step(params)).
 * The loop's count depends on size (through pow) and step (through optimize_step). */
#include <math.h>
#include <stdio.h>
#include <taintprof.h>

struct params {
  int size;
  int step;
  int verbose;
};

static double field[4096];

__attribute__((noinline)) static void compute(int i) { field[i % 4096] += 0.5 * i; }

__attribute__((noinline)) static int optimize_step(struct params p) {
  return p.step > 4 ? p.step / 2 : p.step;
}

__attribute__((noinline)) static void iterate(int size, int step) {
  for (int i = 0; i < size; i += step) /* @iterate */
    compute(i);
}

int main(void) {
  struct params params = {.size = 60, .step = 6, .verbose = 0};
  tp_register_variable(&params.size, sizeof params.size, "size");
  tp_register_variable(&params.step, sizeof params.step, "step");
  iterate(pow(params.size, 2), optimize_step(params));
  printf("%.1f\n", field[17]);
  return 0;
}
