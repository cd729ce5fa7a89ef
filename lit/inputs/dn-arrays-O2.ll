; ModuleID = 'dn-arrays.c' (generated, see dn-arrays.c)
source_filename = "dn-arrays.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.particle = type { double, double, double }
%struct.mixed = type { i32, float }

@scalar_global = dso_local local_unnamed_addr global float 1.000000e+00, align 4, !dbg !0
@stack_and_vla.hist = internal unnamed_addr global [8 x float] zeroinitializer, align 16, !dbg !14
@coef = internal unnamed_addr constant [3 x double] [double 2.500000e-01, double 5.000000e-01, double 2.500000e-01], align 16, !dbg !62
@grid = dso_local local_unnamed_addr global [64 x [64 x float]] zeroinitializer, align 16, !dbg !38
@parts = dso_local local_unnamed_addr global [16 x %struct.particle] zeroinitializer, align 16, !dbg !43
@mixes = dso_local local_unnamed_addr global [4 x %struct.mixed] zeroinitializer, align 16, !dbg !53

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: write) uwtable
define dso_local void @fill(ptr nocapture noundef writeonly %0, i32 noundef %1, double noundef %2) local_unnamed_addr #0 !dbg !75 {
    #dbg_value(ptr %0, !79, !DIExpression(), !84)
    #dbg_value(i32 %1, !80, !DIExpression(), !84)
    #dbg_value(double %2, !81, !DIExpression(), !84)
    #dbg_value(i32 0, !82, !DIExpression(), !85)
  %4 = icmp sgt i32 %1, 0, !dbg !86
  br i1 %4, label %5, label %29, !dbg !88

5:                                                ; preds = %3
  %6 = zext nneg i32 %1 to i64, !dbg !86
  %7 = icmp ult i32 %1, 4, !dbg !88
  br i1 %7, label %8, label %10, !dbg !88

8:                                                ; preds = %27, %5
  %9 = phi i64 [ 0, %5 ], [ %11, %27 ]
  br label %30, !dbg !88

10:                                               ; preds = %5
  %11 = and i64 %6, 2147483644, !dbg !88
  %12 = insertelement <2 x double> poison, double %2, i64 0, !dbg !88
  %13 = shufflevector <2 x double> %12, <2 x double> poison, <2 x i32> zeroinitializer, !dbg !88
  br label %14, !dbg !88

14:                                               ; preds = %14, %10
  %15 = phi i64 [ 0, %10 ], [ %24, %14 ], !dbg !89
  %16 = phi <2 x i32> [ <i32 0, i32 1>, %10 ], [ %25, %14 ], !dbg !90
  %17 = add <2 x i32> %16, <i32 2, i32 2>, !dbg !90
  %18 = uitofp <2 x i32> %16 to <2 x double>, !dbg !90
  %19 = uitofp <2 x i32> %17 to <2 x double>, !dbg !90
  %20 = fmul <2 x double> %13, %18, !dbg !91
  %21 = fmul <2 x double> %13, %19, !dbg !91
  %22 = getelementptr inbounds double, ptr %0, i64 %15, !dbg !92
  %23 = getelementptr inbounds i8, ptr %22, i64 16, !dbg !93
  store <2 x double> %20, ptr %22, align 8, !dbg !93, !tbaa !94
  store <2 x double> %21, ptr %23, align 8, !dbg !93, !tbaa !94
  %24 = add nuw i64 %15, 4, !dbg !89
  %25 = add <2 x i32> %16, <i32 4, i32 4>, !dbg !90
  %26 = icmp eq i64 %24, %11, !dbg !89
  br i1 %26, label %27, label %14, !dbg !89, !llvm.loop !98

27:                                               ; preds = %14
  %28 = icmp eq i64 %11, %6, !dbg !88
  br i1 %28, label %29, label %8, !dbg !88

29:                                               ; preds = %30, %27, %3
  ret void, !dbg !103

30:                                               ; preds = %8, %30
  %31 = phi i64 [ %36, %30 ], [ %9, %8 ]
    #dbg_value(i64 %31, !82, !DIExpression(), !85)
  %32 = trunc nuw nsw i64 %31 to i32, !dbg !90
  %33 = uitofp nneg i32 %32 to double, !dbg !90
  %34 = fmul double %33, %2, !dbg !91
  %35 = getelementptr inbounds double, ptr %0, i64 %31, !dbg !92
  store double %34, ptr %35, align 8, !dbg !93, !tbaa !94
  %36 = add nuw nsw i64 %31, 1, !dbg !89
    #dbg_value(i64 %36, !82, !DIExpression(), !85)
  %37 = icmp eq i64 %36, %6, !dbg !86
  br i1 %37, label %29, label %30, !dbg !88, !llvm.loop !104
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nofree noinline norecurse nosync nounwind uwtable
define dso_local double @stack_and_vla(i32 noundef %0) local_unnamed_addr #2 !dbg !16 {
  %2 = alloca [32 x double], align 16, !DIAssignID !105
    #dbg_assign(i1 undef, !21, !DIExpression(), !105, ptr %2, !DIExpression(), !106)
    #dbg_value(i32 %0, !20, !DIExpression(), !106)
  call void @llvm.lifetime.start.p0(i64 256, ptr nonnull %2) #12, !dbg !107
  %3 = zext i32 %0 to i64, !dbg !108
  %4 = tail call ptr @llvm.stacksave.p0(), !dbg !108
  %5 = alloca double, i64 %3, align 16, !dbg !108
    #dbg_value(i64 %3, !25, !DIExpression(), !106)
    #dbg_declare(ptr %5, !27, !DIExpression(), !109)
    #dbg_value(i32 0, !31, !DIExpression(), !110)
  br label %46, !dbg !111

6:                                                ; preds = %46
    #dbg_value(i32 0, !33, !DIExpression(), !112)
  %7 = icmp sgt i32 %0, 0, !dbg !113
  br i1 %7, label %8, label %76, !dbg !115

8:                                                ; preds = %6
  %9 = icmp ult i32 %0, 4, !dbg !115
  %10 = add nsw i64 %3, -33, !dbg !115
  %11 = icmp ult i64 %10, -32, !dbg !115
  %12 = select i1 %9, i1 true, i1 %11, !dbg !115
  br i1 %12, label %13, label %31, !dbg !115

13:                                               ; preds = %44, %8
  %14 = phi i64 [ 0, %8 ], [ %32, %44 ]
  %15 = and i64 %3, 3, !dbg !115
  %16 = icmp eq i64 %15, 0, !dbg !115
  br i1 %16, label %27, label %17, !dbg !115

