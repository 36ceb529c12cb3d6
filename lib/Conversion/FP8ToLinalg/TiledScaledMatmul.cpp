//===- TiledScaledMatmul.cpp - register-tiled exact fp8.scaled_matmul -----===//
//
// The fast CPU form of fp8.scaled_matmul (option `tiled` of
// fp8-lower-to-linalg). It computes, bit for bit, what the reference
// generics compute (docs/performance.md, "The tiled scaled_matmul kernel"):
//
// - Exact sums: each output's promotion-interval partial is a sum in
//   increasing k starting from +0.0. The kernel forms it with
//   `fma(a, b, partial)` where the reference has `partial + a * b`: the
//   product of two FP8 values is exact in f32 (at most 4 x 4 significant
//   bits, exponents within [-32, 32]), so both round once, the same sum
//   (vector.fma becomes llvm.fmuladd: fused or not, the same value).
//   Nothing is re-associated: the kernel is vectorised over N (one lane per
//   output column) and the k loop stays sequential per lane.
// - An emulated tensor-core accumulator (accumulator-bits=N, sm90, sm89):
//   the reference's per-group integer alignment and truncation, written
//   on vectors: every operation is element-wise, so each lane computes its
//   output's partial in the same k order.
// - Promotion is `acc = fma(partial, sa * sb, acc)` per interval, in order,
//   starting from C (or 0), as in the reference; the result is rounded to
//   its element type by the same arith.truncf, lane by lane.
//
// The codes are decoded once per call, through a 256-entry table of the
// reference decode, into packed f32 panels (A as [M/MR, K, MR], B as
// [N/NR, K, NR], one scf.forall iteration per panel), so that a k step of a
// tile reads MR and NR consecutive f32; rows and columns are padded to the
// register tile by repeating the last one, whose (discarded) outputs do not
// touch the real ones. Then one scf.forall over chunks of 128 x 96 outputs
// (threads: fp8-cpu-pipeline{threads}) runs, per chunk, every promotion
// interval in increasing order over the chunk's register tiles, with the
// chunk's accumulator in a private buffer, and writes the chunk's rounded
// outputs (with `storeElementType` f32, the fused form of an arith.extf of
// the result: each rounded output widened, exactly, as it is stored into an
// f32 result): one parallel region for the product, whatever K (one per
// interval cost small K shapes their time in fork/join and in passes over
// the whole accumulator).
// fp8-lower-to-linalg emits the kernel once per signature, as a private
// function that every scaled_matmul with that signature calls
// (callTiledScaledMatmul), so that the module does not grow by a kernel per
// GEMM.
//
//===----------------------------------------------------------------------===//
#include "TiledScaledMatmul.h"
#include "SharedKernel.h"
#include "SignificantBits.h"
#include "WideningUse.h"
#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
namespace tensorcore = mlir::fp8::tensorcore;

/// An f32 tensor of `sizes` whose element at indices `ivs` is `body(ivs)`.
static Value
generate(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
         function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = sizes.size();
  Value init = tensor::EmptyOp::create(b, loc, sizes, b.getF32Type());
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{}, init,
             ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nl, ValueRange) {
               SmallVector<Value> ivs;
               for (int64_t d = 0; d < rank; ++d)
                 ivs.push_back(linalg::IndexOp::create(nb, nl, d));
               linalg::YieldOp::create(nb, nl, body(nb, nl, ivs));
             })
      .getResult(0);
}

/// i * c + j.
static Value linearIndex(OpBuilder &b, Location loc, Value i, int64_t c,
                         Value j) {
  return arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, i,
                            arith::ConstantIndexOp::create(b, loc, c)),
      j);
}

/// min(i, size - 1): the padding rows/columns repeat the last real one.
static Value clampIndex(OpBuilder &b, Location loc, Value i, Value size) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  return arith::MinSIOp::create(b, loc, i,
                                arith::SubIOp::create(b, loc, size, one));
}

static Value floorDivConst(OpBuilder &b, Location loc, Value i, int64_t d) {
  if (d == 1)
    return i;
  return arith::DivUIOp::create(b, loc, i,
                                arith::ConstantIndexOp::create(b, loc, d));
}

/// The f32 value of each of the 256 codes of `fp8Type` (tensor<256xf32>),
/// by createFP8ToF32, the reference's decode: a table lookup is the same
/// value, for a fraction of the integer work per element.
static Value decodeTable(OpBuilder &b, Location loc, Type fp8Type) {
  return generate(
      b, loc, {b.getIndexAttr(256)},
      [&](OpBuilder &nb, Location nl, ValueRange iv) {
        Value bits = arith::IndexCastOp::create(nb, nl, nb.getI8Type(), iv[0]);
        Value code = arith::BitcastOp::create(nb, nl, fp8Type, bits);
        return fp8::createFP8ToF32(nb, nl, code);
      });
}

