//===- TranslateAsync.cpp - mbarrier, TMA and wgmma -----------------------===//
//
// The asynchronous families of the translation (Translator.h): mbarriers
// (init, arrive, arrive.expect_tx, try_wait.parity), TMA tiled loads and
// prefetch.tensormap, and the wgmma fence/commit/wait/mma_async. A PTX
// predicate operand becomes a SkipUnless before the op's instruction. Only
// the forms the kernels use are modelled; any other form (multicast, other
// shapes or types) is an error naming what is not.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::fp8::emu;

//===----------------------------------------------------------------------===//
// mbarrier
//===----------------------------------------------------------------------===//

static bool translateMbarInit(Translator &t, NVVM::MBarrierInitOp init) {
  t.predicate(init, init.getPredicate());
  Inst &inst = t.emit(init, Opcode::MbarInit);
  inst.a = t.slot(init.getAddr());
  inst.b = t.slot(init.getCount());
  return true;
}

static bool translateMbarArrive(Translator &t, NVVM::MBarrierArriveOp arrive) {
  if (arrive.getCount() || !arrive->getResults().empty())
    return t.fail(arrive, "mbarrier.arrive with a count or a state result is "
                          "not modelled");
  Inst &inst = t.emit(arrive, Opcode::MbarArrive);
  inst.a = t.slot(arrive.getAddr());
  return true;
}

static bool translateMbarArriveTx(Translator &t,
                                  NVVM::MBarrierArriveExpectTxOp arrive) {
  if (!arrive->getResults().empty())
    return t.fail(arrive, "mbarrier.arrive.expect_tx with a result is not "
                          "modelled");
  t.predicate(arrive, arrive.getPredicate());
  Inst &inst = t.emit(arrive, Opcode::MbarArriveTx);
  inst.a = t.slot(arrive.getAddr());
  inst.b = t.slot(arrive.getTxcount());
  return true;
}

static bool translateMbarTryWait(Translator &t,
                                 NVVM::MBarrierTryWaitParityOp wait) {
  Inst &inst = t.emit(wait, Opcode::MbarTryWait);
  inst.a = t.slot(wait.getAddr());
  inst.b = t.slot(wait.getPhase());
  return true;
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

static bool translateTma(Translator &t,
                         NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp tma) {
  if (tma.getMode() != NVVM::TMALoadMode::TILE || tma.getMulticastMask() ||
      tma.getL2CacheHint() || tma.getCoordinates().size() > 5 ||
      tma.getCoordinates().empty())
    return t.fail(tma, "only non-multicast tiled TMA loads of rank 1..5 "
                       "are modelled");
  t.predicate(tma, tma.getPredicate());
  Inst &inst = t.emit(tma, Opcode::Tma);
  inst.a = t.slot(tma.getDstMem());
  inst.b = t.slot(tma.getTmaDescriptor());
  inst.c = t.slot(tma.getMbar());
  // Coordinates: consecutive slots of a side "GEP" entry.
  std::vector<GepTerm> coords;
  for (Value c : tma.getCoordinates())
    coords.push_back({t.slot(c), 32, 1});
  inst.x = t.p.geps.size();
  t.p.geps.push_back(std::move(coords));
  return true;
}

static bool translatePrefetch(Translator &t, NVVM::PrefetchOp pf) {
  if (!pf.getTensormap() || pf.getInParamSpace() || pf.getUniform() ||
      pf.getCacheLevel() || pf.getEvictPriority())
    return t.fail(pf, "only prefetch.tensormap of a generic address is "
                      "modelled");
  t.predicate(pf, pf.getPredicate());
  Inst &inst = t.emit(pf, Opcode::PrefetchTensorMap);
  inst.a = t.slot(pf.getAddr());
  return true;
}

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

/// Why the emulator cannot run `mma` (empty: it can): FP8 m64nNk32 with
/// f32 accumulators, K-major operands, no negation.
static const char *unmodelledWgmma(NVVM::WgmmaMmaAsyncOp mma) {
  auto isFp8 = [](NVVM::WGMMATypes t) {
    return t == NVVM::WGMMATypes::e4m3 || t == NVVM::WGMMATypes::e5m2;
  };
  NVVM::MMAShapeAttr shape = mma.getShape();
  if (!isFp8(mma.getTypeA()) || !isFp8(mma.getTypeB()) ||
      mma.getTypeD() != NVVM::WGMMATypes::f32 || shape.getM() != 64 ||
      shape.getK() != 32)
    return "only m64nNk32 wgmma with FP8 inputs and f32 accumulators is "
           "modelled";
  if (mma.getLayoutA() != NVVM::MMALayout::row ||
      mma.getLayoutB() != NVVM::MMALayout::col)
    return "FP8 wgmma needs K-major operands (layoutA = row, layoutB = col; "
           "PTX ISA: no transpose for FP8)";
  if (mma.getScaleA() != NVVM::WGMMAScaleIn::one ||
      mma.getScaleB() != NVVM::WGMMAScaleIn::one)
    return "negated wgmma inputs are not modelled";
  if (slotWidth(mma.getType()) != shape.getN() / 2)
    return "accumulator struct does not have N/2 elements";
  return "";
}

static bool translateWgmma(Translator &t, NVVM::WgmmaMmaAsyncOp mma) {
  if (const char *why = unmodelledWgmma(mma); *why)
    return t.fail(mma, why);
  WgmmaInfo info;
  info.n = mma.getShape().getN();
  info.e5m2A = mma.getTypeA() == NVVM::WGMMATypes::e5m2;
  info.e5m2B = mma.getTypeB() == NVVM::WGMMATypes::e5m2;
  info.scaleD = mma.getScaleD() == NVVM::WGMMAScaleOut::one;
  info.inout = t.slot(mma.getInouts());
  Inst &inst = t.emit(mma, Opcode::WgMma);
  inst.a = t.slot(mma.getDescriptorA());
  inst.b = t.slot(mma.getDescriptorB());
  inst.x = t.p.wgmmas.size();
  info.result = t.newSlot(mma.getResult());
  info.wgmmaIndex = t.p.numWgmmaValues++;
  t.wgmmaValue[mma.getResult()] = info.wgmmaIndex;
  inst.d = info.result;
  t.p.wgmmas.push_back(info);
  return true;
}

static bool translateWgmmaWait(Translator &t, NVVM::WgmmaWaitGroupSyncOp w) {
  Inst &inst = t.emit(w, Opcode::WgWait);
  inst.imm = w.getGroup();
  return true;
}

void mlir::fp8::emu::addAsyncOps(OpTable &table) {
  table.add(translateMbarInit);
  table.addBare<NVVM::FenceMbarrierInitOp>(Opcode::Nop);
  table.add(translateMbarArrive);
  table.add(translateMbarArriveTx);
  table.add(translateMbarTryWait);
  table.add(translateTma);
  table.add(translatePrefetch);
  table.addBare<NVVM::WgmmaFenceAlignedOp>(Opcode::WgFence);
  table.addBare<NVVM::WgmmaGroupSyncAlignedOp>(Opcode::WgCommit);
  table.add(translateWgmmaWait);
  table.add(translateWgmma);
}
