//===- TiledQuantize.cpp - vectorised fp8.quantize / fp8.dequantize -------===//
//
// The fast CPU form of fp8.quantize and fp8.dequantize on rank-2 tensors
// (rank 1 and leading blocks of 1 through a rank-2 view; option `tiled` of
// fp8-lower-to-linalg). The reference generics index the
// scales by `floordiv` maps: an integer block index and a scalar conversion
// per element. Here the loops run per block, so that a block's scale is
// known once and its elements are converted on vectors:
//
// - scf.forall over chunks of whole block rows (about 64 rows; threads:
//   fp8-cpu-pipeline), then, per block, in the chunk's own slices of the
//   codes and scales:
// - amax: maximumf(acc, |x|) on vectors of `lanes` elements of each row of
//   the block (createAmaxUpdate, the reference's builder, on vectors; two
//   accumulators over pairs of vectors, then one), a
//   vector.reduction <maximumf>, then the row tails (columns past the last
//   whole vector) on scalars. maximumf is commutative and associative on
//   |x| (never -0) and returns NaN when any operand is NaN, so the amax is
//   the reference's whatever the order; a NaN amax gives the scale 1
//   whatever its payload (createDequantScale), so the scale is too;
// - the scale: createDequantScale + createScaleFromF32 on the scalar amax;
// - codes: createQuantizeElement (x / s, RNE, satfinite) on vectors with
//   the stored scale broadcast, the row tails on scalars: the builders are
//   element-wise, so each lane is the reference's code.
//
// Dequantize decodes the block's scale once and its codes on vectors
// (createFP8ToF32, the reference's decode), times the scale, rounded to the
// result type as the reference.
//
//===----------------------------------------------------------------------===//
#include "TiledQuantize.h"
#include "SharedKernel.h"
#include "WideningUse.h"
#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::detail;

namespace {
/// The rows and columns of one block, in its chunk's slices.
struct BlockBounds {
  Value row0, rows; // first row, number of valid rows
  Value col0, cols; // first column, number of valid columns
  Value fullCols;   // cols rounded down to whole vectors
};

/// The slice of a tensor that belongs to one chunk: of x's shape, or of the
/// block counts when `perBlock` is set.
using ChunkSlicer = function_ref<Value(Value tensor, bool perBlock)>;
/// What a chunk body computes: the new chunk slices of its results.
using ChunkBody = function_ref<SmallVector<Value>(
    OpBuilder &, Location, ChunkSlicer, ValueRange destSlices)>;
/// What a block body computes: the new values of the chunk slices.
using BlockBody =
    function_ref<SmallVector<Value>(OpBuilder &, Location, const BlockBounds &,
                                    Value bi, Value bj, ValueRange dests)>;
} // namespace

static Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

static Value minIdx(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::MinSIOp::create(b, loc, x, y);
}

/// The block count ceil(size / block) of each dimension.
static SmallVector<OpFoldResult> blockCounts(OpBuilder &b, Location loc,
                                             ArrayRef<OpFoldResult> sizes,
                                             ArrayRef<int64_t> block) {
  AffineExpr s0 = getAffineSymbolExpr(0, b.getContext());
  SmallVector<OpFoldResult> counts;
  for (auto [size, blk] : llvm::zip_equal(sizes, block))
    counts.push_back(
        affine::makeComposedFoldedAffineApply(b, loc, s0.ceilDiv(blk), {size}));
  return counts;
}

/// ceil(x / d) for a non-negative index x.
static Value ceilDivIdx(OpBuilder &b, Location loc, Value x, int64_t d) {
  Value t = arith::AddIOp::create(b, loc, x, cst(b, loc, d - 1));
  return arith::DivUIOp::create(b, loc, t, cst(b, loc, d));
}

/// One row of `src` at (row, col): a vector of `lanes` elements (in bounds:
/// the caller only reads whole vectors inside the block) or, with
/// lanes == 1, the scalar.
static Value load(OpBuilder &b, Location loc, Value src, Value row, Value col,
                  int64_t lanes) {
  if (lanes == 1)
    return tensor::ExtractOp::create(b, loc, src, ValueRange{row, col});
  Type elt = cast<RankedTensorType>(src.getType()).getElementType();
  return vector::TransferReadOp::create(
      b, loc, VectorType::get({lanes}, elt), src, ValueRange{row, col},
      /*padding=*/std::nullopt, ArrayRef<bool>{true});
}