/// f32 panels [tiles, K, R] of `codes` [size, K]: element (p, k, j) is the
/// decoded code at row min(p * R + j, size - 1) and column k. One
/// scf.forall iteration per panel (threads: fp8-cpu-pipeline).
static Value packPanels(OpBuilder &b, Location loc, Value codes,
                        OpFoldResult tiles, OpFoldResult kSize, int64_t r,
                        Value size) {
  Type fp8Type = cast<RankedTensorType>(codes.getType()).getElementType();
  Value table = decodeTable(b, loc, fp8Type);
  Value init = tensor::EmptyOp::create(
      b, loc, ArrayRef<OpFoldResult>{tiles, kSize, b.getIndexAttr(r)},
      b.getF32Type());
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1), kSize,
                                     b.getIndexAttr(r)};
  SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{tiles}, ValueRange{init},
      /*mapping=*/std::nullopt,
      [&](OpBuilder &fb, Location fl, ValueRange args) {
        Value p = args[0];
        SmallVector<OpFoldResult> offsets = {p, fb.getIndexAttr(0),
                                             fb.getIndexAttr(0)};
        Value slice = tensor::ExtractSliceOp::create(fb, fl, args[1], offsets,
                                                     sizes, strides);
        auto sliceType = cast<RankedTensorType>(slice.getType());
        // Loops (0, k, j), j innermost: the panel is written in order (a
        // k-innermost order would store with a stride of R f32, one cache
        // line per store, and evict the panel from L1 between rows: 2.5 ns
        // per element instead of under 1); the R code rows read in turn
        // stay in L1 for 64 consecutive k.
        Value panel =
            linalg::GenericOp::create(
                fb, fl, sliceType, ValueRange{}, slice,
                ArrayRef<AffineMap>{fb.getMultiDimIdentityMap(3)},
                SmallVector<utils::IteratorType>(3,
                                                 utils::IteratorType::parallel),
                [&](OpBuilder &nb, Location nl, ValueRange) {
                  Value k = linalg::IndexOp::create(nb, nl, 1);
                  Value j = linalg::IndexOp::create(nb, nl, 2);
                  Value row =
                      clampIndex(nb, nl, linearIndex(nb, nl, p, r, j), size);
                  Value code = tensor::ExtractOp::create(nb, nl, codes,
                                                         ValueRange{row, k});
                  Value bits =
                      arith::BitcastOp::create(nb, nl, nb.getI8Type(), code);
                  Value idx = arith::IndexCastUIOp::create(
                      nb, nl, nb.getIndexType(), bits);
                  linalg::YieldOp::create(nb, nl,
                                          ValueRange{tensor::ExtractOp::create(
                                              nb, nl, table, ValueRange{idx})});
                })
                .getResult(0);
        auto inParallel = scf::InParallelOp::create(fb, fl);
        OpBuilder::InsertionGuard guard(fb);
        fb.setInsertionPointToStart(inParallel.getBody());
        tensor::ParallelInsertSliceOp::create(fb, fl, panel, args[1], offsets,
                                              sizes, strides);
      });
  return forall.getResult(0);
}

//===----------------------------------------------------------------------===//
// The emulated tensor-core accumulator on vectors
//===----------------------------------------------------------------------===//
//
// The arithmetic of the reference's emulatePartial (LowerToLinalg.cpp) and
// of tensorcore::accumulateGroup, written once more for vectors of outputs:
// every operation is element-wise (integer alignment, truncation toward
// zero, the f32 sum kept for Inf/NaN), so each lane computes what the
// reference computes for its output, in the same k order.

namespace {
/// Builds the element-wise operations on vectors of `lanes` f32 / i32.
struct Lanes {
  OpBuilder &b;
  Location loc;
  VectorType f, i;

  Value c(int64_t x) const {
    return arith::ConstantOp::create(
        b, loc, i, DenseElementsAttr::get(i, APInt(32, x, /*isSigned=*/true)));
  }
  /// Biased exponent field of each f32 lane.
  Value expField(Value v) const {
    Value bits = arith::BitcastOp::create(b, loc, i, v);
    // One op per statement, in the order the nested forms were built.
    Value fieldMask = c(0xFF);
    Value shifted = arith::ShRUIOp::create(b, loc, bits, c(23));
    return arith::AndIOp::create(b, loc, shifted, fieldMask);
  }
  /// 2^(field - 127) from biased exponent fields in [1, 254].
  Value pow2(Value field) const {
    return arith::BitcastOp::create(
        b, loc, f, arith::ShLIOp::create(b, loc, field, c(23)));
  }
  /// The alignment field of the products p = a * w (0 for a zero product).
  Value alignmentField(Value a, Value w, Value p, Type aElt, Type bElt,
                       tensorcore::Alignment alignment) const {
    Value pe = expField(p);
    if (alignment == tensorcore::Alignment::ProductExponent)
      return pe;
    auto clamped = [&](Value v, Type elt) -> Value {
      auto format = isa<Float8E5M2Type>(elt) ? tensorcore::Fp8Format::E5M2
                                             : tensorcore::Fp8Format::E4M3FN;
      Value minField = c(127 + tensorcore::minNormalExponent(format));
      return arith::MaxUIOp::create(b, loc, expField(v), minField);
    };
    Value ea = clamped(a, aElt);
    Value eb = clamped(w, bElt);
    Value bias = c(127);
    Value sum = arith::SubIOp::create(
        b, loc, arith::AddIOp::create(b, loc, ea, eb), bias);
    Value isZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, pe, c(0));
    return arith::SelectOp::create(b, loc, isZero, c(0), sum);
  }
};
} // namespace

