//===- LaunchKernels.cpp - fp8-launch-kernels -----------------------------===//
//
// The host half of the GPU lowering: every fp8.scaled_matmul / fp8.quantize
// that fp8-lower-to-nvvm gave a kernel becomes a call of a launcher function
// that moves the operands to the device, builds the TMA descriptors on the
// host, launches the kernel with the grid of its configuration and copies
// the result back. Launchers use upstream ops only (gpu.alloc/memcpy/
// launch_func, nvgpu.tma.create.descriptor), so gpu-to-llvm and
// convert-nvgpu-to-nvvm lower them to the upstream `mgpu*` runtime ABI.
//
// At the call site the tensors are handed over with bufferization.to_buffer
// (read-only) and the result comes back through bufferization.to_tensor of
// a fresh memref.alloc, so one-shot bufferization of the host program needs
// nothing special.
//
//===----------------------------------------------------------------------===//
#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "KernelSpecs.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Target/Hopper/KernelNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <cstdio>

namespace mlir {
namespace fp8 {
#define GEN_PASS_DEF_FP8LAUNCHKERNELSPASS
#include "fp8/Conversion/Passes.h.inc"
} // namespace fp8
} // namespace mlir

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// Index arithmetic and device-buffer helpers for a launcher body.
struct HostBuilder {
  ImplicitLocOpBuilder &b;
  Type token;
  SmallVector<Value> deviceBuffers; // raw i8 allocations, freed at the end
  Value chain;                      // the last async token (one stream)

  explicit HostBuilder(ImplicitLocOpBuilder &b)
      : b(b), token(gpu::AsyncTokenType::get(b.getContext())) {}

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value ceilDiv(Value x, int64_t d) {
    return arith::CeilDivUIOp::create(b, x, idx(d));
  }
  Value i32(Value x) {
    return arith::IndexCastOp::create(b, b.getI32Type(), x);
  }

