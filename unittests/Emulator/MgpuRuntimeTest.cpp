//===- MgpuRuntimeTest.cpp - the mgpu* ABI on the emulated device ---------===//
//
// Drives libfp8_emu_mgpu as gpu-to-llvm host code drives upstream's CUDA
// runtime wrappers: load the kernels' module blob, allocate, copy, encode
// the three tensor maps of the GEMM ABI (GemmKernelConfig.h) with CUDA's
// enum values, launch with `void **params`, copy back. The result must equal
// the emulator's independent host reference bit for bit; API misuse must be
// reported, not crash.
//
//===----------------------------------------------------------------------===//
#include "fp8/Emulator/MgpuRuntime.h"
#include "fp8/Emulator/Kernels.h"
#include "fp8/InitAll.h"
#include "fp8/Target/Hopper/GemmBScaleStaging.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <random>
#include <vector>

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// The NVVM-level kernels of one M x N x K GEMM: the gpu.module as MLIR
/// text.
std::string lowerGemm(int64_t m, int64_t n, int64_t k) {
  static bool registered = [] {
    registerAllPasses();
    fp8::registerFP8Passes();
    return true;
  }();
  (void)registered;
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  fp8::registerFP8Dialect(registry);
  MLIRContext ctx(registry);
  auto ty = [](int64_t r, int64_t c, const char *blk) {
    return "!fp8.scaled<" + std::to_string(r) + "x" + std::to_string(c) +
           "xf8E4M3FN, block = " + blk + ", scale = f32>";
  };
  std::string a = ty(m, k, "[1, 128]"), b = ty(n, k, "[128, 128]");
  std::string out =
      "tensor<" + std::to_string(m) + "x" + std::to_string(n) + "xbf16>";
  std::string text = "func.func @g(%a: " + a + ", %b: " + b + ") -> " + out +
                     " {\n  %d = fp8.scaled_matmul %a, %b : " + a + ", " + b +
                     " -> " + out + "\n  return %d : " + out + "\n}\n";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  EXPECT_TRUE(module);
  PassManager pm(&ctx);
  EXPECT_TRUE(
      succeeded(parsePassPipeline("fp8-lower-to-nvvm{config=fixed}", pm)));
  EXPECT_TRUE(succeeded(pm.run(*module)));
  // The gpu.module alone, as fp8-gpu-module-to-text embeds it in host code
  // (the runtime registers only the dialects of the kernels).
  std::string ir;
  llvm::raw_string_ostream os(ir);
  module->walk([&](gpu::GPUModuleOp kernels) { kernels->print(os); });
  return ir;
}

/// A 130x200x384 GEMM's inputs on the emulated device, uploaded as host
/// code uploads them: A and B codes, the A scales transposed and padded
/// ([KB, roundUp(M, 4)], placed `saPad` floats into their buffer), the B
/// scales; and the kernel of the shape.
struct GemmOnDevice {
  static constexpr int64_t M = 130, N = 200, K = 384;
  GemmKernelConfig c = chooseGemmKernelConfig(M, N, K);
  emu::GemmOperands ops{M, N, K, {}, {}, {}, {}};
  void *module = nullptr, *fn = nullptr;
  void *a = nullptr, *b = nullptr, *saBuf = nullptr, *sa = nullptr,
       *sb = nullptr, *d = nullptr;

  static void *upload(const void *src, size_t bytes) {
    void *p = mgpuMemAlloc(bytes, nullptr, false);
    mgpuMemcpy(p, const_cast<void *>(src), bytes, nullptr);
    return p;
  }