/// The emulated partials of the promotion interval [k0, k1) of several
/// vectors of outputs ("streams", independent: their dependency chains
/// interleave): `operands(k)` gives, per stream, the decoded A and B lanes
/// of step k.
static SmallVector<Value> emulateVectorPartials(
    OpBuilder &b, Location loc, int64_t streams,
    function_ref<SmallVector<std::pair<Value, Value>>(OpBuilder &, Location,
                                                      Value)>
        operands,
    Value k0, Value k1, Type aElt, Type bElt,
    const tensorcore::AccumulationModel &model, VectorType vecType) {
  VectorType iType = VectorType::get(vecType.getShape(), b.getI32Type());
  int64_t fracBits = model.fractionBits;
  Value group = arith::ConstantIndexOp::create(b, loc, model.groupSize);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zero = arith::ConstantOp::create(
      b, loc, vecType, DenseElementsAttr::get(vecType, APFloat(0.0f)));
  auto groups = scf::ForOp::create(
      b, loc, k0, k1, group, SmallVector<Value>(streams, zero),
      [&](OpBuilder &gb, Location gl, Value g0, ValueRange acc) {
        Lanes L{gb, gl, vecType, iType};
        Value g1 = arith::MinSIOp::create(
            gb, gl, arith::AddIOp::create(gb, gl, g0, group), k1);
        // Largest alignment exponent among the running partial and the
        // products of the group.
        SmallVector<Value> e0;
        for (Value v : acc)
          e0.push_back(L.expField(v));
        auto maxLoop = scf::ForOp::create(
            gb, gl, g0, g1, one, e0,
            [&](OpBuilder &lb, Location ll, Value k, ValueRange e) {
              Lanes LL{lb, ll, vecType, iType};
              SmallVector<std::pair<Value, Value>> ops = operands(lb, ll, k);
              SmallVector<Value> next;
              for (int64_t i = 0; i < streams; ++i) {
                auto [a, w] = ops[i];
                Value p = arith::MulFOp::create(lb, ll, a, w); // exact
                Value pe =
                    LL.alignmentField(a, w, p, aElt, bElt, model.alignment);
                next.push_back(arith::MaxUIOp::create(lb, ll, e[i], pe));
              }
              scf::YieldOp::create(lb, ll, next);
            });
        SmallVector<Value> inv, unit, sum0;
        for (int64_t i = 0; i < streams; ++i) {
          // Clamped as in the reference (scale factors stay normal f32).
          Value e =
              arith::MaxUIOp::create(gb, gl, maxLoop.getResult(i), L.c(64));
          inv.push_back(
              L.pow2(arith::SubIOp::create(gb, gl, L.c(254 + fracBits), e)));
          unit.push_back(
              L.pow2(arith::SubIOp::create(gb, gl, e, L.c(fracBits))));
        }
        auto toGrid = [&](OpBuilder &nb, Location nl, Value v,
                          int64_t i) -> Value {
          return arith::FPToSIOp::create(
              nb, nl, iType, arith::MulFOp::create(nb, nl, v, inv[i]));
        };
        for (int64_t i = 0; i < streams; ++i)
          sum0.push_back(toGrid(gb, gl, acc[i], i));
        for (int64_t i = 0; i < streams; ++i)
          sum0.push_back(acc[i]);
        // The grid sums (integers) and, alongside, the plain f32 sums.
        auto sumLoop = scf::ForOp::create(
            gb, gl, g0, g1, one, sum0,
            [&](OpBuilder &lb, Location ll, Value k, ValueRange s) {
              SmallVector<std::pair<Value, Value>> ops = operands(lb, ll, k);
              SmallVector<Value> grid, plain;
              for (int64_t i = 0; i < streams; ++i) {
                auto [a, w] = ops[i];
                Value p = arith::MulFOp::create(lb, ll, a, w);
                grid.push_back(
                    arith::AddIOp::create(lb, ll, s[i], toGrid(lb, ll, p, i)));
                plain.push_back(
                    arith::AddFOp::create(lb, ll, s[streams + i], p));
              }
              grid.append(plain);
              scf::YieldOp::create(lb, ll, grid);
            });
        SmallVector<Value> results;
        for (int64_t i = 0; i < streams; ++i) {
          Value sum = fp8::detail::truncateSignificant(
              gb, gl, sumLoop.getResult(i), model.resultBits);
          Value res = arith::MulFOp::create(
              gb, gl, arith::SIToFPOp::create(gb, gl, vecType, sum), unit[i]);
          // An Inf/NaN f32 sum is the result (NaN propagates as in the
          // exact path).
          Value plain = sumLoop.getResult(streams + i);
          Value plainBits = arith::BitcastOp::create(gb, gl, iType, plain);
          // One op per statement, in the order the nested form was built.
          Value expAllOnes = L.c(0x7F800000);
          Value expBits =
              arith::AndIOp::create(gb, gl, plainBits, L.c(0x7F800000));
          Value special = arith::CmpIOp::create(
              gb, gl, arith::CmpIPredicate::uge, expBits, expAllOnes);
          results.push_back(
              arith::SelectOp::create(gb, gl, special, plain, res));
        }
        scf::YieldOp::create(gb, gl, results);
      });
  return SmallVector<Value>(groups.getResults());
}

using fp8::detail::TiledScaledMatmulOperands;

namespace {
/// The register tile and the chunk of the kernel, fixed by the vector width.
struct TileGeometry {
  explicit TileGeometry(int64_t lanes)
      : lanes(lanes), tileRows(lanes >= 16 ? 8 : 4),
        tileCols(lanes * kTileVectors), emulatedRows(lanes >= 16 ? 2 : 1),
        chunkTilesM(128 / tileRows), chunkTilesN(96 / tileCols),
        chunkRows(chunkTilesM * tileRows), chunkCols(chunkTilesN * tileCols) {}

