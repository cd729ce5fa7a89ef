; ModuleID = 'provenance.c' (generated: clang-19 -O0 -g -Xclang -disable-O0-optnone -fno-discard-value-names -S -emit-llvm provenance.c)
source_filename = "provenance.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.mesh = type { ptr, i32 }

@levels = dso_local global i32 0, align 4, !dbg !0
@.str = private unnamed_addr constant [2 x i8] c"n\00", align 1, !dbg !5

; Function Attrs: noinline nounwind uwtable
define dso_local void @init(ptr noundef %m, i32 noundef %n) #0 !dbg !20 {
entry:
  %m.addr = alloca ptr, align 8
  %n.addr = alloca i32, align 4
  store ptr %m, ptr %m.addr, align 8
    #dbg_declare(ptr %m.addr, !31, !DIExpression(), !32)
  store i32 %n, ptr %n.addr, align 4
    #dbg_declare(ptr %n.addr, !33, !DIExpression(), !34)
  %0 = load i32, ptr %n.addr, align 4, !dbg !35
  %mul = mul nsw i32 2, %0, !dbg !36
  %1 = load ptr, ptr %m.addr, align 8, !dbg !37
  %cells = getelementptr inbounds %struct.mesh, ptr %1, i32 0, i32 1, !dbg !38
  store i32 %mul, ptr %cells, align 8, !dbg !39
  ret void, !dbg !40
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @sweep(ptr noundef %m) #0 !dbg !41 {
entry:
  %m.addr = alloca ptr, align 8
  %s = alloca i32, align 4
  %i = alloca i32, align 4
  store ptr %m, ptr %m.addr, align 8
    #dbg_declare(ptr %m.addr, !44, !DIExpression(), !45)
    #dbg_declare(ptr %s, !46, !DIExpression(), !47)
  store i32 0, ptr %s, align 4, !dbg !47
    #dbg_declare(ptr %i, !48, !DIExpression(), !50)
  store i32 0, ptr %i, align 4, !dbg !50
  br label %for.cond, !dbg !51

for.cond:                                         ; preds = %for.inc, %entry
  %0 = load i32, ptr %i, align 4, !dbg !52
  %1 = load ptr, ptr %m.addr, align 8, !dbg !54
  %cells = getelementptr inbounds %struct.mesh, ptr %1, i32 0, i32 1, !dbg !55
  %2 = load i32, ptr %cells, align 8, !dbg !55
  %cmp = icmp slt i32 %0, %2, !dbg !56
  br i1 %cmp, label %for.body, label %for.end, !dbg !57

for.body:                                         ; preds = %for.cond
  %3 = load i32, ptr %i, align 4, !dbg !58
  %4 = load i32, ptr %s, align 4, !dbg !59
  %add = add nsw i32 %4, %3, !dbg !59
  store i32 %add, ptr %s, align 4, !dbg !59
  br label %for.inc, !dbg !60

for.inc:                                          ; preds = %for.body
  %5 = load i32, ptr %i, align 4, !dbg !61
  %inc = add nsw i32 %5, 1, !dbg !61
  store i32 %inc, ptr %i, align 4, !dbg !61
  br label %for.cond, !dbg !62, !llvm.loop !63

for.end:                                          ; preds = %for.cond
  %6 = load i32, ptr %s, align 4, !dbg !66
  ret i32 %6, !dbg !67
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @refine() #0 !dbg !68 {
entry:
  %s = alloca i32, align 4
  %l = alloca i32, align 4
    #dbg_declare(ptr %s, !71, !DIExpression(), !72)
  store i32 0, ptr %s, align 4, !dbg !72
    #dbg_declare(ptr %l, !73, !DIExpression(), !75)
  store i32 0, ptr %l, align 4, !dbg !75
  br label %for.cond, !dbg !76

