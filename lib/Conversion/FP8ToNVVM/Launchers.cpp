//===- Launchers.cpp - fp8-launch-kernels' launcher functions -------------===//
//
// A launcher moves the operands to the device, builds the TMA descriptors
// on the host, launches the kernel with the grid of its configuration and
// copies the result back. Launchers use upstream ops only (gpu.alloc/
// memcpy/launch_func, nvgpu.tma.create.descriptor), so gpu-to-llvm and
// convert-nvgpu-to-nvvm lower them to the upstream `mgpu*` runtime ABI.
//
//===----------------------------------------------------------------------===//
#include "Launchers.h"

#include "GemmKernel.h"
#include "KernelSpecs.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Target/Hopper/GemmBScaleStaging.h"
#include "fp8/Target/Hopper/TransposeKernelConfig.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {

constexpr StringLiteral kSmCountFunction = "fp8_mgpu_sm_count";

/// Index arithmetic and device-buffer helpers for a launcher body.
struct HostBuilder {
  ImplicitLocOpBuilder &b;
  Type token;
  // The launcher's memrefs are device buffers (the caller's residency,
  // Residency.cpp): nothing to copy, allocate or free here.
  bool resident;
  SmallVector<Value> deviceBuffers; // raw i8 allocations, freed at the end
  SmallVector<std::pair<Value, Value>> results; // (host, device), copied back
  Value chain; // the last async token (one stream)

