//===- FuseElementwise.cpp - fp8-fuse-elementwise -------------------------===//
//
// Chains of element-wise linalg.generic ops on tensors (SwiGLU's SiLU and
// product, RoPE's rotations, the residual adds, the casts around them) fused
// into one op per chain with upstream's element-wise fusion, so that
// fp8-outline-host-kernels makes one kernel of each chain instead of one
// per op, and no intermediate tensor is written and read back (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/FuseElementwise.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Dialect/FP8/Transforms/RopeLayouts.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8FUSEELEMENTWISEPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

/// The graph's annotations (fp8-assign-precision's role, precision, reason
/// and GEMM kind): records for the report, read by no lowering.
static bool isAnnotation(StringRef name) {
  return llvm::is_contained(
      {fp8::FP8Dialect::kRoleAttrName, fp8::FP8Dialect::kPrecisionAttrName,
       fp8::FP8Dialect::kReasonAttrName, fp8::FP8Dialect::kGemmAttrName},
      name);
}

bool fp8::carriesDecision(Operation *op) {
  return llvm::any_of(op->getDiscardableAttrs(), [](NamedAttribute attr) {
    StringRef name = attr.getName().strref();
    return name.starts_with("fp8.") && !isAnnotation(name);
  });
}

bool fp8::isFusableElementwise(linalg::LinalgOp op) {
  return op.hasPureTensorSemantics() &&
         op.getNumParallelLoops() == op.getNumLoops() && !carriesDecision(op);
}

namespace {

/// A producer fusion can take: an element-wise linalg.generic, or a
/// transpose or broadcast (a copy with a permuted or broadcast read), which
/// is generalized first: the consumer then reads the transposed or
/// broadcast tensor's source through the composed indexing map, and the
/// copy is never written.
bool isFusableProducer(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp &&
         isa<linalg::GenericOp, linalg::TransposeOp, linalg::BroadcastOp>(op) &&
         fp8::isFusableElementwise(linalgOp);
}

/// Whether every user of `producer` but `consumer` comes after `consumer`
/// in its block: the fused op, at the consumer's place, then dominates them
/// and gives them the producer's result as one of its own.
bool otherUsersFollow(Operation *producer, Operation *consumer) {
  return llvm::all_of(producer->getUsers(), [&](Operation *user) {
    if (user == consumer)
      return true;
    Operation *inBlock = consumer->getBlock()->findAncestorOpInBlock(*user);
    return inBlock && consumer->isBeforeInBlock(inBlock);
  });
}

/// Whether `consumer` (an op on tensors: no effects) may move up to right
/// after `producer`: every value it reads from above, as an operand or in
/// its body, is the producer's or available before the producer. It is then
/// before the producer's other users.
bool canMoveAfter(Operation *consumer, Operation *producer) {
  if (consumer->getBlock() != producer->getBlock())
    return false;
  DominanceInfo dominance;
  WalkResult walk = consumer->walk([&](Operation *inner) {
    for (Value v : inner->getOperands()) {
      bool fromAbove =
          !consumer->isAncestor(v.getParentRegion()->getParentOp());
      if (fromAbove && v.getDefiningOp() != producer &&
          !dominance.properlyDominates(v, producer))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// Whether to fuse `operand`'s producer into its consumer: both are
/// element-wise and fusing moves work without repeating it: the consumer
/// reads the produced elements at its own iteration (a permutation, not a
/// broadcast that would recompute each produced element many times), and
/// the producer's other users come after the consumer, or the consumer can
/// move before them (the fused op computes the producer's result once, for
/// the consumer and for them).
bool shouldFuse(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
  if (!consumer || !fp8::isFusableElementwise(consumer) ||
      !isFusableProducer(producer) ||
      !fp8::readsEachElementOnce(consumer.getMatchingIndexingMap(operand),
                                 consumer.getStaticLoopRanges()))
    return false;
  // A transpose or broadcast is fusable once generalized (an identity
  // output map); a generic is asked before anything is rewritten.
  if (isa<linalg::GenericOp>(producer) &&
      !linalg::areElementwiseOpsFusable(operand))
    return false;
  return otherUsersFollow(producer, consumer) ||
         canMoveAfter(consumer, producer);
}

struct FuseProducer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand &operand : consumer->getOpOperands()) {
      if (!shouldFuse(&operand))
        continue;
      Operation *producer = operand.get().getDefiningOp();
      if (!otherUsersFollow(producer, consumer))
        rewriter.moveOpAfter(consumer, producer);
      // From here on the IR has changed: success whatever follows (the
      // greedy driver's contract).
      if (!isa<linalg::GenericOp>(producer)) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(producer);
        FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(
            rewriter, cast<linalg::LinalgOp>(producer));
        if (failed(generic) || !linalg::areElementwiseOpsFusable(&operand))
          return success();
        producer = *generic;
      }
      // The fused op takes the consumer's place.
      rewriter.setInsertionPoint(consumer);
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, &operand);
      if (failed(fused))
        return success();
      // The fused op itself may still read the producer's result (a
      // consumer reading it through two operands): that use stays, and so
      // does the producer.
      Operation *fusedOp = fused->fusedOp;
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
          return use.getOwner() != fusedOp;
        });
      // The fused op computes the consumer's result: its annotations.
      for (NamedAttribute attr : consumer->getDiscardableAttrs())
        if (isAnnotation(attr.getName().strref()))
          fusedOp->setAttr(attr.getName(), attr.getValue());
      rewriter.eraseOp(consumer);
      if (producer->use_empty())
        rewriter.eraseOp(producer);
      return success();
    }
    return failure();
  }
};

struct FP8FuseElementwisePass
    : fp8::impl::FP8FuseElementwisePassBase<FP8FuseElementwisePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseProducer>(&getContext());
    // The head permutations around RoPE as generics fused with it.
    fp8::populateFoldRopePermutationsPatterns(patterns);
    GreedyRewriteConfig config;
    // Only the fusion: no folding of the other ops of the graph.
    config.enableFolding(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
