//===- OutlineHostKernels.cpp - fp8-outline-host-kernels ------------------===//
//
// The high-precision ops of a bufferized host program (RMSNorm, softmax,
// SwiGLU, the loss: linalg ops on static memrefs with arith/math bodies) as
// GPU kernels, so that with fp8-launch-kernels' residency only the
// program's arguments and results cross between host and device.
//
// Each op becomes one kernel whose threads compute its output elements
// exactly as the host's loop nest (convert-linalg-to-loops) does: the op is
// generalized, its parallel iterators moved outermost with the reduction
// iterators kept in their relative order (so every output element
// accumulates its terms in the host's order), and lowered by upstream
// linalg-to-parallel-loops; the scf.parallel over the parallel iterators is
// linearized over a 1-D grid of 256-thread blocks (a reduction loop nest
// stays sequential inside each thread), and upstream outlining moves the
// gpu.launch into `gpu.module @fp8_host_kernels`. The program's constant
// tables (`constant` memref.globals) the kernels read are copied into that
// module: they never cross between host and device. An elementwise op with
// an input transposed against its outputs is tiled through shared memory
// instead (OutlineTiledTranspose.cpp); marked row sums are warp-per-row
// kernels (OutlineRowKernels.cpp).
//
// Bit-exactness also needs the kernel bodies lowered with the host's
// arith/math lowering (the pipeline does that, docs/numerics.md): an op
// whose body has an op without such a lowering (math.exp, f64, fastmath
// flags, ...) stays a host loop nest with a remark saying why.
//
// A host loop that views its buffers at its own indices (the embedding
// gradient's scatter-add) becomes one kernel running the loop nest, its
// threads splitting one linalg op's elements: OutlineHostLoops.cpp decides
// which loops and which op (OutlineHostKernels.h), this file builds the
// kernel.
//
//===----------------------------------------------------------------------===//
#include "OutlineHostKernels.h"
#include "Launchers.h"

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/IR/ReductionLanes.h"
#include "fp8/Dialect/FP8/Utils/MemRefUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace mlir {
namespace fp8 {
#define GEN_PASS_DEF_FP8OUTLINEHOSTKERNELSPASS
#include "fp8/Conversion/Passes.h.inc"
} // namespace fp8
} // namespace mlir

using namespace mlir;
using namespace mlir::fp8::detail;

namespace {

constexpr StringLiteral kHostKernelModule = "fp8_host_kernels";
constexpr int64_t kThreads = 256;
/// A row kernel's rows per CTA (its warps).
constexpr int64_t kRowsPerBlock = kThreads / kWarpSize;
/// The threads a loop kernel with owned rows aims at (2^16: 256 CTAs, about
/// two per SM of an H100, every SM busy).
constexpr int64_t kOwnedRowsThreads = 1 << 16;

/// The rows of each chunk of a loop kernel whose `elements` threads per
/// chunk own rows of a buffer of `extent` rows: enough chunks for about
/// kOwnedRowsThreads threads, at most one per row.
int64_t rowsPerThreadChunk(int64_t elements, int64_t extent) {
  int64_t chunks = std::clamp<int64_t>(
      (kOwnedRowsThreads + elements - 1) / elements, 1, extent);
  return (extent + chunks - 1) / chunks;
}

/// Whether `ty`'s strides and offset are static (a bare pointer and the
/// type describe the buffer).
bool hasStaticLayout(MemRefType ty) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(ty.getStridesAndOffset(strides, offset)))
    return false;
  return !ShapedType::isDynamic(offset) &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

/// The largest 1-D grid: CUDA's grid x limit (2^31 - 1 CTAs, compute
/// capability 9.0; CUDA C++ Programming Guide, "Features and Technical
/// Specifications"). The launch's index type is 64-bit: the thread index
/// block_id * block_dim + thread_id and the element indices derived from
/// it do not wrap (a 70000 x 40000 elementwise op's 2.8e9 threads).
constexpr int64_t kMaxGridX = std::numeric_limits<int32_t>::max();

/// `x * y`, saturated at INT64_MAX (static sizes whose product overflows).
int64_t saturatingMul(int64_t x, int64_t y) {
  int64_t p;
  return llvm::MulOverflow(x, y, p) ? std::numeric_limits<int64_t>::max() : p;
}

/// Why `threads` threads in CTAs of `perCta` do not fit one launch's 1-D
/// grid (ceil(threads / perCta) above kMaxGridX), empty when they do:
/// upstream's gpu.launch_func takes any index, so the launch would be
/// refused at run time, or its grid truncated to 32 bits by a runtime
/// that converts it.
std::string whyGridTooLarge(int64_t threads, int64_t perCta) {
  int64_t ctas = threads / perCta + (threads % perCta != 0);
  if (ctas <= kMaxGridX)
    return "";
  return "its " +
         (threads == std::numeric_limits<int64_t>::max()
              ? std::string("2^63 or more")
              : std::to_string(threads)) +
         " threads need " + std::to_string(ctas) + " CTAs of " +
         std::to_string(perCta) +
         ", above the grid's 2^31 - 1 (CUDA's grid x limit)";
}

} // namespace

// The checks the op kernels share with the loop kernels
// (OutlineHostLoops.cpp).

bool fp8::detail::isMemoryType(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return llvm::is_contained({8u, 16u, 32u, 64u}, i.getWidth());
  // FP8 codes are moved (filled, copied), never computed on: their bits
  // are bytes on both sides (the FP8 GEMM's padded operands).
  if (isa<Float8E4M3FNType, Float8E5M2Type, Float8E8M0FNUType>(t))
    return true;
  return t.isF32() || t.isBF16() || t.isF16();
}

