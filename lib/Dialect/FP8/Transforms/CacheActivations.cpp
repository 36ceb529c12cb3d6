//===- CacheActivations.cpp - fp8-cache-activations -----------------------===//
//
// FP8 activation caching in the split (forward/backward) form of a training
// step (DeepSeek-V3 §3.3.3): the forward returns the FP8 codes and scales of
// the activations the weight gradients read, as its Fprops quantized them,
// instead of the high-precision tensors, and the backward requantizes them
// for its Wgrads as the joint graph does (§3.5.2). Runs after
// fp8-insert-quant.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8CACHEACTIVATIONSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// The argument/result attribute naming a saved activation (the linkage of
/// modules without a caller) and the one the pass leaves on the codes.
constexpr StringLiteral kSavedAttr = "fp8.saved";
constexpr StringLiteral kCachedAttr = "fp8.cached";

/// A backward argument that receives a forward result.
struct ArgRef {
  mutable func::FuncOp func; // op handles: const-free accessors
  unsigned index;
  bool operator==(const ArgRef &o) const {
    return func == o.func && index == o.index;
  }
};

/// One forward result and the backward arguments it feeds.
struct Saved {
  mutable func::FuncOp fwd;
  unsigned result;
  SmallVector<ArgRef> args;
  /// The forward's quantization of the returned value (set when cached).
  QuantizeOp quantized;
};

class Linker {
public:
  explicit Linker(ModuleOp module) : module(module), symbols(module) {}

  /// Forward result -> backward argument pairs, from the data flow of
  /// every caller (`call @bwd(..., %r#i, ...)` with `%r = call @fwd`) and
  /// from matching `fp8.saved` names. Fails after an error on bad names.
  LogicalResult collect(SmallVector<Saved> &out);

private:
  func::FuncOp callee(func::CallOp call) {
    auto f = symbols.lookup<func::FuncOp>(call.getCallee());
    return f && !f.isExternal() ? f : func::FuncOp();
  }
  void add(SmallVector<Saved> &out, func::FuncOp fwd, unsigned result,
           ArgRef arg);
  LogicalResult collectNamed(SmallVector<Saved> &out);

  ModuleOp module;
  SymbolTable symbols;
};

void Linker::add(SmallVector<Saved> &out, func::FuncOp fwd, unsigned result,
                 ArgRef arg) {
  for (Saved &s : out)
    if (s.fwd == fwd && s.result == result) {
      if (!llvm::is_contained(s.args, arg))
        s.args.push_back(arg);
      return;
    }
  out.push_back({fwd, result, {arg}, {}});
}

LogicalResult Linker::collect(SmallVector<Saved> &out) {
  module.walk([&](func::CallOp bwdCall) {
    func::FuncOp bwd = callee(bwdCall);
    if (!bwd)
      return;
    for (auto [j, operand] : llvm::enumerate(bwdCall.getOperands())) {
      auto fwdCall = operand.getDefiningOp<func::CallOp>();
      func::FuncOp fwd = fwdCall ? callee(fwdCall) : func::FuncOp();
      if (fwd && fwd != bwd)
        add(out, fwd, cast<OpResult>(operand).getResultNumber(),
            {bwd, static_cast<unsigned>(j)});
    }
  });
  return collectNamed(out);
}

