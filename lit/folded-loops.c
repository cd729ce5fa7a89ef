// Loops the optimizer folds (pass/src/folded.rs): at -O1 and above a pipeline-start
// pass records every loop's position before optimization; at OptimizerLast a recorded
// loop that no natural or library loop has any more is described as LOOP_FOLDED (16),
// in the function it was written in. A loop turned into memset is a library loop at
// the loop's own position (the `for`, not the store), not folded. At -O0 nothing is
// recorded and nothing is folded. The records do not reach the object file.
// RUN: env TAINTPROF_SIDECAR=%t.json %clang -O2 -gline-tables-only -fpass-plugin=%plugin -S -emit-llvm %s -o %t.ll
// RUN: %FileCheck %s < %t.ll
// RUN: %FileCheck %s --check-prefix=JSON < %t.json
// RUN: env TAINTPROF_SIDECAR=%t0.json %clang -O0 -gline-tables-only -fpass-plugin=%plugin -S -emit-llvm %s -o %t0.ll
// RUN: %FileCheck %s --check-prefix=O0 < %t0.json

// CHECK-NOT: taintprof.src_loops
// CHECK-NOT: taintprof.src_calls
// CHECK-DAG: %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 16, i64 0, ptr null, ptr @taintprof.funcs, ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }

// JSON: "name": "sum_k",
// JSON: "line": 38,
// JSON-NEXT: "column": 5,
// JSON: "kind": "folded",
// JSON: "name": "zero",
// JSON: "line": 44,
// JSON-NEXT: "column": 5,
// JSON: "kind": "library",
// JSON-NEXT: "routine": "memset",
// JSON: "name": "scale",
// JSON: "line": 49,
// JSON: "kind": "loop",
// JSON-NOT: "kind": "folded"

// O0-NOT: "kind": "folded"
// O0: "name": "sum_k",
// O0: "line": 38,
// O0: "kind": "loop",

int sum_k(int k) {
    int s = 0;
    for (int i = 0; i < k; i++)
        s += i;
    return s;
}

void zero(double *a, int n) {
    for (int i = 0; i < n; i++)
        a[i] = 0;
}

void scale(double *a, int n) {
    for (int i = 0; i < n; i++)
        a[i] = a[i] * 1.5 + i;
}
