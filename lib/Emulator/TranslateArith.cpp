//===- TranslateArith.cpp - constants, integer and float ops --------------===//
//
// The scalar families of the translation (Translator.h): constants and
// symbol addresses (preset registers, no instruction), integer arithmetic
// and casts, f32 arithmetic and the float conversions the kernels use
// (bf16 <-> f32, integer <-> f32). Each becomes one instruction per vector
// element.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::fp8::emu;

//===----------------------------------------------------------------------===//
// Constants and symbols
//===----------------------------------------------------------------------===//

static bool translateAddressOf(Translator &t, LLVM::AddressOfOp a) {
  auto it = t.sharedAddress.find(a.getGlobalName().str());
  if (it == t.sharedAddress.end())
    return t.fail(a, "address of '" + a.getGlobalName().str() +
                         "', which is not a shared-memory global");
  t.p.initialRegisters[t.newSlot(a.getResult())] = it->second;
  return true;
}

void mlir::fp8::emu::addConstantOps(OpTable &table) {
  table.add<arith::ConstantOp>([](Translator &t, Operation *op) {
    auto c = cast<arith::ConstantOp>(op);
    return t.constant(op, c.getResult(), c.getValue());
  });
  table.add<LLVM::ConstantOp>([](Translator &t, Operation *op) {
    auto c = cast<LLVM::ConstantOp>(op);
    return t.constant(op, c.getResult(), c.getValue());
  });
  table.add<LLVM::UndefOp, LLVM::PoisonOp, LLVM::ZeroOp>(
      [](Translator &t, Operation *op) {
        t.newSlot(op->getResult(0));
        return true;
      });
  table.add(translateAddressOf);
}

//===----------------------------------------------------------------------===//
// Integers
//===----------------------------------------------------------------------===//

static bool translateIndexCast(Translator &t, Operation *op) {
  bool isSigned = isa<arith::IndexCastOp>(op);
  unsigned in = intBits(op->getOperand(0).getType()),
           out = intBits(op->getResult(0).getType());
  return t.elementwise(op, in >= out
                               ? Opcode::TruncI
                               : (isSigned ? Opcode::ExtSI : Opcode::ExtUI));
}

static bool translateBitcast(Translator &t, arith::BitcastOp bc) {
  if (intBits(bc.getIn().getType()) != intBits(bc.getType()))
    return t.fail(bc, "bitcast between different widths");
  return t.elementwise(bc, Opcode::Copy);
}

/// Pointer casts: a copy of the 64-bit value, truncated for a narrower
/// integer result.
static bool translatePointerCast(Translator &t, Operation *op) {
  unsigned out = intBits(op->getResult(0).getType());
  if (out < 64)
    return t.elementwise(op, Opcode::TruncI);
  return t.elementwise(op, Opcode::Copy);
}

void mlir::fp8::emu::addIntegerOps(OpTable &table) {
  table.addElementwise<arith::AddIOp>(Opcode::AddI);
  table.addElementwise<arith::SubIOp>(Opcode::SubI);
  table.addElementwise<arith::MulIOp>(Opcode::MulI);
  table.addElementwise<arith::DivUIOp>(Opcode::DivUI);
  table.addElementwise<arith::RemUIOp>(Opcode::RemUI);
  table.addElementwise<arith::DivSIOp>(Opcode::DivSI);
  table.addElementwise<arith::RemSIOp>(Opcode::RemSI);
  table.addElementwise<arith::AndIOp>(Opcode::AndI);
  table.addElementwise<arith::OrIOp>(Opcode::OrI);
  table.addElementwise<arith::XOrIOp>(Opcode::XOrI);
  table.addElementwise<arith::ShLIOp>(Opcode::ShLI);
  table.addElementwise<arith::ShRUIOp>(Opcode::ShRUI);
  table.addElementwise<arith::ShRSIOp>(Opcode::ShRSI);
  table.addElementwise<arith::MinSIOp>(Opcode::MinSI);
  table.addElementwise<arith::MaxSIOp>(Opcode::MaxSI);
  table.addElementwise<arith::MinUIOp>(Opcode::MinUI);
  table.addElementwise<arith::MaxUIOp>(Opcode::MaxUI);
  table.add<arith::CmpIOp>([](Translator &t, Operation *op) {
    auto c = cast<arith::CmpIOp>(op);
    return t.elementwise(op, Opcode::CmpI,
                         static_cast<uint8_t>(c.getPredicate()));
  });
  table.addElementwise<arith::SelectOp>(Opcode::Select);
  table.addElementwise<arith::ExtUIOp>(Opcode::ExtUI);
  table.addElementwise<arith::ExtSIOp>(Opcode::ExtSI);
  table.addElementwise<arith::TruncIOp>(Opcode::TruncI);
  table.add<arith::IndexCastOp, arith::IndexCastUIOp>(translateIndexCast);
  table.add(translateBitcast);
  table.add<LLVM::AddrSpaceCastOp, LLVM::PtrToIntOp, LLVM::IntToPtrOp,
            LLVM::BitcastOp>(translatePointerCast);
}

