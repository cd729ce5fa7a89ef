; Denormal mode, the inline memory cache of contiguous float/double loads and stores
; (taintprof_abi, "Inline memory caches"). Each such site owns words of the thread's
; block counters after the blocks (9 for a load, 11 for a store): word 0 its inline
; count, then KEY, LO, LIMIT, ARR_LO, SHARD, TAG, MATCH, CREATOR_COUNT (+ PAIR_COUNT,
; PAIR_MAP for stores). In the site's cold block the code probes the cache (the table
; generation xor the site against KEY, the chunk inside [LO, LO+LIMIT], every denormal
; lane's tag matching MATCH) and on a hit does the hook's work inline; on a miss it calls
; the hook, which refills the cache. The reports of both paths are compared end to end
; (tests/tests/denormal_e2e.rs, inline_operation_code_matches_the_op_hook).
; RUN: %opt_denormal < %s | %FileCheck %s
; RUN: %opt_dn_nomem < %s | %FileCheck %s --check-prefix=NOMEM
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Two blocks; words: the vector load 2-10, the store 11-21, the double load 22-30, the
; double store 31-41 → n_blocks 42. Without the cache loads and stores have none (-1).
; CHECK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 4, i32 42,
; CHECK: @taintprof.fpsites = private constant [4 x %taintprof.FpSiteDesc]
; CHECK-SAME: i16 2, i16 4, i16 1, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 2, i32 0 }
; CHECK-SAME: i16 2, i16 4, i16 2, i16 0, i32 0, i32 1, ptr @taintprof.dn_module, i32 11, i32 1 }
; CHECK-SAME: i16 3, i16 2, i16 1, i16 0, i32 1, i32 2, ptr @taintprof.dn_module, i32 22, i32 2 }
; CHECK-SAME: i16 3, i16 2, i16 2, i16 0, i32 1, i32 3, ptr @taintprof.dn_module, i32 31, i32 3 }]
; NOMEM: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 4, i32 2,
; NOMEM: i16 2, i16 4, i16 1, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 -1, i32 0 }