LogicalResult Linker::collectNamed(SmallVector<Saved> &out) {
  llvm::StringMap<std::pair<func::FuncOp, unsigned>> results;
  // Names on declarations are left alone: there is no body to rewrite.
  auto funcs =
      llvm::make_filter_range(module.getOps<func::FuncOp>(),
                              [](func::FuncOp f) { return !f.isExternal(); });
  for (auto f : funcs)
    for (unsigned i = 0, e = f.getNumResults(); i < e; ++i)
      if (auto name = f.getResultAttrOfType<StringAttr>(i, kSavedAttr)) {
        auto [it, fresh] = results.try_emplace(name.getValue(), f, i);
        if (!fresh)
          return f.emitError() << "fp8-cache-activations: saved activation '"
                               << name.getValue() << "' is returned twice: @"
                               << it->second.first.getSymName() << " result "
                               << it->second.second << " and @"
                               << f.getSymName() << " result " << i;
      }
  for (auto f : funcs)
    for (unsigned j = 0, e = f.getNumArguments(); j < e; ++j) {
      auto name = f.getArgAttrOfType<StringAttr>(j, kSavedAttr);
      if (!name)
        continue;
      auto it = results.find(name.getValue());
      if (it == results.end())
        return f.emitError()
               << "fp8-cache-activations: argument " << j << " of @"
               << f.getSymName() << " is the saved activation '"
               << name.getValue()
               << "', which no result of a function with a body names";
      auto [fwd, i] = it->second;
      if (fwd == f || fwd.getResultTypes()[i] != f.getArgumentTypes()[j])
        return f.emitError()
               << "fp8-cache-activations: argument " << j << " of @"
               << f.getSymName() << " (saved activation '" << name.getValue()
               << "') must be of another function than the result it names "
                  "and of its type, "
               << fwd.getResultTypes()[i];
      add(out, fwd, i, {f, j});
    }
  return success();
}

/// Why `arg` of a backward cannot take FP8 codes, or "" when every use is
/// an fp8.quantize (a weight gradient's operand). `readsFp8` says whether
/// any use quantizes it.
std::string backwardUse(BlockArgument arg, bool &readsFp8) {
  std::string why;
  readsFp8 = false;
  for (Operation *user : arg.getUsers()) {
    if (isa<QuantizeOp>(user)) {
      readsFp8 = true;
    } else if (why.empty()) {
      why = "the backward also reads it in high precision (" +
            user->getName().getStringRef().str() + ")";
    }
  }
  return why;
}

/// The forward's quantization of the value it returns as result `i`: an
/// fp8.quantize of it in the block of the return, or null.
QuantizeOp forwardQuantization(func::FuncOp fwd, unsigned i) {
  Operation *ret = fwd.getBody().back().getTerminator();
  Value v = ret->getOperand(i);
  for (Operation *user : v.getUsers())
    if (auto q = dyn_cast<QuantizeOp>(user);
        q && q->getBlock() == ret->getBlock())
      return q;
  return {};
}

/// Every call of `s.fwd` passes result `s.result` only to the backward
/// arguments of `s`, and every call of those backwards receives it from a
/// call of `s.fwd`: the signatures can change together.
bool callsAgree(const Saved &s, ModuleOp module) {
  auto isLinkedUse = [&](OpOperand &use) {
    auto call = dyn_cast<func::CallOp>(use.getOwner());
    return call && llvm::any_of(s.args, [&](const ArgRef &a) {
             return call.getCallee() == a.func.getSymName() &&
                    use.getOperandNumber() == a.index;
           });
  };
  bool ok = true;
  module.walk([&](func::CallOp call) {
    if (call.getCallee() == s.fwd.getSymName())
      ok &= llvm::all_of(call.getResult(s.result).getUses(), isLinkedUse);
    for (const ArgRef &a : s.args) {
      if (call.getCallee() != a.func.getSymName())
        continue;
      auto from = call.getOperand(a.index).getDefiningOp<func::CallOp>();
      ok &= from && from.getCallee() == s.fwd.getSymName() &&
            cast<OpResult>(call.getOperand(a.index)).getResultNumber() ==
                s.result;
    }
  });
  // Symbol uses other than calls (a func.constant) would keep the old type.
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(s.fwd, module);
  ok &= uses && llvm::all_of(*uses, [](const SymbolTable::SymbolUse &u) {
          return isa<func::CallOp>(u.getUser());
        });
  return ok;
}

