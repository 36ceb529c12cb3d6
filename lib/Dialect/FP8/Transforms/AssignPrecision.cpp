//===- AssignPrecision.cpp - fp8-assign-precision -------------------------===//
//
// Decides the precision of the ops of an exported model graph under a
// policy (docs/design.md §3.1, docs/policies.md): the roles come from
// RoleAnalysis, then overrides (fp8.role / fp8.precision attributes, the
// `overrides` option) and the policy decide, and the pass writes the
// fp8.role / fp8.precision / fp8.reason attributes. It only annotates;
// fp8-insert-quant materialises the decisions.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Analysis/RoleAnalysis.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/GlobPattern.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8ASSIGNPRECISIONPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
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
  std::optional<GemmKind> gemm;
};

bool isFloat(Type t) { return t && isa<FloatType>(t); }

class AssignPrecisionPass
    : public fp8::impl::FP8AssignPrecisionPassBase<AssignPrecisionPass> {
public:
  using FP8AssignPrecisionPassBase::FP8AssignPrecisionPassBase;

  LogicalResult initialize(MLIRContext *ctx) override;
  void runOnOperation() override;

private:
  /// What an override sets.
  enum class Field { role, precision, gemm };
  const NameOverride *matchName(Operation *op, Field field,
                                std::string &matchedName) const;
  Precision decidePrecision(Operation *op, Role role, bool isContraction);
  void annotate(FunctionOpInterface func, const RoleAnalysis &roles);

  PolicyAttr policyAttr;
  SmallVector<NameOverride> nameOverrides;
};

} // namespace

