; ModuleID = 'dn-arrays.c' (generated, see dn-arrays.c)
source_filename = "dn-arrays.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.particle = type { double, double, double }
%struct.mixed = type { i32, float }
%struct.field = type { i32, ptr }

@scalar_global = dso_local global float 1.000000e+00, align 4, !dbg !0
@stack_and_vla.hist = internal global [8 x float] zeroinitializer, align 16, !dbg !9
@coef = internal global [3 x double] [double 2.500000e-01, double 5.000000e-01, double 2.500000e-01], align 16, !dbg !43
@grid = dso_local global [64 x [64 x float]] zeroinitializer, align 16, !dbg !19
@parts = dso_local global [16 x %struct.particle] zeroinitializer, align 16, !dbg !24
@mixes = dso_local global [4 x %struct.mixed] zeroinitializer, align 16, !dbg !34

; Function Attrs: noinline nounwind optnone uwtable
define dso_local void @fill(ptr noundef %0, i32 noundef %1, double noundef %2) #0 !dbg !56 {
  %4 = alloca ptr, align 8
  %5 = alloca i32, align 4
  %6 = alloca double, align 8
  %7 = alloca i32, align 4
  store ptr %0, ptr %4, align 8
    #dbg_declare(ptr %4, !59, !DIExpression(), !60)
  store i32 %1, ptr %5, align 4
    #dbg_declare(ptr %5, !61, !DIExpression(), !62)
  store double %2, ptr %6, align 8
    #dbg_declare(ptr %6, !63, !DIExpression(), !64)
    #dbg_declare(ptr %7, !65, !DIExpression(), !67)
  store i32 0, ptr %7, align 4, !dbg !67
  br label %8, !dbg !68

8:                                                ; preds = %21, %3
  %9 = load i32, ptr %7, align 4, !dbg !69
  %10 = load i32, ptr %5, align 4, !dbg !71
  %11 = icmp slt i32 %9, %10, !dbg !72
  br i1 %11, label %12, label %24, !dbg !73

12:                                               ; preds = %8
  %13 = load double, ptr %6, align 8, !dbg !74
  %14 = load i32, ptr %7, align 4, !dbg !75
  %15 = sitofp i32 %14 to double, !dbg !75
  %16 = fmul double %13, %15, !dbg !76
  %17 = load ptr, ptr %4, align 8, !dbg !77
  %18 = load i32, ptr %7, align 4, !dbg !78
  %19 = sext i32 %18 to i64, !dbg !77
  %20 = getelementptr inbounds double, ptr %17, i64 %19, !dbg !77
  store double %16, ptr %20, align 8, !dbg !79
  br label %21, !dbg !77

21:                                               ; preds = %12
  %22 = load i32, ptr %7, align 4, !dbg !80
  %23 = add nsw i32 %22, 1, !dbg !80
  store i32 %23, ptr %7, align 4, !dbg !80
  br label %8, !dbg !81, !llvm.loop !82

24:                                               ; preds = %8
  ret void, !dbg !85
}

; Function Attrs: noinline nounwind optnone uwtable
define dso_local double @stack_and_vla(i32 noundef %0) #0 !dbg !11 {
  %2 = alloca i32, align 4
  %3 = alloca [32 x double], align 16
  %4 = alloca ptr, align 8
  %5 = alloca i64, align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
    #dbg_declare(ptr %2, !86, !DIExpression(), !87)
    #dbg_declare(ptr %3, !88, !DIExpression(), !92)
  %8 = load i32, ptr %2, align 4, !dbg !93
  %9 = zext i32 %8 to i64, !dbg !94
  %10 = call ptr @llvm.stacksave.p0(), !dbg !94
  store ptr %10, ptr %4, align 8, !dbg !94
  %11 = alloca double, i64 %9, align 16, !dbg !94
  store i64 %9, ptr %5, align 8, !dbg !94
    #dbg_declare(ptr %5, !95, !DIExpression(), !97)
    #dbg_declare(ptr %11, !98, !DIExpression(), !102)
    #dbg_declare(ptr %6, !103, !DIExpression(), !105)
  store i32 0, ptr %6, align 4, !dbg !105
  br label %12, !dbg !106

12:                                               ; preds = %27, %1
  %13 = load i32, ptr %6, align 4, !dbg !107
  %14 = icmp slt i32 %13, 32, !dbg !109
  br i1 %14, label %15, label %30, !dbg !110

15:                                               ; preds = %12
  %16 = load i32, ptr %6, align 4, !dbg !111
  %17 = srem i32 %16, 3, !dbg !112
  %18 = sext i32 %17 to i64, !dbg !113
  %19 = getelementptr inbounds [3 x double], ptr @coef, i64 0, i64 %18, !dbg !113
  %20 = load double, ptr %19, align 8, !dbg !113
  %21 = load i32, ptr %6, align 4, !dbg !114
  %22 = sitofp i32 %21 to double, !dbg !114
  %23 = fmul double %20, %22, !dbg !115
  %24 = load i32, ptr %6, align 4, !dbg !116
  %25 = sext i32 %24 to i64, !dbg !117
  %26 = getelementptr inbounds [32 x double], ptr %3, i64 0, i64 %25, !dbg !117
  store double %23, ptr %26, align 8, !dbg !118
  br label %27, !dbg !117

27:                                               ; preds = %15
  %28 = load i32, ptr %6, align 4, !dbg !119
  %29 = add nsw i32 %28, 1, !dbg !119
  store i32 %29, ptr %6, align 4, !dbg !119
  br label %12, !dbg !120, !llvm.loop !121

30:                                               ; preds = %12
    #dbg_declare(ptr %7, !123, !DIExpression(), !125)
  store i32 0, ptr %7, align 4, !dbg !125
  br label %31, !dbg !126

31:                                               ; preds = %44, %30
  %32 = load i32, ptr %7, align 4, !dbg !127
  %33 = load i32, ptr %2, align 4, !dbg !129
  %34 = icmp slt i32 %32, %33, !dbg !130
  br i1 %34, label %35, label %47, !dbg !131

