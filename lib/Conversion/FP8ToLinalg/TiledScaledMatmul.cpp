//===- TiledScaledMatmul.cpp - register-tiled exact fp8.scaled_matmul -----===//
//
// The fast CPU form of the exact path of fp8.scaled_matmul (option `tiled` of
// fp8-lower-to-linalg). It computes, bit for bit, what the reference generics
// compute (docs/performance.md, "The tiled scaled_matmul kernel"):
//
// - Each output's promotion-interval partial is a sum in increasing k
//   starting from +0.0. The kernel forms it with `fma(a, b, partial)` where
//   the reference has `partial + a * b`: the product of two FP8 values is
//   exact in f32 (at most 4 x 4 significant bits, exponents within
//   [-32, 32]), so both round once, the same sum (vector.fma becomes
//   llvm.fmuladd: fused or not, the same value). Nothing is re-associated:
//   the kernel is vectorised over N (one lane per output column) and the k
//   loop stays sequential per lane.
// - Promotion is `acc = fma(partial, sa * sb, acc)` per interval, in order,
//   starting from C (or 0), as in the reference.
//
// The codes are decoded once per call, through a 256-entry table of the
// reference decode, into packed f32 panels (A as [M/MR, K, MR], B as
// [N/NR, K, NR], one scf.forall iteration per panel), so that a k step of a
// tile reads MR and NR consecutive f32; rows and columns are padded to the
// register tile by repeating the last one, whose (discarded) outputs do not
// touch the real ones. Then, per promotion interval in increasing order, an
// scf.forall over the (N tile, M tile) pairs runs the register kernel and
// promotes its tile (threads: fp8-cpu-pipeline{threads}).
// fp8-lower-to-linalg emits the kernel once per signature, as a private
// function that every scaled_matmul with that signature calls
// (callTiledScaledMatmul), so that the module does not grow by a kernel per
// GEMM.
//
//===----------------------------------------------------------------------===//
#include "TiledScaledMatmul.h"
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

