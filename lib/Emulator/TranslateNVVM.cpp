//===- TranslateNVVM.cpp - special registers, warps, conversions ----------===//
//
// The synchronous NVVM families of the translation (Translator.h): the
// special registers (x, y and z of tid, ntid, ctaid, nctaid and of the
// cluster's: clusterid, nclusterid, cluster_ctaid, cluster_nctaid; laneid,
// cluster_ctarank, cluster_nctarank), the
// CTA barrier and the named barriers, the warp collectives (shfl.sync,
// bar.warp.sync, elect.sync), setmaxnreg, membar and cvt f32x2 -> f8x2.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::fp8::emu;

/// `Op` reads a special register (dimension `dim`) into its result.
template <typename Op>
static void addSpecialRegister(OpTable &table, Opcode code, uint8_t dim) {
  table.add<Op>([code, dim](Translator &t, Operation *op) {
    Inst &inst = t.emit(op, code);
    inst.sub = dim;
    inst.d = t.newSlot(op->getResult(0));
    return true;
  });
}

static void addSpecialRegisterOps(OpTable &table) {
  addSpecialRegister<NVVM::ThreadIdXOp>(table, Opcode::Tid, 0);
  addSpecialRegister<NVVM::ThreadIdYOp>(table, Opcode::Tid, 1);
  addSpecialRegister<NVVM::ThreadIdZOp>(table, Opcode::Tid, 2);
  addSpecialRegister<NVVM::BlockIdXOp>(table, Opcode::CtaId, 0);
  addSpecialRegister<NVVM::BlockIdYOp>(table, Opcode::CtaId, 1);
  addSpecialRegister<NVVM::BlockIdZOp>(table, Opcode::CtaId, 2);
  addSpecialRegister<NVVM::GridDimXOp>(table, Opcode::NCtaId, 0);
  addSpecialRegister<NVVM::GridDimYOp>(table, Opcode::NCtaId, 1);
  addSpecialRegister<NVVM::GridDimZOp>(table, Opcode::NCtaId, 2);
  addSpecialRegister<NVVM::BlockDimXOp>(table, Opcode::NTid, 0);
  addSpecialRegister<NVVM::BlockDimYOp>(table, Opcode::NTid, 1);
  addSpecialRegister<NVVM::BlockDimZOp>(table, Opcode::NTid, 2);
  addSpecialRegister<NVVM::LaneIdOp>(table, Opcode::LaneId, 0);
  addSpecialRegister<NVVM::ClusterIdXOp>(table, Opcode::ClusterReg, 0);
  addSpecialRegister<NVVM::ClusterIdYOp>(table, Opcode::ClusterReg, 1);
  addSpecialRegister<NVVM::ClusterIdZOp>(table, Opcode::ClusterReg, 2);
  addSpecialRegister<NVVM::ClusterDimXOp>(table, Opcode::ClusterReg, 3);
  addSpecialRegister<NVVM::ClusterDimYOp>(table, Opcode::ClusterReg, 4);
  addSpecialRegister<NVVM::ClusterDimZOp>(table, Opcode::ClusterReg, 5);
  addSpecialRegister<NVVM::BlockInClusterIdXOp>(table, Opcode::ClusterReg, 6);
  addSpecialRegister<NVVM::BlockInClusterIdYOp>(table, Opcode::ClusterReg, 7);
  addSpecialRegister<NVVM::BlockInClusterIdZOp>(table, Opcode::ClusterReg, 8);
  addSpecialRegister<NVVM::ClusterDimBlocksXOp>(table, Opcode::ClusterReg, 9);
  addSpecialRegister<NVVM::ClusterDimBlocksYOp>(table, Opcode::ClusterReg, 10);
  addSpecialRegister<NVVM::ClusterDimBlocksZOp>(table, Opcode::ClusterReg, 11);
  addSpecialRegister<NVVM::ClusterId>(table, Opcode::ClusterReg, 12);
  addSpecialRegister<NVVM::ClusterDim>(table, Opcode::ClusterReg, 13);
}

/// elect.sync: a warp collective (full member mask only) that elects the
/// lowest lane.
static bool translateElectSync(Translator &t, NVVM::ElectSyncOp e) {
  Inst &inst = t.emit(e, Opcode::ElectSync);
  inst.a = e.getMembermask() ? t.slot(e.getMembermask()) : -1;
  inst.d = t.newSlot(e.getPred());
  return true;
}

static bool translateShfl(Translator &t, NVVM::ShflOp s) {
  if (s.getReturnValueAndIsValid())
    return t.fail(s, "shfl.sync with a validity result is not modelled");
  if (slotWidth(s.getType()) != 1 || intBits(s.getType()) != 32)
    return t.fail(s, "only 32-bit shuffles are modelled");
  Inst &inst = t.emit(s, Opcode::Shfl);
  inst.sub = static_cast<uint8_t>(s.getKind());
  inst.a = t.slot(s.getThreadMask());
  inst.b = t.slot(s.getVal());
  inst.c = t.slot(s.getOffset());
  inst.imm = t.slot(s.getMaskAndClamp());
  inst.d = t.newSlot(s.getRes());
  return true;
}