17:                                               ; preds = %13, %17
  %18 = phi i64 [ %24, %17 ], [ %14, %13 ]
  %19 = phi i64 [ %25, %17 ], [ 0, %13 ]
    #dbg_value(i64 %18, !33, !DIExpression(), !112)
  %20 = and i64 %18, 31, !dbg !116
  %21 = getelementptr inbounds [32 x double], ptr %2, i64 0, i64 %20, !dbg !117
  %22 = load double, ptr %21, align 8, !dbg !117, !tbaa !94
  %23 = getelementptr inbounds double, ptr %5, i64 %18, !dbg !118
  store double %22, ptr %23, align 8, !dbg !119, !tbaa !94
  %24 = add nuw nsw i64 %18, 1, !dbg !120
    #dbg_value(i64 %24, !33, !DIExpression(), !112)
  %25 = add i64 %19, 1, !dbg !115
  %26 = icmp eq i64 %25, %15, !dbg !115
  br i1 %26, label %27, label %17, !dbg !115, !llvm.loop !121

27:                                               ; preds = %17, %13
  %28 = phi i64 [ %14, %13 ], [ %24, %17 ]
  %29 = sub nsw i64 %14, %3, !dbg !115
  %30 = icmp ugt i64 %29, -4, !dbg !115
  br i1 %30, label %69, label %90, !dbg !115

31:                                               ; preds = %8
  %32 = and i64 %3, 60, !dbg !115
  br label %33, !dbg !115

33:                                               ; preds = %33, %31
  %34 = phi i64 [ 0, %31 ], [ %42, %33 ], !dbg !120
  %35 = and i64 %34, 28, !dbg !116
  %36 = getelementptr inbounds [32 x double], ptr %2, i64 0, i64 %35, !dbg !117
  %37 = getelementptr inbounds i8, ptr %36, i64 16, !dbg !117
  %38 = load <2 x double>, ptr %36, align 16, !dbg !117, !tbaa !94
  %39 = load <2 x double>, ptr %37, align 16, !dbg !117, !tbaa !94
  %40 = getelementptr inbounds double, ptr %5, i64 %34, !dbg !118
  %41 = getelementptr inbounds i8, ptr %40, i64 16, !dbg !119
  store <2 x double> %38, ptr %40, align 16, !dbg !119, !tbaa !94
  store <2 x double> %39, ptr %41, align 16, !dbg !119, !tbaa !94
  %42 = add nuw i64 %34, 4, !dbg !120
  %43 = icmp eq i64 %42, %32, !dbg !120
  br i1 %43, label %44, label %33, !dbg !120, !llvm.loop !123

44:                                               ; preds = %33
  %45 = icmp eq i64 %32, %3, !dbg !115
  br i1 %45, label %69, label %13, !dbg !115

46:                                               ; preds = %46, %1
  %47 = phi i64 [ 0, %1 ], [ %67, %46 ]
    #dbg_value(i64 %47, !31, !DIExpression(), !110)
  %48 = trunc nuw nsw i64 %47 to i32, !dbg !125
  %49 = trunc i64 %47 to i8, !dbg !125
  %50 = urem i8 %49, 3, !dbg !125
  %51 = zext nneg i8 %50 to i64, !dbg !127
  %52 = getelementptr inbounds [3 x double], ptr @coef, i64 0, i64 %51, !dbg !127
  %53 = load double, ptr %52, align 8, !dbg !127, !tbaa !94
  %54 = uitofp nneg i32 %48 to double, !dbg !128
  %55 = fmul double %53, %54, !dbg !129
  %56 = getelementptr inbounds [32 x double], ptr %2, i64 0, i64 %47, !dbg !130
  store double %55, ptr %56, align 16, !dbg !131, !tbaa !94
  %57 = or disjoint i64 %47, 1, !dbg !132
    #dbg_value(i64 %57, !31, !DIExpression(), !110)
  %58 = trunc nuw nsw i64 %57 to i32, !dbg !125
  %59 = trunc i64 %57 to i8, !dbg !125
  %60 = urem i8 %59, 3, !dbg !125
  %61 = zext nneg i8 %60 to i64, !dbg !127
  %62 = getelementptr inbounds [3 x double], ptr @coef, i64 0, i64 %61, !dbg !127
  %63 = load double, ptr %62, align 8, !dbg !127, !tbaa !94
  %64 = uitofp nneg i32 %58 to double, !dbg !128
  %65 = fmul double %63, %64, !dbg !129
  %66 = getelementptr inbounds [32 x double], ptr %2, i64 0, i64 %57, !dbg !130
  store double %65, ptr %66, align 8, !dbg !131, !tbaa !94
  %67 = add nuw nsw i64 %47, 2, !dbg !132
    #dbg_value(i64 %67, !31, !DIExpression(), !110)
  %68 = icmp eq i64 %67, 32, !dbg !133
  br i1 %68, label %6, label %46, !dbg !111, !llvm.loop !134

69:                                               ; preds = %27, %90, %44
  %70 = zext nneg i32 %0 to i64
  %71 = getelementptr double, ptr %5, i64 %70
  %72 = getelementptr i8, ptr %71, i64 -8
  %73 = load double, ptr %72, align 8, !dbg !136, !tbaa !94
  %74 = load double, ptr %5, align 16, !dbg !137, !tbaa !94
  %75 = fptrunc double %73 to float, !dbg !138
  br label %76, !dbg !136

76:                                               ; preds = %6, %69
  %77 = phi double [ %74, %69 ], [ undef, %6 ], !dbg !137
  %78 = phi float [ %75, %69 ], [ undef, %6 ], !dbg !136
  %79 = and i32 %0, 7, !dbg !139
  %80 = zext nneg i32 %79 to i64, !dbg !140
  %81 = getelementptr inbounds [8 x float], ptr @stack_and_vla.hist, i64 0, i64 %80, !dbg !140
  %82 = load float, ptr %81, align 4, !dbg !141, !tbaa !142
  %83 = fadd float %82, %78, !dbg !141
  store float %83, ptr %81, align 4, !dbg !141, !tbaa !142
  %84 = getelementptr inbounds i8, ptr %2, i64 248, !dbg !144
  %85 = load double, ptr %84, align 8, !dbg !144, !tbaa !94
  %86 = fadd double %77, %85, !dbg !145
  %87 = load float, ptr @stack_and_vla.hist, align 16, !dbg !146, !tbaa !142
  %88 = fpext float %87 to double, !dbg !146
  %89 = fadd double %86, %88, !dbg !147
  tail call void @llvm.stackrestore.p0(ptr %4), !dbg !148
  call void @llvm.lifetime.end.p0(i64 256, ptr nonnull %2) #12, !dbg !148
  ret double %89, !dbg !148

