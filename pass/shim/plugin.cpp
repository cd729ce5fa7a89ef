// taintprof pass plugin: the C++ shim.
//
// Everything that needs LLVM's C++ API and has no C-API equivalent lives here, and
// nothing else does: all analysis and instrumentation logic is Rust (src/). The shim
//
//   1. registers the module pass with the new pass manager (pipeline-parsing callbacks
//      for `opt -passes=taintprof-taint[<params>]` and `taintprof-denormal[<params>]`,
//      OptimizerLast callback for
//      `clang -fpass-plugin=`) and calls `taintprof_run_module` in Rust; at -O1 and
//      above a pipeline-start pass calls `taintprof_record_loops` first (the loops as
//      written, before the optimizer can fold them away);
//   2. turns Rust-side errors into compiler diagnostics (`LLVMContext::emitError`), so a
//      problem is reported as a compile error, never as a crash;
//   3. offers small helpers (tp_*) for what the C API lacks: PromoteMemToReg, edge
//      splitting, conditional cold blocks, global ctors, DISubprogram/DILocation
//      queries, demangling, memory effects of calls, parameter type attributes, and
//      constant trip counts from ScalarEvolution (through the pass manager's
//      FunctionAnalysisManager, handed to Rust as an opaque pointer).
//
// Every helper is `extern "C"`, takes and returns C-API handles, and never throws
// (LLVM is built without exceptions).

#include "llvm-c/Core.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/CFG.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

using namespace llvm;

// Implemented in Rust (src/lib.rs). Returns 0 on success; on failure the Rust side has
// already reported the problem through tp_emit_error. `fam` is the module's
// FunctionAnalysisManager (opaque to Rust, given back to tp_loop_trip_counts).
extern "C" int taintprof_run_module(LLVMModuleRef M, int opt_level, const char *params,
                                    void *fam);

// Implemented in Rust (src/lib.rs): records the source positions of the module's loops
// (and of its memory-intrinsic and routine calls) before optimization, so that the
// OptimizerLast pass can tell which loops the optimizer folded away (src/folded.rs).
extern "C" int taintprof_record_loops(LLVMModuleRef M, int opt_level);

// Implemented in Rust (src/lib.rs): time mode (src/time.rs), at pipeline start at every
// optimization level (before inlining, like -finstrument-functions); does nothing
// unless TAINTPROF_MODE=time (or `mode=time` in `params`).
extern "C" int taintprof_time_module(LLVMModuleRef M, const char *params);

namespace {
/// Pipeline start (before any optimization): record where the loops are.
struct TaintprofRecordPass : PassInfoMixin<TaintprofRecordPass> {
  int OptLevel;
  explicit TaintprofRecordPass(int L) : OptLevel(L) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    taintprof_record_loops(wrap(&M), OptLevel);
    // Only named metadata was added: no analysis is invalidated.
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

/// Pipeline start, every level: time mode's enter/exit calls and loop counters.
struct TaintprofTimePass : PassInfoMixin<TaintprofTimePass> {
  std::string Params;
  explicit TaintprofTimePass(std::string P) : Params(std::move(P)) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    taintprof_time_module(wrap(&M), Params.c_str());
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};

struct TaintprofPass : PassInfoMixin<TaintprofPass> {
  int OptLevel;       // 0..3, or -1 when run from an explicit opt pipeline
  std::string Params; // the text between <> in `taintprof-taint<...>`, may be empty
  TaintprofPass(int L, std::string P) : OptLevel(L), Params(std::move(P)) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    // Every PassBuilder user (clang, opt) cross-registers the proxies, so the function
    // analysis manager is always available here.
    FunctionAnalysisManager &FAM =
        MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    taintprof_run_module(wrap(&M), OptLevel, Params.c_str(), &FAM);
    return PreservedAnalyses::none();
  }
  // Required: the pass must also run on optnone functions and at -O0.
  static bool isRequired() { return true; }
};
} // namespace

extern "C" void taintprof_register_callbacks(PassBuilder *PB) {
  PB->registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        // Accept `taintprof-taint` and `taintprof-taint<p1;p2>`; Rust parses the parameters.
        if (!Name.consume_front("taintprof-taint"))
          return false;
        std::string Params;
        if (!Name.empty()) {
          if (!Name.consume_front("<") || !Name.consume_back(">"))
            return false;
          Params = Name.str();
        }
        MPM.addPass(TaintprofPass(-1, Params));
        return true;
      });
  PB->registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        // `taintprof-denormal[<p1;p2>]`: the same pass in denormal mode; the mode is
        // handed to Rust as the first parameter, so it overrides TAINTPROF_MODE.
        if (!Name.consume_front("taintprof-denormal"))
          return false;
        std::string Params = "mode=denormal";
        if (!Name.empty()) {
          if (!Name.consume_front("<") || !Name.consume_back(">"))
            return false;
          Params += ";" + Name.str();
        }
        MPM.addPass(TaintprofPass(-1, Params));
        return true;
      });
  PB->registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        // `taintprof-time[<p1;p2>]`: time mode's pipeline-start pass.
        if (!Name.consume_front("taintprof-time"))
          return false;
        std::string Params = "mode=time";
        if (!Name.empty()) {
          if (!Name.consume_front("<") || !Name.consume_back(">"))
            return false;
          Params += ";" + Name.str();
        }
        MPM.addPass(TaintprofTimePass(Params));
        return true;
      });
  PB->registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel L) {
    // Time mode (a no-op in the other modes): at every level, -O0 included (LLVM 19's
    // O0 pipeline runs the pipeline-start callbacks too).
    if (const char *M = std::getenv("TAINTPROF_MODE"); M && std::string(M) == "time")
      MPM.addPass(TaintprofTimePass(std::string()));
    // Nothing folds loops at -O0: no record, no cost.
    if (L.getSpeedupLevel() > 0)
      MPM.addPass(TaintprofRecordPass(L.getSpeedupLevel()));
  });
  PB->registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel L) {
    int Level = L.getSpeedupLevel();
    MPM.addPass(TaintprofPass(Level, std::string()));
    // No clean-up pipeline after the pass: EarlyCSE+LICM(+InstCombine) were measured
    // on the Jacobi stencil and did not make the instrumented code faster (the cost is
    // the shadow loads, not the few repeated label ORs); the pass folds the trivial
    // cases itself (tp_simplify).
  });
}

// ---------------------------------------------------------------------------------------
// Diagnostics
// ---------------------------------------------------------------------------------------

namespace {
/// A plugin diagnostic: clang prints it as `error:`/`warning:` with our message, opt
/// prints it and (for errors) exits non-zero.
struct TpDiagnostic : DiagnosticInfo {
  const Twine &Msg;
  static int kind() {
    static int K = getNextAvailablePluginDiagnosticKind();
    return K;
  }
  TpDiagnostic(const Twine &M, DiagnosticSeverity S) : DiagnosticInfo(kind(), S), Msg(M) {}
  void print(DiagnosticPrinter &DP) const override { DP << Msg; }
};
} // namespace

/// Report a compile error. Under clang this becomes a normal `error:` diagnostic and the
/// compilation fails; under opt it is printed and opt exits non-zero.
extern "C" void tp_emit_error(LLVMModuleRef M, const char *Msg) {
  unwrap(M)->getContext().diagnose(TpDiagnostic(Twine("taintprof: ") + Msg, DS_Error));
}

/// Report a warning through the context's diagnostic handler (clang shows `warning:`).
extern "C" void tp_emit_warning(LLVMModuleRef M, const char *Msg) {
  unwrap(M)->getContext().diagnose(TpDiagnostic(Twine("taintprof: ") + Msg, DS_Warning));
}

// ---------------------------------------------------------------------------------------
// Function preparation
// ---------------------------------------------------------------------------------------

/// Promote allocas to SSA registers (what mem2reg does). With `Only == nullptr`, every
/// promotable alloca of the entry block; otherwise the given allocas (those that are
/// promotable). Returns how many were promoted.
extern "C" unsigned tp_promote_allocas(LLVMValueRef Fn, LLVMValueRef *Only, unsigned NOnly) {
  Function &F = *unwrap<Function>(Fn);
  if (F.isDeclaration())
    return 0;
  // After a longjmp, locals kept in registers may hold values from the setjmp call
  // (C11 7.13.2.1): at -O0 such programs work because everything lives in memory.
  // Do not change that behaviour: no promotion in functions that call setjmp & co.
  if (F.callsFunctionThatReturnsTwice())
    return 0;
  std::vector<AllocaInst *> As;
  if (Only) {
    for (unsigned I = 0; I < NOnly; ++I)
      if (auto *AI = dyn_cast<AllocaInst>(unwrap(Only[I])))
        if (isAllocaPromotable(AI))
          As.push_back(AI);
  } else {
    for (Instruction &I : F.getEntryBlock())
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (isAllocaPromotable(AI))
          As.push_back(AI);
  }
  if (As.empty())
    return 0;
  DominatorTree DT(F);
  PromoteMemToReg(As, DT);
  return As.size();
}

/// Split the CFG edge from `Term`'s block to its successor number `SuccNum`: a new block
/// holding only `br Succ` is placed on that one edge, and exactly one PHI entry in the
/// successor (the one for this edge) is redirected to it. Returns the new block.
/// The caller must not use this for edges into EH pads or out of indirectbr/callbr.
extern "C" LLVMBasicBlockRef tp_split_edge(LLVMValueRef Term, unsigned SuccNum) {
  Instruction *TI = unwrap<Instruction>(Term);
  BasicBlock *From = TI->getParent();
  BasicBlock *Succ = TI->getSuccessor(SuccNum);
  BasicBlock *NewBB = BasicBlock::Create(From->getContext(), Succ->getName() + ".tp.edge",
                                         From->getParent(), Succ);
  BranchInst *Br = BranchInst::Create(Succ, NewBB);
  Br->setDebugLoc(TI->getDebugLoc());
  TI->setSuccessor(SuccNum, NewBB);
  for (PHINode &PN : Succ->phis()) {
    int Idx = PN.getBasicBlockIndex(From);
    if (Idx >= 0)
      PN.setIncomingBlock(Idx, NewBB);
  }
  return wrap(NewBB);
}

