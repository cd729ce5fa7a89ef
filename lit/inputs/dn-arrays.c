// Source of dn-arrays-O2.ll and dn-arrays-O0.ll (denormal-mode lit tests):
//   clang-19 -O2 -g -S -emit-llvm dn-arrays.c -o dn-arrays-O2.ll
//   clang-19 -O0 -g -S -emit-llvm dn-arrays.c -o dn-arrays-O0.ll
#include <stdlib.h>
#include <string.h>

float grid[64][64];                         // global array of arrays
static double coef[3] = {0.25, 0.5, 0.25};  // file-static array
struct particle { double x, y, z; };
struct particle parts[16];                  // array of homogeneous structs
float scalar_global = 1.0f;                 // a scalar: not an array
struct mixed { int n; float v; } mixes[4];  // not one FP type: not an array

struct field { int n; double *data; };

static void sweep(const float *restrict src, float *restrict dst, int n) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      dst[i * n + j] = 0.25f * (src[(i - 1) * n + j] + src[(i + 1) * n + j] +
                                src[i * n + j - 1] + src[i * n + j + 1]);
}

__attribute__((noinline)) void fill(double *p, int n, double v) {
  for (int i = 0; i < n; i++)
    p[i] = v * i;
}

__attribute__((noinline)) double stack_and_vla(int n) {
  static float hist[8];  // function-static array
  double local[32];      // stack array
  double vla[n];         // variable-length array
  for (int i = 0; i < 32; i++)
    local[i] = coef[i % 3] * i;
  for (int i = 0; i < n; i++)
    vla[i] = local[i % 32];
  hist[n & 7] += (float)vla[n - 1];
  return vla[0] + local[31] + hist[0];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 64;
  float *a = malloc(n * n * sizeof(float));        // typed by its variable
  float *b = calloc(n * n, sizeof(float));         // bytes = count * size
  struct field f;
  f.n = n;
  f.data = malloc(n * sizeof(double));             // a structure member
  void *raw = malloc(n * sizeof(double));          // void *: typed by its FP uses
  for (int i = 0; i < n; i++)
    ((double *)raw)[i] = i * 0.5;
  fill(f.data, n, 2.0);
  memcpy(a, b, n * n * sizeof(float));
  a = realloc(a, 2 * n * n * sizeof(float));       // old block released, new registered
  sweep(a, b, n);
  double s = stack_and_vla(n) + grid[1][2] + parts[3].y + f.data[1] + ((double *)raw)[2];
  free(a);
  free(b);
  free(f.data);
  free(raw);
  return s > 0;
}
