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

/// Registers every fp8 pass and pass pipeline with the global registry.
void registerFP8Passes();

} // namespace fp8
} // namespace mlir

#endif // FP8_INITALL_H