35:                                               ; preds = %31
  %36 = load i32, ptr %7, align 4, !dbg !132
  %37 = srem i32 %36, 32, !dbg !133
  %38 = sext i32 %37 to i64, !dbg !134
  %39 = getelementptr inbounds [32 x double], ptr %3, i64 0, i64 %38, !dbg !134
  %40 = load double, ptr %39, align 8, !dbg !134
  %41 = load i32, ptr %7, align 4, !dbg !135
  %42 = sext i32 %41 to i64, !dbg !136
  %43 = getelementptr inbounds double, ptr %11, i64 %42, !dbg !136
  store double %40, ptr %43, align 8, !dbg !137
  br label %44, !dbg !136

44:                                               ; preds = %35
  %45 = load i32, ptr %7, align 4, !dbg !138
  %46 = add nsw i32 %45, 1, !dbg !138
  store i32 %46, ptr %7, align 4, !dbg !138
  br label %31, !dbg !139, !llvm.loop !140

47:                                               ; preds = %31
  %48 = load i32, ptr %2, align 4, !dbg !142
  %49 = sub nsw i32 %48, 1, !dbg !143
  %50 = sext i32 %49 to i64, !dbg !144
  %51 = getelementptr inbounds double, ptr %11, i64 %50, !dbg !144
  %52 = load double, ptr %51, align 8, !dbg !144
  %53 = fptrunc double %52 to float, !dbg !145
  %54 = load i32, ptr %2, align 4, !dbg !146
  %55 = and i32 %54, 7, !dbg !147
  %56 = sext i32 %55 to i64, !dbg !148
  %57 = getelementptr inbounds [8 x float], ptr @stack_and_vla.hist, i64 0, i64 %56, !dbg !148
  %58 = load float, ptr %57, align 4, !dbg !149
  %59 = fadd float %58, %53, !dbg !149
  store float %59, ptr %57, align 4, !dbg !149
  %60 = getelementptr inbounds double, ptr %11, i64 0, !dbg !150
  %61 = load double, ptr %60, align 16, !dbg !150
  %62 = getelementptr inbounds [32 x double], ptr %3, i64 0, i64 31, !dbg !151
  %63 = load double, ptr %62, align 8, !dbg !151
  %64 = fadd double %61, %63, !dbg !152
  %65 = load float, ptr @stack_and_vla.hist, align 16, !dbg !153
  %66 = fpext float %65 to double, !dbg !153
  %67 = fadd double %64, %66, !dbg !154
  %68 = load ptr, ptr %4, align 8, !dbg !155
  call void @llvm.stackrestore.p0(ptr %68), !dbg !155
  ret double %67, !dbg !155
}

; Function Attrs: nocallback nofree nosync nounwind willreturn
declare ptr @llvm.stacksave.p0() #1

; Function Attrs: nocallback nofree nosync nounwind willreturn
declare void @llvm.stackrestore.p0(ptr) #1

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @main(i32 noundef %0, ptr noundef %1) #0 !dbg !156 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca %struct.field, align 8
  %10 = alloca ptr, align 8
  %11 = alloca i32, align 4
  %12 = alloca double, align 8
  store i32 0, ptr %3, align 4
  store i32 %0, ptr %4, align 4
    #dbg_declare(ptr %4, !162, !DIExpression(), !163)
  store ptr %1, ptr %5, align 8
    #dbg_declare(ptr %5, !164, !DIExpression(), !165)
    #dbg_declare(ptr %6, !166, !DIExpression(), !167)
  %13 = load i32, ptr %4, align 4, !dbg !168
  %14 = icmp sgt i32 %13, 1, !dbg !169
  br i1 %14, label %15, label %20, !dbg !168

15:                                               ; preds = %2
  %16 = load ptr, ptr %5, align 8, !dbg !170
  %17 = getelementptr inbounds ptr, ptr %16, i64 1, !dbg !170
  %18 = load ptr, ptr %17, align 8, !dbg !170
  %19 = call i32 @atoi(ptr noundef %18) #8, !dbg !171
  br label %21, !dbg !168

20:                                               ; preds = %2
  br label %21, !dbg !168

21:                                               ; preds = %20, %15
  %22 = phi i32 [ %19, %15 ], [ 64, %20 ], !dbg !168
  store i32 %22, ptr %6, align 4, !dbg !167
    #dbg_declare(ptr %7, !172, !DIExpression(), !174)
  %23 = load i32, ptr %6, align 4, !dbg !175
  %24 = load i32, ptr %6, align 4, !dbg !176
  %25 = mul nsw i32 %23, %24, !dbg !177
  %26 = sext i32 %25 to i64, !dbg !175
  %27 = mul i64 %26, 4, !dbg !178
  %28 = call noalias ptr @malloc(i64 noundef %27) #9, !dbg !179
  store ptr %28, ptr %7, align 8, !dbg !174
    #dbg_declare(ptr %8, !180, !DIExpression(), !181)
  %29 = load i32, ptr %6, align 4, !dbg !182
  %30 = load i32, ptr %6, align 4, !dbg !183
  %31 = mul nsw i32 %29, %30, !dbg !184
  %32 = sext i32 %31 to i64, !dbg !182
  %33 = call noalias ptr @calloc(i64 noundef %32, i64 noundef 4) #10, !dbg !185
  store ptr %33, ptr %8, align 8, !dbg !181
    #dbg_declare(ptr %9, !186, !DIExpression(), !191)
  %34 = load i32, ptr %6, align 4, !dbg !192
  %35 = getelementptr inbounds %struct.field, ptr %9, i32 0, i32 0, !dbg !193
  store i32 %34, ptr %35, align 8, !dbg !194
  %36 = load i32, ptr %6, align 4, !dbg !195
  %37 = sext i32 %36 to i64, !dbg !195
  %38 = mul i64 %37, 8, !dbg !196
  %39 = call noalias ptr @malloc(i64 noundef %38) #9, !dbg !197
  %40 = getelementptr inbounds %struct.field, ptr %9, i32 0, i32 1, !dbg !198
  store ptr %39, ptr %40, align 8, !dbg !199
    #dbg_declare(ptr %10, !200, !DIExpression(), !202)
  %41 = load i32, ptr %6, align 4, !dbg !203
  %42 = sext i32 %41 to i64, !dbg !203
  %43 = mul i64 %42, 8, !dbg !204
  %44 = call noalias ptr @malloc(i64 noundef %43) #9, !dbg !205
  store ptr %44, ptr %10, align 8, !dbg !202
    #dbg_declare(ptr %11, !206, !DIExpression(), !208)
  store i32 0, ptr %11, align 4, !dbg !208
  br label %45, !dbg !209

