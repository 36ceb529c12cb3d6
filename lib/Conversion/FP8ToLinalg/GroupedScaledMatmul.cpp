//===- GroupedScaledMatmul.cpp - lower fp8.grouped_scaled_matmul ----------===//
//
// The grouped op becomes a loop around ONE 2-D fp8.scaled_matmul on the
// slices of the current group, which the same conversion then lowers as any
// other scaled_matmul (the tiled kernel in fp8-cpu-pipeline). Reusing the
// 2-D op makes "bit-identical to scaled_matmul on the group's slices" hold
// by construction, and the module holds one GEMM body whatever G is.
//
// - masked: scf.for over the G groups; the valid rows of group g are
//   min(max(counts[g], 0), M) (all M without counts); the slab's rows past
//   them keep the +0.0 of the initial result.
// - contiguous: scf.while over the maximal runs of equal group index; a run
//   of group -1 (padding) keeps +0.0, an index outside [-1, G) or a run
//   starting off m_alignment fails a cf.assert naming the op.
// - k_grouped: the same scf.while over the runs of equal token index; the
//   run [r, e) of group g gives D[g] = scaled_matmul(A[:, r:e], B[:, r:e],
//   c[g]); a group without tokens keeps c[g] (converted) or +0.0. A run
//   starting off m_alignment or ending inside a 128-token K block, and a
//   group in two runs, fail a cf.assert.
//
//===----------------------------------------------------------------------===//

