//===- Kernels.cpp - host side of the GEMM/quantize kernels ---------------===//
#include "fp8/Emulator/Kernels.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::emu;

namespace {

float bitsToF32(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint32_t f32ToBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

/// The MLIR type of an FP8 kernel element type (e4m3 unless e5m2).
Type getFP8Type(MLIRContext &ctx, KernelElementType t) {
  return t == KernelElementType::e5m2 ? Type(Float8E5M2Type::get(&ctx))
                                      : Type(Float8E4M3FNType::get(&ctx));
}

/// FP8 code -> f32 from the format definition (OCP FP8).
float decodeFp8(uint8_t c, bool e5m2) {
  float sign = (c & 0x80) ? -1.0f : 1.0f;
  if (e5m2) {
    int e = (c >> 2) & 0x1F, m = c & 3;
    if (e == 31)
      return m ? NAN : sign * INFINITY;
    return e ? sign * std::ldexp(1.0f + m / 4.0f, e - 15)
             : sign * std::ldexp(float(m), -16);
  }
  int e = (c >> 3) & 0xF, m = c & 7;
  if (e == 15 && m == 7)
    return NAN;
  return e ? sign * std::ldexp(1.0f + m / 8.0f, e - 7)
           : sign * std::ldexp(float(m), -9);
}

/// f32 -> bf16 bits, round to nearest even; any NaN -> 0x7FFF, the GPU's
/// canonical NaN (cvt.rn.bf16.f32).
uint32_t toBF16(float f) {
  uint32_t b = f32ToBits(f);
  if ((b & 0x7FFFFFFF) > 0x7F800000)
    return 0x7FFF;
  return (b + 0x7FFF + ((b >> 16) & 1)) >> 16;
}

} // namespace

namespace {

/// The #fp8.gemm_kernel of `kernel` (null if it carries none).
GemmKernelAttr getGemmKernelAttr(const KernelModule &module,
                                 const std::string &kernel) {
  return dyn_cast_or_null<GemmKernelAttr>(module.getKernelAttribute(kernel));
}

/// The problem and element types of `attr` into a GemmKernelDesc or a
/// GroupedGemmKernelDesc (m = kDynamicM for a run-time M).
template <typename Desc> void readProblem(GemmKernelAttr attr, Desc &out) {
  out.m = attr.getConfig().m;
  out.n = attr.getN();
  out.k = attr.getConfig().k;
  out.a = getKernelElementType(attr.getA());
  out.b = getKernelElementType(attr.getB());
  out.out = getKernelElementType(attr.getD());
  out.hasAcc = attr.getC() != nullptr;
  if (out.hasAcc)
    out.acc = getKernelElementType(attr.getC());
}

} // namespace

bool mlir::fp8::emu::getGemmKernelDesc(const KernelModule &module,
                                       const std::string &kernel,
                                       GemmKernelDesc &out) {
  GemmKernelAttr attr = getGemmKernelAttr(module, kernel);
  if (!attr || attr.isGrouped())
    return false;
  readProblem(attr, out);
  out.bScalesPerColumn = attr.hasBScalesPerColumn();
  return true;
}

bool mlir::fp8::emu::getQuantizeKernelDesc(const KernelModule &module,
                                           const std::string &kernel,
                                           QuantizeKernelDesc &out) {
  auto attr =
      dyn_cast_or_null<QuantizeKernelAttr>(module.getKernelAttribute(kernel));
  if (!attr || !quantizeRunnerRefusal(module, kernel).empty())
    return false;
  return getAnyQuantizeKernelDesc(module, kernel, out);
}

bool mlir::fp8::emu::getAnyQuantizeKernelDesc(const KernelModule &module,
                                              const std::string &kernel,
                                              QuantizeKernelDesc &out) {
  auto attr =
      dyn_cast_or_null<QuantizeKernelAttr>(module.getKernelAttribute(kernel));
  if (!attr)
    return false;
  QuantizeKernelConfig c = attr.getConfig();
  out.rows = c.rows;
  out.cols = c.cols;
  out.blockRows = c.blockRows;
  out.blockCols = c.blockCols;
  out.perTensor = attr.isPerTensor();
  out.e8m0 = !attr.getScale().isF32();
  out.input = getKernelElementType(attr.getInput());
  out.fp8 = getKernelElementType(attr.getFp8());
  out.pow2 = attr.getScaleMode() == ScaleMode::pow2;
  out.eps = static_cast<float>(attr.getEps().getValueAsDouble());
  out.transpose = attr.isTranspose();
  return true;
}

std::string mlir::fp8::emu::quantizeRunnerRefusal(const KernelModule &module,
                                                  const std::string &kernel) {
  auto attr =
      dyn_cast_or_null<QuantizeKernelAttr>(module.getKernelAttribute(kernel));
  if (!attr)
    return "";
  // The single-launch runner reads f32 scales of 128-column blocks.
  const char *what = !attr.getScale().isF32()       ? "E8M0 scales"
                     : attr.isPerTensor()           ? "one scale per tensor "
                                                      "(two launches)"
                     : attr.getConfig().wholeRow()  ? "a block per whole row"
                     : attr.getConfig().perColumn() ? "[128, 1] blocks (a "
                                                      "scale per column)"
                                                    : nullptr;
  if (!what)
    return "";
  return "quantize kernel '" + kernel + "' has " + what +
         ": it runs through its compiled host program (fp8-gpu-pipeline "
         "host=llvm target=emulator, libfp8_emu_mgpu), not this "
         "single-launch runner";
}

namespace {

/// A fresh device allocation holding a copy of `bytes` host bytes.
uint64_t uploadTo(Device &dev, const void *src, size_t bytes) {
  uint64_t p = dev.alloc(bytes);
  dev.write(p, src, bytes);
  return p;
}

/// Bytes of a row of `k` FP8 codes padded to a multiple of 16 (TMA global
/// strides), as fp8-launch-kernels pads them.
int64_t paddedRowBytes(int64_t k) { return (k + 15) / 16 * 16; }

/// `rows` rows of `k` FP8 codes padded with zero codes to
/// paddedRowBytes(k).
std::vector<uint8_t> padCodeRows(const std::vector<uint8_t> &codes,
                                 int64_t rows, int64_t k) {
  const int64_t kp = paddedRowBytes(k);
  std::vector<uint8_t> p(size_t(rows) * kp, 0);
  for (int64_t i = 0; i < rows; ++i)
    std::memcpy(&p[i * kp], &codes[i * k], k);
  return p;
}

/// Per-row scales [slabs, rows, kb] transposed per slab and zero-padded to
/// [slabs, kb, paddedRows]: the K-block-major layout the kernels read (A
/// scales through TMA, per-column B scales by plain loads), as
/// fp8-launch-kernels lays them out.
std::vector<float> transposeScales(const std::vector<float> &s, int64_t slabs,
                                   int64_t rows, int64_t kb,
                                   int64_t paddedRows) {
  std::vector<float> t(size_t(slabs) * kb * paddedRows, 0.0f);
  for (int64_t g = 0; g < slabs; ++g)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < kb; ++j)
        t[(g * kb + j) * paddedRows + i] = s[(g * rows + i) * kb + j];
  return t;
}

/// The low `bytes` bytes of each of the first `n` elements of `v`, packed:
/// bf16 (2) or f32 (4) bits, or FP8 codes (1), as a kernel reads them.
std::vector<uint8_t> packLowBytes(const std::vector<uint32_t> &v, size_t n,
                                  int bytes) {
  std::vector<uint8_t> raw(n * bytes);
  for (size_t i = 0; i < n; ++i)
    std::memcpy(&raw[i * bytes], &v[i], bytes);
  return raw;
}

/// The GEMM operand C (bf16 or f32 bits, `n` elements) on the device; 0
/// when there is none.
uint64_t uploadC(Device &dev, const std::vector<uint32_t> &c,
                 KernelElementType cType, size_t n) {
  if (c.empty())
    return 0;
  std::vector<uint8_t> raw =
      packLowBytes(c, n, cType == KernelElementType::bf16 ? 2 : 4);
  return uploadTo(dev, raw.data(), raw.size());
}

/// Fills `map` for a tiled tensor of `dims` (innermost first, rows packed:
/// each stride the product of the inner dimensions) of `eb`-byte elements
/// at `base`; on failure appends what is wrong with the tensor map of
/// `what` to `report`.
bool encodeMap(TensorMap &map, uint32_t eb, uint64_t base,
               ArrayRef<uint64_t> dims, ArrayRef<uint32_t> box,
               TensorMapSwizzle sw, const char *what, std::string &report) {
  std::vector<uint64_t> strides;
  uint64_t stride = eb;
  for (size_t i = 0; i + 1 < dims.size(); ++i)
    strides.push_back(stride *= dims[i]);
  std::vector<uint32_t> es(dims.size(), 1);
  std::string err = encodeTensorMapTiled(
      map, eb, static_cast<uint32_t>(dims.size()), base, dims.data(),
      strides.data(), box.data(), es.data(), sw);
  if (!err.empty())
    report += std::string("fp8-emu: error: tensor map of ") + what + ": " +
              err + "\n";
  return err.empty();
}

/// What runGemm launches: the kernel on a `grid` of
/// CTAs with the tensor maps of A, B and A's scales, B's scales `sb`, the
/// output `d` and M, then the nonzero `extra` buffers (C, the group rows);
/// `result` the `outElems` outputs of `outBytes` bytes read back.
LaunchResult launchGemm(const KernelModule &module, const std::string &kernel,
                        Device &dev, const GemmKernelConfig &c, uint32_t grid,
                        const TensorMap (&maps)[3], uint64_t sb, uint64_t d,
                        int64_t m, ArrayRef<uint64_t> extra, size_t outElems,
                        int outBytes, std::vector<uint32_t> &result,
                        const Options &options) {
  uint64_t mapBase = dev.alloc(3 * 128); // 128 bytes per map, 64-aligned
  for (int i = 0; i < 3; ++i)
    dev.write(mapBase + 128 * i, &maps[i], sizeof(TensorMap));
  LaunchDims dims;
  dims.grid = grid;
  dims.clusterX = static_cast<uint32_t>(c.cluster);
  dims.block = static_cast<uint32_t>(c.threads());
  dims.dynamicSharedBytes = static_cast<uint32_t>(c.sharedMemoryBytes());
  std::vector<KernelArg> args = {
      mapBase, mapBase + 128, mapBase + 256, sb, d, static_cast<uint32_t>(m)};
  for (uint64_t buffer : extra)
    if (buffer)
      args.push_back(buffer);
  LaunchResult r = module.launch(kernel, dev, dims, args, options);
  if (!r.ok)
    return r;
  result.assign(outElems, 0);
  std::vector<uint8_t> raw(outElems * outBytes);
  dev.read(d, raw.data(), raw.size());
  for (size_t i = 0; i < result.size(); ++i)
    std::memcpy(&result[i], &raw[i * outBytes], outBytes);
  return r;
}

} // namespace