/// Split `Before`'s block before `Before` and put a new block on the true side of
/// `Cond`: `if (Cond) { <new block> }`, marked unlikely (branch weights), so the code
/// placed there (a cold runtime call) stays out of the hot path. Successor PHIs are
/// updated. Returns the new block (it ends in `br` to the rest of the split block).
extern "C" LLVMBasicBlockRef tp_split_if_then(LLVMValueRef Cond, LLVMValueRef Before) {
  Instruction *I = unwrap<Instruction>(Before);
  MDNode *W = MDBuilder(I->getContext()).createUnlikelyBranchWeights();
  Instruction *T = SplitBlockAndInsertIfThen(unwrap(Cond), I->getIterator(),
                                             /*Unreachable=*/false, W);
  return wrap(T->getParent());
}

/// As `tp_split_if_then`, with the branch weights chosen by the caller: `Likely` != 0
/// marks the new block as the likely side (a successful allocation's registration),
/// otherwise unlikely (a cold runtime call).
extern "C" LLVMBasicBlockRef tp_split_if_then_weighted(LLVMValueRef Cond, LLVMValueRef Before,
                                                       int Likely) {
  Instruction *I = unwrap<Instruction>(Before);
  MDBuilder MDB(I->getContext());
  MDNode *W = Likely ? MDB.createLikelyBranchWeights() : MDB.createUnlikelyBranchWeights();
  Instruction *T = SplitBlockAndInsertIfThen(unwrap(Cond), I->getIterator(),
                                             /*Unreachable=*/false, W);
  return wrap(T->getParent());
}

/// `if (Cond) { *Then } else { *Else }` before `Before`, the `Then` side likely: an
/// inline cache's hit and its miss (the hook call). Both blocks end in a branch to the
/// block `Before` is now in.
extern "C" void tp_split_if_then_else(LLVMValueRef Cond, LLVMValueRef Before,
                                      LLVMBasicBlockRef *Then, LLVMBasicBlockRef *Else) {
  Instruction *I = unwrap<Instruction>(Before);
  MDNode *W = MDBuilder(I->getContext()).createLikelyBranchWeights();
  Instruction *ThenT = nullptr, *ElseT = nullptr;
  SplitBlockAndInsertIfThenElse(unwrap(Cond), I->getIterator(), &ThenT, &ElseT, W);
  *Then = wrap(ThenT->getParent());
  *Else = wrap(ElseT->getParent());
}

/// `B` ends in an unconditional branch; make it `br Cond, N, Other` (N likely), N a new
/// block right after `B` that branches where `B` did. Returns N: a further condition
/// on the way to the same target, whose failure goes to `Other` (a cache probe's
/// checks one after another, each failing to the one miss block).
extern "C" LLVMBasicBlockRef tp_guard_block(LLVMBasicBlockRef B, LLVMValueRef Cond,
                                            LLVMBasicBlockRef Other) {
  BasicBlock *BB = unwrap(B);
  auto *Br = cast<BranchInst>(BB->getTerminator());
  BasicBlock *Dest = Br->getSuccessor(0);
  BasicBlock *N = BasicBlock::Create(BB->getContext(), "", BB->getParent(), BB->getNextNode());
  BranchInst::Create(Dest, N)->setDebugLoc(Br->getDebugLoc());
  for (PHINode &P : Dest->phis())
    P.replaceIncomingBlockWith(BB, N);
  MDNode *W = MDBuilder(BB->getContext()).createLikelyBranchWeights();
  auto *CB = BranchInst::Create(N, unwrap(Other), unwrap(Cond), BB);
  CB->setMetadata(LLVMContext::MD_prof, W);
  CB->setDebugLoc(Br->getDebugLoc());
  Br->eraseFromParent();
  return wrap(N);
}

/// Move each region `Entries[k]` .. `Exits[k]` out of its function into a function of its
/// own (`cold`, `noinline`), called where the region was: the region is every block
/// reachable from `Entries[k]` without passing `Exits[k]`, which it must leave to only,
/// and `Entries[k]` its only entry. All regions are of one function. Returns how many
/// were moved; a region the extractor refuses stays as it was. One analysis cache for
/// the whole function (extraction keeps it valid) and no dominator tree: per region,
/// the work is the region's, not the function's (3,000 regions in one function took
/// minutes with a tree and a cache per region).
extern "C" unsigned tp_outline_regions(LLVMBasicBlockRef *Entries, LLVMBasicBlockRef *Exits,
                                       unsigned N) {
  if (N == 0)
    return 0;
  Function *F = unwrap(Entries[0])->getParent();
  CodeExtractorAnalysisCache CEAC(*F);
  unsigned Moved = 0;
  for (unsigned K = 0; K < N; ++K) {
    BasicBlock *E = unwrap(Entries[K]);
    BasicBlock *X = unwrap(Exits[K]);
    SmallVector<BasicBlock *, 16> Blocks;
    SmallPtrSet<BasicBlock *, 16> Seen;
    SmallVector<BasicBlock *, 16> Work{E};
    Seen.insert(E);
    while (!Work.empty()) {
      BasicBlock *B = Work.pop_back_val();
      Blocks.push_back(B);
      for (BasicBlock *S : successors(B))
        if (S != X && Seen.insert(S).second)
          Work.push_back(S);
    }
    // The extractor rewrites a region's inputs by walking every user of each input:
    // the counter pointer and the tag buffers are used by every region of the function,
    // which made outlining quadratic (1,000 regions: 5.7 s). Each region gets its own
    // copy (`freeze`, a no-op for a defined value) of an input with many users, made
    // where the region is entered, and the extractor sees only that.
    if (BasicBlock *Pred = E->getSinglePredecessor()) {
      SmallPtrSet<BasicBlock *, 16> In(Blocks.begin(), Blocks.end());
      DenseMap<Value *, Value *> Copy;
      for (BasicBlock *B : Blocks)
        for (Instruction &I : *B)
          for (Use &U : I.operands()) {
            Value *V = U.get();
            auto *D = dyn_cast<Instruction>(V);
            bool Outside = isa<Argument>(V) || (D && !In.count(D->getParent()));
            if (!Outside || isa<PHINode>(I) || V->hasNUsesOrMore(17) == false)
              continue;
            Value *&C = Copy[V];
            if (!C)
              C = new FreezeInst(V, V->getName() + ".r", Pred->getTerminator()->getIterator());
            U.set(C);
          }
    }
    // The entry first: the extractor takes the first block as the region's header.
    CodeExtractor CE(Blocks, /*DT=*/nullptr, /*AggregateArgs=*/false, nullptr, nullptr,
                     nullptr, /*AllowVarArgs=*/false, /*AllowAlloca=*/false, nullptr,
                     "tp.cold");
    if (!CE.isEligible())
      continue;
    Function *Out = CE.extractCodeRegion(CEAC);
    if (!Out)
      continue;
    // The extractor copies the parent's function attributes: an `alwaysinline` parent
    // (OpenMP's outlined regions) would contradict `noinline`.
    Out->removeFnAttr(Attribute::AlwaysInline);
    Out->removeFnAttr(Attribute::InlineHint);
    Out->addFnAttr(Attribute::Cold);
    Out->addFnAttr(Attribute::NoInline);
    Out->setLinkage(GlobalValue::InternalLinkage);
    ++Moved;
  }
  return Moved;
}

/// Turn every function definition of `M` that the verifier rejects into a declaration.
/// Called after the pass has reported that it produced invalid IR (a compile error): the
/// code generator still runs on the module, and on invalid IR it crashes instead of
/// letting the user read the error. Returns how many bodies were dropped.
extern "C" unsigned tp_drop_invalid_bodies(LLVMModuleRef M) {
  unsigned N = 0;
  for (Function &F : *unwrap(M))
    if (!F.isDeclaration() && verifyFunction(F)) {
      F.deleteBody();
      ++N;
    }
  return N;
}

/// Give every edge from the `switch` `Switch` to `Succ` one new block of its own
/// (holding `br Succ`): all case edges to `Succ` are redirected to it, and `Succ`'s
/// PHIs get exactly one entry for it. Returns the new block.
extern "C" LLVMBasicBlockRef tp_split_switch_successor(LLVMValueRef Switch,
                                                       LLVMBasicBlockRef Succ) {
  auto *SI = unwrap<SwitchInst>(Switch);
  BasicBlock *From = SI->getParent();
  BasicBlock *S = unwrap(Succ);
  BasicBlock *NewBB = BasicBlock::Create(From->getContext(), S->getName() + ".tp.case",
                                         From->getParent(), S);
  BranchInst *Br = BranchInst::Create(S, NewBB);
  Br->setDebugLoc(SI->getDebugLoc());
  for (unsigned I = 0, E = SI->getNumSuccessors(); I < E; ++I)
    if (SI->getSuccessor(I) == S)
      SI->setSuccessor(I, NewBB);
  for (PHINode &PN : S->phis()) {
    bool First = true;
    for (int Idx = (int)PN.getNumIncomingValues() - 1; Idx >= 0; --Idx) {
      if (PN.getIncomingBlock(Idx) != From)
        continue;
      // Duplicate entries for one block carry the same value; keep one.
      if (!First) {
        PN.removeIncomingValue(Idx, /*DeletePHIIfEmpty=*/false);
        continue;
      }
      First = false;
    }
    int Idx = PN.getBasicBlockIndex(From);
    if (Idx >= 0)
      PN.setIncomingBlock(Idx, NewBB);
  }
  return wrap(NewBB);
}

/// The instructions the pass inserted, as a set (what the clean-up may touch).
static SmallPtrSet<Instruction *, 32> tpOurs(LLVMValueRef *Insts, unsigned N) {
  SmallPtrSet<Instruction *, 32> Ours;
  for (unsigned I = 0; I < N; ++I)
    if (auto *In = dyn_cast<Instruction>(unwrap(Insts[I])))
      Ours.insert(In);
  return Ours;
}

/// Simplify the given instructions (those the pass inserted) with InstSimplify, which
/// only ever replaces an instruction by an existing value or a constant: ORs with a
/// label that turned out to be 0, splats of 0, PHIs of equal labels. Instructions that
/// become unused are deleted (unused shadow loads included). Nothing else in the
/// function is touched. Returns the number of instructions removed.
extern "C" unsigned tp_simplify(LLVMValueRef *Insts, unsigned N) {
  if (N == 0)
    return 0;
  SmallPtrSet<Instruction *, 32> Ours;
  SmallVector<Instruction *, 64> Work;
  for (unsigned I = 0; I < N; ++I)
    if (auto *In = dyn_cast<Instruction>(unwrap(Insts[I]))) {
      Ours.insert(In);
      Work.push_back(In);
    }
  const DataLayout &DL = Work.front()->getModule()->getDataLayout();
  SimplifyQuery SQ(DL);
  unsigned Removed = 0;
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!Ours.count(I))
      continue; // already deleted
    if (isInstructionTriviallyDead(I)) {
      for (Use &Op : I->operands())
        if (auto *OI = dyn_cast<Instruction>(Op.get()))
          if (Ours.count(OI))
            Work.push_back(OI);
      Ours.erase(I);
      I->eraseFromParent();
      ++Removed;
      continue;
    }
    if (Value *V = simplifyInstruction(I, SQ)) {
      for (User *U : I->users())
        if (auto *UI = dyn_cast<Instruction>(U))
          if (Ours.count(UI))
            Work.push_back(UI);
      I->replaceAllUsesWith(V);
      Work.push_back(I); // now dead
    }
  }
  return Removed;
}

