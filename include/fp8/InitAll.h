//===- InitAll.h - register the fp8 dialect and passes ----------*- C++ -*-===//
//
// What an embedding tool calls: registerFP8Dialect(registry) makes the fp8
// dialect loadable, registerFP8Passes() makes every fp8 pass and pipeline
// available to the pass manager's textual parser (and to mlir-opt-style
// command lines).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_INITALL_H
#define FP8_INITALL_H

namespace mlir {
class DialectRegistry;
namespace fp8 {

/// Adds the fp8 dialect to `registry`.
void registerFP8Dialect(DialectRegistry &registry);

/// Adds what the fp8 pipelines read and lower besides the fp8 dialect: every
/// upstream dialect and its extensions (real graphs carry func, linalg,
/// tensor, arith, math, cf, ml_program, tosa and llvm ops; the lowerings add
/// scf, memref, vector, gpu, nvgpu and nvvm; the extensions hold the
/// bufferization and inliner interfaces) and the LLVM IR translations
/// (gpu-module-to-binary and the ExecutionEngine translate to LLVM IR).
/// The tools, the Python module and the C API's
/// fp8RegisterRequiredDialects all set their registry up with it.
void registerFP8RequiredDialects(DialectRegistry &registry);

/// Registers every fp8 pass and pass pipeline with the global registry.
void registerFP8Passes();

} // namespace fp8
} // namespace mlir

#endif // FP8_INITALL_H
