// GEMM kernels with an accumulator operand C and with K not a multiple of 16
// run on the CPU emulator bit-exact against the host reference of the
// numerics contract (acc starts at C, then fma(partial, sa * sb, acc) per
// K block; fp8-emu draws C and pads the codes' rows with zero codes to a
// multiple of 16 bytes, as the compiled host program does): C in f32 and
// bf16, bf16 and f32 output, e4m3/e5m2, K = 136 (a K tail of 8 past 128),
// K = 40 (K < 128, padded to 48), M/N tails, a run-time M; and BLOCK_N = 16
// with C (sixteen 16-column tiles per 128-column B-scale block).
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed > %t.mlir
// RUN: fp8-emu %t.mlir --seed 1 --m 130 | FileCheck %s
// RUN: fp8-emu %t.mlir --seed 2 --m 1 --max-quantum 3 --sm-count 2 | FileCheck %s --check-prefix=SM2
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed block-n=16" > %t.n16.mlir
// RUN: fp8-emu %t.n16.mlir --seed 3 --m 65 --kernel fp8_scaled_matmul_130x136x136_e4m3_e4m3_bf16_accf32_t128x16s8 | FileCheck %s --check-prefix=N16

// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_130x136x136_e4m3_e4m3_bf16_accf32: 130x136x136, 17680 outputs bit-exact
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_65x200x40_e5m2_e4m3_f32_accbf16: 65x200x40, 13000 outputs bit-exact
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx129x272_e4m3_e5m2_f32_accf32: 130x129x272, 16770 outputs bit-exact
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_127x65x136_e5m2_e5m2_bf16: 127x65x136, 8255 outputs bit-exact
// SM2-DAG: fp8-emu: PASS fp8_scaled_matmul_130x136x136_e4m3_e4m3_bf16_accf32: 130x136x136, 17680 outputs bit-exact (grid 2,
// SM2-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx129x272_e4m3_e5m2_f32_accf32: 1x129x272, 129 outputs bit-exact (grid 2,
// N16: fp8-emu: PASS fp8_scaled_matmul_130x136x136_e4m3_e4m3_bf16_accf32_t128x16s8: 130x136x136, 17680 outputs bit-exact (grid 18,

func.func @c_f32_k136(%a: !fp8.scaled<130x136xf8E4M3FN, block = [1, 128], scale = f32>,
                      %b: !fp8.scaled<136x136xf8E4M3FN, block = [128, 128], scale = f32>,
                      %c: tensor<130x136xf32>) -> tensor<130x136xbf16> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<130x136xf32>) : !fp8.scaled<130x136xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<136x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x136xbf16>
  return %d : tensor<130x136xbf16>
}

func.func @c_bf16_k40(%a: !fp8.scaled<65x40xf8E5M2, block = [1, 128], scale = f32>,
                      %b: !fp8.scaled<200x40xf8E4M3FN, block = [128, 128], scale = f32>,
                      %c: tensor<65x200xbf16>) -> tensor<65x200xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<65x200xbf16>) : !fp8.scaled<65x40xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<200x40xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<65x200xf32>
  return %d : tensor<65x200xf32>
}

func.func @c_f32_dyn(%a: !fp8.scaled<?x272xf8E4M3FN, block = [1, 128], scale = f32>,
                     %b: !fp8.scaled<129x272xf8E5M2, block = [128, 128], scale = f32>,
                     %c: tensor<?x129xf32>) -> tensor<?x129xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<?x129xf32>) : !fp8.scaled<?x272xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<129x272xf8E5M2, block = [128, 128], scale = f32> -> tensor<?x129xf32>
  return %d : tensor<?x129xf32>
}

func.func @k136_e5m2(%a: !fp8.scaled<127x136xf8E5M2, block = [1, 128], scale = f32>,
                     %b: !fp8.scaled<65x136xf8E5M2, block = [128, 128], scale = f32>) -> tensor<127x65xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<127x136xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<65x136xf8E5M2, block = [128, 128], scale = f32> -> tensor<127x65xbf16>
  return %d : tensor<127x65xbf16>
}
