//===- LowerToNVVM.cpp - fp8-lower-to-nvvm --------------------------------===//
#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "GemmKernel.h"
#include "KernelSpecs.h"
#include "QuantizeKernel.h"
#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace fp8 {
#define GEN_PASS_DEF_FP8LOWERTONVVMPASS
#include "fp8/Conversion/Passes.h.inc"
} // namespace fp8
} // namespace mlir

using namespace mlir;
using namespace mlir::fp8;

namespace {

constexpr StringLiteral kSmemSymbol = "fp8_dynamic_smem";
constexpr StringLiteral kAmaxSymbol = "fp8_quantize_amax";
constexpr StringLiteral kColAmaxSymbol = "fp8_quantize_col_amax";

/// The kernel uses wgmma and setmaxnreg, which exist only on the
/// architecture-specific sm_90a target, and needs PTX ISA >= 8.0 for them
/// (PTX ISA "Target ISA notes" of wgmma.mma_async).
LogicalResult checkTargetOptions(Location loc, StringRef pass, StringRef chip,
                                 StringRef features) {
  if (chip != "sm_90a")
    return emitError(loc) << pass << ": option chip='" << chip
                          << "' is not supported: expected sm_90a (the kernel "
                             "uses wgmma and setmaxnreg, which need the "
                             "architecture-specific 'a' target of Hopper)";
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  bool havePtx = false;
  for (StringRef f : parts) {
    StringRef t = f.trim();
    unsigned version = 0;
    if (!t.consume_front("+ptx") || t.getAsInteger(10, version))
      return emitError(loc)
             << pass << ": option features='" << features << "': cannot parse '"
             << f.trim()
             << "' (expected a comma-separated list of +ptxNN, e.g. +ptx80)";
    if (version < 80)
      return emitError(loc)
             << pass << ": option features='" << features << "': PTX ISA "
             << version / 10 << "." << version % 10
             << " is too old (expected +ptx80 or newer: wgmma needs PTX 8.0)";
    havePtx = true;
  }
  if (!havePtx)
    return emitError(loc) << pass
                          << ": option features is empty (expected "
                             "+ptxNN with NN >= 80, e.g. +ptx80)";
  return success();
}

struct FP8LowerToNVVMPass
    : public fp8::impl::FP8LowerToNVVMPassBase<FP8LowerToNVVMPass> {
  using Base::Base;

  // Options are checked up front, also for modules without a scaled_matmul,
  // so a typo in chip/features never goes unnoticed.
  LogicalResult initialize(MLIRContext *ctx) override {
    Location loc = UnknownLoc::get(ctx);
    if (failed(checkTargetOptions(loc, "fp8-lower-to-nvvm", chip, features)))
      return failure();
    // The values each option can take on its own; the combination (shared
    // memory, registers) is checked per kernel, where the shape is known.
    auto bad = [&](StringRef name, int64_t value) {
      return emitError(loc) << "fp8-lower-to-nvvm: option " << name << "="
                            << value << " is invalid: expected ";
    };
    if (blockM != 0 && !llvm::is_contained({64, 128, 192, 256}, blockM))
      return bad("block-m", blockM)
             << "0 (the shape's default) or 64, 128, 192, 256 (64 rows per "
                "consumer warpgroup, wgmma m64)";
    if (blockN != 0 && (blockN < 16 || blockN > 256 || blockN % 8 != 0))
      return bad("block-n", blockN)
             << "0 (128) or a multiple of 8 in 16..256 (wgmma .m64nNk32 "
                "with e4m3/e5m2 operands)";
    if (stages < 0 || stages > 64)
      return bad("stages", stages)
             << "0 (as many as fit) or 1..64 (the mbarrier area)";
    if (consumers < 0 || consumers > 4)
      return bad("consumers", consumers)
             << "0 (block-m / 64) or 1..4 consumer warpgroups";
    if (blockM != 0 && consumers != 0 && consumers % (blockM / 64) != 0)
      return emitError(loc)
             << "fp8-lower-to-nvvm: options block-m="
             << static_cast<int64_t>(blockM)
             << " and consumers=" << static_cast<int64_t>(consumers)
             << " disagree: each consumer warpgroup computes 64 rows "
                "(consumers = block-m / 64 times the column splits)";
    overrides.blockM = blockM;
    overrides.blockN = blockN;
    overrides.stages = stages;
    if (groupM < 0 || groupM > 4096)
      return bad("group-m", groupM)
             << "0 (the cost model's choice under config=auto, else 1) or "
                "1..4096 rows of tiles per group (1: row-major)";
    overrides.consumers = consumers;
    overrides.groupM = groupM;
    if (cluster < 0 || cluster > 2)
      return bad("cluster", cluster)
             << "0 (no clusters: the cost model does not choose them), 1 or "
                "2 CTAs per cluster sharing the B tile by TMA multicast";
    overrides.cluster = cluster;
    overrides.quantizeEpilogue = quantizeEpilogue;
    StringRef schedule = promotionSchedule;
    overrides.overlap = GemmKernelOverrides::kOverlapUnset;
    if (schedule == "lockstep")
      overrides.overlap = 0;
    else if (schedule == "overlap4")
      overrides.overlap = 4;
    else if (schedule == "overlap8")
      overrides.overlap = 8;
    else if (schedule != "auto")
      return emitError(loc)
             << "fp8-lower-to-nvvm: option promotion-schedule='" << schedule
             << "' is invalid (expected auto, lockstep, "
                "overlap4 or overlap8)";
    using SwapAB = GemmKernelOverrides::SwapAB;
    StringRef swap = swapAB;
    if (swap == "auto")
      overrides.swapAB = SwapAB::model;
    else if (swap == "always")
      overrides.swapAB = SwapAB::always;
    else if (swap == "never")
      overrides.swapAB = SwapAB::never;
    else
      return emitError(loc) << "fp8-lower-to-nvvm: option swap-ab='" << swap
                            << "' is invalid (expected auto, always or never)";
    // The swapped kernel's B is the activation, which no cluster shares
    // (#fp8.gemm_kernel's verifier): a cluster would be dropped silently.
    if (cluster > 1 && overrides.swapAB == SwapAB::always)
      return emitError(loc)
             << "fp8-lower-to-nvvm: options cluster="
             << static_cast<int64_t>(cluster)
             << " and swap-ab=always contradict: a swap-AB kernel has no "
                "cluster (the CTAs of a cluster share the B tile, and the "
                "swapped kernel's B is the activation); give cluster=0 or 1 "
                "with swap-ab=always, or swap-ab=auto or never with cluster="
             << static_cast<int64_t>(cluster);
    return parseKernelConfigOptions(loc, "fp8-lower-to-nvvm", config, device,
                                    modelChip, autoConfig);
  }

  GemmKernelOverrides overrides;
  const ChipSpec *modelChip = nullptr;

  /// `op` names its kernel `name` in the kernel module: fp8-launch-kernels
  /// follows the reference (it never searches by name).
  static void setKernelRef(Operation *op, StringRef name) {
    MLIRContext *ctx = op->getContext();
    op->setAttr(FP8Dialect::kKernelRefAttrName,
                SymbolRefAttr::get(StringAttr::get(ctx, kKernelModuleName),
                                   {FlatSymbolRefAttr::get(ctx, name)}));
  }
  bool autoConfig = true;

  /// The quantize ops a GEMM kernel's quantize epilogue computes get no
  /// kernel of their own; a remark names the fusion.
  static void dropEpilogueQuantizes(ArrayRef<Operation *> gemms,
                                    ArrayRef<GemmKernelSpec> specs,
                                    SmallVectorImpl<Operation *> &quantizeOps,
                                    SmallVectorImpl<QuantizeKernelSpec> &qs) {
    llvm::SmallPtrSet<Operation *, 8> fused;
    for (auto [op, spec] : llvm::zip_equal(gemms, specs)) {
      if (!spec.config.quantizeEpilogue)
        continue;
      QuantizeOp q = getEpilogueQuantize(cast<ScaledMatmulOp>(op));
      fused.insert(q);
      emitRemark(op->getLoc(), "fp8-lower-to-nvvm: the GEMM kernel's "
                               "epilogue computes the fp8.quantize of its "
                               "result (1x128 tiles): one launch, no result "
                               "in global memory");
    }
    for (size_t i = quantizeOps.size(); i-- > 0;)
      if (fused.contains(quantizeOps[i])) {
        quantizeOps.erase(quantizeOps.begin() + i);
        qs.erase(qs.begin() + i);
      }
  }

  /// Whether no kernel computes the GEMM `op` (an empty problem, or a form
  /// no kernel implements); if so, reports why as `report` says.
  static bool reportNoGemmKernel(Operation *op, NoKernelReport report) {
    const bool error = report == NoKernelReport::error;
    std::string empty = getEmptyProblemReason(op);
    if (!empty.empty()) {
      emitNoKernel(op->getLoc(), report)
          << "fp8-lower-to-nvvm: no kernel (" << empty << "); "
          << (error ? "the op would stay on the host, which require-kernels "
                      "forbids"
                    : "the op stays on the host, which launches nothing for "
                      "it");
      return true;
    }
    // A form no kernel implements (another preset's blocks or scale type, a
    // promotion interval other than 128, a dynamic N or K): the host
    // lowering, the CPU reference, computes it. Decided for every op before
    // anything is lowered, so the rest of the graph still gets its kernels.
    std::string noKernel = explainNoGemmKernel(op);
    if (noKernel.empty())
      return false;
    emitNoKernel(op->getLoc(), report)
        << "fp8-lower-to-nvvm: no GPU GEMM kernel for '" << op->getName()
        << "' (" << noKernel << "); "
        << (error ? "the op would stay on the host, which require-kernels "
                    "forbids"
                  : "the op stays on the host, whose lowering computes it");
    return true;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    SmallVector<QuantizeKernelSpec> quantizeSpecs;
    SmallVector<Operation *> quantizeOps;
    // An op no kernel implements stays on the host with a remark, or is an
    // error under require-kernels (a caller that runs only kernels, e.g.
    // the Python gpu-emulator backend); every such op is reported.
    const NoKernelReport report =
        requireKernels ? NoKernelReport::error : NoKernelReport::remark;
    bool keptOnHost = false;
    module.walk([&](Operation *op) {
      if (isa<ScaledMatmulOp, GroupedScaledMatmulOp>(op)) {
        if (reportNoGemmKernel(op, report))
          keptOnHost = true;
        else
          ops.push_back(op);
      } else if (auto q = dyn_cast<QuantizeOp>(op)) {
        if (std::optional<QuantizeKernelSpec> spec =
                getQuantizeSpec(q, report)) {
          quantizeSpecs.push_back(*spec);
          quantizeOps.push_back(op);
        } else {
          keptOnHost = true;
        }
      } else if (auto rq = dyn_cast<RequantizeOp>(op)) {
        // The Wgrad operands of a training graph (docs/training.md): the
        // transpose-requantize kernel, a variant of the quantize kernel.
        if (std::optional<QuantizeKernelSpec> spec =
                getRequantizeSpec(rq, report)) {
          quantizeSpecs.push_back(*spec);
          quantizeOps.push_back(op);
        } else {
          keptOnHost = true;
        }
      }
    });
    if (keptOnHost && requireKernels)
      return signalPassFailure();
    if (ops.empty() && quantizeSpecs.empty())
      return;

    SmallVector<GemmKernelSpec> specs;
    for (Operation *op : ops) {
      const ChipSpec *model = autoConfig ? modelChip : nullptr;
      FailureOr<GemmKernelSpec> spec =
          isa<ScaledMatmulOp>(op)
              ? getGemmKernelSpec(cast<ScaledMatmulOp>(op), overrides, model)
              : getGroupedGemmKernelSpec(cast<GroupedScaledMatmulOp>(op),
                                         overrides, model);
      if (failed(spec))
        return signalPassFailure();
      specs.push_back(*spec);
    }
    dropEpilogueQuantizes(ops, specs, quantizeOps, quantizeSpecs);

    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    Location loc = module.getLoc();
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName);
    if (!gpuModule) {
      auto target = NVVM::NVVMTargetAttr::get(
          &getContext(), /*optLevel=*/3, "nvptx64-nvidia-cuda", chip, features);
      gpuModule = gpu::GPUModuleOp::create(b, loc, kKernelModuleName,
                                           b.getArrayAttr({target}));
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      b.getUnitAttr());
    }
    b.setInsertionPointToStart(gpuModule.getBody());
    if (!gpuModule.lookupSymbol(kSmemSymbol)) {
      // Dynamic shared memory: an external zero-sized array in addrspace 3,
      // 1024-byte aligned for the 128B-swizzle atoms of TMA and wgmma.
      auto arrTy = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
      LLVM::GlobalOp::create(b, loc, arrTy, /*isConstant=*/false,
                             LLVM::Linkage::External, kSmemSymbol, Attribute(),
                             /*alignment=*/1024, /*addrSpace=*/3);
    }
    // Each kernel carries its decision (fp8.kernel), by which it is known:
    // ops with equal decisions share one kernel. Its symbol, derived from
    // the decision for humans, is what the op names it by (fp8.kernel_ref).
    for (auto [op, spec] : llvm::zip_equal(ops, specs)) {
      b.setInsertionPoint(gpuModule.getBody()->getTerminator());
      StringAttr name = getOrInsertKernel(
          gpuModule, getGemmKernelAttr(&getContext(), spec),
          getKernelModelAttr(&getContext(), spec, *modelChip),
          [&](StringRef symbol) -> Operation * {
            return buildGemmKernel(b, loc, spec, symbol, kSmemSymbol);
          });
      setKernelRef(op, name);
    }
    if (!quantizeSpecs.empty() && !gpuModule.lookupSymbol(kAmaxSymbol)) {
      b.setInsertionPointToStart(gpuModule.getBody());
      // The per-warp amax of a 128x128 block (8 warps), reduced by all.
      LLVM::GlobalOp::create(b, loc,
                             LLVM::LLVMArrayType::get(b.getF32Type(), 8),
                             /*isConstant=*/false, LLVM::Linkage::Internal,
                             kAmaxSymbol, Attribute(), /*alignment=*/16,
                             /*addrSpace=*/3);
    }
    if (llvm::any_of(
            quantizeSpecs,
            [](const QuantizeKernelSpec &s) { return s.config.perColumn(); }) &&
        !gpuModule.lookupSymbol(kColAmaxSymbol)) {
      b.setInsertionPointToStart(gpuModule.getBody());
      // Column blocks [128, 1]: each warp's amax of the region's 128
      // columns (8 x 128), reduced by all.
      LLVM::GlobalOp::create(
          b, loc,
          LLVM::LLVMArrayType::get(b.getF32Type(),
                                   QuantizeKernelConfig::kWarps *
                                       QuantizeKernelConfig::kBlockCols),
          /*isConstant=*/false, LLVM::Linkage::Internal, kColAmaxSymbol,
          Attribute(), /*alignment=*/16, /*addrSpace=*/3);
    }
    for (auto [op, spec] : llvm::zip_equal(quantizeOps, quantizeSpecs)) {
      b.setInsertionPoint(gpuModule.getBody()->getTerminator());
      StringAttr name = getOrInsertKernel(
          gpuModule, getQuantizeKernelAttr(&getContext(), spec),
          /*model=*/Attribute(), [&](StringRef symbol) -> Operation * {
            return buildQuantizeKernel(b, loc, spec, symbol, kAmaxSymbol,
                                       kColAmaxSymbol);
          });
      setKernelRef(op, name);
    }
  }
};

} // namespace
