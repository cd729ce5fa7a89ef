; Denormal mode, vectors wider than 16 lanes: the ABI's operand mask has 16 bits per
; operand, so a site of N > 16 lanes is described by ceil(N / 16) FpSiteDescs of 16
; lanes (same source position and operation: the report merges them; executions stay
; block count x lanes). Each chunk has its own hook call with its lanes' masks and, for
; memory, its own address (base + 16 * chunk * element size). An operation's chunks are
; handled inline, each on its own 16 lanes, with its own four counters (totals and
; per-lane counts) and its own descriptor as the tags' creator; with `no-dn-inline-ops` (prefix HOOK) each chunk
; calls `__tpd_op`.
; RUN: %opt_dn_nomem < %s | %FileCheck %s
; RUN: %opt_dn_hooks < %s | %FileCheck %s --check-prefix=HOOK
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; One block, then per fadd chunk its four totals and 2 * 16 words of lane counts (chunk
; 0: totals 1..4, lanes 5..36; chunk 1: totals 37..40, lanes 41..72): n_blocks = 73.
; CHECK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 6, i32 73,
; CHECK: @taintprof.fpsites = private constant [6 x %taintprof.FpSiteDesc]
; CHECK-SAME: ptr @[[LOAD:taintprof.str[.0-9]*]], i16 2, i16 16, i16 1, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 -1, i32 0 }
; CHECK-SAME: ptr @[[LOAD]], i16 2, i16 16, i16 1, i16 0, i32 0, i32 1, ptr @taintprof.dn_module, i32 -1, i32 0 }
; CHECK-SAME: ptr @[[FADD:taintprof.str[.0-9]*]], i16 2, i16 16, i16 0, i16 0, i32 0, i32 2, ptr @taintprof.dn_module, i32 1, i32 2 }
; CHECK-SAME: ptr @[[FADD]], i16 2, i16 16, i16 0, i16 0, i32 0, i32 3, ptr @taintprof.dn_module, i32 37, i32 2 }
; CHECK-SAME: ptr @[[STORE:taintprof.str[.0-9]*]], i16 2, i16 16, i16 2, i16 0, i32 0, i32 4, ptr @taintprof.dn_module, i32 -1, i32 4 }
; CHECK-SAME: ptr @[[STORE]], i16 2, i16 16, i16 2, i16 0, i32 0, i32 5, ptr @taintprof.dn_module, i32 -1, i32 4 }
; HOOK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 6, i32 1,
; HOOK: @taintprof.fpsites = private constant [6 x %taintprof.FpSiteDesc]
; HOOK-SAME: i16 2, i16 16, i16 1, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 -1, i32 0 }
; HOOK-SAME: i16 2, i16 16, i16 1, i16 0, i32 0, i32 1, ptr @taintprof.dn_module, i32 -1, i32 0 }
; HOOK-SAME: i16 2, i16 16, i16 0, i16 0, i32 0, i32 2, ptr @taintprof.dn_module, i32 -1, i32 2 }
; HOOK-SAME: i16 2, i16 16, i16 0, i16 0, i32 0, i32 3, ptr @taintprof.dn_module, i32 -1, i32 2 }
; HOOK-SAME: i16 2, i16 16, i16 2, i16 0, i32 0, i32 4, ptr @taintprof.dn_module, i32 -1, i32 4 }
; HOOK-SAME: i16 2, i16 16, i16 2, i16 0, i32 0, i32 5, ptr @taintprof.dn_module, i32 -1, i32 4 }