  explicit GemmOnDevice(int64_t saPad = 0) {
    std::string ir = lowerGemm(M, N, K);
    module = mgpuModuleLoad(ir.data(), ir.size());
    std::string name =
        getGemmKernelName(M, N, K, KernelElementType::e4m3,
                          KernelElementType::e4m3, KernelElementType::bf16);
    fn = module ? mgpuModuleGetFunction(module, name.c_str()) : nullptr;
    const int64_t KB = c.kBlocks();
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> code(0, 0x7E); // finite e4m3, >= 0
    std::uniform_real_distribution<float> scale(0.001f, 0.01f);
    for (int64_t i = 0; i < M * K; ++i)
      ops.a.push_back(code(rng) | (i % 3 ? 0 : 0x80));
    for (int64_t i = 0; i < N * K; ++i)
      ops.b.push_back(code(rng) | (i % 5 ? 0 : 0x80));
    for (int64_t i = 0; i < M * KB; ++i)
      ops.sa.push_back(scale(rng));
    for (int64_t i = 0; i < c.nScaleBlocks() * KB; ++i)
      ops.sb.push_back(scale(rng));
    // Padding before the scales: a value no scale has.
    std::vector<float> saT(saPad + KB * c.mPadded(), 1e30f);
    std::fill(saT.begin() + saPad, saT.end(), 0.0f);
    for (int64_t i = 0; i < M; ++i)
      for (int64_t kb = 0; kb < KB; ++kb)
        saT[saPad + kb * c.mPadded() + i] = ops.sa[i * KB + kb];
    a = upload(ops.a.data(), ops.a.size());
    b = upload(ops.b.data(), ops.b.size());
    saBuf = upload(saT.data(), saT.size() * 4);
    sa = static_cast<float *>(saBuf) + saPad;
    sb = upload(ops.sb.data(), ops.sb.size() * 4);
    d = mgpuMemAlloc(M * N * 2, nullptr, false);
  }
  ~GemmOnDevice() {
    for (void *p : {a, b, saBuf, sb, d})
      mgpuMemFree(p, nullptr);
    mgpuModuleUnload(module);
  }

  /// Launches with the three map pointers; the sticky error, if any.
  const char *launch(void *mapA, void *mapB, void *mapSA, int32_t smem = -1,
                     size_t nParams = 6) {
    int32_t m32 = M;
    void *params[] = {&mapA, &mapB, &mapSA, &sb, &d, &m32};
    mgpuLaunchKernel(fn, c.gridSize(132), 1, 1, c.threads(), 1, 1,
                     smem < 0 ? gemmLaunchSharedMemoryBytes(c) : smem,
                     mgpuStreamCreate(), params, nullptr, nParams);
    return fp8emuGetLastError();
  }
  /// D equals the emulator's independent host reference bit for bit.
  void expectReference() {
    std::vector<uint16_t> got(M * N);
    mgpuMemcpy(got.data(), d, got.size() * 2, nullptr);
    std::vector<uint32_t> want =
        emu::referenceGemm(ops, KernelElementType::e4m3,
                           KernelElementType::e4m3, KernelElementType::bf16);
    for (int64_t i = 0; i < M * N; ++i)
      ASSERT_EQ(got[i], want[i]) << "element " << i;
  }
};

TEST(MgpuRuntime, GemmMatchesReference) {
  setenv("FP8_EMU_CONTINUE_ON_FAULT", "1", 1);
  GemmOnDevice g;
  ASSERT_NE(g.fn, nullptr);
  const GemmKernelConfig &c = g.c;
  const int64_t M = g.M, N = g.N, K = g.K, KB = c.kBlocks();
  // CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0, FLOAT32 = 7; SWIZZLE_128B = 3.
  alignas(64) uint8_t maps[3][128];
  auto encode = [&](uint8_t *map, int type, void *base, uint64_t inner,
                    uint64_t outer, uint64_t rowBytes, uint32_t boxInner,
                    uint32_t boxOuter, int swizzle) {
    uint64_t dims[2] = {inner, outer}, strides[1] = {rowBytes};
    uint32_t box[2] = {boxInner, boxOuter}, es[2] = {1, 1};
    mgpuTensorMapEncodeTiled(map, type, 2, base, dims, strides, box, es, 0,
                             swizzle, 0, 0);
  };
  encode(maps[0], 0, g.a, K, M, K, c.blockK, c.blockM, 3);
  encode(maps[1], 0, g.b, K, N, K, c.blockK, c.blockN, 3);
  encode(maps[2], 7, g.sa, c.mPadded(), KB, c.mPadded() * 4, c.blockM, 1, 0);
  ASSERT_EQ(fp8emuGetLastError(), nullptr);
  void *mapsDev = GemmOnDevice::upload(maps, sizeof(maps));
  void *mapA = mapsDev, *mapB = static_cast<uint8_t *>(mapsDev) + 128,
       *mapSA = static_cast<uint8_t *>(mapsDev) + 256;
  const char *err = g.launch(mapA, mapB, mapSA);
  ASSERT_EQ(err, nullptr) << err;
  g.expectReference();

  // Misuse is reported (sticky error), not a crash.
  err = g.launch(mapA, mapB, mapSA, -1, 5);
  ASSERT_NE(err, nullptr);
  EXPECT_NE(std::string(err).find("takes 6 parameters, got 5"),
            std::string::npos);
  // One too many is misuse as well (paramsCount must equal the kernel's).
  err = g.launch(mapA, mapB, mapSA, -1, 7);
  ASSERT_NE(err, nullptr);
  EXPECT_NE(std::string(err).find("takes 6 parameters, got 7"),
            std::string::npos)
      << err;
  // A too-small shared memory: the barriers lie outside it.
  err = g.launch(mapA, mapB, mapSA, 1024);
  ASSERT_NE(err, nullptr);
  EXPECT_NE(std::string(err).find("out-of-bounds shared-memory"),
            std::string::npos)
      << err;
  mgpuMemFree(mapsDev, nullptr);
}

