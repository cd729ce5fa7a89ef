; Denormal mode, operations: every FP operation is a site. The fast path adds each
; tested value to a filter (u = (bits & abs_mask) - 1; scalars: umin, then u <u mant;
; float/double vectors: u as FP, running minimum, then u < MIN_NORMAL) and branches
; once, unlikely, to the cold region. The cold region recomputes the operation, takes
; the exact per-lane masks ((bits & abs) + bias <s limit), calls `__tpd_op` only when
; a mask is non-zero, with the operand tags in a stack buffer, and takes the result
; tags from the hook. The result's tag after the group is `phi [0, fast], [t, cold]`.
; RUN: %opt_denormal < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; One FpSiteDesc per operation: op name, FP_* type (1 half, 2 float, 3 double,
; 4 x86_fp80, 5 fp128), lanes, flags, block counter, index, module.
; CHECK: @taintprof.fpsites = private constant [13 x %taintprof.FpSiteDesc]
; CHECK-SAME: ptr @[[FADD:taintprof.str[.0-9]*]], i16 2, i16 1, i16 0, i16 0, i32 0, i32 0, ptr @taintprof.dn_module }
; CHECK-SAME: ptr @[[FMUL:taintprof.str[.0-9]*]], i16 2, i16 4, i16 0, i16 0, i32 1, i32 1, ptr @taintprof.dn_module }
; CHECK-SAME: ptr @[[FSUB:taintprof.str[.0-9]*]], i16 3, i16 1, i16 0, i16 0, i32 2, i32 2, ptr @taintprof.dn_module }
; CHECK-SAME: ptr @[[FDIV:taintprof.str[.0-9]*]], i16 3, i16 2, i16 0, i16 0, i32 3, i32 3, ptr @taintprof.dn_module }
; CHECK-SAME: ptr @[[FREM:taintprof.str[.0-9]*]], i16 1, i16 1, i16 0, i16 0, i32 4, i32 4, ptr @taintprof.dn_module }
; CHECK-SAME: ptr @[[FNEG:taintprof.str[.0-9]*]], i16 4, i16 1, i16 0, i16 0, i32 5, i32 5, ptr @taintprof.dn_module }
; CHECK-SAME: ptr @[[FADD]], i16 5, i16 1, i16 0, i16 0, i32 6, i32 6, ptr @taintprof.dn_module }
; CHECK-SAME: ptr @[[FPEXT:taintprof.str[.0-9]*]], i16 3, i16 1, i16 0, i16 0, i32 7, i32 7, ptr @taintprof.dn_module }
; CHECK-SAME: ptr @[[FPTRUNC:taintprof.str[.0-9]*]], i16 2, i16 4, i16 0, i16 0, i32 8, i32 8, ptr @taintprof.dn_module }
; CHECK-SAME: ptr @[[FADD]], i16 2, i16 1, i16 0, i16 0, i32 9, i32 9, ptr @taintprof.dn_module }
; CHECK-SAME: ptr @[[FMUL]], i16 2, i16 1, i16 0, i16 0, i32 9, i32 10, ptr @taintprof.dn_module }
; CHECK-SAME: ptr @[[FSUB]], i16 2, i16 1, i16 0, i16 0, i32 9, i32 11, ptr @taintprof.dn_module }
; CHECK-SAME: ptr @[[FADD]], i16 2, i16 8, i16 0, i16 0, i32 10, i32 12, ptr @taintprof.dn_module }]
; CHECK-DAG: @[[FADD]] = private unnamed_addr constant [5 x i8] c"fadd\00"
; CHECK-DAG: @[[FMUL]] = private unnamed_addr constant [5 x i8] c"fmul\00"
; CHECK-DAG: @[[FSUB]] = private unnamed_addr constant [5 x i8] c"fsub\00"
; CHECK-DAG: @[[FDIV]] = private unnamed_addr constant [5 x i8] c"fdiv\00"
; CHECK-DAG: @[[FREM]] = private unnamed_addr constant [5 x i8] c"frem\00"
; CHECK-DAG: @[[FNEG]] = private unnamed_addr constant [5 x i8] c"fneg\00"
; CHECK-DAG: @[[FPEXT]] = private unnamed_addr constant [6 x i8] c"fpext\00"
; CHECK-DAG: @[[FPTRUNC]] = private unnamed_addr constant [8 x i8] c"fptrunc\00"