//===----------------------------------------------------------------------===//
// f32 and float conversions
//===----------------------------------------------------------------------===//

static bool translateExtF(Translator &t, Operation *op) {
  Type in = getElementTypeOrSelf(op->getOperand(0).getType());
  if (!in.isBF16() || !isF32(op->getResult(0).getType()))
    return t.fail(op, "only bf16 -> f32 extension is modelled");
  return t.elementwise(op, Opcode::ExtBF16);
}

static bool translateTruncF(Translator &t, Operation *op) {
  Type out = getElementTypeOrSelf(op->getResult(0).getType());
  if (!out.isBF16() || !isF32(op->getOperand(0).getType()))
    return t.fail(op, "only f32 -> bf16 truncation is modelled");
  return t.elementwise(op, Opcode::TruncBF16);
}

static bool translateIntToFloat(Translator &t, Operation *op) {
  if (!isF32(op->getResult(0).getType()))
    return t.fail(op, "only conversions to f32 are modelled");
  return t.elementwise(op, isa<arith::SIToFPOp>(op) ? Opcode::SIToFP
                                                    : Opcode::UIToFP);
}

static bool translateFloatToInt(Translator &t, Operation *op) {
  if (!isF32(op->getOperand(0).getType()))
    return t.fail(op, "only conversions from f32 are modelled");
  return t.elementwise(op, isa<arith::FPToSIOp>(op) ? Opcode::FPToSI
                                                    : Opcode::FPToUI);
}

void mlir::fp8::emu::addFloatOps(OpTable &table) {
  table.addFloat<arith::AddFOp>(Opcode::AddF);
  table.addFloat<arith::SubFOp>(Opcode::SubF);
  table.addFloat<arith::MulFOp>(Opcode::MulF);
  table.addFloat<arith::DivFOp>(Opcode::DivF);
  table.addFloat<arith::MaximumFOp>(Opcode::MaximumF);
  table.addFloat<arith::MinimumFOp>(Opcode::MinimumF);
  table.addFloat<arith::MaxNumFOp>(Opcode::MaxNumF);
  table.addFloat<arith::MinNumFOp>(Opcode::MinNumF);
  table.addFloat<arith::NegFOp>(Opcode::NegF);
  table.addFloat<math::AbsFOp>(Opcode::AbsF);
  table.add<arith::CmpFOp>([](Translator &t, Operation *op) {
    auto c = cast<arith::CmpFOp>(op);
    return t.floatOp(op, Opcode::CmpF, static_cast<uint8_t>(c.getPredicate()));
  });
  table.addFloat<LLVM::FMAOp, math::FmaOp>(Opcode::Fma);
  table.add<arith::ExtFOp>(translateExtF);
  table.add<arith::TruncFOp>(translateTruncF);
  table.add<arith::SIToFPOp, arith::UIToFPOp>(translateIntToFloat);
  table.add<arith::FPToSIOp, arith::FPToUIOp>(translateFloatToInt);
}
