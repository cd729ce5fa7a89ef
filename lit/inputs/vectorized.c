// Source of vectorized.ll: clang-19 -O2 -gline-tables-only -fdebug-info-for-profiling -S -emit-llvm vectorized.c
void scale(int n, float *a, float s) {
  for (int i = 0; i < n; i++)
    a[i] *= s;
}