/// Common subexpressions among the pure label operations the pass inserted (`Insts`;
/// nothing else is touched): nothing runs EarlyCSE after OptimizerLast, and the label
/// code repeats itself (the same union for `S` and for `R`, the same `to_control` of one
/// label at each of its uses, `a | b` and `b | a`). One walk of the dominator tree in
/// preorder, with a table of the operations available in the dominating blocks (undone
/// when the walk leaves a block): each of our operations is first simplified
/// (InstSimplify, as `tp_simplify`; CSE makes `x | x` and `(a | b) | a` appear), then
/// replaced by an equal one that dominates it, else entered in the table. Operations
/// are equal only with equal flags (`TpExprKey`). Our `i16` `or`s and conversions are
/// also compared by their normal form (`TpLabels`: equal leaf sets are equal labels,
/// whatever the tree), and after the walk conversions of one label in blocks that do not
/// dominate each other are merged (`tpMergeConversions`); docs/internal/control-flow.md,
/// "Cost", has the argument that no label changes. Last, what nothing uses any more is
/// deleted (as `tp_simplify` does; replaced instructions stay in place until then, so that
/// no new instruction reuses an address the tables hold), so this is the whole clean-up
/// after hoisting. Returns the number of instructions removed.
namespace {
/// An operation's identity for CSE: opcode, result type, predicate or optional flags
/// (`nuw`, `inbounds`, ... must match, so the kept copy never carries a flag the
/// replaced one did not), the GEP's source element type, and the operands (the two of
/// a commutative operation in a canonical order).
struct TpExprKey {
  unsigned Op;
  unsigned Extra;
  Type *Ty;
  Type *Src;
  SmallVector<Value *, 4> Ops;
  bool operator==(const TpExprKey &O) const {
    return Op == O.Op && Extra == O.Extra && Ty == O.Ty && Src == O.Src && Ops == O.Ops;
  }
};
struct TpExprKeyHash {
  size_t operator()(const TpExprKey &K) const {
    return hash_combine(K.Op, K.Extra, K.Ty, K.Src,
                        hash_combine_range(K.Ops.begin(), K.Ops.end()));
  }
};
} // namespace

static bool tpCseKey(Instruction *I, TpExprKey &K) {
  if (!(isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) ||
        isa<InsertElementInst>(I) || isa<GetElementPtrInst>(I)))
    return false;
  K.Op = I->getOpcode();
  K.Ty = I->getType();
  K.Src = nullptr;
  K.Extra = I->getRawSubclassOptionalData();
  if (auto *Cmp = dyn_cast<CmpInst>(I))
    K.Extra = (K.Extra << 8) | Cmp->getPredicate();
  if (auto *GEP = dyn_cast<GetElementPtrInst>(I))
    K.Src = GEP->getSourceElementType();
  K.Ops.assign(I->op_begin(), I->op_end());
  if (I->isCommutative() && std::less<Value *>()(K.Ops[1], K.Ops[0]))
    std::swap(K.Ops[0], K.Ops[1]);
  return true;
}

/// Whether InstSimplify may have something to do with `I`, judged from its operands
/// alone: a constant operand (an OR with a label that turned out to be 0), two equal
/// operands (`x | x` once CSE merged them), or an operand computed from one of the
/// others (`(a | b) | a`, `a | (a & b)`). The label code is mostly ORs of distinct
/// labels, for which InstSimplify's full pattern search finds nothing at a high price.
static bool tpWorthSimplifying(Instruction *I) {
  if (isa<PHINode>(I) || isa<CallBase>(I))
    return true;
  unsigned N = I->getNumOperands();
  for (unsigned K = 0; K < N; ++K) {
    Value *V = I->getOperand(K);
    if (isa<Constant>(V))
      return true;
    for (unsigned J = K + 1; J < N; ++J)
      if (I->getOperand(J) == V)
        return true;
    auto *OI = dyn_cast<Instruction>(V);
    if (OI && isa<BinaryOperator>(OI))
      for (Value *W : OI->operands())
        for (unsigned J = 0; J < N; ++J)
          if (J != K && I->getOperand(J) == W)
            return true;
    if (OI && isa<CastInst>(I) && isa<CastInst>(OI))
      return true;
  }
  return false;
}

// ----- Label algebra: `or` and `to_control` -----
//
// `to_control(c) = (c << s) | (c & hi)` (the pass's `control.rs`; `s` and `hi` are read
// once per function) is idempotent and distributes over `or`; `or` is associative,
// commutative and idempotent. So every label built from our `or`s and conversions is
// `OR D | to_control(OR C)` for two sets of leaves `D` and `C` (values that are neither),
// and two labels with the same sets are the same value, whatever the shape of their
// trees. `TpLabKey` is that normal form: the leaves of `D` sorted, a null, those of `C`
// sorted; the empty form is the label 0.
namespace {
using TpLabKey = SmallVector<Value *, 8>;
struct TpLabKeyHash {
  size_t operator()(const TpLabKey &K) const { return hash_combine_range(K.begin(), K.end()); }
};
/// Leaves beyond which a label is left as it is (a leaf to its users): keeps the clean-up
/// linear on huge functions whose control labels OR hundreds of slots.
constexpr size_t TpLabMaxLeaves = 24;

struct TpLabels {
  Value *Sh = nullptr, *Hi = nullptr;
  DenseMap<Value *, TpLabKey> Keys;

  /// `V` is `to_control(C)` with this function's shift and mask.
  bool conversion(Instruction *I, Value *&C) {
    auto *Or = dyn_cast<BinaryOperator>(I);
    if (!Or || Or->getOpcode() != Instruction::Or)
      return false;
    for (unsigned K = 0; K < 2; ++K) {
      auto *Shl = dyn_cast<BinaryOperator>(Or->getOperand(K));
      auto *And = dyn_cast<BinaryOperator>(Or->getOperand(1 - K));
      if (!Shl || Shl->getOpcode() != Instruction::Shl || !And ||
          And->getOpcode() != Instruction::And || Shl->getOperand(0) != And->getOperand(0))
        continue;
      Value *S = Shl->getOperand(1), *H = And->getOperand(1);
      if (!Sh) {
        // The shift is the function's load of `__tp_ctrl_shift`.
        auto *L = dyn_cast<LoadInst>(S);
        auto *G = L ? dyn_cast<GlobalVariable>(L->getPointerOperand()) : nullptr;
        if (!G || G->getName() != "__tp_ctrl_shift")
          continue;
        Sh = S;
        Hi = H;
      }
      if (S != Sh || H != Hi)
        continue;
      C = Shl->getOperand(0);
      return true;
    }
    return false;
  }

  /// The normal form of operand `V`.
  TpLabKey key(Value *V) {
    if (auto *C = dyn_cast<Constant>(V); C && C->isNullValue())
      return TpLabKey{nullptr};
    auto It = Keys.find(V);
    if (It != Keys.end())
      return It->second;
    return TpLabKey{V, nullptr};
  }

  static void split(const TpLabKey &K, ArrayRef<Value *> &D, ArrayRef<Value *> &C) {
    size_t Z = std::find(K.begin(), K.end(), nullptr) - K.begin();
    D = ArrayRef<Value *>(K.data(), Z);
    C = ArrayRef<Value *>(K.data() + Z + 1, K.size() - Z - 1);
  }

  static void unite(ArrayRef<Value *> A, ArrayRef<Value *> B, TpLabKey &Out) {
    std::set_union(A.begin(), A.end(), B.begin(), B.end(), std::back_inserter(Out),
                   std::less<Value *>());
  }

  /// `A | B`.
  static TpLabKey orKey(const TpLabKey &A, const TpLabKey &B) {
    ArrayRef<Value *> Da, Ca, Db, Cb;
    split(A, Da, Ca);
    split(B, Db, Cb);
    TpLabKey K;
    unite(Da, Db, K);
    K.push_back(nullptr);
    unite(Ca, Cb, K);
    return K;
  }

  /// `to_control(A)`: every leaf on the converted side.
  static TpLabKey convKey(const TpLabKey &A) {
    ArrayRef<Value *> D, C;
    split(A, D, C);
    TpLabKey K{nullptr};
    unite(D, C, K);
    return K;
  }

  static bool convertedOnly(const TpLabKey &K) { return K.front() == nullptr; }

  static bool within(ArrayRef<Value *> A, ArrayRef<Value *> B) {
    return std::includes(B.begin(), B.end(), A.begin(), A.end(), std::less<Value *>());
  }

  /// Drop from `K` a leaf that is one of our label PHIs whose every incoming label is
  /// contained in the rest of `K` (`p = phi [0], [x]` in `p | x`: the PHI adds nothing).
  /// Only when every leaf of those incoming labels is defined in a block that strictly
  /// dominates the PHI's: then the instance of the leaf the incoming label was computed
  /// from is the instance `K` reads (a leaf defined later, in a loop around the PHI,
  /// could be a newer one than the value the back edge carried).
  void prunePhis(TpLabKey &K, DominatorTree &DT, SmallPtrSetImpl<Instruction *> &Ours) {
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (size_t Pos = 0; Pos < K.size() && !Changed; ++Pos) {
        auto *P = dyn_cast_or_null<PHINode>(K[Pos]);
        if (!P || !Ours.count(P) || P->getNumIncomingValues() > 16)
          continue;
        bool Conv = Pos > size_t(std::find(K.begin(), K.end(), nullptr) - K.begin());
        TpLabKey Rest(K.begin(), K.end());
        Rest.erase(Rest.begin() + Pos);
        ArrayRef<Value *> RD, RC;
        split(Rest, RD, RC);
        bool Ok = true;
        for (Value *V : P->incoming_values()) {
          if (V == P)
            continue;
          TpLabKey VK = key(V);
          if (Conv)
            VK = convKey(VK);
          ArrayRef<Value *> VD, VC;
          split(VK, VD, VC);
          for (ArrayRef<Value *> Side : {VD, VC})
            for (Value *X : Side)
              if (auto *XI = dyn_cast<Instruction>(X);
                  XI && (XI->getParent() == P->getParent() ||
                         !DT.dominates(XI->getParent(), P->getParent())))
                Ok = false;
          if (!Ok || !within(VD, RD) || !within(VC, RC)) {
            Ok = false;
            break;
          }
        }
        if (Ok) {
          K = Rest;
          Changed = true;
        }
      }
    }
  }
};
} // namespace

