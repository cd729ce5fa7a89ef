; ModuleID = 'matrix.cpp' (generated, see matrix.cpp)
source_filename = "matrix.cpp"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: mustprogress nofree norecurse nosync nounwind memory(write, argmem: readwrite, inaccessiblemem: none) uwtable
define dso_local void @_Z8init_cppR6matrixf(ptr nocapture noundef nonnull readonly align 8 dereferenceable(16) %0, float noundef %1) local_unnamed_addr #0 !dbg !9 {
  %3 = load i32, ptr %0, align 8, !tbaa !12
  %4 = icmp eq i32 %3, 0, !dbg !18
  br i1 %4, label %57, label %5, !dbg !20

5:                                                ; preds = %2
  %6 = getelementptr inbounds i8, ptr %0, i64 4
  %7 = load i32, ptr %6, align 4, !tbaa !21
  %8 = icmp eq i32 %7, 0
  %9 = getelementptr inbounds i8, ptr %0, i64 8
  %10 = load ptr, ptr %9, align 8
  %11 = zext i32 %7 to i64
  %12 = add nsw i64 %11, -1, !dbg !20
  %13 = icmp ult i32 %7, 12
  %14 = trunc i64 %12 to i32
  %15 = icmp ugt i64 %12, 4294967295
  %16 = and i64 %11, 4294967288
  %17 = insertelement <4 x float> poison, float %1, i64 0
  %18 = shufflevector <4 x float> %17, <4 x float> poison, <4 x i32> zeroinitializer
  %19 = icmp eq i64 %16, %11
  %20 = and i64 %11, 3
  %21 = icmp eq i64 %20, 0
  br label %22, !dbg !20

22:                                               ; preds = %5, %58
  %23 = phi i32 [ 0, %5 ], [ %59, %58 ]
  %24 = mul i32 %7, %23, !dbg !22
  br i1 %8, label %58, label %25, !dbg !22

25:                                               ; preds = %22
  %26 = mul i32 %7, %23
  br i1 %13, label %27, label %43, !dbg !22

27:                                               ; preds = %56, %43, %25
  %28 = phi i64 [ 0, %43 ], [ 0, %25 ], [ %16, %56 ]
  br i1 %21, label %39, label %29, !dbg !23

29:                                               ; preds = %27, %29
  %30 = phi i64 [ %36, %29 ], [ %28, %27 ]
  %31 = phi i64 [ %37, %29 ], [ 0, %27 ]
  %32 = trunc nuw nsw i64 %30 to i32, !dbg !24
  %33 = add i32 %26, %32, !dbg !24
  %34 = zext i32 %33 to i64, !dbg !27
  %35 = getelementptr inbounds float, ptr %10, i64 %34, !dbg !27
  store float %1, ptr %35, align 4, !dbg !28, !tbaa !29
  %36 = add nuw nsw i64 %30, 1, !dbg !31
  %37 = add i64 %31, 1, !dbg !22
  %38 = icmp eq i64 %37, %20, !dbg !22
  br i1 %38, label %39, label %29, !dbg !22, !llvm.loop !33

39:                                               ; preds = %29, %27
  %40 = phi i64 [ %28, %27 ], [ %36, %29 ]
  %41 = sub nsw i64 %28, %11, !dbg !23
  %42 = icmp ugt i64 %41, -4, !dbg !23
  br i1 %42, label %58, label %61, !dbg !23

43:                                               ; preds = %25
  %44 = xor i32 %24, -1, !dbg !22
  %45 = icmp ult i32 %44, %14, !dbg !22
  %46 = or i1 %45, %15, !dbg !22
  br i1 %46, label %27, label %47

47:                                               ; preds = %43, %47
  %48 = phi i64 [ %54, %47 ], [ 0, %43 ], !dbg !31
  %49 = trunc i64 %48 to i32, !dbg !22
  %50 = add i32 %26, %49, !dbg !35
  %51 = zext i32 %50 to i64, !dbg !37
  %52 = getelementptr inbounds float, ptr %10, i64 %51, !dbg !37
  %53 = getelementptr inbounds i8, ptr %52, i64 16, !dbg !38
  store <4 x float> %18, ptr %52, align 4, !dbg !38, !tbaa !29
  store <4 x float> %18, ptr %53, align 4, !dbg !38, !tbaa !29
  %54 = add nuw i64 %48, 8, !dbg !40
  %55 = icmp eq i64 %54, %16, !dbg !40
  br i1 %55, label %56, label %47, !dbg !40, !llvm.loop !42

