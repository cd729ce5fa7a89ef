// Time mode must not change what the inliner does (pass/src/time.rs): the hooks are
// declared `"call-inline-cost"="0"` (free to LLVM's inline cost model, which charges an
// ordinary call its arguments plus CallPenalty) and the enter call of a function with
// counted loops raises the threshold by 10 per loop (`"call-threshold-bonus"`), what the
// simplified counts cost. With -inline-threshold=60, `sum` (cost 35 natively) is
// inlined into main natively and in time mode alike; with its enter, exit and loop calls
// charged as ordinary calls it would cost about 150 and stay out of line.
// RUN: %clang -O2 -gline-tables-only -mllvm -inline-threshold=60 -Rpass=inline -S -emit-llvm %s -o %tn.ll 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: env TAINTPROF_MODE=time %clang -O2 -gline-tables-only -mllvm -inline-threshold=60 -fpass-plugin=%plugin -Rpass=inline -S -emit-llvm %s -o %t.ll 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %FileCheck %s < %t.ll

// REMARK: remark: 'sum' inlined into 'main' with (cost=35,

// CHECK-LABEL: define {{.*}} @main(
// CHECK: call void @__tp_time_enter({{.*}}){{$}}
// CHECK-NEXT: call void @__tp_time_enter({{.*}}) [[SUM:#[0-9]+]]
// CHECK-NOT: call {{.*}} @sum(
// CHECK: call void @__tp_time_loop(
// CHECK: ret i32
// CHECK: declare void @__tp_time_enter(ptr) {{.*}}[[HOOK:#[0-9]+]]
// CHECK-DAG: attributes [[HOOK]] = { {{.*}}"call-inline-cost"="0"
// CHECK-DAG: attributes [[SUM]] = { "call-threshold-bonus"="10" }

int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i * i;
  return s;
}

int main(int argc, char **argv) {
  (void)argv;
  return sum(argc);
}
