; ModuleID = 'branches.c'
source_filename = "branches.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@switch.table.pick = private unnamed_addr constant [3 x i32] [i32 1, i32 2, i32 2], align 4

; Function Attrs: nounwind uwtable
define dso_local i32 @pick(i32 noundef %0, i32 noundef %1) local_unnamed_addr #0 !dbg !9 {
  %3 = icmp slt i32 %0, 2, !dbg !12
  %4 = zext i1 %3 to i32, !dbg !13
  %5 = add nsw i32 %4, %1, !dbg !13
  %6 = tail call i32 @work(i32 noundef %5) #2, !dbg !14
  %7 = icmp sgt i32 %1, 0, !dbg !15
  br i1 %7, label %11, label %8, !dbg !16

8:                                                ; preds = %11, %2
  %9 = phi i32 [ %6, %2 ], [ %15, %11 ], !dbg !14
  %10 = icmp ult i32 %0, 3, !dbg !17
  br i1 %10, label %18, label %22, !dbg !17

11:                                               ; preds = %2, %11
  %12 = phi i32 [ %16, %11 ], [ 0, %2 ]
  %13 = phi i32 [ %15, %11 ], [ %6, %2 ]
  %14 = tail call i32 @work(i32 noundef %12) #2, !dbg !18
  %15 = add nsw i32 %14, %13, !dbg !19
  %16 = add nuw nsw i32 %12, 1, !dbg !20
  %17 = icmp eq i32 %16, %1, !dbg !15
  br i1 %17, label %8, label %11, !dbg !16, !llvm.loop !21

18:                                               ; preds = %8
  %19 = zext nneg i32 %0 to i64, !dbg !17
  %20 = getelementptr inbounds [3 x i32], ptr @switch.table.pick, i64 0, i64 %19, !dbg !17
  %21 = load i32, ptr %20, align 4, !dbg !17
  br label %22, !dbg !17

22:                                               ; preds = %8, %18
  %23 = phi i32 [ %21, %18 ], [ 3, %8 ]
  %24 = tail call i32 @work(i32 noundef %23) #2, !dbg !14
  %25 = add nsw i32 %24, %9, !dbg !14
  ret i32 %25, !dbg !24
}

declare !dbg !25 i32 @work(i32 noundef) local_unnamed_addr #1

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "branches.c", directory: "/work/main/lit/inputs", checksumkind: CSK_MD5, checksum: "0676007a773312ef789ef66117dcc0b4")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!9 = distinct !DISubprogram(name: "pick", scope: !1, file: !1, line: 3, type: !10, scopeLine: 3, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!10 = !DISubroutineType(types: !11)
!11 = !{}
!12 = !DILocation(line: 5, column: 12, scope: !9)
!13 = !DILocation(line: 5, column: 7, scope: !9)
!14 = !DILocation(line: 0, scope: !9)
!15 = !DILocation(line: 9, column: 21, scope: !9)
!16 = !DILocation(line: 9, column: 3, scope: !9)
!17 = !DILocation(line: 11, column: 3, scope: !9)
!18 = !DILocation(line: 10, column: 10, scope: !9)
!19 = !DILocation(line: 10, column: 7, scope: !9)
!20 = !DILocation(line: 9, column: 27, scope: !9)
!21 = distinct !{!21, !16, !22, !23}
!22 = !DILocation(line: 10, column: 16, scope: !9)
!23 = !{!"llvm.loop.mustprogress"}
!24 = !DILocation(line: 17, column: 3, scope: !9)
!25 = !DISubprogram(name: "work", scope: !1, file: !1, line: 2, type: !10, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
