//===- fp8_cuda_runtime.cpp - CUDA driver API host runtime ----------------===//
//
// See fp8_cuda_runtime.h. Depends on the CUDA driver API and on the
// header-only Gemm/QuantizeKernelConfig.h, so it builds on a machine with only
// a CUDA toolkit (the device harness) as well as inside the project build.
//
//===----------------------------------------------------------------------===//
#include "fp8_cuda_runtime.h"

#include "fp8/Target/Hopper/GemmKernelConfig.h"
#include "fp8/Target/Hopper/KernelNames.h"
#include "fp8/Target/Hopper/QuantizeKernelConfig.h"

#include <cuda.h>

#include <cstring>
#include <string>

using mlir::fp8::chooseGemmKernelConfig;
using mlir::fp8::GemmKernelConfig;
using mlir::fp8::isDynamicMGemmKernelName;
using mlir::fp8::makeQuantizeKernelConfig;
using mlir::fp8::QuantizeKernelConfig;
using mlir::fp8::withRuntimeM;

namespace {
thread_local std::string lastError;

int fail(CUresult r, const std::string &what) {
  const char *name = nullptr, *msg = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &msg);
  lastError = what + ": " + (name ? name : "?") + " (" + (msg ? msg : "") + ")";
  return static_cast<int>(r);
}
int fail(const std::string &what) {
  lastError = what;
  return -1;
}
#define CU_TRY(expr, what)                                                     \
  do {                                                                         \
    CUresult r_ = (expr);                                                      \
    if (r_ != CUDA_SUCCESS)                                                    \
      return fail(r_, what);                                                   \
  } while (0)
} // namespace

struct fp8rt_module {
  CUmodule module = nullptr;
};

struct fp8rt_gemm {
  CUfunction function = nullptr;
  GemmKernelConfig config;
  CUdeviceptr maps = 0; // three 128-byte CUtensorMaps in global memory
  CUdeviceptr sb = 0, d = 0;
  int grid = 0;
};

