/* Loop indices used as identities (XSBench-shaped), and as magnitudes.
 *  - Each lookup seeds its random numbers from the loop index
 *    (`seed = fast_forward_LCG(seed, 2 * i)`), draws an energy and a material from the
 *    seed, then searches the unionized grid (gridpoints * isotopes entries) and loops
 *    over the material's nuclides, searching each nuclide's grid (gridpoints entries).
 *    None of these depends on how many lookups there are.
 *  - A material picked by hashing the index (`h % NMAT`) or masking it (`i & 7`) is an
 *    identity too.
 *  - A triangular loop `for (j < i)` uses its outer index as a magnitude: it depends
 *    on `n`.
 *
 *   cf_identity LOOKUPS ISOTOPES GRIDPOINTS N */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>

#define NMAT 12
#define STARTING_SEED 1070

static int isotopes;
static long gridpoints;
static int num_nucs[NMAT];
static int *mats[NMAT];
static double *union_energy; /* gridpoints * isotopes, sorted */
static double **nuc_energy;  /* isotopes grids of gridpoints, sorted */

/* XSBench's: jump the LCG ahead by n steps. (XSBench also reduces `n = n % m` first;
 * for an n below 2^63 that is no operation, which -O2 deletes and -O0 keeps as an
 * identity, so the two levels would disagree on this one loop: see
 * docs/internal/control-flow.md, "Loop indices used as identities".) The loop runs
 * log2(n) times: it depends on `lookups` through n = 2 * i, a magnitude. */
static uint64_t fast_forward_LCG(uint64_t seed, uint64_t n) {
  const uint64_t m = 9223372036854775808ULL; /* 2^63 */
  uint64_t a = 2806196910506780709ULL;
  uint64_t c = 1ULL;
  uint64_t a_new = 1;
  uint64_t c_new = 0;
  while (n > 0) { /* @ff */
    if (n & 1) {
      a_new *= a;
      c_new = c_new * a + c;
    }
    c *= (a + 1);
    a *= a;
    n >>= 1;
  }
  return (a_new * seed + c_new) % m;
}

static double LCG_random_double(uint64_t *seed) {
  const uint64_t m = 9223372036854775808ULL;
  const uint64_t a = 2806196910506780709ULL;
  const uint64_t c = 1ULL;
  *seed = (a * (*seed) + c) % m;
  return (double)(*seed) / (double)m;
}

static int pick_mat(uint64_t *seed) {
  static const double dist[NMAT] = {0.140, 0.052, 0.275, 0.134, 0.154, 0.064,
                                    0.066, 0.055, 0.008, 0.015, 0.025, 0.013};
  double roll = LCG_random_double(seed);
  for (int i = 0; i < NMAT; i++) { /* @pick */
    double running = 0;
    for (int j = i; j > 0; j--) /* @running */
      running += dist[j];
    if (roll < running)
      return i;
  }
  return 0;
}

static long union_search(long n, double quarry, const double *A) {
  long lo = 0, hi = n - 1, length = hi - lo;
  while (length > 1) { /* @union_search */
    long mid = lo + length / 2;
    if (A[mid] > quarry)
      hi = mid;
    else
      lo = mid;
    length = hi - lo;
  }
  return lo;
}

static long nuclide_search(long n, double quarry, const double *A) {
  long lo = 0, hi = n - 1, length = hi - lo;
  while (length > 1) { /* @nuclide_search */
    long mid = lo + length / 2;
    if (A[mid] > quarry)
      hi = mid;
    else
      lo = mid;
    length = hi - lo;
  }
  return lo;
}

static double calculate_macro_xs(double e, int mat) {
  long u = union_search(gridpoints * isotopes, e, union_energy);
  double xs = (double)u;
  for (int j = 0; j < num_nucs[mat]; j++) { /* @nuclides */
    int nuc = mats[mat][j];
    xs += (double)nuclide_search(gridpoints, e, nuc_energy[nuc]);
  }
  return xs;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s LOOKUPS ISOTOPES GRIDPOINTS N\n", argv[0]);
    return 2;
  }
  int lookups = atoi(argv[1]);
  isotopes = atoi(argv[2]);
  gridpoints = atol(argv[3]);
  int n = atoi(argv[4]);
  tp_register_variable(&lookups, sizeof lookups, "lookups");
  tp_register_variable(&isotopes, sizeof isotopes, "isotopes");
  tp_register_variable(&gridpoints, sizeof gridpoints, "gridpoints");
  tp_register_variable(&n, sizeof n, "n");

  for (int m = 0; m < NMAT; m++) { /* @materials */
    num_nucs[m] = isotopes / (m + 1) + 1;
    mats[m] = malloc((size_t)num_nucs[m] * sizeof(int));
    for (int k = 0; k < num_nucs[m]; k++) /* @mat_nucs */
      mats[m][k] = (k * 7 + m) % isotopes;
  }
  long nu = gridpoints * isotopes;
  union_energy = malloc((size_t)nu * sizeof(double));
  for (long k = 0; k < nu; k++) /* @union_grid */
    union_energy[k] = (double)k / (double)nu;
  nuc_energy = malloc((size_t)isotopes * sizeof(double *));
  for (int t = 0; t < isotopes; t++) { /* @nuc_grids */
    nuc_energy[t] = malloc((size_t)gridpoints * sizeof(double));
    for (long k = 0; k < gridpoints; k++) /* @nuc_grid */
      nuc_energy[t][k] = (double)k / (double)gridpoints;
  }

  double verification = 0;
  for (int i = 0; i < lookups; i++) { /* @lookups */
    uint64_t seed = STARTING_SEED;
    seed = fast_forward_LCG(seed, 2 * (uint64_t)i);
    double e = LCG_random_double(&seed);
    int mat = pick_mat(&seed);
    verification += calculate_macro_xs(e, mat);
  }

  long hashed = 0;
  for (int i = 0; i < lookups; i++) { /* @hashed */
    uint32_t h = (uint32_t)i * 2654435761u;
    h ^= h >> 15;
    int mat = (int)(h % NMAT);
    for (int j = 0; j < num_nucs[mat]; j++) /* @hashed_nucs */
      hashed += mats[mat][j];
    for (int j = 0; j < num_nucs[i & 7]; j++) /* @masked_nucs */
      hashed -= mats[i & 7][j];
  }

  long tri = 0;
  for (int i = 0; i < n; i++)   /* @outer */
    for (int j = 0; j < i; j++) /* @triangle */
      tri = tri * 3 + (j ^ i);

  printf("verification %g hashed %ld tri %ld\n", verification, hashed, tri);
  return 0;
}
