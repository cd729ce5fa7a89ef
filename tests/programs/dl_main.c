/* Opens libdlkernel.so (the directory in argv[2]) with dlopen and runs its kernel. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  tp_register_variable(&n, sizeof n, "n");
  char path[4096];
  snprintf(path, sizeof path, "%s/libdlkernel.so", argv[2]);
  void *h = dlopen(path, RTLD_NOW);
  if (!h) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  double (*k)(int) = (double (*)(int))dlsym(h, "kernel");
  printf("%f\n", k(n));
  return 0;
}
