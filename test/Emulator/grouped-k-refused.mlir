// fp8-emu builds the operands and host references of the masked and
// contiguous grouped kernels; the k-grouped kernel (layout = k_grouped, the
// MoE Wgrad: per-column B scales, the groups along K), for which it has no
// reference, runs through its compiled host program instead
// (test/Integration/GPUHost/grouped-k-wgrad.mlir). fp8-emu says so, and does
// not run it as one of the others.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed > %t.mlir
// RUN: not fp8-emu %t.mlir 2>&1 | FileCheck %s

// CHECK: fp8-emu: error: kernel 'fp8_grouped_matmul_k_grouped_2x64x96x512_e4m3_e4m3_f32_b1x128' is k-grouped (the MoE Wgrad, layout = k_grouped): it runs through its compiled host program only (fp8-gpu-pipeline target=emulator)
// CHECK-NOT: PASS

func.func @k_grouped(%a: !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32>, %ids: tensor<512xi32>) -> tensor<2x64x96xf32> {
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) : !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<2x64x96xf32>
  return %d : tensor<2x64x96xf32>
}