#include "GroupedScaledMatmul.h"
#include "EmptyShapes.h"
#include "fp8/Conversion/FP8ToLinalg/FP8ToLinalg.h"
#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// extract_slice with unit strides; drops the leading dimension (whose size
/// must be 1) when `dropLeading`. Static sizes give static result sizes.
Value slice(OpBuilder &b, Location loc, Value src,
            ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
            bool dropLeading) {
  SmallVector<int64_t> shape;
  for (auto [i, s] : llvm::enumerate(sizes))
    if (!(dropLeading && i == 0))
      shape.push_back(getConstantIntValue(s).value_or(ShapedType::kDynamic));
  auto type = RankedTensorType::get(
      shape, cast<RankedTensorType>(src.getType()).getElementType());
  SmallVector<OpFoldResult> strides(sizes.size(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, type, src, offsets, sizes,
                                        strides);
}

Value insert(OpBuilder &b, Location loc, Value src, Value dest,
             ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(sizes.size(), b.getIndexAttr(1));
  return tensor::InsertSliceOp::create(b, loc, src, dest, offsets, sizes,
                                       strides);
}

/// floor(size / block) (or ceil), constant where `size` is. Plain arith, not
/// affine.apply: the operands may be block arguments of an scf.while that is
/// still being built, which affine's canonicalization cannot look at.
OpFoldResult divBlock(OpBuilder &b, Location loc, OpFoldResult size,
                      int64_t block, bool ceil) {
  if (block == 1)
    return size;
  if (std::optional<int64_t> c = getConstantIntValue(size))
    return b.getIndexAttr(ceil ? llvm::divideCeil(*c, block) : *c / block);
  Value v = cast<Value>(size);
  if (ceil)
    v = arith::AddIOp::create(
        b, loc, v, arith::ConstantIndexOp::create(b, loc, block - 1));
  return arith::DivUIOp::create(b, loc, v,
                                arith::ConstantIndexOp::create(b, loc, block))
      .getResult();
}

/// The 2-D scaled operand [rows, K] of a group: codes and scales sliced
/// from the decomposed operand (`lead` is the group index for a rank-3
/// operand, null for contiguous A), re-assembled under the 2-D type.
Value groupOperand(OpBuilder &b, Location loc, ScaledTensorType type,
                   ValueRange parts, Value lead, OpFoldResult rowOffset,
                   OpFoldResult rows) {
  ArrayRef<int64_t> block = type.getBlockShape().take_back(2);
  int64_t rank = type.getRank();
  Value codes = parts[0], scales = parts[1];
  OpFoldResult k = tensor::getMixedSize(b, loc, codes, rank - 1);
  OpFoldResult kScales = tensor::getMixedSize(b, loc, scales, rank - 1);
  // Groups start on a scale-block boundary (verifier and run-time check).
  OpFoldResult scaleRowOffset = divBlock(b, loc, rowOffset, block[0], false);
  OpFoldResult scaleRows = divBlock(b, loc, rows, block[0], true);
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  Value data, sc;
  if (isZeroInteger(k)) {
    // K = 0: nothing to slice (an offset into an empty dimension does not
    // verify); the 2-D product of the group is then its C (EmptyShapes.cpp).
    Type codeType = cast<RankedTensorType>(codes.getType()).getElementType();
    data = tensor::EmptyOp::create(b, loc, {rows, zero}, codeType);
    sc =
        tensor::EmptyOp::create(b, loc, {scaleRows, zero}, type.getScaleType());
  } else if (lead) {
    data = slice(b, loc, codes, {lead, rowOffset, zero}, {one, rows, k},
                 /*dropLeading=*/true);
    sc = slice(b, loc, scales, {lead, scaleRowOffset, zero},
               {one, scaleRows, kScales}, /*dropLeading=*/true);
  } else {
    data = slice(b, loc, codes, {rowOffset, zero}, {rows, k}, false);
    sc = slice(b, loc, scales, {scaleRowOffset, zero}, {scaleRows, kScales},
               false);
  }
  auto dataType = cast<RankedTensorType>(data.getType());
  auto scaled =
      ScaledTensorType::get(b.getContext(), dataType.getShape(),
                            type.getElementType(), block, type.getScaleType());
  return AssembleOp::create(b, loc, scaled, data, sc);
}

/// The tokens [start, start + len) of a k_grouped operand [rows, T] in
/// [1, 128] blocks (start a multiple of 128), as a 2-D scaled operand.
Value tokenOperand(OpBuilder &b, Location loc, ScaledTensorType type,
                   ValueRange parts, Value start, OpFoldResult len) {
  OpFoldResult zero = b.getIndexAttr(0);
  OpFoldResult rows = tensor::getMixedSize(b, loc, parts[0], 0);
  Value data = slice(b, loc, parts[0], {zero, start}, {rows, len}, false);
  // One op per statement, in the order the nested form was built.
  OpFoldResult scaleLen = divBlock(b, loc, len, 128, true);
  OpFoldResult scaleStart = divBlock(b, loc, start, 128, false);
  Value sc =
      slice(b, loc, parts[1], {zero, scaleStart}, {rows, scaleLen}, false);
  auto dataType = cast<RankedTensorType>(data.getType());
  auto scaled = ScaledTensorType::get(
      b.getContext(), dataType.getShape(), type.getElementType(),
      type.getBlockShape(), type.getScaleType());
  return AssembleOp::create(b, loc, scaled, data, sc);
}

/// A maximal run [start, end) of equal index `gid` in group_ids; `isGroup`
/// is gid != -1.
struct Run {
  Value start, end, gid, isGroup;
};

/// cf.assert(!when || value % align == 0, msg).
void assertAligned(OpBuilder &b, Location loc, Value value, Value align,
                   Value when, StringRef msg) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value aligned =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            arith::RemUIOp::create(b, loc, value, align), zero);
  Value notWhen = arith::XOrIOp::create(
      b, loc, when, arith::ConstantIntOp::create(b, loc, 1, 1));
  cf::AssertOp::create(b, loc, arith::OrIOp::create(b, loc, notWhen, aligned),
                       msg);
}

