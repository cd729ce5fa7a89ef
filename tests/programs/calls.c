/* Labels across calls: varargs, a struct passed by value (byval), a struct returned by
 * value, and a callback through a function pointer. */
#include <stdarg.h>
#include <stdio.h>
#include <taintprof.h>

struct big {
  long pad[6];
  int count;
};
struct pair {
  int lo, hi;
};

static double acc[4096];

__attribute__((noinline)) static double sum_varargs(int nargs, ...) {
  va_list ap;
  va_start(ap, nargs);
  int bound = 0;
  for (int i = 0; i < nargs; i++)
    bound += va_arg(ap, int);
  va_end(ap);
  double s = 0;
  for (int i = 0; i < bound; i++) /* @varargs */
    s += acc[i % 4096];
  return s;
}

__attribute__((noinline)) static double by_value(struct big b) {
  double s = 0;
  for (int i = 0; i < b.count; i++) /* @byval */
    s += acc[(i * 3) % 4096];
  return s;
}

__attribute__((noinline)) static struct pair make_pair(int lo, int hi) {
  struct pair p = {lo, hi};
  return p;
}

__attribute__((noinline)) static double span(int lo, int hi) {
  struct pair p = make_pair(lo, hi);
  double s = 0;
  for (int i = p.lo; i < p.hi; i++) /* @pair */
    s += acc[i % 4096];
  return s;
}

static double through_pointer(double (*f)(int), int x) { return f(x); }

__attribute__((noinline)) static double callee(int len) {
  double s = 0;
  for (int i = 0; i < len; i++) /* @callback */
    s += acc[(i * 7) % 4096];
  return s;
}

int main(void) {
  int x = 100, y = 200, count = 300, lo = 10, hi = 400, len = 250;
  for (int i = 0; i < 4096; i++)
    acc[i] = i * 0.125;
  tp_register_variable(&x, sizeof x, "x");
  tp_register_variable(&y, sizeof y, "y");
  tp_register_variable(&count, sizeof count, "count");
  tp_register_variable(&lo, sizeof lo, "lo");
  tp_register_variable(&hi, sizeof hi, "hi");
  tp_register_variable(&len, sizeof len, "len");
  struct big b = {{1, 2, 3, 4, 5, 6}, count};
  double (*volatile fp)(int) = callee;
  double r = sum_varargs(2, x, y) + by_value(b) + span(lo, hi) + through_pointer(fp, len);
  printf("%.1f\n", r);
  return 0;
}
