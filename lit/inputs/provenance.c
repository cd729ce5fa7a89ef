/* Input of lit/provenance.ll: a parameter reaches loops through a call, a field store and load, and a global written under a branch. */
void tp_register_variable(const void *, unsigned long, const char *);
int levels;
struct mesh { double *u; int cells; };
void init(struct mesh *m, int n) { m->cells = 2 * n; }
int sweep(struct mesh *m) { int s = 0; for (int i = 0; i < m->cells; i++) s += i; return s; }
int refine(void) { int s = 0; for (int l = 0; l < levels; l++) s += l; return s; }
int main(int argc, char **argv) {
  int n = argc * 10;
  tp_register_variable(&n, sizeof n, "n");
  if (n > 3) levels = n;
  struct mesh m;
  init(&m, n);
  return sweep(&m) + refine();
}