/// Several conversions `to_control(C)` of one label in blocks none of which dominates
/// the others (error exits, one per call site, the edges into a join) become one, at
/// the nearest common dominator `N` of their blocks, when that costs no run time: every
/// path from `N` reaches one of the conversions before it comes back to `N` or returns
/// (a path that ends the program, at an `unreachable`, may run it once more). So `N`
/// runs at most as often as the conversions did. Returns the conversions replaced.
static unsigned tpMergeConversions(Function &F, SmallPtrSetImpl<Instruction *> &Ours,
                                   TpLabels &Lab, DominatorTree &DT,
                                   SmallVectorImpl<Instruction *> &Merged) {
  // Conversions by operand, in function order.
  MapVector<Value *, SmallVector<Instruction *, 4>> ByOperand;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      Value *C;
      if (Ours.count(&I) && !I.use_empty() && DT.isReachableFromEntry(&BB) &&
          Lab.conversion(&I, C) &&
          !isa<Constant>(C))
        ByOperand[C].push_back(&I);
    }
  unsigned N = 0;
  size_t Budget = 20 * (F.size() + 64) + 2000000;
  for (auto &[C, Convs] : ByOperand) {
    if (Convs.size() < 2 || Convs.size() > 64)
      continue;
    // The conversions no other one dominates (the CSE walk merges the rest into them).
    SmallVector<Instruction *, 4> Tops;
    for (Instruction *I : Convs)
      if (llvm::none_of(Convs, [&](Instruction *J) { return J != I && DT.dominates(J, I); }))
        Tops.push_back(I);
    if (Tops.size() < 2)
      continue;
    SmallPtrSet<BasicBlock *, 8> Uses;
    for (Instruction *I : Convs)
      Uses.insert(I->getParent());
    BasicBlock *Ncd = nullptr;
    for (Instruction *I : Tops)
      Ncd = Ncd ? DT.findNearestCommonDominator(Ncd, I->getParent()) : I->getParent();
    if (!Ncd || Uses.count(Ncd))
      continue;
    Instruction *At = Ncd->getTerminator();
    if (At->isEHPad())
      continue; // a catchswitch: no room before it
    auto Avail = [&](Value *V) {
      auto *VI = dyn_cast<Instruction>(V);
      return !VI || DT.dominates(VI, At);
    };
    if (!Avail(C) || !Avail(Lab.Sh) || !Avail(Lab.Hi))
      continue;
    // Every path from Ncd meets a conversion before Ncd again or a return.
    SmallPtrSet<BasicBlock *, 32> Seen;
    SmallVector<BasicBlock *, 32> Work;
    bool Covered = true;
    for (BasicBlock *S : successors(Ncd))
      if (Seen.insert(S).second)
        Work.push_back(S);
    while (!Work.empty() && Covered) {
      BasicBlock *B = Work.pop_back_val();
      if (Budget == 0) {
        Covered = false;
        break;
      }
      --Budget;
      if (Uses.count(B))
        continue;
      if (B == Ncd) {
        Covered = false;
        break;
      }
      Instruction *T = B->getTerminator();
      if (succ_empty(B)) {
        if (!isa<UnreachableInst>(T))
          Covered = false;
        continue;
      }
      for (BasicBlock *S : successors(B))
        if (Seen.insert(S).second)
          Work.push_back(S);
    }
    if (!Covered)
      continue;
    IRBuilder<> Bld(At);
    Value *Up = Bld.CreateShl(C, Lab.Sh);
    Value *Tw = Bld.CreateAnd(C, Lab.Hi);
    Value *T = Bld.CreateOr(Up, Tw);
    for (Value *X : {Up, Tw, T})
      if (auto *XI = dyn_cast<Instruction>(X))
        Ours.insert(XI);
    for (Instruction *I : Convs) {
      I->replaceAllUsesWith(T);
      ++N;
    }
    if (auto *TI = dyn_cast<Instruction>(T))
      Merged.push_back(TI);
  }
  return N;
}

extern "C" unsigned tp_cse(LLVMValueRef Fn, LLVMValueRef *Insts, unsigned NInsts) {
  Function &F = *unwrap<Function>(Fn);
  SmallPtrSet<Instruction *, 32> Ours = tpOurs(Insts, NInsts);
  if (Ours.empty())
    return 0;
  SimplifyQuery SQ(F.getDataLayout());
  DominatorTree DT(F);
  TpLabels Lab;
  // `TAINTPROF_NO_LABEL_ALGEBRA=1` turns the rewrites below off, or only some of them
  // when it names them (`forms`, `phis`, `parts`, `merge`): for measuring.
  const char *NoAlg = std::getenv("TAINTPROF_NO_LABEL_ALGEBRA");
  auto Off = [&](const char *What) {
    return NoAlg && (std::strcmp(NoAlg, "1") == 0 || std::strstr(NoAlg, What));
  };
  bool Algebra = !Off("forms");
  bool Phis = !Off("phis"), Parts = !Off("parts"), Merge = !Off("merge");
  std::unordered_map<TpExprKey, Instruction *, TpExprKeyHash> Avail;
  Avail.reserve(Ours.size());
  std::unordered_map<TpLabKey, Instruction *, TpLabKeyHash> LabAvail;
  // Undo logs: (key, what it mapped to before, or null).
  std::vector<std::pair<TpExprKey, Instruction *>> Undo;
  std::vector<TpLabKey> LabUndo;
  // Explicit DFS (deep dominator trees would overflow the stack): a node and the undo
  // logs' sizes when it was entered; visited nodes are re-pushed once to be left.
  struct Frame {
    DomTreeNode *N;
    size_t Mark, LabMark;
    bool Left;
  };
  std::vector<Frame> Stack;
  Stack.push_back({DT.getRootNode(), 0, 0, false});
  // Replaced instructions are left in place (without uses) and deleted at the end with
  // the rest of the dead code: the tables and the label forms hold pointers to them,
  // which a new instruction must not reuse.
  auto Replace = [&](Instruction &I, Value *V) {
    I.replaceAllUsesWith(V);
    Lab.Keys.erase(&I);
  };
  Type *I16 = Type::getInt16Ty(F.getContext());
  while (!Stack.empty()) {
    Frame &Fr = Stack.back();
    if (Fr.Left) {
      while (Undo.size() > Fr.Mark) {
        auto &[K, Old] = Undo.back();
        if (Old)
          Avail[K] = Old;
        else
          Avail.erase(K);
        Undo.pop_back();
      }
      while (LabUndo.size() > Fr.LabMark) {
        LabAvail.erase(LabUndo.back());
        LabUndo.pop_back();
      }
      Stack.pop_back();
      continue;
    }
    Fr.Left = true;
    Fr.Mark = Undo.size();
    Fr.LabMark = LabUndo.size();
    DomTreeNode *Node = Fr.N;
    for (Instruction &I : *Node->getBlock()) {
      if (!Ours.count(&I) || I.use_empty())
        continue;
      if (Value *V = tpWorthSimplifying(&I) ? simplifyInstruction(&I, SQ) : nullptr) {
        Replace(I, V);
        continue;
      }
      TpExprKey K;
      if (!tpCseKey(&I, K))
        continue;
      auto It = Avail.find(K);
      if (It != Avail.end()) {
        Replace(I, It->second);
        continue;
      }
      Undo.push_back({K, nullptr});
      Avail.emplace(K, &I);
      // The label's normal form: equal to an operand, to a dominating label with the
      // same form, or (a conversion of `A | B`) to the OR of available conversions.
      auto *BO = dyn_cast<BinaryOperator>(&I);
      if (!Algebra || !BO || BO->getOpcode() != Instruction::Or || I.getType() != I16)
        continue;
      Value *C = nullptr;
      bool Conv = Lab.conversion(&I, C);
      TpLabKey L = Conv ? TpLabels::convKey(Lab.key(C))
                        : TpLabels::orKey(Lab.key(I.getOperand(0)), Lab.key(I.getOperand(1)));
      if (L.size() > TpLabMaxLeaves + 1)
        continue;
      if (Phis)
        Lab.prunePhis(L, DT, Ours);
      if (L.size() == 1) {
        Replace(I, Constant::getNullValue(I16));
        continue;
      }
      if (L.size() == 2 && L[1] == nullptr) {
        Replace(I, L[0]); // one leaf, unconverted
        continue;
      }
      if (!Conv) {
        bool Done = false;
        for (unsigned Op = 0; Op < 2 && !Done; ++Op)
          if (Lab.key(I.getOperand(Op)) == L) {
            Replace(I, I.getOperand(Op));
            Done = true;
          }
        if (Done)
          continue;
      }
      auto LIt = LabAvail.find(L);
      if (LIt != LabAvail.end()) {
        Replace(I, LIt->second);
        continue;
      }
      if (Conv && Lab.key(C) == L) {
        Replace(I, C); // converting what is converted already
        continue;
      }
      // to_control(A | B) = to_control(A) | to_control(B), one `or` instead of three
      // operations when both are at hand.
      auto *CO = Conv ? dyn_cast<BinaryOperator>(C) : nullptr;
      if (Parts && Conv && CO && CO->getOpcode() == Instruction::Or && Ours.count(CO)) {
        Value *Parts[2] = {nullptr, nullptr};
        for (unsigned Op = 0; Op < 2; ++Op) {
          TpLabKey P = Lab.key(CO->getOperand(Op));
          if (TpLabels::convertedOnly(P)) {
            Parts[Op] = P.size() == 1 ? Constant::getNullValue(I16) : CO->getOperand(Op);
            continue;
          }
          auto PIt = LabAvail.find(TpLabels::convKey(P));
          if (PIt != LabAvail.end())
            Parts[Op] = PIt->second;
        }
        if (Parts[0] && Parts[1]) {
          IRBuilder<> Bld(&I);
          Value *O = Bld.CreateOr(Parts[0], Parts[1]);
          if (auto *OI = dyn_cast<Instruction>(O); OI && OI != &I && !Ours.count(OI)) {
            Ours.insert(OI);
            OI->setDebugLoc(I.getDebugLoc());
            Lab.Keys[OI] = L;
            LabAvail.emplace(L, OI);
            LabUndo.push_back(L);
          }
          Replace(I, O);
          continue;
        }
      }
      Lab.Keys[&I] = L;
      LabAvail.emplace(L, &I);
      LabUndo.push_back(L);
    }
    for (DomTreeNode *Child : Node->children())
      Stack.push_back({Child, 0, 0, false});
  }
  // Conversions of one label in blocks that do not dominate each other (their operands
  // are merged now), then what that makes simple (a PHI of the one conversion, the `Z`
  // of two equal labels).
  if (Merge) {
    SmallVector<Instruction *, 16> Merged;
    tpMergeConversions(F, Ours, Lab, DT, Merged);
    SmallVector<Instruction *, 32> Work;
    for (Instruction *T : Merged)
      for (User *U : T->users())
        if (auto *UI = dyn_cast<Instruction>(U); UI && Ours.count(UI))
          Work.push_back(UI);
    for (size_t Steps = 0; !Work.empty() && Steps < 4096; ++Steps) {
      Instruction *I = Work.pop_back_val();
      if (I->use_empty())
        continue;
      Value *V = simplifyInstruction(I, SQ.getWithInstruction(I));
      if (!V || V == I)
        continue;
      if (auto *VI = dyn_cast<Instruction>(V); VI && !DT.dominates(VI, I))
        continue;
      for (User *U : I->users())
        if (auto *UI = dyn_cast<Instruction>(U); UI && Ours.count(UI))
          Work.push_back(UI);
      I->replaceAllUsesWith(V);
    }
  }
  // Then what nothing uses any more (unused slot loads, what hoisting and the merges
  // above left behind), transitively among our instructions.
  unsigned Removed = 0;
  SmallVector<Instruction *, 64> Dead;
  for (Instruction *I : Ours)
    if (isInstructionTriviallyDead(I))
      Dead.push_back(I);
  while (!Dead.empty()) {
    Instruction *I = Dead.pop_back_val();
    if (!Ours.erase(I))
      continue; // already deleted
    SmallVector<Instruction *, 4> Ops;
    for (Use &Op : I->operands())
      if (auto *OI = dyn_cast<Instruction>(Op.get()))
        Ops.push_back(OI);
    I->eraseFromParent();
    ++Removed;
    for (Instruction *OI : Ops)
      if (Ours.count(OI) && isInstructionTriviallyDead(OI))
        Dead.push_back(OI);
  }
  return Removed;
}

