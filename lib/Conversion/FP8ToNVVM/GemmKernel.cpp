//===- GemmKernel.cpp - sm_90a block-scaled FP8 GEMM kernel generator -----===//
//
// Builds the kernel described in Passes.td (fp8-lower-to-nvvm) directly in
// the NVVM + LLVM dialects, with scf/arith for the control flow and index
// math (lowered afterwards by the upstream scf-to-cf / arith-to-llvm /
// nvvm-to-llvm conversions). This file is the driver: the signature, the
// kernel-wide values, the two roles and the choice of the strategies (the
// tile scheduler, the epilogue); the pieces are in the files GemmEmitter.h
// lists.
//
// Where things come from:
// - The pipeline structure (producer warpgroup + consumer warpgroups, full/
//   empty mbarrier ring, per-K-block promotion after wgmma.wait_group 0,
//   A scales loaded by TMA as a K-block-major [KB, M] tensor) follows
//   DeepGEMM's public SM90 FP8 GEMM design; no code is taken from it.
// - Instruction semantics (wgmma, TMA, mbarrier, setmaxnreg) and the
//   descriptor/fragment layouts: PTX ISA 8.x, encoded in WgmmaFragment.h.
// - The upstream NVVM ops are used as they are in MLIR 22; those without an
//   LLVM intrinsic (try_wait.parity) become inline PTX in convert-nvvm-to-llvm.
//
//===----------------------------------------------------------------------===//
#include "GemmEpilogue.h"
#include "GemmTileScheduler.h"

#include "fp8/Target/Hopper/WgmmaFragment.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;

GemmEmitter::GemmEmitter(OpBuilder &builder, Location loc,
                         const GemmKernelSpec &spec)
    : KernelEmitter(builder, loc, spec) {
  hasAcc = static_cast<bool>(spec.accType);
  dynamicM = cfg.m == GemmKernelConfig::kDynamicM;
  dynamicK = cfg.hasDynamicK();
  kBlocks = cfg.kBlocks();
  nTiles = cfg.nTiles();
  // Each consumer warpgroup computes 64 rows per wave x consumerN columns
  // of the tile (GemmKernelConfig::rowGroups / colSplits / waves); accRegs
  // is one wave's accumulators.
  consumerN = cfg.consumerN();
  accRegs = wgmma::accumulatorRegisters(consumerN);
}

// Out of line: the strategies' types are complete here.
GemmEmitter::~GemmEmitter() = default;

void GemmEmitter::emitSetMaxRegisters(int64_t regs, bool increase) {
  NVVM::SetMaxRegisterOp::create(
      b, b.getI32IntegerAttr(regs),
      NVVM::SetMaxRegisterActionAttr::get(
          ctx, increase ? NVVM::SetMaxRegisterAction::increase
                        : NVVM::SetMaxRegisterAction::decrease));
}

void GemmEmitter::emitKBlockCount(Value runtimeK) {
  // ceil(k / 128): the last block may be partial (its codes past K are the
  // TMA's zero fill, its scales the op's last K block's), and k = 0 runs
  // no block (the accumulators stay C or +0.0).
  kRuntime = runtimeK;
  kBlockCount = ir.ceilDivTimes(runtimeK, cfg.blockK, 1);
}

Value GemmEmitter::kBlocksValue() {
  return dynamicK ? kBlockCount : ir.c32(kBlocks);
}

namespace {

/// The kernel function and its launch attributes. Parameters: tmapA, tmapB,
/// tmapSA, sb, d (pointers), m (i32)[, c (pointer)] (GemmKernelConfig.h);
/// grouped kernels end with the pointer to the group counts (masked), the
/// per-row group index (contiguous) or the per-token group ids (k_grouped),
/// all i32; dynamic-K kernels with k
/// (i32); quantize-epilogue kernels with the scales pointer (d: the codes);
/// the bf16 batch kernel of a run-time batch count with G (i32, after C).
LLVM::LLVMFuncOp createKernelFunction(GemmEmitter &e, StringRef name) {
  ImplicitLocOpBuilder &b = e.b;
  SmallVector<Type> argTypes(5, e.ir.ptr);
  argTypes.push_back(e.ir.i32);
  if (e.hasAcc)
    argTypes.push_back(e.ir.ptr);
  if (e.scheduler->takesGroupArgument())
    argTypes.push_back(e.ir.ptr);
  if (e.dynamicK)
    argTypes.push_back(e.ir.i32);
  if (e.spec.hasDynamicGroups())
    argTypes.push_back(e.ir.i32);
  e.epilogue->appendParameterTypes(argTypes);
  // .maxntid + .minnctapersm 1 give ptxas the register cap at entry that
  // setmaxnreg needs (otherwise it ignores setmaxnreg, warning C7508).
  auto fn = e.ir.createKernelFunction(name, argTypes, e.cfg.threads());
  fn->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), b.getI32IntegerAttr(1));
  return fn;
}