/// The first index after `r` whose group index differs from `gid` (or the
/// length of `ids`).
Value runEnd(OpBuilder &b, Location loc, Value ids, Value r, Value gid,
             Value len) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto scan = scf::WhileOp::create(
      b, loc, TypeRange{b.getIndexType()},
      ValueRange{arith::AddIOp::create(b, loc, r, one)},
      [&](OpBuilder &cb, Location cl, ValueRange e) {
        Value inside =
            arith::CmpIOp::create(cb, cl, arith::CmpIPredicate::slt, e[0], len);
        auto same = scf::IfOp::create(
            cb, cl, inside,
            [&](OpBuilder &tb, Location tl) {
              Value next =
                  tensor::ExtractOp::create(tb, tl, ids, ValueRange{e[0]});
              scf::YieldOp::create(
                  tb, tl,
                  ValueRange{arith::CmpIOp::create(
                      tb, tl, arith::CmpIPredicate::eq, next, gid)});
            },
            [&](OpBuilder &eb, Location el) {
              Value no = arith::ConstantIntOp::create(eb, el, 0, 1);
              scf::YieldOp::create(eb, el, ValueRange{no});
            });
        scf::ConditionOp::create(cb, cl, same.getResult(0), e);
      },
      [&](OpBuilder &ab, Location al, ValueRange e) {
        scf::YieldOp::create(
            ab, al, ValueRange{arith::AddIOp::create(ab, al, e[0], one)});
      });
  return scan.getResult(0);
}

using RunBody = function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                const Run &, ValueRange)>;

/// An scf.while with one iteration per maximal run of equal index in `ids`
/// (asserted inside [-1, groups)), carrying `inits` through `body`.
ValueRange forEachRun(OpBuilder &b, Location loc, Value ids, Value groups,
                      ValueRange inits, RunBody body) {
  Type index = b.getIndexType();
  Value len = tensor::DimOp::create(b, loc, ids, 0);
  Value groups32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), groups);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value minusOne = arith::ConstantIntOp::create(b, loc, -1, 32);
  SmallVector<Type> types = {index};
  llvm::append_range(types, inits.getTypes());
  SmallVector<Value> args = {zero};
  llvm::append_range(args, inits);
  auto runs = scf::WhileOp::create(
      b, loc, types, args,
      [&](OpBuilder &cb, Location cl, ValueRange args) {
        Value more = arith::CmpIOp::create(cb, cl, arith::CmpIPredicate::slt,
                                           args[0], len);
        scf::ConditionOp::create(cb, cl, more, args);
      },
      [&](OpBuilder &rb, Location rl, ValueRange args) {
        Run run;
        run.start = args[0];
        run.gid = tensor::ExtractOp::create(rb, rl, ids, ValueRange{run.start});
        // One op per statement, in the order the nested form was built.
        Value belowGroups = arith::CmpIOp::create(
            rb, rl, arith::CmpIPredicate::slt, run.gid, groups32);
        Value atLeastNone = arith::CmpIOp::create(
            rb, rl, arith::CmpIPredicate::sge, run.gid, minusOne);
        Value inRange = arith::AndIOp::create(rb, rl, atLeastNone, belowGroups);
        cf::AssertOp::create(
            rb, rl, inRange,
            "fp8.grouped_scaled_matmul: a group index in group_ids is "
            "outside [-1, G)");
        run.end = runEnd(rb, rl, ids, run.start, run.gid, len);
        run.isGroup = arith::CmpIOp::create(rb, rl, arith::CmpIPredicate::ne,
                                            run.gid, minusOne);
        SmallVector<Value> next = {run.end};
        llvm::append_range(next, body(rb, rl, run, args.drop_front()));
        scf::YieldOp::create(rb, rl, next);
      });
  return runs.getResults().drop_front();
}

