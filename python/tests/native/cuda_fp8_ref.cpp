//===- cuda_fp8_ref.cpp - NVIDIA's host FP8 conversions for ctypes --------===//
//
// The oracle of python/tests/test_cuda_fp8_reference.py: cuda_fp8.h's host
// implementations of __nv_cvt_float_to_fp8 (RNE, satfinite or not) and
// __nv_cvt_fp8_to_halfraw, compiled by the host compiler (no GPU needed).
//
//===----------------------------------------------------------------------===//
#include <cuda_fp8.h>

#include <cstdint>

namespace {
__nv_fp8_interpretation_t interpretation(int format) {
  return format == 0 ? __NV_E4M3 : __NV_E5M2;
}
} // namespace

extern "C" {

/// out[i] = __nv_cvt_float_to_fp8(x[i]); format 0 = E4M3, 1 = E5M2.
void fp8_ref_encode(const float *x, uint8_t *out, int64_t n, int format,
                    int saturate) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = __nv_cvt_float_to_fp8(x[i], saturate ? __NV_SATFINITE : __NV_NOSAT,
                                   interpretation(format));
}

/// out[i] = bits of the IEEE half that __nv_cvt_fp8_to_halfraw returns (every
/// FP8 value is exact in half precision).
void fp8_ref_decode_half_bits(const uint8_t *q, uint16_t *out, int64_t n,
                              int format) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = __nv_cvt_fp8_to_halfraw(q[i], interpretation(format)).x;
}

} // extern "C"
