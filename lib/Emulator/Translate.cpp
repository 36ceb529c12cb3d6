//===- Translate.cpp - NVVM-level kernels to emulator programs ------------===//
//
// Clones the gpu.module's functions and globals into a scratch module, lowers
// scf to cf there (a flat CFG is easy to suspend anywhere), lays out the
// shared-memory globals and translates each kernel into a Program
// (Program.h). Every op the generated kernels use has a case here; anything
// else is an error naming the op and its location, never a silent skip.
//
//===----------------------------------------------------------------------===//
#include "Program.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Emulator/Emulator.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::fp8::emu;

namespace {

std::string locString(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->getLoc().print(os);
  os << ": '" << op->getName().getStringRef() << "'";
  return s;
}

/// Number of 64-bit slots a value of type `t` occupies.
int64_t slotWidth(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements();
  if (auto s = dyn_cast<LLVM::LLVMStructType>(t))
    return s.getBody().size();
  if (auto a = dyn_cast<LLVM::LLVMArrayType>(t))
    return a.getNumElements();
  return 1;
}

/// Bit width of a scalar integer-like type (index and pointers: 64).
unsigned intBits(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    t = v.getElementType();
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth();
  if (t.isIndex() || isa<LLVM::LLVMPointerType>(t))
    return 64;
  if (auto f = dyn_cast<FloatType>(t))
    return f.getWidth();
  return 0;
}

/// Size in bytes (natural alignment) of a type stored in memory.
int64_t byteSize(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * byteSize(v.getElementType());
  if (auto a = dyn_cast<LLVM::LLVMArrayType>(t))
    return a.getNumElements() * byteSize(a.getElementType());
  if (isa<LLVM::LLVMPointerType>(t) || t.isIndex())
    return 8;
  unsigned bits = intBits(t);
  return bits <= 8 ? 1 : bits / 8;
}

struct Translator {
  Program &p;
  llvm::DenseMap<Value, int32_t> slots;
  llvm::DenseMap<Value, int32_t> wgmmaValue; // wgmma result -> index
  const std::map<std::string, uint32_t> &sharedAddress;
  std::string error;
  int32_t nextSlot = 0;

  Translator(Program &p, const std::map<std::string, uint32_t> &shared)
      : p(p), sharedAddress(shared) {}

  bool fail(Operation *op, const std::string &what) {
    if (error.empty())
      error = locString(op) + ": " + what;
    return false;
  }

  int32_t newSlot(Value v) {
    if (auto it = slots.find(v); it != slots.end())
      return it->second;
    int32_t s = nextSlot;
    nextSlot += slotWidth(v.getType());
    slots[v] = s;
    p.initialRegisters.resize(nextSlot, 0);
    return s;
  }
  int32_t slot(Value v) {
    auto it = slots.find(v);
    return it == slots.end() ? -1 : it->second;
  }

  Inst &emit(Operation *op, Opcode code) {
    p.insts.push_back(Inst{code});
    p.locs.push_back(locString(op));
    Inst &inst = p.insts.back();
    // Reads of wgmma results by anything but the next wgmma are checked.
    if (!isa<NVVM::WgmmaMmaAsyncOp>(op)) {
      Program::PendingCheck check;
      for (Value v : op->getOperands())
        if (auto it = wgmmaValue.find(v); it != wgmmaValue.end())
          check.operands.push_back({it->second, slot(v)});
      if (!check.operands.empty()) {
        inst.check = p.wgmmaChecks.size();
        p.wgmmaChecks.push_back(std::move(check));
      }
    }
    return inst;
  }

  /// Presets the slot(s) of a constant.
  bool constant(Operation *op, Value result, Attribute attr) {
    int32_t s = newSlot(result);
    auto scalarBits = [&](Attribute a, uint64_t &out) {
      if (auto i = dyn_cast<IntegerAttr>(a)) {
        unsigned w = intBits(i.getType());
        out = i.getValue().getZExtValue();
        if (w < 64)
          out &= (1ull << w) - 1;
        return true;
      }
      if (auto f = dyn_cast<FloatAttr>(a)) {
        out = f.getValue().bitcastToAPInt().getZExtValue();
        return true;
      }
      if (auto b = dyn_cast<BoolAttr>(a)) {
        out = b.getValue();
        return true;
      }
      return false;
    };
    uint64_t v;
    if (scalarBits(attr, v)) {
      p.initialRegisters[s] = v;
      return true;
    }
    if (auto d = dyn_cast<DenseElementsAttr>(attr)) {
      int64_t i = 0;
      if (d.getElementType().isIntOrIndex()) {
        for (const APInt &x : d.getValues<APInt>())
          p.initialRegisters[s + i++] = x.getZExtValue();
      } else {
        for (const APFloat &x : d.getValues<APFloat>())
          p.initialRegisters[s + i++] = x.bitcastToAPInt().getZExtValue();
      }
      return true;
    }
    return fail(op, "unsupported constant");
  }

