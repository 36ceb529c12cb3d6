//===- SwizzleTest.cpp - the 128-byte swizzle against the hardware's ------===//
//
// TMA writes a 128B-swizzled box and wgmma reads it through a descriptor
// with the same swizzle. A swizzle model wrong the same way on both sides
// keeps every GEMM bit-exact on the emulator while the kernels would read
// permuted operands on an H100, so each side is checked here on its own
// against the hardware's pattern, written down as data.
//
// The oracle (PTX ISA "Tensor-map swizzle modes" and "Shared Memory Matrix
// Layout", CUDA driver CU_TENSOR_MAP_SWIZZLE_128B, CuTe's Swizzle<3, 4, 3>):
// inside each 1024-byte atom of 8 rows x 128 bytes (1024-byte aligned), the
// 16-byte chunk c of row r is stored at chunk c XOR (r % 8) of that row.
// The table below is that rule evaluated by hand; the tests never call the
// emulator's swizzle function.
//
//===----------------------------------------------------------------------===//
#include "KernelFrame.h"
#include "fp8/Emulator/Emulator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::fp8::emu;

namespace {

/// kStoredChunk[r % 8][c]: where the 128B swizzle stores 16-byte chunk c of
/// row r of an atom (derived by hand: c XOR (r % 8)).
constexpr int kStoredChunk[8][8] = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6},
    {2, 3, 0, 1, 6, 7, 4, 5}, {3, 2, 1, 0, 7, 6, 5, 4},
    {4, 5, 6, 7, 0, 1, 2, 3}, {5, 4, 7, 6, 1, 0, 3, 2},
    {6, 7, 4, 5, 2, 3, 0, 1}, {7, 6, 5, 4, 3, 2, 1, 0},
};

/// Byte offset, inside a run of whole atoms, at which the hardware stores
/// byte `col` of row `row` (128-byte rows).
uint32_t swizzledOffset(uint32_t row, uint32_t col) {
  return row * 128 + kStoredChunk[row % 8][col / 16] * 16 + col % 16;
}

/// The value of an e4m3 code by the format's definition (OCP FP8, E4M3:
/// bias 7, no infinities; the test avoids the NaN codes 0x7F / 0xFF).
double e4m3Value(uint8_t code) {
  int exp = (code >> 3) & 0xF, mant = code & 7;
  double mag =
      exp ? std::ldexp(1.0 + mant / 8.0, exp - 7) : std::ldexp(mant / 8.0, -6);
  return code & 0x80 ? -mag : mag;
}

std::string kernelModule(const std::string &body) {
  return emutest::kernelModuleText("swizzle", "%g: !llvm.ptr, %map: !llvm.ptr",
                                   128,
                                   R"(    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %off = arith.muli %tid, %c16 : i32
    %is0 = arith.cmpi eq, %tid, %c0 : i32
)" + body + R"(
    llvm.return)");
}

/// Runs @k on 128 threads with `sharedBytes` of dynamic shared memory over
/// a global buffer holding `global` (and written back into it); %map is a
/// tensor map of the buffer's first `mapRows` rows of 128 bytes, box
/// {128, mapRows}, 128B swizzle. Returns the fault report, "" if none.
std::string run(const std::string &body, std::vector<uint8_t> &global,
                uint32_t sharedBytes, uint32_t mapRows) {
  emutest::TranslatedKernels t = emutest::translateKernels(kernelModule(body));
  if (!t.kernels)
    return t.error;
  KernelModule *km = t.kernels.get();
  Device dev;
  uint64_t g = dev.alloc(global.size()), map = dev.alloc(256);
  dev.write(g, global.data(), global.size());
  TensorMap tm;
  uint64_t dims[2] = {128, mapRows}, strides[1] = {128};
  uint32_t box[2] = {128, mapRows};
  std::string enc = encodeTensorMapTiled(tm, 1, 2, g, dims, strides, box,
                                         nullptr, TensorMapSwizzle::B128);
  if (!enc.empty())
    return enc;
  dev.write(map, &tm, sizeof(tm));
  LaunchDims dims3;
  dims3.block = 128;
  dims3.dynamicSharedBytes = sharedBytes;
  LaunchResult r = km->launch("k", dev, dims3, {g, map}, Options());
  dev.read(g, global.data(), global.size());
  return r.ok ? "" : r.report;
}