static Value store(OpBuilder &b, Location loc, Value v, Value dest, Value row,
                   Value col) {
  if (!isa<VectorType>(v.getType()))
    return tensor::InsertOp::create(b, loc, v, dest, ValueRange{row, col});
  return vector::TransferWriteOp::create(b, loc, v, dest, ValueRange{row, col},
                                         ArrayRef<bool>{true})
      .getResult();
}

/// The block's rows, and in each the columns [begin, end) in steps of
/// `lanes`: body(row, col, iters) -> new iters.
static SmallVector<Value>
forBlockElements(OpBuilder &b, Location loc, const BlockBounds &blk,
                 Value begin, Value end, int64_t lanes, ValueRange inits,
                 function_ref<SmallVector<Value>(OpBuilder &, Location, Value,
                                                 Value, ValueRange)>
                     body) {
  // One op per statement, in the order the nested form was built.
  Value one = cst(b, loc, 1);
  Value zero = cst(b, loc, 0);
  auto rows = scf::ForOp::create(
      b, loc, zero, blk.rows, one, inits,
      [&](OpBuilder &rb, Location rl, Value r, ValueRange rIters) {
        Value row = arith::AddIOp::create(rb, rl, blk.row0, r);
        auto cols = scf::ForOp::create(
            rb, rl, begin, end, cst(rb, rl, lanes), rIters,
            [&](OpBuilder &cb, Location cl, Value c, ValueRange cIters) {
              Value col = arith::AddIOp::create(cb, cl, blk.col0, c);
              scf::YieldOp::create(cb, cl, body(cb, cl, row, col, cIters));
            });
        scf::YieldOp::create(rb, rl, cols.getResults());
      });
  return rows.getResults();
}

/// scf.forall over chunks of whole block rows of a rank-2 tensor of
/// `sizes`; each iteration runs `body` on its slices of `dests` (tensors of
/// that shape, or of its block counts when `perBlock` is set) and writes the
/// results in place (one parallel_insert_slice each). The body slices its
/// read-only operands itself.
static SmallVector<Value>
forEachChunk(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> shape,
             ArrayRef<int64_t> block, ValueRange dests, ArrayRef<bool> perBlock,
             ChunkBody body) {
  // About 64 rows per chunk, whole blocks: enough chunks to share among
  // threads, few enough that a chunk outweighs the loop's overhead.
  int64_t blocksPerChunk = std::max<int64_t>(1, 64 / block[0]);
  int64_t chunk = block[0] * blocksPerChunk;
  Value rowsTotal = getValueOrCreateConstantIndexOp(b, loc, shape[0]);
  Value chunks = ceilDivIdx(b, loc, rowsTotal, chunk);
  // The columns stay static where they are (constant loop bounds).
  AffineExpr s0 = getAffineSymbolExpr(0, b.getContext());
  OpFoldResult scols = affine::makeComposedFoldedAffineApply(
      b, loc, s0.ceilDiv(block[1]), {shape[1]});
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{chunks}, dests, /*mapping=*/std::nullopt,
      [&](OpBuilder &fb, Location fl, ValueRange args) {
        Value r0 = arith::MulIOp::create(fb, fl, args[0], cst(fb, fl, chunk));
        Value rowsLeft = arith::SubIOp::create(fb, fl, rowsTotal, r0);
        Value rows = minIdx(fb, fl, cst(fb, fl, chunk), rowsLeft);
        Value sr0 =
            arith::MulIOp::create(fb, fl, args[0], cst(fb, fl, blocksPerChunk));
        Value srows = ceilDivIdx(fb, fl, rows, block[0]);
        SmallVector<OpFoldResult> strides(2, fb.getIndexAttr(1));
        auto offsets = [&](bool blocks) -> SmallVector<OpFoldResult> {
          return {blocks ? sr0 : r0, fb.getIndexAttr(0)};
        };
        auto sizes = [&](bool blocks) -> SmallVector<OpFoldResult> {
          return {blocks ? OpFoldResult(srows) : OpFoldResult(rows),
                  blocks ? scols : shape[1]};
        };
        auto slice = [&](Value t, bool blocks) -> Value {
          return tensor::ExtractSliceOp::create(fb, fl, t, offsets(blocks),
                                                sizes(blocks), strides);
        };
        SmallVector<Value> slices;
        for (auto [dest, blocks] : llvm::zip_equal(args.drop_front(), perBlock))
          slices.push_back(slice(dest, blocks));
        SmallVector<Value> results = body(fb, fl, slice, slices);
        auto inParallel = scf::InParallelOp::create(fb, fl);
        OpBuilder::InsertionGuard guard(fb);
        fb.setInsertionPointToStart(inParallel.getBody());
        for (auto [res, dest, blocks] :
             llvm::zip_equal(results, args.drop_front(), perBlock))
          tensor::ParallelInsertSliceOp::create(
              fb, fl, res, dest, offsets(blocks), sizes(blocks), strides);
      });
  return forall.getResults();
}

