//===- AssignPrecision.cpp - fp8-assign-precision --------------------------===//
//
// Classifies the ops of an exported model graph by role and decides their
// precision under a policy (DESIGN.md §3.1, docs/policies.md). The pass only
// annotates; fp8-insert-quant materialises the decisions.
//
//===----------------------------------------------------------------------===//
#include "GraphAnalysis.h"

#include "fp8/Dialect/FP8.h"
#include "fp8/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/GlobPattern.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8ASSIGNPRECISION
#include "fp8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// One `PATTERN:VALUE` entry of the `overrides` option.
struct NameOverride {
  std::string pattern;
  llvm::GlobPattern glob;
  std::optional<Role> role;
  std::optional<Precision> precision;
};

/// What the heuristics decided for one op.
struct Decision {
  Role role = Role::other;
  std::string reason;
};

/// Vocabulary sizes at or above this count as an output head even when no
/// embedding table of that size is in the graph (LLaMA: 32000).
constexpr int64_t kMinVocab = 32000;
/// Largest N treated as an expert count (DeepSeek-V3 routes over 256).
constexpr int64_t kMaxExperts = 512;

bool isFloat(Type t) { return t && isa<FloatType>(t); }

/// The tensor inputs of an op as the region walks see them: DPS inputs of a
/// linalg op, the source of a reshape-like op.
SmallVector<Value> dataInputs(Operation *op) {
  if (auto lop = dyn_cast<linalg::LinalgOp>(op)) {
    SmallVector<Value> v;
    for (OpOperand *o : lop.getDpsInputOperands())
      v.push_back(o->get());
    return v;
  }
  if (op->getNumOperands() == 0)
    return {};
  return {op->getOperand(0)};
}

int64_t numElements(Value v) {
  auto t = dyn_cast<ShapedType>(v.getType());
  if (!t || !t.hasStaticShape())
    return -1;
  return t.getNumElements();
}

/// A parameter broadcast into an elementwise op (LayerNorm gamma/beta, a
/// bias): weight-like and smaller than the op's result.
bool isBroadcastParameter(Value v, Operation *user) {
  if (weightSourceKind(v).empty() || user->getNumResults() == 0)
    return false;
  int64_t n = numElements(v), r = numElements(user->getResult(0));
  return n >= 0 && r >= 0 && n < r;
}

bool bodyHas(Operation *op, function_ref<bool(Operation *)> pred) {
  bool found = false;
  op->walk([&](Operation *inner) {
    if (inner != op && pred(inner))
      found = true;
  });
  return found;
}

class AssignPrecisionPass
    : public fp8::impl::FP8AssignPrecisionBase<AssignPrecisionPass> {
public:
  using FP8AssignPrecisionBase::FP8AssignPrecisionBase;

  LogicalResult initialize(MLIRContext *ctx) override;
  void runOnOperation() override;

private:
  LogicalResult classifyFunction(FunctionOpInterface func);
  void findNormalization(Operation *rsqrtOp, llvm::SetVector<Operation *> &out);
  void findAttentionRegion(Operation *att, llvm::SetVector<Operation *> &out);
  bool reachesReturn(Operation *op);
  Operation *feedsSoftmax(Operation *op);
  const NameOverride *matchName(Operation *op, bool wantRole,
                                std::string &matchedName) const;
  Precision decidePrecision(Operation *op, Role role, bool isContraction);

  PolicyAttr policyAttr;
  SmallVector<NameOverride> nameOverrides;
  DenseMap<Operation *, unsigned> position;
  DenseMap<Operation *, Contraction> contractions;
  SmallVector<Operation *> attentionOps;
};

} // namespace