/// Make the label code the pass inserted (`Insts`; nothing else is touched) cheap in
/// loops: nothing runs LICM after OptimizerLast, so
///  1. pure label computations (or, casts, splats, selects, compares of labels) whose
///     operands are loop-invariant move to the loop's preheader, outward as far as
///     possible;
///  2. a label PHI in a loop header of the form `s = phi [s0, outside], [s | X, latch]`
///     (every latch value an OR tree of `s` and loop-invariant leaves) is replaced by
///     `s0 | X` computed in the preheader. That is the value `s` has from the second
///     iteration on; in the first iteration it over-approximates (a label already in
///     the loop's exit condition, e.g. the bound's, on the induction variable one
///     iteration early). Loop results are unions over iterations, so they are
///     unchanged; only an execution of exactly one iteration could see more.
/// Then 1 again for what became invariant. Returns how many instructions were hoisted or
/// replaced.
static bool tpIsPureLabelOp(Instruction *I) {
  return isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<InsertElementInst>(I) ||
         isa<ExtractElementInst>(I) || isa<ShuffleVectorInst>(I) || isa<SelectInst>(I) ||
         isa<CmpInst>(I) || isa<FreezeInst>(I) || isa<GetElementPtrInst>(I) ||
         (isa<IntrinsicInst>(I) &&
          cast<IntrinsicInst>(I)->getIntrinsicID() == Intrinsic::vector_reduce_or);
}

/// Where loop-invariant label code of `L` goes: the preheader, else the unique
/// predecessor outside the loop (it dominates the header; what we move there is pure, so
/// running it when the other successor is taken is harmless — the vectorizer's
/// min-iterations check is such a predecessor), else a preheader made now.
static BasicBlock *tpHoistTarget(Loop *L, DominatorTree &DT, LoopInfo &LI) {
  if (BasicBlock *P = L->getLoopPreheader())
    return P;
  if (BasicBlock *P = L->getLoopPredecessor())
    return P;
  return InsertPreheaderForLoop(L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false);
}

static unsigned tpHoist(Function &F, SmallPtrSetImpl<Instruction *> &Ours, LoopInfo &LI,
                        DominatorTree &DT) {
  unsigned N = 0;
  ReversePostOrderTraversal<Function *> RPOT(&F);
  for (BasicBlock *BB : RPOT) {
    SmallVector<Instruction *, 16> Cands;
    for (Instruction &I : *BB)
      if (Ours.count(&I) && tpIsPureLabelOp(&I) && isSafeToSpeculativelyExecute(&I))
        Cands.push_back(&I);
    for (Instruction *I : Cands) {
      Loop *Target = nullptr;
      for (Loop *L = LI.getLoopFor(I->getParent()); L; L = L->getParentLoop()) {
        if (!L->hasLoopInvariantOperands(I))
          break;
        Target = L;
      }
      if (!Target)
        continue;
      // Outermost first; if it has no place for the code, try the inner ones.
      BasicBlock *To = nullptr;
      for (Loop *L = Target; L && !To; ) {
        To = tpHoistTarget(L, DT, LI);
        if (!To) {
          Loop *Inner = LI.getLoopFor(I->getParent());
          if (Inner == L)
            break;
          while (Inner->getParentLoop() != L)
            Inner = Inner->getParentLoop();
          L = Inner;
        }
      }
      if (!To)
        continue;
      I->moveBefore(To->getTerminator());
      ++N;
    }
  }
  return N;
}

/// Whether `T` is a shadow type: `i16`, or a vector of `i16`/`i32`/`i64` lanes (wide
/// lanes for vectors of 32- and 64-bit elements).
static bool tpIsLabelType(Type *T) {
  if (T->isIntegerTy(16))
    return true;
  auto *VT = dyn_cast<FixedVectorType>(T);
  return VT && (VT->getElementType()->isIntegerTy(16) || VT->getElementType()->isIntegerTy(32) ||
                VT->getElementType()->isIntegerTy(64));
}

/// Whether `V` is our `to_control(C)` (the pass's `control.rs`): `or (shl C, Sh), (and
/// C, Hi)`, which moves a control label onto the twin bits. Sets `C`, `Sh` and `Hi`.
static bool tpToControl(Value *V, SmallPtrSetImpl<Instruction *> &Ours, Value *&C, Value *&Sh,
                        Value *&Hi) {
  auto *Or = dyn_cast<BinaryOperator>(V);
  if (!Or || Or->getOpcode() != Instruction::Or || !Ours.count(Or))
    return false;
  auto *Shl = dyn_cast<BinaryOperator>(Or->getOperand(0));
  auto *And = dyn_cast<BinaryOperator>(Or->getOperand(1));
  if (!Shl || Shl->getOpcode() != Instruction::Shl || !Ours.count(Shl) || !And ||
      And->getOpcode() != Instruction::And || !Ours.count(And) ||
      And->getOperand(0) != Shl->getOperand(0))
    return false;
  C = Shl->getOperand(0);
  Sh = Shl->getOperand(1);
  Hi = And->getOperand(1);
  return true;
}

/// Leaves of the OR tree `V` (our `or`s only) into `Leaves`; false if it is not one.
/// A `to_control` of an OR tree contributes its leaves to `Ctrl` instead (with `Sh` and
/// `Hi`, which they all use): `to_control` distributes over `or` and is idempotent.
static bool tpOrLeaves(Value *V, PHINode *Self, SmallPtrSetImpl<Instruction *> &Ours,
                       SmallVectorImpl<Value *> &Leaves, SmallVectorImpl<Value *> &Ctrl,
                       Value *&Sh, Value *&Hi, bool InCtrl, unsigned Depth) {
  if (V == Self) {
    if (InCtrl)
      Ctrl.push_back(V);
    return true;
  }
  Value *C = nullptr, *S = nullptr, *H = nullptr;
  if (Depth < 16 && tpToControl(V, Ours, C, S, H)) {
    if ((Sh && Sh != S) || (Hi && Hi != H))
      return false;
    Sh = S;
    Hi = H;
    return tpOrLeaves(C, Self, Ours, Leaves, Ctrl, Sh, Hi, true, Depth + 1);
  }
  auto *BO = dyn_cast<BinaryOperator>(V);
  if (BO && BO->getOpcode() == Instruction::Or && Ours.count(BO) && Depth < 16)
    return tpOrLeaves(BO->getOperand(0), Self, Ours, Leaves, Ctrl, Sh, Hi, InCtrl, Depth + 1) &&
           tpOrLeaves(BO->getOperand(1), Self, Ours, Leaves, Ctrl, Sh, Hi, InCtrl, Depth + 1);
  (InCtrl ? Ctrl : Leaves).push_back(V);
  return true;
}

