//===- TileScaledMatmul.cpp - fp8-tile-scaled-matmul ----------------------===//
//
// The GPU kernel's schedule (CTA tiles, K chunks = promotion intervals,
// per-row/per-column scale indexing, M/N/K tails) in scf loops over tensors,
// so its index math runs and is compared with the reference lowering on the
// CPU. See Passes.td for the loop nest.
//
//===----------------------------------------------------------------------===//
#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Target/Hopper/GemmKernelConfig.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir {
namespace fp8 {
#define GEN_PASS_DEF_FP8TILESCALEDMATMULPASS
#include "fp8/Conversion/Passes.h.inc"
} // namespace fp8
} // namespace mlir

using namespace mlir;
using namespace mlir::fp8;

namespace {

struct Tiler {
  ImplicitLocOpBuilder &b;
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value div(Value x, int64_t c) {
    return c == 1 ? x : Value(arith::DivUIOp::create(b, x, idx(c)));
  }
  Value min(Value x, Value y) { return arith::MinUIOp::create(b, x, y); }
  Value toF32(Value v) {
    Type f32 = b.getF32Type();
    if (v.getType() == f32)
      return v;
    return arith::ExtFOp::create(b, f32, v);
  }
};

/// scf.for with iter_args whose body is built by `body(iv, iterArgs)`
/// returning the values to yield.
scf::ForOp buildFor(ImplicitLocOpBuilder &b, Value lb, Value ub, Value step,
                    ValueRange init,
                    function_ref<SmallVector<Value>(Value, ValueRange)> body) {
  auto loop = scf::ForOp::create(b, lb, ub, step, init);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> yields =
      body(loop.getInductionVar(), loop.getRegionIterArgs());
  scf::YieldOp::create(b, yields);
  return loop;
}

LogicalResult tile(ScaledMatmulOp op, int64_t blockMOpt, int64_t blockN) {
  auto aTy = cast<ScaledTensorType>(op.getA().getType());
  auto bTy = cast<ScaledTensorType>(op.getB().getType());
  auto resTy = cast<RankedTensorType>(op.getResult().getType());
  if (llvm::any_of(aTy.getShape(), ShapedType::isDynamic) ||
      llvm::any_of(bTy.getShape(), ShapedType::isDynamic))
    return op.emitOpError("fp8-tile-scaled-matmul needs static shapes, got ")
           << aTy << ", " << bTy;
  if (!aTy.getScaleType().isF32() || !bTy.getScaleType().isF32())
    return op.emitOpError("fp8-tile-scaled-matmul needs f32 scales, got ")
           << aTy.getScaleType() << " (a), " << bTy.getScaleType() << " (b)";
  const int64_t M = aTy.getShape()[0], K = aTy.getShape()[1],
                N = bTy.getShape()[0];
  const int64_t I = op.getPromoteInterval();
  const int64_t blockM =
      blockMOpt > 0 ? blockMOpt : chooseGemmKernelConfig(M, N, K).blockM;
  ArrayRef<int64_t> ba = aTy.getBlockShape(), bb = bTy.getBlockShape();

  ImplicitLocOpBuilder b(op.getLoc(), op);
  Tiler t{b};
  Type f32 = b.getF32Type(), outElt = resTy.getElementType();
  auto aParts = DisassembleOp::create(b, op.getA());
  auto bParts = DisassembleOp::create(b, op.getB());
  Value aData = aParts.getData(), aScale = aParts.getScales();
  Value bData = bParts.getData(), bScale = bParts.getScales();
  Value c = op.getC();

  Value c0 = t.idx(0), c1 = t.idx(1);
  Value zero =
      arith::ConstantFloatOp::create(b, cast<FloatType>(f32), APFloat(0.0f));
  Value out = tensor::EmptyOp::create(b, resTy.getShape(), outElt);
  auto accTy = RankedTensorType::get({blockM, blockN}, f32);

  auto mLoop = buildFor(
      b, c0, t.idx(GemmKernelConfig::ceilDiv(M, blockM)), c1, {out},
      [&](Value mt, ValueRange outM) -> SmallVector<Value> {
        auto nLoop = buildFor(
            b, c0, t.idx(GemmKernelConfig::ceilDiv(N, blockN)), c1, outM,
            [&](Value nt, ValueRange outN) -> SmallVector<Value> {
              // The CTA tile and its valid extent (M/N tails).
              Value m0 = t.mul(mt, t.idx(blockM)),
                    n0 = t.mul(nt, t.idx(blockN));
              Value mSize =
                  t.min(t.idx(blockM), arith::SubIOp::create(b, t.idx(M), m0));
              Value nSize =
                  t.min(t.idx(blockN), arith::SubIOp::create(b, t.idx(N), n0));
              // Accumulator tile: C (as f32) or zeros.
              Value acc = tensor::EmptyOp::create(b, accTy.getShape(), f32);
              acc = buildFor(
                        b, c0, mSize, c1, {acc},
                        [&](Value i, ValueRange a1) {
                          return SmallVector<Value>{
                              buildFor(
                                  b, c0, nSize, c1, a1,
                                  [&](Value j, ValueRange a2) {
                                    Value init = zero;
                                    if (c)
                                      init = t.toF32(tensor::ExtractOp::create(
                                          b, c,
                                          ValueRange{t.add(m0, i),
                                                     t.add(n0, j)}));
                                    return SmallVector<Value>{
                                        tensor::InsertOp::create(
                                            b, init, a2[0], ValueRange{i, j})};
                                  })
                                  .getResult(0)};
                        })
                        .getResult(0);
              // K chunks: one promotion interval each.
              acc =
                  buildFor(
                      b, c0, t.idx(GemmKernelConfig::ceilDiv(K, I)), c1, {acc},
                      [&](Value kb, ValueRange accK) -> SmallVector<Value> {
                        Value k0 = t.mul(kb, t.idx(I));
                        Value k1 = t.min(t.add(k0, t.idx(I)), t.idx(K));
                        return {
                            buildFor(
                                b, c0, mSize, c1, accK,
                                [&](Value i, ValueRange a1) {
                                  Value m = t.add(m0, i);
                                  // Per-row A scale (what each GPU thread
                                  // fetches for the rows of its fragment).
                                  Value sa = tensor::ExtractOp::create(
                                      b, aScale,
                                      ValueRange{t.div(m, ba[0]),
                                                 t.div(k0, ba[1])});
                                  return SmallVector<Value>{
                                      buildFor(
                                          b, c0, nSize, c1, a1,
                                          [&](Value j, ValueRange a2) {
                                            Value n = t.add(n0, j);
                                            // Per-column B scale block: a tile
                                            // may straddle two when BLOCK_N is
                                            // not a multiple of 128.
                                            Value sb =
                                                tensor::ExtractOp::create(
                                                    b, bScale,
                                                    ValueRange{
                                                        t.div(n, bb[0]),
                                                        t.div(k0, bb[1])});
                                            // The tensor-core partial of this
                                            // chunk (a sequential f32 sum in
                                            // increasing k here).
                                            Value partial =
                                                buildFor(
                                                    b, k0, k1, c1, {zero},
                                                    [&](Value k, ValueRange p) {
                                                      Value x = t.toF32(
                                                          tensor::ExtractOp::
                                                              create(
                                                                  b, aData,
                                                                  ValueRange{
                                                                      m, k}));
                                                      Value y = t.toF32(
                                                          tensor::ExtractOp::
                                                              create(
                                                                  b, bData,
                                                                  ValueRange{
                                                                      n, k}));
                                                      Value prod =
                                                          arith::MulFOp::create(
                                                              b, x, y);
                                                      return SmallVector<Value>{
                                                          arith::AddFOp::create(
                                                              b, p[0], prod)};
                                                    })
                                                    .getResult(0);
                                            // Promotion: acc = fma(partial, sa
                                            // * sb, acc).
                                            Value s = arith::MulFOp::create(
                                                b, sa, sb);
                                            Value old =
                                                tensor::ExtractOp::create(
                                                    b, a2[0], ValueRange{i, j});
                                            Value nu = math::FmaOp::create(
                                                b, partial, s, old);
                                            return SmallVector<Value>{
                                                tensor::InsertOp::create(
                                                    b, nu, a2[0],
                                                    ValueRange{i, j})};
                                          })
                                          .getResult(0)};
                                })
                                .getResult(0)};
                      })
                      .getResult(0);
              // Epilogue: the valid part of the tile, rounded to the result
              // type.
              Value res =
                  buildFor(b, c0, mSize, c1, outN, [&](Value i, ValueRange o1) {
                    return SmallVector<Value>{
                        buildFor(
                            b, c0, nSize, c1, o1,
                            [&](Value j, ValueRange o2) {
                              Value v = tensor::ExtractOp::create(
                                  b, acc, ValueRange{i, j});
                              if (outElt != f32)
                                v = arith::TruncFOp::create(b, outElt, v);
                              return SmallVector<Value>{
                                  tensor::InsertOp::create(
                                      b, v, o2[0],
                                      ValueRange{t.add(m0, i), t.add(n0, j)})};
                            })
                            .getResult(0)};
                  }).getResult(0);
              return {res};
            });
        return {nLoop.getResult(0)};
      });
  op.getResult().replaceAllUsesWith(mLoop.getResult(0));
  op.erase();
  return success();
}

struct FP8TileScaledMatmulPass
    : public fp8::impl::FP8TileScaledMatmulPassBase<FP8TileScaledMatmulPass> {
  using Base::Base;
  // Options are checked before any IR is touched (no module dump), naming
  // the option, the bad value and what is expected.
  LogicalResult initialize(MLIRContext *ctx) override {
    if (blockN <= 0)
      return emitError(UnknownLoc::get(ctx))
             << "fp8-tile-scaled-matmul: option block-n="
             << static_cast<int64_t>(blockN)
             << " is invalid: expected a positive tile width";
    if (blockM < 0)
      return emitError(UnknownLoc::get(ctx))
             << "fp8-tile-scaled-matmul: option block-m="
             << static_cast<int64_t>(blockM)
             << " is invalid: expected 0 (the GPU kernel's choice) or a "
                "positive tile height";
    return success();
  }
  void runOnOperation() override {
    SmallVector<ScaledMatmulOp> ops;
    getOperation().walk([&](ScaledMatmulOp op) { ops.push_back(op); });
    for (ScaledMatmulOp op : ops)
      if (failed(tile(op, blockM, blockN)))
        return signalPassFailure();
  }
};

} // namespace
