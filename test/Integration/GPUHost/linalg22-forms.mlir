// The LLVM 22 linalg forms of a linear layer (fp8-normalize-forms, then
// fp8-insert-quant) as compiled host programs on the emulated mgpu
// runtime, bit for bit against fp8-cpu-pipeline on host_check's seeded
// random inputs: linalg.contract NT, linalg.vecmat and linalg.matvec
// (decode: one token, the GEMM kernel at M = 1), the heads split in the
// weight (linalg.contract mk,khd->mhd) and linalg.batch_reduce_matmul.
// Each function takes host_check's 1-D or 2-D operands and views them in
// the form's shapes. The hand-derived values of these forms are checked in
// test/Integration/CPU/linalg22-forms.mlir.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so contract_nt 1 f32:64x384 f32:64x256 f32:384x256 2>&1 | FileCheck %s --check-prefix=NT
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so vecmat 2 f32:384 f32:256 f32:256x384 2>&1 | FileCheck %s --check-prefix=VECMAT
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so matvec 3 f32:384 f32:384x256 f32:256 | FileCheck %s --check-prefix=MATVEC
// RUN: env FP8_EMU_SEED=4 %t.check %t.gpu.so %t.cpu.so heads 4 f32:64x256 f32:64x256 f32:256x256 | FileCheck %s --check-prefix=HEADS
// RUN: env FP8_EMU_SEED=5 %t.check %t.gpu.so %t.cpu.so batch_reduce 5 f32:64x384 f32:64x256 f32:256x384 | FileCheck %s --check-prefix=REDUCE

// NT: fp8-emu-mgpu: launch fp8_scaled_matmul_64x384x256
// NT: host-check: PASS contract_nt: 64x384, 24576 outputs bit-exact
// VECMAT: fp8-emu-mgpu: launch fp8_scaled_matmul_1x384x256
// VECMAT: host-check: PASS vecmat: 1x384, 384 outputs bit-exact
// MATVEC: host-check: PASS matvec: 1x384, 384 outputs bit-exact
// HEADS: host-check: PASS heads: 64x256, 16384 outputs bit-exact
// REDUCE: host-check: PASS batch_reduce: 64x384, 24576 outputs bit-exact

func.func @contract_nt(%x: tensor<64x256xf32>, %w: tensor<384x256xf32>) -> tensor<64x384xf32> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x384xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x384xf32>) -> tensor<64x384xf32>
  %y = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<64x256xf32>, tensor<384x256xf32>) outs(%f : tensor<64x384xf32>) -> tensor<64x384xf32>
  return %y : tensor<64x384xf32>
}

func.func @vecmat(%x: tensor<256xf32>, %w: tensor<256x384xf32>) -> tensor<384xf32> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<384xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<384xf32>) -> tensor<384xf32>
  %y = linalg.vecmat ins(%x, %w : tensor<256xf32>, tensor<256x384xf32>) outs(%f : tensor<384xf32>) -> tensor<384xf32>
  return %y : tensor<384xf32>
}

func.func @matvec(%w: tensor<384x256xf32>, %x: tensor<256xf32>) -> tensor<384xf32> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<384xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<384xf32>) -> tensor<384xf32>
  %y = linalg.matvec ins(%w, %x : tensor<384x256xf32>, tensor<256xf32>) outs(%f : tensor<384xf32>) -> tensor<384xf32>
  return %y : tensor<384xf32>
}

// The [256, 256] weight viewed as [K, 2 heads, 128].
func.func @heads(%x: tensor<64x256xf32>, %w: tensor<256x256xf32>) -> tensor<64x256xf32> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : f32
  %w3 = tensor.expand_shape %w [[0], [1, 2]] output_shape [256, 2, 128] : tensor<256x256xf32> into tensor<256x2x128xf32>
  %e = tensor.empty() : tensor<64x2x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x2x128xf32>) -> tensor<64x2x128xf32>
  %y = linalg.contract indexing_maps = [affine_map<(m, h, d, k) -> (m, k)>, affine_map<(m, h, d, k) -> (k, h, d)>, affine_map<(m, h, d, k) -> (m, h, d)>]
      ins(%x, %w3 : tensor<64x256xf32>, tensor<256x2x128xf32>) outs(%f : tensor<64x2x128xf32>) -> tensor<64x2x128xf32>
  %r = tensor.collapse_shape %y [[0], [1, 2]] : tensor<64x2x128xf32> into tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// x [64, 2 * 128] as [R = 2, 64, 128] chunks, w [2 * 128, 384] as [2, 128, 384].
func.func @batch_reduce(%x: tensor<64x256xf32>, %w: tensor<256x384xf32>) -> tensor<64x384xf32> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : f32
  %x3 = tensor.expand_shape %x [[0], [1, 2]] output_shape [64, 2, 128] : tensor<64x256xf32> into tensor<64x2x128xf32>
  %et = tensor.empty() : tensor<2x64x128xf32>
  %xr = linalg.transpose ins(%x3 : tensor<64x2x128xf32>) outs(%et : tensor<2x64x128xf32>) permutation = [1, 0, 2]
  %w3 = tensor.expand_shape %w [[0, 1], [2]] output_shape [2, 128, 384] : tensor<256x384xf32> into tensor<2x128x384xf32>
  %e = tensor.empty() : tensor<64x384xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x384xf32>) -> tensor<64x384xf32>
  %y = linalg.batch_reduce_matmul ins(%xr, %w3 : tensor<2x64x128xf32>, tensor<2x128x384xf32>) outs(%f : tensor<64x384xf32>) -> tensor<64x384xf32>
  return %y : tensor<64x384xf32>
}
