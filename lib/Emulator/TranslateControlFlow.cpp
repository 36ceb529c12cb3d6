//===- TranslateControlFlow.cpp - branches and return ---------------------===//
//
// The control-flow family of the translation (Translator.h). A branch's
// block arguments become a parallel copy (CopySet); its target is patched
// by Translator::translateFunction once every block has its first
// instruction, in the order the copy sets are created here (cf.br one,
// cf.cond_br true then false).
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

using namespace mlir;
using namespace mlir::fp8::emu;

/// The parallel copy of the branch arguments `args` into `dest`'s block
/// arguments; its index among the program's copy sets.
static int32_t copySet(Translator &t, Block *dest, OperandRange args) {
  CopySet cs;
  cs.target = -1;
  cs.total = 0;
  for (auto [arg, v] : llvm::zip(dest->getArguments(), args)) {
    int32_t w = slotWidth(v.getType());
    cs.copies.push_back({t.slot(arg), t.slot(v), w});
    cs.total += w;
  }
  t.p.copySets.push_back(std::move(cs));
  return static_cast<int32_t>(t.p.copySets.size() - 1);
}

/// cf.br and llvm.br.
template <typename BranchOp>
static bool translateBranch(Translator &t, BranchOp br) {
  Inst &inst = t.emit(br, Opcode::Br);
  inst.x = copySet(t, br.getDest(), br.getDestOperands());
  return true;
}

/// cf.cond_br and llvm.cond_br (branch weights are hints: ignored).
template <typename CondBranchOp>
static bool translateCondBranch(Translator &t, CondBranchOp br) {
  Inst &inst = t.emit(br, Opcode::CondBr);
  inst.a = t.slot(br.getCondition());
  inst.x = copySet(t, br.getTrueDest(), br.getTrueDestOperands());
  inst.imm = copySet(t, br.getFalseDest(), br.getFalseDestOperands());
  return true;
}

void mlir::fp8::emu::addControlFlowOps(OpTable &table) {
  table.add(translateBranch<cf::BranchOp>);
  table.add(translateCondBranch<cf::CondBranchOp>);
  table.add(translateBranch<LLVM::BrOp>);
  table.add(translateCondBranch<LLVM::CondBrOp>);
  table.addBare<LLVM::ReturnOp>(Opcode::Return);
}