  /// Vectors of `lanes` f32 per row of the register tile. The register tile
  /// is tileRows x (kTileVectors vectors of `lanes` f32). With 8 lanes, 4 x
  /// 24 keeps the 12 partial vectors, 3 B vectors and one broadcast in the 16
  /// ymm registers of AVX2 (7 loads per 12 FMAs per k step); with 16 lanes,
  /// 8 x 48 uses 28 of the 32 zmm registers of AVX-512 (11 loads per 24
  /// FMAs).
  static constexpr int64_t kTileVectors = 3;
  int64_t lanes;    // f32 lanes of a vector
  int64_t tileRows; // rows of the register tile
  int64_t tileCols; // columns of the register tile
  /// Rows of the tile whose emulated accumulations run together: 2 x 3
  /// streams of 4 vectors of state fit the 32 zmm registers, 1 x 3 the 16
  /// ymm.
  int64_t emulatedRows;
  /// A thread's unit of work: a chunk of 128 rows x 96 columns (chunkTilesM
  /// x chunkTilesN register tiles), all intervals. Per interval its panels
  /// (128 x 128 and 96 x 128 f32) and accumulator (128 x 96 f32) take 160
  /// KiB, in L2; the chunks are small enough that 2 threads get balanced
  /// shares of the DeepSeek-V3 shapes (static schedule, every chunk costs
  /// about the same).
  int64_t chunkTilesM, chunkTilesN;
  int64_t chunkRows, chunkCols;
};

/// The output chunk of one scf.forall iteration: its register tiles
/// [tileM0, tileM1) x [tileN0, tileN1), its first output row0 x col0 and its
/// real rows x cols (fewer at the edges).
struct Chunk {
  Value tileM0, tileN0, tileM1, tileN1;
  Value row0, col0, rows, cols;
  Value zero, one; // index constants of the chunk's loops
};

/// One promotion interval [k0, k1) of a chunk: block kBlock of K.
struct Interval {
  Value kBlock, k0, k1;
  Value first; // i1: kBlock == 0 (the accumulator starts from +0.0)
};

/// One register tile (tileM, tileN) of a chunk: its first row and column in
/// the chunk (chunkRow, chunkCol) and in the result (row0, col0).
struct Tile {
  Value tileM, tileN;
  Value chunkRow, chunkCol, row0, col0;
};

/// Builds the kernel of one signature: the operands' sizes, packed panels
/// and scales, then one scf.forall over the chunks; inside, the intervals in
/// increasing order, then the chunk's tiles, then the rounded outputs. The
/// ops are created in the order of the text below.
class TiledKernelBuilder {
public:
  TiledKernelBuilder(OpBuilder &b, Location loc,
                     const TiledScaledMatmulOperands &op)
      : b(b), loc(loc), op(op), g(op.vectorLanes),
        vecType(VectorType::get({g.lanes}, b.getF32Type())),
        outElt(op.outElementType),
        storeElt(op.storeElementType ? op.storeElementType : outElt),
        chunkType(RankedTensorType::get({g.chunkRows, g.chunkCols},
                                        b.getF32Type())) {}

  Value build();

private:
  void prepareOperands();
  void buildChunk(OpBuilder &fb, Location fl, ValueRange args);
  Value initialAccumulator(OpBuilder &fb, Location fl, const Chunk &ch);
  Value buildInterval(OpBuilder &ib, Location il, const Chunk &ch, Value kb,
                      Value acc);
  Value buildTile(OpBuilder &tb, Location tl, const Chunk &ch,
                  const Interval &iv, Value mt, Value nt, Value acc);
  Value promote(OpBuilder &pb, Location pl, const Interval &iv,
                const Tile &tile, Value acc, Value r, Value v, Value partial);
  Value exactTile(OpBuilder &tb, Location tl, const Chunk &ch,
                  const Interval &iv, const Tile &tile, Value acc);
  Value emulatedTile(OpBuilder &tb, Location tl, const Chunk &ch,
                     const Interval &iv, const Tile &tile, Value acc);
  Value storeChunk(OpBuilder &fb, Location fl, const Chunk &ch, Value chunkAcc,
                   Value out);

  // Index arithmetic and whole-vector transfers (in bounds: the panels, the
  // scales and the chunk's accumulator are padded to whole tiles).
  Value cst(OpBuilder &nb, Location nl, int64_t v) const {
    return arith::ConstantIndexOp::create(nb, nl, v);
  }
  Value mul(OpBuilder &nb, Location nl, Value x, int64_t c) const {
    return arith::MulIOp::create(nb, nl, x, cst(nb, nl, c));
  }
  Value add(OpBuilder &nb, Location nl, Value x, Value y) const {
    return arith::AddIOp::create(nb, nl, x, y);
  }
  Value sub(OpBuilder &nb, Location nl, Value x, Value y) const {
    return arith::SubIOp::create(nb, nl, x, y);
  }
  Value minIdx(OpBuilder &nb, Location nl, Value x, Value y) const {
    return arith::MinSIOp::create(nb, nl, x, y);
  }
  Value read(OpBuilder &nb, Location nl, Value src, ValueRange ivs) const {
    auto type = VectorType::get(
        {g.lanes}, cast<RankedTensorType>(src.getType()).getElementType());
    Value pad = arith::ConstantOp::create(
        nb, nl, type.getElementType(), nb.getZeroAttr(type.getElementType()));
    return vector::TransferReadOp::create(nb, nl, type, src, ivs, pad,
                                          ArrayRef<bool>(inBounds));
  }
  Value write(OpBuilder &nb, Location nl, Value v, Value dst,
              ValueRange ivs) const {
    return vector::TransferWriteOp::create(nb, nl, v, dst, ivs,
                                           ArrayRef<bool>(inBounds))
        .getResult();
  }
  /// An output (f32 scalar or vector) as the kernel stores it: rounded to
  /// the result type and, for a fused widening of the result, widened back,
  /// with no rounded intermediate tensor and no second pass over it; a NaN
  /// rounds to the GPU's 0x7FFF.
  Value toStored(OpBuilder &nb, Location nl, Value v) const {
    return fp8::detail::createRoundedStoreValue(nb, nl, v, outElt, storeElt,
                                                /*canonicalNaN=*/true);
  }