/// The blocks of the chunk slice `xs` (rows of whole blocks, every
/// column), row of blocks by row of blocks: body(bounds, bi, bj, dests).
static SmallVector<Value> forEachBlock(OpBuilder &b, Location loc, Value xs,
                                       ArrayRef<int64_t> block, int64_t lanes,
                                       ValueRange dests, BlockBody body) {
  Value rows = tensor::DimOp::create(b, loc, xs, 0);
  Value cols = tensor::DimOp::create(b, loc, xs, 1);
  Value brows = ceilDivIdx(b, loc, rows, block[0]);
  Value bcols = ceilDivIdx(b, loc, cols, block[1]);
  Value c0 = cst(b, loc, 0);
  Value c1 = cst(b, loc, 1);
  auto outer = scf::ForOp::create(
      b, loc, c0, brows, c1, dests,
      [&](OpBuilder &ib, Location il, Value bi, ValueRange iIters) {
        auto inner = scf::ForOp::create(
            ib, il, c0, bcols, c1, iIters,
            [&](OpBuilder &jb, Location jl, Value bj, ValueRange jIters) {
              BlockBounds blk;
              blk.row0 =
                  arith::MulIOp::create(jb, jl, bi, cst(jb, jl, block[0]));
              Value rowsLeft = arith::SubIOp::create(jb, jl, rows, blk.row0);
              blk.rows = minIdx(jb, jl, cst(jb, jl, block[0]), rowsLeft);
              blk.col0 =
                  arith::MulIOp::create(jb, jl, bj, cst(jb, jl, block[1]));
              Value colsLeft = arith::SubIOp::create(jb, jl, cols, blk.col0);
              blk.cols = minIdx(jb, jl, cst(jb, jl, block[1]), colsLeft);
              blk.fullCols = arith::SubIOp::create(
                  jb, jl, blk.cols,
                  arith::RemUIOp::create(jb, jl, blk.cols, cst(jb, jl, lanes)));
              scf::YieldOp::create(jb, jl, body(jb, jl, blk, bi, bj, jIters));
            });
        scf::YieldOp::create(ib, il, inner.getResults());
      });
  return outer.getResults();
}

