; Denormal mode, marked arrays (inputs/dn-arrays.c, full -g, at -O2 and -O0; the
; results must not depend on the level):
; * globals and statics of array type, arrays of one-FP-type structs: FpArrayDesc
;   (name, function, file, line, FP_* type, ARRAY_* kind, element size, count, addr)
;   listed in the module descriptor; plain FP scalars and mixed structs are not;
; * stack arrays: a constant FpArrayDesc template (addr null), __tpd_array_enter at
;   the alloca (or lifetime.start), __tpd_array_leave at lifetime.end and before every
;   return; variable-length arrays: __tpd_alloc with their run-time size, released at
;   the stackrestore that frees them and before every return;
; * heap: allocation calls typed as FP (debug type of the variable, structure member,
;   or FP uses) get an AllocSiteDesc and `if (block) __tpd_alloc(block, bytes, site)`
;   after the call; realloc releases the old block first; free releases.
; RUN: %opt_denormal < %inputs/dn-arrays-O2.ll | %FileCheck %s --check-prefixes=CHECK,O2
; RUN: %opt_denormal < %inputs/dn-arrays-O0.ll | %FileCheck %s --check-prefixes=CHECK,O0

; ARRAY_GLOBAL = 1, ARRAY_STATIC = 2, ARRAY_STACK = 3; FP_FLOAT = 2, FP_DOUBLE = 3.
; CHECK-DAG: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 {{[0-9]+}}, i32 {{[0-9]+}}, ptr @taintprof.fparrays, i32 4, i32 0, i64 -1, ptr null }
; CHECK-DAG: @taintprof.fparrays = private constant [4 x %taintprof.FpArrayDesc] [%taintprof.FpArrayDesc { ptr @[[HIST:taintprof.str[.0-9]*]], ptr @[[SAV:taintprof.str[.0-9]*]], ptr @[[FILE:taintprof.str[.0-9]*]], i32 29, i16 2, i16 2, i32 4, i32 0, i64 8, ptr @stack_and_vla.hist }, %taintprof.FpArrayDesc { ptr @[[COEF:taintprof.str[.0-9]*]], ptr @[[EMPTY:taintprof.str[.0-9]*]], ptr @[[FILE]], i32 8, i16 3, i16 2, i32 8, i32 0, i64 3, ptr @coef }, %taintprof.FpArrayDesc { ptr @[[GRID:taintprof.str[.0-9]*]], ptr @[[EMPTY]], ptr @[[FILE]], i32 7, i16 2, i16 1, i32 4, i32 0, i64 4096, ptr @grid }, %taintprof.FpArrayDesc { ptr @[[PARTS:taintprof.str[.0-9]*]], ptr @[[EMPTY]], ptr @[[FILE]], i32 10, i16 3, i16 1, i32 8, i32 0, i64 48, ptr @parts }]
; CHECK-DAG: @[[HIST]] = private unnamed_addr constant [5 x i8] c"hist\00"
; CHECK-DAG: @[[SAV]] = private unnamed_addr constant [14 x i8] c"stack_and_vla\00"
; CHECK-DAG: @[[FILE]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"{{.*}}dn-arrays.c\00"
; CHECK-DAG: @[[COEF]] = private unnamed_addr constant [5 x i8] c"coef\00"
; CHECK-DAG: @[[EMPTY]] = private unnamed_addr constant [1 x i8] zeroinitializer
; CHECK-DAG: @[[GRID]] = private unnamed_addr constant [5 x i8] c"grid\00"
; CHECK-DAG: @[[PARTS]] = private unnamed_addr constant [6 x i8] c"parts\00"

; The stack array `local` (double[32], line 30) and the VLA `vla` (line 31; flag
; ALLOC_SITE_VLA = 1: its activations share a record per size class).
; CHECK-DAG: @[[LOCALT:taintprof.stack_array]] = private constant %taintprof.FpArrayDesc { ptr @[[LOCAL:taintprof.str[.0-9]*]], ptr @[[SAV]], ptr @[[FILE]], i32 30, i16 3, i16 3, i32 8, i32 0, i64 32, ptr null }
; CHECK-DAG: @[[LOCAL]] = private unnamed_addr constant [6 x i8] c"local\00"
; CHECK-DAG: @[[VLAS:taintprof.alloc_site]] = private constant %taintprof.AllocSiteDesc { ptr @[[VLA:taintprof.str[.0-9]*]], ptr @[[SAV]], ptr @[[FILE]], i32 31, i16 3, i16 1, i32 8, i32 0 }
; CHECK-DAG: @[[VLA]] = private unnamed_addr constant [4 x i8] c"vla\00"

; Heap: a (malloc, line 42), b (calloc, 43), f.data (member, 46), raw (void *, typed by
; its FP stores, 47), and the realloc'd a (52).
; CHECK-DAG: @[[AS:taintprof.alloc_site.[0-9]+]] = private constant %taintprof.AllocSiteDesc { ptr @[[A:taintprof.str[.0-9]*]], ptr @[[MAIN:taintprof.str[.0-9]*]], ptr @[[FILE]], i32 42, i16 2, i16 0, i32 4, i32 0 }
; CHECK-DAG: @[[BS:taintprof.alloc_site.[0-9]+]] = private constant %taintprof.AllocSiteDesc { ptr @[[B:taintprof.str[.0-9]*]], ptr @[[MAIN]], ptr @[[FILE]], i32 43, i16 2, i16 0, i32 4, i32 0 }
; CHECK-DAG: @[[FS:taintprof.alloc_site.[0-9]+]] = private constant %taintprof.AllocSiteDesc { ptr @[[FDATA:taintprof.str[.0-9]*]], ptr @[[MAIN]], ptr @[[FILE]], i32 46, i16 3, i16 0, i32 8, i32 0 }
; CHECK-DAG: @[[RS:taintprof.alloc_site.[0-9]+]] = private constant %taintprof.AllocSiteDesc { ptr @[[RAW:taintprof.str[.0-9]*]], ptr @[[MAIN]], ptr @[[FILE]], i32 47, i16 3, i16 0, i32 8, i32 0 }
; The realloc site keeps the block's contents (ALLOC_SITE_KEEPS_CONTENTS = 4): __tpd_alloc
; leaves the tags its wrapper moved.
; CHECK-DAG: @[[RES:taintprof.alloc_site.[0-9]+]] = private constant %taintprof.AllocSiteDesc { ptr @[[A]], ptr @[[MAIN]], ptr @[[FILE]], i32 52, i16 2, i16 4, i32 4, i32 0 }
; CHECK-DAG: @[[A]] = private unnamed_addr constant [2 x i8] c"a\00"
; CHECK-DAG: @[[B]] = private unnamed_addr constant [2 x i8] c"b\00"
; CHECK-DAG: @[[FDATA]] = private unnamed_addr constant [7 x i8] c"f.data\00"
; CHECK-DAG: @[[RAW]] = private unnamed_addr constant [4 x i8] c"raw\00"
; CHECK-DAG: @[[MAIN]] = private unnamed_addr constant [5 x i8] c"main\00"

; CHECK-LABEL: define {{.*}}double @stack_and_vla(
; O2: call void @llvm.lifetime.start.p0(i64 256, ptr nonnull [[L:%[0-9]+]])
; O2-NEXT: call void @__tpd_array_enter(ptr [[L]], ptr @[[LOCALT]])
; O0: call void @__tpd_array_enter(ptr [[L:%[0-9]+]], ptr @[[LOCALT]])
; CHECK: [[V:%.*]] = alloca double, i64 [[N:%[0-9]+]]
; CHECK: [[BYTES:%.*]] = mul i64 [[N]], 8
; CHECK-NEXT: call ptr @__tpd_alloc(ptr [[V]], i64 [[BYTES]], ptr @[[VLAS]])
; CHECK: call void @__tpd_release(ptr [[V]])
; CHECK-NEXT: call void @llvm.stackrestore.p0(
; O2-NEXT: call void @__tpd_array_leave(ptr [[L]])
; O2-NEXT: call void @llvm.lifetime.end.p0(i64 256, ptr nonnull [[L]])
; CHECK: call void @__tpd_array_leave(ptr [[L]])
; CHECK-NEXT: call void @__tpd_release(ptr [[V]])
; CHECK-NEXT: ret double

; CHECK-LABEL: define {{.*}}i32 @main(
; malloc goes to the runtime's wrapper (it clears the block's shadow); a successful
; allocation (likely) is registered.
; CHECK: [[PA:%.*]] = {{.*}}call noalias ptr @__tpw_malloc(i64 noundef [[NA:%[0-9]+]])
; CHECK: [[OKA:%.*]] = icmp ne ptr [[PA]], null
; CHECK-NEXT: br i1 [[OKA]], label %[[REG:[0-9]+]], label %{{[0-9]+}}, {{.*}}!prof [[LIKELY:![0-9]+]]
; CHECK: [[REG]]:
; CHECK-NEXT: call ptr @__tpd_alloc(ptr [[PA]], i64 [[NA]], ptr @[[AS]])
; CHECK: [[PB:%.*]] = {{.*}}call noalias ptr @__tpw_calloc(i64 noundef [[CNT:%[0-9]+]], i64 noundef 4)
; CHECK: [[NB:%.*]] = mul i64 [[CNT]], 4
; CHECK: call ptr @__tpd_alloc(ptr [[PB]], i64 [[NB]], ptr @[[BS]])
; CHECK: call ptr @__tpd_alloc(ptr {{%.*}}, i64 {{%.*}}, ptr @[[FS]])
; CHECK: call ptr @__tpd_alloc(ptr {{%.*}}, i64 {{%.*}}, ptr @[[RS]])
; CHECK: call void @__tpd_release(ptr [[OLD:%.*]])
; CHECK-NEXT: [[PR:%.*]] = {{.*}}call ptr @__tpw_realloc(ptr noundef [[OLD]], i64 noundef [[NR:%[0-9]+]])
; CHECK: call ptr @__tpd_alloc(ptr [[PR]], i64 [[NR]], ptr @[[RES]])
; CHECK: call void @__tpd_release(ptr [[F1:%.*]])
; CHECK-NEXT: call void @free(ptr noundef [[F1]])
; CHECK: call void @__tpd_release(ptr [[F2:%.*]])
; CHECK-NEXT: call void @free(ptr noundef [[F2]])

; CHECK: [[LIKELY]] = !{!"branch_weights", i32 1048575, i32 1}