56:                                               ; preds = %47
  br i1 %19, label %58, label %27, !dbg !47

57:                                               ; preds = %58, %2
  ret void, !dbg !49

58:                                               ; preds = %39, %61, %56, %22
  %59 = add nuw nsw i32 %23, 1, !dbg !50
  %60 = icmp eq i32 %59, %3, !dbg !18
  br i1 %60, label %57, label %22, !dbg !20, !llvm.loop !51

61:                                               ; preds = %39, %61
  %62 = phi i64 [ %82, %61 ], [ %40, %39 ]
  %63 = trunc nuw nsw i64 %62 to i32, !dbg !53
  %64 = add i32 %26, %63, !dbg !53
  %65 = zext i32 %64 to i64, !dbg !55
  %66 = getelementptr inbounds float, ptr %10, i64 %65, !dbg !55
  store float %1, ptr %66, align 4, !dbg !56, !tbaa !29
  %67 = trunc i64 %62 to i32, !dbg !53
  %68 = add i32 %67, 1, !dbg !53
  %69 = add i32 %26, %68, !dbg !53
  %70 = zext i32 %69 to i64, !dbg !55
  %71 = getelementptr inbounds float, ptr %10, i64 %70, !dbg !55
  store float %1, ptr %71, align 4, !dbg !56, !tbaa !29
  %72 = trunc i64 %62 to i32, !dbg !53
  %73 = add i32 %72, 2, !dbg !53
  %74 = add i32 %26, %73, !dbg !53
  %75 = zext i32 %74 to i64, !dbg !55
  %76 = getelementptr inbounds float, ptr %10, i64 %75, !dbg !55
  store float %1, ptr %76, align 4, !dbg !56, !tbaa !29
  %77 = trunc i64 %62 to i32, !dbg !53
  %78 = add i32 %77, 3, !dbg !53
  %79 = add i32 %26, %78, !dbg !53
  %80 = zext i32 %79 to i64, !dbg !55
  %81 = getelementptr inbounds float, ptr %10, i64 %80, !dbg !55
  store float %1, ptr %81, align 4, !dbg !56, !tbaa !29
  %82 = add nuw nsw i64 %62, 4, !dbg !58
  %83 = icmp eq i64 %82, %11, !dbg !60
  br i1 %83, label %58, label %61, !dbg !62, !llvm.loop !63
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none) uwtable
define dso_local noundef i32 @main(i32 noundef %0, ptr nocapture noundef readnone %1) local_unnamed_addr #2 !dbg !64 {
  %3 = alloca [64 x float], align 16
  call void @llvm.lifetime.start.p0(i64 256, ptr nonnull %3) #3, !dbg !65
  %4 = icmp eq i32 %0, 0, !dbg !66
  br i1 %4, label %119, label %5, !dbg !68

5:                                                ; preds = %2
  %6 = zext i32 %0 to i64, !dbg !69
  %7 = icmp ult i32 %0, 20, !dbg !69
  br i1 %7, label %70, label %8, !dbg !69