45:                                               ; preds = %57, %21
  %46 = load i32, ptr %11, align 4, !dbg !210
  %47 = load i32, ptr %6, align 4, !dbg !212
  %48 = icmp slt i32 %46, %47, !dbg !213
  br i1 %48, label %49, label %60, !dbg !214

49:                                               ; preds = %45
  %50 = load i32, ptr %11, align 4, !dbg !215
  %51 = sitofp i32 %50 to double, !dbg !215
  %52 = fmul double %51, 5.000000e-01, !dbg !216
  %53 = load ptr, ptr %10, align 8, !dbg !217
  %54 = load i32, ptr %11, align 4, !dbg !218
  %55 = sext i32 %54 to i64, !dbg !219
  %56 = getelementptr inbounds double, ptr %53, i64 %55, !dbg !219
  store double %52, ptr %56, align 8, !dbg !220
  br label %57, !dbg !219

57:                                               ; preds = %49
  %58 = load i32, ptr %11, align 4, !dbg !221
  %59 = add nsw i32 %58, 1, !dbg !221
  store i32 %59, ptr %11, align 4, !dbg !221
  br label %45, !dbg !222, !llvm.loop !223

60:                                               ; preds = %45
  %61 = getelementptr inbounds %struct.field, ptr %9, i32 0, i32 1, !dbg !225
  %62 = load ptr, ptr %61, align 8, !dbg !225
  %63 = load i32, ptr %6, align 4, !dbg !226
  call void @fill(ptr noundef %62, i32 noundef %63, double noundef 2.000000e+00), !dbg !227
  %64 = load ptr, ptr %7, align 8, !dbg !228
  %65 = load ptr, ptr %8, align 8, !dbg !229
  %66 = load i32, ptr %6, align 4, !dbg !230
  %67 = load i32, ptr %6, align 4, !dbg !231
  %68 = mul nsw i32 %66, %67, !dbg !232
  %69 = sext i32 %68 to i64, !dbg !230
  %70 = mul i64 %69, 4, !dbg !233
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %64, ptr align 4 %65, i64 %70, i1 false), !dbg !234
  %71 = load ptr, ptr %7, align 8, !dbg !235
  %72 = load i32, ptr %6, align 4, !dbg !236
  %73 = mul nsw i32 2, %72, !dbg !237
  %74 = load i32, ptr %6, align 4, !dbg !238
  %75 = mul nsw i32 %73, %74, !dbg !239
  %76 = sext i32 %75 to i64, !dbg !240
  %77 = mul i64 %76, 4, !dbg !241
  %78 = call ptr @realloc(ptr noundef %71, i64 noundef %77) #11, !dbg !242
  store ptr %78, ptr %7, align 8, !dbg !243
  %79 = load ptr, ptr %7, align 8, !dbg !244
  %80 = load ptr, ptr %8, align 8, !dbg !245
  %81 = load i32, ptr %6, align 4, !dbg !246
  call void @sweep(ptr noundef %79, ptr noundef %80, i32 noundef %81), !dbg !247
    #dbg_declare(ptr %12, !248, !DIExpression(), !249)
  %82 = load i32, ptr %6, align 4, !dbg !250
  %83 = call double @stack_and_vla(i32 noundef %82), !dbg !251
  %84 = load float, ptr getelementptr inbounds ([64 x float], ptr getelementptr inbounds ([64 x [64 x float]], ptr @grid, i64 0, i64 1), i64 0, i64 2), align 8, !dbg !252
  %85 = fpext float %84 to double, !dbg !252
  %86 = fadd double %83, %85, !dbg !253
  %87 = load double, ptr getelementptr inbounds (%struct.particle, ptr getelementptr inbounds ([16 x %struct.particle], ptr @parts, i64 0, i64 3), i32 0, i32 1), align 8, !dbg !254
  %88 = fadd double %86, %87, !dbg !255
  %89 = getelementptr inbounds %struct.field, ptr %9, i32 0, i32 1, !dbg !256
  %90 = load ptr, ptr %89, align 8, !dbg !256
  %91 = getelementptr inbounds double, ptr %90, i64 1, !dbg !257
  %92 = load double, ptr %91, align 8, !dbg !257
  %93 = fadd double %88, %92, !dbg !258
  %94 = load ptr, ptr %10, align 8, !dbg !259
  %95 = getelementptr inbounds double, ptr %94, i64 2, !dbg !260
  %96 = load double, ptr %95, align 8, !dbg !260
  %97 = fadd double %93, %96, !dbg !261
  store double %97, ptr %12, align 8, !dbg !249
  %98 = load ptr, ptr %7, align 8, !dbg !262
  call void @free(ptr noundef %98) #12, !dbg !263
  %99 = load ptr, ptr %8, align 8, !dbg !264
  call void @free(ptr noundef %99) #12, !dbg !265
  %100 = getelementptr inbounds %struct.field, ptr %9, i32 0, i32 1, !dbg !266
  %101 = load ptr, ptr %100, align 8, !dbg !266
  call void @free(ptr noundef %101) #12, !dbg !267
  %102 = load ptr, ptr %10, align 8, !dbg !268
  call void @free(ptr noundef %102) #12, !dbg !269
  %103 = load double, ptr %12, align 8, !dbg !270
  %104 = fcmp ogt double %103, 0.000000e+00, !dbg !271
  %105 = zext i1 %104 to i32, !dbg !271
  ret i32 %105, !dbg !272
}

; Function Attrs: nounwind willreturn memory(read)
declare i32 @atoi(ptr noundef) #2

; Function Attrs: nounwind allocsize(0)
declare noalias ptr @malloc(i64 noundef) #3

; Function Attrs: nounwind allocsize(0,1)
declare noalias ptr @calloc(i64 noundef, i64 noundef) #4

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #5

; Function Attrs: nounwind allocsize(1)
declare ptr @realloc(ptr noundef, i64 noundef) #6