90:                                               ; preds = %27, %90
  %91 = phi i64 [ %111, %90 ], [ %28, %27 ]
    #dbg_value(i64 %91, !33, !DIExpression(), !112)
  %92 = and i64 %91, 31, !dbg !116
  %93 = getelementptr inbounds [32 x double], ptr %2, i64 0, i64 %92, !dbg !117
  %94 = load double, ptr %93, align 8, !dbg !117, !tbaa !94
  %95 = getelementptr inbounds double, ptr %5, i64 %91, !dbg !118
  store double %94, ptr %95, align 8, !dbg !119, !tbaa !94
  %96 = add nuw nsw i64 %91, 1, !dbg !120
    #dbg_value(i64 %96, !33, !DIExpression(), !112)
  %97 = and i64 %96, 31, !dbg !116
  %98 = getelementptr inbounds [32 x double], ptr %2, i64 0, i64 %97, !dbg !117
  %99 = load double, ptr %98, align 8, !dbg !117, !tbaa !94
  %100 = getelementptr inbounds double, ptr %5, i64 %96, !dbg !118
  store double %99, ptr %100, align 8, !dbg !119, !tbaa !94
  %101 = add nuw nsw i64 %91, 2, !dbg !120
    #dbg_value(i64 %101, !33, !DIExpression(), !112)
  %102 = and i64 %101, 31, !dbg !116
  %103 = getelementptr inbounds [32 x double], ptr %2, i64 0, i64 %102, !dbg !117
  %104 = load double, ptr %103, align 8, !dbg !117, !tbaa !94
  %105 = getelementptr inbounds double, ptr %5, i64 %101, !dbg !118
  store double %104, ptr %105, align 8, !dbg !119, !tbaa !94
  %106 = add nuw nsw i64 %91, 3, !dbg !120
    #dbg_value(i64 %106, !33, !DIExpression(), !112)
  %107 = and i64 %106, 31, !dbg !116
  %108 = getelementptr inbounds [32 x double], ptr %2, i64 0, i64 %107, !dbg !117
  %109 = load double, ptr %108, align 8, !dbg !117, !tbaa !94
  %110 = getelementptr inbounds double, ptr %5, i64 %106, !dbg !118
  store double %109, ptr %110, align 8, !dbg !119, !tbaa !94
  %111 = add nuw nsw i64 %91, 4, !dbg !120
    #dbg_value(i64 %111, !33, !DIExpression(), !112)
  %112 = icmp eq i64 %111, %3, !dbg !113
  br i1 %112, label %69, label %90, !dbg !115, !llvm.loop !149
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn
declare ptr @llvm.stacksave.p0() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn
declare void @llvm.stackrestore.p0(ptr) #3

; Function Attrs: nounwind uwtable
define dso_local range(i32 0, 2) i32 @main(i32 noundef %0, ptr nocapture noundef readonly %1) local_unnamed_addr #4 !dbg !150 {
    #dbg_value(i32 %0, !154, !DIExpression(), !169)
    #dbg_value(ptr %1, !155, !DIExpression(), !169)
  %3 = icmp sgt i32 %0, 1, !dbg !170
  br i1 %3, label %4, label %9, !dbg !171

4:                                                ; preds = %2
  %5 = getelementptr inbounds i8, ptr %1, i64 8, !dbg !172
  %6 = load ptr, ptr %5, align 8, !dbg !172, !tbaa !173
    #dbg_value(ptr %6, !175, !DIExpression(), !183)
  %7 = tail call i64 @strtol(ptr nocapture noundef nonnull %6, ptr noundef null, i32 noundef 10) #12, !dbg !185
  %8 = trunc i64 %7 to i32, !dbg !186
  br label %9, !dbg !171

9:                                                ; preds = %2, %4
  %10 = phi i32 [ %8, %4 ], [ 64, %2 ], !dbg !171
    #dbg_value(i32 %10, !156, !DIExpression(), !169)
  %11 = mul nsw i32 %10, %10, !dbg !187
  %12 = zext nneg i32 %11 to i64, !dbg !188
  %13 = shl nuw nsw i64 %12, 2, !dbg !189
  %14 = tail call noalias ptr @malloc(i64 noundef %13) #13, !dbg !190
    #dbg_value(ptr %14, !157, !DIExpression(), !169)
  %15 = tail call noalias ptr @calloc(i64 noundef %12, i64 noundef 4) #14, !dbg !191
    #dbg_value(ptr %15, !159, !DIExpression(), !169)
    #dbg_value(i32 %10, !160, !DIExpression(DW_OP_LLVM_fragment, 0, 32), !169)
  %16 = sext i32 %10 to i64, !dbg !192
  %17 = shl nsw i64 %16, 3, !dbg !193
  %18 = tail call noalias ptr @malloc(i64 noundef %17) #13, !dbg !194
    #dbg_value(ptr %18, !160, !DIExpression(DW_OP_LLVM_fragment, 64, 64), !169)
  %19 = tail call noalias ptr @malloc(i64 noundef %17) #13, !dbg !195
    #dbg_value(ptr %19, !165, !DIExpression(), !169)
    #dbg_value(i32 0, !166, !DIExpression(), !196)
  %20 = icmp sgt i32 %10, 0, !dbg !197
  br i1 %20, label %21, label %43, !dbg !199

21:                                               ; preds = %9
  %22 = zext nneg i32 %10 to i64, !dbg !197
  %23 = icmp ult i32 %10, 4, !dbg !199
  br i1 %23, label %24, label %26, !dbg !199

24:                                               ; preds = %41, %21
  %25 = phi i64 [ 0, %21 ], [ %27, %41 ]
  br label %140, !dbg !199

26:                                               ; preds = %21
  %27 = and i64 %22, 2147483644, !dbg !199
  br label %28, !dbg !199

28:                                               ; preds = %28, %26
  %29 = phi i64 [ 0, %26 ], [ %38, %28 ], !dbg !200
  %30 = phi <2 x i32> [ <i32 0, i32 1>, %26 ], [ %39, %28 ], !dbg !201
  %31 = add <2 x i32> %30, <i32 2, i32 2>, !dbg !201
  %32 = uitofp <2 x i32> %30 to <2 x double>, !dbg !201
  %33 = uitofp <2 x i32> %31 to <2 x double>, !dbg !201
  %34 = fmul <2 x double> %32, <double 5.000000e-01, double 5.000000e-01>, !dbg !202
  %35 = fmul <2 x double> %33, <double 5.000000e-01, double 5.000000e-01>, !dbg !202
  %36 = getelementptr inbounds double, ptr %19, i64 %29, !dbg !203
  %37 = getelementptr inbounds i8, ptr %36, i64 16, !dbg !204
  store <2 x double> %34, ptr %36, align 8, !dbg !204, !tbaa !94
  store <2 x double> %35, ptr %37, align 8, !dbg !204, !tbaa !94
  %38 = add nuw i64 %29, 4, !dbg !200
  %39 = add <2 x i32> %30, <i32 4, i32 4>, !dbg !201
  %40 = icmp eq i64 %38, %27, !dbg !200
  br i1 %40, label %41, label %28, !dbg !200, !llvm.loop !205

41:                                               ; preds = %28
  %42 = icmp eq i64 %27, %22, !dbg !199
  br i1 %42, label %43, label %24, !dbg !199

