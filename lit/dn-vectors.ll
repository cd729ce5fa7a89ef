; Denormal mode, vectors wider than 16 lanes: the ABI's operand mask has 16 bits per
; operand, so a site of N > 16 lanes is described by ceil(N / 16) FpSiteDescs of 16
; lanes (same source position and operation: the report merges them; executions stay
; block count x lanes). Each chunk has its own hook call with its lanes' masks and, for
; memory, its own address (base + 16 * chunk * element size). An operation's chunks are
; handled inline, each on its own 16 lanes, with its own four counters and its own
; descriptor as the tags' creator; with `no-dn-inline-ops` (prefix HOOK) each chunk
; calls `__tpd_op`.
; RUN: %opt_dn_nomem < %s | %FileCheck %s
; RUN: %opt_dn_hooks < %s | %FileCheck %s --check-prefix=HOOK
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; One block, then four inline counters per fadd chunk (1 and 5): n_blocks = 9.
; CHECK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 12, ptr @{{.*}}, ptr @taintprof.fpsites, i32 6, i32 9,
; CHECK: @taintprof.fpsites = private constant [6 x %taintprof.FpSiteDesc]
; CHECK-SAME: ptr @[[LOAD:taintprof.str[.0-9]*]], i16 2, i16 16, i16 1, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 -1, i32 0 }
; CHECK-SAME: ptr @[[LOAD]], i16 2, i16 16, i16 1, i16 0, i32 0, i32 1, ptr @taintprof.dn_module, i32 -1, i32 0 }
; CHECK-SAME: ptr @[[FADD:taintprof.str[.0-9]*]], i16 2, i16 16, i16 0, i16 0, i32 0, i32 2, ptr @taintprof.dn_module, i32 1, i32 2 }
; CHECK-SAME: ptr @[[FADD]], i16 2, i16 16, i16 0, i16 0, i32 0, i32 3, ptr @taintprof.dn_module, i32 5, i32 2 }
; CHECK-SAME: ptr @[[STORE:taintprof.str[.0-9]*]], i16 2, i16 16, i16 2, i16 0, i32 0, i32 4, ptr @taintprof.dn_module, i32 -1, i32 4 }
; CHECK-SAME: ptr @[[STORE]], i16 2, i16 16, i16 2, i16 0, i32 0, i32 5, ptr @taintprof.dn_module, i32 -1, i32 4 }
; HOOK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 12, ptr @{{.*}}, ptr @taintprof.fpsites, i32 6, i32 1,
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
; The chunks' tags are reassembled into the value's <32 x i64> tag.
; CHECK: insertelement <32 x i64> {{%.*}}, i64 {{%.*}}, i32 31
; The fadd's masks: operand 0, operand 1, result.
; CHECK: [[DA:%.*]] = icmp slt <32 x i32>
; CHECK: [[DB:%.*]] = icmp slt <32 x i32>
; CHECK: [[DR:%.*]] = icmp slt <32 x i32>
; CHECK-NOT: call void @__tpd_op
; Chunk 0: lanes 0-15, counters 1-4, site 2.
; CHECK: br i1 {{%.*}}, label %[[INL0:[0-9]+]], label %{{[0-9]+}}, !prof
; CHECK: [[INL0]]:
; CHECK-NEXT: [[A0:%.*]] = shufflevector <32 x i1> [[DA]], <32 x i1> poison, <16 x i32> <i32 0, i32 1,
; CHECK-NEXT: shufflevector <32 x i64>
; CHECK-NEXT: [[B0:%.*]] = shufflevector <32 x i1> [[DB]], <32 x i1> poison, <16 x i32> <i32 0, i32 1,
; CHECK-NEXT: shufflevector <32 x i64>
; CHECK-NEXT: [[R0:%.*]] = shufflevector <32 x i1> [[DR]], <32 x i1> poison, <16 x i32> <i32 0, i32 1,
; CHECK-NEXT: or <16 x i1> [[A0]], [[B0]]
; Created: the chunk's result lanes with neither operand lane denormal.
; CHECK: [[L0:%.*]] = or <16 x i1> [[A0]], [[B0]]
; CHECK-NEXT: [[N0:%.*]] = xor <16 x i1> [[L0]], <i1 true,
; CHECK-NEXT: and <16 x i1> [[R0]], [[N0]]
; CHECK: call i32 @llvm.vector.reduce.add.v16i32(<16 x i32>
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 1
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 2
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 3
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 4
; CHECK: and i64 ptrtoint (ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2) to i64), 281474976710655
; CHECK: [[T0:%.*]] = select <16 x i1> [[R0]], <16 x i64> {{%.*}}, <16 x i64> zeroinitializer
; CHECK-NEXT: br label
; CHECK: [[P0:%.*]] = phi <16 x i64> [ zeroinitializer, %{{[0-9]+}} ], [ [[T0]], %[[INL0]] ]
; CHECK-NOT: call void @__tpd_op
; Chunk 1: lanes 16-31, counters 5-8, site 3.
; CHECK: br i1 {{%.*}}, label %[[INL1:[0-9]+]], label %{{[0-9]+}}, !prof
; CHECK: [[INL1]]:
; CHECK-NEXT: [[A1:%.*]] = shufflevector <32 x i1> [[DA]], <32 x i1> poison, <16 x i32> <i32 16, i32 17,
; CHECK-NEXT: shufflevector <32 x i64>
; CHECK-NEXT: [[B1:%.*]] = shufflevector <32 x i1> [[DB]], <32 x i1> poison, <16 x i32> <i32 16, i32 17,
; CHECK-NEXT: shufflevector <32 x i64>
; CHECK-NEXT: [[R1:%.*]] = shufflevector <32 x i1> [[DR]], <32 x i1> poison, <16 x i32> <i32 16, i32 17,
; CHECK-NEXT: or <16 x i1> [[A1]], [[B1]]
; CHECK: [[L1:%.*]] = or <16 x i1> [[A1]], [[B1]]
; CHECK-NEXT: [[N1:%.*]] = xor <16 x i1> [[L1]], <i1 true,
; CHECK-NEXT: and <16 x i1> [[R1]], [[N1]]
; CHECK: call i32 @llvm.vector.reduce.add.v16i32(<16 x i32>
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 5
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 6
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 7
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 8
; The second chunk's creator is the first chunk's site (FpSiteDesc::creator).
; CHECK: and i64 ptrtoint (ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2) to i64), 281474976710655
; CHECK: [[T1:%.*]] = select <16 x i1> [[R1]], <16 x i64> {{%.*}}, <16 x i64> zeroinitializer
; CHECK-NEXT: br label
; The chunks' result tags are reassembled for the store.
; CHECK: [[P1:%.*]] = phi <16 x i64> [ zeroinitializer, %{{[0-9]+}} ], [ [[T1]], %[[INL1]] ]
; CHECK-NEXT: extractelement <16 x i64> [[P0]], i32 0
; CHECK-NOT: call void @__tpd_op
; CHECK: call void @__tpd_store(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 4), ptr %p,
; CHECK: call void @__tpd_store(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 5), ptr {{%.*}},
; HOOK-LABEL: define void @wide(
; HOOK: insertelement <32 x i64> {{%.*}}, i64 {{%.*}}, i32 31
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
