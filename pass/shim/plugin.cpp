// taintprof pass plugin: the C++ shim.
//
// Everything that needs LLVM's C++ API and has no C-API equivalent lives here, and
// nothing else does: all analysis and instrumentation logic is Rust (src/). The shim
//
//   1. registers the module pass with the new pass manager (pipeline-parsing callback
//      for `opt -passes=taintprof-taint[<params>]`, OptimizerLast callback for
//      `clang -fpass-plugin=`) and calls `taintprof_run_module` in Rust;
//   2. turns Rust-side errors into compiler diagnostics (`LLVMContext::emitError`), so a
//      problem is reported as a compile error, never as a crash;
//   3. offers small helpers (tp_*) for what the C API lacks: PromoteMemToReg, edge
//      splitting, global ctors, DISubprogram/DILocation queries, demangling, memory
//      effects of calls and parameter type attributes.
//
// Every helper is `extern "C"`, takes and returns C-API handles, and never throws
// (LLVM is built without exceptions).

#include "llvm-c/Core.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace llvm;

// Implemented in Rust (src/lib.rs). Returns 0 on success; on failure the Rust side has
// already reported the problem through tp_emit_error.
extern "C" int taintprof_run_module(LLVMModuleRef M, int opt_level, const char *params);

namespace {
struct TaintprofPass : PassInfoMixin<TaintprofPass> {
  int OptLevel;       // 0..3, or -1 when run from an explicit opt pipeline
  std::string Params; // the text between <> in `taintprof-taint<...>`, may be empty
  TaintprofPass(int L, std::string P) : OptLevel(L), Params(std::move(P)) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    taintprof_run_module(wrap(&M), OptLevel, Params.c_str());
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

/// Append `Fn` to `llvm.global_ctors` with the given priority.
extern "C" void tp_append_global_ctor(LLVMModuleRef M, LLVMValueRef Fn, int Priority) {
  appendToGlobalCtors(*unwrap(M), unwrap<Function>(Fn), Priority);
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
