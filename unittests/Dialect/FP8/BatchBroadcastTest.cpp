//===- BatchBroadcastTest.cpp - the shared batch-broadcast matcher --------===//
//
// matchBroadcast / matchBatchBroadcast (Analysis/BatchBroadcast.h), the one
// matcher the role analysis, fp8-normalize-forms and fp8-insert-quant use.
// The expected dims are read off each case's maps by hand.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Analysis/BatchBroadcast.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {
class BatchBroadcastTest : public ::testing::Test {
protected:
  BatchBroadcastTest() {
    ctx.loadDialect<arith::ArithDialect, func::FuncDialect,
                    linalg::LinalgDialect, tensor::TensorDialect>();
  }

  /// The value returned by @f in `text` (the operand under test).
  Value parseReturned(StringRef text) {
    module = parseSourceString<ModuleOp>(text, &ctx);
    EXPECT_TRUE(module);
    if (!module)
      return {};
    auto f = cast<func::FuncOp>(&module->getBody()->front());
    return f.getBody().front().getTerminator()->getOperand(0);
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

constexpr int64_t kUnit = Broadcast::kUnitDim;
} // namespace

TEST_F(BatchBroadcastTest, LinalgBroadcast) {
  Value v = parseReturned(R"mlir(
    func.func @f(%w: tensor<8x16xf32>) -> tensor<4x8x16xf32> {
      %e = tensor.empty() : tensor<4x8x16xf32>
      %b = linalg.broadcast ins(%w : tensor<8x16xf32>) outs(%e : tensor<4x8x16xf32>) dimensions = [0]
      return %b : tensor<4x8x16xf32>
    })mlir");
  std::optional<Broadcast> b = matchBroadcast(v);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->sourceDims, (SmallVector<int64_t>{1, 2}));
  EXPECT_EQ(b->broadcastDims, (SmallVector<unsigned>{0}));
  EXPECT_TRUE(matchBatchBroadcast(v, {0}));
  EXPECT_FALSE(matchBatchBroadcast(v, {1}));
  EXPECT_FALSE(matchBatchBroadcast(v, {0, 1}));
}

// torch-mlir's expand of a [1, K, N] weight: the unit dim read at index 0,
// loop 0 not read by the input.
TEST_F(BatchBroadcastTest, UnitDimReadAtIndexZero) {
  Value v = parseReturned(R"mlir(
    func.func @f(%w: tensor<1x8x16xf32>) -> tensor<4x8x16xf32> {
      %e = tensor.empty() : tensor<4x8x16xf32>
      %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
          ins(%w : tensor<1x8x16xf32>) outs(%e : tensor<4x8x16xf32>) {
      ^bb0(%a: f32, %o: f32):
        linalg.yield %a : f32
      } -> tensor<4x8x16xf32>
      return %b : tensor<4x8x16xf32>
    })mlir");
  std::optional<Broadcast> b = matchBatchBroadcast(v, {0});
  ASSERT_TRUE(b);
  EXPECT_EQ(b->sourceDims, (SmallVector<int64_t>{kUnit, 1, 2}));
  EXPECT_EQ(b->getNumUnitDims(), 1u);
  EXPECT_EQ(b->getReadDims(), (SmallVector<unsigned>{1, 2}));
}

// A copy generic writing its result through a transposing map: the source
// dims are named in the result's dims, not the loops'.
TEST_F(BatchBroadcastTest, TransposingOutputMap) {
  Value v = parseReturned(R"mlir(
    func.func @f(%w: tensor<8x16xf32>) -> tensor<16x4x8xf32> {
      %e = tensor.empty() : tensor<16x4x8xf32>
      %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d0, d1)>], iterator_types = ["parallel", "parallel", "parallel"]}
          ins(%w : tensor<8x16xf32>) outs(%e : tensor<16x4x8xf32>) {
      ^bb0(%a: f32, %o: f32):
        linalg.yield %a : f32
      } -> tensor<16x4x8xf32>
      return %b : tensor<16x4x8xf32>
    })mlir");
  std::optional<Broadcast> b = matchBroadcast(v);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->sourceDims, (SmallVector<int64_t>{2, 0}));
  EXPECT_EQ(b->broadcastDims, (SmallVector<unsigned>{1}));
}

// A constant read of a dim longer than 1 is a slice, and a loop read twice
// a diagonal: neither is a broadcast.
TEST_F(BatchBroadcastTest, SliceAndDiagonalAreNotBroadcasts) {
  Value slice = parseReturned(R"mlir(
    func.func @f(%w: tensor<2x8x16xf32>) -> tensor<4x8x16xf32> {
      %e = tensor.empty() : tensor<4x8x16xf32>
      %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (1, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
          ins(%w : tensor<2x8x16xf32>) outs(%e : tensor<4x8x16xf32>) {
      ^bb0(%a: f32, %o: f32):
        linalg.yield %a : f32
      } -> tensor<4x8x16xf32>
      return %b : tensor<4x8x16xf32>
    })mlir");
  EXPECT_FALSE(matchBroadcast(slice));
  Value diagonal = parseReturned(R"mlir(
    func.func @f(%w: tensor<8x8xf32>) -> tensor<4x8xf32> {
      %e = tensor.empty() : tensor<4x8xf32>
      %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
          ins(%w : tensor<8x8xf32>) outs(%e : tensor<4x8xf32>) {
      ^bb0(%a: f32, %o: f32):
        linalg.yield %a : f32
      } -> tensor<4x8xf32>
      return %b : tensor<4x8xf32>
    })mlir");
  EXPECT_FALSE(matchBroadcast(diagonal));
}

// A broadcast that also casts is taken only when asked for (the role
// analysis); through a reshape only along the chain.
TEST_F(BatchBroadcastTest, CastAndChainOnlyWhenAsked) {
  Value v = parseReturned(R"mlir(
    func.func @f(%w: tensor<8x16xbf16>) -> tensor<32x16xf32> {
      %e = tensor.empty() : tensor<4x8x16xf32>
      %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
          ins(%w : tensor<8x16xbf16>) outs(%e : tensor<4x8x16xf32>) {
      ^bb0(%a: bf16, %o: f32):
        %x = arith.extf %a : bf16 to f32
        linalg.yield %x : f32
      } -> tensor<4x8x16xf32>
      %c = tensor.collapse_shape %b [[0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
      return %c : tensor<32x16xf32>
    })mlir");
  Value cast = v.getDefiningOp()->getOperand(0);
  EXPECT_FALSE(matchBroadcast(cast));
  EXPECT_FALSE(matchBatchBroadcast(cast, {0}));
  EXPECT_TRUE(matchBatchBroadcast(cast, {0}, /*allowCast=*/true));
  EXPECT_FALSE(matchBroadcast(v, {/*allowCast=*/true, /*throughChain=*/false}));
  std::optional<Broadcast> b =
      matchBroadcast(v, {/*allowCast=*/true, /*throughChain=*/true});
  ASSERT_TRUE(b);
  EXPECT_EQ(b->broadcastDims, (SmallVector<unsigned>{0}));
}