extern "C" unsigned tp_hoist_labels(LLVMValueRef Fn, LLVMValueRef *Insts, unsigned NInsts) {
  Function &F = *unwrap<Function>(Fn);
  SmallPtrSet<Instruction *, 32> Ours = tpOurs(Insts, NInsts);
  if (Ours.empty())
    return 0;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  if (LI.empty())
    return 0;
  unsigned N = tpHoist(F, Ours, LI, DT);
  // Collapsing one PHI can make another (an accumulator fed by it) collapsible.
  for (bool Changed = true; Changed;) {
    Changed = false;
  SmallVector<PHINode *, 16> Phis;
  for (Loop *L : LI.getLoopsInPreorder())
    for (PHINode &P : L->getHeader()->phis())
      if (Ours.count(&P) && tpIsLabelType(P.getType()))
        Phis.push_back(&P);
  for (PHINode *P : Phis) {
    Loop *L = LI.getLoopFor(P->getParent());
    Value *Init = nullptr;
    SmallVector<Value *, 8> Leaves, Ctrl;
    Value *Sh = nullptr, *Hi = nullptr;
    bool Ok = true;
    for (unsigned K = 0; K < P->getNumIncomingValues() && Ok; ++K) {
      Value *V = P->getIncomingValue(K);
      if (!L->contains(P->getIncomingBlock(K))) {
        Ok = !Init || Init == V;
        Init = V;
        continue;
      }
      Ok = tpOrLeaves(V, P, Ours, Leaves, Ctrl, Sh, Hi, false, 0);
    }
    if (!Ok || !Init)
      continue;
    for (Value *Leaf : Leaves)
      Ok &= L->isLoopInvariant(Leaf);
    for (Value *Leaf : Ctrl)
      Ok &= Leaf == P || L->isLoopInvariant(Leaf);
    Ok &= (!Sh || L->isLoopInvariant(Sh)) && (!Hi || L->isLoopInvariant(Hi));
    if (!Ok)
      continue;
    BasicBlock *Pre = tpHoistTarget(L, DT, LI);
    if (!Pre)
      continue;
    IRBuilder<> B(Pre->getTerminator());
    auto *IC = dyn_cast<Constant>(Init);
    Value *Acc = (IC && IC->isNullValue()) ? nullptr : Init;
    SmallPtrSet<Value *, 8> Seen;
    for (Value *Leaf : Leaves) {
      auto *C = dyn_cast<Constant>(Leaf);
      if ((C && C->isNullValue()) || Leaf == Acc || !Seen.insert(Leaf).second)
        continue;
      if (!Acc) {
        Acc = Leaf;
        continue;
      }
      Value *O = B.CreateOr(Acc, Leaf);
      if (auto *OI = dyn_cast<Instruction>(O))
        Ours.insert(OI);
      Acc = O;
    }
    // Control leaves: from the second iteration on, `s` is `s0 | L | to_control(s0 | L |
    // X)` (the PHI itself among the X stands for the rest of `s`).
    if (!Ctrl.empty() && Sh && Hi) {
      Value *Inner = Acc;
      SmallPtrSet<Value *, 8> SeenC;
      for (Value *Leaf : Ctrl) {
        auto *C = dyn_cast<Constant>(Leaf);
        if (Leaf == P || (C && C->isNullValue()) || Leaf == Inner || !SeenC.insert(Leaf).second)
          continue;
        Inner = Inner ? B.CreateOr(Inner, Leaf) : Leaf;
        if (auto *OI = dyn_cast<Instruction>(Inner))
          Ours.insert(OI);
      }
      if (Inner) {
        Value *Up = B.CreateShl(Inner, Sh);
        Value *Twins = B.CreateAnd(Inner, Hi);
        Value *T = B.CreateOr(Up, Twins);
        for (Value *X : {Up, Twins, T})
          if (auto *XI = dyn_cast<Instruction>(X))
            Ours.insert(XI);
        Acc = Acc ? B.CreateOr(Acc, T) : T;
        if (auto *OI = dyn_cast<Instruction>(Acc))
          Ours.insert(OI);
      }
    }
    if (!Acc)
      Acc = Constant::getNullValue(P->getType());
    P->replaceAllUsesWith(Acc);
    Ours.erase(P);
    P->eraseFromParent();
    ++N;
    Changed = true;
  }
  }
  N += tpHoist(F, Ours, LI, DT);
  return N;
}

/// Append `Fn` to `llvm.global_ctors` with the given priority.
extern "C" void tp_append_global_ctor(LLVMModuleRef M, LLVMValueRef Fn, int Priority) {
  appendToGlobalCtors(*unwrap(M), unwrap<Function>(Fn), Priority);
}

// ---------------------------------------------------------------------------------------
// Trip counts (static pruning)
// ---------------------------------------------------------------------------------------

/// For each of the `N` loop headers of function `Fn`, the loop's trip count if
/// ScalarEvolution proves it a compile-time constant, else UINT64_MAX, into `Out`;
/// UINT64_MAX - 1 when it is constant but the loop is a transformed copy (vectorized,
/// unrolled, peeled: its metadata says so) whose count is not the source loop's.
///
/// The count is the number of times the loop body runs per execution of the loop, so
/// that -O0 and -O2 agree: SCEV's backedge-taken count is that number for a bottom-
/// tested (rotated) loop minus one, and exactly that number for a top-tested loop
/// (whose header runs once more than its body). So: BTC + 1 when every latch is an
/// exiting block, BTC otherwise.
///
/// The function has been changed since the pipeline last analysed it (alloca
/// promotion, edge splitting), so its cached analyses are dropped first, and again
/// afterwards because instrumentation changes it further. Returns 0 when `FAM` is null.
/// Whether the optimizer vectorized, unrolled or peeled loop `L` (its `!llvm.loop` says
/// so), so that its trip count is not that of the source loop.
static bool tpTransformedLoop(Loop *L) {
  MDNode *ID = L->getLoopID();
  if (!ID)
    return false;
  for (const MDOperand &Op : ID->operands()) {
    auto *N = dyn_cast_or_null<MDNode>(Op.get());
    if (!N || N->getNumOperands() == 0)
      continue;
    auto *S = dyn_cast_or_null<MDString>(N->getOperand(0).get());
    if (!S)
      continue;
    StringRef K = S->getString();
    if (K == "llvm.loop.isvectorized" || K.starts_with("llvm.loop.unroll.") ||
        K == "llvm.loop.peeled.count")
      return true;
  }
  return false;
}

extern "C" int tp_loop_trip_counts(void *FAMp, LLVMValueRef Fn, LLVMBasicBlockRef *Headers,
                                   unsigned N, uint64_t *Out) {
  for (unsigned I = 0; I < N; ++I)
    Out[I] = UINT64_MAX;
  if (!FAMp)
    return 0;
  auto &FAM = *static_cast<FunctionAnalysisManager *>(FAMp);
  Function &F = *unwrap<Function>(Fn);
  FAM.clear(F, F.getName());
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  for (unsigned I = 0; I < N; ++I) {
    BasicBlock *H = unwrap(Headers[I]);
    Loop *L = LI.getLoopFor(H);
    if (!L || L->getHeader() != H)
      continue;
    auto *BTC = dyn_cast<SCEVConstant>(SE.getBackedgeTakenCount(L));
    if (!BTC || BTC->getAPInt().getActiveBits() > 63)
      continue;
    if (tpTransformedLoop(L)) {
      Out[I] = UINT64_MAX - 1;
      continue;
    }
    SmallVector<BasicBlock *, 4> Latches;
    L->getLoopLatches(Latches);
    bool Bottom = !Latches.empty();
    for (BasicBlock *B : Latches)
      Bottom &= L->isLoopExiting(B);
    Out[I] = BTC->getAPInt().getZExtValue() + (Bottom ? 1 : 0);
  }
  FAM.clear(F, F.getName());
  return 1;
}

// ---------------------------------------------------------------------------------------
// Call and parameter properties
// ---------------------------------------------------------------------------------------

enum : unsigned {
  TP_MEM_NONE = 0,          // touches no memory the program can see
  TP_MEM_READS = 1,         // may read program-visible memory
  TP_MEM_WRITES = 2,        // may write program-visible memory
};

/// Memory effects of a call, ignoring "inaccessible" memory (state that only the callee
/// sees, such as the FP environment of constrained intrinsics or trap state).
extern "C" unsigned tp_call_memory_effects(LLVMValueRef Call) {
  auto *CB = unwrap<CallBase>(Call);
  MemoryEffects ME = CB->getMemoryEffects().getWithoutLoc(IRMemLocation::InaccessibleMem);
  unsigned R = TP_MEM_NONE;
  if (isModSet(ME.getModRef()))
    R |= TP_MEM_WRITES;
  if (isRefSet(ME.getModRef()))
    R |= TP_MEM_READS;
  return R;
}

extern "C" int tp_call_returns_twice(LLVMValueRef Call) {
  return unwrap<CallBase>(Call)->hasFnAttr(Attribute::ReturnsTwice);
}

/// The byval type of call argument `I` (from the call site or the callee), or null.
extern "C" LLVMTypeRef tp_call_byval_type(LLVMValueRef Call, unsigned I) {
  auto *CB = unwrap<CallBase>(Call);
  if (!CB->isByValArgument(I))
    return nullptr;
  return wrap(CB->getParamByValType(I));
}

/// The byval type of function parameter `I`, or null.
extern "C" LLVMTypeRef tp_param_byval_type(LLVMValueRef Fn, unsigned I) {
  auto *F = unwrap<Function>(Fn);
  if (!F->hasParamAttribute(I, Attribute::ByVal))
    return nullptr;
  return wrap(F->getParamByValType(I));
}

/// Whether call argument `I` (or function parameter `I` when `Call` is a function) is
/// `inalloca` or `preallocated`, which taintprof does not support.
extern "C" int tp_has_unsupported_param_attr(LLVMValueRef CallOrFn, unsigned I) {
  Value *V = unwrap(CallOrFn);
  if (auto *CB = dyn_cast<CallBase>(V))
    return CB->paramHasAttr(I, Attribute::InAlloca) ||
           CB->paramHasAttr(I, Attribute::Preallocated);
  if (auto *F = dyn_cast<Function>(V))
    return F->hasParamAttribute(I, Attribute::InAlloca) ||
           F->hasParamAttribute(I, Attribute::Preallocated);
  return 0;
}

extern "C" int tp_call_is_musttail(LLVMValueRef Call) {
  if (auto *CI = dyn_cast<CallInst>(unwrap(Call)))
    return CI->isMustTailCall();
  return 0;
}

extern "C" int tp_function_is_naked(LLVMValueRef Fn) {
  return unwrap<Function>(Fn)->hasFnAttribute(Attribute::Naked);
}

// ---------------------------------------------------------------------------------------
// Debug info
// ---------------------------------------------------------------------------------------

struct TpStr {
  const char *ptr;
  size_t len;
};

static TpStr tpStr(StringRef S) { return TpStr{S.data(), S.size()}; }

/// What taintprof needs from a DISubprogram.
struct TpSubprogram {
  TpStr name;    // source name (short name, e.g. `at`)
  TpStr linkage; // linkage name, empty for C functions
  TpStr file;    // DIFile filename
  TpStr dir;     // DIFile directory
  unsigned line; // definition line
};

/// What taintprof needs from a DILocation.
struct TpLocation {
  unsigned line, column;
  LLVMMetadataRef inlined_at; // DILocation or null
  LLVMMetadataRef subprogram; // DISubprogram of the scope, or null
};

