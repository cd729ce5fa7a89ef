; ModuleID = 'vectorized.c' (generated, see vectorized.c)
source_filename = "vectorized.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @scale(i32 noundef %0, ptr nocapture noundef %1, float noundef %2) local_unnamed_addr #0 !dbg !9 {
  %4 = icmp sgt i32 %0, 0, !dbg !12
  br i1 %4, label %5, label %26, !dbg !14

5:                                                ; preds = %3
  %6 = zext nneg i32 %0 to i64, !dbg !12
  %7 = icmp ult i32 %0, 8, !dbg !15
  br i1 %7, label %8, label %10, !dbg !15

8:                                                ; preds = %24, %5
  %9 = phi i64 [ 0, %5 ], [ %11, %24 ]
  br label %27, !dbg !15

10:                                               ; preds = %5
  %11 = and i64 %6, 2147483640, !dbg !15
  %12 = insertelement <4 x float> poison, float %2, i64 0, !dbg !15
  %13 = shufflevector <4 x float> %12, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !15
  br label %14, !dbg !15

14:                                               ; preds = %14, %10
  %15 = phi i64 [ 0, %10 ], [ %22, %14 ], !dbg !16
  %16 = getelementptr inbounds float, ptr %1, i64 %15, !dbg !18
  %17 = getelementptr inbounds i8, ptr %16, i64 16, !dbg !20
  %18 = load <4 x float>, ptr %16, align 4, !dbg !20, !tbaa !21
  %19 = load <4 x float>, ptr %17, align 4, !dbg !20, !tbaa !21
  %20 = fmul <4 x float> %18, %13, !dbg !20
  %21 = fmul <4 x float> %19, %13, !dbg !20
  store <4 x float> %20, ptr %16, align 4, !dbg !20, !tbaa !21
  store <4 x float> %21, ptr %17, align 4, !dbg !20, !tbaa !21
  %22 = add nuw i64 %15, 8, !dbg !25
  %23 = icmp eq i64 %22, %11, !dbg !25
  br i1 %23, label %24, label %14, !dbg !25, !llvm.loop !27

24:                                               ; preds = %14
  %25 = icmp eq i64 %11, %6, !dbg !32
  br i1 %25, label %26, label %8, !dbg !32

26:                                               ; preds = %27, %24, %3
  ret void, !dbg !34

27:                                               ; preds = %8, %27
  %28 = phi i64 [ %32, %27 ], [ %9, %8 ]
  %29 = getelementptr inbounds float, ptr %1, i64 %28, !dbg !35
  %30 = load float, ptr %29, align 4, !dbg !36, !tbaa !21
  %31 = fmul float %30, %2, !dbg !36
  store float %31, ptr %29, align 4, !dbg !36, !tbaa !21
  %32 = add nuw nsw i64 %28, 1, !dbg !16
  %33 = icmp eq i64 %32, %6, !dbg !12
  br i1 %33, label %26, label %27, !dbg !14, !llvm.loop !37
}

attributes #0 = { nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly, splitDebugInlining: false, debugInfoForProfiling: true, nameTableKind: None)
!1 = !DIFile(filename: "vectorized.c", directory: "/work/main/lit/inputs", checksumkind: CSK_MD5, checksum: "da6f8c6fd2c59c056f096bd293949079")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!9 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 2, type: !10, scopeLine: 2, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!10 = !DISubroutineType(types: !11)
!11 = !{}
!12 = !DILocation(line: 3, column: 21, scope: !13)
!13 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 2)
!14 = !DILocation(line: 3, column: 3, scope: !13)
!15 = !DILocation(line: 3, column: 3, scope: !9)
!16 = !DILocation(line: 3, column: 27, scope: !17)
!17 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 4)
!18 = !DILocation(line: 4, column: 5, scope: !19)
!19 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 33)
!20 = !DILocation(line: 4, column: 10, scope: !19)
!21 = !{!22, !22, i64 0}
!22 = !{!"float", !23, i64 0}
!23 = !{!"omnipotent char", !24, i64 0}
!24 = !{!"Simple C/C++ TBAA"}
!25 = !DILocation(line: 3, column: 27, scope: !26)
!26 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 2052)
!27 = distinct !{!27, !15, !28, !29, !30, !31}
!28 = !DILocation(line: 4, column: 13, scope: !9)
!29 = !{!"llvm.loop.mustprogress"}
!30 = !{!"llvm.loop.isvectorized", i32 1}
!31 = !{!"llvm.loop.unroll.runtime.disable"}
!32 = !DILocation(line: 3, column: 3, scope: !33)
!33 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 2050)
!34 = !DILocation(line: 5, column: 1, scope: !9)
!35 = !DILocation(line: 4, column: 5, scope: !9)
!36 = !DILocation(line: 4, column: 10, scope: !9)
!37 = distinct !{!37, !15, !28, !29, !31, !30}