std::string fp8::detail::unsupportedBodyOp(Operation *op) {
  if (isa<linalg::YieldOp, linalg::IndexOp>(op))
    return "";
  if (auto fm = dyn_cast<arith::ArithFastMathInterface>(op))
    if (fm.getFastMathFlagsAttr() &&
        fm.getFastMathFlagsAttr().getValue() != arith::FastMathFlags::none)
      return "has fast-math flags, which the host's and the GPU's code "
             "generators may apply differently";
  auto floatOk = [&](Type t, bool narrowOk) {
    Type e = getElementTypeOrSelf(t);
    return !isa<FloatType>(e) || e.isF32() ||
           (narrowOk && (e.isBF16() || e.isF16()));
  };
  bool isCast = isa<arith::ExtFOp, arith::TruncFOp, arith::BitcastOp>(op);
  if (isa<arith::ArithDialect>(op->getDialect())) {
    if (isa<arith::RemFOp>(op))
      return "becomes a libm call on the host and a libdevice call on the "
             "GPU";
    for (Type t : llvm::concat<Type>(llvm::to_vector(op->getOperandTypes()),
                                     llvm::to_vector(op->getResultTypes())))
      if (!floatOk(t, isCast) || isa<VectorType>(t))
        return "is not f32 arithmetic (only f32, with bf16/f16 as casts, is "
               "lowered alike)";
    return "";
  }
  // convert-math-to-llvm: llvm.intr.sqrt, fdiv of 1 by it, fabs, fma, all
  // correctly rounded on both sides (docs/numerics.md). The other math ops
  // become libm calls on the host and libdevice or approximate
  // instructions on the GPU.
  if (isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::FmaOp>(op)) {
    if (!llvm::all_of(op->getOperandTypes(), [](Type t) { return t.isF32(); }))
      return "is not on f32 (only f32 math ops are lowered alike)";
    return "";
  }
  return "has no GPU lowering with the host's bits";
}

std::string fp8::detail::whyNotParameter(Value v) {
  auto ty = cast<MemRefType>(v.getType());
  if (!ty.hasStaticShape() || !hasStaticLayout(ty))
    return "has a dynamic shape or layout (kernels take bare pointers: "
           "static shapes only)";
  if (!isMemoryType(ty.getElementType()))
    return "has an element type that is not i8/i16/i32/i64/f16/bf16/f32 "
           "or FP8 codes";
  if (ty.getMemorySpace())
    return "is not in the default memory space";
  // The device copy of the buffer it views is allocated in its type.
  auto rootTy = dyn_cast<MemRefType>(fp8::getRootBuffer(v).getType());
  if (!rootTy || !rootTy.getLayout().isIdentity())
    return "views a buffer without an identity layout";
  return "";
}

bool fp8::detail::inHostParallelLoop(Operation *op) {
  return op->getParentOfType<scf::ForallOp>() ||
         op->getParentOfType<scf::ParallelOp>();
}

bool fp8::detail::hasParallelOrReductionIterators(linalg::LinalgOp op) {
  return llvm::all_of(op.getIteratorTypesArray(), [](utils::IteratorType it) {
    return it == utils::IteratorType::parallel ||
           it == utils::IteratorType::reduction;
  });
}

namespace {

/// The constant global `v` reads (a memref.get_global of a `constant`
/// memref.global with an initializer and a static shape: never written),
/// or null. A kernel reads its own copy of it in the kernel module, so it
/// never crosses between host and device.
memref::GlobalOp constantGlobal(Value v) {
  auto get = v.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return {};
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  if (!global || !global.getConstant() || !global.getInitialValue() ||
      !global.getType().hasStaticShape() ||
      !global.getType().getLayout().isIdentity() ||
      global.getType().getMemorySpace())
    return {};
  return global;
}

/// Why the load `load` in the body of `op` does not read the same bits in a
/// kernel (empty when it does): a gather (the embedding's table at the
/// token ids). A buffer defined outside the op becomes a kernel parameter
/// (the residency sees the kernel's load of it); one the op also writes
/// would be read while other threads write it.
std::string whyNotCapturedLoad(memref::LoadOp load, linalg::LinalgOp op) {
  Value buf = load.getMemRef();
  if (op->getRegion(0).isAncestor(buf.getParentRegion()))
    return "reads a buffer defined in the body";
  std::string why = whyNotParameter(buf);
  if (!why.empty())
    return "reads a buffer that " + why;
  for (Value init : op.getDpsInits())
    if (fp8::getRootBuffer(init) == fp8::getRootBuffer(buf))
      return "reads a buffer the op writes (threads would race with the "
             "host's order)";
  return "";
}

/// Why an input of `op` would race with its outputs in a kernel (empty
/// when none does): an input of an output's buffer must be that output,
/// read through its indexing map, so that each thread reads only the
/// element it writes (an in-place update). Under another map or view
/// (`ins(%a : (d0) -> (7 - d0)) outs(%a)`) a thread would read an element
/// another thread writes, in no order; the host reads it in its loop's.
std::string whyAliasedInput(linalg::LinalgOp op) {
  for (OpOperand *in : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(in->get().getType()))
      continue;
    Value root = fp8::getRootBuffer(in->get());
    for (OpOperand &init : op.getDpsInitsMutable())
      if (fp8::getRootBuffer(init.get()) == root &&
          (in->get() != init.get() ||
           op.getMatchingIndexingMap(in) != op.getMatchingIndexingMap(&init)))
        return "an input reads a buffer an output writes, not element for "
               "element (another view or indexing map: threads would race "
               "with the host's order)";
  }
  return "";
}

/// Why `op` cannot become a kernel (empty when it can).
std::string whyHost(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics())
    return "it is not on buffers";
  if (inHostParallelLoop(op))
    return "it is inside a host-parallel loop";
  for (Value v : op->getOperands()) {
    if (!isa<MemRefType>(v.getType())) {
      if (!isa<IntegerType, FloatType, IndexType>(v.getType()))
        return "an operand is neither a memref nor a scalar";
      continue;
    }
    std::string why = whyNotParameter(v);
    if (!why.empty())
      return "an operand " + why;
  }
  // Every output element written by exactly one thread: the outputs index
  // by every parallel iterator, each in one position (inputs may read
  // through any affine map: a column of a wider buffer, (d0, 1)).
  SmallVector<unsigned> parallel;
  op.getParallelDims(parallel);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return "an output's indexing map is not a projected permutation";
    for (unsigned d : parallel)
      if (!map.isFunctionOfDim(d))
        return "an output does not index by every parallel iterator";
  }
  if (!hasParallelOrReductionIterators(op))
    return "an iterator is neither parallel nor a reduction";
  std::string aliased = whyAliasedInput(op);
  if (!aliased.empty())
    return aliased;
  for (Operation &inner : op.getBlock()->getOperations()) {
    std::string why;
    inner.walk([&](Operation *nested) {
      if (why.empty()) {
        std::string w =
            isa<memref::LoadOp>(nested)
                ? whyNotCapturedLoad(cast<memref::LoadOp>(nested), op)
                : unsupportedBodyOp(nested);
        if (!w.empty())
          why =
              "its body's " + nested->getName().getStringRef().str() + " " + w;
      }
    });
    if (!why.empty())
      return why;
  }
  for (BlockArgument arg : op.getBlock()->getArguments())
    if (isa<FloatType>(arg.getType()) && !isMemoryType(arg.getType()))
      return "an element type is not i8/i16/i32/i64/f16/bf16/f32 or FP8 "
             "codes";
  return "";
}