// TMA: a {128, 16} box of u8 (two atoms) lands at shared offset 1024; every
// thread then copies 16 bytes of shared memory, as stored, back to global
// memory at 2048. Each byte must sit where the table puts it.
TEST(EmulatorSwizzle, TmaStoresTheHardwarePattern) {
  constexpr uint32_t kRows = 16, kBox = kRows * 128;
  std::vector<uint8_t> global(2 * kBox);
  for (uint32_t i = 0; i < kBox; ++i) // byte j of chunk q: 4 q + j % 4
    global[i] = static_cast<uint8_t>(4 * (i / 16) + i % 4);
  const char *body = R"(
    %mb = llvm.getelementptr %s[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    scf.if %is0 {
      nvvm.mbarrier.init %mb, %c1 : !llvm.ptr<3>, i32
    }
    nvvm.barrier0
    %box = llvm.getelementptr %s[1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    scf.if %is0 {
      %tx = arith.constant 2048 : i32
      nvvm.mbarrier.arrive.expect_tx %mb, %tx : !llvm.ptr<3>, i32
      %box7 = llvm.addrspacecast %box : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %box7, %map, %mb, box[%c0, %c0] : !llvm.ptr<7>, !llvm.ptr
    }
    nvvm.mbarrier.try_wait.parity %mb, %c0, %c64 : !llvm.ptr<3>, i32, i32
    %src = llvm.getelementptr %box[%off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    %v = llvm.load %src : !llvm.ptr<3> -> vector<4xi32>
    %out = llvm.getelementptr %g[2048] : (!llvm.ptr) -> !llvm.ptr, i8
    %dst = llvm.getelementptr %out[%off] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    llvm.store %v, %dst : vector<4xi32>, !llvm.ptr)";
  ASSERT_EQ(run(body, global, 1024 + kBox, kRows), "");
  int wrong = 0;
  for (uint32_t row = 0; row < kRows; ++row)
    for (uint32_t col = 0; col < 128; ++col)
      if (global[kBox + swizzledOffset(row, col)] != global[row * 128 + col] &&
          ++wrong <= 5)
        ADD_FAILURE() << "row " << row << " byte " << col
                      << " is not at stored chunk "
                      << kStoredChunk[row % 8][col / 16];
  EXPECT_EQ(wrong, 0);
}

// wgmma: A (64 x 128 e4m3, 8 atoms) and B (8 x 128, one atom) are written
// into shared memory with plain stores, already swizzled by the table, and
// four m64n8k32 wgmmas read them through 128B-swizzle K-major descriptors
// whose start address steps 32 bytes along K (k-steps 0..3 of the atom, as
// the GEMM kernels advance them). B row n holds 1.0 at k % 32 == 4 n, so
// D[m][n] of step s is A[m][32 s + 4 n]: the element the descriptor reads.
// A[m][k]'s code names its row (m % 8, sign: m / 8 odd) and chunk k / 16.
uint8_t codeA(uint32_t m, uint32_t k) {
  return static_cast<uint8_t>(((m / 8) % 2) << 7 |
                              (0x08 + (m % 8) * 8 + k / 16));
}

TEST(EmulatorSwizzle, WgmmaReadsTheHardwarePattern) {
  constexpr uint32_t kBOffset = 8192, kImage = 10240, kOut = kImage;
  std::vector<uint8_t> global(kImage + 4 * 128 * 16, 0);
  for (uint32_t m = 0; m < 64; ++m)
    for (uint32_t k = 0; k < 128; ++k)
      global[swizzledOffset(m, k)] = codeA(m, k);
  for (uint32_t n = 0; n < 8; ++n)
    for (uint32_t k = 0; k < 128; ++k)
      global[kBOffset + swizzledOffset(n, k)] = k % 32 == 4 * n ? 0x38 : 0;
  // Copy the image into shared memory (5 chunks of 16 bytes per thread).
  std::string body;
  for (int i = 0; i < 5; ++i) {
    std::string n = std::to_string(i);
    body += "    %ci" + n + " = arith.constant " + std::to_string(i * 2048) +
            " : i32\n    %o" + n + " = arith.addi %off, %ci" + n +
            " : i32\n    %gs" + n + " = llvm.getelementptr %g[%o" + n +
            "] : (!llvm.ptr, i32) -> !llvm.ptr, i8\n    %v" + n +
            " = llvm.load %gs" + n + " : !llvm.ptr -> vector<4xi32>\n    %sd" +
            n + " = llvm.getelementptr %s[%o" + n +
            "] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8\n    llvm.store %v" +
            n + ", %sd" + n + " : vector<4xi32>, !llvm.ptr<3>\n";
  }
  body += "    nvvm.barrier0\n";
  // Descriptors: start >> 4 in bits 0-13 (shared memory starts at 0x400),
  // LBO 1 (unused by a swizzled K-major operand), SBO 1024 >> 4 = 64 in
  // bits 32-45, mode 1 (128B swizzle) in bits 62-63.
  auto desc = [](uint64_t start) {
    return (start >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
  };
  const char *acc = "!llvm.struct<(f32, f32, f32, f32)>";
  for (int s = 0; s < 4; ++s) {
    std::string n = std::to_string(s);
    body += "    %da" + n + " = arith.constant " +
            std::to_string(desc(0x400 + 32 * s)) + " : i64\n    %db" + n +
            " = arith.constant " +
            std::to_string(desc(0x400 + kBOffset + 32 * s)) +
            " : i64\n    %acc" + n + " = llvm.mlir.undef : " + acc +
            "\n    nvvm.wgmma.fence.aligned\n    %r" + n +
            " = nvvm.wgmma.mma_async %da" + n + ", %db" + n + ", %acc" + n +
            ", <m = 64, n = 8, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, "
            "<row>], B[<e4m3>, <one>, <col>] : " +
            acc + " -> " + acc +
            "\n    nvvm.wgmma.commit.group.sync.aligned\n    "
            "nvvm.wgmma.wait.group.sync.aligned 0\n";
    for (int r = 0; r < 4; ++r) {
      std::string nr = n + "_" + std::to_string(r);
      body += "    %e" + nr + " = llvm.extractvalue %r" + n + "[" +
              std::to_string(r) + "] : " + acc + "\n    %eo" + nr +
              " = arith.constant " + std::to_string(kOut + s * 2048 + r * 4) +
              " : i32\n    %ea" + nr + " = arith.addi %off, %eo" + nr +
              " : i32\n    %ep" + nr + " = llvm.getelementptr %g[%ea" + nr +
              "] : (!llvm.ptr, i32) -> !llvm.ptr, i8\n    llvm.store %e" + nr +
              ", %ep" + nr + " : f32, !llvm.ptr\n";
    }
  }
  ASSERT_EQ(run(body, global, kImage, 16), "");
  // The accumulator fragment (PTX ISA "Matrix Fragments for wgmma .m64nNk32"):
  // thread t's register r holds row 16 (t / 32) + (t % 32) / 4 + 8 (r / 2),
  // column 2 (t % 4) + r % 2 (N = 8).
  int wrong = 0;
  for (uint32_t s = 0; s < 4; ++s)
    for (uint32_t t = 0; t < 128; ++t)
      for (uint32_t r = 0; r < 4; ++r) {
        uint32_t m = 16 * (t / 32) + (t % 32) / 4 + 8 * (r / 2);
        uint32_t n = 2 * (t % 4) + r % 2;
        float d;
        std::memcpy(&d, &global[kOut + s * 2048 + t * 16 + r * 4], 4);
        double want = e4m3Value(codeA(m, 32 * s + 4 * n));
        if (d != want && ++wrong <= 5)
          ADD_FAILURE() << "k-step " << s << ": D[" << m << "][" << n
                        << "] = " << d << ", want A[" << m << "]["
                        << 32 * s + 4 * n << "] = " << want;
      }
  EXPECT_EQ(wrong, 0);
}

} // namespace