  OpBuilder &b;
  Location loc;
  const TiledScaledMatmulOperands &op;
  const TileGeometry g;
  const VectorType vecType; // one vector of `g.lanes` f32
  const Type outElt, storeElt;
  const RankedTensorType chunkType; // the chunk's f32 accumulator
  const SmallVector<bool> inBounds = {true};

  // Built by prepareOperands.
  OpFoldResult mSize, kSize, nSize, kBlocks, mChunks, nChunks;
  Value mV, nV, kV, kBlocksV, mTilesV, nTilesV;
  Value packA, packB;   // [M tiles, K, tileRows], [N tiles, K, tileCols]
  Value scaleA, scaleB; // f32 [M padded, K blocks], [K blocks, N padded]
  Value zeroVec;
};
} // namespace

void TiledKernelBuilder::prepareOperands() {
  AffineExpr s0 = getAffineSymbolExpr(0, b.getContext());
  auto apply = [&](AffineExpr e, OpFoldResult v) {
    return affine::makeComposedFoldedAffineApply(b, loc, e, {v});
  };
  mSize = tensor::getMixedSize(b, loc, op.aCodes, 0);
  kSize = tensor::getMixedSize(b, loc, op.aCodes, 1);
  nSize = tensor::getMixedSize(b, loc, op.bCodes, 0);
  OpFoldResult mTiles = apply(s0.ceilDiv(g.tileRows), mSize);
  OpFoldResult nTiles = apply(s0.ceilDiv(g.tileCols), nSize);
  OpFoldResult mPad = apply(s0.ceilDiv(g.tileRows) * g.tileRows, mSize);
  OpFoldResult nPad = apply(s0.ceilDiv(g.tileCols) * g.tileCols, nSize);
  kBlocks = apply(s0.ceilDiv(op.interval), kSize);
  mChunks = apply(s0.ceilDiv(g.chunkRows), mSize);
  nChunks = apply(s0.ceilDiv(g.chunkCols), nSize);
  mV = getValueOrCreateConstantIndexOp(b, loc, mSize);
  nV = getValueOrCreateConstantIndexOp(b, loc, nSize);
  kV = getValueOrCreateConstantIndexOp(b, loc, kSize);
  kBlocksV = getValueOrCreateConstantIndexOp(b, loc, kBlocks);
  mTilesV = getValueOrCreateConstantIndexOp(b, loc, mTiles);
  nTilesV = getValueOrCreateConstantIndexOp(b, loc, nTiles);

  // Packed panels, decoded once per call: A as [M tiles, K, tileRows] and B
  // as [N tiles, K, tileCols], so that one k step of a tile reads tileRows
  // and tileCols consecutive f32 and one tile's panel is contiguous.
  packA = packPanels(b, loc, op.aCodes, mTiles, kSize, g.tileRows, mV);
  packB = packPanels(b, loc, op.bCodes, nTiles, kSize, g.tileCols, nV);
  // The f32 scale of each (row, interval) and (interval, column): the block
  // holding the interval's first k, as the reference's scale maps.
  auto scaleAt = [&](OpBuilder &nb, Location nl, Value scales,
                     ArrayRef<int64_t> block, Value row, Value kb) {
    Value k0 = arith::MulIOp::create(
        nb, nl, kb, arith::ConstantIndexOp::create(nb, nl, op.interval));
    Value s = tensor::ExtractOp::create(
        nb, nl, scales,
        ValueRange{floorDivConst(nb, nl, row, block[0]),
                   floorDivConst(nb, nl, k0, block[1])});
    return fp8::createScaleToF32(nb, nl, s);
  };
  scaleA = generate(b, loc, {mPad, kBlocks},
                    [&](OpBuilder &nb, Location nl, ValueRange iv) {
                      return scaleAt(nb, nl, op.aScales, op.aBlock,
                                     clampIndex(nb, nl, iv[0], mV), iv[1]);
                    });
  scaleB = generate(b, loc, {kBlocks, nPad},
                    [&](OpBuilder &nb, Location nl, ValueRange iv) {
                      return scaleAt(nb, nl, op.bScales, op.bBlock,
                                     clampIndex(nb, nl, iv[1], nV), iv[0]);
                    });
  zeroVec = arith::ConstantOp::create(
      b, loc, vecType, DenseElementsAttr::get(vecType, APFloat(0.0f)));
}