bool mlir::fp8::emu::getGemmKernelConfig(const KernelModule &module,
                                         const std::string &kernel, int64_t m,
                                         GemmKernelConfig &cfg) {
  GemmKernelAttr attr = getGemmKernelAttr(module, kernel);
  if (!attr)
    return false;
  cfg = withRuntimeM(attr.getConfig(), m);
  return true;
}

bool mlir::fp8::emu::getGroupedGemmKernelDesc(const KernelModule &module,
                                              const std::string &kernel,
                                              GroupedGemmKernelDesc &out) {
  GemmKernelAttr attr = getGemmKernelAttr(module, kernel);
  if (!attr || !attr.isGrouped())
    return false;
  out.masked = attr.isMasked();
  out.kGrouped = attr.getLayout() == GroupLayout::k_grouped;
  out.groups = attr.getGroups();
  out.hasCounts = attr.hasCounts();
  readProblem(attr, out);
  return true;
}

LaunchResult
mlir::fp8::emu::runGemm(const KernelModule &module, const std::string &kernel,
                        const GemmKernelConfig &c, int smCount,
                        KernelElementType out, const GemmOperands &ops,
                        std::vector<uint32_t> &result, const Options &options) {
  LaunchResult fail;
  fail.ok = false;
  const int64_t M = ops.m, N = ops.n, K = ops.k, KB = c.kBlocks();
  if (c.m != M || c.n != N || c.k != K) {
    fail.report = "fp8-emu: error: the configuration's shape differs from "
                  "the operands'\n";
    return fail;
  }
  if (c.hasWholeKScales() || c.promotionsPerBlock() > 1) {
    // The operands here carry a scale per 128-K block; a whole-K or mxfp8
    // kernel runs in the compiled host program (libfp8_emu_mgpu), whose
    // launcher builds its [1, Mpad] / [K / 32, Mpad] scales.
    fail.report = "fp8-emu: error: a kernel with scales along the whole K "
                  "(scale_k = k) or per 32 K (mxfp8) runs through its host "
                  "program only\n";
    return fail;
  }
  if (c.quantizeEpilogue) {
    // This runner reads D back; such a kernel writes codes and scales.
    fail.report = "fp8-emu: error: a kernel with the quantize epilogue (D "
                  "stored as FP8 codes and 1x128 scales) runs through its "
                  "host program only\n";
    return fail;
  }
  Device dev;
  auto upload = [&](const void *src, size_t bytes) {
    return uploadTo(dev, src, bytes);
  };
  const int64_t KP = paddedRowBytes(K);
  std::vector<uint8_t> aPad = padCodeRows(ops.a, M, K),
                       bPad = padCodeRows(ops.b, N, K);
  uint64_t a = upload(aPad.data(), aPad.size());
  uint64_t b = upload(bPad.data(), bPad.size());
  // A scales transposed and padded: [KB, Mpad] (GemmKernelConfig.h).
  std::vector<float> saT = transposeScales(ops.sa, 1, M, KB, c.mPadded());
  uint64_t sa = upload(saT.data(), saT.size() * 4);
  // Per-column B scales [N, KB] transposed and zero-padded: [KB, Np], Np
  // the columns of all tiles (GemmKernelConfig::bScaleColumns).
  std::vector<float> sbT;
  if (c.bScalesPerColumn) {
    if (ops.bBlockRows != 1 || ops.sb.size() != size_t(N) * KB) {
      fail.report = "fp8-emu: error: a kernel with per-column B scales "
                    "needs B scales [N, KB] (1x128 blocks)\n";
      return fail;
    }
    sbT = transposeScales(ops.sb, 1, N, KB, c.bScaleColumns());
  } else if (ops.bBlockRows != 128) {
    fail.report = "fp8-emu: error: the kernel takes B scales of 128x128 "
                  "blocks\n";
    return fail;
  }
  const std::vector<float> &sbHost = c.bScalesPerColumn ? sbT : ops.sb;
  uint64_t sb = upload(sbHost.data(), sbHost.size() * 4);
  const int outBytes = out == KernelElementType::bf16 ? 2 : 4;
  uint64_t d = dev.alloc(size_t(M) * N * outBytes);
  uint64_t cBuf = uploadC(dev, ops.c, ops.cType, size_t(M) * N);

  TensorMap maps[3];
  uint32_t bk = static_cast<uint32_t>(c.blockK),
           bm = static_cast<uint32_t>(c.blockM),
           bn = static_cast<uint32_t>(c.bBoxRows());
  std::string &report = fail.report;
  if (!encodeMap(maps[0], 1, a, {uint64_t(KP), uint64_t(M)}, {bk, bm},
                 TensorMapSwizzle::B128, "A", report) ||
      !encodeMap(maps[1], 1, b, {uint64_t(KP), uint64_t(N)}, {bk, bn},
                 TensorMapSwizzle::B128, "B", report) ||
      !encodeMap(maps[2], 4, sa, {uint64_t(c.mPadded()), uint64_t(KB)}, {bm, 1},
                 TensorMapSwizzle::None, "A scales", report))
    return fail;
  return launchGemm(module, kernel, dev, c,
                    static_cast<uint32_t>(c.gridSize(smCount)), maps, sb, d, M,
                    {cBuf}, size_t(M) * N, outBytes, result, options);
}

