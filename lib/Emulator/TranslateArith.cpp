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
  std::string name = a.getGlobalName().str();
  if (auto it = t.sharedAddress.find(name); it != t.sharedAddress.end()) {
    t.p.initialRegisters[t.newSlot(a.getResult())] = it->second;
    return true;
  }
  if (auto it = t.constantAddress.find(name); it != t.constantAddress.end()) {
    t.p.initialRegisters[t.newSlot(a.getResult())] = it->second;
    return true;
  }
  return t.fail(a, "address of '" + name +
                       "', which is neither a shared-memory global nor a "
                       "constant global with an initializer");
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
  table.add<LLVM::AddrSpaceCastOp, LLVM::PtrToIntOp, LLVM::IntToPtrOp>(
      translatePointerCast);
  table.add<LLVM::BitcastOp>([](Translator &t, Operation *op) {
    if (intBits(op->getOperand(0).getType()) !=
            intBits(op->getResult(0).getType()) ||
        slotWidth(op->getOperand(0).getType()) !=
            slotWidth(op->getResult(0).getType()))
      return t.fail(op, "bitcast between different shapes or widths");
    return t.elementwise(op, Opcode::Copy);
  });
  // The LLVM dialect's integer ops (what convert-arith-to-llvm and the
  // index lowering produce), the same instructions as arith's; the icmp
  // predicates number as arith.cmpi's.
  table.addElementwise<LLVM::AddOp>(Opcode::AddI);
  table.addElementwise<LLVM::SubOp>(Opcode::SubI);
  table.addElementwise<LLVM::MulOp>(Opcode::MulI);
  table.addElementwise<LLVM::UDivOp>(Opcode::DivUI);
  table.addElementwise<LLVM::URemOp>(Opcode::RemUI);
  table.addElementwise<LLVM::SDivOp>(Opcode::DivSI);
  table.addElementwise<LLVM::SRemOp>(Opcode::RemSI);
  table.addElementwise<LLVM::AndOp>(Opcode::AndI);
  table.addElementwise<LLVM::OrOp>(Opcode::OrI);
  table.addElementwise<LLVM::XOrOp>(Opcode::XOrI);
  table.addElementwise<LLVM::ShlOp>(Opcode::ShLI);
  table.addElementwise<LLVM::LShrOp>(Opcode::ShRUI);
  table.addElementwise<LLVM::AShrOp>(Opcode::ShRSI);
  table.addElementwise<LLVM::UMinOp>(Opcode::MinUI);
  table.addElementwise<LLVM::UMaxOp>(Opcode::MaxUI);
  table.addElementwise<LLVM::SMinOp>(Opcode::MinSI);
  table.addElementwise<LLVM::SMaxOp>(Opcode::MaxSI);
  table.add<LLVM::ICmpOp>([](Translator &t, Operation *op) {
    auto c = cast<LLVM::ICmpOp>(op);
    static_assert(static_cast<int>(LLVM::ICmpPredicate::uge) ==
                      static_cast<int>(arith::CmpIPredicate::uge),
                  "icmp and cmpi predicates number alike");
    return t.elementwise(op, Opcode::CmpI,
                         static_cast<uint8_t>(c.getPredicate()));
  });
  table.add<LLVM::SelectOp>([](Translator &t, Operation *op) {
    if (slotWidth(op->getOperand(0).getType()) !=
        slotWidth(op->getResult(0).getType()))
      return t.fail(op, "a select of aggregates by a scalar condition is "
                        "not modelled");
    return t.elementwise(op, Opcode::Select);
  });
  table.addElementwise<LLVM::ZExtOp>(Opcode::ExtUI);
  table.addElementwise<LLVM::SExtOp>(Opcode::ExtSI);
  table.addElementwise<LLVM::TruncOp>(Opcode::TruncI);
}

//===----------------------------------------------------------------------===//
// f32 and float conversions
//===----------------------------------------------------------------------===//

