//===- JitSizes.cpp - what a JIT function's dynamic sizes must satisfy ----===//
//
// See JitSizes.h.
//
//===----------------------------------------------------------------------===//
#include "JitSizes.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <optional>

using namespace mlir;

namespace fp8py {
namespace {

/// The argument a value stands for: a block argument of the function's
/// entry block, or `bufferization.to_tensor` of a memref one (same sizes).
int64_t argumentOf(func::FuncOp func, Value v) {
  if (auto toTensor = v.getDefiningOp<bufferization::ToTensorOp>())
    v = toTensor.getBuffer();
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != &func.getBody().front())
    return -1;
  return arg.getArgNumber();
}

/// A value of the fp8 dialect's ops: upstream's ValueBounds knows nothing
/// of them (and `!fp8.scaled` is no ShapedType), so the Solver looks
/// through them itself.
bool definedByFP8(Value v) {
  Operation *def = v.getDefiningOp();
  return def && isa<fp8::FP8Dialect>(def->getDialect());
}

/// `e`'s terms replaced by the expressions `parts` (one per term).
SizeExpr compose(const SizeExpr &e, ArrayRef<SizeExpr> parts) {
  MLIRContext *ctx = e.map.getContext();
  SmallVector<AffineExpr> replacements;
  std::vector<SizeTerm> terms;
  for (const SizeExpr &part : parts) {
    unsigned nd = part.map.getNumDims();
    SmallVector<AffineExpr> dims;
    for (size_t i = 0; i < part.terms.size(); ++i)
      dims.push_back(getAffineDimExpr(terms.size() + i, ctx));
    replacements.push_back(part.map.getResult(0).replaceDimsAndSymbols(
        ArrayRef(dims).take_front(nd), ArrayRef(dims).drop_front(nd)));
    llvm::append_range(terms, part.terms);
  }
  unsigned nd = e.map.getNumDims();
  AffineExpr result = e.map.getResult(0).replaceDimsAndSymbols(
      ArrayRef(replacements).take_front(nd),
      ArrayRef(replacements).drop_front(nd));
  return SizeExpr{AffineMap::get(terms.size(), 0, result), terms};
}

/// Solves the sizes the body uses in terms of the arguments' sizes.
class Solver {
public:
  explicit Solver(func::FuncOp func) : func(func) {}

  /// Dimension `dim` of shaped or `!fp8.scaled` `value` (or index `value`
  /// when `dim` is nullopt) as an expression of the arguments, if
  /// ValueBounds and the fp8 ops' shape rules pin it down exactly.
  std::optional<SizeExpr> solve(Value value, std::optional<int64_t> dim) {
    MLIRContext *ctx = func.getContext();
    if (dim) {
      ArrayRef<int64_t> shape;
      if (auto scaled = dyn_cast<fp8::ScaledTensorType>(value.getType()))
        shape = scaled.getShape();
      else
        shape = cast<ShapedType>(value.getType()).getShape();
      if (!ShapedType::isDynamic(shape[*dim]))
        return SizeExpr{AffineMap::getConstantMap(shape[*dim], ctx), {}};
    }
    if (isa<fp8::ScaledTensorType>(value.getType()) || definedByFP8(value))
      return dim ? solveFP8(value, *dim) : std::nullopt;
    int64_t arg = argumentOf(func, value);
    if (arg >= 0)
      return identity(SizeTerm{arg, dim ? *dim : -1});
    AffineMap map;
    ValueDimList operands;
    auto stop = [&](Value v, std::optional<int64_t>,
                    ValueBoundsConstraintSet &) {
      return argumentOf(func, v) >= 0 || definedByFP8(v);
    };
    ValueBoundsConstraintSet::Variable var =
        dim ? ValueBoundsConstraintSet::Variable(value, *dim)
            : ValueBoundsConstraintSet::Variable(value);
    if (failed(ValueBoundsConstraintSet::computeBound(
            map, operands, presburger::BoundType::EQ, var, stop)))
      return std::nullopt;
    SmallVector<SizeExpr> parts;
    for (auto &[v, d] : operands) {
      // An argument, or an fp8 op's result (where `stop` ended the walk);
      // any other value ValueBounds cannot see through is unknown.
      int64_t a = argumentOf(func, v);
      std::optional<SizeExpr> part;
      if (a >= 0)
        part = identity(SizeTerm{a, d ? *d : -1});
      else if (d && definedByFP8(v))
        part = solveFP8(v, *d);
      if (!part)
        return std::nullopt;
      parts.push_back(*part);
    }
    return compose(SizeExpr{map, {}}, parts);
  }

