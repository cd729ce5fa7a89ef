/* nbody: gravitational n-body simulation in double precision (a `taintprof bench`
 * workload).
 *
 *   nbody [n [steps]]              default: 1200 bodies, 60 steps
 *
 * Every step computes all n^2 pairwise accelerations (softened gravity, so close
 * encounters stay finite) and advances positions and velocities with the leapfrog
 * (kick-drift-kick) scheme. n and steps are the registered parameters: the force
 * loops depend on n, the time loop on steps. Bodies start in a deterministic pseudo-
 * random cloud; distances stay of order 1 and the softening keeps every value far from
 * the denormal range. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "tp_bench.h"

/* Softening length squared and time step. */
#define EPS2 1e-3
#define DT 1e-3

typedef struct {
  double *x, *y, *z;    /* positions */
  double *vx, *vy, *vz; /* velocities */
  double *ax, *ay, *az; /* accelerations */
  double *m;            /* masses */
} bodies;

/* A small linear congruential generator: the same cloud on every machine. */
static unsigned long long lcg_state = 12345;
static double uniform(void) {
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(lcg_state >> 11) / 9007199254740992.0;
}

static void accelerations(bodies *b, int n) {
  for (int i = 0; i < n; i++) {
    double xi = b->x[i], yi = b->y[i], zi = b->z[i];
    double ax = 0.0, ay = 0.0, az = 0.0;
    for (int j = 0; j < n; j++) {
      double dx = b->x[j] - xi, dy = b->y[j] - yi, dz = b->z[j] - zi;
      double r2 = dx * dx + dy * dy + dz * dz + EPS2;
      double inv = 1.0 / sqrt(r2);
      double s = b->m[j] * inv * inv * inv;
      ax += s * dx;
      ay += s * dy;
      az += s * dz;
    }
    b->ax[i] = ax;
    b->ay[i] = ay;
    b->az[i] = az;
  }
}

static void kick(bodies *b, int n, double h) {
  for (int i = 0; i < n; i++) {
    b->vx[i] += h * b->ax[i];
    b->vy[i] += h * b->ay[i];
    b->vz[i] += h * b->az[i];
  }
}

static void drift(bodies *b, int n, double h) {
  for (int i = 0; i < n; i++) {
    b->x[i] += h * b->vx[i];
    b->y[i] += h * b->vy[i];
    b->z[i] += h * b->vz[i];
  }
}

static double energy(const bodies *b, int n) {
  double e = 0.0;
  for (int i = 0; i < n; i++) {
    e += 0.5 * b->m[i] * (b->vx[i] * b->vx[i] + b->vy[i] * b->vy[i] + b->vz[i] * b->vz[i]);
    for (int j = i + 1; j < n; j++) {
      double dx = b->x[j] - b->x[i], dy = b->y[j] - b->y[i], dz = b->z[j] - b->z[i];
      e -= b->m[i] * b->m[j] / sqrt(dx * dx + dy * dy + dz * dz + EPS2);
    }
  }
  return e;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1200;
  int steps = argc > 2 ? atoi(argv[2]) : 60;
  if (n < 2 || steps < 0) {
    fprintf(stderr, "usage: nbody [n >= 2 [steps >= 0]]\n");
    return 2;
  }
  TP_BENCH_PARAM(n);
  TP_BENCH_PARAM(steps);

  bodies b;
  double **fields[] = {&b.x, &b.y, &b.z, &b.vx, &b.vy, &b.vz, &b.ax, &b.ay, &b.az, &b.m};
  static const char *names[] = {"x", "y", "z", "vx", "vy", "vz", "ax", "ay", "az", "m"};
  for (int f = 0; f < 10; f++) {
    *fields[f] = malloc((size_t)n * sizeof(double));
    if (!*fields[f]) {
      fprintf(stderr, "nbody: out of memory for n = %d\n", n);
      return 1;
    }
    TP_BENCH_ARRAY(*fields[f], 1, n, names[f]);
  }
  (void)names;
  for (int i = 0; i < n; i++) {
    b.x[i] = uniform() * 2.0 - 1.0;
    b.y[i] = uniform() * 2.0 - 1.0;
    b.z[i] = uniform() * 2.0 - 1.0;
    b.vx[i] = 0.1 * (uniform() - 0.5);
    b.vy[i] = 0.1 * (uniform() - 0.5);
    b.vz[i] = 0.1 * (uniform() - 0.5);
    b.m[i] = (0.5 + uniform()) / n;
  }
  double e0 = energy(&b, n);
  accelerations(&b, n);
  int every = steps >= 8 ? steps / 8 : 1;
  for (int s = 0; s < steps; s++) {
    kick(&b, n, 0.5 * DT);
    drift(&b, n, DT);
    accelerations(&b, n);
    kick(&b, n, 0.5 * DT);
    if ((s + 1) % every == 0)
      TP_BENCH_SNAPSHOT_ITER(s + 1);
  }
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += (b.x[i] + 2.0 * b.y[i] + 3.0 * b.z[i]) * (double)(i % 5 + 1) + b.vx[i] - b.vy[i] + b.vz[i];
  printf("energy %.6f -> %.6f\n", e0, energy(&b, n));
  printf("checksum %.17g\n", sum);
  for (int f = 0; f < 10; f++)
    free(*fields[f]);
  return 0;
}
