//===- TensorCoreMatmul.cpp - the contractions on BF16 tensor cores -------===//

#include "fp8/Dialect/FP8/Utils/TensorCoreMatmul.h"
#include "fp8/Target/Hopper/GemmKernelConfig.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;

bool fp8::isBF16MatmulCandidate(Operation *op) {
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
    return false;
  auto mm = cast<linalg::LinalgOp>(op);
  if (!mm.hasPureTensorSemantics() || mm.hasUserDefinedMaps() ||
      !op->getParentOfType<func::FuncOp>() || op->getNumResults() != 1)
    return false;
  auto elem = [](Value v) {
    return cast<ShapedType>(v.getType()).getElementType();
  };
  return elem(mm.getDpsInputs()[0]).isBF16() &&
         elem(mm.getDpsInputs()[1]).isBF16() &&
         elem(mm.getDpsInits()[0]).isF32() && elem(op->getResult(0)).isF32();
}

std::string fp8::explainNoBF16MatmulKernel(Operation *op) {
  auto mm = cast<linalg::LinalgOp>(op);
  auto aTy = cast<RankedTensorType>(mm.getDpsInputs()[0].getType());
  auto bTy = cast<RankedTensorType>(mm.getDpsInputs()[1].getType());
  std::string why;
  llvm::raw_string_ostream os(why);
  // A batch_matmul's [G, M, K] x [G, K, N]: the batch is the outer
  // dimension, the rest a matmul's.
  const bool batched = isa<linalg::BatchMatmulOp>(op);
  const int64_t r = batched ? 1 : 0;
  int64_t m = aTy.getDimSize(r), k = aTy.getDimSize(r + 1),
          n = bTy.getDimSize(r + 1);
  int64_t g = batched ? aTy.getDimSize(0) : 1;
  // M may be dynamic (one kernel for every M, M its i32 parameter; a
  // batch's rows in C and D start at g * M with that M), so may a batch's
  // count (one kernel for every G, G its i32 parameter: the grid's
  // group-major tile count); N and K are compiled in (K: the tail's wgmma
  // steps are static). A run-time M's or G's size limits are the
  // launcher's run-time checks (fp8-launch-kernels).
  if (ShapedType::isDynamic(n) || ShapedType::isDynamic(k) ||
      ShapedType::isDynamic(bTy.getDimSize(r))) {
    os << "the bf16 kernel needs a static N and K (M and a batch may be "
          "dynamic), got "
       << aTy << " x " << bTy;
    return why;
  }
  if (m == 0 || n == 0 || k == 0 || g == 0) {
    os << "an empty problem: nothing to launch";
    return why;
  }
  // TMA global strides are multiples of 16 bytes: the rows of A (K bf16)
  // and of B (N bf16).
  if (k % 8 != 0 || n % 8 != 0) {
    os << "the bf16 kernel needs N and K multiples of 8 (the TMA maps' row "
          "strides of A [M, K] and B [K, N] are multiples of 16 bytes), got "
       << "N = " << n << ", K = " << k;
    return why;
  }
  // A batch's rows of C and D: g * M + row in 32 bits (a run-time M or G:
  // the launcher's check; a static M is still below 2^31 here).
  const bool dynamicRows = ShapedType::isDynamic(m) || ShapedType::isDynamic(g);
  int64_t rows = dynamicRows ? m : g * m;
  for (int64_t s : {rows, n, k})
    if (!ShapedType::isDynamic(s) && s >= GemmKernelConfig::kMaxExtent) {
      os << "needs every size below 2^31 (the kernels' TMA coordinates and "
            "row counts are signed 32-bit), got "
         << s;
      return why;
    }
  // The batch kernel's grid walks G x (its tiles) tile indices in 32 bits:
  // at most G x ceil(M / 64) x ceil(N / 128) (below 2^55 here: G x M and N
  // are below 2^31).
  if (batched && !dynamicRows &&
      g * GemmKernelConfig::ceilDiv(m, 64) *
              GemmKernelConfig::ceilDiv(n, 128) >=
          GemmKernelConfig::kMaxExtent)
    os << "the bf16 batch kernel needs fewer than 2^31 tiles (G x ceil(M / "
          "64) x ceil(N / 128)), got G = "
       << g << ", M = " << m << ", N = " << n;
  return why;
}