for.cond:                                         ; preds = %for.inc, %entry
  %0 = load i32, ptr %l, align 4, !dbg !77
  %1 = load i32, ptr @levels, align 4, !dbg !79
  %cmp = icmp slt i32 %0, %1, !dbg !80
  br i1 %cmp, label %for.body, label %for.end, !dbg !81

for.body:                                         ; preds = %for.cond
  %2 = load i32, ptr %l, align 4, !dbg !82
  %3 = load i32, ptr %s, align 4, !dbg !83
  %add = add nsw i32 %3, %2, !dbg !83
  store i32 %add, ptr %s, align 4, !dbg !83
  br label %for.inc, !dbg !84

for.inc:                                          ; preds = %for.body
  %4 = load i32, ptr %l, align 4, !dbg !85
  %inc = add nsw i32 %4, 1, !dbg !85
  store i32 %inc, ptr %l, align 4, !dbg !85
  br label %for.cond, !dbg !86, !llvm.loop !87

for.end:                                          ; preds = %for.cond
  %5 = load i32, ptr %s, align 4, !dbg !89
  ret i32 %5, !dbg !90
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @main(i32 noundef %argc, ptr noundef %argv) #0 !dbg !91 {
entry:
  %retval = alloca i32, align 4
  %argc.addr = alloca i32, align 4
  %argv.addr = alloca ptr, align 8
  %n = alloca i32, align 4
  %m = alloca %struct.mesh, align 8
  store i32 0, ptr %retval, align 4
  store i32 %argc, ptr %argc.addr, align 4
    #dbg_declare(ptr %argc.addr, !96, !DIExpression(), !97)
  store ptr %argv, ptr %argv.addr, align 8
    #dbg_declare(ptr %argv.addr, !98, !DIExpression(), !99)
    #dbg_declare(ptr %n, !100, !DIExpression(), !101)
  %0 = load i32, ptr %argc.addr, align 4, !dbg !102
  %mul = mul nsw i32 %0, 10, !dbg !103
  store i32 %mul, ptr %n, align 4, !dbg !101
  call void @tp_register_variable(ptr noundef %n, i64 noundef 4, ptr noundef @.str), !dbg !104
  %1 = load i32, ptr %n, align 4, !dbg !105
  %cmp = icmp sgt i32 %1, 3, !dbg !107
  br i1 %cmp, label %if.then, label %if.end, !dbg !108

if.then:                                          ; preds = %entry
  %2 = load i32, ptr %n, align 4, !dbg !109
  store i32 %2, ptr @levels, align 4, !dbg !110
  br label %if.end, !dbg !111

if.end:                                           ; preds = %if.then, %entry
    #dbg_declare(ptr %m, !112, !DIExpression(), !113)
  %3 = load i32, ptr %n, align 4, !dbg !114
  call void @init(ptr noundef %m, i32 noundef %3), !dbg !115
  %call = call i32 @sweep(ptr noundef %m), !dbg !116
  %call1 = call i32 @refine(), !dbg !117
  %add = add nsw i32 %call, %call1, !dbg !118
  ret i32 %add, !dbg !119
}

