; Denormal mode, operations: every FP operation is a site. The fast path adds each
; tested value to a filter (u = (bits & abs_mask) - 1; scalars: umin, then u <u mant;
; float/double vectors: u as FP, running minimum, then u < MIN_NORMAL) and branches
; once, unlikely, to the cold region. The cold region recomputes the operation, takes
; the exact per-lane masks ((bits & abs) + bias <s limit) and, only when a mask is
; non-zero, handles the site inline, with no hook call and no tag buffer: it adds the
; site's counts (denormal operands, operations with a denormal operand, denormal
; results, results created: denormal with no denormal operand) to its four inline
; counters, numbered after the module's blocks (a vector site counts per lane first,
; in lane counts that follow its four counters and are folded into them when they
; grow large: see vfmul), and
; computes the result tags with selects (where the result is denormal: the tag of the
; first denormal operand, adopted by this site if it has no creator, or this site
; alone if no operand is denormal; 0 elsewhere). This site stands for itself by its
; creator index, read from its slot in @taintprof.creator_ix (asked of the runtime,
; `__tpd_creator_index`, the first time). The result's tag after the group is
; `phi [0, fast], [t, cold]`.
; With `no-dn-inline-ops` (prefix HOOK) the cold region calls `__tpd_op` instead, with
; the packed masks (operand k's lanes at bit 16 * k, the result's in their own mask)
; and the operand tags in a stack buffer, and takes the result tags from the hook; the
; sites then have no inline counters.
; RUN: env TAINTPROF_DN_COVER=0 %opt_denormal < %s | %FileCheck %s
; RUN: env TAINTPROF_DN_COVER=0 %opt_dn_hooks < %s | %FileCheck %s --check-prefix=HOOK
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; One FpSiteDesc per operation: op name, FP_* type (1 half, 2 float, 3 double,
; 4 x86_fp80, 5 fp128), lanes, flags, const_operands (bit k: operand k is a constant;
; only chain's `fsub %y, 1.0` has one, operand 1: 2), block counter, index, module,
; first of the four inline counters. The 11 blocks have counters 0-10; each site
; has four counters, and a vector site of n lanes has 2 * n more words of lane counts
; after them (vfmul and fptrunc 4 lanes, fdiv_v2d 2, v8 8), so
; n_blocks = 11 + 4 * 13 + 2 * (4 + 2 + 4 + 8) = 99 and the sites' counters start at
; 11, four apart, plus 2 * n after a vector site of n lanes.
; CHECK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 13, i32 99,
; CHECK: @taintprof.fpsites = private constant [13 x %taintprof.FpSiteDesc]
; CHECK-SAME: ptr @[[FADD:taintprof.str[.0-9]*]], i16 2, i16 1, i16 0, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 11, i32 0 }
; CHECK-SAME: ptr @[[FMUL:taintprof.str[.0-9]*]], i16 2, i16 4, i16 0, i16 0, i32 1, i32 1, ptr @taintprof.dn_module, i32 15, i32 1 }
; CHECK-SAME: ptr @[[FSUB:taintprof.str[.0-9]*]], i16 3, i16 1, i16 0, i16 0, i32 2, i32 2, ptr @taintprof.dn_module, i32 27, i32 2 }
; CHECK-SAME: ptr @[[FDIV:taintprof.str[.0-9]*]], i16 3, i16 2, i16 0, i16 0, i32 3, i32 3, ptr @taintprof.dn_module, i32 31, i32 3 }
; CHECK-SAME: ptr @[[FREM:taintprof.str[.0-9]*]], i16 1, i16 1, i16 0, i16 0, i32 4, i32 4, ptr @taintprof.dn_module, i32 39, i32 4 }
; CHECK-SAME: ptr @[[FNEG:taintprof.str[.0-9]*]], i16 4, i16 1, i16 0, i16 0, i32 5, i32 5, ptr @taintprof.dn_module, i32 43, i32 5 }
; CHECK-SAME: ptr @[[FADD]], i16 5, i16 1, i16 0, i16 0, i32 6, i32 6, ptr @taintprof.dn_module, i32 47, i32 6 }
; CHECK-SAME: ptr @[[FPEXT:taintprof.str[.0-9]*]], i16 3, i16 1, i16 0, i16 0, i32 7, i32 7, ptr @taintprof.dn_module, i32 51, i32 7 }
; CHECK-SAME: ptr @[[FPTRUNC:taintprof.str[.0-9]*]], i16 2, i16 4, i16 0, i16 0, i32 8, i32 8, ptr @taintprof.dn_module, i32 55, i32 8 }
; CHECK-SAME: ptr @[[FADD]], i16 2, i16 1, i16 0, i16 0, i32 9, i32 9, ptr @taintprof.dn_module, i32 67, i32 9 }
; CHECK-SAME: ptr @[[FMUL]], i16 2, i16 1, i16 0, i16 0, i32 9, i32 10, ptr @taintprof.dn_module, i32 71, i32 10 }
; CHECK-SAME: ptr @[[FSUB]], i16 2, i16 1, i16 0, i16 2, i32 9, i32 11, ptr @taintprof.dn_module, i32 75, i32 11 }
; CHECK-SAME: ptr @[[FADD]], i16 2, i16 8, i16 0, i16 0, i32 10, i32 12, ptr @taintprof.dn_module, i32 79, i32 12 }]
; CHECK-DAG: @[[FADD]] = private unnamed_addr constant [5 x i8] c"fadd\00"
; CHECK-DAG: @[[FMUL]] = private unnamed_addr constant [5 x i8] c"fmul\00"
; CHECK-DAG: @[[FSUB]] = private unnamed_addr constant [5 x i8] c"fsub\00"
; CHECK-DAG: @[[FDIV]] = private unnamed_addr constant [5 x i8] c"fdiv\00"
; CHECK-DAG: @[[FREM]] = private unnamed_addr constant [5 x i8] c"frem\00"
; CHECK-DAG: @[[FNEG]] = private unnamed_addr constant [5 x i8] c"fneg\00"
; CHECK-DAG: @[[FPEXT]] = private unnamed_addr constant [6 x i8] c"fpext\00"
; CHECK-DAG: @[[FPTRUNC]] = private unnamed_addr constant [8 x i8] c"fptrunc\00"
; With the hooks: the blocks alone, FPSITE_NO_COUNTERS (-1) everywhere.
; HOOK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 13, i32 11,
; HOOK: @taintprof.fpsites = private constant [13 x %taintprof.FpSiteDesc]
; HOOK-SAME: ptr @[[FADD:taintprof.str[.0-9]*]], i16 2, i16 1, i16 0, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 -1, i32 0 }
; HOOK-SAME: ptr @[[FMUL:taintprof.str[.0-9]*]], i16 2, i16 4, i16 0, i16 0, i32 1, i32 1, ptr @taintprof.dn_module, i32 -1, i32 1 }
; HOOK-SAME: ptr @[[FSUB:taintprof.str[.0-9]*]], i16 3, i16 1, i16 0, i16 0, i32 2, i32 2, ptr @taintprof.dn_module, i32 -1, i32 2 }
; HOOK-SAME: ptr @[[FDIV:taintprof.str[.0-9]*]], i16 3, i16 2, i16 0, i16 0, i32 3, i32 3, ptr @taintprof.dn_module, i32 -1, i32 3 }
; HOOK-SAME: ptr @[[FREM:taintprof.str[.0-9]*]], i16 1, i16 1, i16 0, i16 0, i32 4, i32 4, ptr @taintprof.dn_module, i32 -1, i32 4 }
; HOOK-SAME: ptr @[[FNEG:taintprof.str[.0-9]*]], i16 4, i16 1, i16 0, i16 0, i32 5, i32 5, ptr @taintprof.dn_module, i32 -1, i32 5 }
; HOOK-SAME: ptr @[[FADD]], i16 5, i16 1, i16 0, i16 0, i32 6, i32 6, ptr @taintprof.dn_module, i32 -1, i32 6 }
; HOOK-SAME: ptr @[[FPEXT:taintprof.str[.0-9]*]], i16 3, i16 1, i16 0, i16 0, i32 7, i32 7, ptr @taintprof.dn_module, i32 -1, i32 7 }
; HOOK-SAME: ptr @[[FPTRUNC:taintprof.str[.0-9]*]], i16 2, i16 4, i16 0, i16 0, i32 8, i32 8, ptr @taintprof.dn_module, i32 -1, i32 8 }
; HOOK-SAME: ptr @[[FADD]], i16 2, i16 1, i16 0, i16 0, i32 9, i32 9, ptr @taintprof.dn_module, i32 -1, i32 9 }
; HOOK-SAME: ptr @[[FMUL]], i16 2, i16 1, i16 0, i16 0, i32 9, i32 10, ptr @taintprof.dn_module, i32 -1, i32 10 }
; HOOK-SAME: ptr @[[FSUB]], i16 2, i16 1, i16 0, i16 2, i32 9, i32 11, ptr @taintprof.dn_module, i32 -1, i32 11 }
; HOOK-SAME: ptr @[[FADD]], i16 2, i16 8, i16 0, i16 0, i32 10, i32 12, ptr @taintprof.dn_module, i32 -1, i32 12 }]