using namespace mlir;

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
        // Loops (0, j, k), k innermost: each code row is read in order and
        // its row index is invariant in the inner loop.
        MLIRContext *ctx = fb.getContext();
        AffineMap transposed =
            AffineMap::get(3, 0,
                           {getAffineDimExpr(0, ctx), getAffineDimExpr(2, ctx),
                            getAffineDimExpr(1, ctx)},
                           ctx);
        Value panel =
            linalg::GenericOp::create(
                fb, fl, sliceType, ValueRange{}, slice,
                ArrayRef<AffineMap>{transposed},
                SmallVector<utils::IteratorType>(3,
                                                 utils::IteratorType::parallel),
                [&](OpBuilder &nb, Location nl, ValueRange) {
                  Value j = linalg::IndexOp::create(nb, nl, 1);
                  Value k = linalg::IndexOp::create(nb, nl, 2);
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

Value fp8::detail::buildTiledScaledMatmul(OpBuilder &b, Location loc,
                                          const TiledScaledMatmulOperands &op) {
  // Register tile: MR rows x (NV vectors of VL f32 lanes). With 8 lanes,
  // 4 x 24 keeps the 12 partial vectors, 3 B vectors and one broadcast in
  // the 16 ymm registers of AVX2 (7 loads per 12 FMAs per k step); with 16
  // lanes, 8 x 48 uses 28 of the 32 zmm registers of AVX-512 (11 loads per
  // 24 FMAs).
  const int64_t kVL = op.vectorLanes;
  const int64_t kMR = kVL >= 16 ? 8 : 4;
  const int64_t kNV = 3;
  const int64_t kNR = kVL * kNV;
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  auto vecType = VectorType::get({kVL}, f32);
  AffineExpr s0 = getAffineSymbolExpr(0, ctx);
  auto apply = [&](AffineExpr e, OpFoldResult v) {
    return affine::makeComposedFoldedAffineApply(b, loc, e, {v});
  };

  OpFoldResult mSize = tensor::getMixedSize(b, loc, op.aCodes, 0);
  OpFoldResult kSize = tensor::getMixedSize(b, loc, op.aCodes, 1);
  OpFoldResult nSize = tensor::getMixedSize(b, loc, op.bCodes, 0);
  OpFoldResult mTiles = apply(s0.ceilDiv(kMR), mSize);
  OpFoldResult nTiles = apply(s0.ceilDiv(kNR), nSize);
  OpFoldResult mPad = apply(s0.ceilDiv(kMR) * kMR, mSize);
  OpFoldResult nPad = apply(s0.ceilDiv(kNR) * kNR, nSize);
  OpFoldResult kBlocks = apply(s0.ceilDiv(op.interval), kSize);
  Value mV = getValueOrCreateConstantIndexOp(b, loc, mSize);
  Value nV = getValueOrCreateConstantIndexOp(b, loc, nSize);
  Value kV = getValueOrCreateConstantIndexOp(b, loc, kSize);
  Value kbV = getValueOrCreateConstantIndexOp(b, loc, kBlocks);

  // Packed panels, decoded once: A as [M tiles, K, MR] and B as
  // [N tiles, K, NR], so that one k step of a tile reads MR and NR
  // consecutive f32 and one tile's panel is contiguous.
  Value packA = packPanels(b, loc, op.aCodes, mTiles, kSize, kMR, mV);
  Value packB = packPanels(b, loc, op.bCodes, nTiles, kSize, kNR, nV);
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
  Value scaleA = generate(
      b, loc, {mPad, kBlocks}, [&](OpBuilder &nb, Location nl, ValueRange iv) {
        return scaleAt(nb, nl, op.aScales, op.aBlock,
                       clampIndex(nb, nl, iv[0], mV), iv[1]);
      });
  Value scaleB = generate(
      b, loc, {kBlocks, nPad}, [&](OpBuilder &nb, Location nl, ValueRange iv) {
        return scaleAt(nb, nl, op.bScales, op.bBlock,
                       clampIndex(nb, nl, iv[1], nV), iv[0]);
      });
  // The accumulator starts from C (f32) or 0.
  Value accInit;
  if (op.c) {
    accInit = generate(b, loc, {mPad, nPad},
                       [&](OpBuilder &nb, Location nl, ValueRange iv) {
                         return tensor::ExtractOp::create(
                             nb, nl, op.c,
                             ValueRange{clampIndex(nb, nl, iv[0], mV),
                                        clampIndex(nb, nl, iv[1], nV)});
                       });
  } else {
    Value empty = tensor::EmptyOp::create(b, loc, {mPad, nPad}, f32);
    Value zero = arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0));
    accInit = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  }

  Value zeroVec = arith::ConstantOp::create(
      b, loc, vecType, DenseElementsAttr::get(vecType, APFloat(0.0f)));
  auto tileType = RankedTensorType::get({kMR, kNR}, f32);
  SmallVector<bool> inBounds = {true};
  auto read = [&](OpBuilder &nb, Location nl, Value src,
                  ValueRange ivs) -> Value {
    Value pad = arith::ConstantOp::create(nb, nl, f32, nb.getF32FloatAttr(0));
    return vector::TransferReadOp::create(nb, nl, vecType, src, ivs, pad,
                                          ArrayRef<bool>(inBounds));
  };
  auto cst = [&](OpBuilder &nb, Location nl, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(nb, nl, v);
  };
  // Intervals outermost (in increasing order, as each output's promotions),
  // output tiles inside: the interval's panels of A and B (128 x (M + N)
  // f32) stay in cache while every tile uses them; N tiles outer, M tiles
  // inner, so that consecutive tiles of a thread share their B chunk.
  Value c0 = cst(b, loc, 0), c1 = cst(b, loc, 1);
  auto intervals = scf::ForOp::create(
      b, loc, c0, kbV, c1, ValueRange{accInit},
      [&](OpBuilder &ib, Location il, Value kb, ValueRange iter) {
        Value k0 = arith::MulIOp::create(ib, il, kb, cst(ib, il, op.interval));
        Value k1 = arith::MinSIOp::create(
            ib, il, arith::AddIOp::create(ib, il, k0, cst(ib, il, op.interval)),
            kV);
        auto forall = scf::ForallOp::create(
            ib, il, ArrayRef<OpFoldResult>{nTiles, mTiles}, ValueRange{iter[0]},
            /*mapping=*/std::nullopt,
            [&](OpBuilder &fb, Location fl, ValueRange args) {
              Value nt = args[0], mt = args[1], out = args[2];
              Value m0 = arith::MulIOp::create(fb, fl, mt, cst(fb, fl, kMR));
              Value n0 = arith::MulIOp::create(fb, fl, nt, cst(fb, fl, kNR));
              SmallVector<OpFoldResult> offsets = {m0, n0};
              SmallVector<OpFoldResult> sizes = {fb.getIndexAttr(kMR),
                                                 fb.getIndexAttr(kNR)};
              SmallVector<OpFoldResult> strides(2, fb.getIndexAttr(1));
              Value t = tensor::ExtractSliceOp::create(fb, fl, tileType, out,
                                                       offsets, sizes, strides);
              // The interval's partials, from +0.0, in increasing k.
              SmallVector<Value> zeros(kMR * kNV, zeroVec);
              auto kLoop = scf::ForOp::create(
                  fb, fl, k0, k1, c1, zeros,
                  [&](OpBuilder &kb2, Location kl, Value k, ValueRange p) {
                    SmallVector<Value> bv;
                    for (int64_t v = 0; v < kNV; ++v)
                      bv.push_back(
                          read(kb2, kl, packB, {nt, k, cst(kb2, kl, v * kVL)}));
                    SmallVector<Value> next;
                    for (int64_t r = 0; r < kMR; ++r) {
                      Value a = tensor::ExtractOp::create(
                          kb2, kl, packA, ValueRange{mt, k, cst(kb2, kl, r)});
                      Value av =
                          vector::BroadcastOp::create(kb2, kl, vecType, a);
                      for (int64_t v = 0; v < kNV; ++v)
                        next.push_back(vector::FMAOp::create(kb2, kl, av, bv[v],
                                                             p[r * kNV + v]));
                    }
                    scf::YieldOp::create(kb2, kl, next);
                  });
              // Promotion: acc = fma(partial, sa * sb, acc).
              SmallVector<Value> sbv;
              for (int64_t v = 0; v < kNV; ++v)
                sbv.push_back(
                    read(fb, fl, scaleB,
                         {kb, arith::AddIOp::create(fb, fl, n0,
                                                    cst(fb, fl, v * kVL))}));
              for (int64_t r = 0; r < kMR; ++r) {
                Value sa = tensor::ExtractOp::create(
                    fb, fl, scaleA,
                    ValueRange{
                        arith::AddIOp::create(fb, fl, m0, cst(fb, fl, r)), kb});
                Value sav = vector::BroadcastOp::create(fb, fl, vecType, sa);
                for (int64_t v = 0; v < kNV; ++v) {
                  Value s = arith::MulFOp::create(fb, fl, sav, sbv[v]);
                  Value row = cst(fb, fl, r);
                  Value col = cst(fb, fl, v * kVL);
                  Value acc = read(fb, fl, t, {row, col});
                  // math.fma (llvm.fma): always fused, as the
                  // reference's promotion.
                  acc = math::FmaOp::create(
                      fb, fl, kLoop.getResult(r * kNV + v), s, acc);
                  t = vector::TransferWriteOp::create(fb, fl, acc, t,
                                                      ValueRange{row, col},
                                                      ArrayRef<bool>(inBounds))
                          .getResult();
                }
              }
              auto inParallel = scf::InParallelOp::create(fb, fl);
              OpBuilder::InsertionGuard guard(fb);
              fb.setInsertionPointToStart(inParallel.getBody());
              tensor::ParallelInsertSliceOp::create(fb, fl, t, out, offsets,
                                                    sizes, strides);
            });
        scf::YieldOp::create(ib, il, forall.getResult(0));
      });
  // The real [M, N] elements, copied into a fresh tensor: a slice of the
  // padded accumulator would reach function results as a strided view.
  Value padded = intervals.getResult(0);
  return generate(b, loc, {mSize, nSize},
                  [&](OpBuilder &nb, Location nl, ValueRange iv) {
                    return tensor::ExtractOp::create(nb, nl, padded, iv);
                  });
}

