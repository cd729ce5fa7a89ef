/* Not instrumented: glibc's default thread stack size in this process (the reference
 * for unlimited_stack.c under the same limits). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

int main(void) {
  pthread_attr_t attr;
  size_t def = 0;
  if (pthread_getattr_default_np(&attr) != 0)
    return 1;
  pthread_attr_getstacksize(&attr, &def);
  printf("%zu\n", def);
  return 0;
}
