//===- RoleAnalysis.h - roles of the ops of a model graph -------*- C++ -*-===//
//
// What fp8-assign-precision, fp8-insert-quant and fp8-report agree on: which
// linalg ops are matmul-like contractions, in which layout their operands
// are stored, which values are weights (parameters) rather than
// activations, and the heuristic role of every linalg op (RoleAnalysis,
// obtained by the passes with getAnalysis<RoleAnalysis>()). The heuristics
// are described in docs/policies.md and docs/design.md §3.1.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_ANALYSIS_ROLEANALYSIS_H
#define FP8_DIALECT_FP8_ANALYSIS_ROLEANALYSIS_H

#include "fp8/Dialect/FP8/Analysis/WeightView.h"
#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <optional>
#include <set>

namespace mlir::fp8 {

/// A linalg contraction seen as D[m..., n] += A . B with one K and one N
/// loop. Batch loops (linalg.batch_matmul) count as leading M loops: for a
/// linear layer the weight is the same for every batch.
struct Contraction {
  linalg::LinalgOp op;
  /// Loop dims, from linalg::inferContractionDims (batch dims first in `m`).
  SmallVector<unsigned> mDims;
  unsigned nDim = 0, kDim = 0;
  /// Static extents (ShapedType::kDynamic when unknown); m = product.
  int64_t m = 0, n = 0, k = 0;
  /// Number of batch loops (a prefix of mDims).
  unsigned numBatch = 0;
  /// Operand layouts. A: true when stored [m..., k] (K last, M loops in
  /// order), false when stored [k, m] (rank 2, K first: contraction over
  /// tokens). Other layouts leave `supported` false.
  bool aKLast = true;
  /// B: true when stored [b..., n, k] (NT), false when [b..., k, n].
  bool bNK = false;
  /// True when the output is stored [m..., n] and the operands in one of the
  /// layouts above, i.e. fp8-insert-quant can rewrite it.
  bool supported = false;
  /// Why `supported` is false.
  std::string unsupportedReason;
};

/// True when the only single-operand ops of `op`'s body are numeric casts
/// (arith extf, truncf, extsi, extui, trunci, sitofp, uitofp).
/// linalg::isaContractionOpInterface checks the multiply-accumulate's
/// shape, but looks through every single-operand op, so without this a
/// generic computing c - a * b (negf), |a| * b (absf) or exp(a) * b would
/// be taken for a matmul and rewritten into an FP8 one: silently wrong.
bool hasMulAddBody(linalg::LinalgOp op);

/// Matches a matmul-like linalg contraction (linalg.matmul, batch_matmul,
/// contraction-shaped generics whose body hasMulAddBody) with exactly one
/// N and one K loop, of any element type (the passes refuse non-float
/// ones with a remark).
std::optional<Contraction> matchContraction(Operation *op);

/// True for ops that only move or reshape data: tensor reshapes and casts,
/// linalg.transpose/broadcast/copy, a linalg.generic whose body only yields
/// its single input (copy, transpose, broadcast), float casts.
bool isDataMovement(Operation *op);

/// isDataMovement, or a linalg.generic that only casts its input's float
/// type (extf/truncf), possibly transposing or broadcasting: the ops a
/// weight or a table is followed through back to its source.
bool isValuePreserving(Operation *op);

/// What traceSource crossed on its way back.
struct TraceInfo {
  bool transpose = false; ///< a transposing copy or linalg.transpose
  bool broadcast = false; ///< a broadcast (a loop the input does not index)
};

/// Longest chain of data-movement ops traceSource follows.
constexpr unsigned kMaxTraceSteps = 64;

/// Follows `v` back through value-preserving ops (isValuePreserving), in any
/// order, to where it was computed.
Value traceSource(Value v, TraceInfo *info = nullptr);

/// Where a weight comes from; `none` for an activation.
enum class WeightSource { none, functionArgument, constant, global };

/// "function argument", "constant", "global" (the words of the report's
/// reasons), "" for `none`.
StringRef stringifyWeightSource(WeightSource source);

/// What `v` traces back to through data movement (traceSource): a
/// parameter of the model (an entry-block argument of a function, a
/// constant, an ml_program global) or an activation (`none`).
WeightSource getWeightSource(Value v);

/// True for a linalg op with a reduction loop that is not a contraction.
bool isReduction(Operation *op);

/// True when `op`'s body (or the op itself) computes exp: softmax, sigmoid,
/// SiLU; or is a top-k / softmax op by its op name; or is a sort-free top-k
/// (a max or argmax reduction over its input's last dim); or is a call that
/// returns selection indices over its input's last dim or whose callee
/// holds such an op (never by the callee's name).
bool isSoftmaxLike(Operation *op);

/// An embedding lookup: a linalg.generic extracting rows from a captured
/// table at an index computed from its input (the token ids). An element
/// pick is not one: a read whose other indices are the generic's own
/// `linalg.index` of loop dimensions the ids vary over (`take_along_axis`,
/// the cross-entropy's `logits[t, target[t]]`: one element of the id's own
/// row per id, where an embedding walks a row of the table per id).
struct Gather {
  Value table;
  /// The size of the dimension the token ids index (the vocabulary);
  /// ShapedType::kDynamic when unknown.
  int64_t vocab;
};

/// The embedding lookup `op` is, if any (any table rank).
std::optional<Gather> matchGather(Operation *op);

/// An embedding gradient: a linalg.generic that scatter-adds rows into a
/// table at indices read from an integer input (the token ids), as
/// `embedding_dense_backward` is exported (a reduction over the tokens whose
/// body compares the id with `linalg.index` and selects).
struct ScatterAdd {
  /// The size of the table dimension the ids are compared against.
  int64_t vocab;
};
std::optional<ScatterAdd> matchScatterAdd(Operation *op);

/// Ops searched back from the row a scatter-add loop writes for the read of
/// the same row and the addition (matchScatterAddLoop).
constexpr unsigned kMaxScatterRowOps = 16;

/// An embedding gradient written as a loop over the tokens (index_put with
/// accumulate, as the split backward of fp8_mlir.training exports
/// embedding_dense_backward): a loop (LoopLikeOpInterface: scf.for, ...)
/// carrying the table, whose body writes the table back
/// (tensor.insert_slice / tensor.insert of the carried value, yielded) at
/// an index read from an integer tensor (the token id), with a value that
/// adds to the row read from the carried table at that same index. The
/// vocabulary is the size of the table dimension the token id indexes.
std::optional<ScatterAdd> matchScatterAddLoop(Operation *op);

/// True when contraction operand `v`, whose contraction dimension is its
/// last (`kLast`) or first dimension, is contracted along the leading
/// dimension of the tensor it is a view of: the walk goes back through
/// transposes (each flips the side), reshapes that keep the last dimension
/// and float casts, at most kMaxTraceSteps ops.
bool contractsLeadingDim(Value v, bool kLast);

/// Element type of an op's first result (or first tensor operand).
Type getComputeElementType(Operation *op);

/// True when `x` is defined before `y` in program order: entry-block
/// arguments first, by index, then ops by position; values in different
/// blocks are unordered (false). aot_autograd emits a training step's
/// activations before the gradients computed from them, so the passes use
/// this order to tell X from dY.
bool definedBefore(Value x, Value y);

/// The role the heuristics give an op, and why ("heuristic: ...").
struct RoleDecision {
  Role role = Role::other;
  std::string reason;
};

/// The heuristic roles of the linalg ops of every function with a body
/// under the analysed operation (a module). Construction classifies:
///   - contractions: `linear` when an operand is a weight (getWeightSource;
///     with batch loops, only a broadcast weight, per-group weights from a
///     constant/global, or per-expert weights from an argument when the
///     batch is a router's expert count and the tokens come from a dispatch),
///     `output_head` for a linear whose weight is the embedding table or a
///     vocabulary-sized linear reaching a function result, `gating` for an
///     expert-count linear feeding softmax/sigmoid/top-k; a contraction of
///     two activations is `dispatch` when one is computed from a router's
///     output (MoE token dispatch/combine), else `attention`;
///   - `embedding`: gathers from a table, and embedding gradients
///     (scatter-adds into a table at token ids, as a linalg op or a loop
///     over the tokens; their table's rows are the vocabulary in a
///     backward graph without the gather);
///   - `normalization`: the region around each rsqrt (LayerNorm, RMSNorm);
///   - `attention`: the ops on paths between contractions that feed an
///     attention contraction.
/// Overrides and precision are not its business (fp8-assign-precision).
/// Every graph walk is bounded by a named limit below, so the analysis is
/// linear in the graph size.
class RoleAnalysis {
public:
  explicit RoleAnalysis(Operation *root);