// mgpuMemAlloc's memory starts as 0xFF bytes (as cuMemAlloc, it is not
// cleared; NaN as f32 and bf16): an output element no kernel stores reads
// as NaN, never as a +0.0 an oracle may compute.
TEST(MgpuRuntime, FreshAllocationsAreNotZero) {
  const size_t bytes = 100;
  void *p = mgpuMemAlloc(bytes, nullptr, false);
  ASSERT_NE(p, nullptr);
  std::vector<uint8_t> host(bytes, 0);
  mgpuMemcpy(host.data(), p, bytes, nullptr);
  for (size_t i = 0; i < bytes; ++i)
    ASSERT_EQ(host[i], 0xFF) << "byte " << i;
  mgpuMemFree(p, nullptr);
}

/// A ranked memref descriptor of rank 2 (the C ABI of MLIR's memrefs).
struct Memref2D {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};

// The maps from memref descriptors (mgpuTensorMapEncodeTiledMemref, what
// host code of fp8-launch-kernels calls), the A scales a view at a
// non-zero offset into their buffer (a subview): the map starts at the
// aligned pointer plus the offset in elements (16 f32 = 64 bytes), so the
// kernel reads the scales and the result is the reference's. An offset
// taken in bytes reads the padding (1e30) or misaligns the map.
TEST(MgpuRuntime, TensorMapsFromOffsetMemrefViews) {
  setenv("FP8_EMU_CONTINUE_ON_FAULT", "1", 1);
  const int64_t pad = 16;
  GemmOnDevice g(pad);
  ASSERT_NE(g.fn, nullptr);
  const GemmKernelConfig &c = g.c;
  const int64_t KB = c.kBlocks();
  Memref2D da{g.a, g.a, 0, {g.M, g.K}, {g.K, 1}};
  Memref2D db{g.b, g.b, 0, {g.N, g.K}, {g.K, 1}};
  Memref2D ds{g.saBuf, g.saBuf, pad, {KB, c.mPadded()}, {c.mPadded(), 1}};
  int64_t boxA[2] = {c.blockM, c.blockK}, boxB[2] = {c.blockN, c.blockK},
          boxS[2] = {1, c.blockM};
  // CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0, FLOAT32 = 7; SWIZZLE_128B = 3.
  void *mapA = mgpuTensorMapEncodeTiledMemref(2, &da, 0, 0, 3, 0, 0, boxA);
  void *mapB = mgpuTensorMapEncodeTiledMemref(2, &db, 0, 0, 3, 0, 0, boxB);
  void *mapSA = mgpuTensorMapEncodeTiledMemref(2, &ds, 7, 0, 0, 0, 0, boxS);
  const char *err = fp8emuGetLastError();
  ASSERT_EQ(err, nullptr) << err;
  err = g.launch(mapA, mapB, mapSA);
  ASSERT_EQ(err, nullptr) << err;
  g.expectReference();
}