; CHECK-LABEL: define void @vec(
; CHECK: [[CB:%[0-9]+]] = getelementptr inbounds i64, ptr {{%[0-9]+}}, i64 {{%[0-9]+}}
; The table generation is read once where the cold region starts. The load's probe:
; key, window, and the creator index of the stored tags against MATCH, each check a
; branch of its own (likely taken) to the next, each failure to the one miss block.
; Shadow memory has one byte per byte in denormal mode, `(p & mask) + base`, and a
; float's stored tag is its 4 shadow bytes (origin id << 16 | creator index).
; CHECK: [[GEN:%[0-9]+]] = load atomic i64, ptr @__tpd_ranges_gen monotonic, align 8
; CHECK: [[KP:%[0-9]+]] = getelementptr inbounds i64, ptr [[CB]], i64 3
; CHECK-NEXT: [[KEY:%[0-9]+]] = load i64, ptr [[KP]], align 8
; CHECK-NEXT: [[X:%[0-9]+]] = xor i64 [[GEN]], ptrtoint (ptr @taintprof.fpsites to i64)
; CHECK-NEXT: [[KOK:%[0-9]+]] = icmp eq i64 [[KEY]], [[X]]
; CHECK-NEXT: [[KOKF:%[0-9]+]] = freeze i1 [[KOK]]
; CHECK-NEXT: br i1 [[KOKF]], label %[[WB:[0-9]+]], label %[[MISS:[0-9]+]], !prof [[LIKELY:![0-9]+]]
; CHECK: [[WB]]:
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 4
; CHECK: [[REL:%[0-9]+]] = sub i64
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 5
; CHECK: [[WOK:%[0-9]+]] = icmp ule i64 [[REL]],
; CHECK-NEXT: [[WOKF:%[0-9]+]] = freeze i1 [[WOK]]
; CHECK-NEXT: br i1 [[WOKF]], label %[[TB:[0-9]+]], label %[[MISS]], !prof [[LIKELY]]
; CHECK: [[TB]]:
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 9
; CHECK: [[SA:%[0-9]+]] = and i64 {{%[0-9]+}}, 17592186044415
; CHECK-NEXT: add i64 [[SA]], 17592186044416
; CHECK: [[SH:%[0-9]+]] = load <4 x i32>, ptr {{%[0-9]+}}, align 1
; CHECK-NEXT: [[CR:%[0-9]+]] = and <4 x i32> [[SH]], <i32 65535,
; CHECK: [[D:%[0-9]+]] = xor <4 x i32> [[CR]],
; CHECK-NEXT: [[LM:%[0-9]+]] = sext <4 x i1> [[M:%[0-9]+]] to <4 x i32>
; CHECK-NEXT: [[BAD:%[0-9]+]] = and <4 x i32> [[D]], [[LM]]
; CHECK-NEXT: [[R:%[0-9]+]] = call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> [[BAD]])
; CHECK: [[HIT:%[0-9]+]] = freeze i1
; CHECK-NEXT: br i1 [[HIT]], label %[[HB:[0-9]+]], label %[[MISS]], !prof [[LIKELY]]
; Hit: element index from ARR_LO, the thread's read counters (SHARD) lane by lane, the
; number of lanes (looked up in a table of nibble counts: no popcnt on the baseline
; target), the creator count, the inline count (word 0 = index 2), the tags from TAG.
; CHECK: [[HB]]:
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 6
; CHECK: lshr i64 {{%[0-9]+}}, 2
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 7
; CHECK-COUNT-4: add i32
; CHECK: [[NIB:%[0-9]+]] = shl i64 {{%[0-9]+}}, 2
; CHECK-NEXT: lshr i64 4841987667533046032, [[NIB]]
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 10
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 2
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 8
; CHECK: [[HT:%[0-9]+]] = select <4 x i1> [[M]], <4 x i32> {{%[0-9]+}}, <4 x i32> zeroinitializer
; CHECK-NEXT: br label %[[JOIN:[0-9]+]]
; Miss (from any of the three checks): the hook, then its tags. The call goes through
; the hook's register-preserving entry with preserve_allcc (this function uses no AVX):
; the cold region's values stay in registers across it.
; CHECK: [[MISS]]:
; CHECK-NEXT: call preserve_allcc void @__tpd_load_keepregs(ptr @taintprof.fpsites, ptr %p,
; CHECK-NEXT: [[HKT:%[0-9]+]] = load <4 x i32>
; CHECK-NEXT: [[HT2:%[0-9]+]] = select <4 x i1> [[M]], <4 x i32> [[HKT]], <4 x i32> zeroinitializer
; CHECK-NEXT: br label %[[JOIN]]
; CHECK: [[JOIN]]:
; CHECK-NEXT: phi <4 x i32> [ [[HT]], %[[HB]] ], [ [[HT2]], %[[MISS]] ]
; The store's probe matches whole value tags (no shadow read), or their creator bits
; alone (a lane created in place, without the origin); its hit writes the stored tag
; TAG (a u32) to the denormal lanes and 0 to the others, without reading the shadow,
; and counts the origin pair only when there is one, for the lanes whose tag is the
; match itself.
; CHECK: xor i64 [[GEN]], ptrtoint (ptr getelementptr inbounds ([4 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1) to i64)
; CHECK: [[SMP:%[0-9]+]] = getelementptr inbounds i64, ptr [[CB]], i64 18
; CHECK-NEXT: [[SM:%[0-9]+]] = load i64, ptr [[SMP]], align 8
; CHECK-NEXT: [[SMT:%[0-9]+]] = trunc i64 [[SM]] to i32
; CHECK: [[DIFF:%[0-9]+]] = xor <4 x i32> [[ST:%[0-9]+]], {{%[0-9]+}}
; CHECK-NEXT: [[ORIG:%[0-9]+]] = and i32 [[SMT]], -65536
; CHECK: [[CREATED:%[0-9]+]] = icmp eq <4 x i32> [[DIFF]], {{%[0-9]+}}
; CHECK-NEXT: select <4 x i1> [[CREATED]], <4 x i32> zeroinitializer, <4 x i32> [[DIFF]]
; CHECK: br i1 {{%[0-9]+}}, label %[[SHB:[0-9]+]], label {{%[0-9]+}}, !prof [[LIKELY]]
; CHECK: [[SHB]]:
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 16
; CHECK: [[TW:%[0-9]+]] = getelementptr inbounds i64, ptr [[CB]], i64 17
; CHECK-NEXT: [[TAGW:%[0-9]+]] = load i64, ptr [[TW]], align 8
; CHECK-NEXT: trunc i64 [[TAGW]] to i32
; CHECK: [[NEW:%[0-9]+]] = select <4 x i1> {{%[0-9]+}}, <4 x i32> {{%[0-9]+}}, <4 x i32> zeroinitializer
; CHECK-NOT: load <4 x i32>
; CHECK: store <4 x i32> [[NEW]], ptr {{%[0-9]+}}, align 1
; CHECK: [[PC:%[0-9]+]] = icmp ne i64 {{%[0-9]+}}, 0
; CHECK-NEXT: br i1 [[PC]]
; CHECK: [[SAME:%[0-9]+]] = icmp eq <4 x i32> [[ST]], {{%[0-9]+}}
; CHECK-NEXT: and <4 x i1> {{%[0-9]+}}, [[SAME]]
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 21
; CHECK: call preserve_allcc void @__tpd_store_keepregs(ptr getelementptr inbounds ([4 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1), ptr %q,
; NOMEM-LABEL: define void @vec(
; NOMEM-NOT: __tpd_ranges_gen
; NOMEM: call void @__tpd_load(
; NOMEM-NOT: __tpd_ranges_gen
; NOMEM: call void @__tpd_store(
define void @vec(ptr %p, ptr %q) {
entry:
  %v = load <4 x float>, ptr %p, align 4
  store <4 x float> %v, ptr %q, align 4
  ret void
}

; Doubles have 8 shadow bytes each, the stored tag first: the lanes' tags are the even
; words.
; CHECK-LABEL: define void @dbl(
; CHECK: [[RAW:%[0-9]+]] = load <4 x i32>, ptr {{%[0-9]+}}, align 1
; CHECK-NEXT: shufflevector <4 x i32> [[RAW]], <4 x i32> poison, <2 x i32> <i32 0, i32 2>
; CHECK: lshr i64 {{%[0-9]+}}, 3
; CHECK: call preserve_allcc void @__tpd_load_keepregs(
; The store writes the tags at the even words and 0 at the odd ones, reading nothing.
; CHECK-NOT: load <4 x i32>
; CHECK: [[NEWD:%[0-9]+]] = shufflevector <4 x i32> {{%[0-9]+}}, <4 x i32> zeroinitializer, <4 x i32> <i32 0, i32 5, i32 1, i32 7>
; CHECK: store <4 x i32> [[NEWD]], ptr {{%[0-9]+}}, align 1
; CHECK: call preserve_allcc void @__tpd_store_keepregs(
define void @dbl(ptr %p, ptr %q) {
entry:
  %v = load <2 x double>, ptr %p, align 8
  store <2 x double> %v, ptr %q, align 8
  ret void
}

; CHECK: [[LIKELY]] = !{!"branch_weights", i32 1048575, i32 1}