/// quantize of the rank-2 `x` into blocks `block` (2 sizes).
static std::pair<Value, Value> quantize2D(OpBuilder &b, Location loc, Value x,
                                          ArrayRef<int64_t> block, Type fp8Type,
                                          Type scaleType, QuantizeParams p,
                                          int64_t lanes) {
  Type f32 = b.getF32Type();
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, x);
  SmallVector<OpFoldResult> counts = blockCounts(b, loc, sizes, block);
  Value codesInit = tensor::EmptyOp::create(b, loc, sizes, fp8Type);
  Value scalesInit = tensor::EmptyOp::create(b, loc, counts, scaleType);
  auto vecOf = [&](Type elt) { return VectorType::get({lanes}, elt); };

  // One block of the chunk slice `xs`: dests = (codes, scales) slices.
  auto quantizeBlock = [&](Value xs, OpBuilder &nb, Location nl,
                           const BlockBounds &blk, Value bi, Value bj,
                           ValueRange dests) -> SmallVector<Value> {
    // 1. amax: whole vectors, reduced, then the row tails on scalars.
    Value zeroVec = arith::ConstantOp::create(
        nb, nl, vecOf(f32), DenseElementsAttr::get(vecOf(f32), APFloat(0.0f)));
    auto amaxOf = [&](int64_t width) {
      return [&, width](OpBuilder &eb, Location el, Value row, Value col,
                        ValueRange it) -> SmallVector<Value> {
        Value v = load(eb, el, xs, row, col, width);
        return {createAmaxUpdate(eb, el, it[0], v)};
      };
    };
    // Pairs of vectors into two accumulators first: one accumulator's
    // maximumf chain (compare, blend, NaN select) is several times longer
    // than a load.
    Value pairEnd = arith::SubIOp::create(
        nb, nl, blk.fullCols,
        arith::RemUIOp::create(nb, nl, blk.fullCols, cst(nb, nl, 2 * lanes)));
    SmallVector<Value> pair = forBlockElements(
        nb, nl, blk, cst(nb, nl, 0), pairEnd, 2 * lanes, {zeroVec, zeroVec},
        [&](OpBuilder &eb, Location el, Value row, Value col,
            ValueRange it) -> SmallVector<Value> {
          Value col1 = arith::AddIOp::create(eb, el, col, cst(eb, el, lanes));
          return {createAmaxUpdate(eb, el, it[0],
                                   load(eb, el, xs, row, col, lanes)),
                  createAmaxUpdate(eb, el, it[1],
                                   load(eb, el, xs, row, col1, lanes))};
        });
    Value vecAmax = forBlockElements(nb, nl, blk, pairEnd, blk.fullCols, lanes,
                                     pair[0], amaxOf(lanes))
                        .front();
    vecAmax = arith::MaximumFOp::create(nb, nl, vecAmax, pair[1]);
    Value amax = vector::ReductionOp::create(
        nb, nl, vector::CombiningKind::MAXIMUMF, vecAmax);
    amax = forBlockElements(nb, nl, blk, blk.fullCols, blk.cols, 1, amax,
                            amaxOf(1))
               .front();
    // 2. The block's scale, stored in its slot of the chunk's scales.
    Value s = createDequantScale(nb, nl, amax, p.eps, fp8Type, p.pow2);
    Value stored = createScaleFromF32(nb, nl, s, scaleType);
    Value scales =
        tensor::InsertOp::create(nb, nl, stored, dests[1], ValueRange{bi, bj});
    // 3. The codes, vectors then row tails.
    Value storedVec =
        vector::BroadcastOp::create(nb, nl, vecOf(scaleType), stored);
    auto codesOf = [&](int64_t width, Value scale) {
      return [&, width, scale](OpBuilder &eb, Location el, Value row, Value col,
                               ValueRange it) -> SmallVector<Value> {
        Value v = load(eb, el, xs, row, col, width);
        Value q = createQuantizeElement(eb, el, v, scale, fp8Type, p.saturate);
        return {store(eb, el, q, it[0], row, col)};
      };
    };
    Value codes = forBlockElements(nb, nl, blk, cst(nb, nl, 0), blk.fullCols,
                                   lanes, dests[0], codesOf(lanes, storedVec))
                      .front();
    codes = forBlockElements(nb, nl, blk, blk.fullCols, blk.cols, 1, codes,
                             codesOf(1, stored))
                .front();
    return {codes, scales};
  };

  SmallVector<Value> results =
      forEachChunk(b, loc, sizes, block, {codesInit, scalesInit}, {false, true},
                   [&](OpBuilder &fb, Location fl, ChunkSlicer slice,
                       ValueRange dests) -> SmallVector<Value> {
                     Value xs = slice(x, /*perBlock=*/false);
                     return forEachBlock(
                         fb, fl, xs, block, lanes, dests,
                         [&](OpBuilder &nb, Location nl, const BlockBounds &blk,
                             Value bi, Value bj, ValueRange it) {
                           return quantizeBlock(xs, nb, nl, blk, bi, bj, it);
                         });
                   });
  return {results[0], results[1]};
}