extern "C" int tp_location_info(LLVMMetadataRef Loc, TpLocation *Out) {
  auto *L = dyn_cast_or_null<DILocation>(unwrap(Loc));
  if (!L)
    return 0;
  Out->line = L->getLine();
  Out->column = L->getColumn();
  Out->inlined_at = wrap(L->getInlinedAt());
  Out->subprogram = wrap(L->getScope() ? L->getScope()->getSubprogram() : nullptr);
  return 1;
}

extern "C" int tp_subprogram_info(LLVMMetadataRef SP, TpSubprogram *Out) {
  auto *S = dyn_cast_or_null<DISubprogram>(unwrap(SP));
  if (!S)
    return 0;
  Out->name = tpStr(S->getName());
  Out->linkage = tpStr(S->getLinkageName());
  Out->file = tpStr(S->getFilename());
  Out->dir = tpStr(S->getDirectory());
  Out->line = S->getLine();
  return 1;
}

/// The loop's start location: the first DILocation operand of the `!llvm.loop`
/// metadata on terminator `Term` (clang emits `!{self, !DILocation(start),
/// !DILocation(end), ...}` whenever debug info is on), or null.
extern "C" LLVMMetadataRef tp_loop_start_location(LLVMValueRef Term) {
  auto *I = unwrap<Instruction>(Term);
  MDNode *LoopID = I->getMetadata(LLVMContext::MD_loop);
  if (!LoopID)
    return nullptr;
  for (const MDOperand &Op : LoopID->operands())
    if (auto *L = dyn_cast_or_null<DILocation>(Op.get()))
      return wrap(L);
  return nullptr;
}

/// The loop's end location: the second DILocation operand of `!llvm.loop` on `Term`
/// (the end of the loop statement), or null.
extern "C" LLVMMetadataRef tp_loop_end_location(LLVMValueRef Term) {
  auto *I = unwrap<Instruction>(Term);
  MDNode *LoopID = I->getMetadata(LLVMContext::MD_loop);
  if (!LoopID)
    return nullptr;
  bool First = true;
  for (const MDOperand &Op : LoopID->operands())
    if (auto *L = dyn_cast_or_null<DILocation>(Op.get())) {
      if (!First)
        return wrap(L);
      First = false;
    }
  return nullptr;
}

/// Append `!{A, B}` (B may be null: `!{A}`) to the module's named metadata `Name`.
extern "C" void tp_record_add(LLVMModuleRef M, const char *Name, LLVMMetadataRef A,
                              LLVMMetadataRef B) {
  Module *Mod = unwrap(M);
  SmallVector<Metadata *, 2> Ops{unwrap(A)};
  if (B)
    Ops.push_back(unwrap(B));
  Mod->getOrInsertNamedMetadata(Name)->addOperand(MDTuple::get(Mod->getContext(), Ops));
}

/// Number of operands of named metadata `Name` (0 if absent).
extern "C" unsigned tp_record_count(LLVMModuleRef M, const char *Name) {
  NamedMDNode *N = unwrap(M)->getNamedMetadata(Name);
  return N ? N->getNumOperands() : 0;
}

/// Operand `I` of named metadata `Name`: its first and second operands (null if absent).
extern "C" void tp_record_get(LLVMModuleRef M, const char *Name, unsigned I,
                              LLVMMetadataRef *A, LLVMMetadataRef *B) {
  *A = nullptr;
  *B = nullptr;
  NamedMDNode *N = unwrap(M)->getNamedMetadata(Name);
  if (!N || I >= N->getNumOperands())
    return;
  MDNode *T = N->getOperand(I);
  if (T->getNumOperands() > 0)
    *A = wrap(T->getOperand(0).get());
  if (T->getNumOperands() > 1)
    *B = wrap(T->getOperand(1).get());
}

/// Remove named metadata `Name` (it must not reach the object file).
extern "C" void tp_record_erase(LLVMModuleRef M, const char *Name) {
  if (NamedMDNode *N = unwrap(M)->getNamedMetadata(Name))
    unwrap(M)->eraseNamedMetadata(N);
}

/// Demangle an Itanium/Rust/D name; returns a malloc'd string (free with tp_free), or
/// null when `Name` is not a mangled name.
extern "C" char *tp_demangle(const char *Name, size_t Len) {
  std::string Out;
  if (!nonMicrosoftDemangle(std::string_view(Name, Len), Out))
    return nullptr;
  return strdup(Out.c_str());
}

extern "C" void tp_free(char *P) { free(P); }

/// Whether the module has any debug compile unit.
extern "C" int tp_module_has_debug_info(LLVMModuleRef M) {
  return !unwrap(M)->debug_compile_units().empty();
}

// ---------------------------------------------------------------------------------------
// Debug variables and types (denormal mode: names and element types of FP arrays)
// ---------------------------------------------------------------------------------------

/// The source variables bound to `V`: with `Declares` != 0 those whose *address* `V` is
/// (`dbg.declare` intrinsics or `#dbg_declare` records on an alloca, or the dbg.assign
/// markers of an alloca under assignment tracking), otherwise those
/// whose *value* `V` is (`dbg.value` / `#dbg_value`). Both debug-info formats are
/// searched, so the answer does not depend on which one the module is in. Writes at most
/// `Max` DILocalVariables to `Out`, returns how many there are.
extern "C" unsigned tp_value_debug_vars(LLVMValueRef V, LLVMMetadataRef *Out,
                                        int64_t *FragOut, unsigned Max, int Declares) {
  Value *Val = unwrap(V);
  SmallVector<std::pair<DILocalVariable *, int64_t>, 4> Vars;
  // `Frag`: the fragment's offset in bits when `V` is only part of the variable (a
  // member of a structure split by SROA), else -1.
  auto Add = [&](DILocalVariable *Var, DIExpression *E) {
    int64_t Frag = -1;
    if (E)
      if (auto F = E->getFragmentInfo())
        Frag = (int64_t)F->OffsetInBits;
    if (!Var)
      return;
    for (auto &P : Vars)
      if (P.first == Var && P.second == Frag)
        return;
    Vars.push_back({Var, Frag});
  };
  if (Declares) {
    for (DbgDeclareInst *D : findDbgDeclares(Val))
      Add(D->getVariable(), D->getExpression());
    for (DbgVariableRecord *R : findDVRDeclares(Val))
      Add(R->getVariable(), R->getExpression());
    // With assignment tracking (clang -O1 and up) an alloca is linked to its variable
    // through `!DIAssignID` and dbg.assign markers instead of a dbg.declare.
    if (auto *I = dyn_cast<Instruction>(Val)) {
      for (DbgAssignIntrinsic *A : at::getAssignmentMarkers(I))
        Add(A->getVariable(), A->getExpression());
      for (DbgVariableRecord *R : at::getDVRAssignmentMarkers(I))
        Add(R->getVariable(), R->getExpression());
    }
  } else {
    SmallVector<DbgValueInst *, 4> DVs;
    SmallVector<DbgVariableRecord *, 4> Recs;
    findDbgValues(DVs, Val, &Recs);
    for (DbgValueInst *D : DVs)
      Add(D->getVariable(), D->getExpression());
    for (DbgVariableRecord *R : Recs)
      Add(R->getVariable(), R->getExpression());
  }
  unsigned N = 0;
  for (auto &P : Vars) {
    if (N < Max) {
      Out[N] = wrap(P.first);
      if (FragOut)
        FragOut[N] = P.second;
    }
    ++N;
  }
  return N;
}

/// The DIGlobalVariables attached to global `GV` (`!dbg` DIGlobalVariableExpressions).
extern "C" unsigned tp_global_debug_vars(LLVMValueRef GV, LLVMMetadataRef *Out, unsigned Max) {
  auto *G = dyn_cast<GlobalVariable>(unwrap(GV));
  if (!G)
    return 0;
  SmallVector<DIGlobalVariableExpression *, 2> GVEs;
  G->getDebugInfo(GVEs);
  unsigned N = 0;
  for (DIGlobalVariableExpression *E : GVEs) {
    // Only expressions that describe the whole variable at its address (a fragment or
    // a constant-value expression names something else).
    DIExpression *X = E->getExpression();
    if (X && X->getNumElements() != 0)
      continue;
    if (N < Max)
      Out[N] = wrap(E->getVariable());
    ++N;
  }
  return N;
}

/// What taintprof needs from a DIVariable (local or global).
struct TpVariable {
  TpStr name;
  TpStr file;
  TpStr dir;
  unsigned line;
  int local_to_unit;             // globals: `static` at file or function scope
  LLVMMetadataRef type;          // DIType or null
  LLVMMetadataRef scope_sp;      // the enclosing DISubprogram, or null (file scope)
};

extern "C" int tp_variable_info(LLVMMetadataRef VarMD, TpVariable *Out) {
  auto *Var = dyn_cast_or_null<DIVariable>(unwrap(VarMD));
  if (!Var)
    return 0;
  Out->name = tpStr(Var->getName());
  Out->file = tpStr(Var->getFilename());
  Out->dir = tpStr(Var->getDirectory());
  Out->line = Var->getLine();
  Out->type = wrap(Var->getType());
  Out->local_to_unit = 0;
  Out->scope_sp = nullptr;
  DIScope *Scope = Var->getScope();
  if (auto *GV = dyn_cast<DIGlobalVariable>(Var))
    Out->local_to_unit = GV->isLocalToUnit();
  if (auto *LS = dyn_cast_or_null<DILocalScope>(Scope))
    Out->scope_sp = wrap(LS->getSubprogram());
  return 1;
}

/// `Ty` without typedefs and cv/restrict/atomic qualifiers.
static DIType *tpStrip(DIType *Ty) {
  for (unsigned Guard = 0; Ty && Guard < 64; ++Guard) {
    auto *D = dyn_cast<DIDerivedType>(Ty);
    if (!D)
      return Ty;
    switch (D->getTag()) {
    case dwarf::DW_TAG_typedef:
    case dwarf::DW_TAG_const_type:
    case dwarf::DW_TAG_volatile_type:
    case dwarf::DW_TAG_restrict_type:
    case dwarf::DW_TAG_atomic_type:
      Ty = D->getBaseType();
      continue;
    default:
      return Ty;
    }
  }
  return Ty;
}

/// `Ty` after `Derefs` pointer or reference levels (stripped); null if it has fewer.
static DIType *tpDeref(DIType *Ty, unsigned Derefs) {
  for (; Derefs > 0 && Ty; --Derefs) {
    auto *D = dyn_cast<DIDerivedType>(Ty);
    if (!D || (D->getTag() != dwarf::DW_TAG_pointer_type &&
               D->getTag() != dwarf::DW_TAG_reference_type &&
               D->getTag() != dwarf::DW_TAG_rvalue_reference_type))
      return nullptr;
    Ty = tpStrip(D->getBaseType());
  }
  return Ty;
}

