// The transpose-requantize kernel (fp8.requantize [T, F] -> [F, T], 1x128
// tiles in and out) through fp8-gpu-pipeline to PTX, then ptxas for sm_90a:
// it must assemble with no spills; the PTX holds the input's byte loads,
// the NaN-propagating amax over the warp (5 shfl.sync.bfly), IEEE division
// and two satfinite conversions per thread, as the quantize kernel.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a" | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK-LABEL: .entry fp8_requantize_t_7168x4096_1x128_e4m3_e4m3(
// CHECK: .maxntid 256, 1, 1
// CHECK: ld.global.{{[su]}}8
// CHECK: mul.rn.f32
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK: div.rn.f32
// CHECK-COUNT-2: cvt.rn.satfinite.e4m3x2.f32
// CHECK: ret;
// CHECK-LABEL: .entry fp8_requantize_t_2112x130_1x128_e5m2_e5m2(
// CHECK-COUNT-2: cvt.rn.satfinite.e5m2x2.f32
// CHECK: ret;

// PTXAS-DAG: Compiling entry function 'fp8_requantize_t_7168x4096_1x128_e4m3_e4m3' for 'sm_90a'
// PTXAS-DAG: Compiling entry function 'fp8_requantize_t_2112x130_1x128_e5m2_e5m2' for 'sm_90a'
// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
// PTXAS-NOT: warning

func.func @wgrad_operands(%x: !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
                          %g: !fp8.scaled<130x2112xf8E5M2, block = [1, 128], scale = f32>)
    -> (!fp8.scaled<7168x4096xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2112x130xf8E5M2, block = [1, 128], scale = f32>) {
  %xt = fp8.requantize %x {permutation = array<i64: 1, 0>} : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<7168x4096xf8E4M3FN, block = [1, 128], scale = f32>
  %gt = fp8.requantize %g {permutation = array<i64: 1, 0>} : !fp8.scaled<130x2112xf8E5M2, block = [1, 128], scale = f32> -> !fp8.scaled<2112x130xf8E5M2, block = [1, 128], scale = f32>
  return %xt, %gt : !fp8.scaled<7168x4096xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2112x130xf8E5M2, block = [1, 128], scale = f32>
}