  bool isF32(Type t) {
    if (auto v = dyn_cast<VectorType>(t))
      t = v.getElementType();
    return t.isF32();
  }

  /// Elementwise op over scalars or vectors: one instruction per element.
  bool elementwise(Operation *op, Opcode code, uint8_t sub = 0) {
    Value r = op->getResult(0);
    int32_t d = newSlot(r);
    int64_t n = slotWidth(r.getType());
    unsigned bits = intBits(op->getNumOperands() ? op->getOperand(0).getType()
                                                 : r.getType());
    for (int64_t i = 0; i < n; ++i) {
      Inst &inst = emit(op, code);
      inst.d = d + i;
      inst.sub = sub;
      inst.bits = bits;
      int32_t *ops[3] = {&inst.a, &inst.b, &inst.c};
      for (unsigned j = 0; j < op->getNumOperands() && j < 3; ++j) {
        Value o = op->getOperand(j);
        int32_t s = slot(o);
        if (s < 0)
          return fail(op, "operand defined after use");
        *ops[j] = s + (slotWidth(o.getType()) > 1 ? i : 0);
      }
      // Casts record the result width.
      if (code == Opcode::ExtUI || code == Opcode::ExtSI ||
          code == Opcode::TruncI || code == Opcode::FPToSI ||
          code == Opcode::FPToUI)
        inst.imm = intBits(r.getType());
    }
    return true;
  }

  bool floatOp(Operation *op, Opcode code, uint8_t sub = 0) {
    for (Value o : op->getOperands())
      if (!isF32(o.getType()) && !o.getType().isInteger(1) &&
          code != Opcode::Select)
        return fail(op, "only f32 arithmetic is modelled");
    return elementwise(op, code, sub);
  }

