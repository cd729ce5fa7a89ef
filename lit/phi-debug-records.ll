; Shadow PHIs (the label, and the R label of identity.rs) are inserted before the debug records attached to the first non-PHI
; instruction (a PHI must not carry debug records); the module still verifies with its
; debug info intact.
; RUN: %opt -passes=taintprof-taint,verify -S < %s 2>&1 | %FileCheck %s
; CHECK-NOT: ignoring invalid debug info
; CHECK: j:
; CHECK-NEXT: %p = phi i32 [ %a, %entry ], [ %b, %l ]
; CHECK-NEXT: phi i16
; CHECK-NEXT: phi i16
; CHECK-NEXT: #dbg_value(i32 %p
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define i32 @f(i1 %c, i32 %a, i32 %b) !dbg !5 {
entry:
  br i1 %c, label %l, label %j, !dbg !10
l:
  br label %j, !dbg !10
j:
  %p = phi i32 [ %a, %entry ], [ %b, %l ]
    #dbg_value(i32 %p, !9, !DIExpression(), !10)
  ret i32 %p, !dbg !10
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "f.c", directory: "/tmp")
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !8)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !{!9}
!9 = !DILocalVariable(name: "p", scope: !5, file: !1, line: 2, type: !11)
!10 = !DILocation(line: 2, column: 3, scope: !5)
!11 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