/// dequantize of the rank-2 (codes, scales) in blocks `block` (2 sizes),
/// rounded to `elt` and stored as `storeElt` (buildTiledDequantize).
static Value dequantize2D(OpBuilder &b, Location loc, Value codes, Value scales,
                          ArrayRef<int64_t> block, Type elt, Type storeElt,
                          int64_t lanes) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, codes);
  Value init = tensor::EmptyOp::create(b, loc, sizes, storeElt);
  auto dequantizeBlock = [&](Value cs, Value ss, OpBuilder &nb, Location nl,
                             const BlockBounds &blk, Value bi, Value bj,
                             Value out) -> Value {
    Value s = createScaleToF32(
        nb, nl, tensor::ExtractOp::create(nb, nl, ss, ValueRange{bi, bj}));
    Value sVec = vector::BroadcastOp::create(
        nb, nl, VectorType::get({lanes}, nb.getF32Type()), s);
    auto decodeOf = [&](int64_t width, Value scale) {
      return [&, width, scale](OpBuilder &eb, Location el, Value row, Value col,
                               ValueRange it) -> SmallVector<Value> {
        Value c = load(eb, el, cs, row, col, width);
        Value v =
            arith::MulFOp::create(eb, el, createFP8ToF32(eb, el, c), scale);
        return {store(
            eb, el,
            fp8::detail::createRoundedStoreValue(eb, el, v, elt, storeElt),
            it[0], row, col)};
      };
    };
    out = forBlockElements(nb, nl, blk, cst(nb, nl, 0), blk.fullCols, lanes,
                           out, decodeOf(lanes, sVec))
              .front();
    return forBlockElements(nb, nl, blk, blk.fullCols, blk.cols, 1, out,
                            decodeOf(1, s))
        .front();
  };
  return forEachChunk(b, loc, sizes, block, {init}, {false},
                      [&](OpBuilder &fb, Location fl, ChunkSlicer slice,
                          ValueRange dests) -> SmallVector<Value> {
                        Value cs = slice(codes, /*perBlock=*/false);
                        Value ss = slice(scales, /*perBlock=*/true);
                        return forEachBlock(
                            fb, fl, cs, block, lanes, dests,
                            [&](OpBuilder &nb, Location nl,
                                const BlockBounds &blk, Value bi, Value bj,
                                ValueRange it) -> SmallVector<Value> {
                              return {dequantizeBlock(cs, ss, nb, nl, blk, bi,
                                                      bj, it[0])};
                            });
                      })
      .front();
}

//===----------------------------------------------------------------------===//
// Other ranks, through rank 2
//===----------------------------------------------------------------------===//

/// The dimensions of a rank-n layout that become the rows of its rank-2
/// view (every dimension but the last), or nullopt when its blocks do not
/// allow one: the leading blocks must be 1, so that each row of the view is
/// one row of blocks. Rank 1 is viewed as one row; rank 0 (one element,
/// no dimension to tile) has no view and takes the untiled lowering.
static std::optional<SmallVector<ReassociationIndices>>
getRank2Grouping(ArrayRef<int64_t> block) {
  int64_t n = block.size();
  if (n == 0)
    return std::nullopt;
  if (n == 1)
    return SmallVector<ReassociationIndices>{{0, 1}};
  if (n == 2)
    return SmallVector<ReassociationIndices>{};
  for (int64_t d = 0; d + 1 < n; ++d)
    if (block[d] != 1)
      return std::nullopt;
  return SmallVector<ReassociationIndices>{
      llvm::to_vector(llvm::seq<int64_t>(0, n - 1)), {n - 1}};
}

bool fp8::detail::hasTiledQuantize(ScaledTensorType type) {
  return getRank2Grouping(type.getBlockShape()).has_value();
}

/// The blocks of the rank-2 view.
static SmallVector<int64_t, 2> getRank2Block(ArrayRef<int64_t> block) {
  if (block.size() == 1)
    return {1, block[0]};
  return {block.size() == 2 ? block[0] : 1, block.back()};
}

/// `v` (a tensor of the layout's rank) as its rank-2 view: free reshapes of
/// contiguous data.
static Value toRank2(OpBuilder &b, Location loc, Value v,
                     ArrayRef<ReassociationIndices> grouping) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getRank() == 2)
    return v;
  if (type.getRank() == 1) {
    auto view =
        RankedTensorType::get({1, type.getDimSize(0)}, type.getElementType());
    return tensor::ExpandShapeOp::create(
        b, loc, view, v, grouping,
        ArrayRef<OpFoldResult>{b.getIndexAttr(1),
                               tensor::getMixedSize(b, loc, v, 0)});
  }
  return tensor::CollapseShapeOp::create(b, loc, v, grouping);
}

/// The rank-2 view `v` back at `sizes` (the layout's rank).
static Value fromRank2(OpBuilder &b, Location loc, Value v,
                       ArrayRef<OpFoldResult> sizes,
                       ArrayRef<ReassociationIndices> grouping) {
  if (sizes.size() == 2)
    return v;
  SmallVector<int64_t> shape;
  for (OpFoldResult s : sizes)
    shape.push_back(getConstantIntValue(s).value_or(ShapedType::kDynamic));
  auto type = RankedTensorType::get(
      shape, cast<RankedTensorType>(v.getType()).getElementType());
  if (sizes.size() == 1)
    return tensor::CollapseShapeOp::create(b, loc, type, v, grouping);
  return tensor::ExpandShapeOp::create(b, loc, type, v, grouping, sizes);
}

