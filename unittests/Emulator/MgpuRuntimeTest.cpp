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

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// The NVVM-level kernels of one M x N x K GEMM, as MLIR text.
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
  std::string ir;
  llvm::raw_string_ostream os(ir);
  module->print(os);
  return ir;
}

TEST(MgpuRuntime, GemmMatchesReference) {
  setenv("FP8_EMU_CONTINUE_ON_FAULT", "1", 1);
  const int64_t M = 130, N = 200, K = 384;
  std::string ir = lowerGemm(M, N, K);
  void *module = mgpuModuleLoad(ir.data(), ir.size());
  ASSERT_NE(module, nullptr);
  std::string name =
      getGemmKernelName(M, N, K, KernelElementType::e4m3,
                        KernelElementType::e4m3, KernelElementType::bf16);
  void *fn = mgpuModuleGetFunction(module, name.c_str());
  ASSERT_NE(fn, nullptr);

  GemmKernelConfig c = chooseGemmKernelConfig(M, N, K);
  const int64_t KB = c.kBlocks();
  std::mt19937 rng(3);
  emu::GemmOperands ops{M, N, K, {}, {}, {}, {}};
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
  std::vector<float> saT(KB * c.mPadded(), 0.0f);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t kb = 0; kb < KB; ++kb)
      saT[kb * c.mPadded() + i] = ops.sa[i * KB + kb];

  auto upload = [](const void *src, size_t bytes) {
    void *p = mgpuMemAlloc(bytes, nullptr, false);
    mgpuMemcpy(p, const_cast<void *>(src), bytes, nullptr);
    return p;
  };
  void *a = upload(ops.a.data(), ops.a.size());
  void *b = upload(ops.b.data(), ops.b.size());
  void *sa = upload(saT.data(), saT.size() * 4);
  void *sb = upload(ops.sb.data(), ops.sb.size() * 4);
  void *d = mgpuMemAlloc(M * N * 2, nullptr, false);

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
  encode(maps[0], 0, a, K, M, K, c.blockK, c.blockM, 3);
  encode(maps[1], 0, b, K, N, K, c.blockK, c.blockN, 3);
  encode(maps[2], 7, sa, c.mPadded(), KB, c.mPadded() * 4, c.blockM, 1, 0);
  ASSERT_EQ(fp8emuGetLastError(), nullptr);
  void *mapsDev = upload(maps, sizeof(maps));
  void *mapA = mapsDev, *mapB = static_cast<uint8_t *>(mapsDev) + 128,
       *mapSA = static_cast<uint8_t *>(mapsDev) + 256;
  int32_t m32 = M;
  void *params[] = {&mapA, &mapB, &mapSA, &sb, &d, &m32};
  mgpuLaunchKernel(fn, c.gridSize(132), 1, 1, c.threads(), 1, 1,
                   c.sharedMemoryBytes(), mgpuStreamCreate(), params, nullptr,
                   6);
  const char *err = fp8emuGetLastError();
  ASSERT_EQ(err, nullptr) << err;
  std::vector<uint16_t> got(M * N);
  mgpuMemcpy(got.data(), d, got.size() * 2, nullptr);
  std::vector<uint32_t> want =
      emu::referenceGemm(ops, KernelElementType::e4m3, KernelElementType::e4m3,
                         KernelElementType::bf16);
  for (int64_t i = 0; i < M * N; ++i)
    ASSERT_EQ(got[i], want[i]) << "element " << i;

  // Misuse is reported (sticky error), not a crash.
  mgpuLaunchKernel(fn, 1, 1, 1, c.threads(), 1, 1, c.sharedMemoryBytes(),
                   nullptr, params, nullptr, 5);
  err = fp8emuGetLastError();
  ASSERT_NE(err, nullptr);
  EXPECT_NE(std::string(err).find("takes 6 parameters, got 5"),
            std::string::npos);
  // A too-small shared memory: the barriers lie outside it.
  mgpuLaunchKernel(fn, 1, 1, 1, c.threads(), 1, 1, 1024, nullptr, params,
                   nullptr, 6);
  err = fp8emuGetLastError();
  ASSERT_NE(err, nullptr);
  EXPECT_NE(std::string(err).find("out-of-bounds shared-memory"),
            std::string::npos)
      << err;
  for (void *p : {a, b, sa, sb, d, mapsDev})
    mgpuMemFree(p, nullptr);
  mgpuModuleUnload(module);
}

} // namespace
