//===- bench_numerics.cpp - FP8 recipe error tables from the CPU lowering -===//
//
// Prints the tables of docs/numerics.md. Every FP8 code, scale and GEMM
// result comes from the project's lowering (kernels.mlir.in compiled through
// fp8-cpu-pipeline into objects linked here); this file only generates
// inputs (fixed seed, its own generator so the numbers do not depend on the
// C++ library), computes FP64 references and the statistics, and runs the
// compiled GEMMs on row slices in parallel threads.
//
//   1. 32x4096 N(0,1) activations with one outlier channel scaled by R:
//      per-tensor vs 1x128-tile quantization to E4M3FN.
//   2. Accumulation error of 128x128xK GEMMs, K = 512 .. 16384, E4M3FN and
//      E5M2, N(0,1) / N(1,1) / U(0,1) inputs, per-tensor scales: exact f32
//      partials, and Hopper's accumulation (accumulator=sm90) without
//      promotion and with promotion every 512, 256, 128; three metrics.
//   3. DeepSeek-V3's experiment (§3.3.2): 512x512 outputs at K = 4096.
//
//   fp8-bench-numerics [CSV]   (CSV: every measurement of table 2, for
//                               plot.py)
//
//===----------------------------------------------------------------------===//
#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

template <typename T> using MR2 = StridedMemRefType<T, 2>;

using QuantFn = void(MR2<float> *, MR2<int8_t> *, MR2<float> *);
using GemmFn = void(MR2<int8_t> *, MR2<float> *, MR2<int8_t> *, MR2<float> *,
                    MR2<float> *);

#define FORMAT_KERNELS(F, S)                                                   \
  QuantFn _mlir_ciface_quant_##F##_##S;                                        \
  GemmFn _mlir_ciface_gemm_##F##_128_##S;                                      \
  GemmFn _mlir_ciface_gemm_##F##_256_##S;                                      \
  GemmFn _mlir_ciface_gemm_##F##_512_##S;                                      \
  GemmFn _mlir_ciface_gemm_##F##_16384_##S;
#define KERNELS(S)                                                             \
  void _mlir_ciface_act_tile_##S(MR2<float> *, MR2<int8_t> *, MR2<float> *);   \
  void _mlir_ciface_act_tensor_##S(MR2<float> *, MR2<int8_t> *, MR2<float> *); \
  FORMAT_KERNELS(e4m3, S)                                                      \
  FORMAT_KERNELS(e5m2, S)
extern "C" {
KERNELS(exact)
KERNELS(sm90)
}

namespace {
constexpr uint64_t kSeed = 20241226; // fixed: the tables are reproducible

/// splitmix64 + Box-Muller: portable, unlike std::normal_distribution.
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return ((next() >> 11) + 0.5) * 0x1.0p-53; }
  double normal() {
    double u = uniform(), v = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v);
  }
};

template <typename T> MR2<T> view(T *data, int64_t rows, int64_t cols) {
  MR2<T> m;
  m.basePtr = m.data = data;
  m.offset = 0;
  m.sizes[0] = rows;
  m.sizes[1] = cols;
  m.strides[0] = cols;
  m.strides[1] = 1;
  return m;
}

/// FP8 code -> value, from the formats' definitions (E4M3FN: bias 7, 3
/// mantissa bits, NaN at 0x7F/0xFF; E5M2: bias 15, 2 mantissa bits, Inf/NaN
/// at exponent field 31; subnormals at exponent field 0): the benchmark's own
/// decoder for the FP64 reference of the quantized operands.
double decodeFP8(uint8_t c, bool e5m2) {
  int mb = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  int e = (c & 0x7F) >> mb, m = c & ((1 << mb) - 1);
  if ((!e5m2 && (c & 0x7F) == 0x7F) || (e5m2 && e == 31))
    return NAN;
  double v = e == 0 ? std::ldexp(m, 1 - bias - mb)
                    : std::ldexp((1 << mb) + m, e - bias - mb);
  return (c & 0x80) ? -v : v;
}

//===----------------------------------------------------------------------===//
// Table 1: activation quantization with an outlier channel
//===----------------------------------------------------------------------===//

