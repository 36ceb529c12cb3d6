//===- TranslateCalls.cpp - device printf and llvm.intr.assume ------------===//
//
// The calls of the translation (Translator.h): `llvm.call @vprintf(format,
// arguments)`, what convert-gpu-to-nvvm makes of gpu.printf (the format a
// constant global, the arguments an alloca'd struct, f32 promoted to f64),
// runs on the interpreter as CUDA's device printf (Printf.cpp); the
// libdevice calls of a few f32 math ops (fabsf, fmaf, fminf, fmaxf) are
// their instructions; any other call is an error naming the callee.
// `llvm.intr.assume` checks its operand (an assumption that does not hold is
// undefined behaviour); `llvm.intr.trap` (PTX trap) is a fault.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

using namespace mlir;
using namespace mlir::fp8::emu;

static bool translateCall(Translator &t, LLVM::CallOp call) {
  std::optional<StringRef> callee = call.getCallee();
  if (!callee)
    return t.fail(call, "indirect calls are not modelled");
  // The libdevice functions convert-gpu-to-nvvm calls for math ops, where
  // the emulator has the instruction: f32 only.
  static const std::pair<StringRef, Opcode> libdevice[] = {
      {"__nv_fabsf", Opcode::AbsF},
      {"__nv_fmaf", Opcode::Fma},
      {"__nv_fminf", Opcode::MinNumF},
      {"__nv_fmaxf", Opcode::MaxNumF}};
  for (auto [name, code] : libdevice)
    if (*callee == name)
      return t.floatOp(call, code);
  if (*callee != "vprintf")
    return t.fail(call, "call of '" + callee->str() +
                            "' (only vprintf, device printf, and the "
                            "libdevice f32 functions fabsf, fmaf, fminf, "
                            "fmaxf are modelled)");
  if (call.getArgOperands().size() != 2)
    return t.fail(call, "vprintf takes a format and an argument buffer");
  Inst &inst = t.emit(call, Opcode::Printf);
  inst.a = t.slot(call.getArgOperands()[0]);
  inst.b = t.slot(call.getArgOperands()[1]);
  if (call.getNumResults())
    inst.d = t.newSlot(call.getResult());
  return true;
}

/// llvm.intr.assume: the condition, and an "align"(ptr, bytes) bundle
/// (what memref.assume_alignment lowers to) checked as a pointer alignment.
static bool translateAssume(Translator &t, LLVM::AssumeOp assume) {
  auto bundles = assume.getOpBundleOperands();
  std::optional<ArrayAttr> tags = assume.getOpBundleTags();
  int32_t ptr = -1, align = -1;
  for (size_t i = 0; i < bundles.size(); ++i) {
    auto tag = tags && i < tags->size() ? dyn_cast<StringAttr>((*tags)[i])
                                        : StringAttr();
    if (!tag || tag.getValue() != "align" || bundles[i].size() != 2 || ptr >= 0)
      return t.fail(assume, "llvm.intr.assume with operand bundles other "
                            "than one \"align\"(pointer, bytes) is not "
                            "modelled");
    ptr = t.slot(bundles[i][0]);
    align = t.slot(bundles[i][1]);
  }
  Inst &inst = t.emit(assume, Opcode::Assume);
  inst.a = t.slot(assume.getCond());
  inst.b = ptr;
  inst.c = align;
  return true;
}

/// llvm.intr.trap (PTX `trap`: the kernel aborts, the launch fails).
static bool translateTrap(Translator &t, LLVM::Trap trap) {
  t.emit(trap, Opcode::Trap);
  return true;
}

void mlir::fp8::emu::addCallOps(OpTable &table) {
  table.add(translateCall);
  table.add(translateAssume);
  table.add(translateTrap);
}