LogicalResult AssignPrecisionPass::initialize(MLIRContext *ctx) {
  ctx->getOrLoadDialect<FP8Dialect>();
  policyAttr = PolicyAttr::getPreset(ctx, policy);
  if (!policyAttr) {
    std::string known;
    llvm::raw_string_ostream os(known);
    llvm::interleaveComma(PolicyAttr::getPresetNames(), os);
    return emitError(UnknownLoc::get(ctx))
           << "fp8-assign-precision: unknown policy '" << policy
           << "' (known: " << known << ")";
  }
  nameOverrides.clear();
  for (const std::string &entry : overrides) {
    StringRef e(entry);
    size_t colon = e.rfind(':');
    auto bad = [&](StringRef why) {
      return emitError(UnknownLoc::get(ctx))
             << "fp8-assign-precision: malformed override '" << entry
             << "': " << why
             << " (expected PATTERN:VALUE, VALUE a role: linear, embedding, "
                "output_head, gating, normalization, attention, other; or a "
                "precision: fp8, bf16, f32)";
    };
    if (colon == StringRef::npos)
      return bad("missing ':'");
    StringRef pat = e.take_front(colon).trim(), val = e.drop_front(colon + 1).trim();
    if (pat.empty())
      return bad("empty pattern");
    NameOverride o;
    o.pattern = pat.str();
    if (std::optional<Role> r = symbolizeRole(val))
      o.role = r;
    else if (std::optional<Precision> p = symbolizePrecision(val))
      o.precision = p;
    else
      return bad(("unknown value '" + val + "'").str());
    llvm::Expected<llvm::GlobPattern> glob = llvm::GlobPattern::create(pat);
    if (!glob)
      return bad(llvm::toString(glob.takeError()));
    o.glob = std::move(*glob);
    nameOverrides.push_back(std::move(o));
  }
  return success();
}

/// Collects the names a location carries (torch-mlir keeps module paths such
/// as `model.layers.0.mlp.gate` in NameLocs, sometimes nested in fused or
/// call-site locations).
static void collectLocNames(Location loc, SmallVectorImpl<StringRef> &names) {
  if (auto n = dyn_cast<NameLoc>(loc)) {
    names.push_back(n.getName().getValue());
    collectLocNames(n.getChildLoc(), names);
  } else if (auto f = dyn_cast<FusedLoc>(loc)) {
    for (Location l : f.getLocations())
      collectLocNames(l, names);
  } else if (auto c = dyn_cast<CallSiteLoc>(loc)) {
    collectLocNames(c.getCallee(), names);
    collectLocNames(c.getCaller(), names);
  }
}

/// A glob matches a name when it matches the whole name or a suffix that
/// starts after a '.': `lm_head` matches `model.lm_head`.
static bool globMatches(const llvm::GlobPattern &glob, StringRef name) {
  if (glob.match(name))
    return true;
  for (size_t dot = name.find('.'); dot != StringRef::npos;
       dot = name.find('.', dot + 1))
    if (glob.match(name.drop_front(dot + 1)))
      return true;
  return false;
}

const NameOverride *AssignPrecisionPass::matchName(Operation *op, bool wantRole,
                                                   std::string &matched) const {
  SmallVector<StringRef> names;
  collectLocNames(op->getLoc(), names);
  if (names.empty())
    return nullptr;
  for (const NameOverride &o : nameOverrides) {
    if (wantRole ? !o.role : !o.precision)
      continue;
    for (StringRef n : names)
      if (globMatches(o.glob, n)) {
        matched = n.str();
        return &o;
      }
  }
  return nullptr;
}

bool AssignPrecisionPass::reachesReturn(Operation *op) {
  SmallVector<Operation *> work{op};
  DenseSet<Operation *> seen{op};
  while (!work.empty() && seen.size() < 256) {
    Operation *cur = work.pop_back_val();
    for (Operation *user : cur->getUsers()) {
      if (user->hasTrait<OpTrait::ReturnLike>() &&
          isa<FunctionOpInterface>(user->getParentOp()))
        return true;
      if (contractions.count(user) || !seen.insert(user).second)
        continue;
      work.push_back(user);
    }
  }
  return false;
}