  bool translateOp(Operation *op);
  bool translateFunction(LLVM::LLVMFuncOp fn);
};

bool Translator::translateOp(Operation *op) {
  // --- constants and symbols ----------------------------------------------
  if (auto c = dyn_cast<arith::ConstantOp>(op))
    return constant(op, c.getResult(), c.getValue());
  if (auto c = dyn_cast<LLVM::ConstantOp>(op))
    return constant(op, c.getResult(), c.getValue());
  if (isa<LLVM::UndefOp, LLVM::PoisonOp, LLVM::ZeroOp>(op)) {
    newSlot(op->getResult(0));
    return true;
  }
  if (auto a = dyn_cast<LLVM::AddressOfOp>(op)) {
    auto it = sharedAddress.find(a.getGlobalName().str());
    if (it == sharedAddress.end())
      return fail(op, "address of '" + a.getGlobalName().str() +
                          "', which is not a shared-memory global");
    p.initialRegisters[newSlot(a.getResult())] = it->second;
    return true;
  }

  // --- integer arithmetic ---------------------------------------------------
  if (isa<arith::AddIOp>(op))
    return elementwise(op, Opcode::AddI);
  if (isa<arith::SubIOp>(op))
    return elementwise(op, Opcode::SubI);
  if (isa<arith::MulIOp>(op))
    return elementwise(op, Opcode::MulI);
  if (isa<arith::DivUIOp>(op))
    return elementwise(op, Opcode::DivUI);
  if (isa<arith::RemUIOp>(op))
    return elementwise(op, Opcode::RemUI);
  if (isa<arith::DivSIOp>(op))
    return elementwise(op, Opcode::DivSI);
  if (isa<arith::RemSIOp>(op))
    return elementwise(op, Opcode::RemSI);
  if (isa<arith::AndIOp>(op))
    return elementwise(op, Opcode::AndI);
  if (isa<arith::OrIOp>(op))
    return elementwise(op, Opcode::OrI);
  if (isa<arith::XOrIOp>(op))
    return elementwise(op, Opcode::XOrI);
  if (isa<arith::ShLIOp>(op))
    return elementwise(op, Opcode::ShLI);
  if (isa<arith::ShRUIOp>(op))
    return elementwise(op, Opcode::ShRUI);
  if (isa<arith::ShRSIOp>(op))
    return elementwise(op, Opcode::ShRSI);
  if (isa<arith::MinSIOp>(op))
    return elementwise(op, Opcode::MinSI);
  if (isa<arith::MaxSIOp>(op))
    return elementwise(op, Opcode::MaxSI);
  if (isa<arith::MinUIOp>(op))
    return elementwise(op, Opcode::MinUI);
  if (isa<arith::MaxUIOp>(op))
    return elementwise(op, Opcode::MaxUI);
  if (auto c = dyn_cast<arith::CmpIOp>(op))
    return elementwise(op, Opcode::CmpI,
                       static_cast<uint8_t>(c.getPredicate()));
  if (isa<arith::SelectOp>(op))
    return elementwise(op, Opcode::Select);
  if (isa<arith::ExtUIOp>(op))
    return elementwise(op, Opcode::ExtUI);
  if (isa<arith::ExtSIOp>(op))
    return elementwise(op, Opcode::ExtSI);
  if (isa<arith::TruncIOp>(op))
    return elementwise(op, Opcode::TruncI);
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op)) {
    bool isSigned = isa<arith::IndexCastOp>(op);
    unsigned in = intBits(op->getOperand(0).getType()),
             out = intBits(op->getResult(0).getType());
    return elementwise(op, in >= out
                               ? Opcode::TruncI
                               : (isSigned ? Opcode::ExtSI : Opcode::ExtUI));
  }
  if (auto bc = dyn_cast<arith::BitcastOp>(op)) {
    if (intBits(bc.getIn().getType()) != intBits(bc.getType()))
      return fail(op, "bitcast between different widths");
    return elementwise(op, Opcode::Copy);
  }
  if (isa<LLVM::AddrSpaceCastOp, LLVM::PtrToIntOp, LLVM::IntToPtrOp,
          LLVM::BitcastOp>(op)) {
    unsigned out = intBits(op->getResult(0).getType());
    if (out < 64)
      return elementwise(op, Opcode::TruncI);
    return elementwise(op, Opcode::Copy);
  }

  // --- float arithmetic -----------------------------------------------------
  if (isa<arith::AddFOp>(op))
    return floatOp(op, Opcode::AddF);
  if (isa<arith::SubFOp>(op))
    return floatOp(op, Opcode::SubF);
  if (isa<arith::MulFOp>(op))
    return floatOp(op, Opcode::MulF);
  if (isa<arith::DivFOp>(op))
    return floatOp(op, Opcode::DivF);
  if (isa<arith::MaximumFOp>(op))
    return floatOp(op, Opcode::MaximumF);
  if (isa<arith::MinimumFOp>(op))
    return floatOp(op, Opcode::MinimumF);
  if (isa<arith::MaxNumFOp>(op))
    return floatOp(op, Opcode::MaxNumF);
  if (isa<arith::MinNumFOp>(op))
    return floatOp(op, Opcode::MinNumF);
  if (isa<arith::NegFOp>(op))
    return floatOp(op, Opcode::NegF);
  if (isa<math::AbsFOp>(op))
    return floatOp(op, Opcode::AbsF);
  if (auto c = dyn_cast<arith::CmpFOp>(op))
    return floatOp(op, Opcode::CmpF, static_cast<uint8_t>(c.getPredicate()));
  if (isa<LLVM::FMAOp, math::FmaOp>(op))
    return floatOp(op, Opcode::Fma);
  if (isa<arith::ExtFOp>(op)) {
    Type in = getElementTypeOrSelf(op->getOperand(0).getType());
    if (!in.isBF16() || !isF32(op->getResult(0).getType()))
      return fail(op, "only bf16 -> f32 extension is modelled");
    return elementwise(op, Opcode::ExtBF16);
  }
  if (isa<arith::TruncFOp>(op)) {
    Type out = getElementTypeOrSelf(op->getResult(0).getType());
    if (!out.isBF16() || !isF32(op->getOperand(0).getType()))
      return fail(op, "only f32 -> bf16 truncation is modelled");
    return elementwise(op, Opcode::TruncBF16);
  }
  if (isa<arith::SIToFPOp>(op) || isa<arith::UIToFPOp>(op)) {
    if (!isF32(op->getResult(0).getType()))
      return fail(op, "only conversions to f32 are modelled");
    return elementwise(op, isa<arith::SIToFPOp>(op) ? Opcode::SIToFP
                                                    : Opcode::UIToFP);
  }
  if (isa<arith::FPToSIOp>(op) || isa<arith::FPToUIOp>(op)) {
    if (!isF32(op->getOperand(0).getType()))
      return fail(op, "only conversions from f32 are modelled");
    return elementwise(op, isa<arith::FPToSIOp>(op) ? Opcode::FPToSI
                                                    : Opcode::FPToUI);
  }

  // --- memory and aggregates -----------------------------------------------
  if (auto g = dyn_cast<LLVM::GEPOp>(op)) {
    std::vector<GepTerm> terms;
    int64_t offset = 0;
    Type t = g.getElemType();
    auto dynamic = g.getDynamicIndices();
    unsigned dynIdx = 0;
    bool first = true;
    for (int32_t raw : g.getRawConstantIndices()) {
      int64_t scale;
      Type next = t;
      if (first) {
        scale = byteSize(t);
      } else if (auto a = dyn_cast<LLVM::LLVMArrayType>(t)) {
        next = a.getElementType();
        scale = byteSize(next);
      } else if (auto v = dyn_cast<VectorType>(t)) {
        next = v.getElementType();
        scale = byteSize(next);
      } else {
        return fail(op, "GEP into a struct is not modelled");
      }
      if (raw == LLVM::GEPOp::kDynamicIndex) {
        Value idx = dynamic[dynIdx++];
        terms.push_back(
            {slot(idx), static_cast<uint8_t>(intBits(idx.getType())), scale});
      } else {
        offset += raw * scale;
      }
      t = next;
      first = false;
    }
    Inst &inst = emit(op, Opcode::Gep);
    inst.a = slot(g.getBase());
    inst.imm = offset;
    inst.x = p.geps.size();
    p.geps.push_back(std::move(terms));
    inst.d = newSlot(g.getResult());
    return true;
  }
  auto memAccess = [&](Type valueType, Type ptrType) {
    MemAccess m;
    Type elem = getElementTypeOrSelf(valueType);
    m.elementBytes = byteSize(elem);
    m.count = slotWidth(valueType);
    m.addressSpace = cast<LLVM::LLVMPointerType>(ptrType).getAddressSpace();
    p.mems.push_back(m);
    return static_cast<int32_t>(p.mems.size() - 1);
  };
  if (auto l = dyn_cast<LLVM::LoadOp>(op)) {
    Inst &inst = emit(op, Opcode::Load);
    inst.a = slot(l.getAddr());
    inst.x = memAccess(l.getType(), l.getAddr().getType());
    inst.d = newSlot(l.getResult());
    return true;
  }
  if (auto s = dyn_cast<LLVM::StoreOp>(op)) {
    Inst &inst = emit(op, Opcode::Store);
    inst.a = slot(s.getAddr());
    inst.b = slot(s.getValue());
    inst.x = memAccess(s.getValue().getType(), s.getAddr().getType());
    return true;
  }
  if (auto e = dyn_cast<LLVM::ExtractValueOp>(op)) {
    if (e.getPosition().size() != 1)
      return fail(op, "nested extractvalue is not modelled");
    Inst &inst = emit(op, Opcode::CopyN);
    inst.a = slot(e.getContainer()) + e.getPosition()[0];
    inst.imm = slotWidth(e.getType());
    inst.d = newSlot(e.getResult());
    return true;
  }
  if (auto ins = dyn_cast<LLVM::InsertValueOp>(op)) {
    if (ins.getPosition().size() != 1)
      return fail(op, "nested insertvalue is not modelled");
    int32_t d = newSlot(ins.getResult());
    Inst &copy = emit(op, Opcode::CopyN);
    copy.a = slot(ins.getContainer());
    copy.imm = slotWidth(ins.getType());
    copy.d = d;
    Inst &set = emit(op, Opcode::CopyN);
    set.a = slot(ins.getValue());
    set.imm = 1;
    set.d = d + ins.getPosition()[0];
    return true;
  }
  if (auto ins = dyn_cast<LLVM::InsertElementOp>(op)) {
    Inst &inst = emit(op, Opcode::InsertElement);
    inst.a = slot(ins.getVector());
    inst.b = slot(ins.getValue());
    inst.c = slot(ins.getPosition());
    inst.imm = slotWidth(ins.getType());
    inst.d = newSlot(ins.getResult());
    return true;
  }
  if (auto ex = dyn_cast<LLVM::ExtractElementOp>(op)) {
    Inst &inst = emit(op, Opcode::ExtractElement);
    inst.a = slot(ex.getVector());
    inst.c = slot(ex.getPosition());
    inst.imm = slotWidth(ex.getVector().getType());
    inst.d = newSlot(ex.getResult());
    return true;
  }

  // --- control flow (branch targets are patched afterwards) ----------------
  auto copySet = [&](Block *dest, OperandRange args) {
    CopySet cs;
    cs.target = -1;
    cs.total = 0;
    for (auto [arg, v] : llvm::zip(dest->getArguments(), args)) {
      int32_t w = slotWidth(v.getType());
      cs.copies.push_back({slot(arg), slot(v), w});
      cs.total += w;
    }
    p.copySets.push_back(std::move(cs));
    return static_cast<int32_t>(p.copySets.size() - 1);
  };
  if (auto br = dyn_cast<cf::BranchOp>(op)) {
    Inst &inst = emit(op, Opcode::Br);
    inst.x = copySet(br.getDest(), br.getDestOperands());
    return true;
  }
  if (auto br = dyn_cast<cf::CondBranchOp>(op)) {
    Inst &inst = emit(op, Opcode::CondBr);
    inst.a = slot(br.getCondition());
    inst.x = copySet(br.getTrueDest(), br.getTrueDestOperands());
    inst.imm = copySet(br.getFalseDest(), br.getFalseDestOperands());
    return true;
  }
  if (isa<LLVM::ReturnOp>(op)) {
    emit(op, Opcode::Return);
    return true;
  }

  // --- NVVM
  // -------------------------------------------------------------------
  auto special = [&](Opcode code) {
    Inst &inst = emit(op, code);
    inst.d = newSlot(op->getResult(0));
    return true;
  };
  if (isa<NVVM::ThreadIdXOp>(op))
    return special(Opcode::Tid);
  if (isa<NVVM::BlockIdXOp>(op))
    return special(Opcode::CtaId);
  if (isa<NVVM::GridDimXOp>(op))
    return special(Opcode::NCtaId);
  if (isa<NVVM::BlockDimXOp>(op))
    return special(Opcode::NTid);
  if (isa<NVVM::ThreadIdYOp, NVVM::ThreadIdZOp, NVVM::BlockIdYOp,
          NVVM::BlockIdZOp>(op)) {
    p.initialRegisters[newSlot(op->getResult(0))] = 0;
    return true;
  }
  if (isa<NVVM::Barrier0Op>(op)) {
    emit(op, Opcode::Barrier0);
    return true;
  }
  if (auto init = dyn_cast<NVVM::MBarrierInitOp>(op)) {
    if (init.getPredicate())
      return fail(op, "predicated mbarrier.init is not modelled");
    Inst &inst = emit(op, Opcode::MbarInit);
    inst.a = slot(init.getAddr());
    inst.b = slot(init.getCount());
    return true;
  }
  if (isa<NVVM::FenceMbarrierInitOp>(op)) {
    emit(op, Opcode::Nop);
    return true;
  }
  if (auto arrive = dyn_cast<NVVM::MBarrierArriveOp>(op)) {
    if (arrive.getCount() || !op->getResults().empty())
      return fail(op, "mbarrier.arrive with a count or a state result is "
                      "not modelled");
    Inst &inst = emit(op, Opcode::MbarArrive);
    inst.a = slot(arrive.getAddr());
    return true;
  }
  if (auto arrive = dyn_cast<NVVM::MBarrierArriveExpectTxOp>(op)) {
    if (arrive.getPredicate() || !op->getResults().empty())
      return fail(op, "predicated mbarrier.arrive.expect_tx or one with a "
                      "result is not modelled");
    Inst &inst = emit(op, Opcode::MbarArriveTx);
    inst.a = slot(arrive.getAddr());
    inst.b = slot(arrive.getTxcount());
    return true;
  }
  if (auto wait = dyn_cast<NVVM::MBarrierTryWaitParityOp>(op)) {
    Inst &inst = emit(op, Opcode::MbarTryWait);
    inst.a = slot(wait.getAddr());
    inst.b = slot(wait.getPhase());
    return true;
  }
  if (auto tma = dyn_cast<NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp>(op)) {
    if (tma.getMode() != NVVM::TMALoadMode::TILE || tma.getMulticastMask() ||
        tma.getPredicate() || tma.getL2CacheHint() ||
        tma.getCoordinates().size() > 3 || tma.getCoordinates().empty())
      return fail(op, "only unpredicated, non-multicast tiled TMA loads of "
                      "rank 1..3 are modelled");
    Inst &inst = emit(op, Opcode::Tma);
    inst.a = slot(tma.getDstMem());
    inst.b = slot(tma.getTmaDescriptor());
    inst.c = slot(tma.getMbar());
    // Coordinates: consecutive slots of a side "GEP" entry.
    std::vector<GepTerm> coords;
    for (Value c : tma.getCoordinates())
      coords.push_back({slot(c), 32, 1});
    inst.x = p.geps.size();
    p.geps.push_back(std::move(coords));
    return true;
  }
  if (isa<NVVM::WgmmaFenceAlignedOp>(op)) {
    emit(op, Opcode::WgFence);
    return true;
  }
  if (isa<NVVM::WgmmaGroupSyncAlignedOp>(op)) {
    emit(op, Opcode::WgCommit);
    return true;
  }
  if (auto w = dyn_cast<NVVM::WgmmaWaitGroupSyncOp>(op)) {
    Inst &inst = emit(op, Opcode::WgWait);
    inst.imm = w.getGroup();
    return true;
  }
  if (auto mma = dyn_cast<NVVM::WgmmaMmaAsyncOp>(op)) {
    auto isFp8 = [](NVVM::WGMMATypes t) {
      return t == NVVM::WGMMATypes::e4m3 || t == NVVM::WGMMATypes::e5m2;
    };
    NVVM::MMAShapeAttr shape = mma.getShape();
    if (!isFp8(mma.getTypeA()) || !isFp8(mma.getTypeB()) ||
        mma.getTypeD() != NVVM::WGMMATypes::f32 || shape.getM() != 64 ||
        shape.getK() != 32)
      return fail(op, "only m64nNk32 wgmma with FP8 inputs and f32 "
                      "accumulators is modelled");
    if (mma.getLayoutA() != NVVM::MMALayout::row ||
        mma.getLayoutB() != NVVM::MMALayout::col)
      return fail(op, "FP8 wgmma needs K-major operands (layoutA = row, "
                      "layoutB = col; PTX ISA: no transpose for FP8)");
    if (mma.getScaleA() != NVVM::WGMMAScaleIn::one ||
        mma.getScaleB() != NVVM::WGMMAScaleIn::one)
      return fail(op, "negated wgmma inputs are not modelled");
    int32_t n = shape.getN();
    if (slotWidth(mma.getType()) != n / 2)
      return fail(op, "accumulator struct does not have N/2 elements");
    WgmmaInfo info;
    info.n = n;
    info.e5m2A = mma.getTypeA() == NVVM::WGMMATypes::e5m2;
    info.e5m2B = mma.getTypeB() == NVVM::WGMMATypes::e5m2;
    info.scaleD = mma.getScaleD() == NVVM::WGMMAScaleOut::one;
    info.inout = slot(mma.getInouts());
    Inst &inst = emit(op, Opcode::WgMma);
    inst.a = slot(mma.getDescriptorA());
    inst.b = slot(mma.getDescriptorB());
    inst.x = p.wgmmas.size();
    info.result = newSlot(mma.getResult());
    info.wgmmaIndex = p.numWgmmaValues++;
    wgmmaValue[mma.getResult()] = info.wgmmaIndex;
    inst.d = info.result;
    p.wgmmas.push_back(info);
    return true;
  }
  if (auto s = dyn_cast<NVVM::SetMaxRegisterOp>(op)) {
    Inst &inst = emit(op, Opcode::SetMaxReg);
    inst.imm = s.getRegCount();
    inst.sub = s.getAction() == NVVM::SetMaxRegisterAction::increase;
    return true;
  }
  if (auto s = dyn_cast<NVVM::ShflOp>(op)) {
    if (s.getReturnValueAndIsValid())
      return fail(op, "shfl.sync with a validity result is not modelled");
    if (slotWidth(s.getType()) != 1 || intBits(s.getType()) != 32)
      return fail(op, "only 32-bit shuffles are modelled");
    Inst &inst = emit(op, Opcode::Shfl);
    inst.sub = static_cast<uint8_t>(s.getKind());
    inst.a = slot(s.getThreadMask());
    inst.b = slot(s.getVal());
    inst.c = slot(s.getOffset());
    inst.imm = slot(s.getMaskAndClamp());
    inst.d = newSlot(s.getRes());
    return true;
  }
  if (auto pf = dyn_cast<NVVM::PrefetchOp>(op)) {
    if (!pf.getTensormap() || pf.getPredicate() || pf.getInParamSpace() ||
        pf.getUniform() || pf.getCacheLevel() || pf.getEvictPriority())
      return fail(op, "only prefetch.tensormap of a generic address is "
                      "modelled");
    Inst &inst = emit(op, Opcode::PrefetchTensorMap);
    inst.a = slot(pf.getAddr());
    return true;
  }
  if (auto s = dyn_cast<NVVM::SyncWarpOp>(op)) {
    Inst &inst = emit(op, Opcode::WarpSync);
    inst.a = slot(s.getMask());
    return true;
  }
  if (auto cvt = dyn_cast<NVVM::ConvertF32x2ToF8x2Op>(op)) {
    bool e5m2 = isa<Float8E5M2Type>(cvt.getDstTy());
    if (!e5m2 && !isa<Float8E4M3FNType>(cvt.getDstTy()))
      return fail(op, "only e4m3 and e5m2 destinations are modelled");
    if (cvt.getRnd() != NVVM::FPRoundingMode::RN || cvt.getRelu() ||
        !cvt.getType().isInteger(16))
      return fail(op, "only cvt.rn{.satfinite}.{e4m3x2,e5m2x2}.f32 to i16 is "
                      "modelled");
    Inst &inst = emit(op, Opcode::CvtF8x2);
    inst.a = slot(cvt.getA());
    inst.b = slot(cvt.getB());
    inst.sub = (e5m2 ? 1 : 0) |
               (cvt.getSat() == NVVM::SaturationMode::SATFINITE ? 2 : 0);
    inst.d = newSlot(cvt.getDst());
    return true;
  }
  return fail(op, "op not modelled by the emulator");
}

