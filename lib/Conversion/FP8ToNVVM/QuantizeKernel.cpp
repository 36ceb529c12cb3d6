//===- QuantizeKernel.cpp - sm_90a FP8 block quantize kernel generator ----===//
//
// The GPU form of `fp8.quantize` for the DeepSeek-V3 blocks (1x128 tiles of
// activations, 128x128 blocks of weights), built like the GEMM kernel in the
// NVVM + LLVM dialects with arith/scf. Per block (numerics contract §1):
//   amax = max |x| over the valid elements  (max.NaN: NaN propagates; the
//          lanes combine through shfl.sync.bfly, the warps of a 128x128
//          block through shared memory)
//   s    = createDequantScale(amax)         (the CPU reference's own builder:
//          eps, pow2, the "not a normal f32 -> 1" rule, IEEE division)
//   q    = cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32(x / s)  (div.rn.f32)
// so codes and scales are meant to equal the CPU reference lowering's bit
// for bit (NVIDIA's hardware conversion is the one cuda_fp8.h's host
// functions model). Launch: QuantizeKernelConfig.h. This file is the
// driver; the pieces are in the files QuantizeEmitter.h lists.
//
//===----------------------------------------------------------------------===//
#include "QuantizeEmitter.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::quantize;

QuantizeEmitter::QuantizeEmitter(OpBuilder &builder, Location loc,
                                 const QuantizeKernelSpec &spec)
    : KernelEmitter(builder, loc, spec) {
  bf16In = spec.inputType.isBF16();
  inBytes = bf16In ? 2 : 4;
  warpsPerBlock = cfg.warpsPerBlock();
  rowsPerWarp = cfg.rowsPerWarp();
  // 4 consecutive columns; 1 for MX blocks (1x32: a warp per block).
  colsPerLane =
      cfg.blockCols == kMxBlockCols ? 1 : QuantizeKernelConfig::kColsPerLane;
  vectorized = colsPerLane > 1 && cfg.cols % colsPerLane == 0;
}

scf::IfOp QuantizeEmitter::emitBlockCoords() {
  emitWarpCoords();
  // For 128x128 blocks the CTA is one block (blocksPerCta = 1) and the grid
  // has exactly blocks() CTAs, so this guard is uniform across the CTA and
  // the barrier inside it is reached by all threads or none.
  auto inRange = scf::IfOp::create(b, ir.ult(blk, blocks), false);
  b.setInsertionPointToStart(&inRange.getThenRegion().front());
  emitBlockPlace();
  return inRange;
}

void QuantizeEmitter::emitWarpCoords() {
  Value tid = NVVM::ThreadIdXOp::create(b, ir.i32);
  warp = ir.divu(tid, ir.c32(32));
  lane = ir.remu(tid, ir.c32(32));
  Value warpBlock = ir.divu(warp, ir.c32(warpsPerBlock));
  Value blocksPerCta = ir.c32(cfg.blocksPerCta());
  Value ctaBlock0 = ir.mul(NVVM::BlockIdXOp::create(b, ir.i32), blocksPerCta);
  blk = ir.add(ctaBlock0, warpBlock);
  warpInBlock = ir.remu(warp, ir.c32(warpsPerBlock));
}

void QuantizeEmitter::emitBlockPlace() {
  rowBlock = ir.divu(blk, ir.c32(cfg.colTiles()));
  colBlock = ir.remu(blk, ir.c32(cfg.colTiles()));
  col0 =
      ir.add(ir.mul(colBlock, ir.c32(cfg.blockCols == kMxBlockCols
                                         ? kMxBlockCols
                                         : QuantizeKernelConfig::kBlockCols)),
             ir.mul(lane, ir.c32(colsPerLane)));
  zero = ir.cf32(0.0f);
}

LLVM::LLVMFuncOp
mlir::fp8::buildQuantizeKernel(OpBuilder &builder, Location loc,
                               const QuantizeKernelSpec &spec, StringRef name,
                               StringRef amaxSymbol, StringRef colAmaxSymbol) {
  using Cfg = QuantizeKernelConfig;
  const Cfg &cfg = spec.config;
  QuantizeEmitter e(builder, loc, spec);
  ImplicitLocOpBuilder &b = e.b;
  KernelBuilder &ir = e.ir;

  // x, q, scales (pointers), rows (i32, used by a dynamic-rows kernel);
  // the requantize kernel's input scales last; the per-tensor kernel's
  // amax (a pointer) and pass (i32) last.
  SmallVector<Type> params{ir.ptr, ir.ptr, ir.ptr, ir.i32};
  if (spec.transpose)
    params.push_back(ir.ptr);
  if (cfg.perTensor)
    params.append({ir.ptr, ir.i32});
  LLVM::LLVMFuncOp fn = ir.createKernelFunction(name, params, Cfg::kThreads);
  Block *entry = fn.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  e.xPtr = ir.toGlobal(entry->getArgument(0));
  e.qPtr = ir.toGlobal(entry->getArgument(1));
  e.sPtr = ir.toGlobal(entry->getArgument(2));
  if (spec.transpose)
    e.inScalesPtr = ir.toGlobal(entry->getArgument(4));
  // The row count and the number of blocks: compile-time constants, or
  // computed from the run-time rows by a dynamic-rows kernel.
  const bool dynamicRows = cfg.rows == Cfg::kDynamicRows;
  e.rows = dynamicRows ? entry->getArgument(3) : ir.c32(cfg.rows);
  e.blocks = dynamicRows
                 ? ir.ceilDivTimes(e.rows, cfg.blockRows, cfg.colTiles())
                 : ir.c32(cfg.tiles());

  if (cfg.perTensor) {
    e.emitPerTensor(ir.toGlobal(entry->getArgument(4)), entry->getArgument(5),
                    amaxSymbol);
    LLVM::ReturnOp::create(b, ValueRange{});
    return fn;
  }
  scf::IfOp inRange = e.emitBlockCoords();
  if (cfg.wholeRow()) {
    e.emitWholeRow(amaxSymbol);
    b.setInsertionPointAfter(inRange);
    LLVM::ReturnOp::create(b, ValueRange{});
    return fn;
  }
  if (spec.transpose)
    e.emitTransposedLoads();
  else
    e.emitLoads();
  if (cfg.perColumn()) {
    // Column blocks: a scale per column of the CTA's 128 x 128 region.
    e.emitCodes(e.emitColumnScales(e.emitColumnAmax(colAmaxSymbol)));
    b.setInsertionPointAfter(inRange);
    LLVM::ReturnOp::create(b, ValueRange{});
    return fn;
  }
  Value amax = e.emitAmax(amaxSymbol);
  Value scale = e.emitScale(amax);
  e.emitCodes(scale);
  b.setInsertionPointAfter(inRange);
  LLVM::ReturnOp::create(b, ValueRange{});
  return fn;
}