  /// The contraction view of `op` when it is a matmul-like contraction of an
  /// analysed function; null otherwise.
  const Contraction *getContraction(Operation *op) const;
  /// The heuristic decision for a linalg op of an analysed function; ops no
  /// heuristic matched get `other` ("heuristic: no sensitive pattern").
  RoleDecision getDecision(Operation *op) const;
  /// The linalg ops (not those inside linalg bodies) of `func`, in program
  /// order; empty when `func` was not analysed.
  ArrayRef<Operation *> getLinalgOps(FunctionOpInterface func) const;
  /// True when `func` holds at least one matmul-like contraction.
  bool hasContraction(FunctionOpInterface func) const;
  /// Which GEMM of a linear's training step `op` is, when the module is a
  /// training graph (a weight gradient or an activation gradient was
  /// recognised in one of its functions; docs/training.md); std::nullopt for
  /// other ops and in inference graphs. Every contraction with a weight of a
  /// training graph is an fprop unless recognised as a dgrad.
  std::optional<GemmKind> getGemmKind(Operation *op) const;
  /// Which operand (0 or 1) of a weight gradient is the incoming gradient
  /// dY, the other being the saved activation X, as the fprop/dgrad pairing
  /// decided it (TrainingGemms.cpp); std::nullopt for other ops.
  std::optional<unsigned> getWgradGradientOperand(Operation *op) const;