// One device copy per distinct map (the ABI never frees one, so the
// runtime reuses the copy of an identical map): two maps of the same buffer
// and extents that differ only in their box (bytes past the address and
// extents: strides, boxes) are two maps; one copy for both would hand the
// second launch the first one's boxes. The boxes read back are those
// encoded (innermost first).
TEST(MgpuRuntime, TensorMapCacheTellsMapsApartByTheirBoxes) {
  void *buf = mgpuMemAlloc(256 * 128, nullptr, false);
  Memref2D d{buf, buf, 0, {256, 128}, {128, 1}};
  int64_t box64[2] = {64, 128}, box128[2] = {128, 128};
  // CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0; SWIZZLE_128B = 3.
  void *m64 = mgpuTensorMapEncodeTiledMemref(2, &d, 0, 0, 3, 0, 0, box64);
  void *m128 = mgpuTensorMapEncodeTiledMemref(2, &d, 0, 0, 3, 0, 0, box128);
  void *again = mgpuTensorMapEncodeTiledMemref(2, &d, 0, 0, 3, 0, 0, box64);
  const char *err = fp8emuGetLastError();
  ASSERT_EQ(err, nullptr) << err;
  EXPECT_NE(m64, m128);
  EXPECT_EQ(m64, again);
  for (auto [map, rows] : {std::pair(m64, 64u), std::pair(m128, 128u)}) {
    emu::TensorMap tm;
    mgpuMemcpy(&tm, map, sizeof(tm), nullptr);
    EXPECT_EQ(tm.boxDim[0], 128u);
    EXPECT_EQ(tm.boxDim[1], rows);
  }
  mgpuMemFree(buf, nullptr);
}

// The unsigned predicates through a launch, by the values a kernel stores:
// each of 8 threads compares idx = tid - 2 with 4 (ult, uge) and 3 (ule,
// ugt) as i32 and stores the four bits. Hand-derived: -2 and -1 are
// 2^32 - 2 and 2^32 - 1 unsigned, so threads 0 and 1 compare as threads 6
// and 7 (above 4), threads 2-5 below: the `idx ult n` bounds check of a
// kernel skips a negative index. (A signed compare stores 1, 1, 0, 0 for
// threads 0 and 1.)
TEST(MgpuRuntime, UnsignedComparesStoreHandDerivedValues) {
  const std::string ir = R"(module attributes {gpu.container_module} {
gpu.module @cmp {
  llvm.func @k(%out: !llvm.ptr) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 8, 1, 1>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %idx = arith.subi %tid, %c2 : i32
    %r0 = arith.cmpi ult, %idx, %c4 : i32
    %r1 = arith.cmpi ule, %idx, %c3 : i32
    %r2 = arith.cmpi ugt, %idx, %c3 : i32
    %r3 = arith.cmpi uge, %idx, %c4 : i32
    %base = arith.muli %tid, %c4 : i32
    %i1 = arith.constant 1 : i32
    %b1 = arith.addi %base, %i1 : i32
    %b2 = arith.addi %base, %c2 : i32
    %b3 = arith.addi %base, %c3 : i32
    %v0 = arith.extui %r0 : i1 to i32
    %v1 = arith.extui %r1 : i1 to i32
    %v2 = arith.extui %r2 : i1 to i32
    %v3 = arith.extui %r3 : i1 to i32
    %p0 = llvm.getelementptr %out[%base] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    %p1 = llvm.getelementptr %out[%b1] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    %p2 = llvm.getelementptr %out[%b2] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    %p3 = llvm.getelementptr %out[%b3] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    llvm.store %v0, %p0 : i32, !llvm.ptr
    llvm.store %v1, %p1 : i32, !llvm.ptr
    llvm.store %v2, %p2 : i32, !llvm.ptr
    llvm.store %v3, %p3 : i32, !llvm.ptr
    llvm.return
  }
}
})";
  void *module = mgpuModuleLoad(const_cast<char *>(ir.data()), ir.size());
  ASSERT_NE(module, nullptr) << fp8emuGetLastError();
  void *fn = mgpuModuleGetFunction(module, "k");
  ASSERT_NE(fn, nullptr) << fp8emuGetLastError();
  std::vector<int32_t> got(32, -7);
  void *out = mgpuMemAlloc(got.size() * 4, nullptr, false);
  mgpuMemcpy(out, got.data(), got.size() * 4, nullptr);
  void *params[] = {&out};
  mgpuLaunchKernel(fn, 1, 1, 1, 8, 1, 1, 0, mgpuStreamCreate(), params, nullptr,
                   1);
  const char *err = fp8emuGetLastError();
  ASSERT_EQ(err, nullptr) << err;
  mgpuMemcpy(got.data(), out, got.size() * 4, nullptr);
  const int32_t below[4] = {1, 1, 0, 0}, above[4] = {0, 0, 1, 1};
  for (int tid = 0; tid < 8; ++tid)
    for (int p = 0; p < 4; ++p)
      EXPECT_EQ(got[tid * 4 + p], (tid >= 2 && tid < 6 ? below : above)[p])
          << "thread " << tid << ", predicate " << p << " (ult, ule, ugt, uge)";
  mgpuMemFree(out, nullptr);
  mgpuModuleUnload(module);
}

} // namespace