Value TiledKernelBuilder::build() {
  prepareOperands();
  // One parallel region per call: an scf.forall over the chunks; inside,
  // the intervals in increasing order (each output's promotions in order),
  // then the chunk's tiles (N outer, M inner: consecutive tiles share their
  // B panel); the accumulator of the chunk stays in a private buffer until
  // the last interval, then is rounded to the result type into the result.
  Value result = tensor::EmptyOp::create(
      b, loc, ArrayRef<OpFoldResult>{mSize, nSize}, storeElt);
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{nChunks, mChunks}, ValueRange{result},
      /*mapping=*/std::nullopt,
      [&](OpBuilder &fb, Location fl, ValueRange args) {
        buildChunk(fb, fl, args);
      });
  return forall.getResult(0);
}

void TiledKernelBuilder::buildChunk(OpBuilder &fb, Location fl,
                                    ValueRange args) {
  Value cn = args[0], cm = args[1], out = args[2];
  Chunk ch;
  ch.tileM0 = mul(fb, fl, cm, g.chunkTilesM);
  ch.tileN0 = mul(fb, fl, cn, g.chunkTilesN);
  ch.tileM1 = minIdx(fb, fl, add(fb, fl, ch.tileM0, cst(fb, fl, g.chunkTilesM)),
                     mTilesV);
  ch.tileN1 = minIdx(fb, fl, add(fb, fl, ch.tileN0, cst(fb, fl, g.chunkTilesN)),
                     nTilesV);
  ch.row0 = mul(fb, fl, cm, g.chunkRows);
  ch.col0 = mul(fb, fl, cn, g.chunkCols);
  ch.rows = minIdx(fb, fl, cst(fb, fl, g.chunkRows), sub(fb, fl, mV, ch.row0));
  ch.cols = minIdx(fb, fl, cst(fb, fl, g.chunkCols), sub(fb, fl, nV, ch.col0));
  ch.zero = cst(fb, fl, 0);
  ch.one = cst(fb, fl, 1);
  Value acc = initialAccumulator(fb, fl, ch);
  auto intervals = scf::ForOp::create(
      fb, fl, ch.zero, kBlocksV, ch.one, ValueRange{acc},
      [&](OpBuilder &ib, Location il, Value kb, ValueRange iter) {
        scf::YieldOp::create(ib, il, buildInterval(ib, il, ch, kb, iter[0]));
      });
  Value stored = storeChunk(fb, fl, ch, intervals.getResult(0), out);
  auto inParallel = scf::InParallelOp::create(fb, fl);
  OpBuilder::InsertionGuard guard(fb);
  fb.setInsertionPointToStart(inParallel.getBody());
  SmallVector<OpFoldResult> offsets = {ch.row0, ch.col0};
  SmallVector<OpFoldResult> sizes = {ch.rows, ch.cols};
  SmallVector<OpFoldResult> strides(2, fb.getIndexAttr(1));
  tensor::ParallelInsertSliceOp::create(fb, fl, stored, out, offsets, sizes,
                                        strides);
}

/// The chunk's accumulator starts from C (f32; padding rows and columns
/// repeat the last real one) or, at the first interval, from +0.0 (no buffer
/// to fill; with a run-time K, which may be 0, filled with +0.0).
Value TiledKernelBuilder::initialAccumulator(OpBuilder &fb, Location fl,
                                             const Chunk &ch) {
  Value acc =
      tensor::EmptyOp::create(fb, fl, chunkType.getShape(), b.getF32Type());
  // A K known only at run time may be 0: no interval then writes the
  // accumulator, so it starts as +0.0 (a static K = 0 never gets here).
  if (!op.c && !getConstantIntValue(kSize))
    return linalg::FillOp::create(fb, fl,
                                  ValueRange{arith::ConstantOp::create(
                                      fb, fl, fb.getF32FloatAttr(0.0f))},
                                  ValueRange{acc})
        .getResult(0);
  if (!op.c)
    return acc;
  return generate(
      fb, fl, {fb.getIndexAttr(g.chunkRows), fb.getIndexAttr(g.chunkCols)},
      [&](OpBuilder &nb, Location nl, ValueRange iv) {
        return tensor::ExtractOp::create(
            nb, nl, op.c,
            ValueRange{clampIndex(nb, nl, add(nb, nl, ch.row0, iv[0]), mV),
                       clampIndex(nb, nl, add(nb, nl, ch.col0, iv[1]), nV)});
      });
}

/// One promotion interval over the chunk's tiles, N outer and M inner.
Value TiledKernelBuilder::buildInterval(OpBuilder &ib, Location il,
                                        const Chunk &ch, Value kb, Value acc) {
  Interval iv;
  iv.kBlock = kb;
  iv.k0 = mul(ib, il, kb, op.interval);
  iv.k1 = minIdx(ib, il, add(ib, il, iv.k0, cst(ib, il, op.interval)), kV);
  iv.first = arith::CmpIOp::create(ib, il, arith::CmpIPredicate::eq, kb,
                                   cst(ib, il, 0));
  auto nLoop = scf::ForOp::create(
      ib, il, ch.tileN0, ch.tileN1, ch.one, ValueRange{acc},
      [&](OpBuilder &nb, Location nl, Value nt, ValueRange nIter) {
        auto mLoop = scf::ForOp::create(
            nb, nl, ch.tileM0, ch.tileM1, ch.one, ValueRange{nIter[0]},
            [&](OpBuilder &tb, Location tl, Value mt, ValueRange mIter) {
              scf::YieldOp::create(tb, tl,
                                   buildTile(tb, tl, ch, iv, mt, nt, mIter[0]));
            });
        scf::YieldOp::create(nb, nl, mLoop.getResult(0));
      });
  return nLoop.getResult(0);
}

