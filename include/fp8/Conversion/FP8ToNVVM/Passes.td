//===- Passes.td - fp8 GPU (sm_90a) lowering passes --------*- tablegen -*-===//
#ifndef FP8_CONVERSION_FP8TONVVM_PASSES
#define FP8_CONVERSION_FP8TONVVM_PASSES

include "mlir/Pass/PassBase.td"

def FP8LowerToNVVM : Pass<"fp8-lower-to-nvvm", "ModuleOp"> {
  let summary = "Generate sm_90a block-scaled FP8 GEMM kernels (TMA, wgmma "
                "e4m3/e5m2, FP32 promotion) for fp8.scaled_matmul";
  let description = [{
    For every `fp8.scaled_matmul` with static shapes, adds a kernel to the
    `gpu.module @fp8_kernels` (created with an `#nvvm.target` for `chip`):
    an `llvm.func` in the NVVM dialect named
    `fp8_scaled_matmul_<M>x<N>x<K>_<a>_<b>_<out>`. The host op is left in
    place; the kernel ABI and launch configuration are those of
    `include/fp8/Conversion/GemmKernelConfig.h` (shared with `runtime/`).

    Kernel structure (DeepSeek-V3 §3.3.2; DeepGEMM's public SM90 FP8 GEMM
    is the structural reference): persistent CTAs over BLOCK_M x 128 output
    tiles; one producer warpgroup (`setmaxnreg` 40) whose elected thread
    issues TMA loads of A [BLOCK_M x 128], B [128 x 128] (128-byte swizzle)
    and the A scales [BLOCK_M] of each K block into a `stages`-deep ring
    guarded by full/empty mbarriers (`expect_tx`, parity waits); one or two
    consumer warpgroups (`setmaxnreg` 232), each issuing four
    `wgmma.mma_async.m64n128k32.f32.<a>.<b>` per 128-wide K block (the first
    with scale-d = 0), then after `wgmma.wait_group 0` promoting the partial
    into FP32 accumulators: `acc += partial * (sa[row, kb] * sb[n / 128, kb])`,
    each thread fetching the two A scales of the rows its accumulator
    fragment holds (WgmmaFragment.h). The epilogue converts to bf16 (RNE)
    or keeps f32 and stores with M/N tails masked; K tails are zero-filled by
    TMA's out-of-bounds fill.

    Requirements (diagnosed otherwise): static shapes; FP8 operands with f32
    scales, `a` blocks [1, 128], `b` blocks [128, 128], promote_interval
    128 (the DeepSeek-V3 recipe); K a multiple of 16 (TMA global strides are
    16-byte multiples); no `acc` operand yet.
  }];
  let options = [
    Option<"chip", "chip", "std::string", [{"sm_90a"}],
           "Target chip (sm_90a: wgmma and setmaxnreg need the 'a' target)">,
    Option<"features", "features", "std::string", [{"+ptx80"}],
           "PTX features of the #nvvm.target">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect"
  ];
}

#endif // FP8_CONVERSION_FP8TONVVM_PASSES