struct GroupedScaledMatmulLowering
    : OpConversionPattern<GroupedScaledMatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GroupedScaledMatmulOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange a = adaptor.getA(), bParts = adaptor.getB();
    if (a.size() != 2 || bParts.size() != 2)
      return rewriter.notifyMatchFailure(op, "operands not decomposed");
    auto first = [](ValueRange r) { return r.empty() ? Value() : r.front(); };
    rewriter.replaceOp(
        op, expand(rewriter, op, a, bParts, first(adaptor.getCounts()),
                   first(adaptor.getGroupIds()), first(adaptor.getC())));
    return success();
  }

  /// The loop form of `op` on its decomposed operands (codes, scales).
  static Value expand(OpBuilder &b, GroupedScaledMatmulOp op, ValueRange a,
                      ValueRange bParts, Value counts, Value ids, Value c) {
    Location loc = op.getLoc();
    auto resType = cast<RankedTensorType>(op.getResult().getType());
    Type outElt = resType.getElementType();
    bool masked = op.getLayout() == GroupLayout::masked;
    if (op.isKGrouped()) {
      SmallVector<OpFoldResult> sizes = {
          b.getIndexAttr(op.getNumGroups()),
          tensor::getMixedSize(b, loc, a[0], 0),
          tensor::getMixedSize(b, loc, bParts[0], 0)};
      Value init = fp8::detail::emptySum(
          b, loc, c ? ValueRange{c} : ValueRange(), sizes, outElt);
      if (init.getType() != resType)
        init = tensor::CastOp::create(b, loc, resType, init);
      return lowerKGrouped(b, loc, op, a, bParts, ids, c, init);
    }
    SmallVector<OpFoldResult> resSizes;
    for (int64_t i = 0; i < resType.getRank(); ++i)
      resSizes.push_back(i < resType.getRank() - 1
                             ? tensor::getMixedSize(b, loc, a[0], i)
                             : tensor::getMixedSize(b, loc, bParts[0], 1));
    Value init = tensor::EmptyOp::create(b, loc, resSizes, outElt);
    // Rows that are not computed (masked rows past the count, padding rows)
    // are +0.0; masked without counts writes every row.
    if (!masked || counts) {
      Value zeroF = arith::ConstantOp::create(b, loc, outElt,
                                              b.getFloatAttr(outElt, 0.0));
      init = linalg::FillOp::create(b, loc, zeroF, init).getResult(0);
    }
    if (masked)
      return lowerMasked(b, loc, op, a, bParts, counts, c, init);
    return lowerContiguous(b, loc, op, a, bParts, ids, c, init);
  }

  /// The 2-D product of rows [rowOffset, rowOffset + rows) of group `g`,
  /// inserted into `acc` at `resOffsets`.
  static Value groupProduct(OpBuilder &b, Location loc,
                            GroupedScaledMatmulOp op, ValueRange a,
                            ValueRange bParts, Value aLead, Value g,
                            OpFoldResult rowOffset, OpFoldResult rows, Value c,
                            Value acc, ArrayRef<OpFoldResult> resOffsets) {
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    OpFoldResult n = tensor::getMixedSize(b, loc, bParts[0], 1);
    Value qa =
        groupOperand(b, loc, op.getA().getType(), a, aLead, rowOffset, rows);
    Value qb = groupOperand(b, loc, op.getB().getType(), bParts, g, zero, n);
    bool masked = op.getLayout() == GroupLayout::masked;
    SmallVector<OpFoldResult> sizes =
        masked ? SmallVector<OpFoldResult>{one, rows, n}
               : SmallVector<OpFoldResult>{rows, n};
    Value cSlice;
    if (c)
      cSlice = slice(b, loc, c, resOffsets, sizes, masked);
    auto accType = cast<RankedTensorType>(acc.getType());
    auto dType = RankedTensorType::get(
        {getConstantIntValue(rows).value_or(ShapedType::kDynamic),
         accType.getShape().back()},
        accType.getElementType());
    auto mm = ScaledMatmulOp::create(b, loc, dType, qa, qb, cSlice,
                                     op.getPromoteInterval());
    // The role and GEMM kind travel with the product.
    for (NamedAttribute attr : op->getDiscardableAttrs())
      mm->setAttr(attr.getName(), attr.getValue());
    return insert(b, loc, mm.getResult(), acc, resOffsets, sizes);
  }

  static Value lowerMasked(OpBuilder &b, Location loc, GroupedScaledMatmulOp op,
                           ValueRange a, ValueRange bParts, Value counts,
                           Value c, Value init) {
    Value lb = arith::ConstantIndexOp::create(b, loc, 0);
    Value step = arith::ConstantIndexOp::create(b, loc, 1);
    Value groups = tensor::DimOp::create(b, loc, bParts[0], 0);
    OpFoldResult m = tensor::getMixedSize(b, loc, a[0], 1);
    auto loop = scf::ForOp::create(
        b, loc, lb, groups, step, ValueRange{init},
        [&](OpBuilder &fb, Location fl, Value g, ValueRange iter) {
          OpFoldResult zero = fb.getIndexAttr(0);
          SmallVector<OpFoldResult> offsets = {g, zero, zero};
          if (!counts) {
            scf::YieldOp::create(fb, fl,
                                 groupProduct(fb, fl, op, a, bParts, g, g, zero,
                                              m, c, iter[0], offsets));
            return;
          }
          // rows = clamp(counts[g], 0, M); an empty group computes nothing.
          Value cnt = arith::IndexCastOp::create(
              fb, fl, fb.getIndexType(),
              tensor::ExtractOp::create(fb, fl, counts, ValueRange{g}));
          Value mv = getValueOrCreateConstantIndexOp(fb, fl, m);
          Value zeroV = arith::ConstantIndexOp::create(fb, fl, 0);
          Value rows = arith::MinSIOp::create(
              fb, fl, arith::MaxSIOp::create(fb, fl, cnt, zeroV), mv);
          Value any = arith::CmpIOp::create(fb, fl, arith::CmpIPredicate::sgt,
                                            rows, zeroV);
          auto ifOp = scf::IfOp::create(
              fb, fl, any,
              [&](OpBuilder &tb, Location tl) {
                scf::YieldOp::create(tb, tl,
                                     groupProduct(tb, tl, op, a, bParts, g, g,
                                                  zero, rows, c, iter[0],
                                                  offsets));
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, iter[0]);
              });
          scf::YieldOp::create(fb, fl, ifOp.getResult(0));
        });
    return loop.getResult(0);
  }

  static Value lowerContiguous(OpBuilder &b, Location loc,
                               GroupedScaledMatmulOp op, ValueRange a,
                               ValueRange bParts, Value ids, Value c,
                               Value init) {
    Value align = arith::ConstantIndexOp::create(b, loc, op.getMAlignment());
    Value groups = tensor::DimOp::create(b, loc, bParts[0], 0);
    auto body = [&](OpBuilder &rb, Location rl, const Run &run,
                    ValueRange iter) -> SmallVector<Value> {
      // A group's run starts on m_alignment (padding runs may not).
      assertAligned(rb, rl, run.start, align, run.isGroup,
                    "fp8.grouped_scaled_matmul: a group's rows in group_ids "
                    "start at a row that is not a multiple of m_alignment");
      Value acc = iter[0];
      auto ifOp = scf::IfOp::create(
          rb, rl, run.isGroup,
          [&](OpBuilder &tb, Location tl) {
            Value g =
                arith::IndexCastOp::create(tb, tl, tb.getIndexType(), run.gid);
            Value rows = arith::SubIOp::create(tb, tl, run.end, run.start);
            SmallVector<OpFoldResult> offsets = {run.start, tb.getIndexAttr(0)};
            scf::YieldOp::create(tb, tl,
                                 groupProduct(tb, tl, op, a, bParts, Value(), g,
                                              run.start, rows, c, acc,
                                              offsets));
          },
          [&](OpBuilder &eb, Location el) {
            scf::YieldOp::create(eb, el, acc);
          });
      return {ifOp.getResult(0)};
    };
    return forEachRun(b, loc, ids, groups, ValueRange{init}, body)[0];
  }

  /// k_grouped: D[g] starts as c[g] (converted) or +0.0, the value of a
  /// group without tokens; each run [r, e) of group g gives D[g] =
  /// scaled_matmul(A[:, r:e], B[:, r:e], c[g]). A `done` flag per group
  /// catches a group in two runs (its D[g] would be the last run's only).
  static Value lowerKGrouped(OpBuilder &b, Location loc,
                             GroupedScaledMatmulOp op, ValueRange a,
                             ValueRange bParts, Value ids, Value c,
                             Value init) {
    int64_t g = op.getNumGroups();
    Value align = arith::ConstantIndexOp::create(b, loc, op.getMAlignment());
    Value t = tensor::DimOp::create(b, loc, ids, 0);
    Value done = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get({g}, b.getI1Type()),
                               false));
    auto body = [&](OpBuilder &rb, Location rl, const Run &run,
                    ValueRange iter) -> SmallVector<Value> {
      Value yes = arith::ConstantIntOp::create(rb, rl, 1, 1);
      assertAligned(rb, rl, run.start, align, yes,
                    "fp8.grouped_scaled_matmul: a run of group_ids (k_grouped) "
                    "starts at a token that is not a multiple of m_alignment");
      Value k128 = arith::ConstantIndexOp::create(rb, rl, 128);
      Value atT =
          arith::CmpIOp::create(rb, rl, arith::CmpIPredicate::eq, run.end, t);
      assertAligned(rb, rl, run.end, k128,
                    arith::XOrIOp::create(rb, rl, atT, yes),
                    "fp8.grouped_scaled_matmul: a run of group_ids (k_grouped) "
                    "ends inside a 128-token K block");
      auto ifOp = scf::IfOp::create(
          rb, rl, run.isGroup,
          [&](OpBuilder &tb, Location tl) {
            scf::YieldOp::create(
                tb, tl,
                kGroupProduct(tb, tl, op, a, bParts, run, c, iter[0], iter[1]));
          },
          [&](OpBuilder &eb, Location el) {
            scf::YieldOp::create(eb, el, iter);
          });
      return ifOp.getResults();
    };
    Value groups = arith::ConstantIndexOp::create(b, loc, g);
    return forEachRun(b, loc, ids, groups, ValueRange{init, done}, body)[0];
  }

  /// One run of the k_grouped layout: D[g] = scaled_matmul(A[:, r:e],
  /// B[:, r:e], c[g]) inserted into `acc`, and group g marked in `done`
  /// (asserted unmarked).
  static SmallVector<Value> kGroupProduct(OpBuilder &b, Location loc,
                                          GroupedScaledMatmulOp op,
                                          ValueRange a, ValueRange bParts,
                                          const Run &run, Value c, Value acc,
                                          Value done) {
    Value g = arith::IndexCastOp::create(b, loc, b.getIndexType(), run.gid);
    Value seen = tensor::ExtractOp::create(b, loc, done, ValueRange{g});
    cf::AssertOp::create(
        b, loc,
        arith::XOrIOp::create(b, loc, seen,
                              arith::ConstantIntOp::create(b, loc, 1, 1)),
        "fp8.grouped_scaled_matmul: a group's tokens in group_ids (k_grouped) "
        "are not consecutive");
    done = tensor::InsertOp::create(b, loc,
                                    arith::ConstantIntOp::create(b, loc, 1, 1),
                                    done, ValueRange{g});
    OpFoldResult len =
        arith::SubIOp::create(b, loc, run.end, run.start).getResult();
    Value qa = tokenOperand(b, loc, op.getA().getType(), a, run.start, len);
    Value qb =
        tokenOperand(b, loc, op.getB().getType(), bParts, run.start, len);
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    OpFoldResult m = tensor::getMixedSize(b, loc, a[0], 0);
    OpFoldResult n = tensor::getMixedSize(b, loc, bParts[0], 0);
    SmallVector<OpFoldResult> offsets = {g, zero, zero}, sizes = {one, m, n};
    Value cSlice = c ? slice(b, loc, c, offsets, sizes, true) : Value();
    auto accType = cast<RankedTensorType>(acc.getType());
    auto dType = RankedTensorType::get(accType.getShape().drop_front(),
                                       accType.getElementType());
    auto mm = ScaledMatmulOp::create(b, loc, dType, qa, qb, cSlice,
                                     op.getPromoteInterval());
    for (NamedAttribute attr : op->getDiscardableAttrs())
      mm->setAttr(attr.getName(), attr.getValue());
    return {insert(b, loc, mm.getResult(), acc, offsets, sizes), done};
  }
};

} // namespace

Value fp8::expandGroupedScaledMatmul(OpBuilder &b, GroupedScaledMatmulOp op) {
  auto split = [&](Value v) {
    auto parts = DisassembleOp::create(b, op.getLoc(), v);
    return SmallVector<Value>{parts.getData(), parts.getScales()};
  };
  SmallVector<Value> a = split(op.getA());
  SmallVector<Value> bParts = split(op.getB());
  return GroupedScaledMatmulLowering::expand(b, op, a, bParts, op.getCounts(),
                                             op.getGroupIds(), op.getC());
}

void fp8::detail::populateGroupedScaledMatmulLowering(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GroupedScaledMatmulLowering>(converter, patterns.getContext());
}