bool Translator::translateFunction(LLVM::LLVMFuncOp fn) {
  p.name = fn.getName().str();
  if (auto maxntid = fn->getAttrOfType<DenseI32ArrayAttr>(
          NVVM::NVVMDialect::getMaxntidAttrName()))
    if (!maxntid.empty())
      p.maxThreads = maxntid[0];
  Block &entry = fn.getBody().front();
  p.numParams = entry.getNumArguments();
  for (BlockArgument a : entry.getArguments()) {
    p.paramSlots.push_back(newSlot(a));
    if (slotWidth(a.getType()) != 1 || !intBits(a.getType()))
      return fail(fn, "kernel parameters must be pointers, integers or "
                      "floats");
    p.paramBytes.push_back(byteSize(a.getType()));
  }
  // Every value gets its slot before any instruction is emitted, so a use
  // in a block laid out before its definition's block resolves too.
  for (Block &b : fn.getBody()) {
    for (BlockArgument a : b.getArguments())
      newSlot(a);
    for (Operation &op : b)
      for (Value r : op.getResults())
        newSlot(r);
  }
  llvm::DenseMap<Block *, int32_t> start;
  for (Block &b : fn.getBody()) {
    start[&b] = p.insts.size();
    for (Operation &op : b)
      if (!translateOp(&op))
        return false;
  }
  // Patch branch targets.
  size_t cs = 0;
  for (Block &b : fn.getBody())
    for (Operation &op : b) {
      if (auto br = dyn_cast<cf::BranchOp>(op)) {
        p.copySets[cs++].target = start[br.getDest()];
      } else if (auto br = dyn_cast<cf::CondBranchOp>(op)) {
        p.copySets[cs++].target = start[br.getTrueDest()];
        p.copySets[cs++].target = start[br.getFalseDest()];
      }
    }
  return true;
}

} // namespace