; Scalar float: the whole sequence.
; CHECK-LABEL: define float @fadd(float %a, float %b)
; No tag buffers.
; CHECK-NOT: alloca
; The block counters (block 0 at the base).
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK-NEXT: load i64, ptr [[CB]], align 8
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
; Cold region: the operation again, exact masks.
; CHECK: [[COLD]]:
; CHECK-NEXT: [[R2:%.*]] = fadd float %a, %b
; CHECK-NEXT: [[XA:%.*]] = bitcast float %a to i32
; CHECK-NEXT: [[XA1:%.*]] = and i32 [[XA]], 2147483647
; CHECK-NEXT: [[XA2:%.*]] = add i32 [[XA1]], 2147483647
; CHECK-NEXT: [[DA:%.*]] = icmp slt i32 [[XA2]], -2139095041
; CHECK: [[DB:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK: [[XR:%.*]] = bitcast float [[R2]] to i32
; CHECK: [[DR:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; The inline part runs only when an operand or the result is denormal.
; CHECK: [[NEED:%.*]] = icmp ne i64 {{%.*}}, 0
; CHECK-NEXT: [[NF:%.*]] = freeze i1 [[NEED]]
; CHECK-NEXT: br i1 [[NF]], label %[[INL:[0-9]+]], label %[[AFTER:[0-9]+]], !prof [[UNLIKELY]]
; Counts, one byte each: denormal operands, "any operand denormal" << 8, denormal
; result << 16, created result (denormal, no operand denormal) << 24; added to
; counters 11, 12, 13, 14 (the site's, from its descriptor).
; CHECK: [[INL]]:
; CHECK-NEXT: [[ANYOP:%.*]] = or i1 [[DA]], [[DB]]
; CHECK-NEXT: [[ZA:%.*]] = zext i1 [[DA]] to i64
; CHECK-NEXT: [[ZB:%.*]] = zext i1 [[DB]] to i64
; CHECK-NEXT: [[NOPS:%.*]] = add i64 [[ZA]], [[ZB]]
; CHECK-NEXT: [[ZANY:%.*]] = zext i1 [[ANYOP]] to i64
; CHECK-NEXT: [[NANY:%.*]] = shl i64 [[ZANY]], 8
; CHECK-NEXT: [[N01:%.*]] = add i64 [[NOPS]], [[NANY]]
; CHECK-NEXT: [[ZR:%.*]] = zext i1 [[DR]] to i64
; CHECK-NEXT: [[NRES:%.*]] = shl i64 [[ZR]], 16
; CHECK-NEXT: [[N012:%.*]] = add i64 [[N01]], [[NRES]]
; CHECK-NEXT: [[LIVE:%.*]] = or i1 [[DA]], [[DB]]
; CHECK-NEXT: [[NOTOP:%.*]] = xor i1 [[LIVE]], true
; CHECK-NEXT: [[CR:%.*]] = and i1 [[DR]], [[NOTOP]]
; CHECK-NEXT: [[ZCR:%.*]] = zext i1 [[CR]] to i64
; CHECK-NEXT: [[NCR:%.*]] = shl i64 [[ZCR]], 24
; CHECK-NEXT: [[TOT:%.*]] = add i64 [[N012]], [[NCR]]
; CHECK-NEXT: [[K0:%.*]] = and i64 [[TOT]], 255
; CHECK-NEXT: [[P0:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 11
; CHECK-NEXT: [[V0:%.*]] = load i64, ptr [[P0]], align 8
; CHECK-NEXT: [[S0:%.*]] = add i64 [[V0]], [[K0]]
; CHECK-NEXT: store i64 [[S0]], ptr [[P0]], align 8
; CHECK-NEXT: [[SH1:%.*]] = lshr i64 [[TOT]], 8
; CHECK-NEXT: [[K1:%.*]] = and i64 [[SH1]], 255
; CHECK-NEXT: [[P1:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 12
; CHECK-NEXT: [[V1:%.*]] = load i64, ptr [[P1]], align 8
; CHECK-NEXT: [[S1:%.*]] = add i64 [[V1]], [[K1]]
; CHECK-NEXT: store i64 [[S1]], ptr [[P1]], align 8
; CHECK-NEXT: [[SH2:%.*]] = lshr i64 [[TOT]], 16
; CHECK-NEXT: [[K2:%.*]] = and i64 [[SH2]], 255
; CHECK-NEXT: [[P2:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 13
; CHECK-NEXT: [[V2:%.*]] = load i64, ptr [[P2]], align 8
; CHECK-NEXT: [[S2:%.*]] = add i64 [[V2]], [[K2]]
; CHECK-NEXT: store i64 [[S2]], ptr [[P2]], align 8
; CHECK-NEXT: [[K3:%.*]] = lshr i64 [[TOT]], 24
; CHECK-NEXT: [[P3:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 14
; CHECK-NEXT: [[V3:%.*]] = load i64, ptr [[P3]], align 8
; CHECK-NEXT: [[S3:%.*]] = add i64 [[V3]], [[K3]]
; CHECK-NEXT: store i64 [[S3]], ptr [[P3]], align 8
; Result tag: this site (its creator index, from its slot, or asked of the runtime the
; first time and kept in the slot); operands from last to first, so that the first
; denormal one wins; one without a creator is adopted.
; CHECK-NEXT: [[IX:%.*]] = load atomic i32, ptr @taintprof.creator_ix monotonic, align 4
; CHECK-NEXT: [[IX0:%.*]] = icmp eq i32 [[IX]], 0
; CHECK-NEXT: br i1 [[IX0]], label %[[ASK:[0-9]+]], label %[[HAVE:[0-9]+]], !prof [[UNLIKELY]]
; CHECK: [[ASK]]:
; CHECK-NEXT: [[NEW:%.*]] = call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr @taintprof.fpsites)
; CHECK-NEXT: store atomic i32 [[NEW]], ptr @taintprof.creator_ix monotonic, align 4
; CHECK-NEXT: br label %[[HAVE]]
; CHECK: [[HAVE]]:
; CHECK-NEXT: [[ME:%.*]] = phi i32 [ [[IX]], %[[INL]] ], [ [[NEW]], %[[ASK]] ]
; The operand tags are read only where their operand is denormal: unmasked.
; CHECK-NEXT: [[CRB:%.*]] = and i32 [[TB:%[0-9]+]], 65535
; CHECK-NEXT: [[ORB:%.*]] = icmp eq i32 [[CRB]], 0
; CHECK-NEXT: [[ADB:%.*]] = select i1 [[ORB]], i32 [[ME]], i32 0
; CHECK-NEXT: [[TB2:%.*]] = or i32 [[TB]], [[ADB]]
; CHECK-NEXT: [[ACB:%.*]] = select i1 [[DB]], i32 [[TB2]], i32 [[ME]]
; CHECK-NEXT: [[CRA:%.*]] = and i32 [[TA:%[0-9]+]], 65535
; CHECK-NEXT: [[ORA:%.*]] = icmp eq i32 [[CRA]], 0
; CHECK-NEXT: [[ADA:%.*]] = select i1 [[ORA]], i32 [[ME]], i32 0
; CHECK-NEXT: [[TA2:%.*]] = or i32 [[TA]], [[ADA]]
; CHECK-NEXT: [[ACA:%.*]] = select i1 [[DA]], i32 [[TA2]], i32 [[ACB]]
; CHECK-NEXT: [[TM:%.*]] = select i1 [[DR]], i32 [[ACA]], i32 0
; CHECK-NEXT: br label %[[AFTER]]
; CHECK: [[AFTER]]:
; CHECK-NEXT: [[TC:%.*]] = phi i32 [ 0, %[[COLD]] ], [ [[TM]], %[[HAVE]] ]
; CHECK: [[JOIN]]:
; CHECK-NEXT: [[TJ:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ [[TC]], %[[AFTER]] ]
; CHECK-NEXT: store i32 [[TJ]], ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: ret float %r
; With the hook: tag buffers sized for the function's widest site (two scalar
; operands, one result); operand k's lanes at bit 16 * k, the result's lanes in their
; own mask.
; HOOK-LABEL: define float @fadd(float %a, float %b)
; HOOK: [[OPT:%.*]] = alloca [2 x i32], align 16
; HOOK-NEXT: [[RT:%.*]] = alloca [1 x i32], align 16
; HOOK: %r = fadd float %a, %b
; HOOK: br i1 {{%.*}}, label %[[COLD:[0-9]+]], label %[[JOIN:[0-9]+]], !prof [[UNLIKELY:![0-9]+]]
; HOOK: [[COLD]]:
; HOOK-NEXT: [[R2:%.*]] = fadd float %a, %b
; HOOK-NEXT: [[XA:%.*]] = bitcast float %a to i32
; HOOK-NEXT: [[XA1:%.*]] = and i32 [[XA]], 2147483647
; HOOK-NEXT: [[XA2:%.*]] = add i32 [[XA1]], 2147483647
; HOOK-NEXT: [[DA:%.*]] = icmp slt i32 [[XA2]], -2139095041
; HOOK: [[DB:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; HOOK: [[XR:%.*]] = bitcast float [[R2]] to i32
; HOOK: [[DR:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; HOOK-NEXT: [[MA:%.*]] = zext i1 [[DA]] to i64
; HOOK-NEXT: [[MB:%.*]] = zext i1 [[DB]] to i64
; HOOK-NEXT: [[MB16:%.*]] = shl i64 [[MB]], 16
; HOOK-NEXT: [[OPM:%.*]] = or i64 [[MA]], [[MB16]]
; HOOK-NEXT: [[RESM:%.*]] = zext i1 [[DR]] to i64
; HOOK-NEXT: [[ALL:%.*]] = or i64 [[OPM]], [[RESM]]
; HOOK-NEXT: [[NEED:%.*]] = icmp ne i64 [[ALL]], 0
; HOOK-NEXT: [[NF:%.*]] = freeze i1 [[NEED]]
; HOOK-NEXT: br i1 [[NF]], label %[[CALL:[0-9]+]], label %[[AFTER:[0-9]+]], !prof [[UNLIKELY]]
; The hook gets the operand tags masked by their denormal lanes.
; HOOK: [[CALL]]:
; HOOK-NEXT: [[TA:%.*]] = select i1 [[DA]], i32 [[PA:%.*]], i32 0
; HOOK-NEXT: store i32 [[TA]], ptr [[OPT]], align 4
; HOOK-NEXT: [[TB:%.*]] = select i1 [[DB]], i32 [[PB:%.*]], i32 0
; HOOK-NEXT: [[SLOT1:%.*]] = getelementptr inbounds i32, ptr [[OPT]], i64 1
; HOOK-NEXT: store i32 [[TB]], ptr [[SLOT1]], align 4
; HOOK-NEXT: call void @__tpd_op(ptr @taintprof.fpsites, i64 [[OPM]], i64 [[RESM]], ptr [[OPT]], ptr [[RT]])
; HOOK-NEXT: [[T:%.*]] = load i32, ptr [[RT]], align 4
; HOOK-NEXT: [[TM:%.*]] = select i1 [[DR]], i32 [[T]], i32 0
; HOOK: [[AFTER]]:
; HOOK-NEXT: [[TC:%.*]] = phi i32 [ 0, %[[COLD]] ], [ [[TM]], %[[CALL]] ]
; HOOK: [[JOIN]]:
; HOOK-NEXT: [[TJ:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ [[TC]], %[[AFTER]] ]
; HOOK-NEXT: store i32 [[TJ]], ptr @__tpd_ret_tag_tls, align 8
; HOOK-NEXT: ret float %r
define float @fadd(float %a, float %b) {
  %r = fadd float %a, %b
  ret float %r
}

; Vectors of float: the filter is a running minimum (minps) starting at +inf, tested
; against FLT_MIN; the masks are <4 x i1>, the tags <4 x i32>. Inline, the counts
; are kept per lane: after the site's four counters (15-18) come its lane counts,
; one <4 x i32> per counter (2 * 4 = 8 words, 19-26); each count's lane mask is added
; to its lanes. When a lane of the operand or result counts (the larger ones) reaches
; 2^31, a rarely taken block folds every counter's lanes into its total (a zext to
; i64 lanes and a reduce.add) and clears them. The tags are selected per lane.
; CHECK-LABEL: define <4 x float> @vfmul(<4 x float> %a, <4 x float> %b)
; CHECK-NOT: alloca
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK-NEXT: getelementptr inbounds i64, ptr [[CB]], i64 1
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
; CHECK-NOT: select
; CHECK: br i1 {{%.*}}, label %[[INL:[0-9]+]], label %[[AFTER:[0-9]+]], !prof
; CHECK: [[INL]]:
; The lane counts at word 15 + 4 = 19; counter k's lanes at i32 4 * k from there.
; Denormal operands: the sum of the operand masks.
; CHECK-NEXT: [[LANES:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 19
; CHECK-NEXT: [[ZA:%.*]] = zext <4 x i1> [[DA]] to <4 x i32>
; CHECK-NEXT: [[ZB:%.*]] = zext <4 x i1> [[DB]] to <4 x i32>
; CHECK-NEXT: [[NOPS:%.*]] = add <4 x i32> [[ZA]], [[ZB]]
; CHECK-NEXT: [[ANYOP:%.*]] = or <4 x i1> [[DA]], [[DB]]
; CHECK-NEXT: [[L0:%.*]] = load volatile <4 x i32>, ptr [[LANES]], align 4
; CHECK-NEXT: [[S0:%.*]] = add <4 x i32> [[L0]], [[NOPS]]
; CHECK-NEXT: store volatile <4 x i32> [[S0]], ptr [[LANES]], align 4
; Operations with a denormal operand: the or of the masks.
; CHECK-NEXT: [[ZANY:%.*]] = zext <4 x i1> [[ANYOP]] to <4 x i32>
; CHECK-NEXT: [[P1:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 4
; CHECK-NEXT: [[L1:%.*]] = load volatile <4 x i32>, ptr [[P1]], align 4
; CHECK-NEXT: [[S1:%.*]] = add <4 x i32> [[L1]], [[ZANY]]
; CHECK-NEXT: store volatile <4 x i32> [[S1]], ptr [[P1]], align 4
; Denormal results; created: the result's mask without the operands'.
; CHECK-NEXT: [[LIVE:%.*]] = or <4 x i1> [[DA]], [[DB]]
; CHECK-NEXT: [[NOTOP:%.*]] = xor <4 x i1> [[LIVE]], <i1 true, i1 true, i1 true, i1 true>
; CHECK-NEXT: [[CR:%.*]] = and <4 x i1> [[DR]], [[NOTOP]]
; CHECK-NEXT: [[ZR:%.*]] = zext <4 x i1> [[DR]] to <4 x i32>
; CHECK-NEXT: [[P2:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 8
; CHECK-NEXT: [[L2:%.*]] = load volatile <4 x i32>, ptr [[P2]], align 4
; CHECK-NEXT: [[S2:%.*]] = add <4 x i32> [[L2]], [[ZR]]
; CHECK-NEXT: store volatile <4 x i32> [[S2]], ptr [[P2]], align 4
; CHECK-NEXT: [[WATCH:%.*]] = or <4 x i32> [[S0]], [[S2]]
; CHECK-NEXT: [[ZCR:%.*]] = zext <4 x i1> [[CR]] to <4 x i32>
; CHECK-NEXT: [[P3:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 12
; CHECK-NEXT: [[L3:%.*]] = load volatile <4 x i32>, ptr [[P3]], align 4
; CHECK-NEXT: [[S3:%.*]] = add <4 x i32> [[L3]], [[ZCR]]
; CHECK-NEXT: store volatile <4 x i32> [[S3]], ptr [[P3]], align 4
; Overflow: a lane of the operand or result counts with its top bit set.
; CHECK-NEXT: [[NEG:%.*]] = icmp slt <4 x i32> [[WATCH]], zeroinitializer
; CHECK-NEXT: [[NEGI:%.*]] = bitcast <4 x i1> [[NEG]] to i4
; CHECK-NEXT: [[FULL:%.*]] = icmp ne i4 [[NEGI]], 0
; CHECK-NEXT: br i1 [[FULL]], label %[[FOLD:[0-9]+]], label %[[FJ:[0-9]+]], !prof [[UNLIKELY]]
; The fold: each counter's lanes summed into its total (words 15-18), then cleared.
; CHECK: [[FOLD]]:
; CHECK-NEXT: [[F0:%.*]] = load <4 x i32>, ptr [[LANES]], align 4
; CHECK-NEXT: [[W0:%.*]] = zext <4 x i32> [[F0]] to <4 x i64>
; CHECK-NEXT: [[R0:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[W0]])
; CHECK-NEXT: [[T0:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 15
; CHECK-NEXT: [[V0:%.*]] = load i64, ptr [[T0]], align 8
; CHECK-NEXT: [[N0:%.*]] = add i64 [[V0]], [[R0]]
; CHECK-NEXT: store i64 [[N0]], ptr [[T0]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[LANES]], align 4
; CHECK-NEXT: [[Q1:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 4
; CHECK-NEXT: [[F1:%.*]] = load <4 x i32>, ptr [[Q1]], align 4
; CHECK-NEXT: [[W1:%.*]] = zext <4 x i32> [[F1]] to <4 x i64>
; CHECK-NEXT: [[R1:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[W1]])
; CHECK-NEXT: [[T1:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 16
; CHECK-NEXT: [[V1:%.*]] = load i64, ptr [[T1]], align 8
; CHECK-NEXT: [[N1:%.*]] = add i64 [[V1]], [[R1]]
; CHECK-NEXT: store i64 [[N1]], ptr [[T1]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[Q1]], align 4
; CHECK-NEXT: [[Q2:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 8
; CHECK-NEXT: [[F2:%.*]] = load <4 x i32>, ptr [[Q2]], align 4
; CHECK-NEXT: [[W2:%.*]] = zext <4 x i32> [[F2]] to <4 x i64>
; CHECK-NEXT: [[R2S:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[W2]])
; CHECK-NEXT: [[T2:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 17
; CHECK-NEXT: [[V2:%.*]] = load i64, ptr [[T2]], align 8
; CHECK-NEXT: [[N2:%.*]] = add i64 [[V2]], [[R2S]]
; CHECK-NEXT: store i64 [[N2]], ptr [[T2]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[Q2]], align 4
; CHECK-NEXT: [[Q3:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 12
; CHECK-NEXT: [[F3:%.*]] = load <4 x i32>, ptr [[Q3]], align 4
; CHECK-NEXT: [[W3:%.*]] = zext <4 x i32> [[F3]] to <4 x i64>
; CHECK-NEXT: [[R3:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[W3]])
; CHECK-NEXT: [[T3:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 18
; CHECK-NEXT: [[V3:%.*]] = load i64, ptr [[T3]], align 8
; CHECK-NEXT: [[N3:%.*]] = add i64 [[V3]], [[R3]]
; CHECK-NEXT: store i64 [[N3]], ptr [[T3]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[Q3]], align 4
; CHECK-NEXT: br label %[[FJ]]
; CHECK: [[FJ]]:
; CHECK-NEXT: [[IX:%.*]] = load atomic i32, ptr getelementptr inbounds ([13 x i32], ptr @taintprof.creator_ix, i64 0, i64 1) monotonic, align 4
; CHECK-NEXT: [[IX0:%.*]] = icmp eq i32 [[IX]], 0
; CHECK-NEXT: br i1 [[IX0]], label %[[ASK:[0-9]+]], label %[[HAVE:[0-9]+]], !prof
; CHECK: [[ASK]]:
; CHECK-NEXT: [[NEW:%.*]] = call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1))
; CHECK-NEXT: store atomic i32 [[NEW]], ptr getelementptr inbounds ([13 x i32], ptr @taintprof.creator_ix, i64 0, i64 1) monotonic, align 4
; CHECK-NEXT: br label %[[HAVE]]
; CHECK: [[HAVE]]:
; CHECK-NEXT: [[ME:%.*]] = phi i32 [ [[IX]], %[[FJ]] ], [ [[NEW]], %[[ASK]] ]
; CHECK-NEXT: [[ME0:%.*]] = insertelement <4 x i32> poison, i32 [[ME]], i32 0
; CHECK-NEXT: [[MEV:%.*]] = shufflevector <4 x i32> [[ME0]], <4 x i32> poison, <4 x i32> zeroinitializer
; CHECK-NEXT: [[CRB:%.*]] = and <4 x i32> [[TB:%[0-9]+]], <i32 65535, i32 65535, i32 65535, i32 65535>
; CHECK-NEXT: [[ORB:%.*]] = icmp eq <4 x i32> [[CRB]], zeroinitializer
; CHECK-NEXT: [[ADB:%.*]] = select <4 x i1> [[ORB]], <4 x i32> [[MEV]], <4 x i32> zeroinitializer
; CHECK-NEXT: [[TB2:%.*]] = or <4 x i32> [[TB]], [[ADB]]
; CHECK-NEXT: [[ACB:%.*]] = select <4 x i1> [[DB]], <4 x i32> [[TB2]], <4 x i32> [[MEV]]
; CHECK-NEXT: [[CRA:%.*]] = and <4 x i32> [[TA:%[0-9]+]], <i32 65535, i32 65535, i32 65535, i32 65535>
; CHECK-NEXT: [[ORA:%.*]] = icmp eq <4 x i32> [[CRA]], zeroinitializer
; CHECK-NEXT: [[ADA:%.*]] = select <4 x i1> [[ORA]], <4 x i32> [[MEV]], <4 x i32> zeroinitializer
; CHECK-NEXT: [[TA2:%.*]] = or <4 x i32> [[TA]], [[ADA]]
; CHECK-NEXT: [[ACA:%.*]] = select <4 x i1> [[DA]], <4 x i32> [[TA2]], <4 x i32> [[ACB]]
; CHECK-NEXT: [[TM:%.*]] = select <4 x i1> [[DR]], <4 x i32> [[ACA]], <4 x i32> zeroinitializer
; CHECK-NEXT: br label %[[AFTER]]
; CHECK: [[AFTER]]:
; CHECK-NEXT: [[TV:%.*]] = phi <4 x i32> [ zeroinitializer, %{{[0-9]+}} ], [ [[TM]], %[[HAVE]] ]
; The returned vector's tag is collapsed (first non-zero lane) inside the cold region.
; CHECK: [[C0:%.*]] = extractelement <4 x i32> [[TV]], i32 0
; CHECK: br label %[[JOIN:[0-9]+]]
; CHECK: [[JOIN]]:
; CHECK-NEXT: [[TJ:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK-NEXT: store i32 [[TJ]], ptr @__tpd_ret_tag_tls
; With the hook, the masks are <4 x i1> → i4 → i64.
; HOOK-LABEL: define <4 x float> @vfmul(<4 x float> %a, <4 x float> %b)
; HOOK: [[DA:%.*]] = icmp slt <4 x i32> {{%.*}}, <i32 -2139095041, i32 -2139095041, i32 -2139095041, i32 -2139095041>
; HOOK: [[DB:%.*]] = icmp slt <4 x i32>
; HOOK: [[DR:%.*]] = icmp slt <4 x i32>
; HOOK: [[IA:%.*]] = bitcast <4 x i1> [[DA]] to i4
; HOOK-NEXT: [[MA:%.*]] = zext i4 [[IA]] to i64
; HOOK-NEXT: [[IB:%.*]] = bitcast <4 x i1> [[DB]] to i4
; HOOK-NEXT: [[MB:%.*]] = zext i4 [[IB]] to i64
; HOOK-NEXT: [[MB16:%.*]] = shl i64 [[MB]], 16
; HOOK-NEXT: [[OPM:%.*]] = or i64 [[MA]], [[MB16]]
; HOOK-NEXT: [[IR:%.*]] = bitcast <4 x i1> [[DR]] to i4
; HOOK-NEXT: [[RESM:%.*]] = zext i4 [[IR]] to i64
; HOOK: [[TA:%.*]] = select <4 x i1> [[DA]], <4 x i32> {{%.*}}, <4 x i32> zeroinitializer
; HOOK-NEXT: store <4 x i32> [[TA]], ptr [[OPT:%.*]], align 4
; HOOK-NEXT: [[TB:%.*]] = select <4 x i1> [[DB]], <4 x i32> {{%.*}}, <4 x i32> zeroinitializer
; HOOK-NEXT: [[SLOT1:%.*]] = getelementptr inbounds i32, ptr [[OPT]], i64 4
; HOOK-NEXT: store <4 x i32> [[TB]], ptr [[SLOT1]], align 4
; HOOK-NEXT: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1), i64 [[OPM]], i64 [[RESM]], ptr [[OPT]], ptr [[RT:%.*]])
; HOOK-NEXT: [[T:%.*]] = load <4 x i32>, ptr [[RT]], align 4
; HOOK-NEXT: select <4 x i1> [[DR]], <4 x i32> [[T]], <4 x i32> zeroinitializer
; HOOK: [[C0:%.*]] = extractelement <4 x i32> {{%.*}}, i32 0
; HOOK: br label %[[JOIN:[0-9]+]]
; HOOK: [[JOIN]]:
; HOOK-NEXT: [[TJ:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; HOOK-NEXT: store i32 [[TJ]], ptr @__tpd_ret_tag_tls
define <4 x float> @vfmul(<4 x float> %a, <4 x float> %b) {
  %r = fmul <4 x float> %a, %b
  ret <4 x float> %r
}

; Scalar double: i64 constants (DBL_MIN's mantissa, bias, limit).
; CHECK-LABEL: define double @fsub_d(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: and i64 {{%.*}}, 9223372036854775807
; CHECK-NEXT: add i64 {{%.*}}, -1
; CHECK: call i64 @llvm.umin.i64(
; CHECK: icmp ult i64 {{%.*}}, 4503599627370495
; CHECK: add i64 {{%.*}}, 9223372036854775807
; CHECK-NEXT: icmp slt i64 {{%.*}}, -9218868437227405313
; CHECK-NOT: call void @__tpd_op
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 27
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 28
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 29
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 30
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64
; CHECK-NEXT: store i64
; CHECK-NEXT: load atomic i32, ptr getelementptr inbounds ([13 x i32], ptr @taintprof.creator_ix, i64 0, i64 2) monotonic, align 4
; CHECK-NOT: call void @__tpd_op
; CHECK: ret double %r
; HOOK-LABEL: define double @fsub_d(
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2),
define double @fsub_d(double %a, double %b) {
  %r = fsub double %a, %b
  ret double %r
}

; Vectors of double: minpd against DBL_MIN (no 64-bit integer vector compare needed).
; Two lanes: counters 31-34, lane counts (<2 x i32> each) at 35-38.
; CHECK-LABEL: define <2 x double> @fdiv_v2d(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: fcmp olt <2 x double> {{%.*}}, <double 0x7FF0000000000000, double 0x7FF0000000000000>
; CHECK: fcmp olt <2 x double> {{%.*}}, <double 0x10000000000000, double 0x10000000000000>
; CHECK: call i1 @llvm.vector.reduce.or.v2i1(
; CHECK: icmp slt <2 x i64> {{%.*}}, <i64 -9218868437227405313, i64 -9218868437227405313>
; CHECK-NOT: call void @__tpd_op
; CHECK: [[LANES:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 35
; CHECK: load volatile <2 x i32>, ptr [[LANES]], align 4
; CHECK: store volatile <2 x i32> {{%.*}}, ptr [[LANES]], align 4
; CHECK: getelementptr inbounds i32, ptr [[LANES]], i64 2
; CHECK: getelementptr inbounds i32, ptr [[LANES]], i64 4
; CHECK: getelementptr inbounds i32, ptr [[LANES]], i64 6
; CHECK: [[NEG:%.*]] = icmp slt <2 x i32> {{%.*}}, zeroinitializer
; CHECK-NEXT: [[NEGI:%.*]] = bitcast <2 x i1> [[NEG]] to i2
; CHECK-NEXT: [[FULL:%.*]] = icmp ne i2 [[NEGI]], 0
; CHECK-NEXT: br i1 [[FULL]], label %[[FOLD:[0-9]+]], label %{{[0-9]+}}, !prof [[UNLIKELY]]
; CHECK: [[FOLD]]:
; CHECK-NEXT: load <2 x i32>, ptr [[LANES]], align 4
; CHECK-NEXT: zext <2 x i32> {{%.*}} to <2 x i64>
; CHECK-NEXT: call i64 @llvm.vector.reduce.add.v2i64(<2 x i64>
; CHECK-NEXT: getelementptr inbounds i64, ptr [[CB]], i64 31
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 32
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 33
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 34
; CHECK: load atomic i32, ptr getelementptr inbounds ([13 x i32], ptr @taintprof.creator_ix, i64 0, i64 3) monotonic, align 4
; CHECK: [[MEV:%.*]] = shufflevector <2 x i32>
; CHECK: [[ACB:%.*]] = select <2 x i1> {{%.*}}, <2 x i32> {{%.*}}, <2 x i32> [[MEV]]
; CHECK: [[ACA:%.*]] = select <2 x i1> {{%.*}}, <2 x i32> {{%.*}}, <2 x i32> [[ACB]]
; CHECK-NEXT: [[TM:%.*]] = select <2 x i1> {{%.*}}, <2 x i32> [[ACA]], <2 x i32> zeroinitializer
; CHECK-NEXT: br label
; CHECK-NOT: call void @__tpd_op
; CHECK: phi <2 x i32> [ zeroinitializer, %{{[0-9]+}} ], [ [[TM]], %{{[0-9]+}} ]
; HOOK-LABEL: define <2 x double> @fdiv_v2d(
; HOOK: icmp slt <2 x i64> {{%.*}}, <i64 -9218868437227405313, i64 -9218868437227405313>
; HOOK: bitcast <2 x i1> {{%.*}} to i2
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 3),
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
; counts as denormal, as the x87 treats it); a single operand, so the inline count of
; operations with a denormal operand is that operand's mask (and the created count
; the result's mask without it).
; CHECK-LABEL: define x86_fp80 @fneg_ld(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: bitcast x86_fp80 %a to i80
; CHECK-NEXT: and i80 {{%.*}}, 604462909807314587353087
; CHECK-NEXT: add i80 {{%.*}}, -1
; CHECK: %r = fneg x86_fp80 %a
; CHECK: icmp ult i80 {{%.*}}, 18446744073709551615
; CHECK: [[DA:%.*]] = icmp slt i80 {{%.*}}, -604444463063240877801473
; CHECK-NOT: call void @__tpd_op
; CHECK: br i1 {{%.*}}, label %[[INL:[0-9]+]], label %{{[0-9]+}}, !prof
; CHECK: [[INL]]:
; CHECK-NEXT: [[ZA:%.*]] = zext i1 [[DA]] to i64
; CHECK-NEXT: [[ZANY:%.*]] = zext i1 [[DA]] to i64
; CHECK-NEXT: shl i64 [[ZANY]], 8
; CHECK: [[NOTA:%.*]] = xor i1 [[DA]], true
; CHECK-NEXT: and i1 {{%.*}}, [[NOTA]]
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 43
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 44
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 45
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 46
; CHECK: load atomic i32, ptr getelementptr inbounds ([13 x i32], ptr @taintprof.creator_ix, i64 0, i64 5) monotonic, align 4
; CHECK-NOT: call void @__tpd_op
; CHECK: ret x86_fp80 %r
; HOOK-LABEL: define x86_fp80 @fneg_ld(
; HOOK: icmp slt i80 {{%.*}}, -604444463063240877801473
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 5),
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
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: and i32 {{%.*}}, 2147483647
; CHECK: %r = fpext float %a to double
; CHECK-NEXT: bitcast double %r to i64
; CHECK: icmp ult i32 {{%.*}}, 8388607
; CHECK: icmp ult i64 {{%.*}}, 4503599627370495
; CHECK-NOT: call void @__tpd_op
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 51
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 52
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 53
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 54
; CHECK: load atomic i32, ptr getelementptr inbounds ([13 x i32], ptr @taintprof.creator_ix, i64 0, i64 7) monotonic, align 4
; CHECK-NOT: call void @__tpd_op
; CHECK: ret double %r
; HOOK-LABEL: define double @fpext(
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 7),
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
; cold region each site has its own condition and its own counters (67, 71, 75), in
; program order, and the first result's tag reaches the second operation as its
; operand tag. `1.0` is never denormal: the third site counts and tags one operand,
; and its created count leaves the constant out (const_operands 2).
; CHECK-LABEL: define float @chain(float %a, float %b, float %c)
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: %x = fadd float %a, %b
; CHECK: %y = fmul float %x, %c
; CHECK: %z = fsub float %y, 1.000000e+00
; CHECK: icmp ult i32 {{%.*}}, 8388607
; CHECK-NEXT: freeze i1
; CHECK-NEXT: br i1 {{%.*}}, label %{{[0-9]+}}, label %{{[0-9]+}}, !prof
; CHECK-NOT: icmp ult
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 67
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 69
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 70
; CHECK: load atomic i32, ptr getelementptr inbounds ([13 x i32], ptr @taintprof.creator_ix, i64 0, i64 9) monotonic, align 4
; CHECK: [[XT:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 71
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 73
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 74
; CHECK: load atomic i32, ptr getelementptr inbounds ([13 x i32], ptr @taintprof.creator_ix, i64 0, i64 10) monotonic, align 4
; %x is an operation's result, so its tag has a creator: no creator test on it.
; CHECK-NOT: and i32 [[XT]], 65535
; CHECK: select i1 {{%.*}}, i32 [[XT]], i32 {{%.*}}
; CHECK: [[YT:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK: [[ZD:%.*]] = icmp slt i32
; CHECK: br i1 {{%.*}}, label %[[ZINL:[0-9]+]], label %{{[0-9]+}}, !prof
; CHECK: [[ZINL]]:
; CHECK-NEXT: zext i1 [[ZD]] to i64
; CHECK-NEXT: [[ZANY:%.*]] = zext i1 [[ZD]] to i64
; CHECK-NEXT: shl i64 [[ZANY]], 8
; CHECK: [[ZNOT:%.*]] = xor i1 [[ZD]], true
; CHECK-NEXT: and i1 {{%.*}}, [[ZNOT]]
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 75
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 77
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 78
; CHECK: [[IX:%.*]] = load atomic i32, ptr getelementptr inbounds ([13 x i32], ptr @taintprof.creator_ix, i64 0, i64 11) monotonic, align 4
; CHECK: [[ME:%.*]] = phi i32 [ [[IX]], %[[ZINL]] ], [ {{%.*}}, %{{[0-9]+}} ]
; %y has a creator too: its tag goes through as it is.
; CHECK-NEXT: [[ONE:%.*]] = select i1 [[ZD]], i32 [[YT]], i32 [[ME]]
; CHECK-NEXT: select i1 {{%.*}}, i32 [[ONE]], i32 0
; CHECK-NOT: call void @__tpd_op
; CHECK: ret float %z
; HOOK-LABEL: define float @chain(float %a, float %b, float %c)
; HOOK: %z = fsub float %y, 1.000000e+00
; HOOK: icmp ult i32 {{%.*}}, 8388607
; HOOK-NEXT: freeze i1
; HOOK-NEXT: br i1 {{%.*}}, label %{{[0-9]+}}, label %{{[0-9]+}}, !prof
; HOOK-NOT: icmp ult
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 9),
; HOOK: [[XT:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; HOOK: select i1 {{%.*}}, i32 [[XT]], i32 0
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 10),
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([13 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 11),
; HOOK: ret float %z
define float @chain(float %a, float %b, float %c) {
  %x = fadd float %a, %b
  %y = fmul float %x, %c
  %z = fsub float %y, 1.0
  ret float %z
}

; Three sites of one block share its block counter (9 above); a <8 x float> is one
; descriptor of 8 lanes (wider vectors: dn-vectors.ll) with four inline counters
; (79-82) and their lane counts, one <8 x i32> each (2 * 8 = 16 words, 83-98), the
; last ones.
; CHECK-LABEL: define <8 x float> @v8(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: [[LANES:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 83
; CHECK: load volatile <8 x i32>, ptr [[LANES]], align 4
; CHECK: store volatile <8 x i32> {{%.*}}, ptr [[LANES]], align 4
; CHECK: getelementptr inbounds i32, ptr [[LANES]], i64 8
; CHECK: getelementptr inbounds i32, ptr [[LANES]], i64 16
; CHECK: getelementptr inbounds i32, ptr [[LANES]], i64 24
; CHECK: [[NEG:%.*]] = icmp slt <8 x i32> {{%.*}}, zeroinitializer
; CHECK-NEXT: [[NEGI:%.*]] = bitcast <8 x i1> [[NEG]] to i8
; CHECK-NEXT: [[FULL:%.*]] = icmp ne i8 [[NEGI]], 0
; CHECK-NEXT: br i1 [[FULL]], label %[[FOLD:[0-9]+]], label %{{[0-9]+}}, !prof [[UNLIKELY]]
; CHECK: [[FOLD]]:
; CHECK-NEXT: load <8 x i32>, ptr [[LANES]], align 4
; CHECK-NEXT: zext <8 x i32> {{%.*}} to <8 x i64>
; CHECK-NEXT: call i64 @llvm.vector.reduce.add.v8i64(<8 x i64>
; CHECK-NEXT: getelementptr inbounds i64, ptr [[CB]], i64 79
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 80
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 81
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 82
; CHECK-NOT: call void @__tpd_op
; CHECK: ret <8 x float> %r
define <8 x float> @v8(<8 x float> %a) {
  %r = fadd <8 x float> %a, %a
  ret <8 x float> %r
}

; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
; HOOK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