43:                                               ; preds = %140, %41, %9
  tail call void @fill(ptr noundef %18, i32 noundef %10, double noundef 2.000000e+00), !dbg !207
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 4 %14, ptr align 4 %15, i64 %13, i1 false), !dbg !208
  %44 = shl nsw i32 %10, 1, !dbg !209
  %45 = mul nsw i32 %44, %10, !dbg !210
  %46 = sext i32 %45 to i64, !dbg !211
  %47 = shl nsw i64 %46, 2, !dbg !212
  %48 = tail call ptr @realloc(ptr noundef %14, i64 noundef %47) #15, !dbg !213
    #dbg_value(ptr %48, !157, !DIExpression(), !169)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !214), !dbg !217
  tail call void @llvm.experimental.noalias.scope.decl(metadata !218), !dbg !217
    #dbg_value(ptr %48, !220, !DIExpression(), !236)
    #dbg_value(ptr %15, !229, !DIExpression(), !236)
    #dbg_value(i32 %10, !230, !DIExpression(), !236)
    #dbg_value(i32 1, !231, !DIExpression(), !238)
  %49 = icmp sgt i32 %10, 2, !dbg !239
  br i1 %49, label %50, label %125, !dbg !240

50:                                               ; preds = %43
  %51 = add nsw i32 %10, -1
  %52 = zext nneg i32 %10 to i64, !dbg !240
  %53 = zext nneg i32 %51 to i64, !dbg !239
  %54 = add nsw i64 %53, -1, !dbg !240
  %55 = icmp ult i64 %54, 8
  %56 = and i64 %54, -8
  %57 = or disjoint i64 %56, 1
  %58 = icmp eq i64 %54, %56
  br label %59, !dbg !240

59:                                               ; preds = %104, %50
  %60 = phi i64 [ 1, %50 ], [ %63, %104 ]
    #dbg_value(i64 %60, !231, !DIExpression(), !238)
    #dbg_value(i32 1, !233, !DIExpression(), !241)
  %61 = add nsw i64 %60, -1
  %62 = mul nuw nsw i64 %61, %52
  %63 = add nuw nsw i64 %60, 1
  %64 = mul nuw nsw i64 %63, %52
  %65 = mul nuw nsw i64 %60, %52
  %66 = getelementptr float, ptr %48, i64 %62, !dbg !242
  %67 = getelementptr inbounds float, ptr %48, i64 %64, !dbg !242
  br i1 %55, label %68, label %70, !dbg !242

68:                                               ; preds = %103, %59
  %69 = phi i64 [ 1, %59 ], [ %57, %103 ]
  br label %106, !dbg !242

70:                                               ; preds = %59, %70
  %71 = phi i64 [ %101, %70 ], [ 0, %59 ]
  %72 = or disjoint i64 %71, 1, !dbg !242
  %73 = getelementptr float, ptr %66, i64 %72, !dbg !243
  %74 = getelementptr i8, ptr %73, i64 16, !dbg !243
  %75 = load <4 x float>, ptr %73, align 4, !dbg !243, !tbaa !142, !alias.scope !214, !noalias !218
  %76 = load <4 x float>, ptr %74, align 4, !dbg !243, !tbaa !142, !alias.scope !214, !noalias !218
  %77 = getelementptr inbounds float, ptr %67, i64 %72, !dbg !245
  %78 = getelementptr inbounds i8, ptr %77, i64 16, !dbg !245
  %79 = load <4 x float>, ptr %77, align 4, !dbg !245, !tbaa !142, !alias.scope !214, !noalias !218
  %80 = load <4 x float>, ptr %78, align 4, !dbg !245, !tbaa !142, !alias.scope !214, !noalias !218
  %81 = fadd <4 x float> %75, %79, !dbg !246
  %82 = fadd <4 x float> %76, %80, !dbg !246
  %83 = add nuw nsw i64 %72, %65, !dbg !247
  %84 = getelementptr float, ptr %48, i64 %83, !dbg !248
  %85 = getelementptr i8, ptr %84, i64 -4, !dbg !248
  %86 = getelementptr i8, ptr %84, i64 12, !dbg !248
  %87 = load <4 x float>, ptr %85, align 4, !dbg !248, !tbaa !142, !alias.scope !214, !noalias !218
  %88 = load <4 x float>, ptr %86, align 4, !dbg !248, !tbaa !142, !alias.scope !214, !noalias !218
  %89 = fadd <4 x float> %81, %87, !dbg !249
  %90 = fadd <4 x float> %82, %88, !dbg !249
  %91 = getelementptr i8, ptr %84, i64 4, !dbg !250
  %92 = getelementptr i8, ptr %84, i64 20, !dbg !250
  %93 = load <4 x float>, ptr %91, align 4, !dbg !250, !tbaa !142, !alias.scope !214, !noalias !218
  %94 = load <4 x float>, ptr %92, align 4, !dbg !250, !tbaa !142, !alias.scope !214, !noalias !218
  %95 = fadd <4 x float> %89, %93, !dbg !251
  %96 = fadd <4 x float> %90, %94, !dbg !251
  %97 = fmul <4 x float> %95, <float 2.500000e-01, float 2.500000e-01, float 2.500000e-01, float 2.500000e-01>, !dbg !252
  %98 = fmul <4 x float> %96, <float 2.500000e-01, float 2.500000e-01, float 2.500000e-01, float 2.500000e-01>, !dbg !252
  %99 = getelementptr inbounds float, ptr %15, i64 %83, !dbg !253
  %100 = getelementptr inbounds i8, ptr %99, i64 16, !dbg !254
  store <4 x float> %97, ptr %99, align 4, !dbg !254, !tbaa !142, !alias.scope !218, !noalias !214
  store <4 x float> %98, ptr %100, align 4, !dbg !254, !tbaa !142, !alias.scope !218, !noalias !214
  %101 = add nuw i64 %71, 8
  %102 = icmp eq i64 %101, %56
  br i1 %102, label %103, label %70, !llvm.loop !255

103:                                              ; preds = %70
  br i1 %58, label %104, label %68, !dbg !242

104:                                              ; preds = %106, %103
    #dbg_value(i64 %63, !231, !DIExpression(), !238)
  %105 = icmp eq i64 %63, %53, !dbg !239
  br i1 %105, label %125, label %59, !dbg !240, !llvm.loop !257