void activationTable() {
  const int64_t rows = 32, cols = 4096, outlier = 100;
  std::printf("Table 1. E4M3FN quantization of 32x4096 N(0,1) activations, "
              "channel %lld scaled by R\n",
              (long long)outlier);
  std::printf("(relative RMS error = sqrt(mean(((xq - x) / x)^2)); flushed: "
              "x != 0 encoded as +-0; subnormal: codes with exponent field "
              "0)\n\n");
  std::printf(
      "| R | scaling | rel. RMS error | flushed to zero | subnormal |\n");
  std::printf("|---:|---|---:|---:|---:|\n");
  std::vector<float> x(rows * cols), deq(rows * cols);
  std::vector<int8_t> codes(rows * cols);
  for (double r : {1.0, 100.0, 1000.0, 10000.0}) {
    Rng rng{kSeed};
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        x[i * cols + j] = float(rng.normal() * (j == outlier ? r : 1.0));
    for (int mode = 0; mode < 2; ++mode) {
      auto xv = view(x.data(), rows, cols);
      auto cv = view(codes.data(), rows, cols);
      auto dv = view(deq.data(), rows, cols);
      if (mode == 0)
        _mlir_ciface_act_tensor_exact(&xv, &cv, &dv);
      else
        _mlir_ciface_act_tile_exact(&xv, &cv, &dv);
      double sum = 0;
      int64_t flushed = 0, subnormal = 0, n = rows * cols;
      for (int64_t i = 0; i < n; ++i) {
        double rel = (double(deq[i]) - x[i]) / x[i];
        sum += rel * rel;
        uint8_t c = uint8_t(codes[i]);
        if ((c & 0x7F) == 0 && x[i] != 0)
          ++flushed;
        else if ((c & 0x78) == 0)
          ++subnormal;
      }
      std::printf("| %g | %s | %.2f%% | %.2f%% | %.2f%% |\n", r,
                  mode == 0 ? "per-tensor" : "1x128 tiles",
                  100 * std::sqrt(sum / n), 100.0 * flushed / n,
                  100.0 * subnormal / n);
    }
  }
  std::printf("\n");
}

//===----------------------------------------------------------------------===//
// Tables 2-3: GEMM accumulation error
//===----------------------------------------------------------------------===//

enum class Dist { Normal01, Normal11, Uniform01 };
const char *distName(Dist d) {
  switch (d) {
  case Dist::Normal01:
    return "N(0,1)";
  case Dist::Normal11:
    return "N(1,1)";
  case Dist::Uniform01:
    return "U(0,1)";
  }
  return "?";
}

/// An [rows, K] operand: N(0,1), N(1,1) or U(0,1) values, quantized with one
/// per-tensor scale by the lowering, and its dequantized values in FP64.
struct Operand {
  std::vector<int8_t> codes;
  float scale;
  std::vector<double> values;
};

Operand makeOperand(int64_t rows, int64_t K, Dist dist, bool e5m2,
                    uint64_t seed) {
  Rng rng{seed};
  std::vector<float> x(rows * K);
  for (float &v : x)
    v = float(dist == Dist::Uniform01  ? rng.uniform()
              : dist == Dist::Normal11 ? 1.0 + rng.normal()
                                       : rng.normal());
  Operand op{std::vector<int8_t>(rows * K), 0.0f, {}};
  auto xv = view(x.data(), rows, K);
  auto cv = view(op.codes.data(), rows, K);
  auto sv = view(&op.scale, 1, 1);
  (e5m2 ? _mlir_ciface_quant_e5m2_exact
        : _mlir_ciface_quant_e4m3_exact)(&xv, &cv, &sv);
  op.values.resize(rows * K);
  for (int64_t i = 0; i < rows * K; ++i)
    op.values[i] = decodeFP8(uint8_t(op.codes[i]), e5m2) * op.scale;
  return op;
}

/// R = A B^T in FP64 (the exact product of the quantized operands up to
/// FP64 rounding, ~1e-16 relative).
std::vector<double> reference(const Operand &a, const Operand &b, int64_t M,
                              int64_t N, int64_t K) {
  std::vector<double> r(M * N);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      const double *x = &a.values[m * K], *y = &b.values[n * K];
      double s = 0;
      for (int64_t k = 0; k < K; ++k)
        s += x[k] * y[k];
      r[m * N + n] = s;
    }
  return r;
}