std::vector<uint32_t>
mlir::fp8::emu::referenceGemm(const GemmOperands &ops, KernelElementType at,
                              KernelElementType bt, KernelElementType out,
                              WgmmaAccumulateFn accumulate) {
  const int64_t M = ops.m, N = ops.n, K = ops.k, KB = (K + 127) / 128;
  bool ae = at == KernelElementType::e5m2, be = bt == KernelElementType::e5m2;
  std::vector<float> fa(ops.a.size()), fb(ops.b.size());
  for (size_t i = 0; i < fa.size(); ++i)
    fa[i] = decodeFp8(ops.a[i], ae);
  for (size_t i = 0; i < fb.size(); ++i)
    fb[i] = decodeFp8(ops.b[i], be);
  std::vector<uint32_t> res(size_t(M) * N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0.0f;
      if (!ops.c.empty())
        acc = bitsToF32(ops.cType == KernelElementType::bf16
                            ? ops.c[i * N + j] << 16
                            : ops.c[i * N + j]);
      for (int64_t kb = 0; kb < KB; ++kb) {
        float partial = 0.0f;
        int64_t k1 = std::min(K, kb * 128 + 128);
        if (accumulate) {
          for (int64_t g = kb * 128; g < k1; g += 32)
            partial =
                accumulate(partial, &ops.a[i * K + g], ae, &ops.b[j * K + g],
                           be, static_cast<int>(std::min<int64_t>(32, k1 - g)));
        } else {
          for (int64_t k = kb * 128; k < k1; ++k)
            partial += fa[i * K + k] * fb[j * K + k];
        }
        float s = ops.sa[i * KB + kb] * ops.sb[(j / ops.bBlockRows) * KB + kb];
        acc = std::fma(partial, s, acc);
        if (std::isnan(acc)) // the GPU's FFMA: the canonical NaN
          acc = bitsToF32(0x7FFFFFFF);
      }
      res[i * N + j] =
          out == KernelElementType::bf16 ? toBF16(acc) : f32ToBits(acc);
    }
  return res;
}