declare void @tp_register_variable(ptr noundef, i64 noundef, ptr noundef) #1

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!12, !13, !14, !15, !16, !17, !18}
!llvm.ident = !{!19}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "levels", scope: !2, file: !3, line: 3, type: !11, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "provenance.c", directory: "/work/main/lit/inputs", checksumkind: CSK_MD5, checksum: "c0af1ce52955681aa58f5aa9f2133b4e")
!4 = !{!5, !0}
!5 = !DIGlobalVariableExpression(var: !6, expr: !DIExpression())
!6 = distinct !DIGlobalVariable(scope: null, file: !3, line: 10, type: !7, isLocal: true, isDefinition: true)
!7 = !DICompositeType(tag: DW_TAG_array_type, baseType: !8, size: 16, elements: !9)
!8 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!9 = !{!10}
!10 = !DISubrange(count: 2)
!11 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!12 = !{i32 7, !"Dwarf Version", i32 5}
!13 = !{i32 2, !"Debug Info Version", i32 3}
!14 = !{i32 1, !"wchar_size", i32 4}
!15 = !{i32 8, !"PIC Level", i32 2}
!16 = !{i32 7, !"PIE Level", i32 2}
!17 = !{i32 7, !"uwtable", i32 2}
!18 = !{i32 7, !"frame-pointer", i32 2}
!19 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!20 = distinct !DISubprogram(name: "init", scope: !3, file: !3, line: 5, type: !21, scopeLine: 5, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !30)
!21 = !DISubroutineType(types: !22)
!22 = !{null, !23, !11}
!23 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !24, size: 64)
!24 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "mesh", file: !3, line: 4, size: 128, elements: !25)
!25 = !{!26, !29}
!26 = !DIDerivedType(tag: DW_TAG_member, name: "u", scope: !24, file: !3, line: 4, baseType: !27, size: 64)
!27 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !28, size: 64)
!28 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!29 = !DIDerivedType(tag: DW_TAG_member, name: "cells", scope: !24, file: !3, line: 4, baseType: !11, size: 32, offset: 64)
!30 = !{}
!31 = !DILocalVariable(name: "m", arg: 1, scope: !20, file: !3, line: 5, type: !23)
!32 = !DILocation(line: 5, column: 24, scope: !20)
!33 = !DILocalVariable(name: "n", arg: 2, scope: !20, file: !3, line: 5, type: !11)
!34 = !DILocation(line: 5, column: 31, scope: !20)
!35 = !DILocation(line: 5, column: 51, scope: !20)
!36 = !DILocation(line: 5, column: 49, scope: !20)
!37 = !DILocation(line: 5, column: 36, scope: !20)
!38 = !DILocation(line: 5, column: 39, scope: !20)
!39 = !DILocation(line: 5, column: 45, scope: !20)
!40 = !DILocation(line: 5, column: 54, scope: !20)
!41 = distinct !DISubprogram(name: "sweep", scope: !3, file: !3, line: 6, type: !42, scopeLine: 6, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !30)
!42 = !DISubroutineType(types: !43)
!43 = !{!11, !23}
!44 = !DILocalVariable(name: "m", arg: 1, scope: !41, file: !3, line: 6, type: !23)
!45 = !DILocation(line: 6, column: 24, scope: !41)
!46 = !DILocalVariable(name: "s", scope: !41, file: !3, line: 6, type: !11)
!47 = !DILocation(line: 6, column: 33, scope: !41)
!48 = !DILocalVariable(name: "i", scope: !49, file: !3, line: 6, type: !11)
!49 = distinct !DILexicalBlock(scope: !41, file: !3, line: 6, column: 40)
!50 = !DILocation(line: 6, column: 49, scope: !49)
!51 = !DILocation(line: 6, column: 45, scope: !49)
!52 = !DILocation(line: 6, column: 56, scope: !53)
!53 = distinct !DILexicalBlock(scope: !49, file: !3, line: 6, column: 40)
!54 = !DILocation(line: 6, column: 60, scope: !53)
!55 = !DILocation(line: 6, column: 63, scope: !53)
!56 = !DILocation(line: 6, column: 58, scope: !53)
!57 = !DILocation(line: 6, column: 40, scope: !49)
!58 = !DILocation(line: 6, column: 80, scope: !53)
!59 = !DILocation(line: 6, column: 77, scope: !53)
!60 = !DILocation(line: 6, column: 75, scope: !53)
!61 = !DILocation(line: 6, column: 71, scope: !53)
!62 = !DILocation(line: 6, column: 40, scope: !53)
!63 = distinct !{!63, !57, !64, !65}
!64 = !DILocation(line: 6, column: 80, scope: !49)
!65 = !{!"llvm.loop.mustprogress"}
!66 = !DILocation(line: 6, column: 90, scope: !41)
!67 = !DILocation(line: 6, column: 83, scope: !41)
!68 = distinct !DISubprogram(name: "refine", scope: !3, file: !3, line: 7, type: !69, scopeLine: 7, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !30)
!69 = !DISubroutineType(types: !70)
!70 = !{!11}
!71 = !DILocalVariable(name: "s", scope: !68, file: !3, line: 7, type: !11)
!72 = !DILocation(line: 7, column: 24, scope: !68)
!73 = !DILocalVariable(name: "l", scope: !74, file: !3, line: 7, type: !11)
!74 = distinct !DILexicalBlock(scope: !68, file: !3, line: 7, column: 31)
!75 = !DILocation(line: 7, column: 40, scope: !74)
!76 = !DILocation(line: 7, column: 36, scope: !74)
!77 = !DILocation(line: 7, column: 47, scope: !78)
!78 = distinct !DILexicalBlock(scope: !74, file: !3, line: 7, column: 31)
!79 = !DILocation(line: 7, column: 51, scope: !78)
!80 = !DILocation(line: 7, column: 49, scope: !78)
!81 = !DILocation(line: 7, column: 31, scope: !74)
!82 = !DILocation(line: 7, column: 69, scope: !78)
!83 = !DILocation(line: 7, column: 66, scope: !78)
!84 = !DILocation(line: 7, column: 64, scope: !78)
!85 = !DILocation(line: 7, column: 60, scope: !78)
!86 = !DILocation(line: 7, column: 31, scope: !78)
!87 = distinct !{!87, !81, !88, !65}
!88 = !DILocation(line: 7, column: 69, scope: !74)
!89 = !DILocation(line: 7, column: 79, scope: !68)
!90 = !DILocation(line: 7, column: 72, scope: !68)
!91 = distinct !DISubprogram(name: "main", scope: !3, file: !3, line: 8, type: !92, scopeLine: 8, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !30)
!92 = !DISubroutineType(types: !93)
!93 = !{!11, !11, !94}
!94 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !95, size: 64)
!95 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !8, size: 64)
!96 = !DILocalVariable(name: "argc", arg: 1, scope: !91, file: !3, line: 8, type: !11)
!97 = !DILocation(line: 8, column: 14, scope: !91)
!98 = !DILocalVariable(name: "argv", arg: 2, scope: !91, file: !3, line: 8, type: !94)
!99 = !DILocation(line: 8, column: 27, scope: !91)
!100 = !DILocalVariable(name: "n", scope: !91, file: !3, line: 9, type: !11)
!101 = !DILocation(line: 9, column: 7, scope: !91)
!102 = !DILocation(line: 9, column: 11, scope: !91)
!103 = !DILocation(line: 9, column: 16, scope: !91)
!104 = !DILocation(line: 10, column: 3, scope: !91)
!105 = !DILocation(line: 11, column: 7, scope: !106)
!106 = distinct !DILexicalBlock(scope: !91, file: !3, line: 11, column: 7)
!107 = !DILocation(line: 11, column: 9, scope: !106)
!108 = !DILocation(line: 11, column: 7, scope: !91)
!109 = !DILocation(line: 11, column: 23, scope: !106)
!110 = !DILocation(line: 11, column: 21, scope: !106)
!111 = !DILocation(line: 11, column: 14, scope: !106)
!112 = !DILocalVariable(name: "m", scope: !91, file: !3, line: 12, type: !24)
!113 = !DILocation(line: 12, column: 15, scope: !91)
!114 = !DILocation(line: 13, column: 12, scope: !91)
!115 = !DILocation(line: 13, column: 3, scope: !91)
!116 = !DILocation(line: 14, column: 10, scope: !91)
!117 = !DILocation(line: 14, column: 22, scope: !91)
!118 = !DILocation(line: 14, column: 20, scope: !91)
!119 = !DILocation(line: 14, column: 3, scope: !91)
