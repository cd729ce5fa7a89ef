/* Loop bounds reached through struct fields, pointers, function arguments and returns,
 * globals, and heap memory copied with memcpy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <taintprof.h>

struct config {
  int rows;
  int cols;
  int depth;
  double tolerance;
};

int g_size; /* a global holding a parameter */
static double buf[8192];

__attribute__((noinline)) static double via_field(const struct config *c) {
  double s = 0;
  for (int i = 0; i < c->cols; i++) /* @field */
    s += buf[i % 8192];
  return s;
}

__attribute__((noinline)) static double via_pointer(const int *bound) {
  double s = 0;
  for (int i = 0; i < *bound; i++) /* @pointer */
    s += buf[(i * 3) % 8192];
  return s;
}

__attribute__((noinline)) static int rows_of(const struct config *c) { return c->rows; }

__attribute__((noinline)) static double via_return(const struct config *c) {
  int n = rows_of(c);
  double s = 0;
  for (int i = 0; i < n; i++) /* @return */
    s += buf[(i * 5) % 8192];
  return s;
}

__attribute__((noinline)) static double via_argument(int depth) {
  double s = 0;
  for (int i = 0; i < depth; i++) /* @argument */
    s += buf[(i * 7) % 8192];
  return s;
}

__attribute__((noinline)) static double via_global(void) {
  double s = 0;
  for (int i = 0; i < g_size; i++) /* @global */
    s += buf[(i * 11) % 8192];
  return s;
}

__attribute__((noinline)) static struct config *copy_to_heap(const struct config *c, size_t n) {
  struct config *h = malloc(n);
  memcpy(h, c, n);
  return h;
}

__attribute__((noinline)) static double via_heap(const struct config *h) {
  double s = 0;
  for (int i = 0; i < h->depth; i++) /* @heap */
    s += buf[(i * 13) % 8192];
  return s;
}

int main(int argc, char **argv) {
  struct config cfg = {.rows = 30, .cols = 40, .depth = 50, .tolerance = 1e-6};
  g_size = argc > 1 ? atoi(argv[1]) : 60;
  for (int i = 0; i < 8192; i++)
    buf[i] = i * 0.5;
  tp_register_variable(&cfg.rows, sizeof cfg.rows, "rows");
  tp_register_variable(&cfg.cols, sizeof cfg.cols, "cols");
  tp_register_variable(&cfg.depth, sizeof cfg.depth, "depth");
  tp_register_variable(&g_size, sizeof g_size, "size");
  int bound = cfg.cols * 2;
  struct config *h = copy_to_heap(&cfg, sizeof cfg);
  double r = via_field(&cfg) + via_pointer(&bound) + via_return(&cfg) +
             via_argument(cfg.depth) + via_global() + via_heap(h);
  printf("result %.1f\n", r);
  free(h);
  return 0;
}