static bool translateExtF(Translator &t, Operation *op) {
  Type in = getElementTypeOrSelf(op->getOperand(0).getType());
  Type out = getElementTypeOrSelf(op->getResult(0).getType());
  if (in.isBF16() && out.isF32())
    return t.elementwise(op, Opcode::ExtBF16);
  if (in.isF16() && out.isF32())
    return t.elementwise(op, Opcode::ExtF16);
  if (in.isF32() && out.isF64())
    return t.elementwise(op, Opcode::ExtF64);
  return t.fail(op, "only bf16 -> f32, f16 -> f32 and f32 -> f64 "
                    "extensions are modelled");
}

static bool translateTruncF(Translator &t, Operation *op) {
  Type in = getElementTypeOrSelf(op->getOperand(0).getType());
  Type out = getElementTypeOrSelf(op->getResult(0).getType());
  if (in.isF32() && out.isBF16())
    return t.elementwise(op, Opcode::TruncBF16);
  if (in.isF32() && out.isF16())
    return t.elementwise(op, Opcode::TruncF16);
  if (in.isF64() && out.isF32())
    return t.elementwise(op, Opcode::TruncF64);
  return t.fail(op, "only f32 -> bf16, f32 -> f16 and f64 -> f32 "
                    "truncations are modelled");
}

static bool translateIntToFloat(Translator &t, Operation *op) {
  if (!isF32(op->getResult(0).getType()))
    return t.fail(op, "only conversions to f32 are modelled");
  return t.elementwise(op, isa<arith::SIToFPOp, LLVM::SIToFPOp>(op)
                               ? Opcode::SIToFP
                               : Opcode::UIToFP);
}

static bool translateFloatToInt(Translator &t, Operation *op) {
  if (!isF32(op->getOperand(0).getType()))
    return t.fail(op, "only conversions from f32 are modelled");
  return t.elementwise(op, isa<arith::FPToSIOp, LLVM::FPToSIOp>(op)
                               ? Opcode::FPToSI
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
  table.addFloat<LLVM::FMAOp, math::FmaOp, LLVM::FMulAddOp>(Opcode::Fma);
  table.add<arith::ExtFOp, LLVM::FPExtOp>(translateExtF);
  table.add<arith::TruncFOp, LLVM::FPTruncOp>(translateTruncF);
  table.add<arith::SIToFPOp, arith::UIToFPOp, LLVM::SIToFPOp, LLVM::UIToFPOp>(
      translateIntToFloat);
  table.add<arith::FPToSIOp, arith::FPToUIOp, LLVM::FPToSIOp, LLVM::FPToUIOp>(
      translateFloatToInt);
  // The LLVM dialect's f32 ops (convert-arith-to-llvm, convert-math-to-llvm);
  // fcmp predicates number as arith.cmpf's.
  table.addFloat<LLVM::FAddOp>(Opcode::AddF);
  table.addFloat<LLVM::FSubOp>(Opcode::SubF);
  table.addFloat<LLVM::FMulOp>(Opcode::MulF);
  table.addFloat<LLVM::FDivOp>(Opcode::DivF);
  table.addFloat<LLVM::FNegOp>(Opcode::NegF);
  table.addFloat<LLVM::FAbsOp>(Opcode::AbsF);
  table.addFloat<LLVM::SqrtOp>(Opcode::SqrtF);
  table.addFloat<LLVM::MaximumOp>(Opcode::MaximumF);
  table.addFloat<LLVM::MinimumOp>(Opcode::MinimumF);
  table.addFloat<LLVM::MaxNumOp>(Opcode::MaxNumF);
  table.addFloat<LLVM::MinNumOp>(Opcode::MinNumF);
  table.add<LLVM::FCmpOp>([](Translator &t, Operation *op) {
    auto c = cast<LLVM::FCmpOp>(op);
    static_assert(static_cast<int>(LLVM::FCmpPredicate::uno) ==
                      static_cast<int>(arith::CmpFPredicate::UNO),
                  "fcmp and cmpf predicates number alike");
    return t.floatOp(op, Opcode::CmpF, static_cast<uint8_t>(c.getPredicate()));
  });
}