/// The block shape in a shared kernel's name.
static void appendBlock(std::string &name, ArrayRef<int64_t> block) {
  name += "_b";
  for (int64_t d : block)
    name += "_" + std::to_string(d);
}

/// quantize2D of the rank-2 `x`, inline or, with a `module`, through a call
/// of the module's shared function of the same quantization.
static std::pair<Value, Value> quantizeRank2(OpBuilder &b, Location loc,
                                             ModuleOp module, Value x,
                                             ArrayRef<int64_t> block,
                                             ScaledTensorType type,
                                             QuantizeParams p, int64_t lanes) {
  Type fp8Type = type.getElementType();
  Type scaleType = type.getScaleType();
  if (!module)
    return quantize2D(b, loc, x, block, fp8Type, scaleType, p, lanes);
  // Everything the body depends on: x's type (a dynamic size is read at run
  // time), the blocks, the formats, eps (its bits), the scale mode,
  // saturation and the vector width.
  std::string name = "__quantize_tiled";
  appendMangled(name, x.getType());
  appendBlock(name, block);
  appendMangled(name, fp8Type);
  appendMangled(name, scaleType);
  name += "_eps" + llvm::utohexstr(llvm::bit_cast<uint64_t>(p.eps));
  name += p.pow2 ? "_pow2" : "_amax";
  name += p.saturate ? "_sat" : "_nosat";
  name += "_l" + std::to_string(lanes);
  auto body = [&](OpBuilder &kb, Location kl, ValueRange arguments) {
    auto [codes, scales] =
        quantize2D(kb, kl, arguments[0], block, fp8Type, scaleType, p, lanes);
    return SmallVector<Value>{codes, scales};
  };
  SmallVector<Value> r = callSharedKernel(b, loc, module, name, x, body);
  return {r[0], r[1]};
}

std::pair<Value, Value>
fp8::detail::buildTiledQuantize(OpBuilder &b, Location loc, Value x,
                                ScaledTensorType type, QuantizeParams p,
                                int64_t lanes, ModuleOp module) {
  ArrayRef<int64_t> block = type.getBlockShape();
  SmallVector<ReassociationIndices> grouping = *getRank2Grouping(block);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, x);
  SmallVector<OpFoldResult> counts = blockCounts(b, loc, sizes, block);
  auto [codes, scales] =
      quantizeRank2(b, loc, module, toRank2(b, loc, x, grouping),
                    getRank2Block(block), type, p, lanes);
  return {fromRank2(b, loc, codes, sizes, grouping),
          fromRank2(b, loc, scales, counts, grouping)};
}

/// dequantize2D of the rank-2 (codes, scales), inline or, with a `module`,
/// through a call of the module's shared function of the same
/// dequantization.
static Value dequantizeRank2(OpBuilder &b, Location loc, ModuleOp module,
                             Value codes, Value scales, ArrayRef<int64_t> block,
                             Type elt, Type storeElt, int64_t lanes) {
  if (!module)
    return dequantize2D(b, loc, codes, scales, block, elt, storeElt, lanes);
  std::string name = "__dequantize_tiled";
  appendMangled(name, codes.getType());
  appendMangled(name, scales.getType());
  appendBlock(name, block);
  appendMangled(name, elt);
  appendMangled(name, storeElt);
  name += "_l" + std::to_string(lanes);
  auto body = [&](OpBuilder &kb, Location kl, ValueRange arguments) {
    return SmallVector<Value>{dequantize2D(kb, kl, arguments[0], arguments[1],
                                           block, elt, storeElt, lanes)};
  };
  return callSharedKernel(b, loc, module, name, {codes, scales}, body).front();
}

Value fp8::detail::buildTiledDequantize(OpBuilder &b, Location loc, Value codes,
                                        Value scales, ScaledTensorType type,
                                        Type elt, int64_t lanes, Type storeElt,
                                        ModuleOp module) {
  ArrayRef<int64_t> block = type.getBlockShape();
  SmallVector<ReassociationIndices> grouping = *getRank2Grouping(block);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, codes);
  Value r =
      dequantizeRank2(b, loc, module, toRank2(b, loc, codes, grouping),
                      toRank2(b, loc, scales, grouping), getRank2Block(block),
                      elt, storeElt ? storeElt : elt, lanes);
  return fromRank2(b, loc, r, sizes, grouping);
}