  /// ceil(`e` / `block`).
  SizeExpr ceilDiv(const SizeExpr &e, int64_t block) {
    return SizeExpr{AffineMap::get(e.map.getNumDims(), e.map.getNumSymbols(),
                                   e.map.getResult(0).ceilDiv(block)),
                    e.terms};
  }

private:
  SizeExpr identity(SizeTerm t) {
    return SizeExpr{
        AffineMap::get(1, 0, getAffineDimExpr(0, func.getContext())), {t}};
  }

  /// Dimension `dim` of a result of an fp8 op, from the op's shape rules
  /// (FP8Ops.td): quantize, dequantize, assemble and disassemble's data
  /// keep their input's shape, requantize permutes it, disassemble's scales
  /// are ceil(shape / block), a scaled_matmul's result is [M of a, N of b].
  std::optional<SizeExpr> solveFP8(Value value, int64_t dim) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return std::nullopt; // an argument of !fp8.scaled type
    return llvm::TypeSwitch<Operation *, std::optional<SizeExpr>>(def)
        .Case<fp8::QuantizeOp, fp8::DequantizeOp>(
            [&](auto op) { return solve(op.getInput(), dim); })
        .Case([&](fp8::RequantizeOp op) {
          std::optional<ArrayRef<int64_t>> perm = op.getPermutation();
          return solve(op.getInput(), perm ? (*perm)[dim] : dim);
        })
        .Case([&](fp8::AssembleOp op) { return solve(op.getData(), dim); })
        .Case([&](fp8::DisassembleOp op) -> std::optional<SizeExpr> {
          std::optional<SizeExpr> size = solve(op.getInput(), dim);
          if (!size || value == op.getData())
            return size;
          return ceilDiv(*size, op.getInput().getType().getBlockShape()[dim]);
        })
        .Case([&](fp8::ScaledMatmulOp op) {
          return solve(dim == 0 ? op.getA() : op.getB(), 0);
        })
        .Default([](Operation *) { return std::nullopt; });
  }

  func::FuncOp func;
};

std::string describeOp(Operation *op) {
  std::string loc;
  llvm::raw_string_ostream os(loc);
  if (auto file = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << file.getFilename().strref() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    op->getLoc().print(os);
  return op->getName().getStringRef().str() + " at " + loc;
}

/// Records lhs == rhs unless either side is unknown or both are the same.
void addEquation(std::vector<SizeEquation> &out, llvm::StringSet<> &seen,
                 std::optional<SizeExpr> lhs, std::optional<SizeExpr> rhs,
                 Operation *op) {
  if (!lhs || !rhs)
    return;
  auto key = [](const SizeExpr &e) {
    std::string s;
    llvm::raw_string_ostream os(s);
    e.map.print(os);
    for (const SizeTerm &t : e.terms)
      os << " " << t.arg << ":" << t.dim;
    return s;
  };
  std::string l = key(*lhs), r = key(*rhs);
  if (l == r || (lhs->terms.empty() && rhs->terms.empty()))
    return;
  if (!seen.insert(l < r ? l + "=" + r : r + "=" + l).second)
    return;
  out.push_back(SizeEquation{*lhs, *rhs, describeOp(op)});
}

/// A linalg op: every operand dimension indexed by the same loop has that
/// loop's size.
void linalgEquations(linalg::LinalgOp op, Solver &solver,
                     std::vector<SizeEquation> &out, llvm::StringSet<> &seen) {
  llvm::DenseMap<unsigned, std::optional<SizeExpr>> firstOfLoop;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<ShapedType>(operand.get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [i, result] : llvm::enumerate(map.getResults())) {
      auto loop = dyn_cast<AffineDimExpr>(result);
      if (!loop)
        continue;
      std::optional<SizeExpr> size = solver.solve(operand.get(), i);
      auto [it, first] = firstOfLoop.try_emplace(loop.getPosition(), size);
      if (!first)
        addEquation(out, seen, it->second, size, op);
      else if (!size)
        firstOfLoop.erase(it);
    }
  }
}

