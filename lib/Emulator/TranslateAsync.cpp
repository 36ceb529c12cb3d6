//===- TranslateAsync.cpp - mbarrier, TMA and wgmma -----------------------===//
//
// The asynchronous families of the translation (Translator.h): mbarriers
// (init, arrive, arrive.expect_tx, try_wait.parity), TMA tiled loads and
// prefetch.tensormap, TMA tiled stores with their bulk async-groups
// (commit_group, wait_group{.read}) and fence.proxy.async, stmatrix, and
// the wgmma fence/commit/wait/mma_async. A PTX
// predicate operand becomes a SkipUnless before the op's instruction. Only
// the forms the kernels use are modelled (TMA also with .multicast::cluster,
// Tma.cpp); any other form (other shapes or types) is an error naming what
// is not.
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

/// Appends the slots of `values` (32-bit each) as a side "GEP" entry of
/// the program, for an instruction whose operand list is longer than its
/// fields (TMA coordinates, stmatrix sources); returns the entry's index.
static int32_t addSlotList(Translator &t, ValueRange values) {
  std::vector<GepTerm> terms;
  for (Value v : values)
    terms.push_back({t.slot(v), 32, 1});
  t.p.geps.push_back(std::move(terms));
  return static_cast<int32_t>(t.p.geps.size() - 1);
}

static bool translateTma(Translator &t,
                         NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp tma) {
  if (tma.getMode() != NVVM::TMALoadMode::TILE || tma.getL2CacheHint() ||
      tma.getCoordinates().size() > 5 || tma.getCoordinates().empty() ||
      tma.getIsCTAOnly() || tma.getGroup())
    return t.fail(tma, "only tiled TMA loads of rank 1..5 (multicast or "
                       "not) are modelled");
  t.predicate(tma, tma.getPredicate());
  Inst &inst = t.emit(tma, Opcode::Tma);
  inst.a = t.slot(tma.getDstMem());
  inst.b = t.slot(tma.getTmaDescriptor());
  inst.c = t.slot(tma.getMbar());
  // .multicast::cluster: imm = the ctaMask's slot + 1 (0: none).
  if (Value mask = tma.getMulticastMask())
    inst.imm = t.slot(mask) + 1;
  inst.x = addSlotList(t, tma.getCoordinates());
  return true;
}

static bool translateTmaStore(Translator &t,
                              NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp tma) {
  if (tma.getMode() != NVVM::TMAStoreMode::TILE || tma.getL2CacheHint() ||
      tma.getCoordinates().size() > 5 || tma.getCoordinates().empty())
    return t.fail(tma, "only tiled TMA stores of rank 1..5 without an L2 "
                       "cache hint are modelled");
  t.predicate(tma, tma.getPredicate());
  Inst &inst = t.emit(tma, Opcode::TmaStore);
  inst.a = t.slot(tma.getSrcMem());
  inst.b = t.slot(tma.getTmaDescriptor());
  inst.x = addSlotList(t, tma.getCoordinates());
  return true;
}

static bool translateBulkWait(Translator &t, NVVM::CpAsyncBulkWaitGroupOp w) {
  Inst &inst = t.emit(w, Opcode::BulkWait);
  inst.imm = w.getGroup();
  inst.sub = w.getRead() ? 1 : 0;
  return true;
}

/// fence.proxy.async orders the thread's generic-proxy accesses of shared
/// memory before the async proxy's (a TMA store reading what stmatrix
/// wrote); the other proxy fences are not modelled.
static bool translateFenceProxy(Translator &t, NVVM::FenceProxyOp f) {
  bool async = f.getKind() == NVVM::ProxyKind::async;
  bool asyncShared =
      f.getKind() == NVVM::ProxyKind::async_shared &&
      (!f.getSpace() || *f.getSpace() == NVVM::SharedSpace::shared_cta);
  if (!async && !asyncShared)
    return t.fail(f, "only fence.proxy.async and fence.proxy.async.shared::cta "
                     "are modelled");
  t.emit(f, Opcode::FenceProxyAsync);
  return true;
}