106:                                              ; preds = %68, %106
  %107 = phi i64 [ %123, %106 ], [ %69, %68 ]
    #dbg_value(i64 %107, !233, !DIExpression(), !241)
  %108 = getelementptr float, ptr %66, i64 %107, !dbg !243
  %109 = load float, ptr %108, align 4, !dbg !243, !tbaa !142, !alias.scope !214, !noalias !218
  %110 = getelementptr inbounds float, ptr %67, i64 %107, !dbg !245
  %111 = load float, ptr %110, align 4, !dbg !245, !tbaa !142, !alias.scope !214, !noalias !218
  %112 = fadd float %109, %111, !dbg !246
  %113 = add nuw nsw i64 %107, %65, !dbg !247
  %114 = getelementptr float, ptr %48, i64 %113, !dbg !248
  %115 = getelementptr i8, ptr %114, i64 -4, !dbg !248
  %116 = load float, ptr %115, align 4, !dbg !248, !tbaa !142, !alias.scope !214, !noalias !218
  %117 = fadd float %112, %116, !dbg !249
  %118 = getelementptr i8, ptr %114, i64 4, !dbg !250
  %119 = load float, ptr %118, align 4, !dbg !250, !tbaa !142, !alias.scope !214, !noalias !218
  %120 = fadd float %117, %119, !dbg !251
  %121 = fmul float %120, 2.500000e-01, !dbg !252
  %122 = getelementptr inbounds float, ptr %15, i64 %113, !dbg !253
  store float %121, ptr %122, align 4, !dbg !254, !tbaa !142, !alias.scope !218, !noalias !214
  %123 = add nuw nsw i64 %107, 1, !dbg !259
    #dbg_value(i64 %123, !233, !DIExpression(), !241)
  %124 = icmp eq i64 %123, %53, !dbg !260
  br i1 %124, label %104, label %106, !dbg !242, !llvm.loop !261

125:                                              ; preds = %104, %43
  %126 = tail call double @stack_and_vla(i32 noundef %10), !dbg !262
  %127 = load float, ptr getelementptr inbounds (i8, ptr @grid, i64 264), align 8, !dbg !263, !tbaa !142
  %128 = fpext float %127 to double, !dbg !263
  %129 = fadd double %126, %128, !dbg !264
  %130 = load double, ptr getelementptr inbounds (i8, ptr @parts, i64 80), align 16, !dbg !265, !tbaa !266
  %131 = fadd double %130, %129, !dbg !268
  %132 = getelementptr inbounds i8, ptr %18, i64 8, !dbg !269
  %133 = load double, ptr %132, align 8, !dbg !269, !tbaa !94
  %134 = fadd double %133, %131, !dbg !270
  %135 = getelementptr inbounds i8, ptr %19, i64 16, !dbg !271
  %136 = load double, ptr %135, align 8, !dbg !271, !tbaa !94
  %137 = fadd double %136, %134, !dbg !272
    #dbg_value(double %137, !168, !DIExpression(), !169)
  tail call void @free(ptr noundef %48) #12, !dbg !273
  tail call void @free(ptr noundef %15) #12, !dbg !274
  tail call void @free(ptr noundef %18) #12, !dbg !275
  tail call void @free(ptr noundef %19) #12, !dbg !276
  %138 = fcmp ogt double %137, 0.000000e+00, !dbg !277
  %139 = zext i1 %138 to i32, !dbg !277
  ret i32 %139, !dbg !278

140:                                              ; preds = %24, %140
  %141 = phi i64 [ %146, %140 ], [ %25, %24 ]
    #dbg_value(i64 %141, !166, !DIExpression(), !196)
  %142 = trunc nuw nsw i64 %141 to i32, !dbg !201
  %143 = uitofp nneg i32 %142 to double, !dbg !201
  %144 = fmul double %143, 5.000000e-01, !dbg !202
  %145 = getelementptr inbounds double, ptr %19, i64 %141, !dbg !203
  store double %144, ptr %145, align 8, !dbg !204, !tbaa !94
  %146 = add nuw nsw i64 %141, 1, !dbg !200
    #dbg_value(i64 %146, !166, !DIExpression(), !196)
  %147 = icmp eq i64 %146, %22, !dbg !197
  br i1 %147, label %43, label %140, !dbg !199, !llvm.loop !279
}

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite)
declare !dbg !280 noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr #5

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,zeroed") allocsize(0,1) memory(inaccessiblemem: readwrite)
declare !dbg !285 noalias noundef ptr @calloc(i64 noundef, i64 noundef) local_unnamed_addr #6

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #7

; Function Attrs: mustprogress nounwind willreturn allockind("realloc") allocsize(1) memory(argmem: readwrite, inaccessiblemem: readwrite)
declare !dbg !288 noalias noundef ptr @realloc(ptr allocptr nocapture noundef, i64 noundef) local_unnamed_addr #8

; Function Attrs: mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare !dbg !291 void @free(ptr allocptr nocapture noundef) local_unnamed_addr #9

; Function Attrs: mustprogress nofree nounwind willreturn
declare !dbg !294 i64 @strtol(ptr noundef readonly, ptr nocapture noundef, i32 noundef) local_unnamed_addr #10

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite)
declare void @llvm.experimental.noalias.scope.decl(metadata) #11