/// Decides whether `s` is cached: a remark naming the reason when a
/// backward reads it as a weight gradient's operand but it stays high.
bool decide(Saved &s, ModuleOp module) {
  bool anyFp8 = false;
  std::string why;
  for (const ArgRef &a : s.args) {
    bool readsFp8;
    std::string w = backwardUse(a.func.getArgument(a.index), readsFp8);
    anyFp8 |= readsFp8;
    if (why.empty() && (!w.empty() || !readsFp8))
      why = !w.empty() ? w
                       : "@" + a.func.getSymName().str() + " argument " +
                             std::to_string(a.index) + " does not quantize it";
  }
  if (!anyFp8)
    return false; // not a weight gradient's operand: nothing to cache
  s.quantized = forwardQuantization(s.fwd, s.result);
  if (why.empty() && !s.quantized)
    why = "the forward does not quantize it (no fp8.quantize of the "
          "returned value)";
  if (why.empty() && !callsAgree(s, module))
    why = "a call of the forward or the backward does not pass it straight "
          "from one to the other";
  if (why.empty())
    return true;
  emitRemark(s.fwd.getBody().back().getTerminator()->getLoc())
      << "fp8-cache-activations: result " << s.result << " of @"
      << s.fwd.getSymName() << " stays in high precision: " << why;
  return false;
}

/// Result `i` of `fwd` becomes the codes and scales of `q` (its input).
void rewriteForward(func::FuncOp fwd, unsigned i, QuantizeOp q) {
  Operation *ret = fwd.getBody().back().getTerminator();
  OpBuilder b(ret);
  auto parts = DisassembleOp::create(b, q.getLoc(), q.getResult());
  SmallVector<Value> operands(ret->getOperands());
  operands[i] = parts.getScales();
  operands.insert(operands.begin() + i, parts.getData());
  ret->setOperands(operands);
  MLIRContext *ctx = fwd.getContext();
  auto cached = DictionaryAttr::get(
      ctx, {NamedAttribute(StringAttr::get(ctx, kCachedAttr),
                           TypeAttr::get(q.getInput().getType()))});
  auto none = DictionaryAttr::get(ctx, {});
  (void)fwd.insertResults(
      {i, i}, {parts.getData().getType(), parts.getScales().getType()},
      {cached, none});
  (void)fwd.eraseResult(i + 2);
}

/// Argument `j` of `bwd` becomes codes and scales, assembled into `type`;
/// each quantization of it becomes a requantization of that (the same
/// layout, eps, scale mode and saturation: the joint graph's numbers).
void rewriteBackward(func::FuncOp bwd, unsigned j, ScaledTensorType type) {
  MLIRContext *ctx = bwd.getContext();
  Location loc = bwd.getArgument(j).getLoc();
  auto cached = DictionaryAttr::get(
      ctx, {NamedAttribute(StringAttr::get(ctx, kCachedAttr),
                           TypeAttr::get(bwd.getArgument(j).getType()))});
  (void)bwd.insertArguments(
      {j, j}, {type.getDataTensorType(), type.getScaleTensorType()},
      {cached, DictionaryAttr::get(ctx, {})}, {loc, loc});
  Block &entry = bwd.getBody().front();
  IRRewriter rw(ctx);
  rw.setInsertionPointToStart(&entry);
  Value q = AssembleOp::create(rw, loc, type, entry.getArgument(j),
                               entry.getArgument(j + 1));
  for (Operation *user :
       llvm::make_early_inc_range(entry.getArgument(j + 2).getUsers())) {
    auto old = cast<QuantizeOp>(user);
    rw.setInsertionPoint(old);
    rw.replaceOpWithNewOp<RequantizeOp>(
        old, old.getType(), q, /*permutation=*/nullptr, old.getEpsAttr(),
        old.getScaleModeAttr(), old.getSaturateAttr());
  }
  (void)bwd.eraseArgument(j + 2);
}