KernelModule::KernelModule() = default;
KernelModule::~KernelModule() = default;

std::unique_ptr<KernelModule> KernelModule::create(Operation *op,
                                                   std::string &error) {
  gpu::GPUModuleOp gpuModule = dyn_cast<gpu::GPUModuleOp>(op);
  if (!gpuModule) {
    op->walk([&](gpu::GPUModuleOp m) {
      if (!gpuModule)
        gpuModule = m;
    });
    if (!gpuModule) {
      error = "no gpu.module in the input (run fp8-opt --fp8-lower-to-nvvm "
              "first)";
      return nullptr;
    }
  }
  MLIRContext *ctx = op->getContext();
  ctx->getOrLoadDialect<cf::ControlFlowDialect>();
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(gpuModule.getLoc());
  b.setInsertionPointToEnd(scratch->getBody());
  for (Operation &o : gpuModule.getBody()->getOperations())
    b.clone(o);
  PassManager pm(ctx);
  pm.addPass(createSCFToControlFlowPass());
  if (failed(pm.run(*scratch))) {
    error = "convert-scf-to-cf failed on the kernels";
    return nullptr;
  }

  std::unique_ptr<KernelModule> km(new KernelModule());
  // Shared-memory layout.
  std::map<std::string, uint32_t> sharedAddress;
  uint64_t end = kSharedBase;
  std::vector<std::string> dynamicNames;
  for (auto g : scratch->getOps<LLVM::GlobalOp>()) {
    if (g.getAddrSpace() != 3)
      continue;
    Type t = g.getGlobalType();
    auto arr = dyn_cast<LLVM::LLVMArrayType>(t);
    if (arr && arr.getNumElements() == 0) {
      dynamicNames.push_back(g.getSymName().str());
      continue;
    }
    uint64_t align = g.getAlignment() ? *g.getAlignment() : 16;
    end = (end + align - 1) / align * align;
    sharedAddress[g.getSymName().str()] = end;
    end += byteSize(t);
  }
  km->dynamicSharedBase = (end + 1023) / 1024 * 1024;
  for (const std::string &name : dynamicNames)
    sharedAddress[name] = km->dynamicSharedBase;

  for (auto fn : scratch->getOps<LLVM::LLVMFuncOp>()) {
    if (!(fn->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()) ||
          fn->hasAttr(gpu::GPUDialect::getKernelFuncAttrName())) ||
        fn.isExternal())
      continue;
    auto prog = std::make_unique<Program>();
    prog->dynamicSharedBase = km->dynamicSharedBase;
    prog->staticSharedEnd = end;
    Translator t(*prog, sharedAddress);
    if (!t.translateFunction(fn)) {
      error = "kernel '" + fn.getName().str() + "': " + t.error;
      return nullptr;
    }
    km->kernelAttributes[prog->name] = fn->getAttr(FP8Dialect::kKernelAttrName);
    km->programs[prog->name] = std::move(prog);
  }
  if (km->programs.empty()) {
    error = "the gpu.module has no kernel (llvm.func with nvvm.kernel)";
    return nullptr;
  }
  return km;
}