8:                                                ; preds = %5
  %9 = add nsw i64 %6, -1, !dbg !69
  %10 = icmp ugt i64 %9, 4294967295, !dbg !69
  %11 = insertelement <4 x ptr> poison, ptr %3, i64 0, !dbg !69
  %12 = shufflevector <4 x ptr> %11, <4 x ptr> poison, <4 x i32> zeroinitializer, !dbg !69
  %13 = getelementptr i8, <4 x ptr> %12, <4 x i64> <i64 24, i64 28, i64 20, i64 16>, !dbg !69
  %14 = shl nsw i64 %9, 5, !dbg !69
  %15 = getelementptr inbounds i8, ptr %3, i64 24, !dbg !69
  %16 = getelementptr i8, ptr %15, i64 %14, !dbg !69
  %17 = shl nsw i64 %9, 5, !dbg !69
  %18 = getelementptr inbounds i8, ptr %3, i64 28, !dbg !69
  %19 = getelementptr i8, ptr %18, i64 %17, !dbg !69
  %20 = shl nsw i64 %9, 5, !dbg !69
  %21 = getelementptr inbounds i8, ptr %3, i64 20, !dbg !69
  %22 = getelementptr i8, ptr %21, i64 %20, !dbg !69
  %23 = shl nsw i64 %9, 5, !dbg !69
  %24 = getelementptr inbounds i8, ptr %3, i64 16, !dbg !69
  %25 = getelementptr i8, ptr %24, i64 %23, !dbg !69
  %26 = insertelement <2 x ptr> poison, ptr %3, i64 0, !dbg !69
  %27 = shufflevector <2 x ptr> %26, <2 x ptr> poison, <2 x i32> zeroinitializer, !dbg !69
  %28 = getelementptr i8, <2 x ptr> %27, <2 x i64> <i64 12, i64 8>, !dbg !69
  %29 = shl nsw i64 %9, 5, !dbg !69
  %30 = getelementptr inbounds i8, ptr %3, i64 12, !dbg !69
  %31 = getelementptr i8, ptr %30, i64 %29, !dbg !69
  %32 = shl nsw i64 %9, 5, !dbg !69
  %33 = getelementptr inbounds i8, ptr %3, i64 8, !dbg !69
  %34 = getelementptr i8, ptr %33, i64 %32, !dbg !69
  %35 = getelementptr inbounds i8, ptr %3, i64 4, !dbg !69
  %36 = shl nsw i64 %9, 5, !dbg !69
  %37 = getelementptr i8, ptr %35, i64 %36, !dbg !69
  %38 = shl nsw i64 %9, 5, !dbg !69
  %39 = getelementptr i8, ptr %3, i64 %38, !dbg !69
  %40 = insertelement <8 x ptr> poison, ptr %16, i64 0, !dbg !69
  %41 = insertelement <8 x ptr> %40, ptr %19, i64 1, !dbg !69
  %42 = insertelement <8 x ptr> %41, ptr %22, i64 2, !dbg !69
  %43 = insertelement <8 x ptr> %42, ptr %25, i64 3, !dbg !69
  %44 = insertelement <8 x ptr> %43, ptr %31, i64 4, !dbg !69
  %45 = insertelement <8 x ptr> %44, ptr %34, i64 5, !dbg !69
  %46 = insertelement <8 x ptr> %45, ptr %37, i64 6, !dbg !69
  %47 = insertelement <8 x ptr> %46, ptr %39, i64 7, !dbg !69
  %48 = shufflevector <4 x ptr> %13, <4 x ptr> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>, !dbg !69
  %49 = shufflevector <2 x ptr> %28, <2 x ptr> poison, <8 x i32> <i32 0, i32 1, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>, !dbg !69
  %50 = shufflevector <8 x ptr> %48, <8 x ptr> %49, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 poison, i32 poison>, !dbg !69
  %51 = insertelement <8 x ptr> %50, ptr %35, i64 6, !dbg !69
  %52 = insertelement <8 x ptr> %51, ptr %3, i64 7, !dbg !69
  %53 = icmp ult <8 x ptr> %47, %52, !dbg !69
  %54 = bitcast <8 x i1> %53 to i8, !dbg !69
  %55 = icmp ne i8 %54, 0, !dbg !69
  %56 = or i1 %55, %10, !dbg !69
  br i1 %56, label %70, label %57

57:                                               ; preds = %8
  %58 = and i64 %6, 4294967294, !dbg !69
  %59 = getelementptr i8, ptr %3, i64 -28, !dbg !69
  br label %60, !dbg !69

60:                                               ; preds = %60, %57
  %61 = phi i64 [ 0, %57 ], [ %66, %60 ], !dbg !70
  %62 = shl i64 %61, 3, !dbg !69
  %63 = and i64 %62, 4294967280, !dbg !71
  %64 = or disjoint i64 %63, 7, !dbg !71
  %65 = getelementptr float, ptr %59, i64 %64, !dbg !74
  store <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, ptr %65, align 16, !dbg !76, !tbaa !29
  %66 = add nuw i64 %61, 2, !dbg !78
  %67 = icmp eq i64 %66, %58, !dbg !78
  br i1 %67, label %68, label %60, !dbg !78, !llvm.loop !80

