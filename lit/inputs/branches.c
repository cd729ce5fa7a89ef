// Source of branches.ll (clang-19 -O0 -gline-tables-only -Xclang -disable-O0-optnone) and branches-O2.ll (clang-19 -O2 -gline-tables-only); -S -emit-llvm branches.c
int work(int);
int pick(int algo, int n) {
  int r = 0;
  if (algo > 1)
    r = work(n);
  else
    r = work(n + 1);
  for (int i = 0; i < n; i++)
    r += work(i);
  switch (algo) {
  case 0: r += work(1); break;
  case 1:
  case 2: r += work(2); break;
  default: r += work(3);
  }
  return r;
}
