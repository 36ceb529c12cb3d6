//===- bench_numerics.cpp - FP8 recipe error tables from the CPU lowering -===//
//
// Prints the tables of docs/numerics.md. Every FP8 code, scale and GEMM
// result comes from the project's lowering (kernels.mlir.in compiled through
// fp8-cpu-pipeline into objects linked here); this file only generates
// inputs (fixed seed, its own generator so the numbers do not depend on the
// C++ library), computes FP64 references and the statistics.
//
//   1. 32x4096 N(0,1) activations with one outlier channel scaled by R:
//      per-tensor vs 1x128-tile quantization to E4M3FN.
//   2. 64x64xK GEMMs, K = 512 .. 16384, with the emulated 14-bit tensor-core
//      accumulator (accumulator-bits=14) with and without promotion every
//      128, per-tensor vs tile scaling, against FP64.
//
//===----------------------------------------------------------------------===//
#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

template <typename T> using MR2 = StridedMemRefType<T, 2>;

#define KERNELS(S)                                                             \
  void _mlir_ciface_act_tile_##S(MR2<float> *, MR2<int8_t> *, MR2<float> *);   \
  void _mlir_ciface_act_tensor_##S(MR2<float> *, MR2<int8_t> *, MR2<float> *); \
  void _mlir_ciface_quant_a_tile_##S(MR2<float> *, MR2<int8_t> *,              \
                                     MR2<float> *);                            \
  void _mlir_ciface_quant_b_tile_##S(MR2<float> *, MR2<int8_t> *,              \
                                     MR2<float> *);                            \
  void _mlir_ciface_quant_pt_##S(MR2<float> *, MR2<int8_t> *, MR2<float> *);   \
  void _mlir_ciface_gemm_tile_##S(MR2<int8_t> *, MR2<float> *, MR2<int8_t> *,  \
                                  MR2<float> *, MR2<float> *);                 \
  void _mlir_ciface_gemm_pt_promo_##S(                                         \
      MR2<int8_t> *, MR2<float> *, MR2<int8_t> *, MR2<float> *, MR2<float> *); \
  void _mlir_ciface_gemm_pt_nopromo_##S(                                       \
      MR2<int8_t> *, MR2<float> *, MR2<int8_t> *, MR2<float> *, MR2<float> *);
extern "C" {
KERNELS(exact)
KERNELS(acc14)
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

/// E4M3FN code -> value, from the format's definition (bias 7, 3 mantissa
/// bits, subnormals at exponent field 0, NaN at 0x7F/0xFF): the benchmark's
/// own decoder for the FP64 reference of the quantized operands.
double decodeE4M3(uint8_t c) {
  int e = (c >> 3) & 0xF, m = c & 7;
  if ((c & 0x7F) == 0x7F)
    return NAN;
  double v = e == 0 ? std::ldexp(m, -9) : std::ldexp(8 + m, e - 10);
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
// Tables 2-3: GEMM accumulation
//===----------------------------------------------------------------------===//

constexpr int64_t M = 64, N = 64;

struct Quantized {
  std::vector<int8_t> codes;
  std::vector<float> scales; // row-major scale tensor
  int64_t scaleRows, scaleCols;
  /// Dequantized value of element (r, k) for the given block shape.
  double at(int64_t r, int64_t k, int64_t K, int64_t br, int64_t bk) const {
    return decodeE4M3(uint8_t(codes[r * K + k])) *
           scales[(r / br) * scaleCols + k / bk];
  }
};

/// ||d - ref||_F / ||ref||_F and max|d - ref| / max|ref|, in percent.
struct Err {
  double frob, max;
};

Err compare(const std::vector<float> &d, const std::vector<double> &ref) {
  double num = 0, den = 0, maxDiff = 0, maxRef = 0;
  for (size_t i = 0; i < d.size(); ++i) {
    double diff = d[i] - ref[i];
    num += diff * diff;
    den += ref[i] * ref[i];
    maxDiff = std::max(maxDiff, std::fabs(diff));
    maxRef = std::max(maxRef, std::fabs(ref[i]));
  }
  return {100 * std::sqrt(num / den), 100 * maxDiff / maxRef};
}

/// FP64 NT product of two [64, K] operands given element accessors.
template <typename FA, typename FB>
std::vector<double> referenceNT(int64_t K, FA a, FB b) {
  std::vector<double> ref(M * N, 0.0);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k)
        s += a(m, k) * b(n, k);
      ref[m * N + n] = s;
    }
  return ref;
}