static bool translateSyncWarp(Translator &t, NVVM::SyncWarpOp s) {
  Inst &inst = t.emit(s, Opcode::WarpSync);
  inst.a = t.slot(s.getMask());
  return true;
}

static bool translateSetMaxReg(Translator &t, NVVM::SetMaxRegisterOp s) {
  Inst &inst = t.emit(s, Opcode::SetMaxReg);
  inst.imm = s.getRegCount();
  inst.sub = s.getAction() == NVVM::SetMaxRegisterAction::increase;
  return true;
}

static bool translateCvtF8x2(Translator &t, NVVM::ConvertF32x2ToF8x2Op cvt) {
  bool e5m2 = isa<Float8E5M2Type>(cvt.getDstTy());
  if (!e5m2 && !isa<Float8E4M3FNType>(cvt.getDstTy()))
    return t.fail(cvt, "only e4m3 and e5m2 destinations are modelled");
  if (cvt.getRnd() != NVVM::FPRoundingMode::RN || cvt.getRelu() ||
      !cvt.getType().isInteger(16))
    return t.fail(cvt, "only cvt.rn{.satfinite}.{e4m3x2,e5m2x2}.f32 to i16 "
                       "is modelled");
  Inst &inst = t.emit(cvt, Opcode::CvtF8x2);
  inst.a = t.slot(cvt.getA());
  inst.b = t.slot(cvt.getB());
  inst.sub = (e5m2 ? 1 : 0) |
             (cvt.getSat() == NVVM::SaturationMode::SATFINITE ? 2 : 0);
  inst.d = t.newSlot(cvt.getDst());
  return true;
}

/// bar.sync id, count (nvvm.barrier; without an id and a count it is
/// barrier0) and bar.arrive id, count (nvvm.barrier.arrive): the CTA's
/// named barriers (PTX ISA, bar{.cta}; CtaRun::namedBarrier).
static bool translateBarrier(Translator &t, NVVM::BarrierOp b) {
  if (b.getReductionOp())
    return t.fail(b, "bar.red (a barrier with a reduction) is not modelled");
  if (!b.getBarrierId() && !b.getNumberOfThreads()) {
    t.emit(b, Opcode::Barrier0);
    return true;
  }
  Inst &inst = t.emit(b, Opcode::NamedBarrier);
  inst.a = b.getBarrierId() ? t.slot(b.getBarrierId()) : -1;
  inst.b = b.getNumberOfThreads() ? t.slot(b.getNumberOfThreads()) : -1;
  return true;
}

static bool translateBarrierArrive(Translator &t, NVVM::BarrierArriveOp b) {
  Inst &inst = t.emit(b, Opcode::NamedBarrier);
  inst.sub = 1;
  inst.a = b.getBarrierId() ? t.slot(b.getBarrierId()) : -1;
  inst.b = t.slot(b.getNumberOfThreads());
  return true;
}

/// mapa of a shared::cta address (to a shared::cluster one); generic
/// addresses of shared memory are not modelled.
static bool translateMapa(Translator &t, NVVM::MapaOp mapa) {
  if (cast<LLVM::LLVMPointerType>(mapa.getA().getType()).getAddressSpace() != 3)
    return t.fail(mapa, "only mapa.shared::cluster (of a shared::cta "
                        "pointer) is modelled");
  Inst &inst = t.emit(mapa, Opcode::Mapa);
  inst.a = t.slot(mapa.getA());
  inst.b = t.slot(mapa.getB());
  inst.d = t.newSlot(mapa.getRes());
  return true;
}

void mlir::fp8::emu::addNVVMOps(OpTable &table) {
  addSpecialRegisterOps(table);
  table.addBare<NVVM::Barrier0Op>(Opcode::Barrier0);
  table.add(translateBarrier);
  table.add(translateBarrierArrive);
  // barrier.cluster.arrive{.relaxed}{.aligned} and barrier.cluster.wait
  // {.aligned}: .aligned only promises that the warp executes the same
  // instruction, so both forms are modelled alike.
  table.addBare<NVVM::ClusterArriveOp>(Opcode::ClusterArrive);
  table.addBare<NVVM::ClusterArriveRelaxedOp>(Opcode::ClusterArrive);
  table.addBare<NVVM::ClusterWaitOp>(Opcode::ClusterWait);
  // membar.{cta,gl,sys} (fence.sc at that scope): the interpreter runs one
  // thread at a time and the CTAs of a grid one after another, so every
  // store is seen by every later load and the fence orders nothing more
  // (split-K's partial tiles around their arrival counter).
  table.addBare<NVVM::MembarOp>(Opcode::Nop);
  table.add(translateMapa);
  table.add(translateShfl);
  table.add(translateSyncWarp);
  table.add(translateSetMaxReg);
  table.add(translateCvtF8x2);
  table.add(translateElectSync);
}
