; Descriptors: struct types exactly as in taintprof_abi (ABI version 2), C++ names
; demangled, loops named by their `for`/`while` keyword with the inline chain outermost
; first, each with its enclosing loop and physical function, one FuncDesc per function
; (FUNC_CONTEXT_TRACKED = 1), the ModuleDesc (magic "TPMD" = 1414352964, ABI version 2,
; MODULE_CONTROL_FLOW = 1) and a constructor registering it. Input: inputs/matrix.cpp at -O2 with
; -gline-tables-only -fdebug-info-for-profiling (which keeps C++ linkage names).
; RUN: %opt -passes=taintprof-taint,verify -S %inputs/matrix.ll | %FileCheck %s
; RUN: %opt -passes=taintprof-taint -disable-output %inputs/matrix.ll
;
; CHECK-DAG: %taintprof.SrcLoc = type { ptr, ptr, ptr, i32, i32, i32, i32 }
; CHECK-DAG: %taintprof.LoopDesc = type { ptr, i32, i32, i64, ptr, ptr, ptr, ptr }
; CHECK-DAG: %taintprof.BranchRec = type { ptr, ptr, i32, i16, i16, i64, i64 }
; CHECK-DAG: %taintprof.FuncDesc = type { %taintprof.SrcLoc, i32, i32 }
; CHECK-DAG: %taintprof.ModuleDesc = type { i32, i32, ptr, ptr, i32, i32, ptr, ptr, i32, i32, ptr }
;
; init_cpp (4 loops after vectorization) and main (3 inlined loops), both tracked.
; CHECK-DAG: @taintprof.funcs = private constant [2 x %taintprof.FuncDesc] [%taintprof.FuncDesc { %taintprof.SrcLoc { ptr [[INITN:@taintprof.str[.0-9]*]], ptr [[INITL:@taintprof.str[.0-9]*]], ptr [[FILE:@taintprof.str[.0-9]*]], i32 12, i32 12, i32 0, i32 0 }, i32 1, i32 4 }, %taintprof.FuncDesc { %taintprof.SrcLoc { ptr [[MAIN:@taintprof.str[.0-9]*]], ptr [[MAIN]], ptr [[FILE]], i32 24, i32 24, i32 0, i32 0 }, i32 1, i32 3 }]
; CHECK-DAG: [[INITN]] = private unnamed_addr constant [25 x i8] c"init_cpp(matrix&, float)\00"
; CHECK-DAG: [[INITL]] = private unnamed_addr constant [21 x i8] c"_Z8init_cppR6matrixf\00"
; CHECK-DAG: [[FILE]] = private unnamed_addr constant {{.*}} c"{{.*}}inputs/matrix.cpp\00"
; CHECK-DAG: [[MAIN]] = private unnamed_addr constant [5 x i8] c"main\00"
;
; The i loop (13:3) and the j loop (14:5; vector, remainder and one more copy share it,
; all inside the i loop, loops[0]), in init_cpp (funcs[0]); in main (funcs[1]) the
; inlined i loop (twice) and count's while loop.
; CHECK-DAG: @taintprof.loops = private constant [7 x %taintprof.LoopDesc] [%taintprof.LoopDesc { ptr [[CI:@taintprof.chain[.0-9]*]], i32 1, i32 0, i64 0, ptr null, ptr @taintprof.funcs, ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr [[CJ:@taintprof.chain[.0-9]*]], i32 1, i32 0, i64 0, ptr @taintprof.loops, ptr @taintprof.funcs, ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr [[CJ]], i32 1, i32 0, i64 0, ptr @taintprof.loops, ptr @taintprof.funcs, ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr [[CJ]], i32 1, i32 0, i64 0, ptr @taintprof.loops, ptr @taintprof.funcs, ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr [[CIM:@taintprof.chain[.0-9]*]], i32 2, i32 0, i64 0, ptr null, ptr [[MAINF:getelementptr inbounds \(\[2 x %taintprof.FuncDesc\], ptr @taintprof.funcs, i64 0, i64 1\)]], ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr [[CIM]], i32 2, i32 0, i64 0, ptr null, ptr [[MAINF]], ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr [[CC:@taintprof.chain[.0-9]*]], i32 2, i32 0, i64 0, ptr null, ptr [[MAINF]], ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }]
; CHECK-DAG: [[CI]] = private constant [1 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr [[INITN]], ptr [[INITL]], ptr [[FILE]], i32 12, i32 13, i32 3, i32 0 }]
; CHECK-DAG: [[CJ]] = private constant [1 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr [[INITN]], ptr [[INITL]], ptr [[FILE]], i32 12, i32 14, i32 5, i32 0 }]
; init_cpp inlined into main at 27:3: chain = [main:27:3, init_cpp:13:3].
; CHECK-DAG: [[CIM]] = private constant [2 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr [[MAIN]], ptr [[MAIN]], ptr [[FILE]], i32 24, i32 27, i32 3, i32 0 }, %taintprof.SrcLoc { ptr [[INITN]], ptr [[INITL]], ptr [[FILE]], i32 12, i32 13, i32 3, i32 0 }]
; The static function count(int), inlined at 28:10, its while loop at 20:3.
; CHECK-DAG: [[CC]] = private constant [2 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr [[MAIN]], ptr [[MAIN]], ptr [[FILE]], i32 24, i32 28, i32 10, i32 0 }, %taintprof.SrcLoc { ptr [[CN:@taintprof.str[.0-9]*]], ptr [[CL:@taintprof.str[.0-9]*]], ptr [[FILE]], i32 18, i32 20, i32 3, i32 0 }]
; CHECK-DAG: [[CN]] = private unnamed_addr constant [11 x i8] c"count(int)\00"
; CHECK-DAG: [[CL]] = private unnamed_addr constant [11 x i8] c"_ZL5counti\00"
;
; No branch sinks here: the loops' guards and the vectorizer's checks belong to the loops.
; CHECK-DAG: @taintprof.module = internal global %taintprof.ModuleDesc { i32 1414352964, i32 13, ptr [[SRC:@taintprof.str[.0-9]*]], ptr @taintprof.funcs, i32 2, i32 7, ptr @taintprof.loops, ptr null, i32 0, i32 1, ptr null }
; CHECK-DAG: [[SRC]] = private unnamed_addr constant [11 x i8] c"matrix.cpp\00"
; CHECK-DAG: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @taintprof.module_ctor, ptr null }]
;
; CHECK-LABEL: define internal void @taintprof.module_ctor()
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @__tp_register_module(ptr @taintprof.module)
; CHECK-NEXT: ret void