/// The member of struct or class `Ty` that covers bit `OffsetBits` (null if `Ty` is no
/// struct or class, or no member covers it).
static DIDerivedType *tpMemberCovering(DIType *Ty, uint64_t OffsetBits) {
  auto *C = dyn_cast_or_null<DICompositeType>(Ty);
  if (!C || (C->getTag() != dwarf::DW_TAG_structure_type &&
             C->getTag() != dwarf::DW_TAG_class_type))
    return nullptr;
  for (DINode *E : C->getElements()) {
    auto *M = dyn_cast_or_null<DIDerivedType>(E);
    if (!M || M->getTag() != dwarf::DW_TAG_member || M->isStaticMember())
      continue;
    uint64_t Off = M->getOffsetInBits(), Size = M->getSizeInBits();
    if (OffsetBits == Off || (OffsetBits > Off && OffsetBits < Off + Size))
      return M;
  }
  return nullptr;
}

/// Follow `Derefs` pointer/reference levels of `Ty`, then array types, down to a
/// DW_ATE_float basic type; returns its size in bits (0 if it is not one) and its name
/// in `*Name` ("float", "double", "long double", "_Float16", "__bf16", ...).
extern "C" unsigned tp_ditype_fp(LLVMMetadataRef TyMD, unsigned Derefs, TpStr *Name) {
  DIType *Ty = tpDeref(tpStrip(dyn_cast_or_null<DIType>(unwrap(TyMD))), Derefs);
  for (unsigned Guard = 0; Ty && Guard < 64; ++Guard) {
    auto *C = dyn_cast<DICompositeType>(Ty);
    if (!C || C->getTag() != dwarf::DW_TAG_array_type)
      break;
    Ty = tpStrip(C->getBaseType());
  }
  auto *B = dyn_cast_or_null<DIBasicType>(Ty);
  if (!B || B->getEncoding() != dwarf::DW_ATE_float)
    return 0;
  *Name = tpStr(B->getName());
  return (unsigned)B->getSizeInBits();
}

/// The member of the struct/class/union that `Ty` is (after `Derefs` pointer levels)
/// which starts exactly at bit `OffsetBits`, descending into nested aggregates; its
/// type is returned and its access path ("data", "grid.cells") written to `*Path`
/// (malloc'd, free with tp_free). Null if there is none.
extern "C" LLVMMetadataRef tp_ditype_member_at(LLVMMetadataRef TyMD, unsigned Derefs,
                                               uint64_t OffsetBits, char **Path) {
  *Path = nullptr;
  DIType *Ty = tpDeref(tpStrip(dyn_cast_or_null<DIType>(unwrap(TyMD))), Derefs);
  std::string P;
  for (unsigned Guard = 0; Ty && Guard < 32; ++Guard) {
    DIDerivedType *Found = tpMemberCovering(Ty, OffsetBits);
    if (!Found)
      return nullptr;
    if (!P.empty())
      P += ".";
    P += Found->getName().str();
    DIType *MT = tpStrip(Found->getBaseType());
    if (OffsetBits == Found->getOffsetInBits() && !isa_and_nonnull<DICompositeType>(MT)) {
      *Path = strdup(P.c_str());
      return wrap(Found->getBaseType());
    }
    OffsetBits -= Found->getOffsetInBits();
    Ty = MT;
  }
  return nullptr;
}

/// The constant byte offset of GEP `G` (instruction or constant expression) from its
/// base pointer, into `*Out`; 0 if the offset is not constant.
extern "C" int tp_gep_constant_offset(LLVMValueRef G, int64_t *Out) {
  auto *GEP = dyn_cast<GEPOperator>(unwrap(G));
  if (!GEP)
    return 0;
  const DataLayout *DL = nullptr;
  if (auto *I = dyn_cast<Instruction>(GEP))
    DL = &I->getModule()->getDataLayout();
  else if (auto *GV = dyn_cast<GlobalValue>(GEP->getPointerOperand()->stripPointerCasts()))
    DL = &GV->getParent()->getDataLayout();
  if (!DL)
    return 0;
  APInt Off(DL->getIndexTypeSizeInBits(GEP->getType()), 0);
  if (!GEP->accumulateConstantOffset(*DL, Off) || Off.getSignificantBits() > 63)
    return 0;
  *Out = Off.getSExtValue();
  return 1;
}

/// Whether debug type `Ty` (stripped) is a C++ standard vector of a floating-point
/// type (`std::vector<float>`, `std::vector<double>`; libstdc++ or libc++, whose first
/// member points to the elements' one heap block): its element type's size in bits (0
/// if not such a vector) and name in `*Name`.
static unsigned tpFpVectorBits(DIType *Ty, TpStr *Name) {
  auto *C = dyn_cast_or_null<DICompositeType>(Ty);
  if (!C || (C->getTag() != dwarf::DW_TAG_class_type &&
             C->getTag() != dwarf::DW_TAG_structure_type) ||
      !C->getName().starts_with("vector<"))
    return 0;
  // The outermost namespace is std (libc++ nests std::__1).
  DIScope *Top = nullptr;
  for (DIScope *S = C->getScope(); S && isa<DINamespace>(S); S = S->getScope())
    Top = S;
  if (!Top || Top->getName() != "std")
    return 0;
  DINodeArray Params = C->getTemplateParams();
  if (Params.empty())
    return 0;
  auto *P = dyn_cast_or_null<DITemplateTypeParameter>(Params[0]);
  auto *B = P ? dyn_cast_or_null<DIBasicType>(tpStrip(P->getType())) : nullptr;
  if (!B || B->getEncoding() != dwarf::DW_ATE_float)
    return 0;
  *Name = tpStr(B->getName());
  return (unsigned)B->getSizeInBits();
}

/// The `std::vector` of an FP type that starts exactly at bit `OffsetBits` of the object
/// `Ty` designates after `Derefs` pointer/reference levels: the object itself, or a
/// member (nested members too). Returns the element type's size in bits (0 if there is
/// no such vector there), its name in `*Name`, and the member path ("cells",
/// "grid.cells"; empty for the object itself) in `*Path` (malloc'd, free with tp_free).
extern "C" unsigned tp_ditype_fp_vector_at(LLVMMetadataRef TyMD, unsigned Derefs,
                                           uint64_t OffsetBits, char **Path, TpStr *Name) {
  *Path = nullptr;
  DIType *Ty = tpDeref(tpStrip(dyn_cast_or_null<DIType>(unwrap(TyMD))), Derefs);
  std::string P;
  for (unsigned Guard = 0; Ty && Guard < 32; ++Guard) {
    if (unsigned Bits = tpFpVectorBits(Ty, Name)) {
      if (OffsetBits != 0)
        return 0;
      *Path = strdup(P.c_str());
      return Bits;
    }
    DIDerivedType *Found = tpMemberCovering(Ty, OffsetBits);
    if (!Found)
      return 0;
    if (!P.empty())
      P += ".";
    P += Found->getName().str();
    OffsetBits -= Found->getOffsetInBits();
    Ty = tpStrip(Found->getBaseType());
  }
  return 0;
}

/// Whether debug type `Ty` (typedefs and qualifiers stripped) is a C++ reference.
extern "C" int tp_ditype_is_reference(LLVMMetadataRef TyMD) {
  auto *D = dyn_cast_or_null<DIDerivedType>(tpStrip(dyn_cast_or_null<DIType>(unwrap(TyMD))));
  return D && (D->getTag() == dwarf::DW_TAG_reference_type ||
               D->getTag() == dwarf::DW_TAG_rvalue_reference_type);
}

/// Whether debug type `Ty` (typedefs and qualifiers stripped) is an array type.
extern "C" int tp_ditype_is_array(LLVMMetadataRef TyMD) {
  auto *C = dyn_cast_or_null<DICompositeType>(tpStrip(dyn_cast_or_null<DIType>(unwrap(TyMD))));
  return C && C->getTag() == dwarf::DW_TAG_array_type;
}

/// The debug return type of function `Fn` (from its DISubprogram), or null.
extern "C" LLVMMetadataRef tp_function_return_ditype(LLVMValueRef Fn) {
  auto *F = dyn_cast<Function>(unwrap(Fn));
  DISubprogram *SP = F ? F->getSubprogram() : nullptr;
  DISubroutineType *T = SP ? SP->getType() : nullptr;
  if (!T || T->getTypeArray().size() == 0)
    return nullptr;
  return wrap(T->getTypeArray()[0]);
}

// ---------------------------------------------------------------------------------------
// Taint mode: shadow-address strength reduction
// ---------------------------------------------------------------------------------------

/// Decompose the GEP instruction `G` (scalar pointer result) into the byte offset from
/// its pointer operand, `*Const + sum Scales[i] * Vars[i]`, with LLVM's own offset
/// arithmetic (each `Vars[i]` is an index operand, sign-extended or truncated to 64
/// bits as the GEP does). Writes at most `Max` pairs and returns their number, or -1 if
/// `G` cannot be decomposed (not a GEP, vector GEP, scalable types, more than `Max`
/// variable indices, scales or offsets too large to double safely).
extern "C" int tp_gep_decompose(LLVMValueRef G, LLVMValueRef *Vars, int64_t *Scales,
                                unsigned Max, int64_t *Const) {
  auto *GEP = dyn_cast<GetElementPtrInst>(unwrap(G));
  if (!GEP || GEP->getType()->isVectorTy())
    return -1;
  const DataLayout &DL = GEP->getModule()->getDataLayout();
  if (DL.getIndexTypeSizeInBits(GEP->getType()) != 64)
    return -1;
  MapVector<Value *, APInt> VarOffs;
  APInt C(64, 0);
  if (!cast<GEPOperator>(GEP)->collectOffset(DL, 64, VarOffs, C))
    return -1;
  if (VarOffs.size() > Max || C.getSignificantBits() > 41)
    return -1;
  unsigned N = 0;
  for (auto &KV : VarOffs) {
    const APInt &S = KV.second;
    if (S.isNegative() || S.isZero() || S.getActiveBits() > 32 ||
        KV.first->getType()->isVectorTy())
      return -1;
    Vars[N] = wrap(KV.first);
    Scales[N] = S.getSExtValue();
    ++N;
  }
  *Const = C.getSExtValue();
  return (int)N;
}
