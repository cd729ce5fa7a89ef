; Denormal mode, C++ containers without inlining (-O0): a local std::vector of floats
; gets its elements from the library's allocator, whose allocation site names no
; variable. After every call given the vector's address (construction, growth,
; assignment), __tpd_name_container lets the elements' marked array take the
; variable's name and position (an AllocSiteDesc naming `signal`, line 4). A vector of
; ints is no FP container: nothing is added for it.
; RUN: %opt_denormal < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%"class.std::vector" = type { ptr, ptr, ptr }

; CHECK: [[NAME:@.*]] = private {{.*}}c"signal\00"
; CHECK: [[SITE:@taintprof.alloc_site[.0-9]*]] = private constant {{.*}} [[NAME]], {{.*}} i32 4,

; CHECK-LABEL: define void @f()
; CHECK: call void @_ZNSt6vectorIfSaIfEEC1Em(ptr %signal, i64 8)
; CHECK-NEXT: call void @__tpd_name_container(ptr %signal, ptr [[SITE]])
; CHECK: call void @use(ptr %signal)
; CHECK-NEXT: call void @__tpd_name_container(ptr %signal, ptr [[SITE]])
; CHECK: call void @_ZNSt6vectorIiSaIiEEC1Em(ptr %counts, i64 8)
; CHECK-NEXT: ret void
define void @f() !dbg !10 {
  %signal = alloca %"class.std::vector", align 8
    #dbg_declare(ptr %signal, !20, !DIExpression(), !30)
  %counts = alloca %"class.std::vector", align 8
    #dbg_declare(ptr %counts, !40, !DIExpression(), !30)
  call void @_ZNSt6vectorIfSaIfEEC1Em(ptr %signal, i64 8), !dbg !30
  call void @use(ptr %signal), !dbg !30
  call void @_ZNSt6vectorIiSaIiEEC1Em(ptr %counts, i64 8), !dbg !30
  ret void, !dbg !30
}
declare void @_ZNSt6vectorIfSaIfEEC1Em(ptr, i64)
declare void @_ZNSt6vectorIiSaIiEEC1Em(ptr, i64)
declare void @use(ptr)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!1, !2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !{i32 2, !"Debug Info Version", i32 3}
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !DIFile(filename: "v.cpp", directory: "/tmp")
!10 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 3, type: !11, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !12)
!12 = !{null}
!20 = !DILocalVariable(name: "signal", scope: !10, file: !3, line: 4, type: !21)
!21 = distinct !DICompositeType(tag: DW_TAG_class_type, name: "vector<float, std::allocator<float> >", scope: !22, file: !3, line: 100, size: 192, flags: DIFlagTypePassByReference | DIFlagNonTrivial, elements: !13, templateParams: !23, identifier: "_ZTSSt6vectorIfSaIfEE")
!13 = !{}
!22 = !DINamespace(name: "std", scope: null)
!23 = !{!24}
!24 = !DITemplateTypeParameter(name: "_Tp", type: !25)
!25 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!30 = !DILocation(line: 4, column: 22, scope: !10)
!40 = !DILocalVariable(name: "counts", scope: !10, file: !3, line: 5, type: !41)
!41 = distinct !DICompositeType(tag: DW_TAG_class_type, name: "vector<int, std::allocator<int> >", scope: !22, file: !3, line: 100, size: 192, flags: DIFlagTypePassByReference | DIFlagNonTrivial, elements: !13, templateParams: !42, identifier: "_ZTSSt6vectorIiSaIiEE")
!42 = !{!43}
!43 = !DITemplateTypeParameter(name: "_Tp", type: !44)
!44 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
