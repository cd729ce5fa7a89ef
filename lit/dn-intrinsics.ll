; Denormal mode, intrinsics: every intrinsic with an FP result or FP operands is an
; operation site named after the intrinsic without `llvm.` and type suffixes. FP→int
; intrinsics have no result (FPSITE_NO_RESULT = 8): inline, they only count (no result
; tags). Sites whose operands have the result's lanes are handled inline (counts into
; the site's four counters, or a vector site's per-lane counts after them, result tags
; with selects); a reduction is not (its
; operands have other widths): it keeps the `__tpd_op` call and has no inline counters
; (-1). Operands of different widths share the site's lanes: a scalar operand is lane
; 0 (reductions: the start value is operand 0 in slot 0, the vector operand 1 in slots
; 4..7). Subvector intrinsics only move lanes: their tags are the same intrinsic
; applied to the tag vectors. With `no-dn-inline-ops` (prefix HOOK) every site calls
; `__tpd_op`, with operand k's lanes at bit 16 * k of the operand mask.
; RUN: %opt_denormal < %s | %FileCheck %s
; RUN: %opt_dn_hooks < %s | %FileCheck %s --check-prefix=HOOK
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Nine blocks (counters 0-8), then four counters for each of the eight inline sites,
; the two <4 x float> ones (fma, the fadd) followed by 2 * 4 words of lane counts:
; n_blocks = 9 + 32 + 16 = 57. No operand is a constant (const_operands 0).
; CHECK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 9, i32 57,
; CHECK: @taintprof.fpsites = private constant [9 x %taintprof.FpSiteDesc]
; CHECK-SAME: ptr @[[SQRT:taintprof.str[.0-9]*]], i16 3, i16 1, i16 0, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 9, i32 0 }
; CHECK-SAME: ptr @[[FMA:taintprof.str[.0-9]*]], i16 2, i16 4, i16 0, i16 0, i32 1, i32 1, ptr @taintprof.dn_module, i32 13, i32 1 }
; CHECK-SAME: ptr @[[FMULADD:taintprof.str[.0-9]*]], i16 3, i16 1, i16 0, i16 0, i32 2, i32 2, ptr @taintprof.dn_module, i32 25, i32 2 }
; CHECK-SAME: ptr @[[MINNUM:taintprof.str[.0-9]*]], i16 2, i16 1, i16 0, i16 0, i32 3, i32 3, ptr @taintprof.dn_module, i32 29, i32 3 }
; CHECK-SAME: ptr @[[REDUCE:taintprof.str[.0-9]*]], i16 2, i16 4, i16 0, i16 0, i32 4, i32 4, ptr @taintprof.dn_module, i32 -1, i32 4 }
; CHECK-SAME: ptr @[[CLASS:taintprof.str[.0-9]*]], i16 3, i16 1, i16 8, i16 0, i32 5, i32 5, ptr @taintprof.dn_module, i32 33, i32 5 }
; CHECK-SAME: ptr @[[LROUND:taintprof.str[.0-9]*]], i16 3, i16 1, i16 8, i16 0, i32 6, i32 6, ptr @taintprof.dn_module, i32 37, i32 6 }
; CHECK-SAME: ptr @[[FREXP:taintprof.str[.0-9]*]], i16 3, i16 1, i16 8, i16 0, i32 7, i32 7, ptr @taintprof.dn_module, i32 41, i32 7 }
; CHECK-SAME: ptr @[[FADD:taintprof.str[.0-9]*]], i16 2, i16 4, i16 0, i16 0, i32 8, i32 8, ptr @taintprof.dn_module, i32 45, i32 8 }]
; CHECK-DAG: @[[SQRT]] = private unnamed_addr constant [5 x i8] c"sqrt\00"
; CHECK-DAG: @[[FMA]] = private unnamed_addr constant [4 x i8] c"fma\00"
; CHECK-DAG: @[[FMULADD]] = private unnamed_addr constant [8 x i8] c"fmuladd\00"
; CHECK-DAG: @[[MINNUM]] = private unnamed_addr constant [7 x i8] c"minnum\00"
; CHECK-DAG: @[[REDUCE]] = private unnamed_addr constant [19 x i8] c"vector.reduce.fadd\00"
; CHECK-DAG: @[[CLASS]] = private unnamed_addr constant [11 x i8] c"is.fpclass\00"
; CHECK-DAG: @[[LROUND]] = private unnamed_addr constant [7 x i8] c"lround\00"
; CHECK-DAG: @[[FREXP]] = private unnamed_addr constant [6 x i8] c"frexp\00"
; HOOK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 9, i32 9,
; HOOK: @taintprof.fpsites = private constant [9 x %taintprof.FpSiteDesc]
; HOOK-SAME: i16 3, i16 1, i16 0, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 -1, i32 0 }
; HOOK-SAME: i16 2, i16 4, i16 0, i16 0, i32 1, i32 1, ptr @taintprof.dn_module, i32 -1, i32 1 }
; HOOK-SAME: i16 3, i16 1, i16 0, i16 0, i32 2, i32 2, ptr @taintprof.dn_module, i32 -1, i32 2 }
; HOOK-SAME: i16 2, i16 1, i16 0, i16 0, i32 3, i32 3, ptr @taintprof.dn_module, i32 -1, i32 3 }
; HOOK-SAME: i16 2, i16 4, i16 0, i16 0, i32 4, i32 4, ptr @taintprof.dn_module, i32 -1, i32 4 }
; HOOK-SAME: i16 3, i16 1, i16 8, i16 0, i32 5, i32 5, ptr @taintprof.dn_module, i32 -1, i32 5 }
; HOOK-SAME: i16 3, i16 1, i16 8, i16 0, i32 6, i32 6, ptr @taintprof.dn_module, i32 -1, i32 6 }
; HOOK-SAME: i16 3, i16 1, i16 8, i16 0, i32 7, i32 7, ptr @taintprof.dn_module, i32 -1, i32 7 }
; HOOK-SAME: i16 2, i16 4, i16 0, i16 0, i32 8, i32 8, ptr @taintprof.dn_module, i32 -1, i32 8 }]