/// A copy into a destination: the destination has the source's sizes.
void copyEquations(Operation *op, Value source, Value dest, Solver &solver,
                   std::vector<SizeEquation> &out, llvm::StringSet<> &seen) {
  auto type = dyn_cast<ShapedType>(source.getType());
  if (!type || !type.hasRank())
    return;
  for (int64_t d = 0; d < type.getRank(); ++d)
    addEquation(out, seen, solver.solve(dest, d), solver.solve(source, d), op);
}

/// An fp8 op's own size rules (FP8Ops.td): a scaled_matmul's K of a and
/// of b, its accumulator [M, N]; an assemble's scales ceil(data / block).
void fp8Equations(Operation *op, Solver &solver, std::vector<SizeEquation> &out,
                  llvm::StringSet<> &seen) {
  if (auto mm = dyn_cast<fp8::ScaledMatmulOp>(op)) {
    addEquation(out, seen, solver.solve(mm.getA(), 1),
                solver.solve(mm.getB(), 1), op);
    if (Value c = mm.getC()) {
      addEquation(out, seen, solver.solve(c, 0), solver.solve(mm.getA(), 0),
                  op);
      addEquation(out, seen, solver.solve(c, 1), solver.solve(mm.getB(), 0),
                  op);
    }
  } else if (auto assemble = dyn_cast<fp8::AssembleOp>(op)) {
    ArrayRef<int64_t> block = assemble.getResult().getType().getBlockShape();
    for (auto [d, b] : llvm::enumerate(block)) {
      std::optional<SizeExpr> data = solver.solve(assemble.getData(), d);
      addEquation(out, seen, solver.solve(assemble.getScales(), d),
                  data ? std::optional(solver.ceilDiv(*data, b)) : std::nullopt,
                  op);
    }
  }
}

std::vector<SizeEquation> functionEquations(func::FuncOp func) {
  std::vector<SizeEquation> out;
  llvm::StringSet<> seen;
  Solver solver(func);
  func.walk([&](Operation *op) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      linalgEquations(linalgOp, solver, out, seen);
    else if (auto m = dyn_cast<bufferization::MaterializeInDestinationOp>(op))
      copyEquations(op, m.getSource(), m.getDest(), solver, out, seen);
    else if (auto copy = dyn_cast<memref::CopyOp>(op))
      copyEquations(op, copy.getSource(), copy.getTarget(), solver, out, seen);
    else if (isa<fp8::FP8Dialect>(op->getDialect()))
      fp8Equations(op, solver, out, seen);
  });
  return out;
}

bool hasDynamicArgument(func::FuncOp func) {
  return llvm::any_of(func.getArgumentTypes(), [](Type t) {
    auto memref = dyn_cast<MemRefType>(t);
    return memref && !memref.hasStaticShape();
  });
}

} // namespace

std::map<std::string, std::vector<SizeEquation>>
collectSizeEquations(ModuleOp module) {
  std::map<std::string, std::vector<SizeEquation>> result;
  bool any = false;
  module.walk(
      [&](func::FuncOp f) { any |= !f.isExternal() && hasDynamicArgument(f); });
  if (!any)
    return result;
  // The sizes flow through calls (a destination-style wrapper calling the
  // model's tensor function): solve them on a copy with the calls inlined.
  OwningOpRef<ModuleOp> inlined = module.clone();
  PassManager pm(module.getContext());
  pm.addPass(createInlinerPass());
  if (failed(pm.run(*inlined)))
    inlined = module.clone();
  inlined->walk([&](func::FuncOp f) {
    if (!f.isExternal() && hasDynamicArgument(f))
      result[f.getSymName().str()] = functionEquations(f);
  });
  return result;
}

