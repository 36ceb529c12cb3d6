// Hostile fp8 IR through the lowerings: rank-3 and dynamic scaled tensors,
// !fp8.scaled values through scf.if, calls and declarations, E5M2 with
// E8M0 scales, assemble, requantize, unused scaled arguments. Each is
// either lowered completely (no fp8 op, type or attribute left; the result
// verifies) or rejected with an error naming the limit; fp8-lower-to-nvvm
// generates kernels for all of them (dynamic M included) or leaves an op on
// the host with a remark.
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-linalg | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-cpu-pipeline | FileCheck %s --check-prefix=CPU
// RUN: fp8-opt %s -split-input-file -fp8-cpu-pipeline | FileCheck %s --check-prefix=CPUFN
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm=config=fixed 2>&1 | FileCheck %s --check-prefix=NVVM

// CHECK-NOT: fp8.
// CPU-NOT: fp8
// CPU-NOT: unrealized_conversion_cast
// CPU-NOT: func.func
// CPUFN: llvm.func @rank3
// CPUFN: llvm.func @dynq
// CPUFN: llvm.func @dynmm
// CPUFN: llvm.func @ext(
// CPUFN: llvm.func @callext
// CPUFN: llvm.func @inif
// CPUFN: llvm.func @scaledarg
// CPUFN: llvm.func @e5m2_e8m0
// CPUFN: llvm.func @assemble
// CPUFN: llvm.func @requant
// CPUFN: llvm.func @unused_scaled
// NVVM-NOT: error
// NVVM: llvm.func @fp8_quantize_dynx256_1x128_f32_e4m3(
// NVVM: llvm.func @fp8_scaled_matmul_dynx128x256_e4m3_e4m3_bf16(
// NVVM-NOT: error

func.func @rank3(%x: tensor<4x32x256xf32>) -> tensor<4x32x256xf32> {
  %q = fp8.quantize %x : tensor<4x32x256xf32> -> !fp8.scaled<4x32x256xf8E4M3FN, block = [1, 1, 128], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<4x32x256xf8E4M3FN, block = [1, 1, 128], scale = f32> -> tensor<4x32x256xf32>
  return %d : tensor<4x32x256xf32>
}
// -----
func.func @dynq(%x: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %q = fp8.quantize %x : tensor<?x256xf32> -> !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<?x256xf32>
  return %d : tensor<?x256xf32>
}
// -----
func.func @dynmm(%a: !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x128xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x128xbf16>
  return %d : tensor<?x128xbf16>
}
// -----
func.func private @ext(!fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
func.func @callext(%x: tensor<32x256xf32>) -> tensor<32x256xf32> {
  %q = fp8.quantize %x : tensor<32x256xf32> -> !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
  %r = func.call @ext(%q) : (!fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.dequantize %r : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<32x256xf32>
  return %d : tensor<32x256xf32>
}
// -----
func.func @inif(%c: i1, %x: tensor<32x256xf32>, %y: tensor<32x256xf32>) -> tensor<32x256xf32> {
  %q = fp8.quantize %x : tensor<32x256xf32> -> !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
  %r = scf.if %c -> !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32> {
    scf.yield %q : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
  } else {
    %q2 = fp8.quantize %y : tensor<32x256xf32> -> !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
    scf.yield %q2 : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
  }
  %d = fp8.dequantize %r : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<32x256xf32>
  return %d : tensor<32x256xf32>
}
// -----
func.func @scaledarg(%a: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<32x64xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<32x64xf32>
  return %d : tensor<32x64xf32>
}
// -----
func.func @e5m2_e8m0(%x: tensor<32x256xbf16>) -> tensor<32x256xbf16> {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<32x256xbf16> -> !fp8.scaled<32x256xf8E5M2, block = [1, 32], scale = f8E8M0FNU>
  %d = fp8.dequantize %q : !fp8.scaled<32x256xf8E5M2, block = [1, 32], scale = f8E8M0FNU> -> tensor<32x256xbf16>
  return %d : tensor<32x256xbf16>
}
// -----
func.func @assemble(%d: tensor<32x256xf8E4M3FN>, %s: tensor<32x2xf32>) -> tensor<32x256xf32> {
  %q = fp8.assemble %d, %s : tensor<32x256xf8E4M3FN>, tensor<32x2xf32> -> !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
  %o = fp8.dequantize %q : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<32x256xf32>
  return %o : tensor<32x256xf32>
}
// -----
func.func @requant(%x: tensor<256x128xf32>) -> tensor<128x256xf32> {
  %q = fp8.quantize %x : tensor<256x128xf32> -> !fp8.scaled<256x128xf8E4M3FN, block = [128, 128], scale = f32>
  %r = fp8.requantize %q {permutation = array<i64: 1, 0>} : !fp8.scaled<256x128xf8E4M3FN, block = [128, 128], scale = f32> -> !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>
  %o = fp8.dequantize %r : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<128x256xf32>
  return %o : tensor<128x256xf32>
}
// -----
func.func @unused_scaled(%a: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>) {
  return
}
