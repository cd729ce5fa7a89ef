/* Integers whose bit patterns are float denormals (every 32-bit int in 1 .. 2^23 - 1):
 * copied, summed, compared as integers. The compiler knows they are integers, so nothing
 * is a denormal floating-point event (DART, a binary-level tool, could not tell). */
#include <stdio.h>
#include <string.h>

#define N 65536
int bits[N], moved[N];

int main(void) {
  for (int i = 0; i < N; i++)
    bits[i] = 1 + (i * 97) % 8388607;
  memcpy(moved, bits, sizeof moved);
  long s = 0;
  for (int i = 0; i < N; i++)
    s += moved[i] > 4000000 ? moved[i] : -moved[i];
  float f = 1.5f; /* real floats, all normal */
  for (int i = 0; i < 100; i++)
    f = f * 1.01f + 0.5f;
  printf("%ld %.3f\n", s, f);
  return 0;
}
