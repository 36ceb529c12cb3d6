/*===-- fp8-c/FP8.h - C API of the fp8 dialect, passes, pipelines -*- C -*-===*\
|*                                                                            *|
|* For C hosts and binding generators, in the style of upstream mlir-c: the  *|
|* fp8 dialect handle, registration of the dialect and of the upstream       *|
|* dialects the pipelines need, registration of every fp8 pass, and one      *|
|* builder per pipeline that appends it to an MlirOpPassManager.             *|
|*                                                                            *|
|* Link: FP8MLIR::FP8MLIR (CMake package FP8MLIR), which brings this API's   *|
|* library, MLIR's C API core (MLIRCAPIIR) and libMLIR.so / libLLVM.so.      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef FP8_C_FP8_H
#define FP8_C_FP8_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__fp8__(): the fp8 dialect, for
 * mlirDialectHandleInsertDialect / mlirDialectHandleLoadDialect. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(FP8, fp8);

/* Inserts the fp8 dialect into `registry`. */
MLIR_CAPI_EXPORTED void fp8RegisterDialect(MlirDialectRegistry registry);

/* Inserts every upstream MLIR dialect, its extensions and the LLVM IR
 * translations into `registry`: what model graphs (linalg, tensor, tosa,
 * ml_program, ...) and the lowerings (scf, memref, gpu, nvvm, llvm) need.
 * MLIR's own C API has no single entry for this without linking every
 * dialect's C API library. */
MLIR_CAPI_EXPORTED void
fp8RegisterRequiredDialects(MlirDialectRegistry registry);

/* Registers every fp8 pass and pipeline (and upstream's passes, which the
 * pipelines name) with the global registry, so textual pipelines such as
 * "fp8-assign-precision" parse. Idempotent. */
MLIR_CAPI_EXPORTED void fp8RegisterPasses(void);

/* Appends a pipeline to `pm` (a pass manager anchored on builtin.module).
 * `options` is the text between the braces on the command line, e.g.
 * "policy=deepseek-v3 report=false" (empty: defaults). Returns failure for
 * unknown or malformed options; the message goes to `errorCallback`
 * (may be NULL) with `userData`.
 *   fp8BuildPipeline     fp8-pipeline: model graph -> FP8 graph + report
 *   fp8BuildCPUPipeline  fp8-cpu-pipeline: fp8 IR -> LLVM dialect (CPU)
 *   fp8BuildGPUPipeline  fp8-gpu-pipeline: fp8 IR -> sm_90a gpu.binary */
MLIR_CAPI_EXPORTED MlirLogicalResult
fp8BuildPipeline(MlirOpPassManager pm, MlirStringRef options,
                 MlirStringCallback errorCallback, void *userData);
MLIR_CAPI_EXPORTED MlirLogicalResult
fp8BuildCPUPipeline(MlirOpPassManager pm, MlirStringRef options,
                    MlirStringCallback errorCallback, void *userData);
MLIR_CAPI_EXPORTED MlirLogicalResult
fp8BuildGPUPipeline(MlirOpPassManager pm, MlirStringRef options,
                    MlirStringCallback errorCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* FP8_C_FP8_H */
