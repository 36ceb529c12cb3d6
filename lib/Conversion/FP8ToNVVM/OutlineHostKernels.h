//===- OutlineHostKernels.h - fp8-outline-host-kernels' pieces --*- C++ -*-===//
//
// What the two files of fp8-outline-host-kernels share: the checks of the
// op kernels (OutlineHostKernels.cpp) that the loop kernels also apply, and
// the analysis of the host loops that become one kernel each
// (OutlineHostLoops.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_OUTLINEHOSTKERNELS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_OUTLINEHOSTKERNELS_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cstdint>
#include <string>

namespace mlir::fp8::detail {

/// Element types a kernel may load and store (bare pointers of them).
bool isMemoryType(Type t);

/// Why a body op has no GPU lowering computing the host's bits (empty when
/// it has one). Float arithmetic is f32 only: bf16/f16 arithmetic would be
/// native on the GPU and widened on the host; f64 is not emulated.
std::string unsupportedBodyOp(Operation *op);

/// Why the buffer `v` cannot be a kernel parameter (empty when it can):
/// kernels take bare pointers, so its type must describe it.
std::string whyNotParameter(Value v);

/// Whether `op` is inside a host-parallel loop (the tiled CPU kernels'
/// scf.forall, OpenMP with threads > 1), which would launch from several
/// threads, one tiny kernel per chunk.
bool inHostParallelLoop(Operation *op);

/// Whether every iterator of `op` is parallel or a reduction (the loop
/// nests a kernel runs).
bool hasParallelOrReductionIterators(linalg::LinalgOp op);

/// Whether the host loop `loop` views its buffers at its own indices: a
/// memref.subview, load or store directly in its body (not in a linalg op
/// or a nested loop). The linalg ops on such views have dynamic offsets and
/// cannot be kernels one by one (the embedding gradient's scatter-add of
/// each token's row into the table row of its id).
bool viewsPerIteration(scf::ForOp loop);

/// Why the host loop `loop` cannot become one kernel running the loop nest
/// (empty when it can; threadOp says whether threads split it): the host's
/// order for every element, so the host's bits. Accepted: loops without results
/// whose bodies hold nested scf.for, memref.subview/load/store, linalg ops on
/// buffers with parallel/reduction iterators, and the arith/math ops the
/// op kernels accept; the values they use from above are scalars or
/// buffers a kernel can take (static shapes and layouts).
std::string whyHostLoop(scf::ForOp loop);

/// The linalg op of the host loop `loop` (whyHostLoop) whose iterations the
/// loop kernel's threads split, each thread running the whole loop for its
/// own element (null: one thread runs the loop). Every element then
/// accumulates in the loop's order, as on the host: the embedding
/// backward's threads over the hidden columns each add the tokens' rows in
/// token order. It must be the loop body's only op with a region or a
/// write, all its iterators parallel (static ranges, `total` of them), its
/// one output indexed by a permutation (each element one thread's) through
/// views that keep each thread's elements across iterations
/// (keepsThreadElements), and no buffer the loop reads outside that output
/// element the output's.
linalg::LinalgOp threadOp(scf::ForOp loop, int64_t &total);

} // namespace mlir::fp8::detail

#endif // FP8_LIB_CONVERSION_FP8TONVVM_OUTLINEHOSTKERNELS_H
