/*===- fp8_cuda_runtime.h - CUDA host runtime for fp8-mlir GPU kernels ----===*
 *
 * A small C API over the CUDA driver API for the kernels fp8-gpu-pipeline
 * emits (Debian ships no MLIR CUDA runtime library). C so it can be loaded
 * with dlopen/ctypes from a harness that has no C++ toolchain of ours.
 *
 * - module: loads a gpu.binary object (PTX text, JIT-compiled by the driver,
 *   or a cubin) extracted with `fp8-translate --fp8-extract-gpu-object`;
 * - gemm plan: for one fp8.scaled_matmul kernel and its device buffers,
 *   encodes the three TMA descriptors (cuTensorMapEncodeTiled) exactly as
 *   include/fp8/Target/Hopper/GemmKernelConfig.h describes the kernel ABI,
 *   uploads them once, and launches the persistent grid;
 * - quantize: launches an fp8.quantize kernel (QuantizeKernelConfig.h).
 *
 * Every function returns 0 on success or a CUresult / negative error; the
 * message of the last error is available from fp8rt_last_error().
 *===----------------------------------------------------------------------===*/
#ifndef FP8_CUDA_RUNTIME_H
#define FP8_CUDA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fp8rt_module fp8rt_module;
typedef struct fp8rt_gemm fp8rt_gemm;

/* Makes a context current (the device's primary context if none is). */
int fp8rt_init(int device);
const char *fp8rt_last_error(void);
int fp8rt_sm_count(int device, int *count);

/* `image`: PTX (NUL-terminated text) or cubin bytes of `size` bytes. */
int fp8rt_module_load(const void *image, size_t size, fp8rt_module **out);
void fp8rt_module_unload(fp8rt_module *module);

/* Element types of kernel names (the values of mlir::fp8::KernelElementType,
 * include/fp8/Target/Hopper/KernelNames.h). */
typedef enum fp8rt_type {
  FP8RT_E4M3 = 0,
  FP8RT_E5M2 = 1,
  FP8RT_BF16 = 2,
  FP8RT_F32 = 3
} fp8rt_type;

/* The symbol of the GEMM kernel fp8-lower-to-nvvm generates for an
 * M x N x K scaled_matmul with operands `a`, `b` (E4M3/E5M2) and result `out`
 * (BF16/F32), written NUL-terminated into `buf` of `size` bytes. Returns 0,
 * or -1 (fp8rt_last_error) when `buf` is too small or a type is invalid. */
int fp8rt_gemm_kernel_name(int64_t m, int64_t n, int64_t k, fp8rt_type a,
                           fp8rt_type b, fp8rt_type out, char *buf,
                           size_t size);
/* The same for the quantize kernel of a rows x cols `input` (F32/BF16) into
 * block_rows x 128 blocks of `fp8` codes, pow2 scales or not, with `eps`. */
int fp8rt_quantize_kernel_name(int64_t rows, int64_t cols, int64_t block_rows,
                               fp8rt_type input, fp8rt_type fp8, int pow2,
                               float eps, char *buf, size_t size);

/* Launch configuration the compiler chose for M x N x K
 * (GemmKernelConfig.h): threads per CTA, dynamic shared memory, stages. */
int fp8rt_gemm_config(int64_t m, int64_t n, int64_t k, int64_t *threads,
                      int64_t *shared_bytes, int64_t *stages, int64_t *block_m,
                      int64_t *block_n);

/* clang-format off */
/* Device pointers:
 *   a   : [M, K] FP8 codes, row-major        b  : [N, K] FP8 codes, row-major
 *   sa_t: [ceil(K/128), roundUp(M, 4)] f32   sb : [ceil(N/128), ceil(K/128)] f32
 *         (A scales transposed, K-block major, rows padded to 16 bytes)
 *   d   : [M, N] bf16 or f32 (as the kernel was compiled)
 * `kernel_name`: fp8rt_gemm_kernel_name of the shape; a dynamic-M kernel
 * (`fp8_scaled_matmul_dynx...`, compiled for any M) runs with this `m`; a
 * kernel of a non-default configuration (name suffix `_t<BM>x<BN>s<S>`,
 * fp8-lower-to-nvvm options block-m, block-n, stages) is launched with it.
 * `sm_count` <= 0: use the device's multiprocessor count (persistent grid). */
/* clang-format on */
int fp8rt_gemm_create(fp8rt_module *module, const char *kernel_name, int64_t m,
                      int64_t n, int64_t k, const void *a, const void *b,
                      const void *sa_t, const void *sb, void *d, int sm_count,
                      fp8rt_gemm **out);
/* `stream`: a CUstream (0 = the legacy default stream). */
int fp8rt_gemm_launch(fp8rt_gemm *gemm, void *stream);
void fp8rt_gemm_destroy(fp8rt_gemm *gemm);

/* One fp8.quantize kernel of `module` on device buffers:
 *   x      : [rows, cols] f32 or bf16 (as compiled), 16-byte aligned
 *   q      : [rows, cols] FP8 codes (u8)
 *   scales : [ceil(rows / block_rows), ceil(cols / 128)] f32
 * `block_rows`: 1 (1x128 tiles) or 128 (128x128 blocks). */
int fp8rt_quantize_launch(fp8rt_module *module, const char *kernel_name,
                          int64_t rows, int64_t cols, int64_t block_rows,
                          const void *x, void *q, void *scales, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* FP8_CUDA_RUNTIME_H */