std::vector<uint32_t> mlir::fp8::emu::referenceGroupedGemm(
    const GroupedGemmOperands &ops, KernelElementType at, KernelElementType bt,
    KernelElementType out, WgmmaAccumulateFn accumulate) {
  const int64_t M = ops.m, N = ops.n, K = ops.k, KB = (K + 127) / 128,
                NB = (N + 127) / 128;
  std::vector<uint32_t> res(size_t(ops.masked ? ops.groups : 1) * M * N, 0);
  // Rows [r0, r0 + rows) of A (and C, D) times B[g], by referenceGemm.
  auto product = [&](int64_t g, int64_t r0, int64_t rows) {
    GemmOperands p;
    p.m = rows;
    p.n = N;
    p.k = K;
    p.a.assign(ops.a.begin() + r0 * K, ops.a.begin() + (r0 + rows) * K);
    p.sa.assign(ops.sa.begin() + r0 * KB, ops.sa.begin() + (r0 + rows) * KB);
    p.b.assign(ops.b.begin() + g * N * K, ops.b.begin() + (g + 1) * N * K);
    p.sb.assign(ops.sb.begin() + g * NB * KB,
                ops.sb.begin() + (g + 1) * NB * KB);
    if (!ops.c.empty()) {
      p.c.assign(ops.c.begin() + r0 * N, ops.c.begin() + (r0 + rows) * N);
      p.cType = ops.cType;
    }
    std::vector<uint32_t> d = referenceGemm(p, at, bt, out, accumulate);
    std::copy(d.begin(), d.end(), res.begin() + r0 * N);
  };
  if (ops.masked) {
    for (int64_t g = 0; g < ops.groups; ++g) {
      int64_t rows = ops.rows.empty() ? M
                                      : std::clamp<int64_t>(ops.rows[g], 0,
                                                            M); // the op clamps
      if (rows)
        product(g, g * M, rows);
    }
    return res;
  }
  for (int64_t r = 0; r < M;) {
    int64_t e = r + 1;
    while (e < M && ops.rows[e] == ops.rows[r])
      ++e;
    if (ops.rows[r] >= 0 && ops.rows[r] < ops.groups)
      product(ops.rows[r], r, e - r);
    r = e;
  }
  return res;
}

