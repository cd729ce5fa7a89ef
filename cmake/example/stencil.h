/* One step of a 1-D heat equation: the library half of the CMake example. */
#ifndef STENCIL_H
#define STENCIL_H
#ifdef __cplusplus
extern "C" {
#endif
void stencil_step(const double *src, double *dst, int n);
#ifdef __cplusplus
}
#endif
#endif
