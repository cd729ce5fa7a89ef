; ModuleID = 'branches.c'
source_filename = "branches.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @pick(i32 noundef %0, i32 noundef %1) #0 !dbg !10 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store i32 %0, ptr %3, align 4
  store i32 %1, ptr %4, align 4
  store i32 0, ptr %5, align 4, !dbg !13
  %7 = load i32, ptr %3, align 4, !dbg !14
  %8 = icmp sgt i32 %7, 1, !dbg !15
  br i1 %8, label %9, label %12, !dbg !14

9:                                                ; preds = %2
  %10 = load i32, ptr %4, align 4, !dbg !16
  %11 = call i32 @work(i32 noundef %10), !dbg !17
  store i32 %11, ptr %5, align 4, !dbg !18
  br label %16, !dbg !19

12:                                               ; preds = %2
  %13 = load i32, ptr %4, align 4, !dbg !20
  %14 = add nsw i32 %13, 1, !dbg !21
  %15 = call i32 @work(i32 noundef %14), !dbg !22
  store i32 %15, ptr %5, align 4, !dbg !23
  br label %16

16:                                               ; preds = %12, %9
  store i32 0, ptr %6, align 4, !dbg !24
  br label %17, !dbg !25

17:                                               ; preds = %26, %16
  %18 = load i32, ptr %6, align 4, !dbg !26
  %19 = load i32, ptr %4, align 4, !dbg !27
  %20 = icmp slt i32 %18, %19, !dbg !28
  br i1 %20, label %21, label %29, !dbg !29

21:                                               ; preds = %17
  %22 = load i32, ptr %6, align 4, !dbg !30
  %23 = call i32 @work(i32 noundef %22), !dbg !31
  %24 = load i32, ptr %5, align 4, !dbg !32
  %25 = add nsw i32 %24, %23, !dbg !32
  store i32 %25, ptr %5, align 4, !dbg !32
  br label %26, !dbg !33

26:                                               ; preds = %21
  %27 = load i32, ptr %6, align 4, !dbg !34
  %28 = add nsw i32 %27, 1, !dbg !34
  store i32 %28, ptr %6, align 4, !dbg !34
  br label %17, !dbg !29, !llvm.loop !35

29:                                               ; preds = %17
  %30 = load i32, ptr %3, align 4, !dbg !38
  switch i32 %30, label %39 [
    i32 0, label %31
    i32 1, label %35
    i32 2, label %35
  ], !dbg !39

31:                                               ; preds = %29
  %32 = call i32 @work(i32 noundef 1), !dbg !40
  %33 = load i32, ptr %5, align 4, !dbg !41
  %34 = add nsw i32 %33, %32, !dbg !41
  store i32 %34, ptr %5, align 4, !dbg !41
  br label %43, !dbg !42

35:                                               ; preds = %29, %29
  %36 = call i32 @work(i32 noundef 2), !dbg !43
  %37 = load i32, ptr %5, align 4, !dbg !44
  %38 = add nsw i32 %37, %36, !dbg !44
  store i32 %38, ptr %5, align 4, !dbg !44
  br label %43, !dbg !45

39:                                               ; preds = %29
  %40 = call i32 @work(i32 noundef 3), !dbg !46
  %41 = load i32, ptr %5, align 4, !dbg !47
  %42 = add nsw i32 %41, %40, !dbg !47
  store i32 %42, ptr %5, align 4, !dbg !47
  br label %43, !dbg !48

43:                                               ; preds = %39, %35, %31
  %44 = load i32, ptr %5, align 4, !dbg !49
  ret i32 %44, !dbg !50
}

declare i32 @work(i32 noundef) #1

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8}
!llvm.ident = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "branches.c", directory: "/work/main/lit/inputs", checksumkind: CSK_MD5, checksum: "0b5d8ed08439b447b70989fe95e37e52")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{i32 7, !"frame-pointer", i32 2}
!9 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!10 = distinct !DISubprogram(name: "pick", scope: !1, file: !1, line: 3, type: !11, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !12)
!12 = !{}
!13 = !DILocation(line: 4, column: 7, scope: !10)
!14 = !DILocation(line: 5, column: 7, scope: !10)
!15 = !DILocation(line: 5, column: 12, scope: !10)
!16 = !DILocation(line: 6, column: 14, scope: !10)
!17 = !DILocation(line: 6, column: 9, scope: !10)
!18 = !DILocation(line: 6, column: 7, scope: !10)
!19 = !DILocation(line: 6, column: 5, scope: !10)
!20 = !DILocation(line: 8, column: 14, scope: !10)
!21 = !DILocation(line: 8, column: 16, scope: !10)
!22 = !DILocation(line: 8, column: 9, scope: !10)
!23 = !DILocation(line: 8, column: 7, scope: !10)
!24 = !DILocation(line: 9, column: 12, scope: !10)
!25 = !DILocation(line: 9, column: 8, scope: !10)
!26 = !DILocation(line: 9, column: 19, scope: !10)
!27 = !DILocation(line: 9, column: 23, scope: !10)
!28 = !DILocation(line: 9, column: 21, scope: !10)
!29 = !DILocation(line: 9, column: 3, scope: !10)
!30 = !DILocation(line: 10, column: 15, scope: !10)
!31 = !DILocation(line: 10, column: 10, scope: !10)
!32 = !DILocation(line: 10, column: 7, scope: !10)
!33 = !DILocation(line: 10, column: 5, scope: !10)
!34 = !DILocation(line: 9, column: 27, scope: !10)
!35 = distinct !{!35, !29, !36, !37}
!36 = !DILocation(line: 10, column: 16, scope: !10)
!37 = !{!"llvm.loop.mustprogress"}
!38 = !DILocation(line: 11, column: 11, scope: !10)
!39 = !DILocation(line: 11, column: 3, scope: !10)
!40 = !DILocation(line: 12, column: 16, scope: !10)
!41 = !DILocation(line: 12, column: 13, scope: !10)
!42 = !DILocation(line: 12, column: 25, scope: !10)
!43 = !DILocation(line: 14, column: 16, scope: !10)
!44 = !DILocation(line: 14, column: 13, scope: !10)
!45 = !DILocation(line: 14, column: 25, scope: !10)
!46 = !DILocation(line: 15, column: 17, scope: !10)
!47 = !DILocation(line: 15, column: 14, scope: !10)
!48 = !DILocation(line: 16, column: 3, scope: !10)
!49 = !DILocation(line: 17, column: 10, scope: !10)
!50 = !DILocation(line: 17, column: 3, scope: !10)
