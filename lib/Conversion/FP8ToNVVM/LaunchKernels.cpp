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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir {
namespace fp8 {
#define GEN_PASS_DEF_FP8LAUNCHKERNELSPASS
#include "fp8/Conversion/Passes.h.inc"
} // namespace fp8
} // namespace mlir

using namespace mlir;
using namespace mlir::fp8;

namespace {

constexpr StringLiteral kSmCountFunction = "fp8_mgpu_sm_count";
/// Sizes the kernels index with signed 32-bit values (TMA coordinates, the
/// i32 row count parameter) stay below this.
constexpr int64_t kMaxKernelExtent = GemmKernelConfig::kMaxExtent;

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
  /// A TMA descriptor over the device buffer `raw` viewed as `shape`
  /// elements of `elem` (sizes: the dynamic ones), box `box` (outermost
  /// first; a grouped operand's group dimension has box 1), zero fill out of
  /// bounds (the kernel's M/N/K tails).
  Value tensorMap(Value raw, ArrayRef<int64_t> shape, ValueRange sizes,
                  Type elem, ArrayRef<int64_t> box,
                  nvgpu::TensorMapSwizzleKind swizzle) {
    Value typed = view(raw, MemRefType::get(shape, elem), sizes);
    Value unranked = memref::CastOp::create(
        b, UnrankedMemRefType::get(elem, Attribute()), typed);
    auto boxTy = MemRefType::get(box, elem, AffineMap(),
                                 /*memorySpace=*/3);
    auto descTy = nvgpu::TensorMapDescriptorType::get(
        b.getContext(), boxTy, swizzle,
        nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
    SmallVector<Value> boxSizes;
    for (int64_t d : box)
      boxSizes.push_back(idx(d));
    Value desc =
        nvgpu::TmaCreateDescriptorOp::create(b, descTy, unranked, boxSizes);
    // The kernel takes the map as a generic pointer (its ABI); gpu-to-llvm
    // cannot convert the nvgpu type of a launch operand, so the launch gets
    // the pointer the descriptor lowers to (mgpuTensorMapEncodeTiledMemref's
    // result; the casts fold in reconcile-unrealized-casts).
    return UnrealizedConversionCastOp::create(
               b, LLVM::LLVMPointerType::get(b.getContext()), desc)
        .getResult(0);
  }
  /// The persistent grid's width: `fixed` (sm-count > 0) compiled in, or
  /// (sm-count = 0) the device's SM count read at run time from the
  /// runtime's `fp8_mgpu_sm_count()`, the one extension of the mgpu ABI
  /// that runtime/ (cuDeviceGetAttribute) and the emulated runtime
  /// implement.
  Value smCount(int64_t fixed) {
    if (fixed > 0)
      return idx(fixed);
    auto module =
        b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
    auto fn = module.lookupSymbol<func::FuncOp>(kSmCountFunction);
    if (!fn) {
      OpBuilder ob(module.getBodyRegion());
      ob.setInsertionPointToEnd(module.getBody());
      fn = func::FuncOp::create(ob, module.getLoc(), kSmCountFunction,
                                ob.getFunctionType({}, {ob.getI32Type()}));
      fn.setPrivate();
    }
    Value n = func::CallOp::create(b, fn, ValueRange{}).getResult(0);
    return arith::IndexCastUIOp::create(b, b.getIndexType(), n);
  }
  void launch(SymbolRefAttr kernel, Value grid, int64_t threads, int64_t smem,
              ValueRange args) {
    Value one = idx(1);
    chain = gpu::LaunchFuncOp::create(
                b, kernel, gpu::KernelDim3{grid, one, one},
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
/// It carries its kernel's reference (`fp8.kernel_ref`) and typed
/// configuration (`fp8.kernel`, copied), so the body can be defined after
/// the gpu.module became a binary.
func::FuncOp getOrDeclareLauncher(ModuleOp module, SymbolRefAttr kernel,
                                  Attribute config, TypeRange args) {
  std::string name =
      (kLauncherPrefix + kernel.getLeafReference().getValue()).str();
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder ob(module.getBodyRegion());
  ob.setInsertionPointToEnd(module.getBody());
  auto fn = func::FuncOp::create(ob, module.getLoc(), name,
                                 ob.getFunctionType(args, {}));
  fn.setPrivate();
  fn->setAttr(FP8Dialect::kKernelAttrName, config);
  fn->setAttr(FP8Dialect::kKernelRefAttrName, kernel);
  return fn;
}

/// The GEMM launcher: (a codes [M, Kp], b codes [N, Kp], A scales
/// transposed and padded [KB, roundUp(M, 4)], B scales [ceil(N/128), KB]
/// (per-column kernels, `_b1x128`: [KB, ceil(N / BLOCK_N) * BLOCK_N],
/// transposed),
/// d [M, N][, c [M, N]]), all host memrefs; Kp = K rounded up to a multiple
/// of 16, the codes' rows padded with zero codes (TMA global strides are
/// multiples of 16 bytes); the kernel ABI of GemmKernelConfig.h.
/// Grouped kernels (`grouping`, G groups): B codes [G, N, Kp] and scales
/// [G, ceil(N/128), KB]; masked also a [G, M, Kp], A scales [G, KB,
/// roundUp(M, 4)], d (and c) [G, M, N]; the last argument is the i32 group
/// tensor (masked counts [G], contiguous group index [M]) when the kernel
/// takes one. One launch for all groups.
void buildGemmLauncherBody(ImplicitLocOpBuilder &b, ValueRange args,
                           const GemmKernelConfig &c, SymbolRefAttr kernel,
                           int64_t smCount,
                           GemmGrouping grouping = GemmGrouping::none,
                           int64_t groups = 1, bool hasGroupArg = false) {
  HostBuilder h(b);
  Value a = args[0], bw = args[1], saT = args[2], sb = args[3], d = args[4];
  Value group = hasGroupArg ? args.back() : Value();
  size_t nFixed = hasGroupArg ? args.size() - 1 : args.size();
  Value acc = nFixed > 5 ? args[5] : Value();
  const bool masked = grouping == GemmGrouping::masked;
  Value m = memref::DimOp::create(b, a, masked ? 1 : 0);
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
  Value groupDev;
  if (group)
    groupDev =
        h.upload(group, bytesOf(h, numElements(h, group), b.getI32Type()),
                 dynamicSizes(b, group))
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
  // A grouped operand's leading group dimension gets box 1: a box never
  // spans two groups.
  auto box = [](MemRefType t, ArrayRef<int64_t> inner) {
    SmallVector<int64_t> bx(t.getRank() - inner.size(), 1);
    bx.append(inner.begin(), inner.end());
    return bx;
  };
  Value tmA = h.tensorMap(aRaw, aTy.getShape(), dynamicSizes(b, a), u8,
                          box(aTy, {c.blockM, c.blockK}),
                          nvgpu::TensorMapSwizzleKind::SWIZZLE_128B);
  Value tmB = h.tensorMap(bRaw, bTy.getShape(), ValueRange{}, u8,
                          box(bTy, {c.blockN, c.blockK}),
                          nvgpu::TensorMapSwizzleKind::SWIZZLE_128B);
  Value tmSA = h.tensorMap(saRaw, saTy.getShape(), dynamicSizes(b, saT),
                           b.getF32Type(), box(saTy, {1, c.blockM}),
                           nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE);
  // Persistent grid: min(tiles, SMs), tiles from the run-time M (times G
  // for the masked form, whose grid covers every group's tiles), the SMs
  // of the device it runs on (sm-count = 0) or compiled in.
  Value tiles = h.mul(h.ceilDiv(m, c.blockM), h.idx(c.nTiles()));
  if (masked)
    tiles = h.mul(tiles, h.idx(groups));
  Value grid = arith::MinUIOp::create(b, tiles, h.smCount(smCount));
  SmallVector<Value> kernelArgs{tmA, tmB, tmSA, sbDev, dDev, h.i32(m)};
  if (accDev)
    kernelArgs.push_back(accDev);
  if (groupDev)
    kernelArgs.push_back(groupDev);
  h.launch(kernel, grid, c.threads(), c.sharedMemoryBytes(), kernelArgs);
  h.copy(d, dDev);
  h.finish();
}

/// The quantize launcher: (x [rows, cols], q [rows, cols], scales), the
/// kernel ABI of QuantizeKernelConfig.h.
void buildQuantizeLauncherBody(ImplicitLocOpBuilder &b, ValueRange args,
                               const QuantizeKernelConfig &c,
                               SymbolRefAttr kernel) {
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

/// Gives the declaration `fn` of a launcher its body (and drops the two
/// attributes below). Everything it needs follows from the declaration:
/// the kernel's configuration from the `fp8.kernel` copied from the
/// kernel, the kernel from `fp8.kernel_ref`,
/// the shapes from the argument types; so the bodies can be added after
/// the host program was bufferized and its buffers deallocated (the
/// ownership-based deallocation rejects the gpu ops) and the kernels
/// compiled.
LogicalResult defineLauncher(func::FuncOp fn, int64_t smCount) {
  Attribute config = fn->getAttr(FP8Dialect::kKernelAttrName);
  auto kernel =
      fn->getAttrOfType<SymbolRefAttr>(FP8Dialect::kKernelRefAttrName);
  if (!isa_and_nonnull<GemmKernelAttr, QuantizeKernelAttr>(config) || !kernel)
    return fn.emitOpError("fp8-launch-kernels: the launcher declaration "
                          "needs its kernel's ")
           << FP8Dialect::kKernelAttrName << " (#fp8.gemm_kernel or "
           << "#fp8.quantize_kernel) and " << FP8Dialect::kKernelRefAttrName
           << " (copied when fp8-launch-kernels declares it)";
  Block *entry = fn.addEntryBlock();
  ImplicitLocOpBuilder b(fn.getLoc(), fn.getContext());
  b.setInsertionPointToStart(entry);
  ValueRange args = entry->getArguments();
  // A problem that is empty at run time (a dynamic M of 0) has nothing to
  // compute and an empty result: the launcher returns before any device
  // work, as a grid of 0 CTAs and a tensor map over an empty extent are
  // invalid (cuLaunchKernel, cuTensorMapEncodeTiled).
  Value result = args[isa<GemmKernelAttr>(config) ? 4 : 1];
  HostBuilder h(b);
  Value nonEmpty = arith::CmpIOp::create(b, arith::CmpIPredicate::ne,
                                         numElements(h, result), h.idx(0));
  auto ifNonEmpty = scf::IfOp::create(b, nonEmpty, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifNonEmpty.thenBlock());
  if (auto gemm = dyn_cast<GemmKernelAttr>(config)) {
    // The kernel's own record of its configuration: the one source of the
    // grid, block and shared-memory size (never recomputed from options).
    GemmGrouping grouping = !gemm.isGrouped() ? GemmGrouping::none
                            : gemm.isMasked() ? GemmGrouping::masked
                                              : GemmGrouping::contiguous;
    buildGemmLauncherBody(
        b, args, gemm.getConfig(), kernel, smCount, grouping, gemm.getGroups(),
        /*hasGroupArg=*/grouping == GemmGrouping::contiguous ||
            gemm.hasCounts());
  } else {
    buildQuantizeLauncherBody(
        b, args, cast<QuantizeKernelAttr>(config).getConfig(), kernel);
  }
  b.setInsertionPointAfter(ifNonEmpty);
  func::ReturnOp::create(b);
  // Consumed: the host program lowers to LLVM for upstream tools
  // (mlir-translate) that do not know the fp8 dialect's attributes.
  fn->removeAttr(FP8Dialect::kKernelAttrName);
  fn->removeAttr(FP8Dialect::kKernelRefAttrName);
  return success();
}

/// `codes` [..., R, K] (FP8) padded with zero codes to [..., R,
/// roundUp(K, 16)] (`codes` itself when K is a multiple of 16).
Value padCodes(ImplicitLocOpBuilder &b, Value codes) {
  auto ty = cast<RankedTensorType>(codes.getType());
  int64_t rank = ty.getRank();
  int64_t k = ty.getDimSize(rank - 1),
          kPad = GemmKernelConfig::ceilDiv(k, 16) * 16;
  if (k == kPad)
    return codes;
  SmallVector<int64_t> shape(ty.getShape());
  shape.back() = kPad;
  auto padTy = RankedTensorType::get(shape, ty.getElementType());
  Value zero = arith::ConstantOp::create(
      b, ty.getElementType(), b.getFloatAttr(ty.getElementType(), 0.0));
  SmallVector<OpFoldResult> low(rank, b.getIndexAttr(0)),
      high(rank, b.getIndexAttr(0));
  high.back() = b.getIndexAttr(kPad - k);
  return tensor::PadOp::create(b, padTy, codes, low, high, zero);
}

/// Per-row scales (A's; B's when per column) [..., M, KB] -> [..., KB,
/// roundUp(M, 4)], zero padded: the K-block-major layout whose rows are
/// 16-byte aligned, as the kernel's TMA reads it (a masked grouped GEMM's
/// [G, M, KB] per group). Only the M of a rank-2 tensor may be dynamic: read
/// from `aCodes` (the codes of the same operand); `mSizes` gets it, if any.
/// `staticPadRows` (a static M only): pad to that many instead (per-column
/// B scales: [KB, Np]).
Value transposeScales(ImplicitLocOpBuilder &b, Value aScales, Value aCodes,
                      SmallVectorImpl<Value> &mSizes,
                      int64_t staticPadRows = 0) {
  auto saTy = cast<RankedTensorType>(aScales.getType());
  int64_t rank = saTy.getRank();
  int64_t kb = saTy.getDimSize(rank - 1), mStatic = saTy.getDimSize(rank - 2);
  SmallVector<int64_t> lead(saTy.getShape().drop_back(2));
  bool dynM = ShapedType::isDynamic(mStatic);
  SmallVector<Value> padSizes;
  Value m;
  if (dynM) {
    m = tensor::DimOp::create(b, aCodes, rank - 2);
    Value four = arith::ConstantIndexOp::create(b, 4);
    padSizes.push_back(
        arith::MulIOp::create(b, arith::CeilDivUIOp::create(b, m, four), four));
    mSizes.push_back(m);
  }
  auto shapeOf = [&](int64_t rows) {
    SmallVector<int64_t> s = lead;
    s.append({kb, rows});
    return s;
  };
  int64_t mPad = dynM            ? ShapedType::kDynamic
                 : staticPadRows ? staticPadRows
                                 : GemmKernelConfig::roundUp(mStatic, 4);
  Value zero =
      arith::ConstantOp::create(b, b.getF32Type(), b.getF32FloatAttr(0.0f));
  Value padded =
      linalg::FillOp::create(
          b, zero,
          tensor::EmptyOp::create(b, shapeOf(mPad), b.getF32Type(), padSizes)
              .getResult())
          .getResult(0);
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < rank - 2; ++i)
    perm.push_back(i);
  perm.append({rank - 1, rank - 2});
  Value transposedInit = tensor::EmptyOp::create(
      b, shapeOf(mStatic), b.getF32Type(), dynM ? ValueRange{m} : ValueRange{});
  Value transposed =
      linalg::TransposeOp::create(b, aScales, transposedInit, perm)
          .getResult()
          .front();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)),
      strides(rank, b.getIndexAttr(1)), sizes;
  for (int64_t d : lead)
    sizes.push_back(b.getIndexAttr(d));
  sizes.push_back(b.getIndexAttr(kb));
  sizes.push_back(dynM ? OpFoldResult(m)
                       : OpFoldResult(b.getIndexAttr(mStatic)));
  return tensor::InsertSliceOp::create(b, transposed, padded, offsets, sizes,
                                       strides);
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

// Run-time checks of inputs the kernels cannot report: cf.assert in the host
// program before the launcher call, so a bad input stops the program with a
// message on every runtime (CUDA or emulated) instead of a kernel storing
// +0.0 or wrapping a coordinate; the CPU lowering reports the same inputs.

/// Rows (M of a GEMM, rows of a quantize input) known only at run time:
/// below 2^31, as the kernels' TMA coordinates and i32 row counts need.
/// (A static size of 2^31 or more is a compile-time error, KernelSpecs.cpp.)
void assertRowsFitKernel(ImplicitLocOpBuilder &b, Value rows, Operation *op) {
  Value limit = arith::ConstantIndexOp::create(b, kMaxKernelExtent);
  Value fits = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, rows, limit);
  cf::AssertOp::create(
      b, fits,
      (op->getName().getStringRef() +
       ": 2^31 rows or more (M) at run time; the GPU kernels' TMA "
       "coordinates and row counts are signed 32-bit")
          .str());
}

/// The contiguous layout's group_ids [M]: every index in [-1, G) and every
/// run of a group (not of padding, -1) starting at a multiple of
/// m_alignment, as the CPU lowering asserts (same messages,
/// FP8ToLinalg/GroupedScaledMatmul.cpp). The kernel takes a tile's group
/// from its first row, so a run starting inside a tile would be computed
/// with the wrong group or stored as +0.0.
void assertContiguousGroups(ImplicitLocOpBuilder &b, GroupedScaledMatmulOp op) {
  Value ids = op.getGroupIds();
  int64_t groups =
      cast<ScaledTensorType>(op.getB().getType()).getShape().front();
  Type i32 = b.getI32Type();
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value one = arith::ConstantIndexOp::create(b, 1);
  Value rows = tensor::DimOp::create(b, ids, 0);
  Value align = arith::ConstantIndexOp::create(b, op.getMAlignment());
  Value none = arith::ConstantIntOp::create(b, i32, -1);
  Value g = arith::ConstantIntOp::create(b, i32, groups);
  Value noRow = arith::ConstantIntOp::create(b, i32, -2); // before row 0
  Value yes = arith::ConstantIntOp::create(b, 1, 1);
  scf::ForOp::create(
      b, zero, rows, one, ValueRange{noRow},
      [&](OpBuilder &fb, Location l, Value r, ValueRange prev) {
        ImplicitLocOpBuilder lb(l, fb);
        Value gid = tensor::ExtractOp::create(lb, ids, ValueRange{r});
        Value inRange = arith::AndIOp::create(
            lb, arith::CmpIOp::create(lb, arith::CmpIPredicate::sge, gid, none),
            arith::CmpIOp::create(lb, arith::CmpIPredicate::slt, gid, g));
        cf::AssertOp::create(lb, inRange,
                             "fp8.grouped_scaled_matmul: a group index in "
                             "group_ids is outside [-1, G)");
        Value startsGroupRun = arith::AndIOp::create(
            lb, arith::CmpIOp::create(lb, arith::CmpIPredicate::ne, gid, none),
            arith::CmpIOp::create(lb, arith::CmpIPredicate::ne, gid,
                                  prev.front()));
        Value aligned =
            arith::CmpIOp::create(lb, arith::CmpIPredicate::eq,
                                  arith::RemUIOp::create(lb, r, align), zero);
        cf::AssertOp::create(
            lb,
            arith::OrIOp::create(
                lb, arith::XOrIOp::create(lb, startsGroupRun, yes), aligned),
            "fp8.grouped_scaled_matmul: a group's rows in group_ids start "
            "at a row that is not a multiple of m_alignment");
        scf::YieldOp::create(lb, ValueRange{gid});
      });
}

struct FP8LaunchKernelsPass
    : public fp8::impl::FP8LaunchKernelsPassBase<FP8LaunchKernelsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (smCount < 0)
      return emitError(UnknownLoc::get(ctx))
             << "fp8-launch-kernels: option sm-count="
             << static_cast<int64_t>(smCount)
             << " is invalid: expected 0 (the device's SM count, read at "
                "run time) or the number of SMs of the device (132 on an "
                "H100 SXM / H200)";
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
      if (fn.isExternal() && fn->hasAttr(FP8Dialect::kKernelRefAttrName))
        if (failed(defineLauncher(fn, smCount)))
          return signalPassFailure();
  }

