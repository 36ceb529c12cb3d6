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
  const int64_t rb = QuantizeKernelConfig::ceilDiv(rows, br),
                cb = QuantizeKernelConfig::ceilDiv(cols, bc);
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