  explicit HostBuilder(ImplicitLocOpBuilder &b, bool resident = false)
      : b(b), token(gpu::AsyncTokenType::get(b.getContext())),
        resident(resident) {}

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
  /// The device buffer of the launcher's operand `arg` (`bytes` long, the
  /// dynamic sizes `sizes`): `arg` itself when resident, else a copy.
  Value input(Value arg, Value bytes, ValueRange sizes) {
    return resident ? arg : upload(arg, bytes, sizes).second;
  }
  /// The device buffer the kernel writes the operand `arg` into: `arg`
  /// itself when resident, else a fresh one copied back in finish().
  Value output(Value arg, Value bytes, ValueRange sizes) {
    if (resident)
      return arg;
    Value dev = alloc(bytes, cast<MemRefType>(arg.getType()), sizes).second;
    results.push_back({arg, dev});
    return dev;
  }
  /// A TMA descriptor over the device buffer `dev` read as elements of
  /// `elem` (FP8 codes as u8: the same bytes, the type TMA knows), box
  /// `box` (outermost first; a grouped operand's group dimension has box
  /// 1), zero fill out of bounds (the kernel's M/N/K tails).
  Value tensorMap(Value dev, Type elem, ArrayRef<int64_t> box,
                  nvgpu::TensorMapSwizzleKind swizzle) {
    auto devTy = cast<MemRefType>(dev.getType());
    Value typed = dev;
    // The codes reinterpreted as u8 (both are i8 in LLVM: the casts fold in
    // reconcile-unrealized-casts).
    if (devTy.getElementType() != elem)
      typed = UnrealizedConversionCastOp::create(
                  b, MemRefType::get(devTy.getShape(), elem), dev)
                  .getResult(0);
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
  /// `cluster` > 1: clusters of that many consecutive CTAs (cluster dims
  /// (cluster, 1, 1); `grid` a multiple of it).
  void launch(SymbolRefAttr kernel, Value grid, int64_t threads, int64_t smem,
              ValueRange args, int64_t cluster = 1) {
    Value one = idx(1);
    std::optional<gpu::KernelDim3> clusterSize;
    if (cluster > 1)
      clusterSize = gpu::KernelDim3{idx(cluster), one, one};
    // One op per statement, in the order the nested form was built.
    Value smemBytes = arith::ConstantIntOp::create(b, b.getI32Type(), smem);
    Value blockSize = idx(threads);
    chain = gpu::LaunchFuncOp::create(
                b, kernel, gpu::KernelDim3{grid, one, one},
                gpu::KernelDim3{blockSize, one, one}, smemBytes, args, token,
                ValueRange{chain}, clusterSize)
                .getAsyncToken();
  }
  /// Copies the results back, frees every device buffer and waits for the
  /// stream: the launcher returns with the results on the host (resident:
  /// on the device, where its caller keeps them).
  void finish() {
    for (auto [host, dev] : results)
      copy(host, dev);
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

/// Split-K's workspace (GemmKernelConfig.h's ABI), allocated for this
/// launch and freed with the other device buffers: the partial tiles,
/// which the kernel writes before it reads them, and the arrival counters,
/// zeroed here (the kernel counts each tile's units on them).
void appendSplitKWorkspace(HostBuilder &h, const GemmKernelConfig &c,
                           SmallVectorImpl<Value> &kernelArgs) {
  ImplicitLocOpBuilder &b = h.b;
  auto vecTy = [&](Type elem) {
    return MemRefType::get({ShapedType::kDynamic}, elem);
  };
  // One op per statement.
  Value partialBytes = h.idx(c.splitKPartialBytes());
  Value partialCount = h.idx(c.splitKPartialBytes() / 4);
  Value partials =
      h.alloc(partialBytes, vecTy(b.getF32Type()), ValueRange{partialCount})
          .second;
  Value counterBytes = h.idx(c.splitKCounterBytes());
  Value counterCount = h.idx(c.splitKCounters());
  Value counters =
      h.alloc(counterBytes, vecTy(b.getI32Type()), ValueRange{counterCount})
          .second;
  Value zero = arith::ConstantIntOp::create(b, b.getI32Type(), 0);
  h.chain =
      gpu::MemsetOp::create(b, h.token, ValueRange{h.chain}, counters, zero)
          .getAsyncToken();
  kernelArgs.push_back(partials);
  kernelArgs.push_back(counters);
}

/// The GEMM launcher: (a codes [M, Kp], b codes [N, Kp], A scales
/// transposed and padded [KB, roundUp(M, 4)], B scales [ceil(N/128), KB]
/// (per-column kernels, `_b1x128`: [KB, ceil(N / BLOCK_N) * BLOCK_N],
/// transposed),
/// d [M, N][, c [M, N]]), all host memrefs (the quantize epilogue: q
/// codes [M, N] and scales [M, ceil(N / 128)] in d's place); Kp = K rounded up
/// to a multiple of 16, the codes' rows padded with zero codes (TMA global
/// strides are multiples of 16 bytes); the kernel ABI of GemmKernelConfig.h.
/// Grouped kernels (`grouping`, G groups): B codes [G, N, Kp] and scales
/// [G, ceil(N/128), KB]; masked also a [G, M, Kp], A scales [G, KB,
/// roundUp(M, 4)], d (and c) [G, M, N]; the last argument is the i32 group
/// tensor (masked counts [G], contiguous group index [M]) when the kernel
/// takes one. k_grouped: the 2-D operands of the Wgrad kernel (a [M, Tp], b
/// [N, Tp], A scales [KB, roundUp(M, 4)], per-column B scales [KB, Np]), d
/// (and c) [G, M, N], the group ids [T] last. One launch for all groups.
void buildGemmLauncherBody(ImplicitLocOpBuilder &b, ValueRange args,
                           const GemmKernelConfig &c, SymbolRefAttr kernel,
                           int64_t smCount,
                           GemmGrouping grouping = GemmGrouping::none,
                           int64_t groups = 1, bool hasGroupArg = false,
                           bool resident = false) {
  HostBuilder h(b, resident);
  Value a = args[0], bw = args[1], saT = args[2], sb = args[3], d = args[4];
  // The quantize epilogue's scales follow its codes (in d's place).
  Value qs = c.quantizeEpilogue ? args[5] : Value();
  size_t nOut = c.quantizeEpilogue ? 6 : 5;
  Value group = hasGroupArg ? args.back() : Value();
  size_t nFixed = hasGroupArg ? args.size() - 1 : args.size();
  Value acc = nFixed > nOut ? args[nOut] : Value();
  const bool masked = grouping == GemmGrouping::masked;
  // The grid of the masked and k-grouped kernels covers G groups' tiles.
  const bool perGroupTiles = masked || grouping == GemmGrouping::kGrouped;
  Value m = memref::DimOp::create(b, a, masked ? 1 : 0);
  h.chain = gpu::WaitOp::create(b, h.token, ValueRange{}).getAsyncToken();
  auto u8 = IntegerType::get(b.getContext(), 8, IntegerType::Unsigned);
  // The codes and A scales are read by TMA (through descriptors of the raw
  // buffers), the B scales and D by plain loads and stores.
  SmallVector<Value> aSizes = dynamicSizes(b, a);
  Value aDev = h.input(a, numElements(h, a), aSizes);
  SmallVector<Value> bwSizes = dynamicSizes(b, bw);
  Value bDev = h.input(bw, numElements(h, bw), bwSizes);
  SmallVector<Value> saTSizes = dynamicSizes(b, saT);
  Value saDev =
      h.input(saT, bytesOf(h, numElements(h, saT), b.getF32Type()), saTSizes);
  SmallVector<Value> sbSizes = dynamicSizes(b, sb);
  Value sbDev =
      h.input(sb, bytesOf(h, numElements(h, sb), b.getF32Type()), sbSizes);
  auto dTy = cast<MemRefType>(d.getType());
  SmallVector<Value> dSizes = dynamicSizes(b, d);
  Value dDev =
      h.output(d, bytesOf(h, numElements(h, d), dTy.getElementType()), dSizes);
  Value qsDev;
  if (qs) {
    SmallVector<Value> qsSizes = dynamicSizes(b, qs);
    qsDev =
        h.output(qs, bytesOf(h, numElements(h, qs), b.getF32Type()), qsSizes);
  }
  Value groupDev;
  if (group) {
    SmallVector<Value> groupSizes = dynamicSizes(b, group);
    groupDev = h.input(group, bytesOf(h, numElements(h, group), b.getI32Type()),
                       groupSizes);
  }
  Value accDev;
  if (acc) {
    auto accTy = cast<MemRefType>(acc.getType());
    SmallVector<Value> accSizes = dynamicSizes(b, acc);
    accDev = h.input(
        acc, bytesOf(h, numElements(h, acc), accTy.getElementType()), accSizes);
  }
  // A run-time K (the Wgrad over a run-time token count): the kernel takes
  // the codes' row length Kp last (its K blocks are ceil(Kp / 128) =
  // ceil(K / 128)). K = 0 has no K block to run and its tensor maps would
  // describe an empty extent (invalid): D is C (of D's type: KernelSpecs.cpp)
  // or +0.0, written on the device without a launch. The stream is
  // synchronised around the two branches (a token does not leave them).
  Value kRun;
  scf::IfOp kIf;
  if (c.hasDynamicK()) {
    // The k-grouped kernel takes T itself (its scan of the group ids stops
    // at T's last token), the ids' length: ceil(T / 128) = ceil(Kp / 128).
    kRun = grouping == GemmGrouping::kGrouped
               ? Value(memref::DimOp::create(b, group, 0))
               : Value(memref::DimOp::create(
                     b, a, cast<MemRefType>(a.getType()).getRank() - 1));
    gpu::WaitOp::create(b, Type(), ValueRange{h.chain});
    kIf = scf::IfOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, kRun, h.idx(0)),
        /*withElseRegion=*/true);
    b.setInsertionPointToStart(kIf.thenBlock());
    h.chain = gpu::WaitOp::create(b, h.token, ValueRange{}).getAsyncToken();
    if (accDev) {
      h.copy(dDev, accDev);
    } else {
      Type dElem = dTy.getElementType();
      Value zero =
          arith::ConstantOp::create(b, dElem, b.getFloatAttr(dElem, 0.0));
      h.chain =
          gpu::MemsetOp::create(b, h.token, ValueRange{h.chain}, dDev, zero)
              .getAsyncToken();
    }
    gpu::WaitOp::create(b, Type(), ValueRange{h.chain});
    b.setInsertionPointToStart(kIf.elseBlock());
    h.chain = gpu::WaitOp::create(b, h.token, ValueRange{}).getAsyncToken();
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
  Value tmA = h.tensorMap(aDev, u8, box(aTy, {c.blockM, c.blockK}),
                          nvgpu::TensorMapSwizzleKind::SWIZZLE_128B);
  // B's box: one CTA's share of the B tile (all of it without a cluster).
  Value tmB = h.tensorMap(bDev, u8, box(bTy, {c.bBoxRows(), c.blockK}),
                          nvgpu::TensorMapSwizzleKind::SWIZZLE_128B);
  Value tmSA = h.tensorMap(saDev, b.getF32Type(),
                           box(saTy, {c.promotionsPerBlock(), c.blockM}),
                           nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE);
  // Persistent grid: min(tiles, SMs), tiles from the run-time M (times G
  // for the masked and k-grouped forms, whose grid covers every group's
  // tiles), the SMs
  // of the device it runs on (sm-count = 0) or compiled in. With clusters:
  // min(cluster tiles, max(SMs / cluster, 1)) whole clusters (at least one:
  // with fewer SMs than a cluster has CTAs, sm-count=1 or the SM-count
  // query's fallback of 1, the grid would be empty and nothing computed).
  Value nTiles = h.idx(c.nTiles());
  Value tiles = h.mul(h.ceilDiv(m, c.blockM * c.cluster), nTiles);
  if (perGroupTiles)
    tiles = h.mul(tiles, h.idx(groups));
  // Split-K: every tile is kSplits work units.
  if (c.kSplits > 1)
    tiles = h.mul(tiles, h.idx(c.kSplits));
  Value sms = h.smCount(smCount);
  Value grid;
  if (c.cluster == 1) {
    grid = arith::MinUIOp::create(b, tiles, sms);
  } else {
    Value clusters = arith::DivUIOp::create(b, sms, h.idx(c.cluster));
    clusters = arith::MaxUIOp::create(b, clusters, h.idx(1));
    Value ctasPerCluster = h.idx(c.cluster);
    grid = h.mul(arith::MinUIOp::create(b, tiles, clusters), ctasPerCluster);
  }
  // The TMA store's D (GemmKernelConfig::tmaStore): a map of boxes of one
  // warpgroup's 64 rows x 128 bytes, 128B-swizzled as its staging buffer;
  // the quantize epilogue's codes as u8 (128 codes: a 1x128 tile per row).
  Value dParam = dDev;
  if (c.tmaStore) {
    Type dElem = c.quantizeEpilogue ? Type(u8) : dTy.getElementType();
    int64_t boxCols = 128 / (dElem.getIntOrFloatBitWidth() / 8);
    dParam = h.tensorMap(dDev, dElem,
                         box(dTy, {GemmKernelConfig::kStoreBoxRows, boxCols}),
                         nvgpu::TensorMapSwizzleKind::SWIZZLE_128B);
  }
  SmallVector<Value> kernelArgs{tmA, tmB, tmSA, sbDev, dParam, h.i32(m)};
  if (accDev)
    kernelArgs.push_back(accDev);
  if (groupDev)
    kernelArgs.push_back(groupDev);
  if (kRun)
    kernelArgs.push_back(h.i32(kRun));
  if (qsDev)
    kernelArgs.push_back(qsDev);
  if (c.kSplits > 1)
    appendSplitKWorkspace(h, c, kernelArgs);
  h.launch(kernel, grid, c.threads(), gemmLaunchSharedMemoryBytes(c),
           kernelArgs, c.cluster);
  if (kIf) {
    gpu::WaitOp::create(b, Type(), ValueRange{h.chain});
    b.setInsertionPointAfter(kIf);
    h.chain = gpu::WaitOp::create(b, h.token, ValueRange{}).getAsyncToken();
  }
  h.finish();
}

/// The bf16 GEMM launcher (GemmKernelConfig::operands): (a [M, K], b [K, N]
/// bf16, d [M, N], c [M, N] f32), host memrefs, without c for a kernel
/// whose accumulators start at its acc_init (`hasAcc` false); the kernel ABI of
/// GemmKernelConfig.h with parameters 2 and 3 unused (A's map and A passed
/// there). TMA maps: A boxes of blockM rows x 64 K (128 bytes), B boxes of
/// 64 K rows x 64 columns (128 bytes), both 128B-swizzled; N and K are
/// multiples of 8 (fp8-lower-to-nvvm), so the rows are 16-byte strides.
/// The other majors (GemmKernelConfig::aMajor, bMajor): an MN-major a [K,
/// M] in boxes of 64 K rows x 64 columns as B's, a K-major b [N, K] in
/// boxes of blockN rows x 64 K (the FP8 kernel's B box).
/// The batch kernel (`groups` G > 1 or a masked layout): a [G, M, K], b
/// [G, K, N], d and c [G, M, N], rank-3 maps with a box of one batch (their
/// extents the memrefs' run-time sizes), and G times the tiles; `groups`
/// ShapedType::kDynamic: G read from A and passed as the last i32.
/// An operand read through a head view (GemmKernelConfig::aHeads, bHeads
/// H > 1) is its source [B, rows, H, cols] (G = B x H), mapped through its
/// memref.transpose (B, H, rows, cols): a rank-4 map whose strides are the
/// source's, with a box of one batch and head.
void buildBF16GemmLauncherBody(ImplicitLocOpBuilder &b, ValueRange args,
                               const GemmKernelConfig &c, int64_t groups,
                               bool hasAcc, SymbolRefAttr kernel,
                               int64_t smCount, bool resident) {
  HostBuilder h(b, resident);
  Value a = args[0], bw = args[1], d = args[2];
  Value acc = hasAcc ? args[3] : Value();
  const int64_t rank = cast<MemRefType>(a.getType()).getRank();
  // A head view's M is static (GemmKernelAttr's verifier): its source's
  // dimensions are [B, M, H, K] or [B, K, H, M].
  Value m =
      c.aHeads != 1
          ? h.idx(c.m)
          : memref::DimOp::create(b, a, c.aMNMajor() ? rank - 1 : rank - 2);
  h.chain = gpu::WaitOp::create(b, h.token, ValueRange{}).getAsyncToken();
  Type bf16 = b.getBF16Type();
  SmallVector<Value> aSizes = dynamicSizes(b, a);
  Value aDev = h.input(a, bytesOf(h, numElements(h, a), bf16), aSizes);
  SmallVector<Value> bwSizes = dynamicSizes(b, bw);
  Value bDev = h.input(bw, bytesOf(h, numElements(h, bw), bf16), bwSizes);
  // D and C are bf16 or f32 (GemmKernelAttr's `d`, `c`): each copied at
  // its own element size.
  SmallVector<Value> dSizes = dynamicSizes(b, d);
  Value dDev = h.output(
      d, bytesOf(h, numElements(h, d), getElementTypeOrSelf(d)), dSizes);
  Value accDev;
  if (hasAcc) {
    SmallVector<Value> accSizes = dynamicSizes(b, acc);
    accDev =
        h.input(acc, bytesOf(h, numElements(h, acc), getElementTypeOrSelf(acc)),
                accSizes);
  }
  // [B, rows, H, cols] viewed as (B, H, rows, cols), the strides the
  // source's (TensorMapABI.h reads them from the view's descriptor).
  auto headView = [&](Value dev, int64_t heads) -> Value {
    if (heads == 1)
      return dev;
    auto perm = AffineMap::getPermutationMap(ArrayRef<unsigned>{0, 2, 1, 3},
                                             b.getContext());
    return memref::TransposeOp::create(b, dev, AffineMapAttr::get(perm));
  };
  Value aView = headView(aDev, c.aHeads);
  Value bView = headView(bDev, c.bHeads);
  // A batch's dimensions get box 1: a box never spans two batches (nor two
  // heads of a head view).
  auto box = [&](Value view, ArrayRef<int64_t> inner) {
    const int64_t viewRank = cast<MemRefType>(view.getType()).getRank();
    SmallVector<int64_t> bx(viewRank - inner.size(), 1);
    bx.append(inner.begin(), inner.end());
    return bx;
  };
  const int64_t mnBoxColumns = GemmKernelConfig::kBF16BoxColumns;
  Value tmA = h.tensorMap(aView, bf16,
                          c.aMNMajor() ? box(aView, {c.blockK, mnBoxColumns})
                                       : box(aView, {c.blockM, c.blockK}),
                          nvgpu::TensorMapSwizzleKind::SWIZZLE_128B);
  Value tmB = h.tensorMap(bView, bf16,
                          c.bMNMajor() ? box(bView, {c.blockK, mnBoxColumns})
                                       : box(bView, {c.blockN, c.blockK}),
                          nvgpu::TensorMapSwizzleKind::SWIZZLE_128B);
  Value mTiles = h.ceilDiv(m, c.blockM);
  Value nTiles = h.idx(c.nTiles());
  Value tiles = h.mul(mTiles, nTiles);
  // A run-time batch count (groups = ?): A's (fp8-launch-kernels asserted
  // A's, B's and C's equal and G x M below 2^31), the kernel's last
  // parameter.
  const bool dynamicGroups = ShapedType::isDynamic(groups);
  Value g = dynamicGroups ? memref::DimOp::create(b, a, 0) : Value();
  if (dynamicGroups)
    tiles = h.mul(tiles, g);
  else if (groups > 1)
    tiles = h.mul(tiles, h.idx(groups));
  Value sms = h.smCount(smCount);
  Value grid = arith::MinUIOp::create(b, tiles, sms);
  Value m32 = h.i32(m);
  SmallVector<Value> kernelArgs{tmA, tmB, tmA, aDev, dDev, m32};
  if (hasAcc)
    kernelArgs.push_back(accDev);
  if (dynamicGroups)
    kernelArgs.push_back(h.i32(g));
  int64_t threads = c.threads();
  int64_t smem = gemmLaunchSharedMemoryBytes(c);
  h.launch(kernel, grid, threads, smem, kernelArgs);
  h.finish();
}

/// The per-tensor quantize kernel's two launches with `args` (its first
/// four parameters; QuantizeKernelConfig.h): one f32 amax on the device,
/// set to +0.0, then pass 0 (the amax) and pass 1 (the scale and codes).
void launchPerTensorQuantize(HostBuilder &h, SymbolRefAttr kernel, Value grid,
                             ValueRange args) {
  ImplicitLocOpBuilder &b = h.b;
  Value amax =
      h.alloc(h.idx(4), MemRefType::get({1}, b.getF32Type()), {}).second;
  Value zero = arith::ConstantOp::create(b, b.getF32FloatAttr(0.0f));
  h.chain = gpu::MemsetOp::create(b, h.token, ValueRange{h.chain}, amax, zero)
                .getAsyncToken();
  for (int64_t pass : {0, 1}) {
    SmallVector<Value> passArgs(args);
    passArgs.push_back(amax);
    passArgs.push_back(arith::ConstantIntOp::create(b, b.getI32Type(), pass));
    h.launch(kernel, grid, QuantizeKernelConfig::kThreads, 0, passArgs);
  }
}

/// The quantize launcher: (x [rows, cols], q [rows, cols], scales), the
/// kernel ABI of QuantizeKernelConfig.h; the requantize launcher
/// (`transpose`): (x codes [cols, rows], q, scales, x scales).
void buildQuantizeLauncherBody(ImplicitLocOpBuilder &b, ValueRange args,
                               const QuantizeKernelConfig &c, bool transpose,
                               SymbolRefAttr kernel, bool resident) {
  HostBuilder h(b, resident);
  Value x = args[0], q = args[1], s = args[2];
  Value rows = transpose ? h.idx(c.rows) : memref::DimOp::create(b, x, 0);
  h.chain = gpu::WaitOp::create(b, h.token, ValueRange{}).getAsyncToken();
  auto xTy = cast<MemRefType>(x.getType());
  SmallVector<Value> xSizes = dynamicSizes(b, x);
  Value xDev =
      h.input(x, bytesOf(h, numElements(h, x), xTy.getElementType()), xSizes);
  SmallVector<Value> qSizes = dynamicSizes(b, q);
  Value qDev = h.output(q, numElements(h, q), qSizes);
  // f32 scales, or E8M0 (one byte each).
  SmallVector<Value> sSizes = dynamicSizes(b, s);
  Value sDev = h.output(s,
                        bytesOf(h, numElements(h, s),
                                cast<MemRefType>(s.getType()).getElementType()),
                        sSizes);
  // Grid: the kernel's blocks over the run-time rows (QuantizeKernelConfig).
  Value rowBlocks = h.ceilDiv(rows, c.blockRows);
  Value blocks = h.mul(rowBlocks, h.idx(c.colTiles()));
  Value grid = h.ceilDiv(blocks, c.blocksPerCta());
  SmallVector<Value> kernelArgs{xDev, qDev, sDev, h.i32(rows)};
  if (transpose) {
    Value xs = args[3];
    kernelArgs.push_back(
        h.input(xs, bytesOf(h, numElements(h, xs), b.getF32Type()), {}));
  }
  if (c.perTensor)
    launchPerTensorQuantize(h, kernel, grid, kernelArgs);
  else
    h.launch(kernel, grid, QuantizeKernelConfig::kThreads, 0, kernelArgs);
  h.finish();
}

/// The transpose launcher: (in [..., rows, cols], out [..., cols,
/// outRows]) of one element type, the leading dimensions a batch; the
/// kernel ABI of TransposeKernelConfig.h.
void buildTransposeLauncherBody(ImplicitLocOpBuilder &b, ValueRange args,
                                SymbolRefAttr kernel, bool resident) {
  HostBuilder h(b, resident);
  Value in = args[0], out = args[1];
  auto inTy = cast<MemRefType>(in.getType());
  int64_t rank = inTy.getRank();
  Value batch = h.idx(1);
  for (int64_t d = 0; d + 2 < rank; ++d)
    batch = h.mul(batch, memref::DimOp::create(b, in, d));
  Value rows = memref::DimOp::create(b, in, rank - 2);
  Value cols = memref::DimOp::create(b, in, rank - 1);
  Value outRows = memref::DimOp::create(b, out, rank - 1);
  h.chain = gpu::WaitOp::create(b, h.token, ValueRange{}).getAsyncToken();
  // The widening kernel's output is f32, its input E8M0 codes.
  Type elem = inTy.getElementType();
  Type outElem = cast<MemRefType>(out.getType()).getElementType();
  SmallVector<Value> inSizes = dynamicSizes(b, in);
  Value inDev = h.input(in, bytesOf(h, numElements(h, in), elem), inSizes);
  SmallVector<Value> outSizes = dynamicSizes(b, out);
  Value outDev =
      h.output(out, bytesOf(h, numElements(h, out), outElem), outSizes);
  Value grid = h.ceilDiv(numElements(h, out), TransposeKernelConfig::kThreads);
  h.launch(
      kernel, grid, TransposeKernelConfig::kThreads, 0,
      {inDev, outDev, h.i32(batch), h.i32(rows), h.i32(cols), h.i32(outRows)});
  h.finish();
}

} // namespace

constexpr StringLiteral kLauncherPrefix = "fp8_launch_";

func::FuncOp mlir::fp8::getOrDeclareLauncher(ModuleOp module,
                                             SymbolRefAttr kernel,
                                             Attribute config, TypeRange args,
                                             StringRef suffix) {
  std::string name =
      (kLauncherPrefix + kernel.getLeafReference().getValue() + suffix).str();
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

SmallVector<unsigned> mlir::fp8::getLauncherResults(Attribute config) {
  // A GEMM's D, or its quantize epilogue's codes and scales.
  if (auto gemm = dyn_cast<GemmKernelAttr>(config)) {
    if (gemm.getConfig().hasBF16Operands())
      return {2}; // (a, b, d[, c])
    return gemm.hasQuantizeEpilogue() ? SmallVector<unsigned>{4, 5}
                                      : SmallVector<unsigned>{4};
  }
  if (isa<TransposeKernelAttr>(config))
    return {1};
  return {1, 2};
}

LogicalResult mlir::fp8::defineLauncher(func::FuncOp fn, int64_t smCount) {
  Attribute config = fn->getAttr(FP8Dialect::kKernelAttrName);
  auto kernel =
      fn->getAttrOfType<SymbolRefAttr>(FP8Dialect::kKernelRefAttrName);
  if (!isa_and_nonnull<GemmKernelAttr, QuantizeKernelAttr, TransposeKernelAttr>(
          config) ||
      !kernel)
    return fn.emitOpError("fp8-launch-kernels: the launcher declaration "
                          "needs its kernel's ")
           << FP8Dialect::kKernelAttrName << " (#fp8.gemm_kernel, "
           << "#fp8.quantize_kernel or #fp8.transpose_kernel) and "
           << FP8Dialect::kKernelRefAttrName
           << " (copied when fp8-launch-kernels declares it)";
  // Set by the residency of its callers (makeLaunchesResident): the
  // operands are device buffers.
  bool resident = fn->hasAttr(kResidentOperandsAttrName);
  Block *entry = fn.addEntryBlock();
  ImplicitLocOpBuilder b(fn.getLoc(), fn.getContext());
  b.setInsertionPointToStart(entry);
  ValueRange args = entry->getArguments();
  // A problem that is empty at run time (a dynamic M of 0) has nothing to
  // compute and an empty result: the launcher returns before any device
  // work, as a grid of 0 CTAs and a tensor map over an empty extent are
  // invalid (cuLaunchKernel, cuTensorMapEncodeTiled).
  Value result = args[getLauncherResults(config).front()];
  HostBuilder h(b, resident);
  Value zero = h.idx(0);
  Value nonEmpty = arith::CmpIOp::create(b, arith::CmpIPredicate::ne,
                                         numElements(h, result), zero);
  auto ifNonEmpty = scf::IfOp::create(b, nonEmpty, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifNonEmpty.thenBlock());
  auto gemm = dyn_cast<GemmKernelAttr>(config);
  if (gemm && gemm.getConfig().hasBF16Operands()) {
    buildBF16GemmLauncherBody(b, args, gemm.getConfig(), gemm.getGroups(),
                              /*hasAcc=*/static_cast<bool>(gemm.getC()), kernel,
                              smCount, resident);
  } else if (gemm) {
    // The kernel's own record of its configuration: the one source of the
    // grid, block and shared-memory size (never recomputed from options).
    GemmGrouping grouping = getGemmGrouping(gemm.getLayout());
    buildGemmLauncherBody(
        b, args, gemm.getConfig(), kernel, smCount, grouping, gemm.getGroups(),
        /*hasGroupArg=*/grouping == GemmGrouping::contiguous ||
            grouping == GemmGrouping::kGrouped || gemm.hasCounts(),
        resident);
  } else if (isa<TransposeKernelAttr>(config)) {
    buildTransposeLauncherBody(b, args, kernel, resident);
  } else {
    auto quantize = cast<QuantizeKernelAttr>(config);
    buildQuantizeLauncherBody(b, args, quantize.getConfig(),
                              quantize.isTranspose(), kernel, resident);
  }
  b.setInsertionPointAfter(ifNonEmpty);
  func::ReturnOp::create(b);
  // Consumed: the host program lowers to LLVM for upstream tools
  // (mlir-translate) that do not know the fp8 dialect's attributes.
  fn->removeAttr(FP8Dialect::kKernelAttrName);
  fn->removeAttr(FP8Dialect::kKernelRefAttrName);
  fn->removeAttr(kResidentOperandsAttrName);
  return success();
}