attributes #0 = { nofree noinline norecurse nosync nounwind memory(argmem: write) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nofree noinline norecurse nosync nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { mustprogress nocallback nofree nosync nounwind willreturn }
attributes #4 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { mustprogress nofree nounwind willreturn allockind("alloc,zeroed") allocsize(0,1) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #7 = { mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #8 = { mustprogress nounwind willreturn allockind("realloc") allocsize(1) memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #9 = { mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #10 = { mustprogress nofree nounwind willreturn "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #11 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite) }
attributes #12 = { nounwind }
attributes #13 = { nounwind allocsize(0) }
attributes #14 = { nounwind allocsize(0,1) }
attributes #15 = { nounwind allocsize(1) }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!67, !68, !69, !70, !71, !72, !73}
!llvm.ident = !{!74}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "scalar_global", scope: !2, file: !3, line: 11, type: !5, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !4, globals: !13, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "dn-arrays.c", directory: "/work/main/lit/inputs", checksumkind: CSK_MD5, checksum: "49aeb579fcc73f29fe9b777e053cfaf6")
!4 = !{!5, !6, !8, !9, !12}
!5 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!6 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !7, size: 64)
!7 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !10, size: 64)
!10 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !11, size: 64)
!11 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!12 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!13 = !{!0, !14, !38, !43, !53, !62}
!14 = !DIGlobalVariableExpression(var: !15, expr: !DIExpression())
!15 = distinct !DIGlobalVariable(name: "hist", scope: !16, file: !3, line: 29, type: !35, isLocal: true, isDefinition: true)
!16 = distinct !DISubprogram(name: "stack_and_vla", scope: !3, file: !3, line: 28, type: !17, scopeLine: 28, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !19)
!17 = !DISubroutineType(types: !18)
!18 = !{!7, !8}
!19 = !{!20, !21, !25, !27, !31, !33}
!20 = !DILocalVariable(name: "n", arg: 1, scope: !16, file: !3, line: 28, type: !8)
!21 = !DILocalVariable(name: "local", scope: !16, file: !3, line: 30, type: !22)
!22 = !DICompositeType(tag: DW_TAG_array_type, baseType: !7, size: 2048, elements: !23)
!23 = !{!24}
!24 = !DISubrange(count: 32)
!25 = !DILocalVariable(name: "__vla_expr0", scope: !16, type: !26, flags: DIFlagArtificial)
!26 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!27 = !DILocalVariable(name: "vla", scope: !16, file: !3, line: 31, type: !28)
!28 = !DICompositeType(tag: DW_TAG_array_type, baseType: !7, elements: !29)
!29 = !{!30}
!30 = !DISubrange(count: !25)
!31 = !DILocalVariable(name: "i", scope: !32, file: !3, line: 32, type: !8)
!32 = distinct !DILexicalBlock(scope: !16, file: !3, line: 32, column: 3)
!33 = !DILocalVariable(name: "i", scope: !34, file: !3, line: 34, type: !8)
!34 = distinct !DILexicalBlock(scope: !16, file: !3, line: 34, column: 3)
!35 = !DICompositeType(tag: DW_TAG_array_type, baseType: !5, size: 256, elements: !36)
!36 = !{!37}
!37 = !DISubrange(count: 8)
!38 = !DIGlobalVariableExpression(var: !39, expr: !DIExpression())
!39 = distinct !DIGlobalVariable(name: "grid", scope: !2, file: !3, line: 7, type: !40, isLocal: false, isDefinition: true)
!40 = !DICompositeType(tag: DW_TAG_array_type, baseType: !5, size: 131072, elements: !41)
!41 = !{!42, !42}
!42 = !DISubrange(count: 64)
!43 = !DIGlobalVariableExpression(var: !44, expr: !DIExpression())
!44 = distinct !DIGlobalVariable(name: "parts", scope: !2, file: !3, line: 10, type: !45, isLocal: false, isDefinition: true)
!45 = !DICompositeType(tag: DW_TAG_array_type, baseType: !46, size: 3072, elements: !51)
!46 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "particle", file: !3, line: 9, size: 192, elements: !47)
!47 = !{!48, !49, !50}
!48 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !46, file: !3, line: 9, baseType: !7, size: 64)
!49 = !DIDerivedType(tag: DW_TAG_member, name: "y", scope: !46, file: !3, line: 9, baseType: !7, size: 64, offset: 64)
!50 = !DIDerivedType(tag: DW_TAG_member, name: "z", scope: !46, file: !3, line: 9, baseType: !7, size: 64, offset: 128)
!51 = !{!52}
!52 = !DISubrange(count: 16)
!53 = !DIGlobalVariableExpression(var: !54, expr: !DIExpression())
!54 = distinct !DIGlobalVariable(name: "mixes", scope: !2, file: !3, line: 12, type: !55, isLocal: false, isDefinition: true)
!55 = !DICompositeType(tag: DW_TAG_array_type, baseType: !56, size: 256, elements: !60)
!56 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "mixed", file: !3, line: 12, size: 64, elements: !57)
!57 = !{!58, !59}
!58 = !DIDerivedType(tag: DW_TAG_member, name: "n", scope: !56, file: !3, line: 12, baseType: !8, size: 32)
!59 = !DIDerivedType(tag: DW_TAG_member, name: "v", scope: !56, file: !3, line: 12, baseType: !5, size: 32, offset: 32)
!60 = !{!61}
!61 = !DISubrange(count: 4)
!62 = !DIGlobalVariableExpression(var: !63, expr: !DIExpression())
!63 = distinct !DIGlobalVariable(name: "coef", scope: !2, file: !3, line: 8, type: !64, isLocal: true, isDefinition: true)
!64 = !DICompositeType(tag: DW_TAG_array_type, baseType: !7, size: 192, elements: !65)
!65 = !{!66}
!66 = !DISubrange(count: 3)
!67 = !{i32 7, !"Dwarf Version", i32 5}
!68 = !{i32 2, !"Debug Info Version", i32 3}
!69 = !{i32 1, !"wchar_size", i32 4}
!70 = !{i32 8, !"PIC Level", i32 2}
!71 = !{i32 7, !"PIE Level", i32 2}
!72 = !{i32 7, !"uwtable", i32 2}
!73 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!74 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!75 = distinct !DISubprogram(name: "fill", scope: !3, file: !3, line: 23, type: !76, scopeLine: 23, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !78)
!76 = !DISubroutineType(types: !77)
!77 = !{null, !6, !8, !7}
!78 = !{!79, !80, !81, !82}
!79 = !DILocalVariable(name: "p", arg: 1, scope: !75, file: !3, line: 23, type: !6)
!80 = !DILocalVariable(name: "n", arg: 2, scope: !75, file: !3, line: 23, type: !8)
!81 = !DILocalVariable(name: "v", arg: 3, scope: !75, file: !3, line: 23, type: !7)
!82 = !DILocalVariable(name: "i", scope: !83, file: !3, line: 24, type: !8)
!83 = distinct !DILexicalBlock(scope: !75, file: !3, line: 24, column: 3)
!84 = !DILocation(line: 0, scope: !75)
!85 = !DILocation(line: 0, scope: !83)
!86 = !DILocation(line: 24, column: 21, scope: !87)
!87 = distinct !DILexicalBlock(scope: !83, file: !3, line: 24, column: 3)
!88 = !DILocation(line: 24, column: 3, scope: !83)
!89 = !DILocation(line: 24, column: 27, scope: !87)
!90 = !DILocation(line: 25, column: 16, scope: !87)
!91 = !DILocation(line: 25, column: 14, scope: !87)
!92 = !DILocation(line: 25, column: 5, scope: !87)
!93 = !DILocation(line: 25, column: 10, scope: !87)
!94 = !{!95, !95, i64 0}
!95 = !{!"double", !96, i64 0}
!96 = !{!"omnipotent char", !97, i64 0}
!97 = !{!"Simple C/C++ TBAA"}
!98 = distinct !{!98, !88, !99, !100, !101, !102}
!99 = !DILocation(line: 25, column: 16, scope: !83)
!100 = !{!"llvm.loop.mustprogress"}
!101 = !{!"llvm.loop.isvectorized", i32 1}
!102 = !{!"llvm.loop.unroll.runtime.disable"}
!103 = !DILocation(line: 26, column: 1, scope: !75)
!104 = distinct !{!104, !88, !99, !100, !102, !101}
!105 = distinct !DIAssignID()
!106 = !DILocation(line: 0, scope: !16)
!107 = !DILocation(line: 30, column: 3, scope: !16)
!108 = !DILocation(line: 31, column: 3, scope: !16)
!109 = !DILocation(line: 31, column: 10, scope: !16)
!110 = !DILocation(line: 0, scope: !32)
!111 = !DILocation(line: 32, column: 3, scope: !32)
!112 = !DILocation(line: 0, scope: !34)
!113 = !DILocation(line: 34, column: 21, scope: !114)
!114 = distinct !DILexicalBlock(scope: !34, file: !3, line: 34, column: 3)
!115 = !DILocation(line: 34, column: 3, scope: !34)
!116 = !DILocation(line: 35, column: 22, scope: !114)
!117 = !DILocation(line: 35, column: 14, scope: !114)
!118 = !DILocation(line: 35, column: 5, scope: !114)
!119 = !DILocation(line: 35, column: 12, scope: !114)
!120 = !DILocation(line: 34, column: 27, scope: !114)
!121 = distinct !{!121, !122}
!122 = !{!"llvm.loop.unroll.disable"}
!123 = distinct !{!123, !115, !124, !100, !101, !102}
!124 = !DILocation(line: 35, column: 26, scope: !34)
!125 = !DILocation(line: 33, column: 23, scope: !126)
!126 = distinct !DILexicalBlock(scope: !32, file: !3, line: 32, column: 3)
!127 = !DILocation(line: 33, column: 16, scope: !126)
!128 = !DILocation(line: 33, column: 30, scope: !126)
!129 = !DILocation(line: 33, column: 28, scope: !126)
!130 = !DILocation(line: 33, column: 5, scope: !126)
!131 = !DILocation(line: 33, column: 14, scope: !126)
!132 = !DILocation(line: 32, column: 28, scope: !126)
!133 = !DILocation(line: 32, column: 21, scope: !126)
!134 = distinct !{!134, !111, !135, !100}
!135 = !DILocation(line: 33, column: 30, scope: !32)
!136 = !DILocation(line: 36, column: 25, scope: !16)
!137 = !DILocation(line: 37, column: 10, scope: !16)
!138 = !DILocation(line: 36, column: 18, scope: !16)
!139 = !DILocation(line: 36, column: 10, scope: !16)
!140 = !DILocation(line: 36, column: 3, scope: !16)
!141 = !DILocation(line: 36, column: 15, scope: !16)
!142 = !{!143, !143, i64 0}
!143 = !{!"float", !96, i64 0}
!144 = !DILocation(line: 37, column: 19, scope: !16)
!145 = !DILocation(line: 37, column: 17, scope: !16)
!146 = !DILocation(line: 37, column: 31, scope: !16)
!147 = !DILocation(line: 37, column: 29, scope: !16)
!148 = !DILocation(line: 38, column: 1, scope: !16)
!149 = distinct !{!149, !115, !124, !100, !101}
!150 = distinct !DISubprogram(name: "main", scope: !3, file: !3, line: 40, type: !151, scopeLine: 40, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !153)
!151 = !DISubroutineType(types: !152)
!152 = !{!8, !8, !9}
!153 = !{!154, !155, !156, !157, !159, !160, !165, !166, !168}
!154 = !DILocalVariable(name: "argc", arg: 1, scope: !150, file: !3, line: 40, type: !8)
!155 = !DILocalVariable(name: "argv", arg: 2, scope: !150, file: !3, line: 40, type: !9)
!156 = !DILocalVariable(name: "n", scope: !150, file: !3, line: 41, type: !8)
!157 = !DILocalVariable(name: "a", scope: !150, file: !3, line: 42, type: !158)
!158 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !5, size: 64)
!159 = !DILocalVariable(name: "b", scope: !150, file: !3, line: 43, type: !158)
!160 = !DILocalVariable(name: "f", scope: !150, file: !3, line: 44, type: !161)
!161 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "field", file: !3, line: 14, size: 128, elements: !162)
!162 = !{!163, !164}
!163 = !DIDerivedType(tag: DW_TAG_member, name: "n", scope: !161, file: !3, line: 14, baseType: !8, size: 32)
!164 = !DIDerivedType(tag: DW_TAG_member, name: "data", scope: !161, file: !3, line: 14, baseType: !6, size: 64, offset: 64)
!165 = !DILocalVariable(name: "raw", scope: !150, file: !3, line: 47, type: !12)
!166 = !DILocalVariable(name: "i", scope: !167, file: !3, line: 48, type: !8)
!167 = distinct !DILexicalBlock(scope: !150, file: !3, line: 48, column: 3)
!168 = !DILocalVariable(name: "s", scope: !150, file: !3, line: 54, type: !7)
!169 = !DILocation(line: 0, scope: !150)
!170 = !DILocation(line: 41, column: 16, scope: !150)
!171 = !DILocation(line: 41, column: 11, scope: !150)
!172 = !DILocation(line: 41, column: 27, scope: !150)
!173 = !{!174, !174, i64 0}
!174 = !{!"any pointer", !96, i64 0}
!175 = !DILocalVariable(name: "__nptr", arg: 1, scope: !176, file: !177, line: 362, type: !180)
!176 = distinct !DISubprogram(name: "atoi", scope: !177, file: !177, line: 362, type: !178, scopeLine: 363, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !182)
!177 = !DIFile(filename: "/usr/include/stdlib.h", directory: "", checksumkind: CSK_MD5, checksum: "4b47dc81a92f1fe77a152c0aac236718")
!178 = !DISubroutineType(types: !179)
!179 = !{!8, !180}
!180 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !181, size: 64)
!181 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !11)
!182 = !{!175}
!183 = !DILocation(line: 0, scope: !176, inlinedAt: !184)
!184 = distinct !DILocation(line: 41, column: 22, scope: !150)
!185 = !DILocation(line: 364, column: 16, scope: !176, inlinedAt: !184)
!186 = !DILocation(line: 364, column: 10, scope: !176, inlinedAt: !184)
!187 = !DILocation(line: 42, column: 23, scope: !150)
!188 = !DILocation(line: 42, column: 21, scope: !150)
!189 = !DILocation(line: 42, column: 27, scope: !150)
!190 = !DILocation(line: 42, column: 14, scope: !150)
!191 = !DILocation(line: 43, column: 14, scope: !150)
!192 = !DILocation(line: 46, column: 19, scope: !150)
!193 = !DILocation(line: 46, column: 21, scope: !150)
!194 = !DILocation(line: 46, column: 12, scope: !150)
!195 = !DILocation(line: 47, column: 15, scope: !150)
!196 = !DILocation(line: 0, scope: !167)
!197 = !DILocation(line: 48, column: 21, scope: !198)
!198 = distinct !DILexicalBlock(scope: !167, file: !3, line: 48, column: 3)
!199 = !DILocation(line: 48, column: 3, scope: !167)
!200 = !DILocation(line: 48, column: 27, scope: !198)
!201 = !DILocation(line: 49, column: 26, scope: !198)
!202 = !DILocation(line: 49, column: 28, scope: !198)
!203 = !DILocation(line: 49, column: 5, scope: !198)
!204 = !DILocation(line: 49, column: 24, scope: !198)
!205 = distinct !{!205, !199, !206, !100, !101, !102}
!206 = !DILocation(line: 49, column: 30, scope: !167)
!207 = !DILocation(line: 50, column: 3, scope: !150)
!208 = !DILocation(line: 51, column: 3, scope: !150)
!209 = !DILocation(line: 52, column: 20, scope: !150)
!210 = !DILocation(line: 52, column: 24, scope: !150)
!211 = !DILocation(line: 52, column: 18, scope: !150)
!212 = !DILocation(line: 52, column: 28, scope: !150)
!213 = !DILocation(line: 52, column: 7, scope: !150)
!214 = !{!215}
!215 = distinct !{!215, !216, !"sweep: argument 0"}
!216 = distinct !{!216, !"sweep"}
!217 = !DILocation(line: 53, column: 3, scope: !150)
!218 = !{!219}
!219 = distinct !{!219, !216, !"sweep: argument 1"}
!220 = !DILocalVariable(name: "src", arg: 1, scope: !221, file: !3, line: 16, type: !224)
!221 = distinct !DISubprogram(name: "sweep", scope: !3, file: !3, line: 16, type: !222, scopeLine: 16, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !228)
!222 = !DISubroutineType(types: !223)
!223 = !{null, !224, !227, !8}
!224 = !DIDerivedType(tag: DW_TAG_restrict_type, baseType: !225)
!225 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !226, size: 64)
!226 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !5)
!227 = !DIDerivedType(tag: DW_TAG_restrict_type, baseType: !158)
!228 = !{!220, !229, !230, !231, !233}
!229 = !DILocalVariable(name: "dst", arg: 2, scope: !221, file: !3, line: 16, type: !227)
!230 = !DILocalVariable(name: "n", arg: 3, scope: !221, file: !3, line: 16, type: !8)
!231 = !DILocalVariable(name: "i", scope: !232, file: !3, line: 17, type: !8)
!232 = distinct !DILexicalBlock(scope: !221, file: !3, line: 17, column: 3)
!233 = !DILocalVariable(name: "j", scope: !234, file: !3, line: 18, type: !8)
!234 = distinct !DILexicalBlock(scope: !235, file: !3, line: 18, column: 5)
!235 = distinct !DILexicalBlock(scope: !232, file: !3, line: 17, column: 3)
!236 = !DILocation(line: 0, scope: !221, inlinedAt: !237)
!237 = distinct !DILocation(line: 53, column: 3, scope: !150)
!238 = !DILocation(line: 0, scope: !232, inlinedAt: !237)
!239 = !DILocation(line: 17, column: 21, scope: !235, inlinedAt: !237)
!240 = !DILocation(line: 17, column: 3, scope: !232, inlinedAt: !237)
!241 = !DILocation(line: 0, scope: !234, inlinedAt: !237)
!242 = !DILocation(line: 18, column: 5, scope: !234, inlinedAt: !237)
!243 = !DILocation(line: 19, column: 33, scope: !244, inlinedAt: !237)
!244 = distinct !DILexicalBlock(scope: !234, file: !3, line: 18, column: 5)
!245 = !DILocation(line: 19, column: 56, scope: !244, inlinedAt: !237)
!246 = !DILocation(line: 19, column: 54, scope: !244, inlinedAt: !237)
!247 = !DILocation(line: 20, column: 43, scope: !244, inlinedAt: !237)
!248 = !DILocation(line: 20, column: 33, scope: !244, inlinedAt: !237)
!249 = !DILocation(line: 19, column: 77, scope: !244, inlinedAt: !237)
!250 = !DILocation(line: 20, column: 54, scope: !244, inlinedAt: !237)
!251 = !DILocation(line: 20, column: 52, scope: !244, inlinedAt: !237)
!252 = !DILocation(line: 19, column: 30, scope: !244, inlinedAt: !237)
!253 = !DILocation(line: 19, column: 7, scope: !244, inlinedAt: !237)
!254 = !DILocation(line: 19, column: 22, scope: !244, inlinedAt: !237)
!255 = distinct !{!255, !242, !256, !100, !101, !102}
!256 = !DILocation(line: 20, column: 72, scope: !234, inlinedAt: !237)
!257 = distinct !{!257, !240, !258, !100}
!258 = !DILocation(line: 20, column: 72, scope: !232, inlinedAt: !237)
!259 = !DILocation(line: 18, column: 33, scope: !244, inlinedAt: !237)
!260 = !DILocation(line: 18, column: 23, scope: !244, inlinedAt: !237)
!261 = distinct !{!261, !242, !256, !100, !102, !101}
!262 = !DILocation(line: 54, column: 14, scope: !150)
!263 = !DILocation(line: 54, column: 33, scope: !150)
!264 = !DILocation(line: 54, column: 31, scope: !150)
!265 = !DILocation(line: 54, column: 55, scope: !150)
!266 = !{!267, !95, i64 8}
!267 = !{!"particle", !95, i64 0, !95, i64 8, !95, i64 16}
!268 = !DILocation(line: 54, column: 44, scope: !150)
!269 = !DILocation(line: 54, column: 59, scope: !150)
!270 = !DILocation(line: 54, column: 57, scope: !150)
!271 = !DILocation(line: 54, column: 71, scope: !150)
!272 = !DILocation(line: 54, column: 69, scope: !150)
!273 = !DILocation(line: 55, column: 3, scope: !150)
!274 = !DILocation(line: 56, column: 3, scope: !150)
!275 = !DILocation(line: 57, column: 3, scope: !150)
!276 = !DILocation(line: 58, column: 3, scope: !150)
!277 = !DILocation(line: 59, column: 12, scope: !150)
!278 = !DILocation(line: 59, column: 3, scope: !150)
!279 = distinct !{!279, !199, !206, !100, !102, !101}
!280 = !DISubprogram(name: "malloc", scope: !177, file: !177, line: 553, type: !281, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!281 = !DISubroutineType(types: !282)
!282 = !{!12, !283}
!283 = !DIDerivedType(tag: DW_TAG_typedef, name: "size_t", file: !284, line: 18, baseType: !26)
!284 = !DIFile(filename: "/usr/lib/llvm-19/lib/clang/19/include/__stddef_size_t.h", directory: "", checksumkind: CSK_MD5, checksum: "2c44e821a2b1951cde2eb0fb2e656867")
!285 = !DISubprogram(name: "calloc", scope: !177, file: !177, line: 556, type: !286, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!286 = !DISubroutineType(types: !287)
!287 = !{!12, !283, !283}
!288 = !DISubprogram(name: "realloc", scope: !177, file: !177, line: 564, type: !289, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!289 = !DISubroutineType(types: !290)
!290 = !{!12, !12, !283}
!291 = !DISubprogram(name: "free", scope: !177, file: !177, line: 568, type: !292, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!292 = !DISubroutineType(types: !293)
!293 = !{null, !12}
!294 = !DISubprogram(name: "strtol", scope: !177, file: !177, line: 177, type: !295, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!295 = !DISubroutineType(types: !296)
!296 = !{!297, !298, !299, !8}
!297 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!298 = !DIDerivedType(tag: DW_TAG_restrict_type, baseType: !180)
!299 = !DIDerivedType(tag: DW_TAG_restrict_type, baseType: !9)
