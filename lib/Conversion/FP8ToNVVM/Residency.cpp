//===- Residency.cpp - device-resident tensors between launches -----------===//
//
// makeLaunchesResident (Launchers.h): in a bufferized host function, the
// launcher calls of fp8-launch-kernels get device buffers, so a tensor that
// one kernel writes and another reads stays on the device. Block by block,
// in program order, each host buffer has at most one device copy (upstream
// gpu.alloc / gpu.memcpy / gpu.dealloc, which gpu-to-llvm lowers to the
// mgpu* runtime), current or newer than the host buffer ("stale" host):
//
// - a launcher input without a device copy is copied to the device (the
//   function's arguments: on their first device use); one with a copy is
//   read there, and so is a view of one (a reshaped kernel result: the
//   same view op applied to the device copy);
// - a launcher result gets a fresh device buffer; the host buffer is stale;
// - a host op that reads a buffer (or a view of it) whose host copy is
//   stale gets it copied back first; one that may write it drops the
//   device copy; memref.dealloc frees the device copy too, without a copy;
// - at the end of the block every stale host buffer is copied back (the
//   results a function returns) and every device copy freed.
//
// Ops in nested regions are host ops of the op that holds them (their own
// blocks get their own residency), so the analysis is linear and needs no
// dominance or liveness.
//
//===----------------------------------------------------------------------===//
#include "Launchers.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Utils/MemRefUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// A host buffer's device copy.
struct DeviceCopy {
  Value host, root; // the launcher operand and the allocation it views
  Value raw, dev;   // the gpu.alloc'ed bytes and their typed view
  bool stale;       // the device copy is newer than the host buffer
};

/// How a host op uses a buffer.
enum Access : unsigned { kNone = 0, kRead = 1, kWrite = 2, kFree = 4 };

} // namespace

namespace {

bool isAlias(Operation *op) {
  return isa<ViewLikeOpInterface, memref::ExtractStridedMetadataOp>(op);
}

/// The access of `user` (`top`: the op in the analysed block, or one nested
/// in it) to its memref operand `v`.
unsigned accessOf(Operation *user, Value v, bool top) {
  if (isa<memref::DeallocOp>(user))
    // A conditional free (the ownership-based deallocation's scf.if) may
    // leave the buffer alive: current on the host first.
    return top ? kFree : kRead | kFree;
  // Forwarded to values this analysis does not follow (yields, calls):
  // may be read and written anywhere. So is an op with regions that does
  // not say what it does (scf.for's iter_args); linalg ops say.
  if (user->hasTrait<OpTrait::IsTerminator>() || isa<CallOpInterface>(user))
    return kRead | kWrite;
  if (isAlias(user))
    return top ? kNone : kRead | kWrite;
  auto iface = dyn_cast<MemoryEffectOpInterface>(user);
  if (!iface)
    return kRead | kWrite;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  unsigned access = kNone;
  for (const MemoryEffects::EffectInstance &e : effects) {
    if (e.getValue() && e.getValue() != v)
      continue;
    if (isa<MemoryEffects::Read>(e.getEffect()))
      access |= kRead;
    else if (isa<MemoryEffects::Write>(e.getEffect()))
      access |= kWrite;
    else if (isa<MemoryEffects::Free>(e.getEffect()))
      access |= kFree;
  }
  return access;
}

class BlockResidency {
public:
  explicit BlockResidency(Block &block)
      : block(block),
        token(gpu::AsyncTokenType::get(block.getParentOp()->getContext())) {}

  void run() {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (op.hasTrait<OpTrait::IsTerminator>()) {
        ImplicitLocOpBuilder b(op.getLoc(), &op);
        flush(b);
        return;
      }
      if (auto call = dyn_cast<func::CallOp>(op))
        if (func::FuncOp callee = launcherOf(call)) {
          launch(call, callee);
          continue;
        }
      if (auto lf = dyn_cast<gpu::LaunchFuncOp>(op))
        if (auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
                lf, lf.getKernel())) {
          launchKernel(lf, kernel);
          continue;
        }
      if (!isAlias(&op))
        hostOp(op);
    }
  }