; One operand: its mask is also the "operation with a denormal operand" count, and its
; complement selects the results created (denormal result, normal operand).
; CHECK-LABEL: define double @sqrt(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: %r = call double @llvm.sqrt.f64(double %x)
; CHECK: [[R2:%.*]] = call double @llvm.sqrt.f64(double %x)
; CHECK: [[DX:%.*]] = icmp slt i64 {{%.*}}, -9218868437227405313
; CHECK: [[DR:%.*]] = icmp slt i64 {{%.*}}, -9218868437227405313
; CHECK-NOT: select
; CHECK: br i1 {{%.*}}, label %[[INL:[0-9]+]], label %[[AFTER:[0-9]+]], !prof
; CHECK: [[INL]]:
; CHECK-NEXT: [[ZX:%.*]] = zext i1 [[DX]] to i64
; CHECK-NEXT: [[ZANY:%.*]] = zext i1 [[DX]] to i64
; CHECK-NEXT: [[NANY:%.*]] = shl i64 [[ZANY]], 8
; CHECK-NEXT: [[N01:%.*]] = add i64 [[ZX]], [[NANY]]
; CHECK-NEXT: [[ZR:%.*]] = zext i1 [[DR]] to i64
; CHECK-NEXT: [[NRES:%.*]] = shl i64 [[ZR]], 16
; CHECK-NEXT: [[N012:%.*]] = add i64 [[N01]], [[NRES]]
; CHECK-NEXT: [[NOTX:%.*]] = xor i1 [[DX]], true
; CHECK-NEXT: [[CR:%.*]] = and i1 [[DR]], [[NOTX]]
; CHECK-NEXT: [[ZCR:%.*]] = zext i1 [[CR]] to i64
; CHECK-NEXT: [[NCR:%.*]] = shl i64 [[ZCR]], 24
; CHECK-NEXT: [[TOT:%.*]] = add i64 [[N012]], [[NCR]]
; CHECK-NEXT: [[K0:%.*]] = and i64 [[TOT]], 255
; CHECK-NEXT: getelementptr inbounds i64, ptr [[CB]], i64 9
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 10
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 11
; CHECK: [[K3:%.*]] = lshr i64 [[TOT]], 24
; CHECK-NEXT: getelementptr inbounds i64, ptr [[CB]], i64 12
; CHECK: [[CI:%.*]] = load atomic i32, ptr @taintprof.creator_ix monotonic, align 4
; CHECK-NEXT: [[CZ:%.*]] = icmp eq i32 [[CI]], 0
; CHECK-NEXT: br i1 [[CZ]], label %{{[0-9]+}}, label %[[MRG:[0-9]+]], !prof
; CHECK: [[CN:%.*]] = call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr @taintprof.fpsites)
; CHECK-NEXT: store atomic i32 [[CN]], ptr @taintprof.creator_ix monotonic, align 4
; CHECK: [[MRG]]:
; CHECK-NEXT: [[ME:%.*]] = phi i32 [ [[CI]], %[[INL]] ], [ [[CN]], %{{[0-9]+}} ]
; CHECK-NEXT: and i32 [[TX:%[0-9]+]], 65535
; CHECK: [[ACC:%.*]] = select i1 [[DX]], i32 {{%.*}}, i32 [[ME]]
; CHECK-NEXT: [[TM:%.*]] = select i1 [[DR]], i32 [[ACC]], i32 0
; CHECK-NEXT: br label %[[AFTER]]
; CHECK: [[AFTER]]:
; CHECK-NEXT: [[TC:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ [[TM]], %[[MRG]] ]
; CHECK-NOT: call void @__tpd_op
; CHECK: phi i32 [ 0, %{{[0-9]+}} ], [ [[TC]], %[[AFTER]] ]
; CHECK-NEXT: store i32 {{%.*}}, ptr @__tpd_ret_tag_tls
; HOOK-LABEL: define double @sqrt(
; HOOK: %r = call double @llvm.sqrt.f64(double %x)
; HOOK: [[R2:%.*]] = call double @llvm.sqrt.f64(double %x)
; HOOK: call void @__tpd_op(ptr @taintprof.fpsites,
define double @sqrt(double %x) {
  %r = call double @llvm.sqrt.f64(double %x)
  ret double %r
}

; Three operands. Inline: the three operand masks are counted (summed lane by lane),
; or-ed for the count of operations with a denormal operand (and again, complemented,
; for the results created), and selected from the last to the first for the result tags. Hook: bits 0-3, 16-19, 32-35 of the operand mask; slots 0, 4, 8.
; CHECK-LABEL: define <4 x float> @fma(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: [[DA:%.*]] = icmp slt <4 x i32>
; CHECK: [[DB:%.*]] = icmp slt <4 x i32>
; CHECK: [[DC:%.*]] = icmp slt <4 x i32>
; CHECK: [[DR:%.*]] = icmp slt <4 x i32>
; CHECK-NOT: select
; CHECK: br i1 {{%.*}}, label %[[INL:[0-9]+]], label %[[AFTER:[0-9]+]], !prof
; CHECK: [[INL]]:
; Each counter's lanes are a <4 x i32> after the site's totals 13..16 (word 17 on;
; counter k's at i32 4 * k); each gets its lanes' masks added, with no reduction.
; CHECK-NEXT: [[LANES:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 17
; CHECK-NEXT: [[ZA:%.*]] = zext <4 x i1> [[DA]] to <4 x i32>
; CHECK-NEXT: [[ZB:%.*]] = zext <4 x i1> [[DB]] to <4 x i32>
; CHECK-NEXT: [[NAB:%.*]] = add <4 x i32> [[ZA]], [[ZB]]
; CHECK-NEXT: [[ZC:%.*]] = zext <4 x i1> [[DC]] to <4 x i32>
; CHECK-NEXT: [[NOPS:%.*]] = add <4 x i32> [[NAB]], [[ZC]]
; CHECK-NEXT: [[AB:%.*]] = or <4 x i1> [[DA]], [[DB]]
; CHECK-NEXT: [[ABC:%.*]] = or <4 x i1> [[AB]], [[DC]]
; CHECK-NEXT: [[LL0F:%.*]] = load volatile <4 x i32>, ptr [[LANES]], align 4
; CHECK-NEXT: [[LN0F:%.*]] = add <4 x i32> [[LL0F]], [[NOPS]]
; CHECK-NEXT: store volatile <4 x i32> [[LN0F]], ptr [[LANES]], align 4
; CHECK-NEXT: [[ZANY:%.*]] = zext <4 x i1> [[ABC]] to <4 x i32>
; CHECK-NEXT: [[LQ1F:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 4
; CHECK-NEXT: [[LL1F:%.*]] = load volatile <4 x i32>, ptr [[LQ1F]], align 4
; CHECK-NEXT: [[LN1F:%.*]] = add <4 x i32> [[LL1F]], [[ZANY]]
; CHECK-NEXT: store volatile <4 x i32> [[LN1F]], ptr [[LQ1F]], align 4
; CHECK-NEXT: [[LAB:%.*]] = or <4 x i1> [[DA]], [[DB]]
; CHECK-NEXT: [[LABC:%.*]] = or <4 x i1> [[LAB]], [[DC]]
; CHECK-NEXT: [[NOTOP:%.*]] = xor <4 x i1> [[LABC]], <i1 true, i1 true, i1 true, i1 true>
; CHECK-NEXT: [[CR:%.*]] = and <4 x i1> [[DR]], [[NOTOP]]
; CHECK-NEXT: [[ZR:%.*]] = zext <4 x i1> [[DR]] to <4 x i32>
; CHECK-NEXT: [[LQ2F:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 8
; CHECK-NEXT: [[LL2F:%.*]] = load volatile <4 x i32>, ptr [[LQ2F]], align 4
; CHECK-NEXT: [[LN2F:%.*]] = add <4 x i32> [[LL2F]], [[ZR]]
; CHECK-NEXT: store volatile <4 x i32> [[LN2F]], ptr [[LQ2F]], align 4
; CHECK-NEXT: [[WATCH:%.*]] = or <4 x i32> [[LN0F]], [[LN2F]]
; CHECK-NEXT: [[ZCR:%.*]] = zext <4 x i1> [[CR]] to <4 x i32>
; CHECK-NEXT: [[LQ3F:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 12
; CHECK-NEXT: [[LL3F:%.*]] = load volatile <4 x i32>, ptr [[LQ3F]], align 4
; CHECK-NEXT: [[LN3F:%.*]] = add <4 x i32> [[LL3F]], [[ZCR]]
; CHECK-NEXT: store volatile <4 x i32> [[LN3F]], ptr [[LQ3F]], align 4
; A lane of the operand or result counts at 2^31: all lanes are added to the totals
; 13..16 and cleared, in a rarely-taken block.
; CHECK-NEXT: [[OVF:%.*]] = icmp slt <4 x i32> [[WATCH]], zeroinitializer
; CHECK-NEXT: [[OBF:%.*]] = bitcast <4 x i1> [[OVF]] to i4
; CHECK-NEXT: [[OCF:%.*]] = icmp ne i4 [[OBF]], 0
; CHECK-NEXT: br i1 [[OCF]], label %[[FOLDF:[0-9]+]], label %[[JOINF:[0-9]+]], !prof [[RARE:![0-9]+]]
; CHECK-EMPTY:
; CHECK-NEXT: {{^}}[[FOLDF]]:
; CHECK-NEXT: [[FL0F:%.*]] = load <4 x i32>, ptr [[LANES]], align 4
; CHECK-NEXT: [[FW0F:%.*]] = zext <4 x i32> [[FL0F]] to <4 x i64>
; CHECK-NEXT: [[FS0F:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[FW0F]])
; CHECK-NEXT: [[FT0F:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 13
; CHECK-NEXT: [[FO0F:%.*]] = load i64, ptr [[FT0F]], align 8
; CHECK-NEXT: [[FN0F:%.*]] = add i64 [[FO0F]], [[FS0F]]
; CHECK-NEXT: store i64 [[FN0F]], ptr [[FT0F]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[LANES]], align 4
; CHECK-NEXT: [[FQ1F:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 4
; CHECK-NEXT: [[FL1F:%.*]] = load <4 x i32>, ptr [[FQ1F]], align 4
; CHECK-NEXT: [[FW1F:%.*]] = zext <4 x i32> [[FL1F]] to <4 x i64>
; CHECK-NEXT: [[FS1F:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[FW1F]])
; CHECK-NEXT: [[FT1F:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 14
; CHECK-NEXT: [[FO1F:%.*]] = load i64, ptr [[FT1F]], align 8
; CHECK-NEXT: [[FN1F:%.*]] = add i64 [[FO1F]], [[FS1F]]
; CHECK-NEXT: store i64 [[FN1F]], ptr [[FT1F]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[FQ1F]], align 4
; CHECK-NEXT: [[FQ2F:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 8
; CHECK-NEXT: [[FL2F:%.*]] = load <4 x i32>, ptr [[FQ2F]], align 4
; CHECK-NEXT: [[FW2F:%.*]] = zext <4 x i32> [[FL2F]] to <4 x i64>
; CHECK-NEXT: [[FS2F:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[FW2F]])
; CHECK-NEXT: [[FT2F:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 15
; CHECK-NEXT: [[FO2F:%.*]] = load i64, ptr [[FT2F]], align 8
; CHECK-NEXT: [[FN2F:%.*]] = add i64 [[FO2F]], [[FS2F]]
; CHECK-NEXT: store i64 [[FN2F]], ptr [[FT2F]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[FQ2F]], align 4
; CHECK-NEXT: [[FQ3F:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 12
; CHECK-NEXT: [[FL3F:%.*]] = load <4 x i32>, ptr [[FQ3F]], align 4
; CHECK-NEXT: [[FW3F:%.*]] = zext <4 x i32> [[FL3F]] to <4 x i64>
; CHECK-NEXT: [[FS3F:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[FW3F]])
; CHECK-NEXT: [[FT3F:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 16
; CHECK-NEXT: [[FO3F:%.*]] = load i64, ptr [[FT3F]], align 8
; CHECK-NEXT: [[FN3F:%.*]] = add i64 [[FO3F]], [[FS3F]]
; CHECK-NEXT: store i64 [[FN3F]], ptr [[FT3F]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[FQ3F]], align 4
; CHECK-NEXT: br label %[[JOINF]]
; CHECK-EMPTY:
; CHECK-NEXT: {{^}}[[JOINF]]:
; CHECK-NEXT: [[CI:%.*]] = load atomic i32, ptr getelementptr inbounds ([9 x i32], ptr @taintprof.creator_ix, i64 0, i64 1) monotonic, align 4
; CHECK-NEXT: [[CZ:%.*]] = icmp eq i32 [[CI]], 0
; CHECK-NEXT: br i1 [[CZ]], label %{{[0-9]+}}, label %[[MRG:[0-9]+]], !prof
; CHECK: call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1))
; CHECK: [[MRG]]:
; CHECK: [[MEV:%.*]] = shufflevector <4 x i32> {{%.*}}, <4 x i32> poison, <4 x i32> zeroinitializer
; CHECK-NEXT: and <4 x i32> [[TC:%[0-9]+]],
; CHECK: [[ACC:%.*]] = select <4 x i1> [[DC]], <4 x i32> {{%.*}}, <4 x i32> [[MEV]]
; CHECK-NEXT: and <4 x i32> [[TB:%[0-9]+]],
; CHECK: [[ACB:%.*]] = select <4 x i1> [[DB]], <4 x i32> {{%.*}}, <4 x i32> [[ACC]]
; CHECK-NEXT: and <4 x i32> [[TA:%[0-9]+]],
; CHECK: [[ACA:%.*]] = select <4 x i1> [[DA]], <4 x i32> {{%.*}}, <4 x i32> [[ACB]]
; CHECK-NEXT: [[TM:%.*]] = select <4 x i1> [[DR]], <4 x i32> [[ACA]], <4 x i32> zeroinitializer
; CHECK-NEXT: br label %[[AFTER]]
; CHECK: [[AFTER]]:
; CHECK-NEXT: phi <4 x i32> [ zeroinitializer, %{{[0-9]+}} ], [ [[TM]], %[[MRG]] ]
; CHECK-NOT: call void @__tpd_op
; CHECK: ret <4 x float> %r
; HOOK-LABEL: define <4 x float> @fma(
; HOOK: [[M1:%.*]] = shl i64 {{%.*}}, 16
; HOOK: [[M2:%.*]] = shl i64 {{%.*}}, 32
; HOOK: store <4 x i32> {{%.*}}, ptr [[OPT:%[0-9]+]], align 4
; HOOK-NEXT: select <4 x i1>
; HOOK-NEXT: [[S1:%.*]] = getelementptr inbounds i32, ptr [[OPT]], i64 4
; HOOK-NEXT: store <4 x i32> {{%.*}}, ptr [[S1]], align 4
; HOOK-NEXT: select <4 x i1>
; HOOK-NEXT: [[S2:%.*]] = getelementptr inbounds i32, ptr [[OPT]], i64 8
; HOOK-NEXT: store <4 x i32> {{%.*}}, ptr [[S2]], align 4
; HOOK-NEXT: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1),
define <4 x float> @fma(<4 x float> %a, <4 x float> %b, <4 x float> %c) {
  %r = call <4 x float> @llvm.fma.v4f32(<4 x float> %a, <4 x float> %b, <4 x float> %c)
  ret <4 x float> %r
}

; CHECK-LABEL: define double @fmuladd(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK-NOT: call void @__tpd_op
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 25
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 26
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 27
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 28
; CHECK: load atomic i32, ptr getelementptr inbounds ([9 x i32], ptr @taintprof.creator_ix, i64 0, i64 2) monotonic, align 4
; CHECK: call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2))
; CHECK-NOT: call void @__tpd_op
; CHECK: ret double %r
; HOOK-LABEL: define double @fmuladd(
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2),
define double @fmuladd(double %a, double %b, double %c) {
  %r = call double @llvm.fmuladd.f64(double %a, double %b, double %c)
  ret double %r
}

; CHECK-LABEL: define float @minnum(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK-NOT: call void @__tpd_op
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 29
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 30
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 31
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 32
; CHECK: load atomic i32, ptr getelementptr inbounds ([9 x i32], ptr @taintprof.creator_ix, i64 0, i64 3) monotonic, align 4
; CHECK: call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 3))
; CHECK-NOT: call void @__tpd_op
; CHECK: ret float %r
; HOOK-LABEL: define float @minnum(
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 3),
define float @minnum(float %a, float %b) {
  %r = call float @llvm.minnum.f32(float %a, float %b)
  ret float %r
}

; A reduction: 4 lanes; the scalar start value is lane 0 of operand 0, the vector is
; operand 1; the scalar result is lane 0 of the result. Lane l of the result does not
; come from lane l of the operands, so even by default the site calls the hook.
; CHECK-LABEL: define float @reduce(
; CHECK: [[DS:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK: [[DV:%.*]] = icmp slt <4 x i32>
; CHECK: [[DR:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK: [[MS:%.*]] = zext i1 [[DS]] to i64
; CHECK-NEXT: [[IV:%.*]] = bitcast <4 x i1> [[DV]] to i4
; CHECK-NEXT: [[MV:%.*]] = zext i4 [[IV]] to i64
; CHECK-NEXT: [[MV16:%.*]] = shl i64 [[MV]], 16
; CHECK-NEXT: [[OPM:%.*]] = or i64 [[MS]], [[MV16]]
; CHECK-NEXT: [[RESM:%.*]] = zext i1 [[DR]] to i64
; CHECK: store i32 {{%.*}}, ptr [[OPT:%[0-9]+]], align 4
; CHECK-NEXT: select <4 x i1> [[DV]], <4 x i32> {{%.*}}, <4 x i32> zeroinitializer
; CHECK-NEXT: [[S1:%.*]] = getelementptr inbounds i32, ptr [[OPT]], i64 4
; CHECK-NEXT: store <4 x i32> {{%.*}}, ptr [[S1]], align 4
; CHECK-NEXT: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 4), i64 [[OPM]], i64 [[RESM]],
; CHECK-NEXT: load i32, ptr
; HOOK-LABEL: define float @reduce(
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 4), i64 {{%.*}}, i64 {{%.*}},
define float @reduce(float %s, <4 x float> %v) {
  %r = call float @llvm.vector.reduce.fadd.v4f32(float %s, <4 x float> %v)
  ret float %r
}

; FP→int: operands only. Inline: no result count term and no result tags; the hook
; gets result mask 0.
; CHECK-LABEL: define i1 @cls(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: [[DX:%.*]] = icmp slt i64 {{%.*}}, -9218868437227405313
; CHECK: br i1 {{%.*}}, label %[[INL:[0-9]+]], label %{{[0-9]+}}, !prof
; CHECK: [[INL]]:
; CHECK-NEXT: [[ZX:%.*]] = zext i1 [[DX]] to i64
; CHECK-NEXT: [[ZANY:%.*]] = zext i1 [[DX]] to i64
; CHECK-NEXT: [[NANY:%.*]] = shl i64 [[ZANY]], 8
; CHECK-NEXT: [[TOT:%.*]] = add i64 [[ZX]], [[NANY]]
; CHECK-NEXT: and i64 [[TOT]], 255
; CHECK-NEXT: getelementptr inbounds i64, ptr [[CB]], i64 33
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 34
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64
; CHECK-NEXT: store i64
; No result counts (counters 35 and 36 stay unused).
; CHECK-NEXT: br label
; CHECK-NOT: ptrtoint
; CHECK-NOT: @taintprof.creator_ix
; CHECK-NOT: call void @__tpd_op
; CHECK-NOT: store i32 {{.*}} @__tpd_ret_tag_tls
; CHECK: ret i1 %r
; HOOK-LABEL: define i1 @cls(
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 5), i64 {{%.*}}, i64 0,
; HOOK-NOT: store i32 {{.*}} @__tpd_ret_tag_tls
define i1 @cls(double %x) {
  %r = call i1 @llvm.is.fpclass.f64(double %x, i32 3)
  ret i1 %r
}

; CHECK-LABEL: define i64 @lround(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK-NOT: call void @__tpd_op
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 37
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 38
; CHECK-NOT: getelementptr inbounds i64, ptr [[CB]], i64 39
; CHECK-NOT: ptrtoint
; CHECK-NOT: @taintprof.creator_ix
; CHECK-NOT: call void @__tpd_op
; CHECK: ret i64 %r
; HOOK-LABEL: define i64 @lround(
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 6), i64 {{%.*}}, i64 0,
define i64 @lround(double %x) {
  %r = call i64 @llvm.lround.i64.f64(double %x)
  ret i64 %r
}

; frexp's mantissa is never denormal: the operand only.
; CHECK-LABEL: define i32 @frexp(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK-NOT: call void @__tpd_op
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 41
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 42
; CHECK-NOT: getelementptr inbounds i64, ptr [[CB]], i64 43
; CHECK-NOT: ptrtoint
; CHECK-NOT: @taintprof.creator_ix
; CHECK-NOT: call void @__tpd_op
; CHECK: ret i32 %e
; HOOK-LABEL: define i32 @frexp(
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 7), i64 {{%.*}}, i64 0,
define i32 @frexp(double %x) {
  %r = call { double, i32 } @llvm.frexp.f64.i32(double %x)
  %e = extractvalue { double, i32 } %r, 1
  ret i32 %e
}

; A subvector of a parameter: no site; its tag is the parameter's tag through the same
; intrinsic on <8 x i32>, which the fadd's inline result tags take as operand tag.
; CHECK-LABEL: define <4 x float> @sub(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: %r = call <4 x float> @llvm.vector.extract.v4f32.v8f32(<8 x float> %v, i64 4)
; CHECK: [[TV:%.*]] = shufflevector <8 x i32> {{%.*}}, <8 x i32> poison, <8 x i32> zeroinitializer
; CHECK-NEXT: [[TR:%.*]] = call <4 x i32> @llvm.vector.extract.v4i32.v8i32(<8 x i32> [[TV]], i64 4)
; CHECK-NOT: call void @__tpd_op
; The fadd's lane counts (word 49 on), folded into its totals 45..48.
; CHECK: [[LANES:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 49
; CHECK-NEXT: [[Z0:%.*]] = zext <4 x i1> [[D0:%.*]] to <4 x i32>
; CHECK-NEXT: [[Z1:%.*]] = zext <4 x i1> [[D1:%.*]] to <4 x i32>
; CHECK-NEXT: [[NOPS:%.*]] = add <4 x i32> [[Z0]], [[Z1]]
; CHECK-NEXT: [[ANY:%.*]] = or <4 x i1> [[D0]], [[D1]]
; CHECK-NEXT: [[LL0S:%.*]] = load volatile <4 x i32>, ptr [[LANES]], align 4
; CHECK-NEXT: [[LN0S:%.*]] = add <4 x i32> [[LL0S]], [[NOPS]]
; CHECK-NEXT: store volatile <4 x i32> [[LN0S]], ptr [[LANES]], align 4
; CHECK-NEXT: [[ZANY:%.*]] = zext <4 x i1> [[ANY]] to <4 x i32>
; CHECK-NEXT: [[LQ1S:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 4
; CHECK-NEXT: [[LL1S:%.*]] = load volatile <4 x i32>, ptr [[LQ1S]], align 4
; CHECK-NEXT: [[LN1S:%.*]] = add <4 x i32> [[LL1S]], [[ZANY]]
; CHECK-NEXT: store volatile <4 x i32> [[LN1S]], ptr [[LQ1S]], align 4
; CHECK-NEXT: [[LIVE:%.*]] = or <4 x i1> [[D0]], [[D1]]
; CHECK-NEXT: [[NOTOP:%.*]] = xor <4 x i1> [[LIVE]], <i1 true, i1 true, i1 true, i1 true>
; CHECK-NEXT: [[CR:%.*]] = and <4 x i1> [[DR:%.*]], [[NOTOP]]
; CHECK-NEXT: [[ZR:%.*]] = zext <4 x i1> [[DR]] to <4 x i32>
; CHECK-NEXT: [[LQ2S:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 8
; CHECK-NEXT: [[LL2S:%.*]] = load volatile <4 x i32>, ptr [[LQ2S]], align 4
; CHECK-NEXT: [[LN2S:%.*]] = add <4 x i32> [[LL2S]], [[ZR]]
; CHECK-NEXT: store volatile <4 x i32> [[LN2S]], ptr [[LQ2S]], align 4
; CHECK-NEXT: [[WATCH:%.*]] = or <4 x i32> [[LN0S]], [[LN2S]]
; CHECK-NEXT: [[ZCR:%.*]] = zext <4 x i1> [[CR]] to <4 x i32>
; CHECK-NEXT: [[LQ3S:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 12
; CHECK-NEXT: [[LL3S:%.*]] = load volatile <4 x i32>, ptr [[LQ3S]], align 4
; CHECK-NEXT: [[LN3S:%.*]] = add <4 x i32> [[LL3S]], [[ZCR]]
; CHECK-NEXT: store volatile <4 x i32> [[LN3S]], ptr [[LQ3S]], align 4
; CHECK-NEXT: [[OVS:%.*]] = icmp slt <4 x i32> [[WATCH]], zeroinitializer
; CHECK-NEXT: [[OBS:%.*]] = bitcast <4 x i1> [[OVS]] to i4
; CHECK-NEXT: [[OCS:%.*]] = icmp ne i4 [[OBS]], 0
; CHECK-NEXT: br i1 [[OCS]], label %[[FOLDS:[0-9]+]], label %[[JOINS:[0-9]+]], !prof [[RARE]]
; CHECK-EMPTY:
; CHECK-NEXT: {{^}}[[FOLDS]]:
; CHECK-NEXT: [[FL0S:%.*]] = load <4 x i32>, ptr [[LANES]], align 4
; CHECK-NEXT: [[FW0S:%.*]] = zext <4 x i32> [[FL0S]] to <4 x i64>
; CHECK-NEXT: [[FS0S:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[FW0S]])
; CHECK-NEXT: [[FT0S:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 45
; CHECK-NEXT: [[FO0S:%.*]] = load i64, ptr [[FT0S]], align 8
; CHECK-NEXT: [[FN0S:%.*]] = add i64 [[FO0S]], [[FS0S]]
; CHECK-NEXT: store i64 [[FN0S]], ptr [[FT0S]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[LANES]], align 4
; CHECK-NEXT: [[FQ1S:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 4
; CHECK-NEXT: [[FL1S:%.*]] = load <4 x i32>, ptr [[FQ1S]], align 4
; CHECK-NEXT: [[FW1S:%.*]] = zext <4 x i32> [[FL1S]] to <4 x i64>
; CHECK-NEXT: [[FS1S:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[FW1S]])
; CHECK-NEXT: [[FT1S:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 46
; CHECK-NEXT: [[FO1S:%.*]] = load i64, ptr [[FT1S]], align 8
; CHECK-NEXT: [[FN1S:%.*]] = add i64 [[FO1S]], [[FS1S]]
; CHECK-NEXT: store i64 [[FN1S]], ptr [[FT1S]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[FQ1S]], align 4
; CHECK-NEXT: [[FQ2S:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 8
; CHECK-NEXT: [[FL2S:%.*]] = load <4 x i32>, ptr [[FQ2S]], align 4
; CHECK-NEXT: [[FW2S:%.*]] = zext <4 x i32> [[FL2S]] to <4 x i64>
; CHECK-NEXT: [[FS2S:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[FW2S]])
; CHECK-NEXT: [[FT2S:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 47
; CHECK-NEXT: [[FO2S:%.*]] = load i64, ptr [[FT2S]], align 8
; CHECK-NEXT: [[FN2S:%.*]] = add i64 [[FO2S]], [[FS2S]]
; CHECK-NEXT: store i64 [[FN2S]], ptr [[FT2S]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[FQ2S]], align 4
; CHECK-NEXT: [[FQ3S:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 12
; CHECK-NEXT: [[FL3S:%.*]] = load <4 x i32>, ptr [[FQ3S]], align 4
; CHECK-NEXT: [[FW3S:%.*]] = zext <4 x i32> [[FL3S]] to <4 x i64>
; CHECK-NEXT: [[FS3S:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[FW3S]])
; CHECK-NEXT: [[FT3S:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 48
; CHECK-NEXT: [[FO3S:%.*]] = load i64, ptr [[FT3S]], align 8
; CHECK-NEXT: [[FN3S:%.*]] = add i64 [[FO3S]], [[FS3S]]
; CHECK-NEXT: store i64 [[FN3S]], ptr [[FT3S]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[FQ3S]], align 4
; CHECK-NEXT: br label %[[JOINS]]
; CHECK-EMPTY:
; CHECK-NEXT: {{^}}[[JOINS]]:
; CHECK-NEXT: load atomic i32, ptr getelementptr inbounds ([9 x i32], ptr @taintprof.creator_ix, i64 0, i64 8) monotonic, align 4
; CHECK: call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 8))
; CHECK: or <4 x i32> [[TR]], {{%.*}}
; CHECK-NOT: call void @__tpd_op
; CHECK: ret <4 x float> %s
; HOOK-LABEL: define <4 x float> @sub(
; HOOK: %r = call <4 x float> @llvm.vector.extract.v4f32.v8f32(<8 x float> %v, i64 4)
; HOOK: [[TV:%.*]] = shufflevector <8 x i32> {{%.*}}, <8 x i32> poison, <8 x i32> zeroinitializer
; HOOK-NEXT: [[TR:%.*]] = call <4 x i32> @llvm.vector.extract.v4i32.v8i32(<8 x i32> [[TV]], i64 4)
; HOOK: select <4 x i1> {{%.*}}, <4 x i32> [[TR]], <4 x i32> zeroinitializer
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 8),
define <4 x float> @sub(<8 x float> %v) {
  %r = call <4 x float> @llvm.vector.extract.v4f32.v8f32(<8 x float> %v, i64 4)
  %s = fadd <4 x float> %r, %r
  ret <4 x float> %s
}

; Debug-info and marker intrinsics are not sites even with FP arguments.
; CHECK-LABEL: define void @markers(
; CHECK-NOT: __tpd_op
; CHECK: ret void
; CHECK: [[RARE]] = !{!"branch_weights", i32 1, i32 1048575}
; HOOK-LABEL: define void @markers(
; HOOK-NOT: __tpd_op
; HOOK: ret void
define void @markers(ptr %p) {
  call void @llvm.lifetime.start.p0(i64 4, ptr %p)
  call void @llvm.lifetime.end.p0(i64 4, ptr %p)
  ret void
}

declare double @llvm.sqrt.f64(double)
declare <4 x float> @llvm.fma.v4f32(<4 x float>, <4 x float>, <4 x float>)
declare double @llvm.fmuladd.f64(double, double, double)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.vector.reduce.fadd.v4f32(float, <4 x float>)
declare i1 @llvm.is.fpclass.f64(double, i32)
declare i64 @llvm.lround.i64.f64(double)
declare { double, i32 } @llvm.frexp.f64.i32(double)
declare <4 x float> @llvm.vector.extract.v4f32.v8f32(<8 x float>, i64)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