/// Runs a compiled GEMM on row slices of A (and D), one thread each.
std::vector<float> runGemm(GemmFn *fn, Operand &a, Operand &b, int64_t M,
                           int64_t N, int64_t K) {
  std::vector<float> d(M * N);
  int64_t threads = std::max<int64_t>(1, std::thread::hardware_concurrency());
  int64_t rows = (M + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (int64_t m0 = 0; m0 < M; m0 += rows) {
    int64_t mr = std::min(rows, M - m0);
    pool.emplace_back([&, m0, mr] {
      auto av = view(a.codes.data() + m0 * K, mr, K);
      auto bv = view(b.codes.data(), N, K);
      auto sa = view(&a.scale, 1, 1), sb = view(&b.scale, 1, 1);
      auto dv = view(d.data() + m0 * N, mr, N);
      fn(&av, &sa, &bv, &sb, &dv);
    });
  }
  for (std::thread &t : pool)
    t.join();
  return d;
}

/// The three error measures, in percent: ||D - R||_F / ||R||_F,
/// max|D - R| / max|R|, max|D - R| / RMS(R); and max|D - R| / mean|R|.
struct Err {
  double frob, maxMax, maxRms, maxMean;
};

Err compare(const std::vector<float> &d, const std::vector<double> &ref) {
  double num = 0, den = 0, maxDiff = 0, maxRef = 0, sumAbs = 0;
  for (size_t i = 0; i < d.size(); ++i) {
    double diff = d[i] - ref[i];
    num += diff * diff;
    den += ref[i] * ref[i];
    maxDiff = std::max(maxDiff, std::fabs(diff));
    maxRef = std::max(maxRef, std::fabs(ref[i]));
    sumAbs += std::fabs(ref[i]);
  }
  double n = double(d.size());
  return {100 * std::sqrt(num / den), 100 * maxDiff / maxRef,
          100 * maxDiff / std::sqrt(den / n), 100 * maxDiff / (sumAbs / n)};
}

constexpr int kModels = 5; // exact; sm90 without promotion, 512, 256, 128
const char *const kModelNames[kModels] = {
    "f32", "sm90, no promotion", "sm90, promote 512", "sm90, promote 256",
    "sm90, promote 128"};
const char *const kModelKeys[kModels] = {"exact", "sm90", "sm90-512",
                                         "sm90-256", "sm90-128"};

GemmFn *gemmOf(bool e5m2, int model) {
  if (e5m2) {
    GemmFn *fns[kModels] = {
        _mlir_ciface_gemm_e5m2_16384_exact, _mlir_ciface_gemm_e5m2_16384_sm90,
        _mlir_ciface_gemm_e5m2_512_sm90, _mlir_ciface_gemm_e5m2_256_sm90,
        _mlir_ciface_gemm_e5m2_128_sm90};
    return fns[model];
  }
  GemmFn *fns[kModels] = {
      _mlir_ciface_gemm_e4m3_16384_exact, _mlir_ciface_gemm_e4m3_16384_sm90,
      _mlir_ciface_gemm_e4m3_512_sm90, _mlir_ciface_gemm_e4m3_256_sm90,
      _mlir_ciface_gemm_e4m3_128_sm90};
  return fns[model];
}

constexpr int64_t kSweepM = 128, kSweepN = 128;
const int64_t kSweepK[] = {512, 1024, 2048, 4096, 8192, 16384};

void accumulationTables(FILE *csv) {
  const Dist dists[] = {Dist::Normal01, Dist::Normal11, Dist::Uniform01};
  int table = 2;
  for (bool e5m2 : {false, true})
    for (Dist dist : dists) {
      const char *fmt = e5m2 ? "E5M2" : "E4M3FN";
      std::printf(
          "Table %d. Accumulation error of %lldx%lldxK %s GEMMs, %s inputs, "
          "per-tensor scales: result vs the FP64 product of the same FP8 "
          "operands, in %% as ||D - R||_F / ||R||_F, max|D - R| / max|R|, "
          "max|D - R| / RMS(R)\n\n",
          table++, (long long)kSweepM, (long long)kSweepN, fmt, distName(dist));
      std::printf("| K |");
      for (const char *name : kModelNames)
        std::printf(" %s |", name);
      std::printf("\n|---:|");
      for (int v = 0; v < kModels; ++v)
        std::printf("---:|");
      std::printf("\n");
      for (int64_t K : kSweepK) {
        uint64_t seed = kSeed + uint64_t(K) * 16 + uint64_t(dist) * 2 + e5m2;
        Operand a = makeOperand(kSweepM, K, dist, e5m2, seed);
        Operand b = makeOperand(kSweepN, K, dist, e5m2, seed + 0x5EED);
        std::vector<double> ref = reference(a, b, kSweepM, kSweepN, K);
        std::printf("| %lld |", (long long)K);
        for (int v = 0; v < kModels; ++v) {
          Err e =
              compare(runGemm(gemmOf(e5m2, v), a, b, kSweepM, kSweepN, K), ref);
          std::printf(" %.4f / %.4f / %.4f |", e.frob, e.maxMax, e.maxRms);
          if (csv)
            std::fprintf(csv, "%s,\"%s\",%s,%lld,%.6g,%.6g,%.6g\n",
                         e5m2 ? "e5m2" : "e4m3", distName(dist), kModelKeys[v],
                         (long long)K, e.frob, e.maxMax, e.maxRms);
        }
        std::printf("\n");
        std::fflush(stdout);
      }
      std::printf("\n");
    }
}

/// DeepSeek-V3 §3.3.2: "[...] a GEMM with K = 4096 [...] the limited
/// accumulation precision [...] results in a maximum relative error of
/// nearly 2%". 512x512 outputs, K = 4096, E4M3FN.
void deepseekTable() {
  const int64_t M = 512, N = 512, K = 4096;
  std::printf(
      "Table 8. DeepSeek-V3's case: %lldx%lldx%lld E4M3FN GEMMs, per-tensor "
      "scales, accumulation error in %%: ||D - R||_F / ||R||_F, max|D - R| / "
      "max|R|, max|D - R| / RMS(R), max|D - R| / mean|R|\n\n",
      (long long)M, (long long)N, (long long)K);
  std::printf("| inputs | accumulation | Frobenius | max / max|R| | max / "
              "RMS(R) | max / mean|R| |\n|---|---|---:|---:|---:|---:|\n");
  for (Dist dist : {Dist::Normal01, Dist::Normal11, Dist::Uniform01}) {
    uint64_t seed = kSeed + 0xD5 + uint64_t(dist);
    Operand a = makeOperand(M, K, dist, false, seed);
    Operand b = makeOperand(N, K, dist, false, seed + 0x5EED);
    std::vector<double> ref = reference(a, b, M, N, K);
    for (int v : {1, 4}) {
      Err e = compare(runGemm(gemmOf(false, v), a, b, M, N, K), ref);
      std::printf("| %s | %s | %.3f | %.3f | %.3f | %.3f |\n", distName(dist),
                  kModelNames[v], e.frob, e.maxMax, e.maxRms, e.maxMean);
      std::fflush(stdout);
    }
  }
  std::printf("\n");
}
} // namespace

int main(int argc, char **argv) {
  FILE *csv = argc > 1 ? std::fopen(argv[1], "w") : nullptr;
  if (argc > 1 && !csv) {
    std::fprintf(stderr, "fp8-bench-numerics: cannot write '%s'\n", argv[1]);
    return 1;
  }
  if (csv)
    std::fprintf(csv, "format,inputs,accumulation,K,frobenius_pct,"
                      "max_over_max_pct,max_over_rms_pct\n");
  std::printf("fp8-bench-numerics: seed %llu; FP8 codes, scales and GEMM "
              "results computed by the project's CPU lowering "
              "(fp8-cpu-pipeline; sm90 = accumulator=sm90, Hopper's wgmma "
              "accumulation bit for bit)\n\n",
              (unsigned long long)kSeed);
  activationTable();
  accumulationTables(csv);
  deepseekTable();
  if (csv)
    std::fclose(csv);
  return 0;
}