  /// A device allocation of `bytes` bytes, viewed as `type` (whose dynamic
  /// sizes are `sizes`): the raw i8 buffer and the typed view.
  std::pair<Value, Value> alloc(Value bytes, MemRefType type,
                                ValueRange sizes) {
    auto rawTy = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
    auto op = gpu::AllocOp::create(b, rawTy, token, ValueRange{chain},
                                   ValueRange{bytes}, ValueRange{},
                                   /*hostShared=*/false);
    chain = op.getAsyncToken();
    deviceBuffers.push_back(op.getMemref());
    return {op.getMemref(), view(op.getMemref(), type, sizes)};
  }
  Value view(Value raw, MemRefType type, ValueRange sizes) {
    return memref::ViewOp::create(b, type, raw, idx(0), sizes);
  }
  void copy(Value dst, Value src) {
    chain = gpu::MemcpyOp::create(b, token, ValueRange{chain}, dst, src)
                .getAsyncToken();
  }
  /// The host buffer `host` copied to a fresh device buffer.
  std::pair<Value, Value> upload(Value host, Value bytes, ValueRange sizes) {
    auto [raw, dev] = alloc(bytes, cast<MemRefType>(host.getType()), sizes);
    copy(dev, host);
    return {raw, dev};
  }
  /// A 2-D TMA descriptor over the device buffer `raw` viewed as [outer,
  /// inner] elements of `elem` (sizes: the dynamic ones), box [boxOuter,
  /// boxInner], zero fill out of bounds (the kernel's M/N/K tails).
  Value tensorMap(Value raw, ArrayRef<int64_t> shape, ValueRange sizes,
                  Type elem, int64_t boxOuter, int64_t boxInner,
                  nvgpu::TensorMapSwizzleKind swizzle) {
    Value typed = view(raw, MemRefType::get(shape, elem), sizes);
    Value unranked = memref::CastOp::create(
        b, UnrankedMemRefType::get(elem, Attribute()), typed);
    auto boxTy = MemRefType::get({boxOuter, boxInner}, elem, AffineMap(),
                                 /*memorySpace=*/3);
    auto descTy = nvgpu::TensorMapDescriptorType::get(
        b.getContext(), boxTy, swizzle,
        nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
    Value desc = nvgpu::TmaCreateDescriptorOp::create(
        b, descTy, unranked, ValueRange{idx(boxOuter), idx(boxInner)});
    // The kernel takes the map as a generic pointer (its ABI); gpu-to-llvm
    // cannot convert the nvgpu type of a launch operand, so the launch gets
    // the pointer the descriptor lowers to (mgpuTensorMapEncodeTiledMemref's
    // result; the casts fold in reconcile-unrealized-casts).
    return UnrealizedConversionCastOp::create(
               b, LLVM::LLVMPointerType::get(b.getContext()), desc)
        .getResult(0);
  }
  void launch(StringRef kernel, Value grid, int64_t threads, int64_t smem,
              ValueRange args) {
    auto sym =
        SymbolRefAttr::get(b.getStringAttr(kKernelModuleName),
                           {FlatSymbolRefAttr::get(b.getContext(), kernel)});
    Value one = idx(1);
    chain = gpu::LaunchFuncOp::create(
                b, sym, gpu::KernelDim3{grid, one, one},
                gpu::KernelDim3{idx(threads), one, one},
                arith::ConstantIntOp::create(b, b.getI32Type(), smem), args,
                token, ValueRange{chain})
                .getAsyncToken();
  }
  /// Frees every device buffer and waits for the stream: the launcher
  /// returns with the results on the host.
  void finish() {
    for (Value raw : deviceBuffers)
      chain = gpu::DeallocOp::create(b, token, ValueRange{chain}, raw)
                  .getAsyncToken();
    gpu::WaitOp::create(b, Type(), ValueRange{chain});
  }
};

Value bytesOf(HostBuilder &h, Value elements, Type elem) {
  return h.mul(elements, h.idx(elem.getIntOrFloatBitWidth() / 8));
}

/// Dynamic sizes of a shaped value (memref or tensor) as index values.
SmallVector<Value> dynamicSizes(ImplicitLocOpBuilder &b, Value v) {
  SmallVector<Value> sizes;
  auto ty = cast<ShapedType>(v.getType());
  for (int64_t d = 0; d < ty.getRank(); ++d)
    if (ty.isDynamicDim(d)) {
      if (isa<MemRefType>(ty))
        sizes.push_back(memref::DimOp::create(b, v, d));
      else
        sizes.push_back(tensor::DimOp::create(b, v, d));
    }
  return sizes;
}

Value numElements(HostBuilder &h, Value v) {
  auto ty = cast<ShapedType>(v.getType());
  Value n = h.idx(1);
  for (int64_t d = 0; d < ty.getRank(); ++d)
    n = h.mul(n, ty.isDynamicDim(d) ? Value(memref::DimOp::create(h.b, v, d))
                                    : h.idx(ty.getDimSize(d)));
  return n;
}

MemRefType memrefOf(Type tensorType) {
  auto t = cast<RankedTensorType>(tensorType);
  return MemRefType::get(t.getShape(), t.getElementType());
}

constexpr StringLiteral kLauncherPrefix = "fp8_launch_";

/// The declaration `func.func private @fp8_launch_<kernel>(args...)` at the
/// end of `module` (once per kernel); its body comes from defineLauncher.
/// A GEMM launcher carries its kernel's `fp8.kernel_config` (`config`), so
/// the body can be defined after the gpu.module became a binary.
func::FuncOp getOrDeclareLauncher(ModuleOp module, StringRef kernel,
                                  TypeRange args,
                                  DictionaryAttr config = nullptr) {
  std::string name = (kLauncherPrefix + kernel).str();
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder ob(module.getBodyRegion());
  ob.setInsertionPointToEnd(module.getBody());
  auto fn = func::FuncOp::create(ob, module.getLoc(), name,
                                 ob.getFunctionType(args, {}));
  fn.setPrivate();
  if (config)
    fn->setAttr(FP8Dialect::kKernelConfigAttrName, config);
  return fn;
}

/// The GEMM launcher: (a codes [M, Kp], b codes [N, Kp], A scales
/// transposed and padded [KB, roundUp(M, 4)], B scales [ceil(N/128), KB],
/// d [M, N][, c [M, N]]), all host memrefs; Kp = K rounded up to a multiple
/// of 16, the codes' rows padded with zero codes (TMA global strides are
/// multiples of 16 bytes); the kernel ABI of GemmKernelConfig.h.
void buildGemmLauncherBody(ImplicitLocOpBuilder &b, ValueRange args,
                           const GemmKernelConfig &c, StringRef kernel,
                           int64_t smCount) {
  HostBuilder h(b);
  Value a = args[0], bw = args[1], saT = args[2], sb = args[3], d = args[4];
  Value acc = args.size() > 5 ? args[5] : Value();
  Value m = memref::DimOp::create(b, a, 0);
  h.chain = gpu::WaitOp::create(b, h.token, ValueRange{}).getAsyncToken();
  auto u8 = IntegerType::get(b.getContext(), 8, IntegerType::Unsigned);
  // The codes and A scales are read by TMA (through descriptors of the raw
  // buffers), the B scales and D by plain loads and stores.
  Value aRaw = h.upload(a, numElements(h, a), dynamicSizes(b, a)).first;
  Value bRaw = h.upload(bw, numElements(h, bw), ValueRange{}).first;
  Value saRaw = h.upload(saT, bytesOf(h, numElements(h, saT), b.getF32Type()),
                         dynamicSizes(b, saT))
                    .first;
  Value sbDev =
      h.upload(sb, bytesOf(h, numElements(h, sb), b.getF32Type()), ValueRange{})
          .second;
  auto dTy = cast<MemRefType>(d.getType());
  Value dDev = h.alloc(bytesOf(h, numElements(h, d), dTy.getElementType()), dTy,
                       dynamicSizes(b, d))
                   .second;
  Value accDev;
  if (acc) {
    auto accTy = cast<MemRefType>(acc.getType());
    accDev =
        h.upload(acc, bytesOf(h, numElements(h, acc), accTy.getElementType()),
                 dynamicSizes(b, acc))
            .second;
  }
  // TMA descriptors (the kernel ABI, GemmKernelConfig.h) over the device
  // buffers: codes as u8 with 128-byte swizzle and a 128-byte inner box;
  // the A scales f32, unswizzled. Boxes in memref order (outer first).
  auto aTy = cast<MemRefType>(a.getType()),
       bTy = cast<MemRefType>(bw.getType());
  auto saTy = cast<MemRefType>(saT.getType());
  Value tmA =
      h.tensorMap(aRaw, aTy.getShape(), dynamicSizes(b, a), u8, c.blockM,
                  c.blockK, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B);
  Value tmB = h.tensorMap(bRaw, bTy.getShape(), ValueRange{}, u8, c.blockN,
                          c.blockK, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B);
  Value tmSA =
      h.tensorMap(saRaw, saTy.getShape(), dynamicSizes(b, saT), b.getF32Type(),
                  1, c.blockM, nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE);
  // Persistent grid: min(tiles, SMs), tiles from the run-time M.
  Value tiles = h.mul(h.ceilDiv(m, c.blockM), h.idx(c.nTiles()));
  Value grid = arith::MinUIOp::create(b, tiles, h.idx(smCount));
  SmallVector<Value> kernelArgs{tmA, tmB, tmSA, sbDev, dDev, h.i32(m)};
  if (accDev)
    kernelArgs.push_back(accDev);
  h.launch(kernel, grid, c.threads(), c.sharedMemoryBytes(), kernelArgs);
  h.copy(d, dDev);
  h.finish();
}

/// The quantize launcher: (x [rows, cols], q [rows, cols], scales), the
/// kernel ABI of QuantizeKernelConfig.h.
void buildQuantizeLauncherBody(ImplicitLocOpBuilder &b, ValueRange args,
                               const QuantizeKernelConfig &c,
                               StringRef kernel) {
  HostBuilder h(b);
  Value x = args[0], q = args[1], s = args[2];
  Value rows = memref::DimOp::create(b, x, 0);
  h.chain = gpu::WaitOp::create(b, h.token, ValueRange{}).getAsyncToken();
  auto xTy = cast<MemRefType>(x.getType());
  Value xDev = h.upload(x, bytesOf(h, numElements(h, x), xTy.getElementType()),
                        dynamicSizes(b, x))
                   .second;
  Value qDev = h.alloc(numElements(h, q), cast<MemRefType>(q.getType()),
                       dynamicSizes(b, q))
                   .second;
  Value sDev = h.alloc(bytesOf(h, numElements(h, s), b.getF32Type()),
                       cast<MemRefType>(s.getType()), dynamicSizes(b, s))
                   .second;
  // Grid: the kernel's blocks over the run-time rows (QuantizeKernelConfig).
  Value rowBlocks = h.ceilDiv(rows, c.blockRows);
  Value blocks = h.mul(rowBlocks, h.idx(c.colBlocks()));
  Value grid = h.ceilDiv(blocks, c.blocksPerCta());
  h.launch(kernel, grid, QuantizeKernelConfig::kThreads, 0,
           ValueRange{xDev, qDev, sDev, h.i32(rows)});
  h.copy(q, qDev);
  h.copy(s, sDev);
  h.finish();
}

/// Gives the declaration `fn` of a launcher its body. Everything it needs
/// follows from the declaration: a GEMM kernel's configuration from the
/// `fp8.kernel_config` copied from the kernel, its K and the quantize block
/// rows from the kernel name (KernelNames.h), the shapes from the argument
/// types; so the bodies can be added after the host program was bufferized
/// and its buffers deallocated (the ownership-based deallocation rejects
/// the gpu ops) and the kernels compiled.
LogicalResult defineLauncher(func::FuncOp fn, int64_t smCount) {
  StringRef kernel = fn.getName().drop_front(kLauncherPrefix.size());
  SmallVector<int64_t> shape0 =
      llvm::to_vector(cast<MemRefType>(fn.getArgumentTypes()[0]).getShape());
  Block *entry = fn.addEntryBlock();
  ImplicitLocOpBuilder b(fn.getLoc(), fn.getContext());
  b.setInsertionPointToStart(entry);
  ValueRange args = entry->getArguments();
  if (kernel.starts_with("fp8_scaled_matmul_")) {
    auto bTy = cast<MemRefType>(fn.getArgumentTypes()[1]);
    int64_t m = ShapedType::isDynamic(shape0[0]) ? GemmKernelConfig::kDynamicM
                                                 : shape0[0];
    // The kernel's K from its name: the codes' rows may be padded past it.
    long long n = 0, kDim = 0;
    size_t x = kernel.find('x');
    if (x == StringRef::npos ||
        std::sscanf(kernel.data() + x, "x%lldx%lld", &n, &kDim) != 2)
      return fn.emitOpError("fp8-launch-kernels: cannot read N and K from "
                            "the kernel name");
    // The kernel's own record of its configuration: the one source of the
    // grid, block and shared-memory size (never recomputed from options).
    auto dict =
        fn->getAttrOfType<DictionaryAttr>(FP8Dialect::kKernelConfigAttrName);
    if (!dict)
      return fn.emitOpError("fp8-launch-kernels: the launcher declaration "
                            "has no ")
             << FP8Dialect::kKernelConfigAttrName
             << " (its kernel's configuration, copied when fp8-launch-kernels "
                "declares it)";
    std::string why;
    FailureOr<GemmKernelConfig> c =
        getKernelConfigFromAttr(dict, m, bTy.getDimSize(0), kDim, why);
    if (failed(c))
      return fn.emitOpError("fp8-launch-kernels: invalid ")
             << FP8Dialect::kKernelConfigAttrName << " " << dict << ": " << why;
    buildGemmLauncherBody(b, args, *c, kernel, smCount);
  } else {
    // fp8_quantize_<R>x<C>_<BR>x128_...: the block rows are the 4th field.
    SmallVector<StringRef> fields;
    kernel.split(fields, '_');
    int64_t blockRows = 0;
    if (fields.size() < 4 ||
        fields[3].split('x').first.getAsInteger(10, blockRows))
      return fn.emitOpError("fp8-launch-kernels: cannot read the kernel "
                            "configuration from the launcher name");
    buildQuantizeLauncherBody(
        b, args,
        makeQuantizeKernelConfig(ShapedType::isDynamic(shape0[0])
                                     ? QuantizeKernelConfig::kDynamicRows
                                     : shape0[0],
                                 shape0[1], blockRows),
        kernel);
  }
  func::ReturnOp::create(b);
  return success();
}

/// `codes` [R, K] (FP8) padded with zero codes to [R, roundUp(K, 16)]
/// (`codes` itself when K is a multiple of 16).
Value padCodes(ImplicitLocOpBuilder &b, Value codes) {
  auto ty = cast<RankedTensorType>(codes.getType());
  int64_t k = ty.getDimSize(1), kPad = GemmKernelConfig::ceilDiv(k, 16) * 16;
  if (k == kPad)
    return codes;
  SmallVector<int64_t> shape{ty.getDimSize(0), kPad};
  auto padTy = RankedTensorType::get(shape, ty.getElementType());
  Value zero = arith::ConstantOp::create(
      b, ty.getElementType(), b.getFloatAttr(ty.getElementType(), 0.0));
  SmallVector<OpFoldResult> low{b.getIndexAttr(0), b.getIndexAttr(0)};
  SmallVector<OpFoldResult> high{b.getIndexAttr(0), b.getIndexAttr(kPad - k)};
  return tensor::PadOp::create(b, padTy, codes, low, high, zero);
}

Value toBuffer(ImplicitLocOpBuilder &b, Value tensor) {
  return bufferization::ToBufferOp::create(b, memrefOf(tensor.getType()),
                                           tensor, /*readOnly=*/true);
}

/// A fresh host buffer of `type`'s shape, dynamic sizes from `like`'s dims.
Value allocLike(ImplicitLocOpBuilder &b, RankedTensorType type,
                ValueRange dynSizes) {
  return memref::AllocOp::create(b, memrefOf(type), dynSizes);
}

Value toTensor(ImplicitLocOpBuilder &b, Value buffer, Type tensorType) {
  return bufferization::ToTensorOp::create(b, tensorType, buffer,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

struct FP8LaunchKernelsPass
    : public fp8::impl::FP8LaunchKernelsPassBase<FP8LaunchKernelsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (smCount < 1)
      return emitError(UnknownLoc::get(ctx))
             << "fp8-launch-kernels: option sm-count="
             << static_cast<int64_t>(smCount)
             << " is invalid: expected the number of SMs of the device "
                "(132 on an H100 SXM / H200), at least 1";
    if (StringRef(launchers) != "all" && StringRef(launchers) != "declare" &&
        StringRef(launchers) != "define-only")
      return emitError(UnknownLoc::get(ctx))
             << "fp8-launch-kernels: option launchers='"
             << static_cast<std::string>(launchers)
             << "' is invalid (expected all, declare or define-only)";
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef mode = launchers;
    if (mode != "define-only") {
      if (failed(rewriteOps(module)))
        return signalPassFailure();
    }
    if (mode == "declare")
      return;
    for (auto fn : llvm::to_vector(module.getOps<func::FuncOp>()))
      if (fn.isExternal() && fn.getName().starts_with(kLauncherPrefix))
        if (failed(defineLauncher(fn, smCount)))
          return signalPassFailure();
  }

  LogicalResult rewriteOps(ModuleOp module) {
    auto kernels = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName);
    if (!kernels)
      return success(); // no kernels: nothing launches
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<ScaledMatmulOp, QuantizeOp>(op) &&
          op->getParentOfType<func::FuncOp>())
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto mm = dyn_cast<ScaledMatmulOp>(op)) {
        if (failed(rewriteGemm(module, kernels, mm)))
          return failure();
      } else if (auto q = dyn_cast<QuantizeOp>(op)) {
        if (failed(rewriteQuantize(module, kernels, q)))
          return failure();
      }
    }
    if (emitCInterface)
      for (auto fn : module.getOps<func::FuncOp>())
        if (fn.isPublic() && !fn.isExternal())
          fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                      UnitAttr::get(&getContext()));
    return success();
  }

  LogicalResult checkKernel(gpu::GPUModuleOp kernels, Operation *op,
                            StringRef name) {
    if (kernels.lookupSymbol(name))
      return success();
    return op->emitOpError("fp8-launch-kernels: no kernel '")
           << name << "' in gpu.module @" << kKernelModuleName
           << " (run fp8-lower-to-nvvm first)";
  }

  /// The kernel fp8-lower-to-nvvm generated for `op`: the one GEMM kernel of
  /// its shape and types (`base`, the name without a configuration suffix)
  /// in any configuration, `base` or `base_t<BM>x<BN>s<S>[c<C>]`. The
  /// kernel, not this pass, decides the configuration.
  FailureOr<Operation *> findGemmKernel(gpu::GPUModuleOp kernels,
                                        ScaledMatmulOp op, StringRef base) {
    SmallVector<Operation *> found;
    for (Operation &k : kernels.getBody()->getOperations()) {
      auto sym = k.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      if (!sym || !sym.getValue().starts_with(base))
        continue;
      std::string rest = sym.getValue().drop_front(base.size()).str();
      int64_t bm, bn, st;
      if (rest.empty() || (rest.rfind("_t", 0) == 0 &&
                           parseGemmKernelConfigSuffix(rest, &bm, &bn, &st)))
        found.push_back(&k);
    }
    if (found.empty())
      return op->emitOpError("fp8-launch-kernels: no kernel '")
             << base << "' (in any configuration) in gpu.module @"
             << kKernelModuleName << " (run fp8-lower-to-nvvm first)";
    if (found.size() > 1) {
      InFlightDiagnostic diag = op->emitOpError(
          "fp8-launch-kernels: several kernels of this shape in gpu.module @");
      diag << kKernelModuleName << " (";
      llvm::interleaveComma(found, diag, [&](Operation *k) {
        diag << SymbolTable::getSymbolName(k).getValue();
      });
      return diag << "): lower the module with one configuration";
    }
    return found.front();
  }

  LogicalResult rewriteGemm(ModuleOp module, gpu::GPUModuleOp kernels,
                            ScaledMatmulOp op) {
    // The op's form (diagnosed as fp8-lower-to-nvvm does) and the kernel
    // name without a configuration (the shape's fixed default has none).
    FailureOr<GemmKernelSpec> spec =
        getGemmKernelSpec(op, GemmKernelOverrides(), /*model=*/nullptr);
    if (failed(spec))
      return failure();
    FailureOr<Operation *> kernel =
        findGemmKernel(kernels, op, gemmKernelName(*spec));
    if (failed(kernel))
      return failure();
    StringRef name = SymbolTable::getSymbolName(*kernel).getValue();
    auto dict = (*kernel)->getAttrOfType<DictionaryAttr>(
        FP8Dialect::kKernelConfigAttrName);
    if (!dict)
      return op->emitOpError("fp8-launch-kernels: kernel '")
             << name << "' has no " << FP8Dialect::kKernelConfigAttrName
             << " (the configuration fp8-lower-to-nvvm records on it, which "
                "the launcher follows)";
    std::string why;
    const GemmKernelConfig &shape = spec->config;
    FailureOr<GemmKernelConfig> config =
        getKernelConfigFromAttr(dict, shape.m, shape.n, shape.k, why);
    if (failed(config))
      return op->emitOpError("fp8-launch-kernels: kernel '")
             << name << "' has an invalid " << FP8Dialect::kKernelConfigAttrName
             << " " << dict << ": " << why;
    const GemmKernelConfig &c = *config;
    ImplicitLocOpBuilder b(op.getLoc(), op);
    auto aDis = DisassembleOp::create(b, op.getA());
    auto bDis = DisassembleOp::create(b, op.getB());
    Value aCodes = aDis.getData(), aScales = aDis.getScales();
    Value bCodes = bDis.getData(), bScales = bDis.getScales();
    // TMA global strides must be multiples of 16 bytes: rows of K codes
    // with K % 16 != 0 are padded with zero codes to a multiple of 16. The
    // kernel reads the padding as (exact) zero products, like the
    // out-of-bounds zero fill past it, and adds nothing to the sums.
    Value aData = padCodes(b, aCodes), bData = padCodes(b, bCodes);
    // A scales [M, KB] -> [KB, roundUp(M, 4)], zero padded: the K-block-major
    // layout whose rows are 16-byte aligned, as the kernel's TMA reads it.
    auto saTy = cast<RankedTensorType>(aScales.getType());
    int64_t kb = saTy.getDimSize(1);
    Value m = tensor::DimOp::create(b, aCodes, 0);
    Value mPad = arith::MulIOp::create(
        b,
        arith::CeilDivUIOp::create(b, m, arith::ConstantIndexOp::create(b, 4)),
        arith::ConstantIndexOp::create(b, 4));
    bool dynM = saTy.isDynamicDim(0);
    int64_t mPadStatic = dynM ? ShapedType::kDynamic : c.mPadded();
    auto paddedTy = RankedTensorType::get({kb, mPadStatic}, b.getF32Type());
    SmallVector<Value> padSizes, mSizes;
    if (dynM) {
      padSizes.push_back(mPad);
      mSizes.push_back(m);
    }
    Value zero =
        arith::ConstantOp::create(b, b.getF32Type(), b.getF32FloatAttr(0.0f));
    Value padded =
        linalg::FillOp::create(b, zero,
                               tensor::EmptyOp::create(b, paddedTy.getShape(),
                                                       b.getF32Type(), padSizes)
                                   .getResult())
            .getResult(0);
    Value transposedInit =
        tensor::EmptyOp::create(b, SmallVector<int64_t>{kb, saTy.getDimSize(0)},
                                b.getF32Type(), mSizes);
    Value transposed = linalg::TransposeOp::create(b, aScales, transposedInit,
                                                   ArrayRef<int64_t>{1, 0})
                           .getResult()
                           .front();
    SmallVector<OpFoldResult> offsets{b.getIndexAttr(0), b.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes{
        b.getIndexAttr(kb),
        dynM ? OpFoldResult(m)
             : OpFoldResult(b.getIndexAttr(saTy.getDimSize(0)))};
    SmallVector<OpFoldResult> strides{b.getIndexAttr(1), b.getIndexAttr(1)};
    Value saT = tensor::InsertSliceOp::create(b, transposed, padded, offsets,
                                              sizes, strides);

    auto resTy = cast<RankedTensorType>(op.getResult().getType());
    Value d = allocLike(b, resTy, mSizes);
    SmallVector<Value> args{toBuffer(b, aData), toBuffer(b, bData),
                            toBuffer(b, saT), toBuffer(b, bScales), d};
    if (Value acc = op.getC())
      args.push_back(toBuffer(b, acc));
    func::FuncOp fn =
        getOrDeclareLauncher(module, name, ValueRange(args).getTypes(), dict);
    func::CallOp::create(b, fn, args);
    op.replaceAllUsesWith(toTensor(b, d, resTy));
    op.erase();
    return success();
  }

  LogicalResult rewriteQuantize(ModuleOp module, gpu::GPUModuleOp kernels,
                                QuantizeOp op) {
    std::optional<QuantizeKernelSpec> spec =
        getQuantizeSpec(op, /*remark=*/false);
    if (!spec)
      return success(); // a host op (fp8-lower-to-nvvm remarked why)
    std::string name = quantizeKernelName(*spec);
    if (failed(checkKernel(kernels, op, name)))
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), op);
    auto resTy = cast<ScaledTensorType>(op.getResult().getType());
    auto qTy = resTy.getDataTensorType();
    auto sTy = resTy.getScaleTensorType();
    SmallVector<Value> rowSizes, blockSizes;
    if (qTy.isDynamicDim(0)) {
      Value rows = tensor::DimOp::create(b, op.getInput(), 0);
      rowSizes.push_back(rows);
      blockSizes.push_back(arith::CeilDivUIOp::create(
          b, rows, arith::ConstantIndexOp::create(b, spec->config.blockRows)));
    }
    Value q = allocLike(b, qTy, rowSizes);
    Value s = allocLike(b, sTy, blockSizes);
    SmallVector<Value> args{toBuffer(b, op.getInput()), q, s};
    func::FuncOp fn =
        getOrDeclareLauncher(module, name, ValueRange(args).getTypes());
    func::CallOp::create(b, fn, args);
    Value result =
        AssembleOp::create(b, resTy, toTensor(b, q, qTy), toTensor(b, s, sTy));
    op.replaceAllUsesWith(result);
    op.erase();
    return success();
  }
};

} // namespace