Value TiledKernelBuilder::buildTile(OpBuilder &tb, Location tl, const Chunk &ch,
                                    const Interval &iv, Value mt, Value nt,
                                    Value acc) {
  Tile tile;
  tile.tileM = mt;
  tile.tileN = nt;
  tile.chunkRow = mul(tb, tl, sub(tb, tl, mt, ch.tileM0), g.tileRows);
  tile.chunkCol = mul(tb, tl, sub(tb, tl, nt, ch.tileN0), g.tileCols);
  tile.row0 = mul(tb, tl, mt, g.tileRows);
  tile.col0 = mul(tb, tl, nt, g.tileCols);
  if (!op.accumulator)
    return exactTile(tb, tl, ch, iv, tile, acc);
  return emulatedTile(tb, tl, ch, iv, tile, acc);
}

/// Promotes one vector of partials of the tile (row r, vector v): acc =
/// fma(partial, sa * sb, acc), acc from +0.0 (or C) at the first interval;
/// math.fma (llvm.fma) is always fused, as the reference's promotion, and a
/// NaN result is the GPU's canonical NaN, as there.
Value TiledKernelBuilder::promote(OpBuilder &pb, Location pl,
                                  const Interval &iv, const Tile &tile,
                                  Value acc, Value r, Value v, Value partial) {
  Value col = mul(pb, pl, v, g.lanes);
  Value sb = read(pb, pl, scaleB, {iv.kBlock, add(pb, pl, tile.col0, col)});
  Value sa = tensor::ExtractOp::create(
      pb, pl, scaleA, ValueRange{add(pb, pl, tile.row0, r), iv.kBlock});
  Value sav = vector::BroadcastOp::create(pb, pl, vecType, sa);
  Value s = arith::MulFOp::create(pb, pl, sav, sb);
  Value row = add(pb, pl, tile.chunkRow, r);
  Value lcol = add(pb, pl, tile.chunkCol, col);
  Value old = read(pb, pl, acc, {row, lcol});
  if (!op.c)
    old = arith::SelectOp::create(pb, pl, iv.first, zeroVec, old);
  Value accV = fp8::createCanonicalNaNF32(
      pb, pl, math::FmaOp::create(pb, pl, partial, s, old));
  return write(pb, pl, accV, acc, {row, lcol});
}

/// The interval's exact partials, from +0.0, in increasing k, in tileRows x
/// kTileVectors registers, then their promotion.
Value TiledKernelBuilder::exactTile(OpBuilder &tb, Location tl, const Chunk &ch,
                                    const Interval &iv, const Tile &tile,
                                    Value acc) {
  const int64_t rowsN = g.tileRows, vectorsN = TileGeometry::kTileVectors;
  SmallVector<Value> zeros(rowsN * vectorsN, zeroVec);
  auto kLoop = scf::ForOp::create(
      tb, tl, iv.k0, iv.k1, ch.one, zeros,
      [&](OpBuilder &lb, Location ll, Value k, ValueRange p) {
        SmallVector<Value> bv;
        for (int64_t v = 0; v < vectorsN; ++v)
          bv.push_back(
              read(lb, ll, packB, {tile.tileN, k, cst(lb, ll, v * g.lanes)}));
        SmallVector<Value> next;
        for (int64_t r = 0; r < rowsN; ++r) {
          Value a = tensor::ExtractOp::create(
              lb, ll, packA, ValueRange{tile.tileM, k, cst(lb, ll, r)});
          Value av = vector::BroadcastOp::create(lb, ll, vecType, a);
          for (int64_t v = 0; v < vectorsN; ++v)
            next.push_back(
                vector::FMAOp::create(lb, ll, av, bv[v], p[r * vectorsN + v]));
        }
        scf::YieldOp::create(lb, ll, next);
      });
  for (int64_t r = 0; r < rowsN; ++r)
    for (int64_t v = 0; v < vectorsN; ++v)
      acc = promote(tb, tl, iv, tile, acc, cst(tb, tl, r), cst(tb, tl, v),
                    kLoop.getResult(r * vectorsN + v));
  return acc;
}

/// The emulated accumulator: its per-group state (max exponent, grid and f32
/// sums) of emulatedRows rows x kTileVectors vectors at a time, whose
/// dependency chains interleave, then their promotion.
Value TiledKernelBuilder::emulatedTile(OpBuilder &tb, Location tl,
                                       const Chunk &ch, const Interval &iv,
                                       const Tile &tile, Value acc) {
  const int64_t rowsN = g.emulatedRows, vectorsN = TileGeometry::kTileVectors;
  auto rLoop = scf::ForOp::create(
      tb, tl, ch.zero, cst(tb, tl, g.tileRows), cst(tb, tl, rowsN),
      ValueRange{acc},
      [&](OpBuilder &rb, Location rl, Value r, ValueRange rIt) {
        auto operands = [&](OpBuilder &ob, Location ol, Value k) {
          SmallVector<Value> bvs;
          for (int64_t v = 0; v < vectorsN; ++v)
            bvs.push_back(
                read(ob, ol, packB, {tile.tileN, k, cst(ob, ol, v * g.lanes)}));
          SmallVector<std::pair<Value, Value>> ops;
          for (int64_t i = 0; i < rowsN; ++i) {
            Value a = tensor::ExtractOp::create(
                ob, ol, packA,
                ValueRange{tile.tileM, k, add(ob, ol, r, cst(ob, ol, i))});
            Value av = vector::BroadcastOp::create(ob, ol, vecType, a);
            for (int64_t v = 0; v < vectorsN; ++v)
              ops.push_back({av, bvs[v]});
          }
          return ops;
        };
        SmallVector<Value> partials = emulateVectorPartials(
            rb, rl, rowsN * vectorsN, operands, iv.k0, iv.k1, op.aElementType,
            op.bElementType, *op.accumulator, vecType);
        Value rt = rIt[0];
        for (int64_t i = 0; i < rowsN; ++i)
          for (int64_t v = 0; v < vectorsN; ++v)
            rt = promote(rb, rl, iv, tile, rt, add(rb, rl, r, cst(rb, rl, i)),
                         cst(rb, rl, v), partials[i * vectorsN + v]);
        scf::YieldOp::create(rb, rl, rt);
      });
  return rLoop.getResult(0);
}

