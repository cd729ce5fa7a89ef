/* The public C headers compile cleanly as strict C99 and work. */
#include <stdio.h>
#include "taintprof.h"
#include "perf-taint/PerfTaint.h"

int main(void) {
  int size = 10;
  long steps = 5;
  EXTRAP;
  perf_taint_register_variable(&size, sizeof size, VARIABLE_NAME(size));
  tp_register_variable(&steps, sizeof steps, "steps");
  {
    float grid[4] = {0};
    tp_array_shape(grid, 2, 2, "grid"); /* denormal mode only: no effect here */
    tp_snapshot("start");
  }
  printf("size=%u steps=%u max=%d\n", (unsigned)tp_read_label(&size, sizeof size),
         (unsigned)tp_read_label(&steps, sizeof steps), TAINTPROF_MAX_PARAMETERS);
  return 0;
}
