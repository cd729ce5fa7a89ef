// Time mode's branch sides (pass/src/time.rs, "Branch sides"): a branch the selection
// file lists (`branch NAME LINE [COLUMN]`) gets an i8 of side bits, 0 at entry, or-ed
// with select(cond, 1, 2) before a `br` (no new block) or with a constant in an edge
// block per distinct successor of a `switch`; before the exit call each side's bit
// goes to __tp_time_loop with the side's descriptor (kind 1, its index and the first
// line of its successor). A loop's exit test on a listed line is not a side; a
// branch whose column matches nothing listed on its line is taken when the line has
// no exact match. Unlisted branches and unselected functions stay untouched.
// RUN: printf 'fn\tpick\nbranch\tpick\t29\t99\nbranch\tpick\t33\nbranch\tpick\t40\nbranch\thelper\t46\n' > %t.sel
// RUN: env TAINTPROF_MODE=time TAINTPROF_TIME_SELECT=%t.sel %clang -O0 -gcolumn-info -gline-tables-only -fpass-plugin=%plugin -S -emit-llvm %s -o %t0.ll
// RUN: %FileCheck %s --check-prefixes=CHECK,O0 < %t0.ll
// RUN: env TAINTPROF_MODE=time TAINTPROF_TIME_SELECT=%t.sel %clang -O2 -gcolumn-info -gline-tables-only -fno-inline -fpass-plugin=%plugin -S -emit-llvm %s -o %t2.ll
// RUN: %FileCheck %s --check-prefixes=CHECK,O2 < %t2.ll

// The sides: line 29 (listed with a column that matches nothing: the line's branch;
// to 30 and 32), line 33 (switch: default to the loop at 40, cases to 35 and 38);
// none for the loop test on line 40 or for helper (not selected).
// CHECK: @taintprof.time.loops = private global [5 x %taintprof.time.LoopDesc]
// CHECK-SAME: i32 29, i32 7, i32 1, i32 0, i32 30, i32 0 }
// CHECK-SAME: i32 29, i32 7, i32 1, i32 1, i32 32, i32 0 }
// CHECK-SAME: i32 33, i32 3, i32 1, i32 0, i32 40, i32 0 }
// CHECK-SAME: i32 33, i32 3, i32 1, i32 1, i32 35, i32 0 }
// CHECK-SAME: i32 33, i32 3, i32 1, i32 2, i32 38, i32 0 }

int g;

int pick(int n, int method) {
  int s = 0;
  if (n > 300)
    s = n * 2;
  else
    s = n;
  switch (method) {
  case 1:
    s += 1;
    break;
  case 2:
    s += 2;
  }
  for (int i = 0; i < n; i++)
    g += i;
  return s;
}

int helper(int n) {
  if (n > 3)
    return 1;
  return 0;
}

// CHECK-LABEL: define {{.*}}i32 @pick(
// O0: [[F1:%[0-9]+]] = alloca i8
// O0: [[F2:%[0-9]+]] = alloca i8
// O0: store i8 0, ptr
// O0: store i8 0, ptr
// CHECK: call void @__tp_time_enter(
// O0: [[C:%[0-9a-z]+]] = icmp sgt i32 {{.*}}, 300
// O0: [[S:%[0-9]+]] = select i1 [[C]], i8 1, i8 2
// O0: or i8 {{.*}}[[S]]
// O0: br i1 [[C]]
// O0: switch i32
// O0-DAG: or i8 {{.*}}, 2
// O0-DAG: or i8 {{.*}}, 4
// O0-DAG: or i8 {{.*}}, 1
// O0: lshr i8
// O2-NOT: alloca i8
// CHECK-COUNT-5: call void @__tp_time_loop(ptr {{.*}}@taintprof.time.loops
// CHECK: call void @__tp_time_exit(
// CHECK-NEXT: ret i32

// CHECK-LABEL: define {{.*}}i32 @helper(
// CHECK-NOT: __tp_time
// CHECK: ret i32
