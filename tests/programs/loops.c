/* Loop shapes: nested, while, do-while, several exits with break, return inside a loop,
 * and a loop that depends on no parameter. */
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

#define CAP 4096
static int data[CAP];

__attribute__((noinline)) static long nested(int a, int b) {
  long s = 0;
  for (int i = 0; i < a; i++) /* @nested_outer */
    for (int j = 0; j < b; j++) /* @nested_inner */
      s += data[(i * b + j) % CAP];
  return s;
}

__attribute__((noinline)) static long while_loop(int w) {
  long s = 0;
  int i = 0;
  while (i < w) { /* @while */
    s += data[i % CAP] * 3;
    i++;
  }
  return s;
}

__attribute__((noinline)) static long do_while(int d) {
  long s = 0;
  int i = 0;
  do { /* @do_while */
    s += data[i % CAP] ^ i;
    i++;
  } while (i < d);
  return s;
}

/* Two exits: the bound, and a break on a data value compared with `limit`. */
__attribute__((noinline)) static int first_above(int len, int limit) {
  int i;
  for (i = 0; i < len; i++) { /* @break_loop */
    if (data[i % CAP] > limit)
      break;
  }
  return i;
}

/* Left by `return` from inside the body. */
__attribute__((noinline)) static int find(int len, int key) {
  int i = 0;
  while (1) { /* @return_loop */
    if (i >= len)
      return -1;
    if (data[i % CAP] == key)
      return i;
    i++;
  }
}

/* A bound that comes from the input but is not a registered parameter. */
__attribute__((noinline)) static long unregistered(int reps) {
  long s = 0;
  for (int r = 0; r < reps; r++) /* @no_param */
    s += data[(r * 31) % CAP];
  return s;
}

int main(int argc, char **argv) {
  int a = 5, b = 7, w = 40, d = 30, len = 1000, limit = 900, key = 777;
  int reps = argc > 1 ? atoi(argv[1]) : 50;
  for (int i = 0; i < CAP; i++)
    data[i] = (i * 37) % 1000;
  tp_register_variable(&a, sizeof a, "a");
  tp_register_variable(&b, sizeof b, "b");
  tp_register_variable(&w, sizeof w, "w");
  tp_register_variable(&d, sizeof d, "d");
  tp_register_variable(&len, sizeof len, "len");
  tp_register_variable(&limit, sizeof limit, "limit");
  tp_register_variable(&key, sizeof key, "key");
  long r = nested(a, b) + while_loop(w) + do_while(d) + first_above(len, limit) +
           find(len, key) + unregistered(reps);
  printf("result %ld\n", r);
  return 0;
}
