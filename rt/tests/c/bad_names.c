/* Registrations with unusable names or addresses are refused one by one (one line on
 * stderr each, listed in the report's rejected_parameters), and the program keeps
 * running; the one good registration works. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf-taint/PerfTaint.h>
#include <taintprof.h>

__attribute__((noinline)) static long work(int bound) {
  long s = 0;
  for (int i = 0; i < bound; i++) /* @work */
    s += i ^ (s >> 3);
  return s;
}

static char long_name[2001];

int main(int argc, char **argv) {
  int base = argc > 1 ? atoi(argv[1]) : 10;
  int v[10];
  for (int i = 0; i < 10; i++)
    v[i] = base + i;
  memset(long_name, 'x', 2000);
  tp_register_variable(&v[0], sizeof v[0], "bad\nname");
  tp_register_variable(&v[1], sizeof v[1], "say \"v1\"");
  tp_register_variable(&v[2], sizeof v[2], "c,d");
  tp_register_variable(&v[3], sizeof v[3], "ctl\x01");
  tp_register_variable(&v[4], sizeof v[4], long_name);
  tp_register_variable(NULL, sizeof v[5], "null_address");
  tp_register_variable(&v[6], 0, "zero_size");
  tp_register_variable(&v[7], (size_t)-4, "wild_size");
  perf_taint_register_variable(&v[8], sizeof v[8], "pt,comma");
  perf_taint_register_variable(NULL, sizeof v[8], "pt_null");
  tp_register_variable(&v[0], sizeof v[0], "bad\nname"); /* again: counted, not repeated */
  tp_register_variable(&v[9], sizeof v[9], "n");
  long s = 0;
  for (int i = 0; i < 10; i++)
    s += work(v[i]);
  printf("done %ld\n", s);
  return 0;
}