private:
  Block &block;
  Type token;
  SmallVector<DeviceCopy> copies;

  static func::FuncOp launcherOf(func::CallOp call) {
    auto callee = dyn_cast_or_null<func::FuncOp>(
        SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr()));
    if (!callee || !callee.isExternal() ||
        !callee->hasAttr(FP8Dialect::kKernelRefAttrName) ||
        !callee->hasAttr(FP8Dialect::kKernelAttrName))
      return nullptr;
    return callee;
  }

  /// Runs `body` on one stream, synchronously: gpu-to-llvm lowers the
  /// async forms of gpu.alloc/memcpy/dealloc.
  template <typename F> void onStream(ImplicitLocOpBuilder &b, F body) {
    Value t = gpu::WaitOp::create(b, token, ValueRange{}).getAsyncToken();
    t = body(t);
    gpu::WaitOp::create(b, Type(), ValueRange{t});
  }

  Value bytesOf(ImplicitLocOpBuilder &b, Value host) {
    auto ty = cast<MemRefType>(host.getType());
    Value n =
        arith::ConstantIndexOp::create(b, ty.getElementTypeBitWidth() / 8);
    for (int64_t d = 0; d < ty.getRank(); ++d)
      n = arith::MulIOp::create(
          b, n,
          ty.isDynamicDim(d)
              ? Value(memref::DimOp::create(b, host, d))
              : Value(arith::ConstantIndexOp::create(b, ty.getDimSize(d))));
    return n;
  }

  /// A device buffer shaped like `host` (allocated on the stream `t`).
  DeviceCopy allocate(ImplicitLocOpBuilder &b, Value host, Value &t) {
    auto ty = cast<MemRefType>(host.getType());
    auto rawTy = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
    auto alloc = gpu::AllocOp::create(b, rawTy, token, ValueRange{t},
                                      ValueRange{bytesOf(b, host)},
                                      ValueRange{}, /*hostShared=*/false);
    t = alloc.getAsyncToken();
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < ty.getRank(); ++d)
      if (ty.isDynamicDim(d))
        sizes.push_back(memref::DimOp::create(b, host, d));
    Value dev = memref::ViewOp::create(
        b, ty, alloc.getMemref(), arith::ConstantIndexOp::create(b, 0), sizes);
    return {host, getRootBuffer(host), alloc.getMemref(), dev, false};
  }

  /// Copies the stale host buffers of `root` (every one when null) back.
  void copyBack(ImplicitLocOpBuilder &b, Value root) {
    SmallVector<DeviceCopy *> stale;
    for (DeviceCopy &c : copies)
      if (c.stale && (!root || c.root == root))
        stale.push_back(&c);
    if (stale.empty())
      return;
    onStream(b, [&](Value t) {
      for (DeviceCopy *c : stale) {
        t = gpu::MemcpyOp::create(b, token, ValueRange{t}, c->host, c->dev)
                .getAsyncToken();
        c->stale = false;
      }
      return t;
    });
  }

  /// Frees the device copies of `root` (every one when null).
  void drop(ImplicitLocOpBuilder &b, Value root) {
    SmallVector<Value> raws;
    llvm::erase_if(copies, [&](const DeviceCopy &c) {
      if (root && c.root != root)
        return false;
      raws.push_back(c.raw);
      return true;
    });
    if (raws.empty())
      return;
    onStream(b, [&](Value t) {
      for (Value raw : raws)
        t = gpu::DeallocOp::create(b, token, ValueRange{t}, raw)
                .getAsyncToken();
      return t;
    });
  }

  void flush(ImplicitLocOpBuilder &b) {
    copyBack(b, Value());
    drop(b, Value());
  }

  /// A host op: the buffers it reads current on the host, the device
  /// copies of those it writes or frees dropped.
  void hostOp(Operation &op) {
    if (copies.empty())
      return;
    llvm::MapVector<Value, unsigned> access; // root -> Access
    op.walk([&](Operation *user) {
      for (Value v : user->getOperands()) {
        if (!isa<BaseMemRefType>(v.getType()))
          continue;
        Value root = getRootBuffer(v);
        if (llvm::any_of(copies,
                         [&](const DeviceCopy &c) { return c.root == root; }))
          access[root] |= accessOf(user, v, user == &op);
      }
    });
    ImplicitLocOpBuilder b(op.getLoc(), &op);
    for (auto [root, a] : access) {
      if (a & kRead)
        copyBack(b, root);
      if (a & (kWrite | kFree))
        drop(b, root);
    }
  }

  DeviceCopy *find(Value host) {
    for (DeviceCopy &c : copies)
      if (c.host == host)
        return &c;
    return nullptr;
  }

  /// Whether `v` is a buffer with a device copy or a view (a chain of
  /// ViewLikeOpInterface ops) of one.
  bool onDevice(Value v) {
    if (find(v))
      return true;
    auto view = v.getDefiningOp<ViewLikeOpInterface>();
    return view && view->getNumResults() == 1 && onDevice(view.getViewSource());
  }

  /// The device buffer of `v` (onDevice): its copy, or the same view of the
  /// copy of what it views (a view only relabels the elements of a buffer,
  /// and a device copy has its host buffer's type and layout).
  Value deviceOf(ImplicitLocOpBuilder &b, Value v) {
    if (DeviceCopy *c = find(v))
      return c->dev;
    auto view = v.getDefiningOp<ViewLikeOpInterface>();
    IRMapping map;
    map.map(view.getViewSource(), deviceOf(b, view.getViewSource()));
    return b.clone(*view, map)->getResult(0);
  }

  void launch(func::CallOp call, func::FuncOp callee) {
    SmallVector<unsigned> results =
        getLauncherResults(callee->getAttr(FP8Dialect::kKernelAttrName));
    ImplicitLocOpBuilder b(call.getLoc(), call);
    auto isResult = [&](unsigned i) { return llvm::is_contained(results, i); };
    // The host buffers the launch reads current where neither they nor
    // what they view have a device copy, and the buffers it writes without
    // a device copy (the kernel writes all of them). An input that views a
    // buffer on the device (a kernel's result reshaped) is read there,
    // through the same view of the device copy.
    for (auto [i, v] : llvm::enumerate(call.getOperands())) {
      if (isResult(i)) {
        copyBack(b, getRootBuffer(v));
        drop(b, getRootBuffer(v));
      } else if (!onDevice(v)) {
        copyBack(b, getRootBuffer(v));
      }
    }
    SmallVector<Value> operands;
    onStream(b, [&](Value t) {
      for (auto [i, v] : llvm::enumerate(call.getOperands())) {
        if (!isResult(i) && onDevice(v)) {
          operands.push_back(deviceOf(b, v));
          continue;
        }
        if (DeviceCopy *c = find(v)) {
          operands.push_back(c->dev);
          continue;
        }
        DeviceCopy c = allocate(b, v, t);
        if (isResult(i)) {
          c.stale = true;
        } else {
          t = gpu::MemcpyOp::create(b, token, ValueRange{t}, c.dev, v)
                  .getAsyncToken();
        }
        copies.push_back(c);
        operands.push_back(c.dev);
      }
      return t;
    });
    call->setOperands(operands);
    callee->setAttr(kResidentOperandsAttrName, b.getUnitAttr());
  }

  /// A gpu.launch_func of a gpu.func (fp8-outline-host-kernels): what it
  /// reads and writes of each memref operand is what the kernel's body does
  /// with the parameter (kernelAccess). The buffers it reads are on the
  /// device first (a view's whole buffer, copied once, then the same view
  /// of the copy); a buffer it only writes gets a fresh device buffer (the
  /// kernels write every element of their outputs); a view it writes needs
  /// the rest of its buffer current on the device, unless nothing has
  /// written that buffer yet (unwritten: a fresh device buffer too, also
  /// for a kernel that reads it, which reads only what it wrote). The
  /// buffers it writes
  /// are then newer on the device.
  void launchKernel(gpu::LaunchFuncOp lf, gpu::GPUFuncOp kernel) {
    ImplicitLocOpBuilder b(lf.getLoc(), lf);
    ValueRange args = lf.getKernelOperands();
    SmallVector<unsigned> access;
    for (auto [i, v] : llvm::enumerate(args))
      access.push_back(isa<MemRefType>(v.getType())
                           ? kernelAccess(kernel.getArgument(i))
                           : kNone);
    // A buffer nothing wrote before has no contents to copy, whatever the
    // kernel does with it: a fused row kernel reads back the elements it
    // stored itself (the exp values of a softmax's sum).
    auto freshOutput = [&](unsigned i) {
      Value root = getRootBuffer(args[i]);
      return (access[i] == kWrite && root == args[i]) || unwritten(root, lf);
    };
    for (auto [i, v] : llvm::enumerate(args)) {
      if (access[i] == kNone || onDevice(v))
        continue;
      copyBack(b, getRootBuffer(v));
      if (freshOutput(i))
        drop(b, getRootBuffer(v));
    }
    SmallVector<Value> operands(args);
    onStream(b, [&](Value t) {
      for (auto [i, v] : llvm::enumerate(args)) {
        if (access[i] == kNone)
          continue;
        if (!onDevice(v)) {
          Value root = getRootBuffer(v);
          DeviceCopy c = allocate(b, root, t);
          if (!freshOutput(i))
            t = gpu::MemcpyOp::create(b, token, ValueRange{t}, c.dev, root)
                    .getAsyncToken();
          copies.push_back(c);
        }
        operands[i] = deviceOf(b, v);
      }
      return t;
    });
    for (auto [i, v] : llvm::enumerate(args))
      if (access[i] & kWrite)
        for (DeviceCopy &c : copies)
          if (c.root == getRootBuffer(v))
            c.stale = true;
    lf.getKernelOperandsMutable().assign(operands);
  }

  /// Whether `root` is a memref.alloc of `op`'s block that nothing before
  /// `op` uses but views: its contents are undefined, a kernel writing part
  /// of it needs no copy of the rest (RoPE's rotate-half writes the two
  /// halves of a fresh buffer with two kernels).
  static bool unwritten(Value root, Operation *op) {
    auto alloc = root.getDefiningOp<memref::AllocOp>();
    if (!alloc || alloc->getBlock() != op->getBlock())
      return false;
    SmallVector<Value> values{root};
    while (!values.empty()) {
      Value v = values.pop_back_val();
      for (Operation *user : v.getUsers()) {
        Operation *at = op->getBlock()->findAncestorOpInBlock(*user);
        if (!at)
          return false;
        if (at == op || op->isBeforeInBlock(at))
          continue;
        auto view = dyn_cast<ViewLikeOpInterface>(user);
        if (!view || view.getViewSource() != v)
          return false;
        llvm::append_range(values, user->getResults());
      }
    }
    return true;
  }

  /// What a kernel's body does with its memref parameter `arg`: the memory
  /// effects of its users, through views; anything else (a call, an op
  /// without effects) may read and write it.
  static unsigned kernelAccess(Value arg) {
    unsigned access = kNone;
    for (Operation *user : arg.getUsers()) {
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == arg) {
        for (Value r : user->getResults())
          access |= kernelAccess(r);
        continue;
      }
      access |= accessOf(user, arg, /*top=*/true) & (kRead | kWrite);
    }
    return access;
  }
};

} // namespace

void mlir::fp8::makeLaunchesResident(func::FuncOp fn) {
  // Bufferized functions only: the buffers of a function still on tensors
  // (bufferization.to_buffer at the call sites) are not yet the ones its
  // host ops read, so its launchers keep their own copies.
  bool onTensors =
      fn.walk([](Operation *op) {
          auto isTensor = [](Type t) { return isa<TensorType>(t); };
          return llvm::any_of(op->getOperandTypes(), isTensor) ||
                         llvm::any_of(op->getResultTypes(), isTensor)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        }).wasInterrupted();
  if (onTensors)
    return;
  SmallVector<Block *> blocks;
  fn.walk<WalkOrder::PreOrder>([&](Block *block) { blocks.push_back(block); });
  for (Block *block : blocks)
    BlockResidency(*block).run();
}
