/* A threaded interpreter (GNU C computed goto), in the shape of CPython's ceval: a
 * `for (;;)` fetch loop around the dispatch, handlers that jump straight to the next
 * handler (`DISPATCH()`, `goto *`) and handlers that go back through the fetch loop
 * (`continue`). A program of n instructions (built from the registered n) is
 * dispatched once per instruction, so the dispatch runs n times in all: one loop over
 * {n}, volume n. The two natural loops it forms (the fetch loop around the `goto *`
 * cycle) must not nest into n^2.
 *
 *   cf_goto N */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

enum { OP_ADD, OP_SUB, OP_MUL, OP_HALT };

static volatile long sink;

#define DISPATCH() goto *labels[code[pc++]]

__attribute__((noinline)) long run(const unsigned char *code) {
  static void *labels[] = {&&op_add, &&op_sub, &&op_mul, &&op_halt};
  long acc = 0;
  int pc = 0;
  for (;;) { /* @fetch */
    DISPATCH(); /* @dispatch */
  op_add:
    acc += 3 + sink;
    DISPATCH();
  op_sub:
    acc -= 1;
    continue;
  op_mul:
    acc = acc * 2 % 1000003;
    DISPATCH();
  op_halt:
    return acc;
  }
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  int n = atoi(argv[1]);
  tp_register_variable(&n, sizeof n, "n");
  unsigned char *code = malloc((size_t)n + 1);
  for (int i = 0; i < n; i++) /* @build */
    code[i] = (unsigned char)(i % 3);
  code[n] = OP_HALT;
  printf("%ld\n", run(code));
  free(code);
  return 0;
}
