/*===- MgpuRuntime.h - upstream mgpu* runtime ABI on the emulator -*- C -*-===*\
 *
 * The functions that MLIR's `gpu-to-llvm` lowering calls (upstream's
 * CudaRuntimeWrappers.cpp ABI), implemented by libfp8_emu_mgpu on the CPU
 * emulator (fp8/Emulator), so host code built for the CUDA runtime runs
 * unchanged against an emulated device (docs/gpu-kernel.md):
 *
 * - mgpuModuleLoad(data, size): `data` is the MLIR text (size bytes, or
 *   NUL-terminated when size is 0) of the NVVM-level gpu.module that
 *   fp8-lower-to-nvvm produces (not PTX/cubin), as fp8-gpu-module-to-text
 *   embeds it, or of a builtin module holding it. Only the kernels'
 *   dialects are registered (emu::registerKernelDialects), so the text holds
 *   nothing else (no host code).
 * - Device memory lives at addresses no host pointer has; mgpuMemcpy tells
 *   host from device pointers by the allocation table.
 * - mgpuTensorMapEncodeTiled fills the emulator's 128-byte tensor map
 *   (fp8::emu::TensorMap) with CUDA's enum values for data type and
 *   swizzle (interleave NONE and OOB fill NONE only).
 *   mgpuTensorMapEncodeTiledMemref (what convert-nvgpu-to-nvvm emits for
 *   nvgpu.tma.create.descriptor) takes a ranked memref descriptor and
 *   returns a device pointer to the map (identical maps share one copy).
 * - Launches run synchronously; streams and events are placeholders.
 * - fp8_mgpu_sm_count() (the project's extension of the ABI, which host code
 *   of fp8-launch-kernels{sm-count=0} calls for the persistent grid): 132, or
 *   FP8_EMU_SM_COUNT (1..1024; anything else is an error).
 * - A fault the emulator detects is printed to stderr and ends the process
 *   with status 1 (a device fault is fatal to a CUDA context too), unless
 *   FP8_EMU_CONTINUE_ON_FAULT=1: then it is kept as the sticky error
 *   that fp8emuGetLastError returns. FP8_EMU_SEED sets the scheduler seed
 *   (a decimal number); FP8_EMU_TRACE=1 prints one line per launch (kernel,
 *   grid, block, dynamic shared memory, parameter count) to stderr. The
 *   switches are 1 (on) or 0, empty or unset (off); any other value of
 *   these variables is an error. A launch past CUDA's limits (grid x
 *   1..2^31 - 1, y and z 1..65535, block 1..1024 x 1..1024 x 1..64, at most
 *   1024 threads) is an error naming the dimension.
 * - fp8_mgpu_transfer_bytes(direction) counts the host<->device bytes of
 *   mgpuMemcpy (the project's extension, emulator only).
 *
\*===----------------------------------------------------------------------===*/
#ifndef FP8_EMULATOR_MGPURUNTIME_H
#define FP8_EMULATOR_MGPURUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void *mgpuModuleLoad(void *data, size_t size);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
/* A launch in clusters of clusterX x clusterY x clusterZ CTAs (each at most
 * 16, dividing the grid): the cluster special registers (%clusterid,
 * %nclusterid, %cluster_ctaid, %cluster_nctaid, %cluster_ctarank,
 * %cluster_nctarank) follow, and the CTAs of one cluster run interleaved
 * (the scheduler's seed picks the order), so distributed shared memory
 * (mapa), barrier.cluster, mbarrier arrivals on a peer and TMA multicast
 * work between them (docs/gpu-kernel.md, "Running MLIR GPU programs"). */
void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t paramsCount);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream);
void mgpuSetDefaultDevice(int32_t device);
void mgpuTensorMapEncodeTiled(void *tensorMap, int dataType, uint32_t rank,
                              void *globalAddress, const uint64_t *globalDim,
                              const uint64_t *globalStrides,
                              const uint32_t *boxDim,
                              const uint32_t *elementStrides, int interleave,
                              int swizzle, int l2Promotion, int oobFill);
void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *memrefDescriptor,
                                     int64_t dataType, int64_t interleave,
                                     int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *boxDims);

/// The device's SM count (runtime/ reads the CUDA device's).
int32_t fp8_mgpu_sm_count(void);

/// The first error since the last call (a fault report or a misuse of the
/// API), or NULL; clears it.
const char *fp8emuGetLastError(void);

/// The bytes mgpuMemcpy copied from host to device memory (direction 0) or
/// from device to host memory (direction 1) since the last call for that
/// direction (or the start of the process); clears that count. Device to
/// device copies are not counted. Tests read the host<->device traffic of
/// one call of a host program with it (test/Integration/GPUHost).
uint64_t fp8_mgpu_transfer_bytes(int32_t direction);

/// The kernel profile, as runtime/'s CUDA runtime has it: `on` != 0 clears
/// it and counts every later launch by kernel name; 0 stops counting.
/// fp8_mgpu_profile_text returns "NAME\tLAUNCHES\tMILLISECONDS\n" per
/// kernel (sorted by name; valid until the next call), the milliseconds 0
/// here (the emulator has no device time; the CUDA runtime times each
/// launch with events). The device benchmarks read the split of a host
/// program's GPU time by kernel with it (bench/gpu/train_step.py).
void fp8_mgpu_profile(int32_t on);
const char *fp8_mgpu_profile_text(void);

/// Sets FP8_EMU_* variable `name` (ACCUMULATOR, CONTINUE_ON_FAULT, SCHEDULE,
/// SEED, SM_COUNT or TRACE, with the prefix) to `value` for the rest of the
/// process, in place of the environment's; NULL returns to the
/// environment's. The value is checked where the runtime reads it (as the
/// environment's). Returns 0, or -1 for another name. A program that embeds
/// the runtime (the Python package's gpu-emulator backend) sets its options
/// with it, not through its process's environment.
int32_t fp8_mgpu_set_option(const char *name, const char *value);

/// Nonzero: the running launch and every later one stop (a fault,
/// "interrupted") within a few thousand instructions, until a call with 0.
/// The Python package's JIT calls it on Ctrl-C.
void fp8_mgpu_request_stop(int32_t stop);

#ifdef __cplusplus
}
#endif

#endif /* FP8_EMULATOR_MGPURUNTIME_H */
