//===- QuantizeTensor.cpp - the per-tensor quantize kernel's passes -------===//
//
// One scale for the whole tensor (the `per-tensor` preset, TransformerEngine
// current scaling; QuantizeKernelConfig::perTensor). The amax is a
// reduction over every element, so the launcher launches the kernel twice
// on one stream, the launch boundary ordering the passes (its `pass`
// parameter, 0 then 1); the warps walk the tensor in 1x128 tiles, 8 per
// CTA, in both:
//   pass 0: each warp loads its tile (QuantizeAmax.cpp's emitLoads; the
//     tiles past the tensor in the last CTA read as 0, as the reference's
//     zero-initialised reduction) and reduces it (shfl.sync.bfly), the
//     CTA's 8 warps through the shared array and one bar.sync, and thread 0
//     combines the CTA's amax into the f32 `amax` (+0.0 from the launcher)
//     by an atomic unsigned max of its bit pattern. An amax is |x| (sign
//     bit clear) or a NaN, and on those the u32 order of the bits is the
//     f32 order with every NaN (either sign) above +Inf: the result is
//     exact and independent of the order of the CTAs, max |x| over the
//     tensor or a NaN (whose scale is 1 whatever its bits, as in the CPU
//     lowering). No range guard, so every thread reaches the barrier.
//   pass 1: each warp loads its tile again, reads amax, derives the scale
//     (QuantizeCodes.cpp's emitScale: the CPU reference's own builder;
//     block 0 stores it) and stores its codes.
//
//===----------------------------------------------------------------------===//
#include "QuantizeEmitter.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::quantize;

void QuantizeEmitter::emitPerTensor(Value amaxPtr, Value pass,
                                    StringRef amaxSymbol) {
  // `pass` is a kernel parameter: uniform, so is the barrier in pass 0.
  auto ifOp = scf::IfOp::create(b, ir.eq(pass, ir.c32(0)),
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  emitTensorAmaxPass(amaxPtr, amaxSymbol);
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  rowIdx.clear();
  rowOk.clear();
  x.clear();
  emitTensorCodesPass(amaxPtr);
}

void QuantizeEmitter::emitTensorAmaxPass(Value amaxPtr, StringRef amaxSymbol) {
  emitWarpCoords();
  emitBlockPlace();
  emitLoads();
  Value amax = emitWarpAmax(emitLaneAmax());
  amax = emitWarpsAmax(amax, amaxSymbol, warp, QuantizeKernelConfig::kWarps);
  Value firstLane = ir.eq(lane, ir.c32(0));
  Value firstWarp = ir.eq(warp, ir.c32(0));
  Value first = arith::AndIOp::create(b, firstWarp, firstLane);
  auto ifOp = scf::IfOp::create(b, first, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Value bits = arith::BitcastOp::create(b, ir.i32, amax);
  LLVM::AtomicRMWOp::create(b, LLVM::AtomicBinOp::umax, amaxPtr, bits,
                            LLVM::AtomicOrdering::monotonic, StringRef(),
                            /*alignment=*/4);
}

void QuantizeEmitter::emitTensorCodesPass(Value amaxPtr) {
  scf::IfOp inRange = emitBlockCoords();
  emitLoads();
  Value amax = LLVM::LoadOp::create(b, ir.f32, amaxPtr, 4);
  emitCodes(emitScale(amax));
  b.setInsertionPointAfter(inRange);
}