/// The calls of the rewritten functions, with the new signatures: each
/// cached result of a forward call becomes two results, passed on as two
/// operands of the backward calls.
void rewriteCalls(ModuleOp module, const DenseSet<Operation *> &fwds,
                  const DenseSet<Operation *> &bwds) {
  SymbolTable symbols(module);
  DenseMap<Value, std::pair<Value, Value>> split;
  SmallVector<func::CallOp> fwdCalls, bwdCalls;
  module.walk([&](func::CallOp call) {
    Operation *f = symbols.lookup(call.getCallee());
    if (fwds.contains(f))
      fwdCalls.push_back(call);
    if (bwds.contains(f))
      bwdCalls.push_back(call);
  });
  for (func::CallOp call : fwdCalls) {
    auto f = symbols.lookup<func::FuncOp>(call.getCallee());
    OpBuilder b(call);
    auto repl = func::CallOp::create(b, call.getLoc(), f, call.getOperands());
    unsigned k = 0;
    for (unsigned i = 0, e = f.getNumResults(); i < e; ++i, ++k) {
      if (f.getResultAttr(i, kCachedAttr)) {
        split[call.getResult(k)] = {repl.getResult(i), repl.getResult(i + 1)};
        ++i;
        continue;
      }
      call.getResult(k).replaceAllUsesWith(repl.getResult(i));
    }
  }
  for (func::CallOp call : bwdCalls) {
    auto f = symbols.lookup<func::FuncOp>(call.getCallee());
    SmallVector<Value> operands;
    for (Value v : call.getOperands()) {
      auto it = split.find(v);
      if (it == split.end() || !f.getArgAttr(operands.size(), kCachedAttr)) {
        operands.push_back(v);
        continue;
      }
      operands.append({it->second.first, it->second.second});
    }
    OpBuilder b(call);
    auto repl = func::CallOp::create(b, call.getLoc(), f, operands);
    call.replaceAllUsesWith(repl.getResults());
    call.erase();
  }
  for (func::CallOp call : fwdCalls)
    call.erase();
}

/// Drops, with a remark, the saved activations whose rewrites would
/// interfere: a function that is both a forward and a backward, or a
/// backward argument fed by two forward results.
void dropConflicts(SmallVector<Saved> &saved) {
  DenseSet<Operation *> fwds, bwds;
  DenseMap<std::pair<Operation *, unsigned>, unsigned> feeds;
  for (const Saved &s : saved) {
    fwds.insert(s.fwd);
    for (const ArgRef &a : s.args) {
      bwds.insert(a.func);
      ++feeds[{a.func, a.index}];
    }
  }
  llvm::erase_if(saved, [&](const Saved &s) {
    bool clash =
        bwds.contains(s.fwd) || llvm::any_of(s.args, [&](const ArgRef &a) {
          return fwds.contains(a.func) || feeds[{a.func, a.index}] > 1;
        });
    if (clash)
      emitRemark(s.fwd.getBody().back().getTerminator()->getLoc())
          << "fp8-cache-activations: result " << s.result << " of @"
          << s.fwd.getSymName()
          << " stays in high precision: its backward argument is fed by "
             "another forward result too, or a function is both a forward "
             "and a backward";
    return clash;
  });
}

class CacheActivationsPass
    : public fp8::impl::FP8CacheActivationsPassBase<CacheActivationsPass> {
public:
  using FP8CacheActivationsPassBase::FP8CacheActivationsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Saved> saved;
    if (failed(Linker(module).collect(saved)))
      return signalPassFailure();
    llvm::erase_if(saved, [&](Saved &s) { return !decide(s, module); });
    dropConflicts(saved);
    // Highest index first, so the indices still to rewrite do not move.
    llvm::sort(saved, [](const Saved &x, const Saved &y) {
      return x.result > y.result;
    });
    DenseSet<Operation *> fwds, bwds;
    SmallVector<std::tuple<func::FuncOp, unsigned, ScaledTensorType>> args;
    for (Saved &s : saved) {
      fwds.insert(s.fwd);
      for (const ArgRef &a : s.args) {
        bwds.insert(a.func);
        args.push_back({a.func, a.index, s.quantized.getType()});
      }
      rewriteForward(s.fwd, s.result, s.quantized);
    }
    llvm::sort(args, [](const auto &x, const auto &y) {
      return std::get<1>(x) > std::get<1>(y);
    });
    for (auto [bwd, j, type] : args)
      rewriteBackward(bwd, j, type);
    rewriteCalls(module, fwds, bwds);
  }
};

} // namespace