/// The chunk's real outputs, rounded to the result type (the reference's
/// element-wise arith.truncf, lane by lane; toStored): whole vectors, then
/// the columns left one by one.
Value TiledKernelBuilder::storeChunk(OpBuilder &fb, Location fl,
                                     const Chunk &ch, Value chunkAcc,
                                     Value out) {
  SmallVector<OpFoldResult> offsets = {ch.row0, ch.col0};
  SmallVector<OpFoldResult> sizes = {ch.rows, ch.cols};
  SmallVector<OpFoldResult> strides(2, fb.getIndexAttr(1));
  Value slice =
      tensor::ExtractSliceOp::create(fb, fl, out, offsets, sizes, strides);
  Value vecCols = mul(fb, fl, floorDivConst(fb, fl, ch.cols, g.lanes), g.lanes);
  auto rowLoop = scf::ForOp::create(
      fb, fl, ch.zero, ch.rows, ch.one, ValueRange{slice},
      [&](OpBuilder &rb, Location rl, Value i, ValueRange rIt) {
        auto vecLoop = scf::ForOp::create(
            rb, rl, ch.zero, vecCols, cst(rb, rl, g.lanes), ValueRange{rIt[0]},
            [&](OpBuilder &vb, Location vl, Value j, ValueRange vIt) {
              Value v = toStored(vb, vl, read(vb, vl, chunkAcc, {i, j}));
              scf::YieldOp::create(vb, vl, write(vb, vl, v, vIt[0], {i, j}));
            });
        auto tailLoop = scf::ForOp::create(
            rb, rl, vecCols, ch.cols, ch.one, ValueRange{vecLoop.getResult(0)},
            [&](OpBuilder &sb, Location sl, Value j, ValueRange sIt) {
              Value v = toStored(sb, sl,
                                 tensor::ExtractOp::create(sb, sl, chunkAcc,
                                                           ValueRange{i, j}));
              scf::YieldOp::create(
                  sb, sl,
                  tensor::InsertOp::create(sb, sl, v, sIt[0], ValueRange{i, j})
                      .getResult());
            });
        scf::YieldOp::create(rb, rl, tailLoop.getResult(0));
      });
  return rowLoop.getResult(0);
}

Value fp8::detail::buildTiledScaledMatmul(OpBuilder &b, Location loc,
                                          const TiledScaledMatmulOperands &op) {
  return TiledKernelBuilder(b, loc, op).build();
}

Value fp8::detail::callTiledScaledMatmul(OpBuilder &b, Location loc,
                                         ModuleOp module,
                                         const TiledScaledMatmulOperands &op) {
  SmallVector<Value> args = {op.aCodes, op.aScales, op.bCodes, op.bScales};
  if (op.c)
    args.push_back(op.c);
  // Everything the body depends on is in the name: the operand types (shape
  // and formats; a dynamic dimension prints as '?', and the body reads it at
  // run time), the block shapes, the interval, the vector width, the result
  // and stored element types and the accumulator model.
  std::string name = "__scaled_matmul_tiled";
  for (Value v : args)
    appendMangled(name, v.getType());
  for (ArrayRef<int64_t> block : {op.aBlock, op.bBlock})
    for (int64_t d : block)
      name += "_" + std::to_string(d);
  name += "_i" + std::to_string(op.interval) + "_l" +
          std::to_string(op.vectorLanes);
  appendMangled(name, op.outElementType);
  // A kernel that widens its rounded result as it stores it returns another
  // type: another function.
  if (op.storeElementType && op.storeElementType != op.outElementType) {
    name += "_store";
    appendMangled(name, op.storeElementType);
  }
  if (op.accumulator)
    name += "_acc" + std::to_string(op.accumulator->groupSize) + "_" +
            std::to_string(op.accumulator->fractionBits) + "_" +
            std::to_string(op.accumulator->resultBits) + "_" +
            std::to_string(static_cast<int>(op.accumulator->alignment));
  auto body = [&](OpBuilder &kb, Location kl, ValueRange arguments) {
    TiledScaledMatmulOperands inner = op;
    inner.aCodes = arguments[0];
    inner.aScales = arguments[1];
    inner.bCodes = arguments[2];
    inner.bScales = arguments[3];
    inner.c = op.c ? arguments[4] : Value();
    inner.aElementType = getElementTypeOrSelf(inner.aCodes.getType());
    inner.bElementType = getElementTypeOrSelf(inner.bCodes.getType());
    return SmallVector<Value>{buildTiledScaledMatmul(kb, kl, inner)};
  };
  return callSharedKernel(b, loc, module, name, args, body).front();
}