namespace {

std::optional<int64_t> termValue(const SizeTerm &t, const FunctionInfo &fn,
                                 const std::vector<JitModule::CallArg> &args) {
  if (t.arg < 0 || size_t(t.arg) >= args.size())
    return std::nullopt;
  if (t.dim < 0)
    return fn.args[t.arg].rank < 0 ? std::optional(args[t.arg].scalarBits)
                                   : std::nullopt;
  if (size_t(t.dim) >= args[t.arg].sizes.size())
    return std::nullopt;
  return args[t.arg].sizes[t.dim];
}

/// The value of an affine expression (no overflow: sizes are below 2^63,
/// an overflowing product gives nullopt and the equation is not checked).
std::optional<int64_t> evaluate(AffineExpr e, ArrayRef<int64_t> dims,
                                ArrayRef<int64_t> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue();
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return symbols[s.getPosition()];
  auto bin = cast<AffineBinaryOpExpr>(e);
  std::optional<int64_t> l = evaluate(bin.getLHS(), dims, symbols);
  std::optional<int64_t> r = evaluate(bin.getRHS(), dims, symbols);
  if (!l || !r)
    return std::nullopt;
  int64_t v;
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return __builtin_add_overflow(*l, *r, &v) ? std::nullopt : std::optional(v);
  case AffineExprKind::Mul:
    return __builtin_mul_overflow(*l, *r, &v) ? std::nullopt : std::optional(v);
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
  case AffineExprKind::Mod: {
    if (*r <= 0)
      return std::nullopt;
    int64_t q = *l / *r, m = *l % *r;
    if (m < 0) {
      --q;
      m += *r;
    }
    if (e.getKind() == AffineExprKind::Mod)
      return m;
    return e.getKind() == AffineExprKind::FloorDiv ? q : q + (m != 0);
  }
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> exprValue(const SizeExpr &e, const FunctionInfo &fn,
                                 const std::vector<JitModule::CallArg> &args) {
  std::vector<int64_t> values;
  for (const SizeTerm &t : e.terms) {
    std::optional<int64_t> v = termValue(t, fn, args);
    if (!v)
      return std::nullopt;
    values.push_back(*v);
  }
  unsigned nd = e.map.getNumDims();
  if (e.map.getNumResults() != 1 || values.size() != nd + e.map.getNumSymbols())
    return std::nullopt;
  return evaluate(e.map.getResult(0), ArrayRef(values).take_front(nd),
                  ArrayRef(values).drop_front(nd));
}

/// The one argument size an expression is, if it is exactly one.
std::optional<SizeTerm> single(const SizeExpr &e) {
  if (e.terms.size() != 1 || e.map.getNumResults() != 1 ||
      !isa<AffineDimExpr, AffineSymbolExpr>(e.map.getResult(0)))
    return std::nullopt;
  return e.terms.front();
}

std::string termText(const SizeTerm &t) {
  if (t.dim < 0)
    return "the value of argument " + std::to_string(t.arg);
  return "dimension " + std::to_string(t.dim) + " of argument " +
         std::to_string(t.arg);
}

std::string exprText(const SizeExpr &e) {
  if (std::optional<SizeTerm> t = single(e))
    return termText(*t);
  if (e.terms.empty())
    return "a static size";
  std::string s = "computed from ";
  for (size_t i = 0; i < e.terms.size(); ++i)
    s += (i ? ", " : "") + termText(e.terms[i]);
  return s;
}

} // namespace

std::string checkSizeEquations(const std::vector<SizeEquation> &equations,
                               const FunctionInfo &fn,
                               const std::vector<JitModule::CallArg> &args) {
  for (const SizeEquation &eq : equations) {
    std::optional<int64_t> l = exprValue(eq.lhs, fn, args);
    std::optional<int64_t> r = exprValue(eq.rhs, fn, args);
    if (!l || !r || *l == *r)
      continue;
    // Blame one argument size: a written argument's (the destination)
    // before a read one's, a later argument's before an earlier one's.
    std::optional<SizeTerm> a = single(eq.lhs), b = single(eq.rhs);
    auto rank = [&](const std::optional<SizeTerm> &t) {
      return t ? (fn.args[t->arg].readOnly ? 0 : 1 << 20) + t->arg + 1 : 0;
    };
    bool blameLhs =
        rank(a) != rank(b) ? rank(a) > rank(b) : !eq.lhs.terms.empty();
    const SizeExpr &blamed = blameLhs ? eq.lhs : eq.rhs;
    const SizeExpr &other = blameLhs ? eq.rhs : eq.lhs;
    int64_t got = blameLhs ? *l : *r, want = blameLhs ? *r : *l;
    std::optional<SizeTerm> term = single(blamed);
    std::string what = !term ? exprText(blamed)
                       : term->dim < 0
                           ? std::string("its value")
                           : "dimension " + std::to_string(term->dim);
    return "argument " +
           std::to_string(term ? term->arg : blamed.terms.front().arg) +
           " of '" + fn.name + "': " + what + " is " + std::to_string(got) +
           ", but the function needs " + std::to_string(want) + " (" +
           exprText(other) + ", for " + eq.origin + ")";
  }
  return "";
}

} // namespace fp8py