/// stmatrix.sync.aligned.m8n8.x1/x2/x4{.trans}.shared.b16 (Collectives.cpp).
static bool translateStMatrix(Translator &t, NVVM::StMatrixOp st) {
  if (st.getShape().getM() != 8 || st.getShape().getN() != 8 ||
      st.getEltType() != NVVM::LdStMatrixEltType::B16)
    return t.fail(st, "only stmatrix.m8n8 of b16 elements is modelled");
  Inst &inst = t.emit(st, Opcode::StMatrix);
  inst.b = t.slot(st.getPtr()); // a: the member mask slot (none: full)
  inst.imm = st.getSources().size();
  inst.sub = st.getLayout() == NVVM::MMALayout::col ? 1 : 0;
  inst.x = addSlotList(t, st.getSources());
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

/// The emulator's input type of a wgmma operand type (false: not modelled).
static bool wgmmaInput(NVVM::WGMMATypes t, WgmmaInput &out) {
  switch (t) {
  case NVVM::WGMMATypes::e4m3:
    out = WgmmaInput::E4M3;
    return true;
  case NVVM::WGMMATypes::e5m2:
    out = WgmmaInput::E5M2;
    return true;
  case NVVM::WGMMATypes::f16:
    out = WgmmaInput::F16;
    return true;
  case NVVM::WGMMATypes::bf16:
    out = WgmmaInput::BF16;
    return true;
  case NVVM::WGMMATypes::tf32:
    out = WgmmaInput::TF32;
    return true;
  default:
    return false;
  }
}

/// Why the emulator cannot run `mma` (empty: it can): m64nN with f32
/// accumulators and FP8 (k32), f16 or bf16 (k16) or tf32 (k8) inputs of one
/// kind; FP8 and tf32 K-major, f16 and bf16 either K- or MN-major (PTX ISA:
/// the transpose flags exist for .f16/.bf16 only); no negation.
static const char *unmodelledWgmma(NVVM::WgmmaMmaAsyncOp mma, WgmmaInfo &info) {
  NVVM::MMAShapeAttr shape = mma.getShape();
  if (!wgmmaInput(mma.getTypeA(), info.typeA) ||
      !wgmmaInput(mma.getTypeB(), info.typeB) ||
      mma.getTypeD() != NVVM::WGMMATypes::f32 || shape.getM() != 64)
    return "only m64nNkK wgmma with e4m3/e5m2, f16, bf16 or tf32 inputs and "
           "f32 accumulators is modelled";
  auto isFp8 = [](WgmmaInput t) {
    return t == WgmmaInput::E4M3 || t == WgmmaInput::E5M2;
  };
  int k = isFp8(info.typeA) ? 32 : info.typeA == WgmmaInput::TF32 ? 8 : 16;
  if (isFp8(info.typeA) != isFp8(info.typeB) ||
      (!isFp8(info.typeA) && info.typeA != info.typeB))
    return "wgmma inputs of different kinds (FP8 with FP8, else one type)";
  if (shape.getK() != k)
    return "wgmma K must be 32 for FP8, 16 for f16/bf16, 8 for tf32";
  if (info.typeA == WgmmaInput::TF32)
    return "tf32 wgmma is not modelled yet (no test of it)";
  info.k = k;
  info.mnMajorA = mma.getLayoutA() != NVVM::MMALayout::row;
  info.mnMajorB = mma.getLayoutB() != NVVM::MMALayout::col;
  bool transposable =
      info.typeA == WgmmaInput::F16 || info.typeA == WgmmaInput::BF16;
  if ((info.mnMajorA || info.mnMajorB) && !transposable)
    return "FP8 and tf32 wgmma need K-major operands (layoutA = row, "
           "layoutB = col; PTX ISA: no transpose for them)";
  if (mma.getScaleA() != NVVM::WGMMAScaleIn::one ||
      mma.getScaleB() != NVVM::WGMMAScaleIn::one)
    return "negated wgmma inputs are not modelled";
  if (slotWidth(mma.getType()) != shape.getN() / 2)
    return "accumulator struct does not have N/2 elements";
  return "";
}

static bool translateWgmma(Translator &t, NVVM::WgmmaMmaAsyncOp mma) {
  WgmmaInfo info;
  if (const char *why = unmodelledWgmma(mma, info); *why)
    return t.fail(mma, why);
  info.n = mma.getShape().getN();
  info.e5m2A = info.typeA == WgmmaInput::E5M2;
  info.e5m2B = info.typeB == WgmmaInput::E5M2;
  info.scaleD = mma.getScaleD() == NVVM::WGMMAScaleOut::one;
  info.inout = t.slot(mma.getInouts());
  Inst &inst = t.emit(mma, Opcode::WgMma);
  inst.a = t.slot(mma.getDescriptorA());
  inst.b = t.slot(mma.getDescriptorB());
  inst.x = t.p.wgmmas.size();
  info.result = t.newSlot(mma.getResult());
  info.wgmmaIndex = t.wgmmaIndex.lookup(mma);
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
  table.add(translateTmaStore);
  table.addBare<NVVM::CpAsyncBulkCommitGroupOp>(Opcode::BulkCommit);
  table.add(translateBulkWait);
  table.add(translateFenceProxy);
  table.add(translateStMatrix);
  table.addBare<NVVM::WgmmaFenceAlignedOp>(Opcode::WgFence);
  table.addBare<NVVM::WgmmaGroupSyncAlignedOp>(Opcode::WgCommit);
  table.add(translateWgmmaWait);
  table.add(translateWgmma);
}
