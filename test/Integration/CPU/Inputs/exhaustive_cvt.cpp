//===- exhaustive_cvt.cpp - FP32 -> FP8 vs NVIDIA, all 2^32 inputs --------===//
//
// The oracle is NVIDIA's host implementation in cuda_fp8.h
// (__nv_cvt_float_to_fp8 / __nv_cvt_fp8_to_halfraw), compiled by the host
// C++ compiler. The code under test is the project's conversion as the MLIR
// lowering produces it: Inputs/fp8_cvt_{sat,nosat}.mlir, compiled at build
// time by fp8-opt (fp8-expand-arith + fp8-cpu-pipeline), mlir-translate, opt
// and llc into objects linked here.
//
// Every FP32 bit pattern (NaNs, infinities, subnormals, both zeros) is
// converted to E4M3FN and E5M2, satfinite and non-saturating, and compared
// bit for bit; then all 256 codes of each format are decoded and compared
// with the half-precision reference widened to float (NaN must map to NaN).
// Exit status 1 on any mismatch.
//
//===----------------------------------------------------------------------===//
#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <cuda_fp8.h>

#include <atomic>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

using InF32 = StridedMemRefType<float, 1>;
using OutI8 = StridedMemRefType<int8_t, 1>;

extern "C" {
void _mlir_ciface_cvt_e4m3_sat(InF32 *in, OutI8 *out);
void _mlir_ciface_cvt_e4m3_nosat(InF32 *in, OutI8 *out);
void _mlir_ciface_cvt_e5m2_sat(InF32 *in, OutI8 *out);
void _mlir_ciface_cvt_e5m2_nosat(InF32 *in, OutI8 *out);
void _mlir_ciface_decode_e4m3(OutI8 *in, InF32 *out);
void _mlir_ciface_decode_e5m2(OutI8 *in, InF32 *out);
}

namespace {
struct Mode {
  const char *name;
  void (*ours)(InF32 *, OutI8 *);
  __nv_saturation_t sat;
  __nv_fp8_interpretation_t fmt;
};

const Mode kModes[] = {
    {"e4m3fn satfinite", _mlir_ciface_cvt_e4m3_sat, __NV_SATFINITE, __NV_E4M3},
    {"e4m3fn nosat", _mlir_ciface_cvt_e4m3_nosat, __NV_NOSAT, __NV_E4M3},
    {"e5m2 satfinite", _mlir_ciface_cvt_e5m2_sat, __NV_SATFINITE, __NV_E5M2},
    {"e5m2 nosat", _mlir_ciface_cvt_e5m2_nosat, __NV_NOSAT, __NV_E5M2},
};
constexpr int kNumModes = 4;
constexpr uint64_t kChunk = 1u << 16;
constexpr uint64_t kNumChunks = (1ull << 32) / kChunk;

template <typename T> StridedMemRefType<T, 1> view(T *data, int64_t n) {
  StridedMemRefType<T, 1> m;
  m.basePtr = m.data = data;
  m.offset = 0;
  m.sizes[0] = n;
  m.strides[0] = 1;
  return m;
}

std::atomic<uint64_t> mismatches[kNumModes];
std::mutex printMutex;
int printed = 0;

void report(const Mode &mode, uint32_t bits, unsigned ours, unsigned ref) {
  std::lock_guard<std::mutex> lock(printMutex);
  if (printed++ < 20) {
    float f;
    std::memcpy(&f, &bits, 4);
    std::printf("MISMATCH %s: x = 0x%08" PRIx32 " (%a): ours 0x%02x, "
                "NVIDIA 0x%02x\n",
                mode.name, bits, f, ours, ref);
  }
}

void worker(unsigned id, unsigned numThreads) {
  std::vector<uint32_t> in(kChunk);
  std::vector<int8_t> out(kChunk);
  for (uint64_t c = id; c < kNumChunks; c += numThreads) {
    for (uint64_t i = 0; i < kChunk; ++i)
      in[i] = uint32_t(c * kChunk + i);
    auto inView = view(reinterpret_cast<float *>(in.data()), kChunk);
    auto outView = view(out.data(), kChunk);
    for (int m = 0; m < kNumModes; ++m) {
      kModes[m].ours(&inView, &outView);
      uint64_t bad = 0;
      for (uint64_t i = 0; i < kChunk; ++i) {
        float f;
        std::memcpy(&f, &in[i], 4);
        unsigned ref =
            __nv_cvt_float_to_fp8(f, kModes[m].sat, kModes[m].fmt) & 0xFF;
        unsigned ours = uint8_t(out[i]);
        if (ours != ref) {
          ++bad;
          report(kModes[m], in[i], ours, ref);
        }
      }
      mismatches[m] += bad;
    }
  }
}

float halfToFloat(unsigned short bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return float(h);
}

uint64_t checkDecode(const char *name, void (*ours)(OutI8 *, InF32 *),
                     __nv_fp8_interpretation_t fmt) {
  std::vector<int8_t> codes(256);
  std::vector<float> out(256);
  for (int i = 0; i < 256; ++i)
    codes[i] = int8_t(i);
  auto inView = view(codes.data(), 256);
  auto outView = view(out.data(), 256);
  ours(&inView, &outView);
  uint64_t bad = 0;
  for (int i = 0; i < 256; ++i) {
    float ref = halfToFloat(__nv_cvt_fp8_to_halfraw(uint8_t(i), fmt).x);
    bool ok = std::isnan(ref) ? std::isnan(out[i])
                              : std::memcmp(&ref, &out[i], 4) == 0;
    if (!ok) {
      ++bad;
      std::printf("MISMATCH decode %s: code 0x%02x: ours %a, NVIDIA %a\n", name,
                  i, out[i], ref);
    }
  }
  std::printf("decode %s: 256 codes, %" PRIu64 " mismatches\n", name, bad);
  return bad;
}
} // namespace

int main() {
  uint64_t bad = checkDecode("e4m3fn", _mlir_ciface_decode_e4m3, __NV_E4M3);
  bad += checkDecode("e5m2", _mlir_ciface_decode_e5m2, __NV_E5M2);

  // Two threads: the suite shares a 2-core machine.
  const unsigned numThreads = 2;
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < numThreads; ++t)
    threads.emplace_back(worker, t, numThreads);
  for (std::thread &t : threads)
    t.join();
  for (int m = 0; m < kNumModes; ++m) {
    std::printf("%s: %" PRIu64 " inputs, %" PRIu64 " mismatches\n",
                kModes[m].name, uint64_t(1) << 32, mismatches[m].load());
    bad += mismatches[m];
  }
  return bad == 0 ? 0 : 1;
}
