//===- TensorMapABI.h - memref descriptor -> TMA tensor map geometry ------===//
//
// The host ABI of `mgpuTensorMapEncodeTiledMemref` (the entry point upstream
// `gpu-to-llvm` emits for `nvgpu.tma.create.descriptor`): a ranked memref
// descriptor and a box in memref order (outermost first), turned into the
// arguments `cuTensorMapEncodeTiled` takes (dimensions innermost first, byte
// strides of the outer dimensions). One definition for both runtimes that
// implement the entry point: the CUDA one (runtime/) and the emulated device
// (lib/Emulator/Runtime), so that the emulator tests check the decoding the
// GPU runs. Header-only and free of MLIR and CUDA headers.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_TARGET_HOPPER_TENSORMAPABI_H
#define FP8_TARGET_HOPPER_TENSORMAPABI_H

#include <cstdint>

namespace mlir::fp8::tma {

/// Bytes per element of each CUtensorMapDataType, in enum order (CUDA driver
/// API, CUtensorMapDataType: UINT8, UINT16, UINT32, INT32, UINT64, INT64,
/// FLOAT16, FLOAT32, FLOAT64, BFLOAT16, FLOAT32_FTZ, TFLOAT32, TFLOAT32_FTZ).
constexpr uint32_t kTensorMapElementBytes[] = {1, 2, 4, 4, 8, 8, 2,
                                               4, 8, 2, 4, 4, 4};
constexpr int64_t kTensorMapDataTypes = 13;
/// cuTensorMapEncodeTiled takes at most 5 dimensions (CUDA driver API).
constexpr int64_t kTensorMapMaxRank = 5;

/// The arguments of cuTensorMapEncodeTiled for one memref, innermost
/// dimension first; entries past the rank hold the driver's neutral values.
struct TensorMapGeometry {
  uint64_t globalAddress = 0; ///< aligned pointer + offset, in bytes
  uint64_t globalDim[kTensorMapMaxRank] = {1, 1, 1, 1, 1};
  uint64_t globalStrides[kTensorMapMaxRank] = {0, 0, 0, 0, 0}; ///< bytes
  uint32_t box[kTensorMapMaxRank] = {1, 1, 1, 1, 1};
  uint32_t elementStrides[kTensorMapMaxRank] = {1, 1, 1, 1, 1};
  uint32_t elementBytes = 0;
  /// The innermost dimension's stride in elements (TMA needs 1).
  int64_t innermostStride = 1;
};

/// Decodes `descriptor`, a ranked memref descriptor {allocated, aligned,
/// offset, sizes[rank], strides[rank]} (int64 fields), and `boxDims` (rank
/// entries, outermost first). The caller checks 1 <= rank <=
/// kTensorMapMaxRank and 0 <= dataType < kTensorMapDataTypes.
inline TensorMapGeometry decodeTiledMemref(int64_t rank, const void *descriptor,
                                           int64_t dataType,
                                           const int64_t *boxDims) {
  const auto *fields = static_cast<const int64_t *>(descriptor);
  const int64_t *sizes = fields + 3, *strides = fields + 3 + rank;
  TensorMapGeometry g;
  g.elementBytes = kTensorMapElementBytes[dataType];
  g.globalAddress = static_cast<uint64_t>(fields[1]) +
                    static_cast<uint64_t>(fields[2]) * g.elementBytes;
  for (int64_t i = 0; i < rank; ++i) {
    g.globalDim[i] = static_cast<uint64_t>(sizes[rank - 1 - i]);
    g.box[i] = static_cast<uint32_t>(boxDims[rank - 1 - i]);
  }
  for (int64_t i = 0; i + 1 < rank; ++i)
    g.globalStrides[i] =
        static_cast<uint64_t>(strides[rank - 2 - i]) * g.elementBytes;
  g.innermostStride = strides[rank - 1];
  return g;
}

} // namespace mlir::fp8::tma

#endif // FP8_TARGET_HOPPER_TENSORMAPABI_H