LaunchResult mlir::fp8::emu::runQuantize(
    const KernelModule &module, const std::string &kernel,
    const QuantizeKernelConfig &c, bool bf16Input,
    const std::vector<uint32_t> &x, std::vector<uint8_t> &codes,
    std::vector<uint32_t> &scales, const Options &options,
    const std::vector<uint32_t> *inScales) {
  Device dev;
  const int inBytes = inScales ? 1 : bf16Input ? 2 : 4;
  size_t n = size_t(c.rows) * c.cols;
  std::vector<uint8_t> raw = packLowBytes(x, n, inBytes);
  uint64_t px = uploadTo(dev, raw.data(), raw.size());
  uint64_t pq = dev.alloc(n);
  size_t nScales = size_t(c.rowBlocks()) * c.colBlocks();
  uint64_t ps = dev.alloc(nScales * 4);
  LaunchDims dims;
  dims.grid = static_cast<uint32_t>(c.gridSize());
  dims.block = QuantizeKernelConfig::kThreads;
  std::vector<KernelArg> args = {px, pq, ps, static_cast<uint32_t>(c.rows)};
  if (inScales) {
    args.push_back(uploadTo(dev, inScales->data(), inScales->size() * 4));
  }
  LaunchResult r = module.launch(kernel, dev, dims, args, options);
  if (!r.ok)
    return r;
  codes.resize(n);
  dev.read(pq, codes.data(), n);
  scales.resize(nScales);
  dev.read(ps, scales.data(), nScales * 4);
  return r;
}