68:                                               ; preds = %60
  %69 = icmp eq i64 %58, %6, !dbg !82
  br i1 %69, label %106, label %70, !dbg !82

70:                                               ; preds = %68, %8, %5
  %71 = phi i64 [ 0, %8 ], [ 0, %5 ], [ %58, %68 ]
  %72 = and i64 %6, 1, !dbg !69
  %73 = icmp eq i64 %72, 0, !dbg !69
  br i1 %73, label %83, label %74, !dbg !69

74:                                               ; preds = %70
  %75 = trunc nuw nsw i64 %71 to i32
  %76 = shl i32 %75, 3
  %77 = zext i32 %76 to i64, !dbg !84
  %78 = getelementptr inbounds float, ptr %3, i64 %77, !dbg !84
  store <4 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, ptr %78, align 16, !dbg !85, !tbaa !29
  %79 = or disjoint i32 %76, 4, !dbg !86
  %80 = zext i32 %79 to i64, !dbg !84
  %81 = getelementptr inbounds float, ptr %3, i64 %80, !dbg !84
  store <4 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, ptr %81, align 16, !dbg !85, !tbaa !29
  %82 = or disjoint i64 %71, 1, !dbg !70
  br label %83, !dbg !69

83:                                               ; preds = %74, %70
  %84 = phi i64 [ %71, %70 ], [ %82, %74 ]
  %85 = add nsw i64 %6, -1, !dbg !69
  %86 = icmp eq i64 %71, %85, !dbg !69
  br i1 %86, label %106, label %87, !dbg !69

87:                                               ; preds = %83, %87
  %88 = phi i64 [ %104, %87 ], [ %84, %83 ]
  %89 = trunc nuw nsw i64 %88 to i32
  %90 = shl i32 %89, 3
  %91 = zext i32 %90 to i64, !dbg !71
  %92 = getelementptr inbounds float, ptr %3, i64 %91, !dbg !71
  store <4 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, ptr %92, align 16, !dbg !76, !tbaa !29
  %93 = or disjoint i32 %90, 4, !dbg !87
  %94 = zext i32 %93 to i64, !dbg !71
  %95 = getelementptr inbounds float, ptr %3, i64 %94, !dbg !71
  store <4 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, ptr %95, align 16, !dbg !76, !tbaa !29
  %96 = trunc i64 %88 to i32
  %97 = shl i32 %96, 3
  %98 = add i32 %97, 8
  %99 = zext i32 %98 to i64, !dbg !71
  %100 = getelementptr inbounds float, ptr %3, i64 %99, !dbg !71
  store <4 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, ptr %100, align 16, !dbg !76, !tbaa !29
  %101 = or disjoint i32 %98, 4, !dbg !87
  %102 = zext i32 %101 to i64, !dbg !71
  %103 = getelementptr inbounds float, ptr %3, i64 %102, !dbg !71
  store <4 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, ptr %103, align 16, !dbg !76, !tbaa !29
  %104 = add nuw nsw i64 %88, 2, !dbg !78
  %105 = icmp eq i64 %104, %6, !dbg !88
  br i1 %105, label %106, label %87, !dbg !82, !llvm.loop !89

106:                                              ; preds = %83, %87, %68
  %107 = icmp sgt i32 %0, 1, !dbg !90
  br i1 %107, label %108, label %119, !dbg !94

108:                                              ; preds = %106, %108
  %109 = phi i32 [ %116, %108 ], [ 0, %106 ]
  %110 = phi i32 [ %117, %108 ], [ %0, %106 ]
  %111 = and i32 %110, 1, !dbg !95
  %112 = icmp eq i32 %111, 0, !dbg !97
  %113 = mul nuw nsw i32 %110, 3, !dbg !97
  %114 = add nuw nsw i32 %113, 1, !dbg !97
  %115 = lshr exact i32 %110, 1, !dbg !97
  %116 = add nuw nsw i32 %109, 1, !dbg !98
  %117 = select i1 %112, i32 %115, i32 %114, !dbg !100
  %118 = icmp ugt i32 %117, 1, !dbg !90
  br i1 %118, label %108, label %119, !dbg !94