/// What `op`, left in a host function, does to a buffer's elements on the
/// host, or "" when it touches none: a load or store, a vector transfer,
/// a call passing a buffer to a function without a body (its code runs on
/// the host), other than a kernel's launcher. Under require-kernels the
/// buffers are device memory.
static std::string hostElementAccess(Operation *op) {
  if (isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp,
          memref::GenericAtomicRMWOp, affine::AffineLoadOp,
          affine::AffineStoreOp>(op))
    return "reads or writes a buffer's elements on the host";
  if (!llvm::any_of(op->getOperandTypes(), llvm::IsaPred<MemRefType>))
    return "";
  if (op->getName().getDialectNamespace() == "vector")
    return "reads or writes a buffer's elements on the host (a vector "
           "access)";
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, call.getCalleeAttr());
    // A launcher's declaration (fp8.kernel_ref: its body, which launches
    // its kernel, comes later in the pipeline) is no host code.
    if (callee && callee.isExternal() &&
        !callee->hasAttr(fp8::FP8Dialect::kKernelRefAttrName))
      return "passes a buffer to @" + call.getCallee().str() +
             ", a function without a body here, whose code runs on the host";
  }
  return "";
}

struct FP8OutlineHostKernelsPass
    : public fp8::impl::FP8OutlineHostKernelsPassBase<
          FP8OutlineHostKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    kernels.reset();
    kernelsByHash.clear();
    loopWhy.clear();
    fused.clear();
    foldedInits.clear();
    foldedFills.clear();
    deadAllocations.clear();
    copies.clear();
    refusedHostOps = false;
    SmallVector<Operation *> candidates;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (auto loop = dyn_cast<scf::ForOp>(op);
          loop && viewsPerIteration(loop)) {
        std::string why = whyHostLoop(loop);
        if (why.empty()) {
          candidates.push_back(op);
          return WalkResult::skip();
        }
        loopWhy[op] = why;
      }
      if (isa<linalg::LinalgOp>(op) || isa<memref::CopyOp>(op))
        candidates.push_back(op);
      return WalkResult::advance();
    });
    IRRewriter rewriter(&getContext());
    foldInitFills(candidates);
    for (Operation *op : candidates) {
      // Fused into its row sum's kernel (and erased).
      if (fused.contains(op))
        continue;
      if (!op->getParentOfType<func::FuncOp>())
        continue;
      if (failed(outline(rewriter, module, op)))
        return signalPassFailure();
    }
    // The folded fills: their reductions' kernels took their values.
    for (linalg::FillOp fill : foldedFills)
      rewriter.eraseOp(fill);
    // The fused row kernels' dead outputs: no device buffer for them.
    for (Value root : deadAllocations)
      if (failed(eraseDeadAllocation(rewriter, root)))
        return signalPassFailure();
    // Every op require-kernels refuses has its error: then the pass fails.
    if (requireKernels)
      refuseHostElementAccess(module);
    if (refusedHostOps)
      return signalPassFailure();
    // A marked sum left on the host (in a loop kernel or a host loop)
    // would add in the loops' sequential order.
    WalkResult left = module.walk([](linalg::GenericOp op) {
      if (!op->hasAttr(fp8::kReductionLanesAttrName) &&
          !op->hasAttr(fp8::kColumnLanesAttrName))
        return WalkResult::advance();
      op.emitOpError("fp8-outline-host-kernels: the sum marked ")
          << (op->hasAttr(fp8::kColumnLanesAttrName) ? "fp8.column_lanes"
                                                     : "fp8.reduction_lanes")
          << " is not a kernel of its own (it is inside a loop): only its "
             "row or column kernel computes its order";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      return signalPassFailure();
  }

  /// The kernel module's symbol table, the module created on first use
  /// (one table for the pass: building it per kernel would make the pass
  /// quadratic in the number of ops).
  std::optional<SymbolTable> kernels;
  SymbolTable &kernelModule(ModuleOp module) {
    if (!kernels)
      kernels.emplace(getOrCreateKernelModule(module));
    return *kernels;
  }
  gpu::GPUModuleOp getOrCreateKernelModule(ModuleOp module) {
    if (auto m = module.lookupSymbol<gpu::GPUModuleOp>(kHostKernelModule))
      return m;
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto target = NVVM::NVVMTargetAttr::get(
        &getContext(), /*optLevel=*/3, "nvptx64-nvidia-cuda", chip, features);
    auto m = gpu::GPUModuleOp::create(b, module.getLoc(), kHostKernelModule,
                                      b.getArrayAttr({target}));
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    return m;
  }

  /// The kernels outlined so far by kernelHash: a step repeats each layer's
  /// ops on the same shapes, so most of its kernels are copies of the
  /// first layer's (22 distinct of 586 at 32 layers), and each launch of a
  /// copy takes the first instead (the kernel module, its NVVM lowering
  /// and its binary stay the size of one layer's).
  llvm::DenseMap<size_t, SmallVector<gpu::GPUFuncOp, 1>> kernelsByHash;

  /// A hash of `kernel`'s type and body, its name and locations left out:
  /// kernels OperationEquivalence finds equal hash alike.
  static size_t kernelHash(gpu::GPUFuncOp kernel) {
    llvm::hash_code h = hash_value(kernel.getFunctionType());
    kernel.getBody().walk([&](Operation *op) {
      h = llvm::hash_combine(h, OperationEquivalence::computeHash(
                                    op, OperationEquivalence::ignoreHashValue,
                                    OperationEquivalence::ignoreHashValue,
                                    OperationEquivalence::IgnoreLocations));
    });
    return h;
  }

  /// The one of `candidates` (outlined kernels of `kernel`'s hash) that
  /// computes what the new, not yet inserted `kernel` does (the same type,
  /// attributes and body up to locations; its own name compared as the
  /// candidate's), or null.
  static gpu::GPUFuncOp equivalentKernel(gpu::GPUFuncOp kernel,
                                         ArrayRef<gpu::GPUFuncOp> candidates) {
    StringAttr name = SymbolTable::getSymbolName(kernel);
    gpu::GPUFuncOp same;
    for (gpu::GPUFuncOp candidate : candidates) {
      SymbolTable::setSymbolName(kernel, SymbolTable::getSymbolName(candidate));
      if (OperationEquivalence::isEquivalentTo(
              candidate, kernel, OperationEquivalence::IgnoreLocations)) {
        same = candidate;
        break;
      }
    }
    SymbolTable::setSymbolName(kernel, name);
    return same;
  }

  /// Why the host loops that view their buffers per iteration are not
  /// kernels (their ops' remarks say it).
  llvm::DenseMap<Operation *, std::string> loopWhy;

  /// The host loop `loop` (whyHostLoop) as one kernel running the loop
  /// nest, its threads over threadOp's iterations or a single thread: its
  /// other linalg ops become the host's loops, its views fold into the
  /// loads and stores of the buffers they view.
  LogicalResult outlineLoop(IRRewriter &rewriter, ModuleOp module,
                            scf::ForOp loop) {
    int64_t total = 1;
    linalg::LinalgOp split = threadOp(loop, total);
    if (!split)
      ::mlir::emitRemark(loop->getLoc(),
                         "one thread runs the loop nest "
                         "(fp8-outline-host-kernels): no op of its body can be "
                         "split over threads (one all-parallel linalg op "
                         "whose elements each thread keeps in every "
                         "iteration)");
    std::optional<OwnedRows> rows;
    if (split)
      rows = ownedRows(split, loop);
    int64_t rowsPerChunk = rows ? rowsPerThreadChunk(total, rows->extent) : 0;
    int64_t chunks =
        rows ? (rows->extent + rowsPerChunk - 1) / rowsPerChunk : 1;
    if (std::string big =
            whyGridTooLarge(saturatingMul(total, chunks), kThreads);
        !big.empty())
      return loop->emitOpError("fp8-outline-host-kernels: the loop cannot be "
                               "one kernel: ")
             << big;
    if (split)
      remarkLoopKernel(loop, split, total, rows ? chunks : 0, rowsPerChunk);
    gpu::LaunchOp launch = launchAround(rewriter, loop, total * chunks);
    // With owned rows, thread g runs element g % total of the op for the
    // rows of chunk g / total: an iteration whose row is another chunk's
    // skips the op (the loop's order kept for every element).
    Value element;
    if (rows) {
      Location loc = loop.getLoc();
      rewriter.setInsertionPoint(loop);
      Value id = threadId(rewriter, launch);
      Value ops = arith::ConstantIndexOp::create(rewriter, loc, total);
      element = arith::RemUIOp::create(rewriter, loc, id, ops);
      Value chunk = arith::DivUIOp::create(rewriter, loc, id, ops);
      rewriter.setInsertionPoint(split);
      Value perChunk =
          arith::ConstantIndexOp::create(rewriter, loc, rowsPerChunk);
      Value owner =
          arith::DivUIOp::create(rewriter, loc, rows->offset, perChunk);
      Value owned = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, owner, chunk);
      auto ifOwned = scf::IfOp::create(rewriter, loc, owned);
      rewriter.moveOpBefore(split, ifOwned.thenBlock()->getTerminator());
    }
    SmallVector<linalg::LinalgOp> inner;
    loop.walk([&](linalg::LinalgOp l) { inner.push_back(l); });
    for (linalg::LinalgOp l : inner) {
      if (l == split) {
        if (failed(lowerOverThreads(rewriter, launch, l, total, element)))
          return failure();
        continue;
      }
      rewriter.setInsertionPoint(l);
      if (failed(linalg::linalgOpToLoops(rewriter, l)))
        return l.emitOpError("fp8-outline-host-kernels: cannot lower the op "
                             "to loops"),
               failure();
      rewriter.eraseOp(l);
    }
    RewritePatternSet patterns(&getContext());
    memref::populateFoldMemRefAliasOpPatterns(patterns);
    if (failed(applyPatternsGreedily(launch, std::move(patterns))))
      return launch.emitOpError("fp8-outline-host-kernels: cannot fold the "
                                "loop's views"),
             failure();
    std::string name =
        (loop->getParentOfType<func::FuncOp>().getSymName() + "_loop").str();
    return finish(rewriter, module, launch, name);
  }

  /// The remark on a loop kernel whose threads split `split`'s `elements`
  /// (and, `chunks` > 0, the written buffer's rows in chunks of
  /// `rowsPerChunk`): its cost, each thread running every iteration of the
  /// loop, and why no row or tensor-core kernel takes it.
  static void remarkLoopKernel(scf::ForOp loop, linalg::LinalgOp split,
                               int64_t elements, int64_t chunks,
                               int64_t rowsPerChunk) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    std::string steps = "a run-time number of";
    if (lb && ub && step && *step > 0)
      steps = std::to_string(*ub > *lb ? (*ub - *lb + *step - 1) / *step : 0);
    InFlightDiagnostic remark = ::mlir::emitRemark(loop->getLoc());
    remark << "a loop kernel (fp8-outline-host-kernels): "
           << elements * std::max<int64_t>(chunks, 1) << " threads ("
           << elements << " elements of its "
           << split->getName().getStringRef();
    if (chunks > 0)
      remark << " x " << chunks << " chunks of " << rowsPerChunk
             << (rowsPerChunk == 1 ? " row" : " rows")
             << " of the buffer it writes";
    remark << "), " << steps
           << " sequential steps each (the loop's iterations, in its order); "
              "no row or tensor-core kernel: it is a loop whose iterations "
              "view their buffers at indices of their own (a scatter-add: "
              "the embedding gradient's table rows at the token ids), not "
              "one linalg op, and its order is the host's";
  }

  LogicalResult outline(IRRewriter &rewriter, ModuleOp module, Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return outlineLoop(rewriter, module, loop);
    rewriter.setInsertionPoint(op);
    // memref.copy between static buffers: the same element-wise copy.
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      auto srcTy = dyn_cast<MemRefType>(copy.getSource().getType());
      if (!srcTy || !srcTy.hasStaticShape())
        return keepOnHost(op, "an operand has a dynamic shape (kernels take "
                              "bare pointers: static shapes only)"),
               success();
      op = linalg::CopyOp::create(rewriter, op->getLoc(), copy.getSource(),
                                  copy.getTarget());
      rewriter.eraseOp(copy);
    }
    auto linalgOp = cast<linalg::LinalgOp>(op);
    // The kernel's name, for humans (outlining makes it unique).
    std::string name = (op->getParentOfType<func::FuncOp>().getSymName() + "_" +
                        op->getName().stripDialect())
                           .str();
    std::string why = whyHost(linalgOp);
    // A group's op whose sum did not take it (the sum would have fused or
    // refused it): no sum of its id before it in its block.
    if (op->hasAttr(fp8::kRowGroupAttrName) &&
        !op->hasAttr(fp8::kReductionLanesAttrName)) {
      // A producer: the group's first row reduction after it leads.
      for (Operation *next = op->getNextNode(); next;
           next = next->getNextNode())
        if (next->hasAttr(fp8::kReductionLanesAttrName) &&
            next->getAttr(fp8::kRowGroupAttrName) ==
                op->getAttr(fp8::kRowGroupAttrName))
          return outlineRowSum(
              rewriter, module, cast<linalg::GenericOp>(next),
              whyHost(cast<linalg::LinalgOp>(next)),
              op->getParentOfType<func::FuncOp>().getSymName().str());
      return op->emitOpError("fp8-outline-host-kernels: the op of row group ")
             << op->getAttrOfType<IntegerAttr>(fp8::kRowGroupAttrName).getInt()
             << " follows no row sum of its group in its block (the row "
                "kernel computes the group's ops after its sum)";
    }
    if (op->hasAttr(fp8::kColumnLanesAttrName))
      return outlineColumnSum(rewriter, module, cast<linalg::GenericOp>(op),
                              why, name);
    if (op->hasAttr(fp8::kReductionLanesAttrName))
      return outlineRowSum(
          rewriter, module, cast<linalg::GenericOp>(op), why,
          op->getParentOfType<func::FuncOp>().getSymName().str());
    if (!why.empty()) {
      for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
        if (auto it = loopWhy.find(p); it != loopWhy.end()) {
          why += "; its scf.for is not a kernel: " + it->second;
          break;
        }
      return keepOnHost(op, why), success();
    }

    linalg::GenericOp generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic) {
      FailureOr<linalg::GenericOp> g =
          linalg::generalizeNamedOp(rewriter, linalgOp);
      if (failed(g))
        return op->emitOpError("fp8-outline-host-kernels: cannot generalize "
                               "the op"),
               failure();
      generic = *g;
    }
    // Parallel iterators outermost, the reductions after them in their
    // order: each output element accumulates as on the host.
    SmallVector<unsigned> order;
    SmallVector<utils::IteratorType> iters = generic.getIteratorTypesArray();
    for (auto [i, it] : llvm::enumerate(iters))
      if (it == utils::IteratorType::parallel)
        order.push_back(i);
    int64_t numParallel = order.size();
    for (auto [i, it] : llvm::enumerate(iters))
      if (it != utils::IteratorType::parallel)
        order.push_back(i);
    if (!llvm::equal(order, llvm::seq<unsigned>(0, iters.size()))) {
      FailureOr<linalg::GenericOp> g =
          linalg::interchangeGenericOp(rewriter, generic, order);
      if (failed(g))
        return generic.emitOpError("fp8-outline-host-kernels: cannot "
                                   "interchange the iterators"),
               failure();
      generic = *g;
    }
    int64_t total = 1;
    SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
    for (int64_t i = 0; i < numParallel; ++i)
      total = saturatingMul(total, ranges[i]);
    if (total == 0) { // nothing to compute: no launch (CUDA rejects it)
      rewriter.eraseOp(generic);
      return success();
    }
    // A reduction no row kernel takes: each thread runs it sequentially,
    // the fallback the remark names with its cost.
    if (numParallel < static_cast<int64_t>(ranges.size())) {
      int64_t steps = 1;
      for (int64_t r : llvm::drop_begin(ranges, numParallel))
        steps *= r;
      ::mlir::emitRemark(generic->getLoc())
          << "one thread per output element (fp8-outline-host-kernels): "
          << total << " threads, " << steps
          << " sequential steps each; no row kernel: "
          << whyNoRowKernel(generic);
    }

    // An input transposed against the outputs: staged through shared
    // memory tile by tile, the elements computed as below.
    if (std::optional<TransposeTiling> tiling = planTransposeTiling(generic)) {
      gpu::LaunchOp launch = launchAround(
          rewriter, generic, tiling->tiles * kTileThreads, kTileThreads);
      emitTiledTranspose(rewriter, launch, generic, *tiling);
      rewriter.eraseOp(generic);
      return finish(rewriter, module, launch, name);
    }

    // The launch with the op inside it, then lowered to loops there.
    if (std::string big = whyGridTooLarge(total, kThreads); !big.empty())
      return keepOnHost(generic, big), success();
    gpu::LaunchOp launch = launchAround(rewriter, generic, total);
    if (failed(lowerOverThreads(rewriter, launch, generic, total)))
      return failure();

    return finish(rewriter, module, launch, name);
  }

  /// The row sum `op` (marked fp8.reduction_lanes) as one kernel: one warp
  /// per row, 8 rows per CTA (ceil(rows / 8) CTAs of min(rows, 8) warps).
  /// Lane l adds its partial sum (emitPartialSum), the warp's butterfly
  /// adds the lanes (emitButterfly), and lane 0 adds the init on the side
  /// the body had its accumulator and stores the row's result: the
  /// additions of fp8-split-reductions' partial sums, tree and final add,
  /// in their order. The host has no other lowering of the mark (its loops
  /// would add in the sequential order): a sum the kernel cannot take is
  /// an error. `why` is whyHost's verdict on the op; the kernel is named
  /// after the function `name`. A row max (maximumf, whose result no order
  /// changes) is the same kernel with maximumf and a -inf start.
  LogicalResult outlineRowSum(IRRewriter &rewriter, ModuleOp module,
                              linalg::GenericOp op, const std::string &why,
                              std::string name) {
    auto fail = [&](const std::string &reason) {
      return op.emitOpError("fp8-outline-host-kernels: the row sum marked "
                            "fp8.reduction_lanes cannot run as a row kernel: ")
             << reason
             << " (fp8-split-reductions marks only the sums it can take; "
                "without the mark the sum is split into loops)";
    };
    if (!why.empty())
      return fail(why);
    std::string notSum;
    FailureOr<RowSum> sum = matchRowSum(op, notSum);
    if (failed(sum))
      return fail(notSum);
    std::optional<RowGroupPlan> group;
    if (op->hasAttr(fp8::kRowGroupAttrName)) {
      std::string notGroup;
      FailureOr<RowGroupPlan> plan = planRowGroup(op, *sum, whyHost, notGroup);
      if (failed(plan))
        return op.emitOpError("fp8-outline-host-kernels: the row group ")
               << op->getAttrOfType<IntegerAttr>(fp8::kRowGroupAttrName)
                      .getInt()
               << " cannot be one kernel: " << notGroup;
      group = *plan;
      for (RowGroupMember &m : group->members)
        if (m.reduction)
          m.init = foldedInits.lookup(m.op);
      findDeadOutputs(op, foldedInits.lookup(op), *group);
      // The launch takes the place of the group's last op: the deallocs in
      // between move after it, the sum before it.
      Operation *last = group->members.back().op;
      for (Operation *d : llvm::reverse(group->deallocs))
        rewriter.moveOpAfter(d, last);
      for (RowGroupMember m : group->producers)
        rewriter.moveOpBefore(m.op, last);
      rewriter.moveOpBefore(op, last);
      for (RowGroupMember m :
           llvm::concat<RowGroupMember>(group->producers, group->members))
        fused.insert(m.op);
      fused.insert(op);
    }
    if (sum->rows == 0) { // nothing to compute: no launch
      if (group)
        for (RowGroupMember m :
             llvm::concat<RowGroupMember>(group->producers, group->members))
          rewriter.eraseOp(m.op);
      rewriter.eraseOp(op);
      return success();
    }
    if (std::string big =
            whyGridTooLarge(saturatingMul(sum->rows, kWarpSize), kThreads);
        !big.empty())
      return fail("a warp per row: " + big);
    Location loc = op.getLoc();
    int64_t warps = std::min(sum->rows, kRowsPerBlock);
    gpu::LaunchOp launch =
        launchAround(rewriter, op, sum->rows * kWarpSize, warps * kWarpSize);
    rewriter.setInsertionPoint(op);
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    Value warpSize = cst(kWarpSize);
    Value tid = launch.getThreadIds().x;
    Value warp = arith::DivUIOp::create(rewriter, loc, tid, warpSize);
    Value lane = arith::RemUIOp::create(rewriter, loc, tid, warpSize);
    Value firstRow = arith::MulIOp::create(
        rewriter, loc, launch.getBlockIds().x, cst(kRowsPerBlock));
    Value row = arith::AddIOp::create(rewriter, loc, firstRow, warp);
    // Whole warps are in or out: the butterfly needs every lane.
    Value inRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, row, cst(sum->rows));
    auto ifRow = scf::IfOp::create(rewriter, loc, inRange);
    rewriter.setInsertionPointToStart(&ifRow.getThenRegion().front());
    // The row's parallel indices, row-major (the last varies fastest).
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<Value> dims(ranges.size());
    // (The init's map does not read the reduction index.)
    dims[sum->reductionDim] = cst(0);
    Value rest = row;
    for (int64_t d = ranges.size() - 1; d >= 0; --d) {
      if (d == static_cast<int64_t>(sum->reductionDim))
        continue;
      Value extent = cst(ranges[d]);
      dims[d] = arith::RemUIOp::create(rewriter, loc, rest, extent);
      rest = arith::DivUIOp::create(rewriter, loc, rest, extent);
    }
    // The group's producers first: the warp computes and stores their
    // elements in the sum's lane map, the walk carrying the sum's partial
    // sum (the elements it reads from them in registers).
    int64_t n = ranges[sum->reductionDim];
    WalkedLaneMaps walked;
    Value partial;
    if (group && !group->producers.empty()) {
      walked.emitBefore(rewriter, loc, laneMapOf(*sum, n));
      partial = emitElementLoop(rewriter, loc, n, *sum, group->producers, dims,
                                lane, IRMapping(), op, &group->dead);
    } else {
      if (group)
        walked.emitBefore(rewriter, loc, laneMapOf(*sum, n));
      partial = emitPartialSum(rewriter, loc, op, *sum, dims, lane);
    }
    Value total = emitButterfly(rewriter, loc, *sum, partial);
    if (group) {
      // The group's result of the sum: every lane's (emitRowResult).
      Value result = emitRowResult(
          rewriter, loc, op, *sum, dims, lane, total, foldedInits.lookup(op),
          !group->dead.isDead(op.getDpsInitOperand(0)->get()));
      emitRowGroup(rewriter, loc, op, *sum, *group, dims, lane, result, walked);
      for (RowGroupMember m :
           llvm::concat<RowGroupMember>(group->producers, group->members))
        rewriter.eraseOp(m.op);
      rewriter.eraseOp(op);
      // Their allocations go after the folded fills (runOnOperation).
      llvm::append_range(deadAllocations, group->dead.roots);
      return finish(rewriter, module, launch,
                    name + (sum->max ? "_row_max" : "_row_sum") + "_fused");
    }
    Value isLane0 = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, lane, cst(0));
    auto ifLane0 = scf::IfOp::create(rewriter, loc, isLane0);
    rewriter.setInsertionPointToStart(&ifLane0.getThenRegion().front());
    OpOperand *init = op.getDpsInitOperand(0);
    SmallVector<Value> at =
        applyMap(rewriter, loc, op.getMatchingIndexingMap(init), dims);
    // The init's folded fill (foldableInitFill): its scalar, the bits the
    // load would give; else the buffer's element.
    Value old = foldedInits.lookup(op);
    if (!old)
      old = memref::LoadOp::create(rewriter, loc, init->get(), at);
    Value result = sum->accumulatorFirst
                       ? combine(rewriter, loc, *sum, old, total)
                       : combine(rewriter, loc, *sum, total, old);
    memref::StoreOp::create(rewriter, loc, result, init->get(), at);
    rewriter.eraseOp(op);
    return finish(rewriter, module, launch,
                  name + (sum->max ? "_row_max" : "_row_sum"));
  }

  /// The column sum `op` (marked fp8.column_lanes) as one kernel:
  /// ceil(columns / 8) CTAs of 256 threads, the 32 lanes of 8 columns each
  /// (emitColumnSum: the partial sums, the tree through shared memory, lane
  /// 0's init), its init's fill folded when foldInitFills took it. As for
  /// a row sum, the host has no lowering of the mark: a sum the kernel
  /// cannot take is an error. `why` is whyHost's verdict, `name` the
  /// kernel's base name.
  LogicalResult outlineColumnSum(IRRewriter &rewriter, ModuleOp module,
                                 linalg::GenericOp op, const std::string &why,
                                 std::string name) {
    auto fail = [&](const std::string &reason) {
      return op.emitOpError("fp8-outline-host-kernels: the column sum marked "
                            "fp8.column_lanes cannot run as a column kernel: ")
             << reason
             << " (fp8-split-reductions marks only the sums it can take; "
                "without the mark the sum is split into loops)";
    };
    // (whyHost: no kernel at all; the host has no lowering of the mark.)
    if (!why.empty())
      return fail(std::string(why));
    std::string notSum;
    FailureOr<RowSum> sum = matchColumnSum(op, notSum);
    if (failed(sum))
      return fail(notSum);
    if (sum->rows == 0) { // no column: no launch
      rewriter.eraseOp(op);
      return success();
    }
    int64_t ctas = (sum->rows + kColumnsPerCta - 1) / kColumnsPerCta;
    if (std::string big = whyGridTooLarge(saturatingMul(ctas, kColumnThreads),
                                          kColumnThreads);
        !big.empty())
      return fail(big);
    gpu::LaunchOp launch =
        launchAround(rewriter, op, ctas * kColumnThreads, kColumnThreads);
    emitColumnSum(rewriter, launch, op, *sum, foldedInits.lookup(op));
    rewriter.eraseOp(op);
    return finish(rewriter, module, launch, name + "_column_sum");
  }

  /// The ops of the fused groups, computed by their row sum's kernel.
  llvm::DenseSet<Operation *> fused;
  /// The fused row reductions whose init fill the kernel takes as a scalar
  /// (foldableInitFill): reduction -> the fill's value.
  llvm::DenseMap<Operation *, Value> foldedInits;
  /// Those fills, no launch of their own (erased after the kernels).
  SmallVector<linalg::FillOp> foldedFills;
  /// The allocations of the fused groups' dead outputs (findDeadOutputs),
  /// erased after the folded fills.
  SmallVector<Value> deadAllocations;

  /// Folds each fill of a row reduction's init into its kernel
  /// (foldableInitFill): the fill's launch goes, the kernel combines the
  /// scalar where it loaded the buffer's element, the same bits. A fill of
  /// a row kernel's init that cannot be folded keeps its launch and says
  /// why (initFillOfRowKernel).
  void foldInitFills(ArrayRef<Operation *> candidates) {
    for (Operation *op : candidates) {
      auto fill = dyn_cast<linalg::FillOp>(op);
      if (!fill)
        continue;
      std::string why;
      linalg::GenericOp reduction = foldableInitFill(fill, why);
      if (!reduction) {
        if (initFillOfRowKernel(fill))
          ::mlir::emitRemark(fill->getLoc())
              << "the init fill of a row kernel keeps a launch of its own "
                 "(fp8-outline-host-kernels): not folded into the kernel: "
              << why;
        continue;
      }
      foldedInits[reduction] = fill.getDpsInputOperand(0)->get();
      foldedFills.push_back(fill);
      fused.insert(fill);
    }
  }

  /// Whether a row reduction (marked fp8.reduction_lanes) after `fill` in
  /// its block writes a view of the buffer `fill` writes: the fill is then
  /// (part of) the row kernel's init.
  static bool initFillOfRowKernel(linalg::FillOp fill) {
    if (!fill.hasPureBufferSemantics())
      return false;
    Value root = fp8::getRootBuffer(fill.getDpsInitOperand(0)->get());
    for (Operation *op = fill->getNextNode(); op; op = op->getNextNode()) {
      auto reduction = dyn_cast<linalg::GenericOp>(op);
      if (reduction &&
          (reduction->hasAttr(fp8::kReductionLanesAttrName) ||
           reduction->hasAttr(fp8::kColumnLanesAttrName)) &&
          llvm::any_of(reduction.getDpsInits(), [&](Value init) {
            return fp8::getRootBuffer(init) == root;
          }))
        return true;
    }
    return false;
  }

  /// A gpu.launch of ceil(total / 256) blocks of min(total, 256) threads
  /// before `op`, with `op` moved into it.
  gpu::LaunchOp launchAround(IRRewriter &rewriter, Operation *op, int64_t total,
                             int64_t threads = kThreads) {
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    threads = std::min(total, threads);
    Value one = cst(1);
    // One op per statement, in the order the nested form was built.
    Value blockSize = cst(threads);
    Value gridSize = cst((total + threads - 1) / threads);
    auto launch = gpu::LaunchOp::create(rewriter, loc, gridSize, one, one,
                                        blockSize, one, one);
    Block &body = launch.getBody().front();
    rewriter.setInsertionPointToEnd(&body);
    auto term = gpu::TerminatorOp::create(rewriter, loc);
    rewriter.moveOpBefore(op, term);
    return launch;
  }

  /// `op` (inside `launch`) as loops, its outer parallel loop linearized
  /// over the launch's `total` threads (linearize).
  LogicalResult lowerOverThreads(IRRewriter &rewriter, gpu::LaunchOp launch,
                                 linalg::LinalgOp op, int64_t total,
                                 Value id = {}) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::LinalgLoops> loops =
        linalg::linalgOpToParallelLoops(rewriter, op);
    if (failed(loops))
      return op.emitOpError("fp8-outline-host-kernels: cannot lower the op "
                            "to loops"),
             failure();
    rewriter.eraseOp(op);
    if (!loops->empty())
      if (auto par = dyn_cast<scf::ParallelOp>(loops->front()))
        linearize(rewriter, launch, par, total, id);
    return success();
  }

  /// The gpu.launch `launch` as a gpu.func of the kernel module named
  /// after `name` and its gpu.launch_func.
  LogicalResult finish(IRRewriter &rewriter, ModuleOp module,
                       gpu::LaunchOp launch, std::string name) {
    Location loc = launch.getLoc();
    // Constants into the kernel; the buffers and other scalars become its
    // parameters.
    // So do the constant globals' memref.get_global (and views of them):
    // the kernel reads the kernel module's copy of the global.
    auto sink = [&] {
      return sinkOperationsIntoLaunchOp(launch, [](Operation *o) {
        if (o->hasTrait<OpTrait::ConstantLike>())
          return true;
        if (o->getNumResults() == 1 &&
            isa<memref::GetGlobalOp, ViewLikeOpInterface>(o))
          return bool(constantGlobal(fp8::getRootBuffer(o->getResult(0))));
        return false;
      });
    };
    if (failed(sink()))
      return launch.emitOpError("fp8-outline-host-kernels: cannot sink "
                                "constants into the kernel"),
             failure();
    // The sunk views of constant globals fold into their loads (the kernel
    // lowering has no memref.subview); the folding hoists the constants
    // out of the launch: sunk again.
    bool sunkViews =
        launch.getBody()
            .walk([](ViewLikeOpInterface) { return WalkResult::interrupt(); })
            .wasInterrupted();
    if (sunkViews) {
      RewritePatternSet patterns(&getContext());
      memref::populateFoldMemRefAliasOpPatterns(patterns);
      if (failed(applyPatternsGreedily(launch, std::move(patterns))) ||
          failed(sink()))
        return launch.emitOpError("fp8-outline-host-kernels: cannot fold "
                                  "the views of constant globals"),
               failure();
    }
    for (char &c : name)
      if (!llvm::isAlnum(c))
        c = '_';
    SmallVector<Value> operands;
    gpu::GPUFuncOp kernel = outlineKernelFunc(launch, name, operands);
    // The host's loop nest drops the loads whose values the body does not
    // use (an output only written): so does the kernel, whose loads tell
    // the residency what it reads.
    SmallVector<Operation *> ops;
    kernel.walk([&](Operation *o) { ops.push_back(o); });
    for (Operation *o : llvm::reverse(ops))
      if (o != kernel && isOpTriviallyDead(o))
        o->erase();
    SmallVector<gpu::GPUFuncOp, 1> &sameHash =
        kernelsByHash[kernelHash(kernel)];
    if (gpu::GPUFuncOp same = equivalentKernel(kernel, sameHash)) {
      kernel.erase();
      kernel = same;
    } else {
      kernelModule(module).insert(kernel);
      sameHash.push_back(kernel);
      if (failed(copyConstantGlobals(module, kernel)))
        return failure();
    }
    rewriter.setInsertionPoint(launch);
    gpu::LaunchFuncOp::create(
        rewriter, loc, kernel, launch.getGridSizeOperandValues(),
        launch.getBlockSizeOperandValues(), Value(), operands);
    rewriter.eraseOp(launch);
    return success();
  }

  /// The constant globals `kernel` reads (sunk into it by finish) as
  /// copies in the kernel module: one per global, shared by its kernels.
  LogicalResult copyConstantGlobals(ModuleOp module, gpu::GPUFuncOp kernel) {
    SymbolTable &table = kernelModule(module);
    WalkResult r = kernel.walk([&](memref::GetGlobalOp get) {
      auto global = module.lookupSymbol<memref::GlobalOp>(get.getNameAttr());
      if (!global || !global.getConstant() || !global.getInitialValue()) {
        get.emitOpError("fp8-outline-host-kernels: a kernel reads a global "
                        "that is not a constant with an initializer");
        return WalkResult::interrupt();
      }
      auto it = copies.find(global);
      if (it == copies.end()) {
        auto copy = cast<memref::GlobalOp>(global->clone());
        copy.setPrivate();
        table.insert(copy, table.getOp()->getRegion(0).front().begin());
        it = copies.try_emplace(global, copy.getSymName().str()).first;
      }
      get.setNameAttr(FlatSymbolRefAttr::get(get.getContext(), it->second));
      return WalkResult::advance();
    });
    return failure(r.wasInterrupted());
  }
  /// The kernel module's copy (its name) of each host constant global.
  llvm::DenseMap<Operation *, std::string> copies;

  /// The thread's index in the launch's 1-D grid.
  static Value threadId(IRRewriter &rewriter, gpu::LaunchOp launch) {
    Location loc = launch.getLoc();
    return arith::AddIOp::create(rewriter, loc,
                                 arith::MulIOp::create(rewriter, loc,
                                                       launch.getBlockIds().x,
                                                       launch.getBlockSize().x),
                                 launch.getThreadIds().x);
  }

  /// The scf.parallel `par` (zero lower bounds, unit steps) over the grid:
  /// thread i < total computes the iteration of linear index i (i = `id`
  /// when given, else the thread's index in the grid).
  void linearize(IRRewriter &rewriter, gpu::LaunchOp launch,
                 scf::ParallelOp par, int64_t total, Value id = {}) {
    Location loc = par.getLoc();
    rewriter.setInsertionPoint(par);
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    if (!id)
      id = threadId(rewriter, launch);
    Value inRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, id, cst(total));
    auto ifOp = scf::IfOp::create(rewriter, loc, inRange);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
    // Row-major: the last parallel iterator varies fastest (coalesced
    // accesses of the usual row-major outputs).
    SmallVector<Value> ivs(par.getNumLoops());
    Value rest = id;
    for (int64_t d = par.getNumLoops() - 1; d >= 0; --d) {
      std::optional<int64_t> ub = getConstantIntValue(par.getUpperBound()[d]);
      Value ext = cst(*ub);
      ivs[d] = d == 0 ? rest : arith::RemUIOp::create(rewriter, loc, rest, ext);
      if (d > 0)
        rest = arith::DivUIOp::create(rewriter, loc, rest, ext);
    }
    Block *parBody = par.getBody();
    rewriter.eraseOp(parBody->getTerminator());
    rewriter.inlineBlockBefore(parBody, ifOp.thenBlock()->getTerminator(), ivs);
    rewriter.eraseOp(par);
  }

  /// `op` stays a host loop nest, with a remark saying why; under
  /// require-kernels (a caller passing device buffers, which a host loop
  /// would read as host memory) an error instead, and the pass fails once
  /// every op is reported.
  void keepOnHost(Operation *op, StringRef why) {
    if (!requireKernels) {
      ::mlir::emitRemark(op->getLoc())
          << "runs on the host (fp8-outline-host-kernels): " << why;
      return;
    }
    op->emitOpError() << "cannot run on the host (fp8-outline-host-kernels, "
                         "require-kernels: the caller runs nothing but "
                         "kernels): "
                      << why;
    refusedHostOps = true;
  }
  /// An op was refused by keepOnHost.
  bool refusedHostOps = false;

  /// Under require-kernels: every op the outlining left in a host function
  /// that touches a buffer's elements (not only linalg ops: a
  /// memref.store, a vector transfer, a call to an external function) is
  /// an error too; it would dereference a device pointer on the host.
  void refuseHostElementAccess(ModuleOp module) {
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp, gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (!op->getParentOfType<func::FuncOp>())
        return WalkResult::advance();
      std::string what = hostElementAccess(op);
      if (!what.empty())
        keepOnHost(op, what);
      return WalkResult::advance();
    });
  }
};

} // namespace