/// The pointer parameters, cast to global memory.
void bindParameters(GemmEmitter &e, Block *entry) {
  KernelBuilder &ir = e.ir;
  e.tmapA = entry->getArgument(0);
  e.tmapB = entry->getArgument(1);
  e.tmapSA = entry->getArgument(2);
  e.sbPtr = ir.toGlobal(entry->getArgument(3));
  e.epilogue->bindOutput(entry->getArgument(4));
  e.cPtr = e.hasAcc ? ir.toGlobal(entry->getArgument(6)) : Value();
  if (e.scheduler->takesGroupArgument())
    e.scheduler->bindGroupArgument(
        ir.toGlobal(entry->getArgument(e.hasAcc ? 7 : 6)));
  e.epilogue->bindTrailingParameters(entry);
}

/// The thread's warpgroup and place in it, the CTA's place in the grid and
/// the shared-memory ring's base.
void emitThreadValues(GemmEmitter &e, StringRef smemSymbol) {
  using wgmma::kWarpgroupThreads;
  ImplicitLocOpBuilder &b = e.b;
  KernelBuilder &ir = e.ir;
  e.tid = NVVM::ThreadIdXOp::create(b, ir.i32);
  e.ctaId = NVVM::BlockIdXOp::create(b, ir.i32);
  e.ctaCount = NVVM::GridDimXOp::create(b, ir.i32);
  if (e.cfg.cluster > 1) {
    Value size = ir.c32(e.cfg.cluster);
    e.clusterRank = ir.remu(e.ctaId, size);
    e.clusterId = ir.divu(e.ctaId, size);
    e.clusterCount = ir.divu(e.ctaCount, size);
  }
  e.wg = ir.divu(e.tid, ir.c32(kWarpgroupThreads));
  e.wgThread = ir.remu(e.tid, ir.c32(kWarpgroupThreads));
  e.smem = LLVM::AddressOfOp::create(b, ir.ptrShared, smemSymbol);
  // 32-bit shared-window address of the ring, for the wgmma descriptors.
  e.smemAddr = LLVM::PtrToIntOp::create(b, ir.i32, e.smem);
}

} // namespace

LLVM::LLVMFuncOp mlir::fp8::buildGemmKernel(OpBuilder &builder, Location loc,
                                            const GemmKernelSpec &spec,
                                            StringRef name,
                                            StringRef smemSymbol) {
  GemmEmitter e(builder, loc, spec);
  ImplicitLocOpBuilder &b = e.b;
  KernelBuilder &ir = e.ir;
  // What varies with the kernel's form, chosen once: the pieces call the
  // strategies instead of testing the form.
  e.scheduler = TileScheduler::create(e);
  e.epilogue = Epilogue::create(e);

  LLVM::LLVMFuncOp fn = createKernelFunction(e, name);
  Block *entry = fn.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  bindParameters(e, entry);
  // M is the i32 parameter 5 of a dynamic-M kernel; G the last one of a
  // bf16 batch kernel of a run-time batch count (no epilogue parameters
  // follow it: the bf16 kernels store D).
  e.scheduler->emitTileCount(
      entry->getArgument(5),
      e.spec.hasDynamicGroups() ? entry->getArguments().back() : Value());
  // K is the last i32 parameter of a dynamic-K kernel.
  if (e.dynamicK)
    e.emitKBlockCount(entry->getArguments().back());
  emitThreadValues(e, smemSymbol);
  e.emitBarrierInit();
  e.scheduler->emitTileOrder();
  // try_wait suspend-time hint (10 ms, as CUTLASS).
  e.ticks = ir.c32(0x989680);

  // Warpgroup `consumers` produces, the others consume.
  auto roleIf = scf::IfOp::create(b, ir.eq(e.wg, ir.c32(e.cfg.consumers)),
                                  /*withElseRegion=*/true);
  e.emitProducer(roleIf);
  e.emitConsumers(roleIf);
  e.emitClusterSync();
  LLVM::ReturnOp::create(b, ValueRange{});
  return fn;
}