  LogicalResult rewriteOps(ModuleOp module) {
    auto kernels = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName);
    if (!kernels)
      return success(); // no kernels: nothing launches
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      // An empty problem has no kernel (fp8-lower-to-nvvm remarked it).
      if (isa<ScaledMatmulOp, GroupedScaledMatmulOp, QuantizeOp>(op) &&
          op->getParentOfType<func::FuncOp>() &&
          getEmptyProblemReason(op).empty())
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (isa<ScaledMatmulOp, GroupedScaledMatmulOp>(op)) {
        if (failed(rewriteGemm(module, op)))
          return failure();
      } else if (auto q = dyn_cast<QuantizeOp>(op)) {
        if (failed(rewriteQuantize(module, q)))
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

  /// The kernel `op` names (its fp8.kernel_ref, set by fp8-lower-to-nvvm)
  /// and the kernel's typed configuration (its fp8.kernel).
  template <typename KernelAttrT>
  FailureOr<std::pair<SymbolRefAttr, KernelAttrT>>
  getKernel(ModuleOp module, Operation *op, StringRef what) {
    auto ref = op->getAttrOfType<SymbolRefAttr>(FP8Dialect::kKernelRefAttrName);
    if (!ref)
      return op->emitOpError("fp8-launch-kernels: no ")
             << FP8Dialect::kKernelRefAttrName
             << " naming the op's kernel (run fp8-lower-to-nvvm first)";
    Operation *kernel = SymbolTable::lookupSymbolIn(module, ref);
    if (!kernel)
      return op->emitOpError("fp8-launch-kernels: no kernel ")
             << ref << " (run fp8-lower-to-nvvm first)";
    auto attr = kernel->getAttrOfType<KernelAttrT>(FP8Dialect::kKernelAttrName);
    if (!attr)
      return op->emitOpError("fp8-launch-kernels: kernel ")
             << ref << " has no " << FP8Dialect::kKernelAttrName << " = #fp8."
             << what
             << "<...> (the configuration fp8-lower-to-nvvm records on it, "
                "which the launcher follows)";
    return std::make_pair(ref, attr);
  }

  /// fp8.scaled_matmul or fp8.grouped_scaled_matmul: one launcher call
  /// (one kernel launch, also for all the groups of a grouped op).
  LogicalResult rewriteGemm(ModuleOp module, Operation *gemm) {
    // The op's form (diagnosed as fp8-lower-to-nvvm does).
    auto grouped = dyn_cast<GroupedScaledMatmulOp>(gemm);
    FailureOr<GemmKernelSpec> spec =
        grouped ? getGroupedGemmKernelSpec(grouped, GemmKernelOverrides(),
                                           /*model=*/nullptr)
                : getGemmKernelSpec(cast<ScaledMatmulOp>(gemm),
                                    GemmKernelOverrides(), /*model=*/nullptr);
    if (failed(spec))
      return failure();
    const GemmKernelConfig &shape = spec->config;
    auto kernel = getKernel<GemmKernelAttr>(module, gemm, "gemm_kernel");
    if (failed(kernel))
      return failure();
    auto [ref, attr] = *kernel;
    // The kernel must compute this op: its problem, B-scale layout (a
    // kernel of the other layout would index the B scales wrongly) and
    // grouping.
    GemmKernelConfig c = attr.getConfig();
    std::optional<GroupLayout> layout;
    if (grouped)
      layout = grouped.getLayout();
    if (c.m != shape.m || c.n != shape.n || c.k != shape.k ||
        c.bScalesPerColumn != shape.bScalesPerColumn ||
        attr.getLayout() != layout || attr.getGroups() != spec->groups ||
        attr.hasCounts() != spec->hasCounts || attr.getA() != spec->aType ||
        attr.getB() != spec->bType || attr.getD() != spec->resultType ||
        attr.getC() != spec->accType)
      return gemm->emitOpError("fp8-launch-kernels: kernel ")
             << ref << " (" << attr << ") does not compute this op";
    // Room in the attribute for the next variants; launching them needs
    // more than this launcher does (cluster dims, swapped operands).
    bool swapAB = attr.getSwapAb() && attr.getSwapAb().getValue();
    if (attr.getCluster() != 1 || attr.getMulticast() != 1 || swapAB)
      return gemm->emitOpError("fp8-launch-kernels: kernel ")
             << ref << " needs a cluster of " << attr.getCluster()
             << " CTAs, multicast " << attr.getMulticast()
             << ", swap_ab = " << (swapAB ? "true" : "false")
             << ": this launcher launches single-CTA kernels of A B^T";
    ImplicitLocOpBuilder b(gemm->getLoc(), gemm);
    if (grouped && grouped.getLayout() == GroupLayout::contiguous)
      assertContiguousGroups(b, grouped);
    Value opA = grouped ? grouped.getA() : cast<ScaledMatmulOp>(gemm).getA();
    Value opB = grouped ? grouped.getB() : cast<ScaledMatmulOp>(gemm).getB();
    Value opC = grouped ? grouped.getC() : cast<ScaledMatmulOp>(gemm).getC();
    Value result = gemm->getResult(0);
    Value group = grouped ? (grouped.getCounts() ? grouped.getCounts()
                                                 : grouped.getGroupIds())
                          : Value();
    auto aDis = DisassembleOp::create(b, opA);
    auto bDis = DisassembleOp::create(b, opB);
    Value aCodes = aDis.getData(), aScales = aDis.getScales();
    Value bCodes = bDis.getData(), bScales = bDis.getScales();
    auto aCodesTy = cast<RankedTensorType>(aCodes.getType());
    int64_t mDim = aCodesTy.getRank() - 2;
    if (aCodesTy.isDynamicDim(mDim))
      assertRowsFitKernel(b, tensor::DimOp::create(b, aCodes, mDim), gemm);
    // TMA global strides must be multiples of 16 bytes: rows of K codes
    // with K % 16 != 0 are padded with zero codes to a multiple of 16. The
    // kernel reads the padding as (exact) zero products, like the
    // out-of-bounds zero fill past it, and adds nothing to the sums.
    Value aData = padCodes(b, aCodes), bData = padCodes(b, bCodes);
    SmallVector<Value> mSizes;
    Value saT = transposeScales(b, aScales, aCodes, mSizes);
    // Per-column B scales [N, KB] go to the kernel as [KB, Np], Np the
    // columns of all tiles of the kernel's configuration (GemmKernelConfig.h:
    // a thread's two adjacent columns are one aligned 8-byte load, never
    // out of bounds), transposed and zero-padded as the A scales are.
    if (shape.bScalesPerColumn) {
      SmallVector<Value> nSizes; // N is static
      bScales = transposeScales(b, bScales, bCodes, nSizes, c.bScaleColumns());
    }

    auto resTy = cast<RankedTensorType>(result.getType());
    Value d = allocLike(b, resTy, mSizes);
    SmallVector<Value> args{toBuffer(b, aData), toBuffer(b, bData),
                            toBuffer(b, saT), toBuffer(b, bScales), d};
    if (opC)
      args.push_back(toBuffer(b, opC));
    // Grouped: the counts (masked) or per-row group index (contiguous) last.
    if (group)
      args.push_back(toBuffer(b, group));
    func::FuncOp fn =
        getOrDeclareLauncher(module, ref, attr, ValueRange(args).getTypes());
    func::CallOp::create(b, fn, args);
    result.replaceAllUsesWith(toTensor(b, d, resTy));
    gemm->erase();
    return success();
  }

  LogicalResult rewriteQuantize(ModuleOp module, QuantizeOp op) {
    std::optional<QuantizeKernelSpec> spec =
        getQuantizeSpec(op, /*remark=*/false);
    if (!spec)
      return success(); // a host op (fp8-lower-to-nvvm remarked why)
    auto kernel = getKernel<QuantizeKernelAttr>(module, op, "quantize_kernel");
    if (failed(kernel))
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), op);
    auto resTy = cast<ScaledTensorType>(op.getResult().getType());
    auto qTy = resTy.getDataTensorType();
    auto sTy = resTy.getScaleTensorType();
    SmallVector<Value> rowSizes, blockSizes;
    if (qTy.isDynamicDim(0)) {
      Value rows = tensor::DimOp::create(b, op.getInput(), 0);
      assertRowsFitKernel(b, rows, op);
      rowSizes.push_back(rows);
      blockSizes.push_back(arith::CeilDivUIOp::create(
          b, rows, arith::ConstantIndexOp::create(b, spec->config.blockRows)));
    }
    Value q = allocLike(b, qTy, rowSizes);
    Value s = allocLike(b, sTy, blockSizes);
    SmallVector<Value> args{toBuffer(b, op.getInput()), q, s};
    func::FuncOp fn = getOrDeclareLauncher(
        module, kernel->first, kernel->second, ValueRange(args).getTypes());
    func::CallOp::create(b, fn, args);
    Value result =
        AssembleOp::create(b, resTy, toTensor(b, q, qTy), toTensor(b, s, sTy));
    op.replaceAllUsesWith(result);
    op.erase();
    return success();
  }
};

} // namespace
