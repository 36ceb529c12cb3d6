//===- WgmmaFragment.h - wgmma fragments, descriptors -----------*- C++ -*-===//
//
// Facts of the PTX ISA's asynchronous warpgroup MMA (wgmma, sm_90a) that the
// GPU lowering and its tests share, written once:
//
// 1. The accumulator fragment map of `wgmma.mma_async.m64nNk{8,16,32}` with
//    f32 (or s32) accumulators: which (row, col) of the 64 x N tile thread `t`
//    of the warpgroup holds in its register `d<i>`. PTX ISA 8.x, section
//    "Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions ->
//    Register Fragments and Shared Memory Matrix Layouts -> Matrix Fragments
//    for wgmma.mma_async .m64nNk32" (figure "WGMMA .m64nNk32 register fragment
//    layout for accumulator matrix D"). Warp w of the warpgroup owns rows
//    16w .. 16w+15; inside a warp the layout is the mma.m16n8 accumulator
//    layout (groupID = lane / 4, threadID_in_group = lane % 4) repeated every
//    8 columns: registers 4j .. 4j+3 cover columns 8j .. 8j+7.
//
// 2. The 64-bit shared-memory matrix descriptor (PTX ISA "Matrix Descriptor
//    Format"): bits [0,14) start address >> 4, [16,30) leading-dimension
//    byte offset >> 4, [32,46) stride-dimension byte offset >> 4, [49,52)
//    base offset, [62,64) swizzle mode (0 none, 1 128B, 2 64B, 3 32B).
//
// Used by the kernel generator (lib/Conversion/FP8ToNVVM) for the promotion
// epilogue's A-scale fetch and for the output store, and unit-tested against
// hand-derived entries of the ISA figures (unittests/Target/Hopper).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_CONVERSION_WGMMAFRAGMENT_H
#define FP8_CONVERSION_WGMMAFRAGMENT_H

#include <cstdint>