Operation *AssignPrecisionPass::feedsSoftmax(Operation *op) {
  SmallVector<std::pair<Operation *, int>> work{{op, 0}};
  DenseSet<Operation *> seen{op};
  while (!work.empty()) {
    auto [cur, depth] = work.pop_back_val();
    for (Operation *user : cur->getUsers()) {
      if (contractions.count(user) || !seen.insert(user).second)
        continue;
      if (isSoftmaxLike(user))
        return user;
      if (depth < 8)
        work.push_back({user, depth + 1});
    }
  }
  return nullptr;
}

/// The normalization around an rsqrt: its statistics chain back to the
/// reductions, the normalized input X those reduce, the ops between X and
/// the rsqrt, and the elementwise tail (x * rstd, gamma, beta).
void AssignPrecisionPass::findNormalization(Operation *r,
                                            llvm::SetVector<Operation *> &out) {
  auto inRegionKind = [&](Operation *op) {
    return op && !contractions.count(op) &&
           (isa<linalg::LinalgOp>(op) || isDataMovement(op));
  };
  // A: the statistics chain, back from the rsqrt to the reductions.
  SmallVector<Operation *> reductions, work{r};
  DenseSet<Operation *> seen{r};
  while (!work.empty() && seen.size() < 32) {
    Operation *cur = work.pop_back_val();
    for (Value in : dataInputs(cur)) {
      Operation *def = in.getDefiningOp();
      if (!inRegionKind(def) || !seen.insert(def).second)
        continue;
      if (isReduction(def))
        reductions.push_back(def);
      else
        work.push_back(def);
    }
  }
  if (reductions.empty())
    return;
  // B: the normalized input. Peel x*x / x^2 (RMSNorm) and x - mean(x)
  // (LayerNorm) off the reduction's input.
  auto reducesValue = [&](Value v, Value x) {
    SmallVector<Value> vals{v};
    for (unsigned i = 0; i < vals.size() && i < 16; ++i) {
      Operation *def = vals[i].getDefiningOp();
      if (!inRegionKind(def))
        continue;
      if (isReduction(def))
        return traceSource(dataInputs(def).front()) == traceSource(x);
      llvm::append_range(vals, dataInputs(def));
    }
    return false;
  };
  Value x = dataInputs(reductions.front()).front();
  for (unsigned step = 0; step < 4; ++step) {
    auto g = dyn_cast_or_null<linalg::GenericOp>(x.getDefiningOp());
    if (!g || g.getNumReductionLoops() != 0 || contractions.count(g))
      break;
    SmallVector<Value> ins = dataInputs(g);
    llvm::SetVector<Value> distinct(ins.begin(), ins.end());
    if (distinct.size() == 1 && numElements(ins[0]) == numElements(x)) {
      x = ins[0];
      continue;
    }
    if (ins.size() == 2 && bodyHas(g, [](Operation *o) {
          return isa<arith::SubFOp>(o);
        }) && reducesValue(ins[1], ins[0]))
      x = ins[0];
    break;
  }
  // C: the ops between X and the rsqrt.
  llvm::SetVector<Operation *> slice;
  work = {r};
  slice.insert(r);
  while (!work.empty() && slice.size() < 64) {
    Operation *cur = work.pop_back_val();
    for (Value in : dataInputs(cur)) {
      if (in == x)
        continue;
      Operation *def = in.getDefiningOp();
      if (inRegionKind(def) && slice.insert(def))
        work.push_back(def);
    }
  }
  SmallVector<Operation *> sorted(slice.begin(), slice.end());
  llvm::sort(sorted, [&](Operation *a, Operation *b) {
    return position.lookup(a) < position.lookup(b);
  });
  llvm::SetVector<Operation *> region;
  for (Operation *op : sorted)
    if (llvm::any_of(dataInputs(op), [&](Value v) {
          return v == x || region.contains(v.getDefiningOp());
        }))
      region.insert(op);
  if (!region.contains(r))
    return;
  // D: the elementwise tail after the rsqrt.
  work = {r};
  while (!work.empty() && region.size() < 128) {
    Operation *cur = work.pop_back_val();
    for (Operation *user : cur->getUsers()) {
      if (region.contains(user) || !inRegionKind(user) || isReduction(user))
        continue;
      bool allKnown = llvm::all_of(dataInputs(user), [&](Value v) {
        return v == x || region.contains(v.getDefiningOp()) ||
               isBroadcastParameter(v, user);
      });
      if (!allKnown)
        continue;
      region.insert(user);
      work.push_back(user);
    }
  }
  // Copies at the end of the tail belong to whatever consumes them.
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *op : llvm::to_vector(region)) {
      if (op == r || !isDataMovement(op))
        continue;
      if (llvm::none_of(op->getUsers(),
                        [&](Operation *u) { return region.contains(u); })) {
        region.remove(op);
        changed = true;
      }
    }
  }
  out.insert(region.begin(), region.end());
}

