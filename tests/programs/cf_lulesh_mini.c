/* A LULESH-shaped miniature (the Perf-Taint paper's example, section 6): five
 * parameters `size`, `regions`, `iters`, `balance`, `cost`.
 *  - numElem = size^3 elements, each assigned to one of `regions` regions drawn from a
 *    distribution with weights (i+1)^balance (a search loop over the cumulative bins),
 *    counted with regElemSize(r)++ (control flow: the count depends on size);
 *  - a time loop over `iters` (and a stop time) whose step dt is a minimum reduced over
 *    all elements;
 *  - element loops with validity checks that end the program (`exit(VolumeError)`);
 *  - per-region loops over the region's elements, repeated `rep` times where rep grows
 *    with `cost` for the expensive regions.
 *
 *   cf_lulesh_mini SIZE REGIONS ITERS BALANCE COST */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

#define VolumeError (-1)

typedef struct {
  int numElem, numReg, cost;
  double *e, *p, *v, *q;
  int *regElemSize;
  int **regElemList;
  int *regNumList;
  double time, stoptime, dt;
  int cycle;
} Domain;

static Domain dom;

__attribute__((noinline)) static void create_region_index_sets(int nr, int balance) {
  int numElem = dom.numElem;
  dom.numReg = nr;
  dom.regElemSize = calloc((size_t)nr, sizeof(int));
  dom.regElemList = malloc((size_t)nr * sizeof(int *));
  dom.regNumList = malloc((size_t)numElem * sizeof(int));
  srand(0);
  int costDenominator = 0;
  int *regBinEnd = malloc((size_t)nr * sizeof(int));
  for (int i = 0; i < nr; i++) { /* @bins */
    regBinEnd[i] = costDenominator + (int)pow(i + 1, balance);
    costDenominator = regBinEnd[i];
  }
  int nextIndex = 0, lastReg = -1;
  while (nextIndex < numElem) { /* @assign */
    int regionVar = rand() % costDenominator;
    int i = 0;
    while (regionVar >= regBinEnd[i]) /* @search */
      i++;
    int regionNum = i % nr + 1;
    while (regionNum == lastReg && nr > 1) /* @norepeat */
      regionNum = (regionNum % nr) + 1;
    int binSize = rand() % 1000;
    int elements = binSize < 773 ? rand() % 15 + 1 : rand() % 400 + 1;
    int runto = elements + nextIndex;
    for (; nextIndex < runto && nextIndex < numElem; nextIndex++) /* @store */
      dom.regNumList[nextIndex] = regionNum;
    lastReg = regionNum;
  }
  for (int i = 0; i < numElem; i++) { /* @count */
    int r = dom.regNumList[i] - 1;
    dom.regElemSize[r]++;
  }
  for (int r = 0; r < nr; r++) { /* @alloc */
    dom.regElemList[r] = malloc((size_t)(dom.regElemSize[r] + 1) * sizeof(int));
    dom.regElemSize[r] = 0;
  }
  for (int i = 0; i < numElem; i++) { /* @fill */
    int r = dom.regNumList[i] - 1;
    dom.regElemList[r][dom.regElemSize[r]++] = i;
  }
  free(regBinEnd);
}

__attribute__((noinline)) static void calc_volumes(void) {
  for (int i = 0; i < dom.numElem; i++) { /* @volumes */
    dom.v[i] = dom.v[i] * 0.999 + 0.001 * (1.0 + dom.e[i] * 1e-9);
    if (dom.v[i] <= 0.0) {
      fprintf(stderr, "VolumeError in element %d\n", i);
      exit(VolumeError);
    }
  }
}

__attribute__((noinline)) static void eval_eos(int numElemReg, const int *list, int rep) {
  for (int j = 0; j < rep; j++) /* @rep */
    for (int i = 0; i < numElemReg; i++) { /* @eos */
      int k = list[i];
      dom.p[k] = 0.4 * dom.e[k] / dom.v[k];
      dom.q[k] = dom.p[k] * 0.01;
    }
}

__attribute__((noinline)) static void apply_material_properties(void) {
  for (int r = 0; r < dom.numReg; r++) { /* @regions */
    int numElemReg = dom.regElemSize[r];
    int rep;
    if (r < dom.numReg / 2)
      rep = 1;
    else if (r < dom.numReg - (dom.numReg + 15) / 20)
      rep = 1 + dom.cost;
    else
      rep = 10 * (1 + dom.cost);
    eval_eos(numElemReg, dom.regElemList[r], rep);
  }
}

__attribute__((noinline)) static double calc_courant(void) {
  double dtmin = 1e20;
  for (int i = 0; i < dom.numElem; i++) { /* @courant */
    double d = dom.v[i] / (1.0 + fabs(dom.p[i]) + dom.q[i]);
    if (d < dtmin)
      dtmin = d;
  }
  if (dtmin <= 0.0) {
    fprintf(stderr, "time step went to zero\n");
    exit(VolumeError);
  }
  return dtmin;
}

__attribute__((noinline)) static void update_energy(double dt) {
  for (int i = 0; i < dom.numElem; i++) { /* @energy */
    dom.e[i] += dt * dom.p[i];
    if (dom.e[i] < 0.0)
      exit(VolumeError);
  }
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: %s SIZE REGIONS ITERS BALANCE COST\n", argv[0]);
    return 2;
  }
  int size = atoi(argv[1]), regions = atoi(argv[2]), iters = atoi(argv[3]);
  int balance = atoi(argv[4]), cost = atoi(argv[5]);
  tp_register_variable(&size, sizeof size, "size"); /* @reg_size */
  tp_register_variable(&regions, sizeof regions, "regions");
  tp_register_variable(&iters, sizeof iters, "iters");
  tp_register_variable(&balance, sizeof balance, "balance"); /* @reg_balance */
  tp_register_variable(&cost, sizeof cost, "cost");
  dom.numElem = size * size * size;
  dom.cost = cost;
  dom.e = malloc((size_t)dom.numElem * sizeof(double));
  dom.p = calloc((size_t)dom.numElem, sizeof(double));
  dom.q = calloc((size_t)dom.numElem, sizeof(double));
  dom.v = malloc((size_t)dom.numElem * sizeof(double));
  for (int i = 0; i < dom.numElem; i++) { /* @init */
    dom.e[i] = i == 0 ? 3.0e7 : 1.0;
    dom.v[i] = 1.0;
  }
  create_region_index_sets(regions, balance);
  dom.stoptime = 1.0e-2;
  dom.dt = 1.0e-7;
  while (dom.time < dom.stoptime && dom.cycle < iters) { /* @time */
    calc_volumes();
    apply_material_properties();
    dom.dt = fmin(calc_courant(), 1.0e-7);
    update_energy(dom.dt);
    dom.time += dom.dt;
    dom.cycle++;
  }
  double sum = 0;
  for (int i = 0; i < dom.numElem; i++) /* @sum */
    sum += dom.e[i];
  printf("cycles %d energy %g\n", dom.cycle, sum);
  return 0;
}
