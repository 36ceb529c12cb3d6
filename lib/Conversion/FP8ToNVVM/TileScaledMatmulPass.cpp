//===- TileScaledMatmulPass.cpp - fp8-tile-scaled-matmul ------------------===//
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

/// The loop nest of one fp8.scaled_matmul: CTA tiles (M, N), K chunks of one
/// promotion interval, the chunk's rows and columns, its partial sum.
struct TileSchedule {
  ImplicitLocOpBuilder &b;
  Tiler t;
  int64_t M, N, K, interval, blockM, blockN;
  ArrayRef<int64_t> aBlock, bBlock;
  Type f32, outElt;
  Value aData, aScale, bData, bScale, c;
  Value c0, c1, zero;
  RankedTensorType accTy;

  /// The CTA tile (mt, nt): its first row and column and its valid extent
  /// (M/N tails).
  struct CtaTile {
    Value m0, n0, mSize, nSize;
  };

  /// `out` with the tile (mt, nt) stored.
  Value emitTile(Value mt, Value nt, Value out);
  /// The accumulator tile: C (as f32) or zeros.
  Value emitAccumulatorInit(const CtaTile &tile);
  /// K chunks: one promotion interval each.
  Value emitKChunks(const CtaTile &tile, Value acc);
  /// Row i of the tile in chunk [k0, k1).
  Value emitChunkRow(const CtaTile &tile, Value k0, Value k1, Value i,
                     Value acc);
  /// The tensor-core partial of element (m, n) in chunk [k0, k1) (a
  /// sequential f32 sum in increasing k here).
  Value emitPartial(Value m, Value n, Value k0, Value k1);
  /// Epilogue: the valid part of the tile, rounded to the result type.
  Value emitStore(const CtaTile &tile, Value acc, Value out);
};

Value TileSchedule::emitTile(Value mt, Value nt, Value out) {
  CtaTile tile;
  tile.m0 = t.mul(mt, t.idx(blockM));
  tile.n0 = t.mul(nt, t.idx(blockN));
  // One op per statement, in the order the nested forms were built.
  Value mLeft = arith::SubIOp::create(b, t.idx(M), tile.m0);
  tile.mSize = t.min(t.idx(blockM), mLeft);
  Value nLeft = arith::SubIOp::create(b, t.idx(N), tile.n0);
  tile.nSize = t.min(t.idx(blockN), nLeft);
  Value acc = emitAccumulatorInit(tile);
  acc = emitKChunks(tile, acc);
  return emitStore(tile, acc, out);
}

Value TileSchedule::emitAccumulatorInit(const CtaTile &tile) {
  Value acc = tensor::EmptyOp::create(b, accTy.getShape(), f32);
  return buildFor(b, c0, tile.mSize, c1, {acc},
                  [&](Value i, ValueRange a1) {
                    return SmallVector<Value>{
                        buildFor(b, c0, tile.nSize, c1, a1,
                                 [&](Value j, ValueRange a2) {
                                   Value init = zero;
                                   if (c)
                                     init = t.toF32(tensor::ExtractOp::create(
                                         b, c,
                                         ValueRange{t.add(tile.m0, i),
                                                    t.add(tile.n0, j)}));
                                   return SmallVector<Value>{
                                       tensor::InsertOp::create(
                                           b, init, a2[0], ValueRange{i, j})};
                                 })
                            .getResult(0)};
                  })
      .getResult(0);
}

Value TileSchedule::emitKChunks(const CtaTile &tile, Value acc) {
  return buildFor(b, c0, t.idx(GemmKernelConfig::ceilDiv(K, interval)), c1,
                  {acc},
                  [&](Value kb, ValueRange accK) -> SmallVector<Value> {
                    Value k0 = t.mul(kb, t.idx(interval));
                    Value kEnd = t.idx(K);
                    Value k1 = t.min(t.add(k0, t.idx(interval)), kEnd);
                    return {buildFor(b, c0, tile.mSize, c1, accK,
                                     [&](Value i, ValueRange a1) {
                                       return SmallVector<Value>{emitChunkRow(
                                           tile, k0, k1, i, a1[0])};
                                     })
                                .getResult(0)};
                  })
      .getResult(0);
}

Value TileSchedule::emitChunkRow(const CtaTile &tile, Value k0, Value k1,
                                 Value i, Value acc) {
  Value m = t.add(tile.m0, i);
  // Per-row A scale (what each GPU thread fetches for the rows of its
  // fragment).
  Value sa = tensor::ExtractOp::create(
      b, aScale, ValueRange{t.div(m, aBlock[0]), t.div(k0, aBlock[1])});
  return buildFor(b, c0, tile.nSize, c1, {acc},
                  [&](Value j, ValueRange a2) {
                    Value n = t.add(tile.n0, j);
                    // Per-column B scale block: a tile may straddle two when
                    // BLOCK_N is not a multiple of 128.
                    Value sb = tensor::ExtractOp::create(
                        b, bScale,
                        ValueRange{t.div(n, bBlock[0]), t.div(k0, bBlock[1])});
                    Value partial = emitPartial(m, n, k0, k1);
                    // Promotion: acc = fma(partial, sa * sb, acc).
                    Value s = arith::MulFOp::create(b, sa, sb);
                    Value old =
                        tensor::ExtractOp::create(b, a2[0], ValueRange{i, j});
                    Value nu = math::FmaOp::create(b, partial, s, old);
                    return SmallVector<Value>{tensor::InsertOp::create(
                        b, nu, a2[0], ValueRange{i, j})};
                  })
      .getResult(0);
}