; CHECK-LABEL: define void @wide(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: [[M:%.*]] = icmp slt <32 x i32>
; CHECK: [[LO:%.*]] = shufflevector <32 x i1> [[M]], <32 x i1> poison, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>
; CHECK-NEXT: [[LOB:%.*]] = bitcast <16 x i1> [[LO]] to i16
; CHECK-NEXT: [[LOM:%.*]] = zext i16 [[LOB]] to i64
; CHECK: call void @__tpd_load(ptr @taintprof.fpsites, ptr %p, i64 [[LOM]],
; CHECK: [[HI:%.*]] = shufflevector <32 x i1> [[M]], <32 x i1> poison, <16 x i32> <i32 16, i32 17,
; CHECK-NEXT: [[HIB:%.*]] = bitcast <16 x i1> [[HI]] to i16
; CHECK-NEXT: [[HIM:%.*]] = zext i16 [[HIB]] to i64
; CHECK: [[P64:%.*]] = getelementptr inbounds i8, ptr %p, i64 64
; CHECK-NEXT: call void @__tpd_load(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1), ptr [[P64]], i64 [[HIM]],
; The chunks' tags are reassembled into the value's <32 x i32> tag.
; CHECK: insertelement <32 x i32> {{%.*}}, i32 {{%.*}}, i32 31
; The fadd's masks: operand 0, operand 1, result.
; CHECK: [[DA:%.*]] = icmp slt <32 x i32>
; CHECK: [[DB:%.*]] = icmp slt <32 x i32>
; CHECK: [[DR:%.*]] = icmp slt <32 x i32>
; CHECK-NOT: call void @__tpd_op
; Chunk 0: lanes 0-15, totals 1-4, lane counts 5-36, site 2.
; CHECK: br i1 {{%.*}}, label %[[INL0:[0-9]+]], label %{{[0-9]+}}, !prof
; CHECK: [[INL0]]:
; CHECK-NEXT: [[A0:%.*]] = shufflevector <32 x i1> [[DA]], <32 x i1> poison, <16 x i32> <i32 0, i32 1,
; CHECK-NEXT: shufflevector <32 x i32>
; CHECK-NEXT: [[B0:%.*]] = shufflevector <32 x i1> [[DB]], <32 x i1> poison, <16 x i32> <i32 0, i32 1,
; CHECK-NEXT: shufflevector <32 x i32>
; CHECK-NEXT: [[R0:%.*]] = shufflevector <32 x i1> [[DR]], <32 x i1> poison, <16 x i32> <i32 0, i32 1,
; The chunk's counts, each a <16 x i32> of lane counts from word 5 (counter k's at i32
; 16 * k), with no reduction across lanes.
; CHECK-NEXT: [[LANES0:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 5
; CHECK-NEXT: [[ZA0:%.*]] = zext <16 x i1> [[A0]] to <16 x i32>
; CHECK-NEXT: [[ZB0:%.*]] = zext <16 x i1> [[B0]] to <16 x i32>
; CHECK-NEXT: [[OPS0:%.*]] = add <16 x i32> [[ZA0]], [[ZB0]]
; CHECK-NEXT: [[ANY0:%.*]] = or <16 x i1> [[A0]], [[B0]]
; CHECK-NEXT: [[LL00:%.*]] = load volatile <16 x i32>, ptr [[LANES0]], align 4
; CHECK-NEXT: [[LN00:%.*]] = add <16 x i32> [[LL00]], [[OPS0]]
; CHECK-NEXT: store volatile <16 x i32> [[LN00]], ptr [[LANES0]], align 4
; CHECK-NEXT: [[ZANY0:%.*]] = zext <16 x i1> [[ANY0]] to <16 x i32>
; CHECK-NEXT: [[LQ10:%.*]] = getelementptr inbounds i32, ptr [[LANES0]], i64 16
; CHECK-NEXT: [[LL10:%.*]] = load volatile <16 x i32>, ptr [[LQ10]], align 4
; CHECK-NEXT: [[LN10:%.*]] = add <16 x i32> [[LL10]], [[ZANY0]]
; CHECK-NEXT: store volatile <16 x i32> [[LN10]], ptr [[LQ10]], align 4
; Created: the chunk's result lanes with neither operand lane denormal.
; CHECK-NEXT: [[L0:%.*]] = or <16 x i1> [[A0]], [[B0]]
; CHECK-NEXT: [[N0:%.*]] = xor <16 x i1> [[L0]], <i1 true,
; CHECK-NEXT: [[CR0:%.*]] = and <16 x i1> [[R0]], [[N0]]
; CHECK-NEXT: [[ZR0:%.*]] = zext <16 x i1> [[R0]] to <16 x i32>
; CHECK-NEXT: [[LQ20:%.*]] = getelementptr inbounds i32, ptr [[LANES0]], i64 32
; CHECK-NEXT: [[LL20:%.*]] = load volatile <16 x i32>, ptr [[LQ20]], align 4
; CHECK-NEXT: [[LN20:%.*]] = add <16 x i32> [[LL20]], [[ZR0]]
; CHECK-NEXT: store volatile <16 x i32> [[LN20]], ptr [[LQ20]], align 4
; CHECK-NEXT: [[WATCH0:%.*]] = or <16 x i32> [[LN00]], [[LN20]]
; CHECK-NEXT: [[ZCR0:%.*]] = zext <16 x i1> [[CR0]] to <16 x i32>
; CHECK-NEXT: [[LQ30:%.*]] = getelementptr inbounds i32, ptr [[LANES0]], i64 48
; CHECK-NEXT: [[LL30:%.*]] = load volatile <16 x i32>, ptr [[LQ30]], align 4
; CHECK-NEXT: [[LN30:%.*]] = add <16 x i32> [[LL30]], [[ZCR0]]
; CHECK-NEXT: store volatile <16 x i32> [[LN30]], ptr [[LQ30]], align 4
; A lane of the operand or result counts at 2^31: every lane is added to the totals
; (1..4) and cleared, in a rarely-taken block.
; CHECK-NEXT: [[OV0:%.*]] = icmp slt <16 x i32> [[WATCH0]], zeroinitializer
; CHECK-NEXT: [[OB0:%.*]] = bitcast <16 x i1> [[OV0]] to i16
; CHECK-NEXT: [[OC0:%.*]] = icmp ne i16 [[OB0]], 0
; CHECK-NEXT: br i1 [[OC0]], label %[[FOLD0:[0-9]+]], label %[[JOIN0:[0-9]+]], !prof [[RARE:![0-9]+]]
; CHECK-EMPTY:
; CHECK-NEXT: {{^}}[[FOLD0]]:
; CHECK-NEXT: [[FL00:%.*]] = load <16 x i32>, ptr [[LANES0]], align 4
; CHECK-NEXT: [[FW00:%.*]] = zext <16 x i32> [[FL00]] to <16 x i64>
; CHECK-NEXT: [[FS00:%.*]] = call i64 @llvm.vector.reduce.add.v16i64(<16 x i64> [[FW00]])
; CHECK-NEXT: [[FT00:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 1
; CHECK-NEXT: [[FO00:%.*]] = load i64, ptr [[FT00]], align 8
; CHECK-NEXT: [[FN00:%.*]] = add i64 [[FO00]], [[FS00]]
; CHECK-NEXT: store i64 [[FN00]], ptr [[FT00]], align 8
; CHECK-NEXT: store <16 x i32> zeroinitializer, ptr [[LANES0]], align 4
; CHECK-NEXT: [[FQ10:%.*]] = getelementptr inbounds i32, ptr [[LANES0]], i64 16
; CHECK-NEXT: [[FL10:%.*]] = load <16 x i32>, ptr [[FQ10]], align 4
; CHECK-NEXT: [[FW10:%.*]] = zext <16 x i32> [[FL10]] to <16 x i64>
; CHECK-NEXT: [[FS10:%.*]] = call i64 @llvm.vector.reduce.add.v16i64(<16 x i64> [[FW10]])
; CHECK-NEXT: [[FT10:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 2
; CHECK-NEXT: [[FO10:%.*]] = load i64, ptr [[FT10]], align 8
; CHECK-NEXT: [[FN10:%.*]] = add i64 [[FO10]], [[FS10]]
; CHECK-NEXT: store i64 [[FN10]], ptr [[FT10]], align 8
; CHECK-NEXT: store <16 x i32> zeroinitializer, ptr [[FQ10]], align 4
; CHECK-NEXT: [[FQ20:%.*]] = getelementptr inbounds i32, ptr [[LANES0]], i64 32
; CHECK-NEXT: [[FL20:%.*]] = load <16 x i32>, ptr [[FQ20]], align 4
; CHECK-NEXT: [[FW20:%.*]] = zext <16 x i32> [[FL20]] to <16 x i64>
; CHECK-NEXT: [[FS20:%.*]] = call i64 @llvm.vector.reduce.add.v16i64(<16 x i64> [[FW20]])
; CHECK-NEXT: [[FT20:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 3
; CHECK-NEXT: [[FO20:%.*]] = load i64, ptr [[FT20]], align 8
; CHECK-NEXT: [[FN20:%.*]] = add i64 [[FO20]], [[FS20]]
; CHECK-NEXT: store i64 [[FN20]], ptr [[FT20]], align 8
; CHECK-NEXT: store <16 x i32> zeroinitializer, ptr [[FQ20]], align 4
; CHECK-NEXT: [[FQ30:%.*]] = getelementptr inbounds i32, ptr [[LANES0]], i64 48
; CHECK-NEXT: [[FL30:%.*]] = load <16 x i32>, ptr [[FQ30]], align 4
; CHECK-NEXT: [[FW30:%.*]] = zext <16 x i32> [[FL30]] to <16 x i64>
; CHECK-NEXT: [[FS30:%.*]] = call i64 @llvm.vector.reduce.add.v16i64(<16 x i64> [[FW30]])
; CHECK-NEXT: [[FT30:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 4
; CHECK-NEXT: [[FO30:%.*]] = load i64, ptr [[FT30]], align 8
; CHECK-NEXT: [[FN30:%.*]] = add i64 [[FO30]], [[FS30]]
; CHECK-NEXT: store i64 [[FN30]], ptr [[FT30]], align 8
; CHECK-NEXT: store <16 x i32> zeroinitializer, ptr [[FQ30]], align 4
; CHECK-NEXT: br label %[[JOIN0]]
; CHECK-EMPTY:
; CHECK-NEXT: {{^}}[[JOIN0]]:
; The creator index is read from its slot, or asked of the runtime the first time; the
; chunk's result tags follow where the two paths join.
; CHECK: [[CI0:%.*]] = load atomic i32, ptr getelementptr inbounds ([6 x i32], ptr @taintprof.creator_ix, i64 0, i64 2) monotonic, align 4
; CHECK: [[CC0:%.*]] = call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2))
; CHECK: [[CJ0:[0-9]+]]:
; CHECK-NEXT: phi i32 [ [[CI0]], %[[JOIN0]] ], [ [[CC0]], %{{[0-9]+}} ]
; CHECK: [[T0:%.*]] = select <16 x i1> [[R0]], <16 x i32> {{%.*}}, <16 x i32> zeroinitializer
; CHECK-NEXT: br label
; CHECK: [[P0:%.*]] = phi <16 x i32> [ zeroinitializer, %{{[0-9]+}} ], [ [[T0]], %[[CJ0]] ]
; CHECK-NOT: call void @__tpd_op
; Chunk 1: lanes 16-31, totals 37-40, lane counts 41-72, site 3.
; CHECK: br i1 {{%.*}}, label %[[INL1:[0-9]+]], label %{{[0-9]+}}, !prof
; CHECK: [[INL1]]:
; CHECK-NEXT: [[A1:%.*]] = shufflevector <32 x i1> [[DA]], <32 x i1> poison, <16 x i32> <i32 16, i32 17,
; CHECK-NEXT: shufflevector <32 x i32>
; CHECK-NEXT: [[B1:%.*]] = shufflevector <32 x i1> [[DB]], <32 x i1> poison, <16 x i32> <i32 16, i32 17,
; CHECK-NEXT: shufflevector <32 x i32>
; CHECK-NEXT: [[R1:%.*]] = shufflevector <32 x i1> [[DR]], <32 x i1> poison, <16 x i32> <i32 16, i32 17,
; CHECK-NEXT: [[LANES1:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 41
; CHECK-NEXT: [[ZA1:%.*]] = zext <16 x i1> [[A1]] to <16 x i32>
; CHECK-NEXT: [[ZB1:%.*]] = zext <16 x i1> [[B1]] to <16 x i32>
; CHECK-NEXT: [[OPS1:%.*]] = add <16 x i32> [[ZA1]], [[ZB1]]
; CHECK-NEXT: [[ANY1:%.*]] = or <16 x i1> [[A1]], [[B1]]
; CHECK-NEXT: [[LL01:%.*]] = load volatile <16 x i32>, ptr [[LANES1]], align 4
; CHECK-NEXT: [[LN01:%.*]] = add <16 x i32> [[LL01]], [[OPS1]]
; CHECK-NEXT: store volatile <16 x i32> [[LN01]], ptr [[LANES1]], align 4
; CHECK-NEXT: [[ZANY1:%.*]] = zext <16 x i1> [[ANY1]] to <16 x i32>
; CHECK-NEXT: [[LQ11:%.*]] = getelementptr inbounds i32, ptr [[LANES1]], i64 16
; CHECK-NEXT: [[LL11:%.*]] = load volatile <16 x i32>, ptr [[LQ11]], align 4
; CHECK-NEXT: [[LN11:%.*]] = add <16 x i32> [[LL11]], [[ZANY1]]
; CHECK-NEXT: store volatile <16 x i32> [[LN11]], ptr [[LQ11]], align 4
; Created: the chunk's result lanes with neither operand lane denormal.
; CHECK-NEXT: [[L1:%.*]] = or <16 x i1> [[A1]], [[B1]]
; CHECK-NEXT: [[N1:%.*]] = xor <16 x i1> [[L1]], <i1 true,
; CHECK-NEXT: [[CR1:%.*]] = and <16 x i1> [[R1]], [[N1]]
; CHECK-NEXT: [[ZR1:%.*]] = zext <16 x i1> [[R1]] to <16 x i32>
; CHECK-NEXT: [[LQ21:%.*]] = getelementptr inbounds i32, ptr [[LANES1]], i64 32
; CHECK-NEXT: [[LL21:%.*]] = load volatile <16 x i32>, ptr [[LQ21]], align 4
; CHECK-NEXT: [[LN21:%.*]] = add <16 x i32> [[LL21]], [[ZR1]]
; CHECK-NEXT: store volatile <16 x i32> [[LN21]], ptr [[LQ21]], align 4
; CHECK-NEXT: [[WATCH1:%.*]] = or <16 x i32> [[LN01]], [[LN21]]
; CHECK-NEXT: [[ZCR1:%.*]] = zext <16 x i1> [[CR1]] to <16 x i32>
; CHECK-NEXT: [[LQ31:%.*]] = getelementptr inbounds i32, ptr [[LANES1]], i64 48
; CHECK-NEXT: [[LL31:%.*]] = load volatile <16 x i32>, ptr [[LQ31]], align 4
; CHECK-NEXT: [[LN31:%.*]] = add <16 x i32> [[LL31]], [[ZCR1]]
; CHECK-NEXT: store volatile <16 x i32> [[LN31]], ptr [[LQ31]], align 4
; A lane of the operand or result counts at 2^31: every lane is added to the totals
; (37..40) and cleared, in a rarely-taken block.
; CHECK-NEXT: [[OV1:%.*]] = icmp slt <16 x i32> [[WATCH1]], zeroinitializer
; CHECK-NEXT: [[OB1:%.*]] = bitcast <16 x i1> [[OV1]] to i16
; CHECK-NEXT: [[OC1:%.*]] = icmp ne i16 [[OB1]], 0
; CHECK-NEXT: br i1 [[OC1]], label %[[FOLD1:[0-9]+]], label %[[JOIN1:[0-9]+]], !prof [[RARE]]
; CHECK-EMPTY:
; CHECK-NEXT: {{^}}[[FOLD1]]:
; CHECK-NEXT: [[FL01:%.*]] = load <16 x i32>, ptr [[LANES1]], align 4
; CHECK-NEXT: [[FW01:%.*]] = zext <16 x i32> [[FL01]] to <16 x i64>
; CHECK-NEXT: [[FS01:%.*]] = call i64 @llvm.vector.reduce.add.v16i64(<16 x i64> [[FW01]])
; CHECK-NEXT: [[FT01:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 37
; CHECK-NEXT: [[FO01:%.*]] = load i64, ptr [[FT01]], align 8
; CHECK-NEXT: [[FN01:%.*]] = add i64 [[FO01]], [[FS01]]
; CHECK-NEXT: store i64 [[FN01]], ptr [[FT01]], align 8
; CHECK-NEXT: store <16 x i32> zeroinitializer, ptr [[LANES1]], align 4
; CHECK-NEXT: [[FQ11:%.*]] = getelementptr inbounds i32, ptr [[LANES1]], i64 16
; CHECK-NEXT: [[FL11:%.*]] = load <16 x i32>, ptr [[FQ11]], align 4
; CHECK-NEXT: [[FW11:%.*]] = zext <16 x i32> [[FL11]] to <16 x i64>
; CHECK-NEXT: [[FS11:%.*]] = call i64 @llvm.vector.reduce.add.v16i64(<16 x i64> [[FW11]])
; CHECK-NEXT: [[FT11:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 38
; CHECK-NEXT: [[FO11:%.*]] = load i64, ptr [[FT11]], align 8
; CHECK-NEXT: [[FN11:%.*]] = add i64 [[FO11]], [[FS11]]
; CHECK-NEXT: store i64 [[FN11]], ptr [[FT11]], align 8
; CHECK-NEXT: store <16 x i32> zeroinitializer, ptr [[FQ11]], align 4
; CHECK-NEXT: [[FQ21:%.*]] = getelementptr inbounds i32, ptr [[LANES1]], i64 32
; CHECK-NEXT: [[FL21:%.*]] = load <16 x i32>, ptr [[FQ21]], align 4
; CHECK-NEXT: [[FW21:%.*]] = zext <16 x i32> [[FL21]] to <16 x i64>
; CHECK-NEXT: [[FS21:%.*]] = call i64 @llvm.vector.reduce.add.v16i64(<16 x i64> [[FW21]])
; CHECK-NEXT: [[FT21:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 39
; CHECK-NEXT: [[FO21:%.*]] = load i64, ptr [[FT21]], align 8
; CHECK-NEXT: [[FN21:%.*]] = add i64 [[FO21]], [[FS21]]
; CHECK-NEXT: store i64 [[FN21]], ptr [[FT21]], align 8
; CHECK-NEXT: store <16 x i32> zeroinitializer, ptr [[FQ21]], align 4
; CHECK-NEXT: [[FQ31:%.*]] = getelementptr inbounds i32, ptr [[LANES1]], i64 48
; CHECK-NEXT: [[FL31:%.*]] = load <16 x i32>, ptr [[FQ31]], align 4
; CHECK-NEXT: [[FW31:%.*]] = zext <16 x i32> [[FL31]] to <16 x i64>
; CHECK-NEXT: [[FS31:%.*]] = call i64 @llvm.vector.reduce.add.v16i64(<16 x i64> [[FW31]])
; CHECK-NEXT: [[FT31:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 40
; CHECK-NEXT: [[FO31:%.*]] = load i64, ptr [[FT31]], align 8
; CHECK-NEXT: [[FN31:%.*]] = add i64 [[FO31]], [[FS31]]
; CHECK-NEXT: store i64 [[FN31]], ptr [[FT31]], align 8
; CHECK-NEXT: store <16 x i32> zeroinitializer, ptr [[FQ31]], align 4
; CHECK-NEXT: br label %[[JOIN1]]
; CHECK-EMPTY:
; CHECK-NEXT: {{^}}[[JOIN1]]:
; The second chunk's creator is the first chunk's site (FpSiteDesc::creator): its
; creator index slot and the runtime's lookup are that site's.
; CHECK: [[CI1:%.*]] = load atomic i32, ptr getelementptr inbounds ([6 x i32], ptr @taintprof.creator_ix, i64 0, i64 2) monotonic, align 4
; CHECK: [[CC1:%.*]] = call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2))
; CHECK: [[CJ1:[0-9]+]]:
; CHECK-NEXT: phi i32 [ [[CI1]], %[[JOIN1]] ], [ [[CC1]], %{{[0-9]+}} ]
; CHECK: [[T1:%.*]] = select <16 x i1> [[R1]], <16 x i32> {{%.*}}, <16 x i32> zeroinitializer
; CHECK-NEXT: br label
; The chunks' result tags are reassembled for the store.
; CHECK: [[P1:%.*]] = phi <16 x i32> [ zeroinitializer, %{{[0-9]+}} ], [ [[T1]], %[[CJ1]] ]
; CHECK-NEXT: extractelement <16 x i32> [[P0]], i32 0
; CHECK-NOT: call void @__tpd_op
; CHECK: call void @__tpd_store(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 4), ptr %p,
; CHECK: call void @__tpd_store(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 5), ptr {{%.*}},
; CHECK: [[RARE]] = !{!"branch_weights", i32 1, i32 1048575}
; HOOK-LABEL: define void @wide(
; HOOK: insertelement <32 x i32> {{%.*}}, i32 {{%.*}}, i32 31
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2),
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 3),
; HOOK: call void @__tpd_store(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 4), ptr %p,
; HOOK: call void @__tpd_store(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 5), ptr {{%.*}},
define void @wide(ptr %p, <32 x float> %b) {
  %v = load <32 x float>, ptr %p
  %r = fadd <32 x float> %v, %b
  store <32 x float> %r, ptr %p
  ret void
}