  /// Vocabulary sizes at or above this count as an output head even when no
  /// embedding table of that size is in the graph (LLaMA: 32000).
  static constexpr int64_t kMinVocab = 32000;
  /// Largest N treated as an expert count (DeepSeek-V3 routes over 256).
  static constexpr int64_t kMaxExperts = 512;
  /// Ops visited looking for a function result downstream of a linear.
  static constexpr unsigned kMaxReturnSearchOps = 256;
  /// Depth of the search for a softmax/sigmoid/top-k after a router.
  static constexpr unsigned kMaxSoftmaxSearchDepth = 8;
  /// Ops of a normalization's statistics chain (rsqrt back to reductions).
  static constexpr unsigned kMaxStatisticsOps = 32;
  /// Values searched for the reduction a statistic reduces.
  static constexpr unsigned kMaxReducedValueSearch = 16;
  /// Elementwise steps peeled off a reduction's input (x*x, x - mean).
  static constexpr unsigned kMaxNormInputPeelSteps = 4;
  /// Ops between a normalization's input and its rsqrt.
  static constexpr unsigned kMaxNormSliceOps = 64;
  /// Ops of one normalization region, its elementwise tail included.
  static constexpr unsigned kMaxNormRegionOps = 128;
  /// Ops on the paths into one attention contraction.
  static constexpr unsigned kMaxAttentionSliceOps = 512;
  /// Values visited walking back from one weight-gradient operand looking
  /// for the other (the fprop/dgrad pairing's data-flow test).
  static constexpr unsigned kMaxDescentSearchValues = 4096;
  /// Ops visited walking back from an operand to the contractions that
  /// produce it (MoE dispatch and grouped-expert recognition).
  static constexpr unsigned kMaxProducerSearchOps = 64;

private:
  void analyzeFunction(FunctionOpInterface func);
  void decide(Operation *op, Role role, std::string reason);
  /// Decides the embedding lookups and gradients of one function (linalg
  /// `ops`, loop-like `loops`): the vocabulary sizes their tables give, and
  /// the tables' parameters.
  void classifyEmbeddings(ArrayRef<Operation *> ops,
                          ArrayRef<Operation *> loops, DenseSet<int64_t> &vocab,
                          DenseSet<WeightView> &tables);
  /// `loops`: the loop-like ops of the function (embedding gradients
  /// written as loops over the tokens).
  void classifyContractions(ArrayRef<Operation *> ops,
                            ArrayRef<Operation *> loops);
  /// A weight gradient (lib/Dialect/FP8/Analysis/TrainingGemms.cpp):
  /// no batch loops, both operands contracted along their leading (token)
  /// dimension, and the product reaches a function result or one operand
  /// also feeds a contraction as its left operand.
  bool isWeightGradient(const Contraction &c,
                        const DenseSet<Value> &leftOperandSources) const;
  /// Labels the contractions of one function fprop/dgrad/wgrad and moves
  /// the gradients of a sensitive linear (output head, gating) into its
  /// role (TrainingGemms.cpp).
  void classifyTrainingGemms(ArrayRef<Operation *> ops,
                             ArrayRef<Operation *> weightLinears,
                             ArrayRef<Operation *> weightGradients,
                             const DenseSet<int64_t> &vocab);
  /// Its steps (TrainingGemms.cpp), in order: which operand source of each
  /// weight gradient is dY; fprop or dgrad for each contraction with a
  /// weight; the roles of the dgrads, then of the wgrads.
  struct TrainingPairing;
  void pairTrainingOperands(ArrayRef<Operation *> weightLinears,
                            ArrayRef<Operation *> weightGradients,
                            TrainingPairing &p);
  void classifyFpropsAndDgrads(ArrayRef<Operation *> weightLinears,
                               const TrainingPairing &p);
  bool contractsAlongOtherDim(Operation *first, Operation *later) const;
  void decideDgradRoles(ArrayRef<Operation *> weightLinears,
                        const TrainingPairing &p);
  void decideWgradRoles(ArrayRef<Operation *> weightLinears,
                        ArrayRef<Operation *> weightGradients,
                        const TrainingPairing &p);
  /// True when `v` is computed from `from` (through any op's operands and
  /// the values its regions capture), at most kMaxDescentSearchValues.
  bool descendsFrom(Value v, Value from) const;
  /// Which of a weight gradient's two operand sources is dY: the one
  /// computed from the other; else the one whose first reader among the
  /// contractions with a weight (`firstReader`: their activation sources'
  /// positions) comes later; else the one defined later.
  Value gradientOperand(Value p, Value q,
                        const DenseMap<Value, int64_t> &firstReader) const;
  void findNormalization(Operation *rsqrtOp, llvm::SetVector<Operation *> &out);
  void findAttentionRegion(Operation *att, llvm::SetVector<Operation *> &out);
  /// True when `op`'s result reaches a function result, through any op
  /// but a contraction: returned, or written into memory the caller passed
  /// (a destination-passing function's memref arguments).
  bool reachesReturn(Operation *op) const;
  /// The output head's data flow: `op`'s result reaches a function result
  /// (the logits, or the loss through a softmax/cross-entropy; returned or
  /// written into the caller's memory, as reachesReturn) and flows
  /// into no contraction but the head's own gradients (a Dgrad reading
  /// `weight`, a Wgrad reading `input` and no weight). Every other linear's
  /// result feeds the next layer or attention, even where it also reaches
  /// a result (through the norm weights' gradients of a joint training
  /// graph, or returned as a saved activation by a split forward).
  bool endsForward(Operation *op, const WeightView &weight, Value input) const;
  /// True when no activation gradient (a dgrad) lies upstream of `dY`: the
  /// loss gradient, which the output head's backward reads first; every
  /// other linear's dY comes through the dgrad of the layer after it.
  bool isLossGradient(Value dY) const;
  Operation *feedsSoftmax(Operation *op) const;
  void classifyDenseCombines(ArrayRef<Operation *> ops);
  /// The softmax-like op (isSoftmaxLike) `v` is computed by within
  /// kMaxSoftmaxSearchDepth ops back, not through a contraction (the
  /// probabilities of attention's P * V); null when none.
  Operation *readsSoftmax(Value v) const;
  /// True when contraction `op` reads a function argument with unit batch
  /// dims as it is (an MQA cache [1, S, D], or a [1, K, N] weight).
  bool readsUnitBatchArgument(Operation *op) const;
  /// True when a softmax lies between `op` (whose other operand is
  /// `activation`) and another contraction reading a unit-batch argument:
  /// QK^T and P * V against an MQA cache passed without a broadcast.
  bool isBetweenCacheContractions(Operation *op, Value activation) const;
  bool isContraction(Operation *op) const { return contractions.count(op); }
  /// The contractions `v` is computed from (walking back through any op,
  /// stopping at contractions), bounded by kMaxProducerSearchOps.
  SmallVector<Operation *> getProducingContractions(Value v) const;