void mlir::fp8::emu::referenceQuantize(MLIRContext &ctx,
                                       const QuantizeKernelDesc &spec,
                                       int64_t rows,
                                       const std::vector<uint32_t> &x,
                                       std::vector<uint8_t> &codes,
                                       std::vector<uint32_t> &scales) {
  Type fp8 = getFP8Type(ctx, spec.fp8);
  Type scaleType = spec.e8m0 ? Type(Float8E8M0FNUType::get(&ctx))
                             : Type(Float32Type::get(&ctx));
  HostQuantizer q(fp8, scaleType, spec.eps, spec.pow2, /*saturate=*/true);
  const int64_t cols = spec.cols;
  const int64_t br =
      spec.perTensor ? std::max<int64_t>(rows, 1) : spec.blockRows;
  const int64_t bc =
      spec.perTensor ? std::max<int64_t>(cols, 1) : spec.blockCols;
  const int64_t rb = (rows + br - 1) / br, cb = (cols + bc - 1) / bc;
  bool bf16 = spec.input == KernelElementType::bf16;
  auto value = [&](int64_t i, int64_t j) {
    uint32_t b = x[i * cols + j];
    return bitsToF32(bf16 ? b << 16 : b);
  };
  codes.assign(size_t(rows) * cols, 0);
  scales.assign(size_t(rb) * cb, 0);
  for (int64_t bi = 0; bi < rb; ++bi)
    for (int64_t bj = 0; bj < cb; ++bj) {
      int64_t i1 = std::min(rows, (bi + 1) * br),
              j1 = std::min(cols, (bj + 1) * bc);
      float amax = 0.0f;
      for (int64_t i = bi * br; i < i1; ++i)
        for (int64_t j = bj * bc; j < j1; ++j)
          amax = q.updateAmax(amax, value(i, j));
      uint32_t s = q.getStoredScale(amax);
      scales[bi * cb + bj] = s;
      for (int64_t i = bi * br; i < i1; ++i)
        for (int64_t j = bj * bc; j < j1; ++j)
          codes[i * cols + j] = q.quantize(value(i, j), s);
    }
}

void mlir::fp8::emu::referenceRequantize(MLIRContext &ctx,
                                         const QuantizeKernelDesc &spec,
                                         const std::vector<uint32_t> &inCodes,
                                         const std::vector<uint32_t> &inScales,
                                         std::vector<uint8_t> &codes,
                                         std::vector<uint32_t> &scales) {
  Type inType = getFP8Type(ctx, spec.input);
  const int64_t rows = spec.rows, cols = spec.cols;
  const int64_t inScaleCols = (rows + 127) / 128;
  // x [rows, cols] (f32 bits): x[f, t] = decode(in[t, f]) * s_in[t, f/128].
  std::vector<uint32_t> x(size_t(rows) * cols);
  for (int64_t t = 0; t < cols; ++t)
    for (int64_t f = 0; f < rows; ++f) {
      float v =
          hostFP8ToF32(static_cast<uint8_t>(inCodes[t * rows + f]), inType) *
          bitsToF32(inScales[t * inScaleCols + f / 128]);
      x[f * cols + t] = f32ToBits(v);
    }
  QuantizeKernelDesc values = spec;
  values.input = KernelElementType::f32;
  values.transpose = false;
  referenceQuantize(ctx, values, rows, x, codes, scales);
}