Value TileSchedule::emitPartial(Value m, Value n, Value k0, Value k1) {
  return buildFor(b, k0, k1, c1, {zero},
                  [&](Value k, ValueRange p) {
                    Value x = t.toF32(
                        tensor::ExtractOp::create(b, aData, ValueRange{m, k}));
                    Value y = t.toF32(
                        tensor::ExtractOp::create(b, bData, ValueRange{n, k}));
                    Value prod = arith::MulFOp::create(b, x, y);
                    return SmallVector<Value>{
                        arith::AddFOp::create(b, p[0], prod)};
                  })
      .getResult(0);
}

Value TileSchedule::emitStore(const CtaTile &tile, Value acc, Value out) {
  return buildFor(
             b, c0, tile.mSize, c1, {out},
             [&](Value i, ValueRange o1) {
               return SmallVector<Value>{
                   buildFor(
                       b, c0, tile.nSize, c1, o1,
                       [&](Value j, ValueRange o2) {
                         Value v = tensor::ExtractOp::create(b, acc,
                                                             ValueRange{i, j});
                         if (outElt != f32)
                           v = arith::TruncFOp::create(b, outElt, v);
                         return SmallVector<Value>{tensor::InsertOp::create(
                             b, v, o2[0],
                             ValueRange{t.add(tile.m0, i), t.add(tile.n0, j)})};
                       })
                       .getResult(0)};
             })
      .getResult(0);
}

LogicalResult tile(ScaledMatmulOp op, int64_t blockMOpt, int64_t blockN) {
  auto aTy = cast<ScaledTensorType>(op.getA().getType());
  auto bTy = cast<ScaledTensorType>(op.getB().getType());
  auto resTy = cast<RankedTensorType>(op.getResult().getType());
  if (llvm::any_of(aTy.getShape(), ShapedType::isDynamic) ||
      llvm::any_of(bTy.getShape(), ShapedType::isDynamic))
    return op.emitOpError("fp8-tile-scaled-matmul needs static shapes, got ")
           << aTy << ", " << bTy;
  // The schedule has one accumulator per tile: the split-K form's partial
  // tiles and their reduction are not modelled here.
  if (op.getKSplits() != 1)
    return op.emitOpError("fp8-tile-scaled-matmul does not model split-K, "
                          "got k_splits = ")
           << op.getKSplits();
  if (!aTy.getScaleType().isF32() || !bTy.getScaleType().isF32())
    return op.emitOpError("fp8-tile-scaled-matmul needs f32 scales, got ")
           << aTy.getScaleType() << " (a), " << bTy.getScaleType() << " (b)";
  ImplicitLocOpBuilder b(op.getLoc(), op);
  TileSchedule s{b, Tiler{b}};
  s.M = aTy.getShape()[0];
  s.K = aTy.getShape()[1];
  s.N = bTy.getShape()[0];
  s.interval = op.getPromoteInterval();
  // A tile past the problem rounded up to 128 computes what that one does:
  // clamped, so that the accumulator's static [BLOCK_M, BLOCK_N] shape
  // stays near the problem's size (an option near INT64_MAX would size it
  // past any memory). The kernel's own tiles are never clamped.
  auto clampTile = [](int64_t tile, int64_t extent) {
    return std::min(
        tile, GemmKernelConfig::roundUp(std::max<int64_t>(extent, 1), 128));
  };
  s.blockM = clampTile(
      blockMOpt > 0 ? blockMOpt : chooseGemmKernelConfig(s.M, s.N, s.K).blockM,
      s.M);
  s.blockN = clampTile(blockN, s.N);
  s.aBlock = aTy.getBlockShape();
  s.bBlock = bTy.getBlockShape();
  s.f32 = b.getF32Type();
  s.outElt = resTy.getElementType();
  auto aParts = DisassembleOp::create(b, op.getA());
  auto bParts = DisassembleOp::create(b, op.getB());
  s.aData = aParts.getData();
  s.aScale = aParts.getScales();
  s.bData = bParts.getData();
  s.bScale = bParts.getScales();
  s.c = op.getC();

  s.c0 = s.t.idx(0);
  s.c1 = s.t.idx(1);
  s.zero =
      arith::ConstantFloatOp::create(b, cast<FloatType>(s.f32), APFloat(0.0f));
  Value out = tensor::EmptyOp::create(b, resTy.getShape(), s.outElt);
  s.accTy = RankedTensorType::get({s.blockM, s.blockN}, s.f32);

  auto mLoop = buildFor(
      b, s.c0, s.t.idx(GemmKernelConfig::ceilDiv(s.M, s.blockM)), s.c1, {out},
      [&](Value mt, ValueRange outM) -> SmallVector<Value> {
        auto nLoop = buildFor(
            b, s.c0, s.t.idx(GemmKernelConfig::ceilDiv(s.N, s.blockN)), s.c1,
            outM, [&](Value nt, ValueRange outN) -> SmallVector<Value> {
              return {s.emitTile(mt, nt, outN[0])};
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