/// Appends '_' and `t` printed with every character outside [A-Za-z0-9] as
/// '_': a symbol-safe spelling of a type.
static void appendMangled(std::string &name, Type t) {
  std::string text;
  llvm::raw_string_ostream os(text);
  t.print(os);
  name += '_';
  for (char ch : text)
    name += llvm::isAlnum(ch) ? ch : '_';
}

Value fp8::detail::callTiledScaledMatmul(OpBuilder &b, Location loc,
                                         ModuleOp module,
                                         const TiledScaledMatmulOperands &op) {
  SmallVector<Value> args = {op.aCodes, op.aScales, op.bCodes, op.bScales};
  if (op.c)
    args.push_back(op.c);
  SmallVector<Type> argTypes =
      llvm::map_to_vector(args, [](Value v) { return v.getType(); });
  // Everything the body depends on is in the name: the operand types (shape
  // and formats; a dynamic dimension prints as '?', and the body reads it at
  // run time), the block shapes, the interval and the vector width.
  std::string name = "__scaled_matmul_tiled";
  for (Type t : argTypes)
    appendMangled(name, t);
  for (ArrayRef<int64_t> block : {op.aBlock, op.bBlock})
    for (int64_t d : block)
      name += "_" + std::to_string(d);
  name += "_i" + std::to_string(op.interval) + "_l" +
          std::to_string(op.vectorLanes);

  auto func = module.lookupSymbol<func::FuncOp>(name);
  if (!func) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    func = func::FuncOp::create(b, loc, name,
                                b.getFunctionType(argTypes, TypeRange{}));
    func.setPrivate();
    Block *entry = func.addEntryBlock();
    b.setInsertionPointToStart(entry);
    TiledScaledMatmulOperands inner = op;
    inner.aCodes = entry->getArgument(0);
    inner.aScales = entry->getArgument(1);
    inner.bCodes = entry->getArgument(2);
    inner.bScales = entry->getArgument(3);
    inner.c = op.c ? entry->getArgument(4) : Value();
    Value result = buildTiledScaledMatmul(b, loc, inner);
    func::ReturnOp::create(b, loc, result);
    func.setType(b.getFunctionType(argTypes, result.getType()));
  }
  return func::CallOp::create(b, loc, func, args).getResult(0);
}