; Scalar float: the whole sequence.
; CHECK-LABEL: define float @fadd(float %a, float %b)
; Tag buffers sized for the function's widest site: two scalar operands, one result.
; CHECK: [[OPT:%.*]] = alloca [2 x i64], align 16
; CHECK-NEXT: [[RT:%.*]] = alloca [1 x i64], align 16
; Fast path: the operands, then the result, into one umin filter.
; CHECK: [[BA:%.*]] = bitcast float %a to i32
; CHECK-NEXT: [[AA:%.*]] = and i32 [[BA]], 2147483647
; CHECK-NEXT: [[UA:%.*]] = add i32 [[AA]], -1
; CHECK-NEXT: [[BB:%.*]] = bitcast float %b to i32
; CHECK-NEXT: [[AB:%.*]] = and i32 [[BB]], 2147483647
; CHECK-NEXT: [[UB:%.*]] = add i32 [[AB]], -1
; CHECK-NEXT: [[M1:%.*]] = call i32 @llvm.umin.i32(i32 [[UA]], i32 [[UB]])
; CHECK-NEXT: %r = fadd float %a, %b
; CHECK-NEXT: [[BR:%.*]] = bitcast float %r to i32
; CHECK-NEXT: [[AR:%.*]] = and i32 [[BR]], 2147483647
; CHECK-NEXT: [[UR:%.*]] = add i32 [[AR]], -1
; CHECK-NEXT: [[M2:%.*]] = call i32 @llvm.umin.i32(i32 [[M1]], i32 [[UR]])
; CHECK-NEXT: [[ANY:%.*]] = icmp ult i32 [[M2]], 8388607
; CHECK-NEXT: [[FR:%.*]] = freeze i1 [[ANY]]
; CHECK-NEXT: br i1 [[FR]], label %[[COLD:[0-9]+]], label %[[JOIN:[0-9]+]], !prof [[UNLIKELY:![0-9]+]]
; Cold region: the operation again, exact masks, operand tags masked by their lanes.
; CHECK: [[COLD]]:
; CHECK-NEXT: [[R2:%.*]] = fadd float %a, %b
; CHECK-NEXT: [[XA:%.*]] = bitcast float %a to i32
; CHECK-NEXT: [[XA1:%.*]] = and i32 [[XA]], 2147483647
; CHECK-NEXT: [[XA2:%.*]] = add i32 [[XA1]], 2147483647
; CHECK-NEXT: [[DA:%.*]] = icmp slt i32 [[XA2]], -2139095041
; CHECK: [[DB:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK: [[XR:%.*]] = bitcast float [[R2]] to i32
; CHECK: [[DR:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK-NEXT: [[TA:%.*]] = select i1 [[DA]], i64 [[PA:%.*]], i64 0
; CHECK-NEXT: [[TB:%.*]] = select i1 [[DB]], i64 [[PB:%.*]], i64 0
; Operand k's lanes at bit 16 * k; result lanes in their own mask.
; CHECK-NEXT: [[MA:%.*]] = zext i1 [[DA]] to i64
; CHECK-NEXT: [[MB:%.*]] = zext i1 [[DB]] to i64
; CHECK-NEXT: [[MB16:%.*]] = shl i64 [[MB]], 16
; CHECK-NEXT: [[OPM:%.*]] = or i64 [[MA]], [[MB16]]
; CHECK-NEXT: [[RESM:%.*]] = zext i1 [[DR]] to i64
; CHECK-NEXT: [[ALL:%.*]] = or i64 [[OPM]], [[RESM]]
; CHECK-NEXT: [[NEED:%.*]] = icmp ne i64 [[ALL]], 0
; CHECK-NEXT: [[NF:%.*]] = freeze i1 [[NEED]]
; CHECK-NEXT: br i1 [[NF]], label %[[HOOK:[0-9]+]], label %[[AFTER:[0-9]+]], !prof [[UNLIKELY]]
; CHECK: [[HOOK]]:
; CHECK-NEXT: store i64 [[TA]], ptr [[OPT]], align 8
; CHECK-NEXT: [[SLOT1:%.*]] = getelementptr inbounds i64, ptr [[OPT]], i64 1
; CHECK-NEXT: store i64 [[TB]], ptr [[SLOT1]], align 8
; CHECK-NEXT: call void @__tpd_op(ptr @taintprof.fpsites, i64 [[OPM]], i64 [[RESM]], ptr [[OPT]], ptr [[RT]])
; CHECK-NEXT: [[T:%.*]] = load i64, ptr [[RT]], align 8
; CHECK-NEXT: [[TM:%.*]] = select i1 [[DR]], i64 [[T]], i64 0
; CHECK: [[AFTER]]:
; CHECK-NEXT: [[TC:%.*]] = phi i64 [ 0, %[[COLD]] ], [ [[TM]], %[[HOOK]] ]
; CHECK: [[JOIN]]:
; CHECK-NEXT: [[TJ:%.*]] = phi i64 [ 0, %{{[0-9]+}} ], [ [[TC]], %[[AFTER]] ]
; CHECK-NEXT: store i64 [[TJ]], ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: ret float %r
define float @fadd(float %a, float %b) {
  %r = fadd float %a, %b
  ret float %r
}

; Vectors of float: the filter is a running minimum (minps) starting at +inf, tested
; against FLT_MIN; the masks are <4 x i1> → i4 → i64; the tags <4 x i64>.
; CHECK-LABEL: define <4 x float> @vfmul(<4 x float> %a, <4 x float> %b)
; CHECK: [[U:%.*]] = bitcast <4 x i32> {{%.*}} to <4 x float>
; CHECK-NEXT: [[LT:%.*]] = fcmp olt <4 x float> [[U]], <float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000>
; CHECK-NEXT: [[MIN:%.*]] = select <4 x i1> [[LT]], <4 x float> [[U]], <4 x float> <float 0x7FF0000000000000,
; CHECK: %r = fmul <4 x float> %a, %b
; CHECK: [[MIN3:%.*]] = select <4 x i1> {{%.*}}, <4 x float> {{%.*}}, <4 x float>
; CHECK-NEXT: [[SMALL:%.*]] = fcmp olt <4 x float> [[MIN3]], <float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000>
; CHECK-NEXT: [[ANY:%.*]] = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> [[SMALL]])
; CHECK-NEXT: [[FR:%.*]] = freeze i1 [[ANY]]
; CHECK-NEXT: br i1 [[FR]], label %{{[0-9]+}}, label %{{[0-9]+}}, !prof
; CHECK: [[R2:%.*]] = fmul <4 x float> %a, %b
; CHECK: [[DA:%.*]] = icmp slt <4 x i32> {{%.*}}, <i32 -2139095041, i32 -2139095041, i32 -2139095041, i32 -2139095041>
; CHECK: [[DB:%.*]] = icmp slt <4 x i32>
; CHECK: [[DR:%.*]] = icmp slt <4 x i32>
; CHECK: [[TA:%.*]] = select <4 x i1> [[DA]], <4 x i64> {{%.*}}, <4 x i64> zeroinitializer
; CHECK: [[TB:%.*]] = select <4 x i1> [[DB]], <4 x i64> {{%.*}}, <4 x i64> zeroinitializer
; CHECK-NEXT: [[IA:%.*]] = bitcast <4 x i1> [[DA]] to i4
; CHECK-NEXT: [[MA:%.*]] = zext i4 [[IA]] to i64
; CHECK-NEXT: [[IB:%.*]] = bitcast <4 x i1> [[DB]] to i4
; CHECK-NEXT: [[MB:%.*]] = zext i4 [[IB]] to i64
; CHECK-NEXT: [[MB16:%.*]] = shl i64 [[MB]], 16
; CHECK-NEXT: [[OPM:%.*]] = or i64 [[MA]], [[MB16]]
; CHECK-NEXT: [[IR:%.*]] = bitcast <4 x i1> [[DR]] to i4
; CHECK-NEXT: [[RESM:%.*]] = zext i4 [[IR]] to i64
; CHECK: store <4 x i64> [[TA]], ptr [[OPT:%.*]], align 8
; CHECK-NEXT: [[SLOT1:%.*]] = getelementptr inbounds i64, ptr [[OPT]], i64 4
; CHECK-NEXT: store <4 x i64> [[TB]], ptr [[SLOT1]], align 8
; CHECK-NEXT: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1), i64 [[OPM]], i64 [[RESM]], ptr [[OPT]], ptr [[RT:%.*]])
; CHECK-NEXT: [[T:%.*]] = load <4 x i64>, ptr [[RT]], align 8
; CHECK-NEXT: select <4 x i1> [[DR]], <4 x i64> [[T]], <4 x i64> zeroinitializer
; The returned vector's tag is collapsed (first non-zero lane) inside the cold region.
; CHECK: [[C0:%.*]] = extractelement <4 x i64> {{%.*}}, i32 0
; CHECK: br label %[[JOIN:[0-9]+]]
; CHECK: [[JOIN]]:
; CHECK-NEXT: [[TJ:%.*]] = phi i64 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK-NEXT: store i64 [[TJ]], ptr @__tpd_ret_tag_tls
define <4 x float> @vfmul(<4 x float> %a, <4 x float> %b) {
  %r = fmul <4 x float> %a, %b
  ret <4 x float> %r
}

; Scalar double: i64 constants (DBL_MIN's mantissa, bias, limit).
; CHECK-LABEL: define double @fsub_d(
; CHECK: and i64 {{%.*}}, 9223372036854775807
; CHECK-NEXT: add i64 {{%.*}}, -1
; CHECK: call i64 @llvm.umin.i64(
; CHECK: icmp ult i64 {{%.*}}, 4503599627370495
; CHECK: add i64 {{%.*}}, 9223372036854775807
; CHECK-NEXT: icmp slt i64 {{%.*}}, -9218868437227405313
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2),
define double @fsub_d(double %a, double %b) {
  %r = fsub double %a, %b
  ret double %r
}

; Vectors of double: minpd against DBL_MIN (no 64-bit integer vector compare needed).
; CHECK-LABEL: define <2 x double> @fdiv_v2d(
; CHECK: fcmp olt <2 x double> {{%.*}}, <double 0x7FF0000000000000, double 0x7FF0000000000000>
; CHECK: fcmp olt <2 x double> {{%.*}}, <double 0x10000000000000, double 0x10000000000000>
; CHECK: call i1 @llvm.vector.reduce.or.v2i1(
; CHECK: icmp slt <2 x i64> {{%.*}}, <i64 -9218868437227405313, i64 -9218868437227405313>
; CHECK: bitcast <2 x i1> {{%.*}} to i2
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 3),
define <2 x double> @fdiv_v2d(<2 x double> %a, <2 x double> %b) {
  %r = fdiv <2 x double> %a, %b
  ret <2 x double> %r
}

; half: i16 (exponent 0x7c00, mantissa 0x3ff).
; CHECK-LABEL: define half @frem_h(
; CHECK: and i16 {{%.*}}, 32767
; CHECK-NEXT: add i16 {{%.*}}, -1
; CHECK: call i16 @llvm.umin.i16(
; CHECK: icmp ult i16 {{%.*}}, 1023
; CHECK: add i16 {{%.*}}, 32767
; CHECK-NEXT: icmp slt i16 {{%.*}}, -31745
define half @frem_h(half %a, half %b) {
  %r = frem half %a, %b
  ret half %r
}

; x86_fp80: i80, the mantissa includes the explicit integer bit (a pseudo-denormal
; counts as denormal, as the x87 treats it); a single operand.
; CHECK-LABEL: define x86_fp80 @fneg_ld(
; CHECK: bitcast x86_fp80 %a to i80
; CHECK-NEXT: and i80 {{%.*}}, 604462909807314587353087
; CHECK-NEXT: add i80 {{%.*}}, -1
; CHECK: %r = fneg x86_fp80 %a
; CHECK: icmp ult i80 {{%.*}}, 18446744073709551615
; CHECK: icmp slt i80 {{%.*}}, -604444463063240877801473
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 5),
define x86_fp80 @fneg_ld(x86_fp80 %a) {
  %r = fneg x86_fp80 %a
  ret x86_fp80 %r
}

; fp128: i128 (15-bit exponent, 112-bit mantissa).
; CHECK-LABEL: define fp128 @fadd_q(
; CHECK: and i128 {{%.*}}, 170141183460469231731687303715884105727
; CHECK: icmp ult i128 {{%.*}}, 5192296858534827628530496329220095
define fp128 @fadd_q(fp128 %a, fp128 %b) {
  %r = fadd fp128 %a, %b
  ret fp128 %r
}

; fpext: a denormal float operand gives a normal double: operand tested as float,
; result as double.
; CHECK-LABEL: define double @fpext(
; CHECK: and i32 {{%.*}}, 2147483647
; CHECK: %r = fpext float %a to double
; CHECK-NEXT: bitcast double %r to i64
; CHECK: icmp ult i32 {{%.*}}, 8388607
; CHECK: icmp ult i64 {{%.*}}, 4503599627370495
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 7),
define double @fpext(float %a) {
  %r = fpext float %a to double
  ret double %r
}

; fptrunc: the double operand (minpd filter) and the float result (minps filter).
; CHECK-LABEL: define <4 x float> @fptrunc(
; CHECK: fcmp olt <4 x double> {{%.*}}, <double 0x7FF0000000000000,
; CHECK: %r = fptrunc <4 x double> %a to <4 x float>
; CHECK: fcmp olt <4 x float> {{%.*}}, <float 0x7FF0000000000000,
; CHECK-DAG: fcmp olt <4 x double> {{%.*}}, <double 0x10000000000000,
; CHECK-DAG: fcmp olt <4 x float> {{%.*}}, <float 0x3810000000000000,
define <4 x float> @fptrunc(<4 x double> %a) {
  %r = fptrunc <4 x double> %a to <4 x float>
  ret <4 x float> %r
}

; Sites of one block share the fast path: three operations, one branch; inside the
; cold region each site's hook has its own condition, in program order, and the first
; result's tag reaches the second operation as its operand tag.
; CHECK-LABEL: define float @chain(float %a, float %b, float %c)
; CHECK: %x = fadd float %a, %b
; CHECK: %y = fmul float %x, %c
; CHECK: %z = fsub float %y, 1.000000e+00
; CHECK: icmp ult i32 {{%.*}}, 8388607
; CHECK-NEXT: freeze i1
; CHECK-NEXT: br i1 {{%.*}}, label %{{[0-9]+}}, label %{{[0-9]+}}, !prof
; CHECK-NOT: icmp ult
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 9),
; CHECK: [[XT:%.*]] = phi i64 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK: select i1 {{%.*}}, i64 [[XT]], i64 0
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 10),
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 11),
; CHECK: ret float %z
define float @chain(float %a, float %b, float %c) {
  %x = fadd float %a, %b
  %y = fmul float %x, %c
  %z = fsub float %y, 1.0
  ret float %z
}

; Three sites of one block share its block counter (9 above); a <8 x float> is one
; descriptor of 8 lanes (wider vectors: dn-vectors.ll).
define <8 x float> @v8(<8 x float> %a) {
  %r = fadd <8 x float> %a, %a
  ret <8 x float> %r
}

; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