119:                                              ; preds = %108, %2, %106
  %120 = phi i32 [ 0, %106 ], [ 0, %2 ], [ %116, %108 ], !dbg !101
  %121 = load float, ptr %3, align 16, !dbg !102, !tbaa !29
  %122 = fptosi float %121 to i32, !dbg !103
  %123 = add nsw i32 %120, %122, !dbg !104
  call void @llvm.lifetime.end.p0(i64 256, ptr nonnull %3) #3, !dbg !105
  ret i32 %123, !dbg !106
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind memory(write, argmem: readwrite, inaccessiblemem: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly, splitDebugInlining: false, debugInfoForProfiling: true, nameTableKind: None)
!1 = !DIFile(filename: "matrix.cpp", directory: "/work/main/lit/inputs", checksumkind: CSK_MD5, checksum: "a42624b9168f62204613cff31353c38e")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!9 = distinct !DISubprogram(name: "init_cpp", linkageName: "_Z8init_cppR6matrixf", scope: !1, file: !1, line: 12, type: !10, scopeLine: 12, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!10 = !DISubroutineType(types: !11)
!11 = !{}
!12 = !{!13, !14, i64 0}
!13 = !{!"_ZTS6matrix", !14, i64 0, !14, i64 4, !17, i64 8}
!14 = !{!"int", !15, i64 0}
!15 = !{!"omnipotent char", !16, i64 0}
!16 = !{!"Simple C++ TBAA"}
!17 = !{!"any pointer", !15, i64 0}
!18 = !DILocation(line: 13, column: 21, scope: !19)
!19 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 2)
!20 = !DILocation(line: 13, column: 3, scope: !19)
!21 = !{!13, !14, i64 4}
!22 = !DILocation(line: 14, column: 5, scope: !19)
!23 = !DILocation(line: 14, column: 5, scope: !9)
!24 = !DILocation(line: 7, column: 60, scope: !25, inlinedAt: !26)
!25 = distinct !DISubprogram(name: "at", linkageName: "_ZN6matrix2atEjj", scope: !1, file: !1, line: 7, type: !10, scopeLine: 7, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!26 = distinct !DILocation(line: 15, column: 9, scope: !9)
!27 = !DILocation(line: 7, column: 46, scope: !25, inlinedAt: !26)
!28 = !DILocation(line: 15, column: 18, scope: !9)
!29 = !{!30, !30, i64 0}
!30 = !{!"float", !15, i64 0}
!31 = !DILocation(line: 14, column: 42, scope: !32)
!32 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 4)
!33 = distinct !{!33, !34}
!34 = !{!"llvm.loop.unroll.disable"}
!35 = !DILocation(line: 7, column: 60, scope: !36, inlinedAt: !26)
!36 = !DILexicalBlockFile(scope: !25, file: !1, discriminator: 33)
!37 = !DILocation(line: 7, column: 46, scope: !36, inlinedAt: !26)
!38 = !DILocation(line: 15, column: 18, scope: !39)
!39 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 33)
!40 = !DILocation(line: 14, column: 42, scope: !41)
!41 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 2052)
!42 = distinct !{!42, !23, !43, !44, !45, !46}
!43 = !DILocation(line: 15, column: 20, scope: !9)
!44 = !{!"llvm.loop.mustprogress"}
!45 = !{!"llvm.loop.isvectorized", i32 1}
!46 = !{!"llvm.loop.unroll.runtime.disable"}
!47 = !DILocation(line: 14, column: 5, scope: !48)
!48 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 2050)
!49 = !DILocation(line: 16, column: 1, scope: !9)
!50 = !DILocation(line: 13, column: 37, scope: !32)
!51 = distinct !{!51, !52, !43, !44}
!52 = !DILocation(line: 13, column: 3, scope: !9)
!53 = !DILocation(line: 7, column: 60, scope: !54, inlinedAt: !26)
!54 = !DILexicalBlockFile(scope: !25, file: !1, discriminator: 17)
!55 = !DILocation(line: 7, column: 46, scope: !54, inlinedAt: !26)
!56 = !DILocation(line: 15, column: 18, scope: !57)
!57 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 17)
!58 = !DILocation(line: 14, column: 42, scope: !59)
!59 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 1028)
!60 = !DILocation(line: 14, column: 23, scope: !61)
!61 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 1026)
!62 = !DILocation(line: 14, column: 5, scope: !61)
!63 = distinct !{!63, !23, !43, !44, !45}
!64 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 24, type: !10, scopeLine: 24, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!65 = !DILocation(line: 25, column: 3, scope: !64)
!66 = !DILocation(line: 13, column: 21, scope: !19, inlinedAt: !67)
!67 = distinct !DILocation(line: 27, column: 3, scope: !64)
!68 = !DILocation(line: 13, column: 3, scope: !19, inlinedAt: !67)
!69 = !DILocation(line: 13, column: 3, scope: !9, inlinedAt: !67)
!70 = !DILocation(line: 13, column: 37, scope: !32, inlinedAt: !67)
!71 = !DILocation(line: 7, column: 46, scope: !72, inlinedAt: !73)
!72 = !DILexicalBlockFile(scope: !25, file: !1, discriminator: 65)
!73 = distinct !DILocation(line: 15, column: 9, scope: !9, inlinedAt: !67)
!74 = !DILocation(line: 7, column: 46, scope: !75, inlinedAt: !73)
!75 = !DILexicalBlockFile(scope: !25, file: !1, discriminator: 385)
!76 = !DILocation(line: 15, column: 18, scope: !77, inlinedAt: !67)
!77 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 65)
!78 = !DILocation(line: 13, column: 37, scope: !79, inlinedAt: !67)
!79 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 516)
!80 = distinct !{!80, !69, !81, !44, !45, !46}
!81 = !DILocation(line: 15, column: 20, scope: !9, inlinedAt: !67)
!82 = !DILocation(line: 13, column: 3, scope: !83, inlinedAt: !67)
!83 = !DILexicalBlockFile(scope: !9, file: !1, discriminator: 514)
!84 = !DILocation(line: 7, column: 46, scope: !36, inlinedAt: !73)
!85 = !DILocation(line: 15, column: 18, scope: !39, inlinedAt: !67)
!86 = !DILocation(line: 7, column: 60, scope: !36, inlinedAt: !73)
!87 = !DILocation(line: 7, column: 60, scope: !72, inlinedAt: !73)
!88 = !DILocation(line: 13, column: 21, scope: !83, inlinedAt: !67)
!89 = distinct !{!89, !69, !81, !44, !45}
!90 = !DILocation(line: 20, column: 12, scope: !91, inlinedAt: !93)
!91 = !DILexicalBlockFile(scope: !92, file: !1, discriminator: 2)
!92 = distinct !DISubprogram(name: "count", linkageName: "_ZL5counti", scope: !1, file: !1, line: 18, type: !10, scopeLine: 18, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!93 = distinct !DILocation(line: 28, column: 10, scope: !64)
!94 = !DILocation(line: 20, column: 3, scope: !91, inlinedAt: !93)
!95 = !DILocation(line: 20, column: 25, scope: !96, inlinedAt: !93)
!96 = !DILexicalBlockFile(scope: !92, file: !1, discriminator: 4)
!97 = !DILocation(line: 20, column: 23, scope: !96, inlinedAt: !93)
!98 = !DILocation(line: 20, column: 51, scope: !99, inlinedAt: !93)
!99 = !DILexicalBlockFile(scope: !92, file: !1, discriminator: 10)
!100 = !DILocation(line: 20, scope: !92, inlinedAt: !93)
!101 = !DILocation(line: 0, scope: !92, inlinedAt: !93)
!102 = !DILocation(line: 28, column: 31, scope: !64)
!103 = !DILocation(line: 28, column: 29, scope: !64)
!104 = !DILocation(line: 28, column: 22, scope: !64)
!105 = !DILocation(line: 29, column: 1, scope: !64)
!106 = !DILocation(line: 28, column: 3, scope: !64)