void gemmTables(bool positive) {
  const char *dist = positive ? "|N(0,1)|" : "N(0,1)";
  struct Row {
    int64_t K;
    Err acc[5], total[5];
  };
  std::vector<Row> rows;
  for (int64_t K : {512, 1024, 2048, 4096, 8192, 16384}) {
    Rng rng{kSeed + uint64_t(K)};
    std::vector<float> a(M * K), b(N * K);
    for (float &v : a)
      v = float(positive ? std::fabs(rng.normal()) : rng.normal());
    for (float &v : b)
      v = float(positive ? std::fabs(rng.normal()) : rng.normal());
    int64_t kb = (K + 127) / 128;
    auto av = view(a.data(), M, K), bv = view(b.data(), N, K);

    Quantized qaT{std::vector<int8_t>(M * K), std::vector<float>(M * kb), M,
                  kb};
    Quantized qbT{std::vector<int8_t>(N * K), std::vector<float>(kb), 1, kb};
    Quantized qaP{std::vector<int8_t>(M * K), std::vector<float>(1), 1, 1};
    Quantized qbP{std::vector<int8_t>(N * K), std::vector<float>(1), 1, 1};
    auto caT = view(qaT.codes.data(), M, K);
    auto saT = view(qaT.scales.data(), M, kb);
    auto cbT = view(qbT.codes.data(), N, K);
    auto sbT = view(qbT.scales.data(), 1, kb);
    auto caP = view(qaP.codes.data(), M, K);
    auto saP = view(qaP.scales.data(), 1, 1);
    auto cbP = view(qbP.codes.data(), N, K);
    auto sbP = view(qbP.scales.data(), 1, 1);
    _mlir_ciface_quant_a_tile_exact(&av, &caT, &saT);
    _mlir_ciface_quant_b_tile_exact(&bv, &cbT, &sbT);
    _mlir_ciface_quant_pt_exact(&av, &caP, &saP);
    _mlir_ciface_quant_pt_exact(&bv, &cbP, &sbP);

    std::vector<float> d(M * N);
    auto dv = view(d.data(), M, N);
    std::vector<std::vector<float>> out;
    // 0: tiles exact, 1: tiles 14-bit promo 128, 2: per-tensor 14-bit
    // promo 128, 3: per-tensor 14-bit no promotion, 4: per-tensor exact.
    _mlir_ciface_gemm_tile_exact(&caT, &saT, &cbT, &sbT, &dv);
    out.push_back(d);
    _mlir_ciface_gemm_tile_acc14(&caT, &saT, &cbT, &sbT, &dv);
    out.push_back(d);
    _mlir_ciface_gemm_pt_promo_acc14(&caP, &saP, &cbP, &sbP, &dv);
    out.push_back(d);
    _mlir_ciface_gemm_pt_nopromo_acc14(&caP, &saP, &cbP, &sbP, &dv);
    out.push_back(d);
    _mlir_ciface_gemm_pt_nopromo_exact(&caP, &saP, &cbP, &sbP, &dv);
    out.push_back(d);

    std::vector<double> refTrue = referenceNT(
        K, [&](int64_t m, int64_t k) { return double(a[m * K + k]); },
        [&](int64_t n, int64_t k) { return double(b[n * K + k]); });
    std::vector<double> refTile = referenceNT(
        K, [&](int64_t m, int64_t k) { return qaT.at(m, k, K, 1, 128); },
        [&](int64_t n, int64_t k) { return qbT.at(n, k, K, 128, 128); });
    std::vector<double> refPT = referenceNT(
        K, [&](int64_t m, int64_t k) { return qaP.at(m, k, K, M, 16384); },
        [&](int64_t n, int64_t k) { return qbP.at(n, k, K, N, 16384); });
    Row row{K, {}, {}};
    for (int v = 0; v < 5; ++v) {
      bool tile = v < 2;
      row.acc[v] = compare(out[v], tile ? refTile : refPT);
      row.total[v] = compare(out[v], refTrue);
    }
    rows.push_back(row);
  }

  const char *cols =
      "| K | tiles, f32 | tiles, 14-bit, promote 128 | per-tensor, 14-bit, "
      "promote 128 | per-tensor, 14-bit, no promotion | per-tensor, f32 |\n"
      "|---:|---:|---:|---:|---:|---:|\n";
  std::printf("Table %d. Accumulation error of 64x64xK E4M3FN GEMMs, %s "
              "inputs: result vs the FP64 product of the same FP8 operands "
              "(codes x scales), in %% as ||D - R||_F / ||R||_F and "
              "max|D - R| / max|R|\n\n",
              positive ? 4 : 2, dist);
  std::printf("%s", cols);
  for (const Row &r : rows) {
    std::printf("| %lld |", (long long)r.K);
    for (int v = 0; v < 5; ++v)
      std::printf(" %.4f / %.4f |", r.acc[v].frob, r.acc[v].max);
    std::printf("\n");
  }
  std::printf("\nTable %d. Total error of the same GEMMs (quantization + "
              "accumulation): result vs the FP64 product of the unquantized "
              "inputs, in %%, same two measures\n\n",
              positive ? 5 : 3);
  std::printf("%s", cols);
  for (const Row &r : rows) {
    std::printf("| %lld |", (long long)r.K);
    for (int v = 0; v < 5; ++v)
      std::printf(" %.3f / %.3f |", r.total[v].frob, r.total[v].max);
    std::printf("\n");
  }
  std::printf("\n");
}
} // namespace

int main() {
  std::printf("fp8-bench-numerics: seed %llu; FP8 codes, scales and GEMM "
              "results computed by the project's CPU lowering "
              "(fp8-cpu-pipeline; 14-bit = accumulator-bits=14)\n\n",
              (unsigned long long)kSeed);
  activationTable();
  gemmTables(/*positive=*/false);
  gemmTables(/*positive=*/true);
  return 0;
}