namespace mlir {
namespace fp8 {
namespace wgmma {

/// Threads in a warpgroup and rows of one wgmma accumulator tile.
constexpr int64_t kWarpgroupThreads = 128;
constexpr int64_t kTileM = 64;
/// K of one FP8 (e4m3/e5m2) wgmma: 32 elements = 32 bytes of a K-major row.
constexpr int64_t kFp8K = 32;

/// True if N is a legal wgmma N for FP8 inputs (multiples of 8, 8..256).
constexpr bool isValidFp8N(int64_t n) {
  return n >= 8 && n <= 256 && n % 8 == 0;
}

/// Number of 32-bit accumulator registers per thread for m64nN (f32 D).
constexpr int64_t accumulatorRegisters(int64_t n) { return n / 2; }

struct FragmentCoord {
  int64_t row;
  int64_t col;
  constexpr bool operator==(const FragmentCoord &o) const {
    return row == o.row && col == o.col;
  }
};

/// Row of the 64 x N accumulator tile held by register `reg` of warpgroup
/// thread `thread` (0..127). Independent of N.
constexpr int64_t accumulatorRow(int64_t thread, int64_t reg) {
  int64_t warp = thread / 32, lane = thread % 32;
  return 16 * warp + lane / 4 + 8 * ((reg / 2) % 2);
}

/// Column of the accumulator tile held by register `reg` of `thread`.
constexpr int64_t accumulatorCol(int64_t thread, int64_t reg) {
  int64_t lane = thread % 32;
  return 8 * (reg / 4) + 2 * (lane % 4) + reg % 2;
}

constexpr FragmentCoord accumulatorCoord(int64_t thread, int64_t reg) {
  return {accumulatorRow(thread, reg), accumulatorCol(thread, reg)};
}

/// A thread's registers cover exactly two rows of the tile: `rowBase` (for
/// registers with (reg / 2) % 2 == 0) and rowBase + 8. So the promotion
/// epilogue needs exactly two A scales per thread and K block.
constexpr int64_t accumulatorRowBase(int64_t thread) {
  return accumulatorRow(thread, 0);
}
constexpr int64_t accumulatorRowSlot(int64_t reg) { return (reg / 2) % 2; }

/// The map split into a per-thread part and a per-register (compile-time)
/// part, as generated code uses it: row = rowBase(t) + rowOffset(r),
/// col = colBase(t) + colOffset(r).
constexpr int64_t accumulatorRowOffset(int64_t reg) {
  return 8 * accumulatorRowSlot(reg);
}
constexpr int64_t accumulatorColBase(int64_t thread) {
  return 2 * ((thread % 32) % 4);
}
constexpr int64_t accumulatorColOffset(int64_t reg) {
  return 8 * (reg / 4) + reg % 2;
}

/// Swizzle modes of the matrix descriptor (bits 62-63).
enum class Swizzle : uint64_t { None = 0, B128 = 1, B64 = 2, B32 = 3 };

/// The constant part of a shared-memory matrix descriptor (everything but the
/// start address): leading/stride byte offsets and swizzle mode.
constexpr uint64_t descriptorConstBits(uint64_t leadingByteOffset,
                                       uint64_t strideByteOffset,
                                       Swizzle swizzle) {
  return (((leadingByteOffset >> 4) & 0x3FFF) << 16) |
         (((strideByteOffset >> 4) & 0x3FFF) << 32) |
         (static_cast<uint64_t>(swizzle) << 62);
}

/// The start-address field of a descriptor for a shared-memory address.
constexpr uint64_t descriptorAddressBits(uint64_t sharedAddress) {
  return (sharedAddress & 0x3FFFF) >> 4;
}

/// K-major operand tile with 128-byte swizzle, as TMA writes it with
/// CU_TENSOR_MAP_SWIZZLE_128B and a 128-byte inner box: rows of 128 bytes,
/// 8-row (1024-byte) swizzle atoms stacked along M/N, so the stride-dimension
/// offset is 1024 bytes; the leading-dimension offset is unused for swizzled
/// K-major layouts whose K extent fits one atom (set to 0, as CUTLASS does).
constexpr uint64_t kKMajorSw128ConstBits =
    descriptorConstBits(0, 1024, Swizzle::B128);

/// Descriptor increment (in the >>4 encoding) to step to the k-th FP8 k32
/// slice inside a 128-byte swizzled row: 32 bytes -> +2.
constexpr uint64_t kmajorSw128KStep(int64_t k) { return (k * kFp8K) >> 4; }

/// K of one bf16 (or f16) wgmma: 16 elements = 32 bytes of a K-major row.
constexpr int64_t kBF16K = 16;

/// Descriptor increment (>>4 encoding) to the k-th bf16 k16 slice of a
/// K-major 128B-swizzled row: 32 bytes -> +2, as the FP8 k32 step.
constexpr uint64_t kmajorSw128BF16KStep(int64_t k) {
  return (k * kBF16K * 2) >> 4;
}

/// MN-major bf16 operand tile with 128-byte swizzle, as TMA writes a box of
/// 64 MN elements (128 bytes, the inner dimension) x `kRows` K rows with
/// CU_TENSOR_MAP_SWIZZLE_128B: a K row is one 128-byte line, 8 K rows a
/// 1024-byte atom. In the PTX ISA's canonical MN-major layout (CUTLASS's
/// ((T,8,m),(8,k)) : ((1,T,LBO),(8T,SBO)) for SW128) the leading-dimension
/// offset steps to the next 64 elements of MN (the next box: kRows x 128
/// bytes) and the stride-dimension offset to the next 8 K rows (1024).
constexpr uint64_t mnMajorSw128ConstBits(int64_t kRows) {
  return descriptorConstBits(static_cast<uint64_t>(kRows) * 128, 1024,
                             Swizzle::B128);
}

/// Descriptor increment (>>4 encoding) to the k-th k16 slice of an MN-major
/// 128B-swizzled tile: 16 K rows of 128 bytes -> +128.
constexpr uint64_t mnmajorSw128KStep(int64_t k) {
  return (k * kBF16K * 128) >> 4;
}

} // namespace wgmma
} // namespace fp8
} // namespace mlir

#endif // FP8_CONVERSION_WGMMAFRAGMENT_H
