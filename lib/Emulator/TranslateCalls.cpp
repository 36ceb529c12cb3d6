//===- TranslateCalls.cpp - device printf and llvm.intr.assume ------------===//
//
// The calls of the translation (Translator.h): `llvm.call @vprintf(format,
// arguments)`, what convert-gpu-to-nvvm makes of gpu.printf (the format a
// constant global, the arguments an alloca'd struct, f32 promoted to f64),
// runs on the interpreter as CUDA's device printf (Printf.cpp); the
// libdevice calls of a few f32 math ops (fabsf, fmaf, fminf, fmaxf) are
// their instructions; any other call is an error naming the callee.
// `llvm.intr.assume` checks its operand (an assumption that does not hold is
// undefined behaviour); `llvm.intr.trap` (PTX trap) is a fault. An
// `llvm.inline_asm` is modelled only as an operand fence (GemmConsumer.cpp,
// the two-wave kernel): an asm string empty but for white space and
// comments, each output tied to one input ("=f,...,0,1,..."), whose results
// are its inputs; any other inline asm is an error naming it.
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

/// Whether PTX text `text` holds nothing but white space and comments.
static bool isEmptyPtx(StringRef text) {
  while (true) {
    text = text.ltrim();
    if (text.consume_front("//")) {
      text = text.drop_until([](char c) { return c == '\n'; });
    } else if (text.consume_front("/*")) {
      size_t end = text.find("*/");
      if (end == StringRef::npos)
        return false;
      text = text.drop_front(end + 2);
    } else {
      return text.empty();
    }
  }
}

/// The input tied to each output of `constraints` ("=r,=f,1,0": output 0
/// takes input 1), or nothing when an output or input is anything else
/// (a register of its own, a clobber, an untied or twice-tied input).
static std::optional<SmallVector<int64_t>> tiedInputs(StringRef constraints,
                                                      size_t numInputs) {
  SmallVector<StringRef> parts;
  if (!constraints.empty())
    constraints.split(parts, ',');
  size_t outputs = 0;
  while (outputs < parts.size() && parts[outputs].starts_with("="))
    ++outputs;
  if (parts.size() != outputs + numInputs)
    return std::nullopt;
  SmallVector<int64_t> inputOf(outputs, -1);
  for (size_t i = 0; i < numInputs; ++i) {
    unsigned out;
    if (parts[outputs + i].getAsInteger(10, out) || out >= outputs ||
        inputOf[out] >= 0)
      return std::nullopt;
    inputOf[out] = i;
  }
  if (llvm::is_contained(inputOf, -1))
    return std::nullopt;
  return inputOf;
}

/// An empty inline asm whose outputs are tied to its inputs (an operand
/// fence: a scheduling barrier for LLVM and ptxas, no instruction): the
/// results are copies of the inputs.
static bool translateInlineAsm(Translator &t, LLVM::InlineAsmOp asmOp) {
  auto inputOf = tiedInputs(asmOp.getConstraints(), asmOp.getOperands().size());
  if (!isEmptyPtx(asmOp.getAsmString()) || !inputOf)
    return t.fail(asmOp, "inline asm \"" + asmOp.getAsmString().str() +
                             "\" with constraints \"" +
                             asmOp.getConstraints().str() +
                             "\" (only an operand fence is modelled: an "
                             "asm string of white space and comments, each "
                             "output tied to one input)");
  if (inputOf->empty())
    return true;
  if (asmOp.getNumResults() != 1)
    return t.fail(asmOp, "inline asm with outputs but no result");
  Type res = asmOp.getResult(0).getType();
  int32_t d = t.newSlot(asmOp.getResult(0));
  auto st = dyn_cast<LLVM::LLVMStructType>(res);
  if (inputOf->size() > 1 && (!st || st.getBody().size() != inputOf->size()))
    return t.fail(asmOp, "inline asm result is not a struct of one member "
                         "per output");
  for (auto [out, in] : llvm::enumerate(*inputOf)) {
    Value input = asmOp.getOperands()[in];
    Type member = st ? st.getBody()[out] : res;
    if (member != input.getType())
      return t.fail(asmOp, "inline asm output " + std::to_string(out) +
                               " is not of its tied input's type");
    Type ignored;
    int64_t off =
        st ? slotOffset(res, {static_cast<int64_t>(out)}, &ignored) : 0;
    Inst &copy = t.emit(asmOp, Opcode::CopyN);
    copy.a = t.slot(input);
    copy.imm = slotWidth(member);
    copy.d = d + off;
  }
  return true;
}

void mlir::fp8::emu::addCallOps(OpTable &table) {
  table.add(translateInlineAsm);
  table.add(translateCall);
  table.add(translateAssume);
  table.add(translateTrap);
}