  /// Program order of every op of the analysed functions.
  DenseMap<Operation *, unsigned> position;
  DenseMap<Operation *, Contraction> contractions;
  DenseMap<Operation *, RoleDecision> decisions;
  DenseMap<Operation *, SmallVector<Operation *>> linalgOps;
  /// Attention contractions of the function being analysed.
  SmallVector<Operation *> attentionOps;
  /// MoE structure found so far: router linears and their expert counts,
  /// token dispatch/combine contractions, grouped expert linears.
  llvm::SmallPtrSet<Operation *, 8> gatingOps, dispatchOps, groupedOps;
  llvm::DenseSet<int64_t> expertCounts;
  /// Router weights passed as arguments, by parameter (the argument's loc
  /// name and type), over the whole module: a split backward function gets
  /// the router's weight as its own argument, so the gating fprop that
  /// names it lives in the forward function.
  std::set<ParameterKey> gatingParameters;
  /// Training GEMM kinds (fprop only where a pairing decided it; the
  /// other contractions with a weight are fprops in a training module).
  DenseMap<Operation *, GemmKind> gemmKinds;
  /// The operand index of dY of each weight gradient.
  DenseMap<Operation *, unsigned> wgradGradientIndex;
  /// Contractions with a weight operand (linear, output_head, gating).
  llvm::SetVector<Operation *> weightContractions;
  /// A weight or activation gradient was recognised in the module.
  bool training = false;
};

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_ANALYSIS_ROLEANALYSIS_H