; Function Attrs: noinline nounwind optnone uwtable
define internal void @sweep(ptr noalias noundef %0, ptr noalias noundef %1, i32 noundef %2) #0 !dbg !273 {
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store ptr %0, ptr %4, align 8
    #dbg_declare(ptr %4, !280, !DIExpression(), !281)
  store ptr %1, ptr %5, align 8
    #dbg_declare(ptr %5, !282, !DIExpression(), !283)
  store i32 %2, ptr %6, align 4
    #dbg_declare(ptr %6, !284, !DIExpression(), !285)
    #dbg_declare(ptr %7, !286, !DIExpression(), !288)
  store i32 1, ptr %7, align 4, !dbg !288
  br label %9, !dbg !289

9:                                                ; preds = %77, %3
  %10 = load i32, ptr %7, align 4, !dbg !290
  %11 = load i32, ptr %6, align 4, !dbg !292
  %12 = sub nsw i32 %11, 1, !dbg !293
  %13 = icmp slt i32 %10, %12, !dbg !294
  br i1 %13, label %14, label %80, !dbg !295

14:                                               ; preds = %9
    #dbg_declare(ptr %8, !296, !DIExpression(), !298)
  store i32 1, ptr %8, align 4, !dbg !298
  br label %15, !dbg !299

15:                                               ; preds = %73, %14
  %16 = load i32, ptr %8, align 4, !dbg !300
  %17 = load i32, ptr %6, align 4, !dbg !302
  %18 = sub nsw i32 %17, 1, !dbg !303
  %19 = icmp slt i32 %16, %18, !dbg !304
  br i1 %19, label %20, label %76, !dbg !305

20:                                               ; preds = %15
  %21 = load ptr, ptr %4, align 8, !dbg !306
  %22 = load i32, ptr %7, align 4, !dbg !307
  %23 = sub nsw i32 %22, 1, !dbg !308
  %24 = load i32, ptr %6, align 4, !dbg !309
  %25 = mul nsw i32 %23, %24, !dbg !310
  %26 = load i32, ptr %8, align 4, !dbg !311
  %27 = add nsw i32 %25, %26, !dbg !312
  %28 = sext i32 %27 to i64, !dbg !306
  %29 = getelementptr inbounds float, ptr %21, i64 %28, !dbg !306
  %30 = load float, ptr %29, align 4, !dbg !306
  %31 = load ptr, ptr %4, align 8, !dbg !313
  %32 = load i32, ptr %7, align 4, !dbg !314
  %33 = add nsw i32 %32, 1, !dbg !315
  %34 = load i32, ptr %6, align 4, !dbg !316
  %35 = mul nsw i32 %33, %34, !dbg !317
  %36 = load i32, ptr %8, align 4, !dbg !318
  %37 = add nsw i32 %35, %36, !dbg !319
  %38 = sext i32 %37 to i64, !dbg !313
  %39 = getelementptr inbounds float, ptr %31, i64 %38, !dbg !313
  %40 = load float, ptr %39, align 4, !dbg !313
  %41 = fadd float %30, %40, !dbg !320
  %42 = load ptr, ptr %4, align 8, !dbg !321
  %43 = load i32, ptr %7, align 4, !dbg !322
  %44 = load i32, ptr %6, align 4, !dbg !323
  %45 = mul nsw i32 %43, %44, !dbg !324
  %46 = load i32, ptr %8, align 4, !dbg !325
  %47 = add nsw i32 %45, %46, !dbg !326
  %48 = sub nsw i32 %47, 1, !dbg !327
  %49 = sext i32 %48 to i64, !dbg !321
  %50 = getelementptr inbounds float, ptr %42, i64 %49, !dbg !321
  %51 = load float, ptr %50, align 4, !dbg !321
  %52 = fadd float %41, %51, !dbg !328
  %53 = load ptr, ptr %4, align 8, !dbg !329
  %54 = load i32, ptr %7, align 4, !dbg !330
  %55 = load i32, ptr %6, align 4, !dbg !331
  %56 = mul nsw i32 %54, %55, !dbg !332
  %57 = load i32, ptr %8, align 4, !dbg !333
  %58 = add nsw i32 %56, %57, !dbg !334
  %59 = add nsw i32 %58, 1, !dbg !335
  %60 = sext i32 %59 to i64, !dbg !329
  %61 = getelementptr inbounds float, ptr %53, i64 %60, !dbg !329
  %62 = load float, ptr %61, align 4, !dbg !329
  %63 = fadd float %52, %62, !dbg !336
  %64 = fmul float 2.500000e-01, %63, !dbg !337
  %65 = load ptr, ptr %5, align 8, !dbg !338
  %66 = load i32, ptr %7, align 4, !dbg !339
  %67 = load i32, ptr %6, align 4, !dbg !340
  %68 = mul nsw i32 %66, %67, !dbg !341
  %69 = load i32, ptr %8, align 4, !dbg !342
  %70 = add nsw i32 %68, %69, !dbg !343
  %71 = sext i32 %70 to i64, !dbg !338
  %72 = getelementptr inbounds float, ptr %65, i64 %71, !dbg !338
  store float %64, ptr %72, align 4, !dbg !344
  br label %73, !dbg !338

73:                                               ; preds = %20
  %74 = load i32, ptr %8, align 4, !dbg !345
  %75 = add nsw i32 %74, 1, !dbg !345
  store i32 %75, ptr %8, align 4, !dbg !345
  br label %15, !dbg !346, !llvm.loop !347

76:                                               ; preds = %15
  br label %77, !dbg !348

77:                                               ; preds = %76
  %78 = load i32, ptr %7, align 4, !dbg !349
  %79 = add nsw i32 %78, 1, !dbg !349
  store i32 %79, ptr %7, align 4, !dbg !349
  br label %9, !dbg !350, !llvm.loop !351

80:                                               ; preds = %9
  ret void, !dbg !353
}

; Function Attrs: nounwind
declare void @free(ptr noundef) #7

