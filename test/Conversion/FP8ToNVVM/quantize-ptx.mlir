// The quantize kernels through fp8-gpu-pipeline to PTX, then ptxas for
// sm_90a: they must assemble with no spills, and the PTX must hold the
// NaN-propagating max, IEEE division (div.rn.f32: x / s as in the CPU
// reference, not a reciprocal multiply) and the hardware satfinite
// conversions (2 per thread for a 1x128 tile, 32 for a 128x128 block).
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a" | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK-LABEL: .entry fp8_quantize_4096x7168_1x128_bf16_e4m3(
// CHECK: .maxntid 256, 1, 1
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK: div.rn.f32
// CHECK-COUNT-2: cvt.rn.satfinite.e4m3x2.f32
// CHECK: ret;
// CHECK-LABEL: .entry fp8_quantize_7168x16384_128x128_f32_e4m3(
// CHECK: max.NaN.f32
// CHECK: bar.sync 0;
// CHECK-COUNT-32: cvt.rn.satfinite.e4m3x2.f32
// CHECK: ret;

// PTXAS-DAG: Compiling entry function 'fp8_quantize_4096x7168_1x128_bf16_e4m3' for 'sm_90a'
// PTXAS-DAG: Compiling entry function 'fp8_quantize_7168x16384_128x128_f32_e4m3' for 'sm_90a'
// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
// PTXAS-NOT: warning

func.func @act(%x: tensor<4096x7168xbf16>) -> !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<4096x7168xbf16> -> !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @weight(%x: tensor<7168x16384xf32>) -> !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<7168x16384xf32> -> !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32>
  return %q : !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32>
}