/// The ops on paths from contractions into an attention contraction:
/// head reshapes/transposes, RoPE, scaling, masking, softmax.
void AssignPrecisionPass::findAttentionRegion(
    Operation *att, llvm::SetVector<Operation *> &out) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> work{att};
  while (!work.empty() && slice.size() < 512) {
    Operation *cur = work.pop_back_val();
    for (Value in : dataInputs(cur)) {
      Operation *def = in.getDefiningOp();
      if (!def || contractions.count(def) ||
          !(isa<linalg::LinalgOp>(def) || isDataMovement(def)))
        continue;
      if (slice.insert(def))
        work.push_back(def);
    }
  }
  SmallVector<Operation *> sorted(slice.begin(), slice.end());
  llvm::sort(sorted, [&](Operation *a, Operation *b) {
    return position.lookup(a) < position.lookup(b);
  });
  DenseSet<Operation *> reached;
  for (Operation *op : sorted) {
    bool fromContraction = false, fromLinear = false;
    for (Value v : dataInputs(op)) {
      Operation *def = v.getDefiningOp();
      if (reached.contains(def))
        fromContraction = true;
      if (def && contractions.count(def)) {
        fromContraction = true;
        fromLinear |= !llvm::is_contained(attentionOps, def);
      }
    }
    if (!fromContraction)
      continue;
    reached.insert(op);
    // A bias add right after a projection belongs to the linear layer.
    bool biasAdd =
        fromLinear && !isDataMovement(op) &&
        llvm::any_of(dataInputs(op),
                     [&](Value v) { return isBroadcastParameter(v, op); }) &&
        llvm::all_of(dataInputs(op), [&](Value v) {
          Operation *def = v.getDefiningOp();
          return (def && contractions.count(def)) || isBroadcastParameter(v, op);
        });
    if (!biasAdd)
      out.insert(op);
  }
}

Precision AssignPrecisionPass::decidePrecision(Operation *op, Role role,
                                               bool isContraction) {
  Type own = getComputeElementType(op);
  auto precisionOf = [](Type t) {
    return t.isF32() || t.isF64() ? Precision::f32 : Precision::bf16;
  };
  Precision high = precisionOf(policyAttr.getHigh());
  if (role == Role::linear && isContraction &&
      !policyAttr.keepsHigh(Role::linear))
    return Precision::fp8;
  if (policyAttr.keepsHigh(role)) {
    if (isContraction)
      return high;
    // Elementwise and reduction ops are never narrowed below their own
    // type: an f32 LayerNorm stays f32 (DeepSeek-V3 keeps these in FP32).
    Precision mine = precisionOf(own);
    return mine == Precision::f32 ? Precision::f32 : high;
  }
  if (isContraction && role != Role::other)
    return Precision::fp8;
  return precisionOf(own);
}

