// Time mode (pass/src/time.rs): at pipeline start, at -O0 as at -O2, every selected
// function calls __tp_time_enter at entry and __tp_time_exit before each return; the
// loops' iterations are counted in a local i64 (increased by 1 at the start of the
// header's in-loop successor: an induction variable, no cost at -O2) and handed to __tp_time_loop before
// the exit call; _exit goes to the runtime's wrapper; a constructor registers the
// module. Without a selection file: main, every function with a loop or a call that
// may hide one (not `noreturn` like _exit, not a math routine), and their callers
// (leaf and quit are left alone). With one (`select=`): only what it names, plus main.
// RUN: env TAINTPROF_MODE=time %clang -O0 -gline-tables-only -fpass-plugin=%plugin -S -emit-llvm %s -o %t0.ll
// RUN: %FileCheck %s --check-prefixes=CHECK,O0 < %t0.ll
// RUN: env TAINTPROF_MODE=time %clang -O2 -gline-tables-only -fno-inline -fpass-plugin=%plugin -S -emit-llvm %s -o %t2.ll
// RUN: %FileCheck %s --check-prefixes=CHECK,O2 < %t2.ll
// RUN: printf 'fn\tsum\nloop\tsum\t62\n' > %t.sel
// RUN: env TAINTPROF_MODE=time TAINTPROF_TIME_SELECT=%t.sel %clang -O0 -gline-tables-only -fpass-plugin=%plugin -S -emit-llvm %s -o %ts.ll
// RUN: %FileCheck %s --check-prefix=SEL < %ts.ll
// RUN: %clang -O0 -gline-tables-only -fpass-plugin=%plugin -S -emit-llvm %s -o %tt.ll
// RUN: %FileCheck %s --check-prefix=TAINT < %tt.ll

// CHECK-DAG: @taintprof.time.module = internal global %taintprof.time.ModuleDesc { i32 1297371220, i32 2,
// CHECK-DAG: @llvm.global_ctors = {{.*}}@taintprof.module_ctor

// CHECK-LABEL: define {{.*}}i32 @sum(
// O0: alloca i64
// O0: store i64 0, ptr [[C:%[0-9]+]]
// CHECK: call void @__tp_time_enter(ptr {{.*}}@taintprof.time.funcs
// O0: [[COND:%[0-9a-z]+]] = icmp slt
// O0-NEXT: br i1 [[COND]], label %[[BODY:[0-9]+]],
// O0: [[BODY]]:
// O0-NEXT: [[OLD:%[0-9]+]] = load i64, ptr [[C]]
// O0-NEXT: add i64 [[OLD]], 1
// O0: [[N:%[0-9]+]] = load i64, ptr [[C]]
// O0: call void @__tp_time_loop(ptr @taintprof.time.loops, i64 [[N]])
// O2-NOT: alloca
// O2-NOT: add i64 %{{[0-9]+}}, 1
// O2: call void @__tp_time_loop(ptr {{.*}}@taintprof.time.loops, i64 %
// CHECK: call void @__tp_time_exit(ptr {{.*}}@taintprof.time.funcs
// CHECK-NEXT: ret i32

// CHECK-LABEL: define {{.*}} @leaf(
// CHECK-NOT: __tp_time
// CHECK: ret i32

// CHECK-LABEL: define {{.*}} @quit(
// CHECK-NOT: __tp_time_enter
// CHECK: call void @__tpw__exit(

// SEL-LABEL: define {{.*}} @sum(
// SEL: call void @__tp_time_enter(
// SEL: call void @__tp_time_loop(
// SEL-LABEL: define {{.*}} @quit(
// SEL-NOT: __tp_time_enter
// SEL: call void @__tpw__exit(
// SEL-LABEL: define {{.*}} @main(
// SEL: call void @__tp_time_enter(

// TAINT-NOT: __tp_time

void _exit(int);

int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}

int leaf(int x) { return x * 3; }

void quit(int c) { _exit(c); }

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 5)
    quit(1);
  return sum(argc) + leaf(argc);
}