attributes #0 = { noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nofree nosync nounwind willreturn }
attributes #2 = { nounwind willreturn memory(read) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nounwind allocsize(0) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nounwind allocsize(0,1) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #6 = { nounwind allocsize(1) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #7 = { nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #8 = { nounwind willreturn memory(read) }
attributes #9 = { nounwind allocsize(0) }
attributes #10 = { nounwind allocsize(0,1) }
attributes #11 = { nounwind allocsize(1) }
attributes #12 = { nounwind }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!48, !49, !50, !51, !52, !53, !54}
!llvm.ident = !{!55}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "scalar_global", scope: !2, file: !3, line: 11, type: !5, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !4, globals: !8, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "dn-arrays.c", directory: "/work/main/lit/inputs", checksumkind: CSK_MD5, checksum: "49aeb579fcc73f29fe9b777e053cfaf6")
!4 = !{!5, !6}
!5 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!6 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !7, size: 64)
!7 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!8 = !{!0, !9, !19, !24, !34, !43}
!9 = !DIGlobalVariableExpression(var: !10, expr: !DIExpression())
!10 = distinct !DIGlobalVariable(name: "hist", scope: !11, file: !3, line: 29, type: !16, isLocal: true, isDefinition: true)
!11 = distinct !DISubprogram(name: "stack_and_vla", scope: !3, file: !3, line: 28, type: !12, scopeLine: 28, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !15)
!12 = !DISubroutineType(types: !13)
!13 = !{!7, !14}
!14 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!15 = !{}
!16 = !DICompositeType(tag: DW_TAG_array_type, baseType: !5, size: 256, elements: !17)
!17 = !{!18}
!18 = !DISubrange(count: 8)
!19 = !DIGlobalVariableExpression(var: !20, expr: !DIExpression())
!20 = distinct !DIGlobalVariable(name: "grid", scope: !2, file: !3, line: 7, type: !21, isLocal: false, isDefinition: true)
!21 = !DICompositeType(tag: DW_TAG_array_type, baseType: !5, size: 131072, elements: !22)
!22 = !{!23, !23}
!23 = !DISubrange(count: 64)
!24 = !DIGlobalVariableExpression(var: !25, expr: !DIExpression())
!25 = distinct !DIGlobalVariable(name: "parts", scope: !2, file: !3, line: 10, type: !26, isLocal: false, isDefinition: true)
!26 = !DICompositeType(tag: DW_TAG_array_type, baseType: !27, size: 3072, elements: !32)
!27 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "particle", file: !3, line: 9, size: 192, elements: !28)
!28 = !{!29, !30, !31}
!29 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !27, file: !3, line: 9, baseType: !7, size: 64)
!30 = !DIDerivedType(tag: DW_TAG_member, name: "y", scope: !27, file: !3, line: 9, baseType: !7, size: 64, offset: 64)
!31 = !DIDerivedType(tag: DW_TAG_member, name: "z", scope: !27, file: !3, line: 9, baseType: !7, size: 64, offset: 128)
!32 = !{!33}
!33 = !DISubrange(count: 16)
!34 = !DIGlobalVariableExpression(var: !35, expr: !DIExpression())
!35 = distinct !DIGlobalVariable(name: "mixes", scope: !2, file: !3, line: 12, type: !36, isLocal: false, isDefinition: true)
!36 = !DICompositeType(tag: DW_TAG_array_type, baseType: !37, size: 256, elements: !41)
!37 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "mixed", file: !3, line: 12, size: 64, elements: !38)
!38 = !{!39, !40}
!39 = !DIDerivedType(tag: DW_TAG_member, name: "n", scope: !37, file: !3, line: 12, baseType: !14, size: 32)
!40 = !DIDerivedType(tag: DW_TAG_member, name: "v", scope: !37, file: !3, line: 12, baseType: !5, size: 32, offset: 32)
!41 = !{!42}
!42 = !DISubrange(count: 4)
!43 = !DIGlobalVariableExpression(var: !44, expr: !DIExpression())
!44 = distinct !DIGlobalVariable(name: "coef", scope: !2, file: !3, line: 8, type: !45, isLocal: true, isDefinition: true)
!45 = !DICompositeType(tag: DW_TAG_array_type, baseType: !7, size: 192, elements: !46)
!46 = !{!47}
!47 = !DISubrange(count: 3)
!48 = !{i32 7, !"Dwarf Version", i32 5}
!49 = !{i32 2, !"Debug Info Version", i32 3}
!50 = !{i32 1, !"wchar_size", i32 4}
!51 = !{i32 8, !"PIC Level", i32 2}
!52 = !{i32 7, !"PIE Level", i32 2}
!53 = !{i32 7, !"uwtable", i32 2}
!54 = !{i32 7, !"frame-pointer", i32 2}
!55 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!56 = distinct !DISubprogram(name: "fill", scope: !3, file: !3, line: 23, type: !57, scopeLine: 23, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !15)
!57 = !DISubroutineType(types: !58)
!58 = !{null, !6, !14, !7}
!59 = !DILocalVariable(name: "p", arg: 1, scope: !56, file: !3, line: 23, type: !6)
!60 = !DILocation(line: 23, column: 45, scope: !56)
!61 = !DILocalVariable(name: "n", arg: 2, scope: !56, file: !3, line: 23, type: !14)
!62 = !DILocation(line: 23, column: 52, scope: !56)
!63 = !DILocalVariable(name: "v", arg: 3, scope: !56, file: !3, line: 23, type: !7)
!64 = !DILocation(line: 23, column: 62, scope: !56)
!65 = !DILocalVariable(name: "i", scope: !66, file: !3, line: 24, type: !14)
!66 = distinct !DILexicalBlock(scope: !56, file: !3, line: 24, column: 3)
!67 = !DILocation(line: 24, column: 12, scope: !66)
!68 = !DILocation(line: 24, column: 8, scope: !66)
!69 = !DILocation(line: 24, column: 19, scope: !70)
!70 = distinct !DILexicalBlock(scope: !66, file: !3, line: 24, column: 3)
!71 = !DILocation(line: 24, column: 23, scope: !70)
!72 = !DILocation(line: 24, column: 21, scope: !70)
!73 = !DILocation(line: 24, column: 3, scope: !66)
!74 = !DILocation(line: 25, column: 12, scope: !70)
!75 = !DILocation(line: 25, column: 16, scope: !70)
!76 = !DILocation(line: 25, column: 14, scope: !70)
!77 = !DILocation(line: 25, column: 5, scope: !70)
!78 = !DILocation(line: 25, column: 7, scope: !70)
!79 = !DILocation(line: 25, column: 10, scope: !70)
!80 = !DILocation(line: 24, column: 27, scope: !70)
!81 = !DILocation(line: 24, column: 3, scope: !70)
!82 = distinct !{!82, !73, !83, !84}
!83 = !DILocation(line: 25, column: 16, scope: !66)
!84 = !{!"llvm.loop.mustprogress"}
!85 = !DILocation(line: 26, column: 1, scope: !56)
!86 = !DILocalVariable(name: "n", arg: 1, scope: !11, file: !3, line: 28, type: !14)
!87 = !DILocation(line: 28, column: 52, scope: !11)
!88 = !DILocalVariable(name: "local", scope: !11, file: !3, line: 30, type: !89)
!89 = !DICompositeType(tag: DW_TAG_array_type, baseType: !7, size: 2048, elements: !90)
!90 = !{!91}
!91 = !DISubrange(count: 32)
!92 = !DILocation(line: 30, column: 10, scope: !11)
!93 = !DILocation(line: 31, column: 14, scope: !11)
!94 = !DILocation(line: 31, column: 3, scope: !11)
!95 = !DILocalVariable(name: "__vla_expr0", scope: !11, type: !96, flags: DIFlagArtificial)
!96 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!97 = !DILocation(line: 0, scope: !11)
!98 = !DILocalVariable(name: "vla", scope: !11, file: !3, line: 31, type: !99)
!99 = !DICompositeType(tag: DW_TAG_array_type, baseType: !7, elements: !100)
!100 = !{!101}
!101 = !DISubrange(count: !95)
!102 = !DILocation(line: 31, column: 10, scope: !11)
!103 = !DILocalVariable(name: "i", scope: !104, file: !3, line: 32, type: !14)
!104 = distinct !DILexicalBlock(scope: !11, file: !3, line: 32, column: 3)
!105 = !DILocation(line: 32, column: 12, scope: !104)
!106 = !DILocation(line: 32, column: 8, scope: !104)
!107 = !DILocation(line: 32, column: 19, scope: !108)
!108 = distinct !DILexicalBlock(scope: !104, file: !3, line: 32, column: 3)
!109 = !DILocation(line: 32, column: 21, scope: !108)
!110 = !DILocation(line: 32, column: 3, scope: !104)
!111 = !DILocation(line: 33, column: 21, scope: !108)
!112 = !DILocation(line: 33, column: 23, scope: !108)
!113 = !DILocation(line: 33, column: 16, scope: !108)
!114 = !DILocation(line: 33, column: 30, scope: !108)
!115 = !DILocation(line: 33, column: 28, scope: !108)
!116 = !DILocation(line: 33, column: 11, scope: !108)
!117 = !DILocation(line: 33, column: 5, scope: !108)
!118 = !DILocation(line: 33, column: 14, scope: !108)
!119 = !DILocation(line: 32, column: 28, scope: !108)
!120 = !DILocation(line: 32, column: 3, scope: !108)
!121 = distinct !{!121, !110, !122, !84}
!122 = !DILocation(line: 33, column: 30, scope: !104)
!123 = !DILocalVariable(name: "i", scope: !124, file: !3, line: 34, type: !14)
!124 = distinct !DILexicalBlock(scope: !11, file: !3, line: 34, column: 3)
!125 = !DILocation(line: 34, column: 12, scope: !124)
!126 = !DILocation(line: 34, column: 8, scope: !124)
!127 = !DILocation(line: 34, column: 19, scope: !128)
!128 = distinct !DILexicalBlock(scope: !124, file: !3, line: 34, column: 3)
!129 = !DILocation(line: 34, column: 23, scope: !128)
!130 = !DILocation(line: 34, column: 21, scope: !128)
!131 = !DILocation(line: 34, column: 3, scope: !124)
!132 = !DILocation(line: 35, column: 20, scope: !128)
!133 = !DILocation(line: 35, column: 22, scope: !128)
!134 = !DILocation(line: 35, column: 14, scope: !128)
!135 = !DILocation(line: 35, column: 9, scope: !128)
!136 = !DILocation(line: 35, column: 5, scope: !128)
!137 = !DILocation(line: 35, column: 12, scope: !128)
!138 = !DILocation(line: 34, column: 27, scope: !128)
!139 = !DILocation(line: 34, column: 3, scope: !128)
!140 = distinct !{!140, !131, !141, !84}
!141 = !DILocation(line: 35, column: 26, scope: !124)
!142 = !DILocation(line: 36, column: 29, scope: !11)
!143 = !DILocation(line: 36, column: 31, scope: !11)
!144 = !DILocation(line: 36, column: 25, scope: !11)
!145 = !DILocation(line: 36, column: 18, scope: !11)
!146 = !DILocation(line: 36, column: 8, scope: !11)
!147 = !DILocation(line: 36, column: 10, scope: !11)
!148 = !DILocation(line: 36, column: 3, scope: !11)
!149 = !DILocation(line: 36, column: 15, scope: !11)
!150 = !DILocation(line: 37, column: 10, scope: !11)
!151 = !DILocation(line: 37, column: 19, scope: !11)
!152 = !DILocation(line: 37, column: 17, scope: !11)
!153 = !DILocation(line: 37, column: 31, scope: !11)
!154 = !DILocation(line: 37, column: 29, scope: !11)
!155 = !DILocation(line: 38, column: 1, scope: !11)
!156 = distinct !DISubprogram(name: "main", scope: !3, file: !3, line: 40, type: !157, scopeLine: 40, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !15)
!157 = !DISubroutineType(types: !158)
!158 = !{!14, !14, !159}
!159 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !160, size: 64)
!160 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !161, size: 64)
!161 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!162 = !DILocalVariable(name: "argc", arg: 1, scope: !156, file: !3, line: 40, type: !14)
!163 = !DILocation(line: 40, column: 14, scope: !156)
!164 = !DILocalVariable(name: "argv", arg: 2, scope: !156, file: !3, line: 40, type: !159)
!165 = !DILocation(line: 40, column: 27, scope: !156)
!166 = !DILocalVariable(name: "n", scope: !156, file: !3, line: 41, type: !14)
!167 = !DILocation(line: 41, column: 7, scope: !156)
!168 = !DILocation(line: 41, column: 11, scope: !156)
!169 = !DILocation(line: 41, column: 16, scope: !156)
!170 = !DILocation(line: 41, column: 27, scope: !156)
!171 = !DILocation(line: 41, column: 22, scope: !156)
!172 = !DILocalVariable(name: "a", scope: !156, file: !3, line: 42, type: !173)
!173 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !5, size: 64)
!174 = !DILocation(line: 42, column: 10, scope: !156)
!175 = !DILocation(line: 42, column: 21, scope: !156)
!176 = !DILocation(line: 42, column: 25, scope: !156)
!177 = !DILocation(line: 42, column: 23, scope: !156)
!178 = !DILocation(line: 42, column: 27, scope: !156)
!179 = !DILocation(line: 42, column: 14, scope: !156)
!180 = !DILocalVariable(name: "b", scope: !156, file: !3, line: 43, type: !173)
!181 = !DILocation(line: 43, column: 10, scope: !156)
!182 = !DILocation(line: 43, column: 21, scope: !156)
!183 = !DILocation(line: 43, column: 25, scope: !156)
!184 = !DILocation(line: 43, column: 23, scope: !156)
!185 = !DILocation(line: 43, column: 14, scope: !156)
!186 = !DILocalVariable(name: "f", scope: !156, file: !3, line: 44, type: !187)
!187 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "field", file: !3, line: 14, size: 128, elements: !188)
!188 = !{!189, !190}
!189 = !DIDerivedType(tag: DW_TAG_member, name: "n", scope: !187, file: !3, line: 14, baseType: !14, size: 32)
!190 = !DIDerivedType(tag: DW_TAG_member, name: "data", scope: !187, file: !3, line: 14, baseType: !6, size: 64, offset: 64)
!191 = !DILocation(line: 44, column: 16, scope: !156)
!192 = !DILocation(line: 45, column: 9, scope: !156)
!193 = !DILocation(line: 45, column: 5, scope: !156)
!194 = !DILocation(line: 45, column: 7, scope: !156)
!195 = !DILocation(line: 46, column: 19, scope: !156)
!196 = !DILocation(line: 46, column: 21, scope: !156)
!197 = !DILocation(line: 46, column: 12, scope: !156)
!198 = !DILocation(line: 46, column: 5, scope: !156)
!199 = !DILocation(line: 46, column: 10, scope: !156)
!200 = !DILocalVariable(name: "raw", scope: !156, file: !3, line: 47, type: !201)
!201 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!202 = !DILocation(line: 47, column: 9, scope: !156)
!203 = !DILocation(line: 47, column: 22, scope: !156)
!204 = !DILocation(line: 47, column: 24, scope: !156)
!205 = !DILocation(line: 47, column: 15, scope: !156)
!206 = !DILocalVariable(name: "i", scope: !207, file: !3, line: 48, type: !14)
!207 = distinct !DILexicalBlock(scope: !156, file: !3, line: 48, column: 3)
!208 = !DILocation(line: 48, column: 12, scope: !207)
!209 = !DILocation(line: 48, column: 8, scope: !207)
!210 = !DILocation(line: 48, column: 19, scope: !211)
!211 = distinct !DILexicalBlock(scope: !207, file: !3, line: 48, column: 3)
!212 = !DILocation(line: 48, column: 23, scope: !211)
!213 = !DILocation(line: 48, column: 21, scope: !211)
!214 = !DILocation(line: 48, column: 3, scope: !207)
!215 = !DILocation(line: 49, column: 26, scope: !211)
!216 = !DILocation(line: 49, column: 28, scope: !211)
!217 = !DILocation(line: 49, column: 16, scope: !211)
!218 = !DILocation(line: 49, column: 21, scope: !211)
!219 = !DILocation(line: 49, column: 5, scope: !211)
!220 = !DILocation(line: 49, column: 24, scope: !211)
!221 = !DILocation(line: 48, column: 27, scope: !211)
!222 = !DILocation(line: 48, column: 3, scope: !211)
!223 = distinct !{!223, !214, !224, !84}
!224 = !DILocation(line: 49, column: 30, scope: !207)
!225 = !DILocation(line: 50, column: 10, scope: !156)
!226 = !DILocation(line: 50, column: 16, scope: !156)
!227 = !DILocation(line: 50, column: 3, scope: !156)
!228 = !DILocation(line: 51, column: 10, scope: !156)
!229 = !DILocation(line: 51, column: 13, scope: !156)
!230 = !DILocation(line: 51, column: 16, scope: !156)
!231 = !DILocation(line: 51, column: 20, scope: !156)
!232 = !DILocation(line: 51, column: 18, scope: !156)
!233 = !DILocation(line: 51, column: 22, scope: !156)
!234 = !DILocation(line: 51, column: 3, scope: !156)
!235 = !DILocation(line: 52, column: 15, scope: !156)
!236 = !DILocation(line: 52, column: 22, scope: !156)
!237 = !DILocation(line: 52, column: 20, scope: !156)
!238 = !DILocation(line: 52, column: 26, scope: !156)
!239 = !DILocation(line: 52, column: 24, scope: !156)
!240 = !DILocation(line: 52, column: 18, scope: !156)
!241 = !DILocation(line: 52, column: 28, scope: !156)
!242 = !DILocation(line: 52, column: 7, scope: !156)
!243 = !DILocation(line: 52, column: 5, scope: !156)
!244 = !DILocation(line: 53, column: 9, scope: !156)
!245 = !DILocation(line: 53, column: 12, scope: !156)
!246 = !DILocation(line: 53, column: 15, scope: !156)
!247 = !DILocation(line: 53, column: 3, scope: !156)
!248 = !DILocalVariable(name: "s", scope: !156, file: !3, line: 54, type: !7)
!249 = !DILocation(line: 54, column: 10, scope: !156)
!250 = !DILocation(line: 54, column: 28, scope: !156)
!251 = !DILocation(line: 54, column: 14, scope: !156)
!252 = !DILocation(line: 54, column: 33, scope: !156)
!253 = !DILocation(line: 54, column: 31, scope: !156)
!254 = !DILocation(line: 54, column: 55, scope: !156)
!255 = !DILocation(line: 54, column: 44, scope: !156)
!256 = !DILocation(line: 54, column: 61, scope: !156)
!257 = !DILocation(line: 54, column: 59, scope: !156)
!258 = !DILocation(line: 54, column: 57, scope: !156)
!259 = !DILocation(line: 54, column: 82, scope: !156)
!260 = !DILocation(line: 54, column: 71, scope: !156)
!261 = !DILocation(line: 54, column: 69, scope: !156)
!262 = !DILocation(line: 55, column: 8, scope: !156)
!263 = !DILocation(line: 55, column: 3, scope: !156)
!264 = !DILocation(line: 56, column: 8, scope: !156)
!265 = !DILocation(line: 56, column: 3, scope: !156)
!266 = !DILocation(line: 57, column: 10, scope: !156)
!267 = !DILocation(line: 57, column: 3, scope: !156)
!268 = !DILocation(line: 58, column: 8, scope: !156)
!269 = !DILocation(line: 58, column: 3, scope: !156)
!270 = !DILocation(line: 59, column: 10, scope: !156)
!271 = !DILocation(line: 59, column: 12, scope: !156)
!272 = !DILocation(line: 59, column: 3, scope: !156)
!273 = distinct !DISubprogram(name: "sweep", scope: !3, file: !3, line: 16, type: !274, scopeLine: 16, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !2, retainedNodes: !15)
!274 = !DISubroutineType(types: !275)
!275 = !{null, !276, !279, !14}
!276 = !DIDerivedType(tag: DW_TAG_restrict_type, baseType: !277)
!277 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !278, size: 64)
!278 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !5)
!279 = !DIDerivedType(tag: DW_TAG_restrict_type, baseType: !173)
!280 = !DILocalVariable(name: "src", arg: 1, scope: !273, file: !3, line: 16, type: !276)
!281 = !DILocation(line: 16, column: 41, scope: !273)
!282 = !DILocalVariable(name: "dst", arg: 2, scope: !273, file: !3, line: 16, type: !279)
!283 = !DILocation(line: 16, column: 62, scope: !273)
!284 = !DILocalVariable(name: "n", arg: 3, scope: !273, file: !3, line: 16, type: !14)
!285 = !DILocation(line: 16, column: 71, scope: !273)
!286 = !DILocalVariable(name: "i", scope: !287, file: !3, line: 17, type: !14)
!287 = distinct !DILexicalBlock(scope: !273, file: !3, line: 17, column: 3)
!288 = !DILocation(line: 17, column: 12, scope: !287)
!289 = !DILocation(line: 17, column: 8, scope: !287)
!290 = !DILocation(line: 17, column: 19, scope: !291)
!291 = distinct !DILexicalBlock(scope: !287, file: !3, line: 17, column: 3)
!292 = !DILocation(line: 17, column: 23, scope: !291)
!293 = !DILocation(line: 17, column: 25, scope: !291)
!294 = !DILocation(line: 17, column: 21, scope: !291)
!295 = !DILocation(line: 17, column: 3, scope: !287)
!296 = !DILocalVariable(name: "j", scope: !297, file: !3, line: 18, type: !14)
!297 = distinct !DILexicalBlock(scope: !291, file: !3, line: 18, column: 5)
!298 = !DILocation(line: 18, column: 14, scope: !297)
!299 = !DILocation(line: 18, column: 10, scope: !297)
!300 = !DILocation(line: 18, column: 21, scope: !301)
!301 = distinct !DILexicalBlock(scope: !297, file: !3, line: 18, column: 5)
!302 = !DILocation(line: 18, column: 25, scope: !301)
!303 = !DILocation(line: 18, column: 27, scope: !301)
!304 = !DILocation(line: 18, column: 23, scope: !301)
!305 = !DILocation(line: 18, column: 5, scope: !297)
!306 = !DILocation(line: 19, column: 33, scope: !301)
!307 = !DILocation(line: 19, column: 38, scope: !301)
!308 = !DILocation(line: 19, column: 40, scope: !301)
!309 = !DILocation(line: 19, column: 47, scope: !301)
!310 = !DILocation(line: 19, column: 45, scope: !301)
!311 = !DILocation(line: 19, column: 51, scope: !301)
!312 = !DILocation(line: 19, column: 49, scope: !301)
!313 = !DILocation(line: 19, column: 56, scope: !301)
!314 = !DILocation(line: 19, column: 61, scope: !301)
!315 = !DILocation(line: 19, column: 63, scope: !301)
!316 = !DILocation(line: 19, column: 70, scope: !301)
!317 = !DILocation(line: 19, column: 68, scope: !301)
!318 = !DILocation(line: 19, column: 74, scope: !301)
!319 = !DILocation(line: 19, column: 72, scope: !301)
!320 = !DILocation(line: 19, column: 54, scope: !301)
!321 = !DILocation(line: 20, column: 33, scope: !301)
!322 = !DILocation(line: 20, column: 37, scope: !301)
!323 = !DILocation(line: 20, column: 41, scope: !301)
!324 = !DILocation(line: 20, column: 39, scope: !301)
!325 = !DILocation(line: 20, column: 45, scope: !301)
!326 = !DILocation(line: 20, column: 43, scope: !301)
!327 = !DILocation(line: 20, column: 47, scope: !301)
!328 = !DILocation(line: 19, column: 77, scope: !301)
!329 = !DILocation(line: 20, column: 54, scope: !301)
!330 = !DILocation(line: 20, column: 58, scope: !301)
!331 = !DILocation(line: 20, column: 62, scope: !301)
!332 = !DILocation(line: 20, column: 60, scope: !301)
!333 = !DILocation(line: 20, column: 66, scope: !301)
!334 = !DILocation(line: 20, column: 64, scope: !301)
!335 = !DILocation(line: 20, column: 68, scope: !301)
!336 = !DILocation(line: 20, column: 52, scope: !301)
!337 = !DILocation(line: 19, column: 30, scope: !301)
!338 = !DILocation(line: 19, column: 7, scope: !301)
!339 = !DILocation(line: 19, column: 11, scope: !301)
!340 = !DILocation(line: 19, column: 15, scope: !301)
!341 = !DILocation(line: 19, column: 13, scope: !301)
!342 = !DILocation(line: 19, column: 19, scope: !301)
!343 = !DILocation(line: 19, column: 17, scope: !301)
!344 = !DILocation(line: 19, column: 22, scope: !301)
!345 = !DILocation(line: 18, column: 33, scope: !301)
!346 = !DILocation(line: 18, column: 5, scope: !301)
!347 = distinct !{!347, !305, !348, !84}
!348 = !DILocation(line: 20, column: 72, scope: !297)
!349 = !DILocation(line: 17, column: 31, scope: !291)
!350 = !DILocation(line: 17, column: 3, scope: !291)
!351 = distinct !{!351, !295, !352, !84}
!352 = !DILocation(line: 20, column: 72, scope: !287)
!353 = !DILocation(line: 21, column: 1, scope: !273)