LogicalResult AssignPrecisionPass::initialize(MLIRContext *ctx) {
  ctx->getOrLoadDialect<FP8Dialect>();
  policyAttr = PolicyAttr::getPreset(ctx, policy);
  if (!policyAttr)
    return emitError(UnknownLoc::get(ctx))
           << "fp8-assign-precision: unknown policy '" << policy
           << "' (known: " << PolicyAttr::getPresetNameList() << ")";
  if (promotion == Promotion::none) {
    // The policy records it (promote_interval = ?); its verifier rejects a
    // preset whose K-blocks have their own scales.
    policyAttr = policyAttr.withPromoteInterval(ShapedType::kDynamic, [&] {
      return emitError(UnknownLoc::get(ctx))
             << "fp8-assign-precision: promotion=none with policy '" << policy
             << "': ";
    });
    if (!policyAttr)
      return failure();
  }
  if (wgradOperands != policyAttr.getWgradOperands()) {
    // The policy records it (wgrad_operands): fp8-insert-quant reads it.
    PolicyAttr::Fields fields = policyAttr.getFields();
    fields.wgradOperands = wgradOperands;
    policyAttr = PolicyAttr::getChecked(
        [&] { return emitError(UnknownLoc::get(ctx)); }, ctx, fields);
    if (!policyAttr)
      return failure();
  }
  nameOverrides.clear();
  for (const std::string &entry : overrides) {
    StringRef e(entry);
    size_t colon = e.rfind(':');
    auto bad = [&](StringRef why) {
      return emitError(UnknownLoc::get(ctx))
             << "fp8-assign-precision: malformed override '" << entry
             << "': " << why
             << " (expected PATTERN:VALUE, VALUE a role: " << getRoleNames()
             << "; a precision: fp8, bf16, f32; or a GEMM kind: fprop, "
                "dgrad, wgrad)";
    };
    if (colon == StringRef::npos)
      return bad("missing ':'");
    StringRef pat = e.take_front(colon).trim(),
              val = e.drop_front(colon + 1).trim();
    if (pat.empty())
      return bad("empty pattern");
    NameOverride o;
    o.pattern = pat.str();
    if (std::optional<Role> r = symbolizeRole(val))
      o.role = r;
    else if (std::optional<Precision> p = symbolizePrecision(val))
      o.precision = p;
    else if (std::optional<GemmKind> g = symbolizeGemmKind(val))
      o.gemm = g;
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

const NameOverride *AssignPrecisionPass::matchName(Operation *op, Field field,
                                                   std::string &matched) const {
  SmallVector<StringRef> names;
  collectLocNames(op->getLoc(), names);
  if (names.empty())
    return nullptr;
  for (const NameOverride &o : nameOverrides) {
    if ((field == Field::role && !o.role) ||
        (field == Field::precision && !o.precision) ||
        (field == Field::gemm && !o.gemm))
      continue;
    for (StringRef n : names)
      if (globMatches(o.glob, n)) {
        matched = n.str();
        return &o;
      }
  }
  return nullptr;
}

Precision AssignPrecisionPass::decidePrecision(Operation *op, Role role,
                                               bool isContraction) {
  Type own = getComputeElementType(op);
  Precision high = getHighPrecisionOf(policyAttr.getHigh());
  if (role == Role::linear && isContraction &&
      !policyAttr.keepsHigh(Role::linear))
    return Precision::fp8;
  // MoE token dispatch/combine contractions move tokens by routing weights:
  // high precision under every policy (like the gating they follow).
  if (policyAttr.keepsHigh(role) || role == Role::dispatch) {
    if (isContraction)
      return high;
    // Elementwise and reduction ops are never narrowed below their own
    // type: an f32 LayerNorm stays f32 (DeepSeek-V3 keeps these in FP32).
    Precision mine = getHighPrecisionOf(own);
    return mine == Precision::f32 ? Precision::f32 : high;
  }
  if (isContraction && role != Role::other)
    return Precision::fp8;
  return getHighPrecisionOf(own);
}

/// The element type `op` computes in when its precision label names another
/// (null otherwise), so the reason says what runs: an f16 op labelled bf16
/// (the policy's high precision; fp8-insert-quant casts only f32 operands
/// of a high-precision contraction, and other ops keep their own type), or
/// an f64 elementwise op labelled f32.
static Type computedTypeIfOther(Operation *op, Precision precision,
                                bool isContraction) {
  if (precision == Precision::fp8)
    return {};
  Type t = isContraction ? getElementTypeOrSelf(op->getOperand(0).getType())
                         : getComputeElementType(op);
  if (!t || !isa<FloatType>(t))
    return {};
  if (precision == Precision::bf16)
    return t.isBF16() || t.isF32() ? Type() : t;
  return isContraction || t.isF32() ? Type() : t;
}

/// Resolves overrides and precision for every linalg op of `func` and writes
/// its attributes.
void AssignPrecisionPass::annotate(FunctionOpInterface func,
                                   const RoleAnalysis &roles) {
  MLIRContext *ctx = func->getContext();
  for (Operation *op : roles.getLinalgOps(func)) {
    RoleDecision d = roles.getDecision(op);
    std::string reason = d.reason;
    auto explicitRole = op->getAttrOfType<RoleAttr>(FP8Dialect::kRoleAttrName);
    auto explicitPrec =
        op->getAttrOfType<PrecisionAttr>(FP8Dialect::kPrecisionAttrName);
    auto explicitGemm =
        op->getAttrOfType<GemmKindAttr>(FP8Dialect::kGemmAttrName);
    // Attributes written by an earlier run of this pass are not overrides.
    if (auto prev = op->getAttrOfType<StringAttr>(FP8Dialect::kReasonAttrName))
      if (prev.getValue().starts_with("heuristic"))
        explicitRole = {}, explicitPrec = {}, explicitGemm = {};
    Role role = d.role;
    std::string matched;
    if (explicitRole) {
      role = explicitRole.getValue();
      reason = "override: fp8.role attribute";
    } else if (const NameOverride *o = matchName(op, Field::role, matched)) {
      role = *o->role;
      reason =
          "override: loc name '" + matched + "' matches '" + o->pattern + "'";
    }
    bool isContraction = roles.getContraction(op);
    Type own = getComputeElementType(op);
    std::optional<Precision> precision;
    if (explicitPrec) {
      precision = explicitPrec.getValue();
      reason += "; precision override: fp8.precision attribute";
    } else if (const NameOverride *o =
                   matchName(op, Field::precision, matched)) {
      precision = *o->precision;
      reason += "; precision override: loc name '" + matched + "' matches '" +
                o->pattern + "'";
    } else if (isFloat(own)) {
      precision = decidePrecision(op, role, isContraction);
    } else if (isContraction && own) {
      // An integer (e.g. already int8-quantized) contraction: FP8 does not
      // apply; say so instead of silently leaving it without a precision.
      ::mlir::emitRemark(op->getLoc())
          << "fp8-assign-precision: contraction with element "
             "type "
          << own
          << " is not floating-point (expected f32, bf16 or "
             "f16); no precision assigned, left unchanged";
    }
    // The GEMM kind of a training graph's contraction: an explicit
    // fp8.gemm attribute, a loc-name override, or the analysis'.
    std::optional<GemmKind> gemm;
    if (explicitGemm)
      gemm = explicitGemm.getValue(),
      reason += "; gemm override: fp8.gemm attribute";
    else if (const NameOverride *o = matchName(op, Field::gemm, matched))
      gemm = *o->gemm, reason += "; gemm override: loc name '" + matched +
                                 "' matches '" + o->pattern + "'";
    else
      gemm = roles.getGemmKind(op);
    if (gemm && isContraction)
      op->setAttr(FP8Dialect::kGemmAttrName, GemmKindAttr::get(ctx, *gemm));
    op->setAttr(FP8Dialect::kRoleAttrName, RoleAttr::get(ctx, role));
    if (precision) {
      op->setAttr(FP8Dialect::kPrecisionAttrName,
                  PrecisionAttr::get(ctx, *precision));
      if (Type t = computedTypeIfOther(op, *precision, isContraction)) {
        llvm::raw_string_ostream os(reason);
        os << "; computes in " << t;
      }
    }
    op->setAttr(FP8Dialect::kReasonAttrName, StringAttr::get(ctx, reason));
  }
}

void AssignPrecisionPass::runOnOperation() {
  ModuleOp module = getOperation();
  module->setAttr(FP8Dialect::kPolicyAttrName, policyAttr);
  const RoleAnalysis &roles = getAnalysis<RoleAnalysis>();
  bool failed = false;
  module.walk([&](FunctionOpInterface func) {
    if (func.isExternal())
      return;
    func->walk([](Operation *op) {
      StringRef name = op->getName().getStringRef();
      if (name == "tosa.matmul" || name == "tosa.conv2d")
        ::mlir::emitRemark(op->getLoc())
            << "fp8-assign-precision: TOSA op not classified; "
               "run tosa-to-linalg first (fp8-pipeline does)";
    });
    if (!roles.hasContraction(func)) {
      InFlightDiagnostic diag =
          strict ? func->emitError() : ::mlir::emitRemark(func->getLoc());
      diag << "fp8-assign-precision: no matmul-like contraction recognised "
              "in @"
           << cast<SymbolOpInterface>(func.getOperation()).getName()
           << "; function left unchanged";
      failed |= strict;
      return;
    }
    annotate(func, roles);
  });
  if (failed)
    return signalPassFailure();
  // Only discardable attributes changed: the roles fp8-insert-quant reads
  // next are still the ones computed here.
  markAnalysesPreserved<RoleAnalysis>();
}
