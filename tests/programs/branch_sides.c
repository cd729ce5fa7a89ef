/* Tainted branches whose side depends on the parameters, for time mode's branch-side
 * records (docs/time-mode.md) and `taintprof model`'s `branch_changes_side` warning.
 *
 *   branch_sides n method
 *
 * - `solve`: an algorithm chosen by size (`n > 300`: blocked, else direct), once per
 *   call: the side changes inside a range of n that spans 300.
 * - `solve`'s `switch (method)`: a selector with three targets.
 * - `smooth`: a branch inside a loop on the loop index and n (`i < n / 4`): both sides
 *   in every call with n >= 4, so its sides never change with n.
 * - `report`: a branch on n in a function the prior calls constant (no loop on a
 *   parameter): not timed, its sides not recorded. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

static double a[4096];

__attribute__((noinline)) static double direct(int n) {
  double s = 0;
  for (int i = 0; i < n; i++) /* @direct */
    s += a[i] * 0.5;
  return s;
}

__attribute__((noinline)) static double blocked(int n) {
  double s = 0;
  for (int b = 0; b < n; b += 64) /* @blocked */
    for (int i = b; i < b + 64 && i < n; i++)
      s += a[i] * a[i];
  return s;
}

__attribute__((noinline)) static double smooth(int n) {
  double s = 0;
  for (int i = 0; i < n; i++) { /* @smooth */
    if (i < n / 4) /* @quarter */
      s += a[i];
    else
      s -= a[i] * 0.25;
  }
  return s;
}

__attribute__((noinline)) static double solve(int n, int method) {
  double s;
  if (n > 300) /* @by-size */
    s = blocked(n);
  else
    s = direct(n);
  switch (method) { /* @method */
  case 1:
    s += smooth(n);
    break;
  case 2:
    s += smooth(n / 2);
    break;
  default:
    break;
  }
  return s;
}

__attribute__((noinline)) static void report(int n, double s) {
  if (n > 1000) /* @report */
    printf("large: %g\n", s);
  else
    printf("%g\n", s);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int method = argc > 2 ? atoi(argv[2]) : 1;
  if (n < 1 || n > 4096)
    return 2;
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&method, sizeof method, "method");
  for (int i = 0; i < n; i++)
    a[i] = (double)(i % 17) * 0.125;
  double s = 0;
  for (int r = 0; r < 3; r++) /* @reps */
    s += solve(n, method);
  report(n, s);
  return 0;
}