LogicalResult AssignPrecisionPass::classifyFunction(FunctionOpInterface func) {
  position.clear();
  contractions.clear();
  SmallVector<Operation *> ops;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func.getOperation())
      return WalkResult::advance();
    position[op] = position.size();
    if (isa<linalg::LinalgOp>(op)) {
      ops.push_back(op);
      return WalkResult::skip(); // not the ops of a linalg body
    }
    if (op->getName().getStringRef() == "tosa.matmul" ||
        op->getName().getStringRef() == "tosa.conv2d")
      op->emitRemark() << "fp8-assign-precision: TOSA op not classified; run "
                          "tosa-to-linalg first (fp8-pipeline does)";
    return WalkResult::advance();
  });
  for (Operation *op : ops)
    if (std::optional<Contraction> c = matchContraction(op))
      contractions[op] = *c;
  if (contractions.empty()) {
    InFlightDiagnostic diag =
        strict ? func->emitError() : func->emitRemark();
    diag << "fp8-assign-precision: no matmul-like contraction recognised in @"
         << cast<SymbolOpInterface>(func.getOperation()).getName()
         << "; function left unchanged";
    return failure(strict);
  }

  DenseMap<Operation *, Decision> decided;
  auto decide = [&](Operation *op, Role role, std::string reason) {
    decided.try_emplace(op, Decision{role, std::move(reason)});
  };

  // Contractions: linear (a weight operand) or attention (two activations).
  DenseSet<int64_t> vocab;
  for (Operation *op : ops)
    if (Value table = getGatherTable(op)) {
      auto t = cast<RankedTensorType>(table.getType());
      vocab.insert(t.getDimSize(0));
      std::string reason;
      llvm::raw_string_ostream os(reason);
      os << "heuristic: gather from a " << t.getDimSize(0) << "x"
         << t.getDimSize(1) << " table";
      decide(op, Role::embedding, reason);
    }
  attentionOps.clear();
  for (Operation *op : ops) {
    auto it = contractions.find(op);
    if (it == contractions.end())
      continue;
    Contraction &c = it->second;
    Value a = c.op.getDpsInputOperand(0)->get();
    Value b = c.op.getDpsInputOperand(1)->get();
    // With batch loops, a weight is shared by every batch: it must be
    // broadcast (a KV cache passed as an argument is not a weight). The
    // exception is a grouped linear, one batch dim with per-group weights
    // from a constant or global (MoE routed experts [E, K, N], DeepSeek-V3
    // §3.3: FP8 like every other linear); an argument that varies over the
    // batch stays ambiguous (a KV cache) and needs an override.
    bool grouped = false;
    auto isWeight = [&](Value v, bool right) -> StringRef {
      StringRef kind = weightSourceKind(v);
      if (kind.empty() || c.numBatch == 0)
        return kind;
      TraceInfo info;
      traceSource(v, &info);
      auto t = cast<ShapedType>(v.getType());
      bool batchOne = true;
      for (unsigned i = 0; i < c.numBatch; ++i)
        batchOne &= t.getDimSize(i) == 1;
      if (batchOne || info.broadcast)
        return kind;
      if (right && c.numBatch == 1 && kind != "function argument") {
        grouped = true;
        return kind;
      }
      return StringRef();
    };
    StringRef bKind = isWeight(b, true), aKind = isWeight(a, false);
    std::string reason;
    llvm::raw_string_ostream os(reason);
    if (!bKind.empty() || !aKind.empty()) {
      os << "heuristic: contraction with "
         << (grouped ? "per-group weights (" : "a weight (")
         << (bKind.empty() ? aKind : bKind)
         << (bKind.empty() ? ", left operand)" : ")");
      Role role = Role::linear;
      if (!ShapedType::isDynamic(c.n) &&
          (vocab.contains(c.n) || c.n >= kMinVocab) && reachesReturn(op)) {
        role = Role::output_head;
        reason.clear();
        os << "heuristic: vocabulary-sized linear (N = " << c.n
           << ") reaching a function result";
      } else if (!ShapedType::isDynamic(c.n) && !ShapedType::isDynamic(c.k) &&
                 c.n <= kMaxExperts && 4 * c.n <= c.k) {
        // Only the router linear is tagged: its softmax/sigmoid/top-k is an
        // elementwise/reduction op that keeps its own type anyway.
        if (feedsSoftmax(op)) {
          role = Role::gating;
          reason.clear();
          os << "heuristic: expert-count linear (N = " << c.n
             << ") feeding softmax/sigmoid/top-k";
        }
      }
      decide(op, role, reason);
    } else {
      decide(op, Role::attention, "heuristic: contraction of two activations");
      attentionOps.push_back(op);
    }
  }

  // Normalizations: around each rsqrt.
  for (Operation *op : ops) {
    if (contractions.count(op) ||
        !bodyHas(op, [](Operation *o) { return isa<math::RsqrtOp>(o); }))
      continue;
    llvm::SetVector<Operation *> region;
    findNormalization(op, region);
    for (Operation *n : region)
      decide(n, Role::normalization,
             "heuristic: normalization (reduction + rsqrt: LayerNorm/RMSNorm)");
  }
  // Attention: the paths into each attention contraction.
  for (Operation *att : attentionOps) {
    llvm::SetVector<Operation *> region;
    findAttentionRegion(att, region);
    for (Operation *n : region)
      decide(n, Role::attention,
             "heuristic: between contractions feeding attention (softmax, "
             "scale, mask, RoPE, head reshapes)");
  }

  // Overrides and precision; write the attributes.
  MLIRContext *ctx = func->getContext();
  for (Operation *op : ops) {
    Decision d = decided.lookup(op);
    if (!decided.count(op))
      d = {Role::other, "heuristic: no sensitive pattern"};
    std::string reason = d.reason;
    auto explicitRole = op->getAttrOfType<RoleAttr>(FP8Dialect::kRoleAttrName);
    auto explicitPrec =
        op->getAttrOfType<PrecisionAttr>(FP8Dialect::kPrecisionAttrName);
    // Attributes written by an earlier run of this pass are not overrides.
    if (auto prev = op->getAttrOfType<StringAttr>(FP8Dialect::kReasonAttrName))
      if (prev.getValue().starts_with("heuristic"))
        explicitRole = {}, explicitPrec = {};
    Role role = d.role;
    std::string matched;
    if (explicitRole) {
      role = explicitRole.getValue();
      reason = "override: fp8.role attribute";
    } else if (const NameOverride *o = matchName(op, true, matched)) {
      role = *o->role;
      reason = "override: loc name '" + matched + "' matches '" + o->pattern +
               "'";
    }
    bool isContraction = contractions.count(op);
    Type own = getComputeElementType(op);
    std::optional<Precision> precision;
    if (explicitPrec) {
      precision = explicitPrec.getValue();
      reason += "; precision override: fp8.precision attribute";
    } else if (const NameOverride *o = matchName(op, false, matched)) {
      precision = *o->precision;
      reason += "; precision override: loc name '" + matched + "' matches '" +
                o->pattern + "'";
    } else if (isFloat(own)) {
      precision = decidePrecision(op, role, isContraction);
    } else if (isContraction && own) {
      // An integer (e.g. already int8-quantized) contraction: FP8 does not
      // apply; say so instead of silently leaving it without a precision.
      op->emitRemark() << "fp8-assign-precision: contraction with element "
                          "type "
                       << own
                       << " is not floating-point (expected f32, bf16 or "
                          "f16); no precision assigned, left unchanged";
    }
    op->setAttr(FP8Dialect::kRoleAttrName, RoleAttr::get(ctx, role));
    if (precision)
      op->setAttr(FP8Dialect::kPrecisionAttrName,
                  PrecisionAttr::get(ctx, *precision));
    op->setAttr(FP8Dialect::kReasonAttrName, StringAttr::get(ctx, reason));
  }
  return success();
}

void AssignPrecisionPass::runOnOperation() {
  ModuleOp module = getOperation();
  module->setAttr(FP8Dialect::kPolicyAttrName, policyAttr);
  bool failed = false;
  module.walk([&](FunctionOpInterface func) {
    if (func.isExternal())
      return;
    failed |= ::mlir::failed(classifyFunction(func));
  });
  if (failed)
    signalPassFailure();
}