extern "C" {

const char *fp8rt_last_error(void) { return lastError.c_str(); }

int fp8rt_init(int device) {
  CU_TRY(cuInit(0), "cuInit");
  CUcontext current = nullptr;
  CU_TRY(cuCtxGetCurrent(&current), "cuCtxGetCurrent");
  if (current)
    return 0;
  CUdevice dev;
  CU_TRY(cuDeviceGet(&dev, device), "cuDeviceGet");
  CUcontext primary;
  CU_TRY(cuDevicePrimaryCtxRetain(&primary, dev), "cuDevicePrimaryCtxRetain");
  CU_TRY(cuCtxSetCurrent(primary), "cuCtxSetCurrent");
  return 0;
}

int fp8rt_sm_count(int device, int *count) {
  CUdevice dev;
  CU_TRY(cuDeviceGet(&dev, device), "cuDeviceGet");
  CU_TRY(cuDeviceGetAttribute(count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                              dev),
         "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)");
  return 0;
}

int fp8rt_module_load(const void *image, size_t size, fp8rt_module **out) {
  if (!image || !out)
    return fail("fp8rt_module_load: null argument");
  // PTX must be NUL-terminated for cuModuleLoadData; copy if it is not.
  std::string ptx;
  const void *data = image;
  const char *bytes = static_cast<const char *>(image);
  bool isElf = size >= 4 && std::memcmp(bytes,
                                        "\x7f"
                                        "ELF",
                                        4) == 0;
  if (!isElf && size && bytes[size - 1] != '\0') {
    ptx.assign(bytes, size);
    data = ptx.c_str();
  }
  auto *m = new fp8rt_module();
  CUresult r = cuModuleLoadData(&m->module, data);
  if (r != CUDA_SUCCESS) {
    delete m;
    return fail(r, "cuModuleLoadData");
  }
  *out = m;
  return 0;
}

void fp8rt_module_unload(fp8rt_module *module) {
  if (!module)
    return;
  cuModuleUnload(module->module);
  delete module;
}

int fp8rt_gemm_config(int64_t m, int64_t n, int64_t k, int64_t *threads,
                      int64_t *shared_bytes, int64_t *stages, int64_t *block_m,
                      int64_t *block_n) {
  GemmKernelConfig c = chooseGemmKernelConfig(m, n, k);
  if (threads)
    *threads = c.threads();
  if (shared_bytes)
    *shared_bytes = c.sharedMemoryBytes();
  if (stages)
    *stages = c.stages;
  if (block_m)
    *block_m = c.blockM;
  if (block_n)
    *block_n = c.blockN;
  return 0;
}

static int encode2d(CUtensorMap *map, CUtensorMapDataType type,
                    const void *base, uint64_t inner, uint64_t outer,
                    uint64_t rowBytes, uint32_t boxInner, uint32_t boxOuter,
                    CUtensorMapSwizzle swizzle, const char *what) {
  cuuint64_t dims[2] = {inner, outer};
  cuuint64_t strides[1] = {rowBytes};
  cuuint32_t box[2] = {boxInner, boxOuter};
  cuuint32_t elemStrides[2] = {1, 1};
  // OOB elements are zero-filled (FLOAT_OOB_FILL_NONE): the K, M and N tails.
  CU_TRY(cuTensorMapEncodeTiled(map, type, 2, const_cast<void *>(base), dims,
                                strides, box, elemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
         std::string("cuTensorMapEncodeTiled(") + what + ")");
  return 0;
}

int fp8rt_gemm_create(fp8rt_module *module, const char *kernel_name, int64_t m,
                      int64_t n, int64_t k, const void *a, const void *b,
                      const void *sa_t, const void *sb, void *d, int sm_count,
                      fp8rt_gemm **out) {
  if (!module || !kernel_name || !out)
    return fail("fp8rt_gemm_create: null argument");
  if (k % 16 != 0)
    return fail("fp8rt_gemm_create: K must be a multiple of 16");
  auto *g = new fp8rt_gemm();
  // A dynamic-M kernel was compiled with the configuration of any M; the
  // sizes derived from M (tiles, A-scale rows, grid) are the actual M's.
  // A kernel of a non-default configuration says which in its name
  // (`_t<BM>x<BN>s<S>`, KernelNames.h).
  mlir::fp8::GemmKernelOverrides overrides;
  if (mlir::fp8::parseGemmKernelConfigSuffix(
          kernel_name, &overrides.blockM, &overrides.blockN, &overrides.stages,
          &overrides.consumers, &overrides.groupM)) {
    g->config = mlir::fp8::makeGemmKernelConfig(m, n, k, overrides);
    const char *why = mlir::fp8::checkGemmKernelConfig(g->config);
    if (*why) {
      delete g;
      return fail(std::string("fp8rt_gemm_create(") + kernel_name +
                  "): " + why);
    }
  } else {
    g->config = chooseGemmKernelConfig(m, n, k);
  }
  if (isDynamicMGemmKernelName(kernel_name)) {
    GemmKernelConfig compiled =
        overrides.any()
            ? mlir::fp8::makeGemmKernelConfig(GemmKernelConfig::kDynamicM, n, k,
                                              overrides)
            : chooseGemmKernelConfig(GemmKernelConfig::kDynamicM, n, k);
    g->config = withRuntimeM(compiled, m);
  }
  const GemmKernelConfig &c = g->config;
  int rc = 0;
  auto cleanup = [&](int code) {
    if (g->maps)
      cuMemFree(g->maps);
    delete g;
    return code;
  };
  CUresult r = cuModuleGetFunction(&g->function, module->module, kernel_name);
  if (r != CUDA_SUCCESS)
    return cleanup(
        fail(r, std::string("cuModuleGetFunction(") + kernel_name + ")"));
  r = cuFuncSetAttribute(g->function,
                         CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                         static_cast<int>(c.sharedMemoryBytes()));
  if (r != CUDA_SUCCESS)
    return cleanup(
        fail(r, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)"));

  alignas(64) CUtensorMap maps[3];
  if ((rc = encode2d(&maps[0], CU_TENSOR_MAP_DATA_TYPE_UINT8, a, k, m, k,
                     c.blockK, c.blockM, CU_TENSOR_MAP_SWIZZLE_128B, "A")) ||
      (rc = encode2d(&maps[1], CU_TENSOR_MAP_DATA_TYPE_UINT8, b, k, n, k,
                     c.blockK, c.blockN, CU_TENSOR_MAP_SWIZZLE_128B, "B")) ||
      (rc = encode2d(&maps[2], CU_TENSOR_MAP_DATA_TYPE_FLOAT32, sa_t,
                     c.mPadded(), c.kBlocks(), c.mPadded() * 4, c.blockM, 1,
                     CU_TENSOR_MAP_SWIZZLE_NONE, "A scales")))
    return cleanup(rc);
  r = cuMemAlloc(&g->maps, sizeof(maps));
  if (r != CUDA_SUCCESS)
    return cleanup(fail(r, "cuMemAlloc(tensor maps)"));
  r = cuMemcpyHtoD(g->maps, maps, sizeof(maps));
  if (r != CUDA_SUCCESS)
    return cleanup(fail(r, "cuMemcpyHtoD(tensor maps)"));
  g->sb = reinterpret_cast<CUdeviceptr>(sb);
  g->d = reinterpret_cast<CUdeviceptr>(d);
  int sms = sm_count;
  if (sms <= 0) {
    CUdevice dev;
    r = cuCtxGetDevice(&dev);
    if (r == CUDA_SUCCESS)
      r = cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                               dev);
    if (r != CUDA_SUCCESS)
      return cleanup(fail(r, "multiprocessor count"));
  }
  g->grid = static_cast<int>(c.gridSize(sms));
  *out = g;
  return 0;
}

int fp8rt_gemm_launch(fp8rt_gemm *g, void *stream) {
  if (!g)
    return fail("fp8rt_gemm_launch: null plan");
  CUdeviceptr mapA = g->maps, mapB = g->maps + 128, mapSA = g->maps + 256;
  int32_t m = static_cast<int32_t>(g->config.m);
  void *args[] = {&mapA, &mapB, &mapSA, &g->sb, &g->d, &m};
  CU_TRY(cuLaunchKernel(g->function, g->grid, 1, 1,
                        static_cast<unsigned>(g->config.threads()), 1, 1,
                        static_cast<unsigned>(g->config.sharedMemoryBytes()),
                        static_cast<CUstream>(stream), args, nullptr),
         "cuLaunchKernel");
  return 0;
}

void fp8rt_gemm_destroy(fp8rt_gemm *g) {
  if (!g)
    return;
  if (g->maps)
    cuMemFree(g->maps);
  delete g;
}

int fp8rt_quantize_launch(fp8rt_module *module, const char *kernel_name,
                          int64_t rows, int64_t cols, int64_t block_rows,
                          const void *x, void *q, void *scales, void *stream) {
  if (!module || !kernel_name || !x || !q || !scales)
    return fail("fp8rt_quantize_launch: null argument");
  if (block_rows != 1 && block_rows != 128)
    return fail("fp8rt_quantize_launch: block_rows must be 1 or 128, got " +
                std::to_string(block_rows));
  QuantizeKernelConfig c = makeQuantizeKernelConfig(rows, cols, block_rows);
  CUfunction fn;
  CU_TRY(cuModuleGetFunction(&fn, module->module, kernel_name),
         std::string("cuModuleGetFunction(") + kernel_name + ")");
  CUdeviceptr px = reinterpret_cast<CUdeviceptr>(x),
              pq = reinterpret_cast<CUdeviceptr>(q),
              ps = reinterpret_cast<CUdeviceptr>(scales);
  int32_t rowCount = static_cast<int32_t>(rows);
  void *args[] = {&px, &pq, &ps, &rowCount};
  CU_TRY(cuLaunchKernel(fn, static_cast<unsigned>(c.gridSize()), 1, 1,
                        static_cast<unsigned>(QuantizeKernelConfig::kThreads),
                        1, 1, 0, static_cast<CUstream>(stream), args, nullptr),
         "cuLaunchKernel");
  return 0;
}

} // extern "C"

static_assert(FP8RT_E4M3 == int(mlir::fp8::KernelElementType::e4m3) &&
                  FP8RT_E5M2 == int(mlir::fp8::KernelElementType::e5m2) &&
                  FP8RT_BF16 == int(mlir::fp8::KernelElementType::bf16) &&
                  FP8RT_F32 == int(mlir::fp8::KernelElementType::f32),
              "fp8rt_type must match KernelElementType");

/// Copies `name` into `buf`; -1 with an error when it does not fit.
static int copyName(const std::string &name, char *buf, size_t size) {
  if (!buf || size <= name.size()) {
    lastError = "kernel name '" + name + "' needs " +
                std::to_string(name.size() + 1) + " bytes, the buffer has " +
                std::to_string(buf ? size : 0);
    return -1;
  }
  std::memcpy(buf, name.c_str(), name.size() + 1);
  return 0;
}

static bool validType(fp8rt_type t) {
  return t >= FP8RT_E4M3 && t <= FP8RT_F32;
}

int fp8rt_gemm_kernel_name(int64_t m, int64_t n, int64_t k, fp8rt_type a,
                           fp8rt_type b, fp8rt_type out, char *buf,
                           size_t size) {
  if (!validType(a) || !validType(b) || !validType(out)) {
    lastError = "fp8rt_gemm_kernel_name: invalid fp8rt_type";
    return -1;
  }
  using mlir::fp8::KernelElementType;
  return copyName(mlir::fp8::getGemmKernelName(m, n, k, KernelElementType(a),
                                               KernelElementType(b),
                                               KernelElementType(out)),
                  buf, size);
}

int fp8rt_quantize_kernel_name(int64_t rows, int64_t cols, int64_t block_rows,
                               fp8rt_type input, fp8rt_type fp8, int pow2,
                               float eps, char *buf, size_t size) {
  if (!validType(input) || !validType(fp8)) {
    lastError = "fp8rt_quantize_kernel_name: invalid fp8rt_type";
    return -1;
  }
  using mlir::fp8::KernelElementType;
  return copyName(mlir::fp8::getQuantizeKernelName(
                      rows, cols, block_rows, KernelElementType(input),
                      KernelElementType(fp8), pow2 != 0, eps),
                  buf, size);
}