std::vector<std::string> KernelModule::getKernelNames() const {
  std::vector<std::string> names;
  for (auto &[name, p] : programs)
    names.push_back(name);
  return names;
}

bool KernelModule::hasKernel(const std::string &name) const {
  return programs.count(name);
}

int KernelModule::getNumParams(const std::string &kernel) const {
  auto it = programs.find(kernel);
  return it == programs.end() ? -1 : it->second->numParams;
}

KernelInfo KernelModule::getKernelInfo(const std::string &kernel) const {
  KernelInfo info;
  auto it = programs.find(kernel);
  if (it == programs.end())
    return info;
  const Program &p = *it->second;
  info.maxThreads = p.maxThreads;
  for (const WgmmaInfo &w : p.wgmmas)
    info.wgmmaN = std::max(info.wgmmaN, w.n);
  for (const Inst &in : p.insts)
    info.mbarrierInits += in.op == Opcode::MbarInit;
  return info;
}

Attribute KernelModule::getKernelAttribute(const std::string &kernel) const {
  auto it = kernelAttributes.find(kernel);
  return it == kernelAttributes.end() ? Attribute() : it->second;
}

std::vector<int> KernelModule::getParamBytes(const std::string &kernel) const {
  auto it = programs.find(kernel);
  if (it == programs.end())
    return {};
  return std::vector<int>(it->second->paramBytes.begin(),
                          it->second->paramBytes.end());
}
