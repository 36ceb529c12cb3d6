// The kernel with per-column B scales (b blocks [1, 128]: the Wgrad GEMM of
// training, DeepGEMM's "1D-1D" form) on the CPU emulator, bit-exact against
// the host reference of the numerics contract (fp8-emu's referenceGemm:
// acc = fma(partial, sa[row] * sb[col], acc) per K block, sb [N, KB]), in
// the configurations the cost model may pick: BLOCK_N 16 .. 168 (the
// register limit of this kernel), 256 with two consumers splitting the
// columns, BLOCK_M 64 / 128 / 256, 2 to 8 stages (a wrapping ring), fewer
// CTAs than tiles; shapes with M, N and K tails (N = 129 and 65: odd, the
// transposed scale rows zero-padded to the tiles' columns), e4m3/e5m2,
// bf16 and f32 out, the accumulator operand C (f32, bf16) and a dynamic M. fp8-emu exits with 1 if an output differs.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed > %t.fixed.mlir
// RUN: fp8-emu %t.fixed.mlir --seed 1 --m 130 | FileCheck %s --check-prefix=FIXED
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-n=16" > %t.n16.mlir
// RUN: fp8-emu %t.n16.mlir --seed 2 --m 65 | FileCheck %s --check-prefix=N16
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-n=64 stages=2" > %t.n64.mlir
// RUN: fp8-emu %t.n64.mlir --seed 3 --m 1 --max-quantum 5 | FileCheck %s --check-prefix=N64
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-n=96" > %t.n96.mlir
// RUN: fp8-emu %t.n96.mlir --seed 4 --m 200 --sm-count 3 | FileCheck %s --check-prefix=N96
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-n=168" > %t.n168.mlir
// RUN: fp8-emu %t.n168.mlir --seed 5 --m 130 | FileCheck %s --check-prefix=N168
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=256" > %t.n256.mlir
// RUN: fp8-emu %t.n256.mlir --seed 6 --m 64 --max-quantum 7 | FileCheck %s --check-prefix=N256
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=256 block-n=64" > %t.m256.mlir
// RUN: fp8-emu %t.m256.mlir --seed 7 --m 257 | FileCheck %s --check-prefix=M256
// The cost model's choice (config=auto, the default) for each static shape.
// RUN: fp8-opt %s --fp8-lower-to-nvvm > %t.auto.mlir
// RUN: fp8-emu %t.auto.mlir --seed 8 --m 3 | FileCheck %s --check-prefix=AUTO
// Clusters of 2 (an explicit option: the cost model does not choose them).
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=16 cluster=2" > %t.cl2.mlir
// RUN: fp8-emu %t.cl2.mlir --seed 9 --m 3 | FileCheck %s --check-prefix=CL2

// A wrong B-scale column: the odd column of each fragment pair takes the even
// column's scale (each extractelement of lane 1 of a loaded pair reads lane 0).
// RUN: awk '/llvm.extractelement/ && match($0, /\[%c0_i32[_0-9]*/) { z = substr($0, RSTART, RLENGTH) } /llvm.extractelement/ { sub(/\[%c1_i32[_0-9]*/, z) } { print }' %t.fixed.mlir | not fp8-emu --kernel fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128 2>&1 | FileCheck %s --check-prefix=COLUMN
// COLUMN: fp8-emu: error: kernel 'fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128': {{[0-9]+}} of 60000 outputs differ from the host reference; first at (0, 1)
// A wrong B-scale column offset: register group 1 loads the pair of
// columns 10, 11 of the thread's first instead of 8, 9 (an aligned
// in-bounds load, only the values are wrong).
// RUN: sed -E 's/llvm.getelementptr (%[0-9]+)\[8\] : \(!llvm.ptr<1>\) -> !llvm.ptr<1>, f32/llvm.getelementptr \1[10] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32/' %t.fixed.mlir | not fp8-emu --kernel fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_b1x128 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: fp8-emu: error: kernel 'fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_b1x128': {{[0-9]+}} of 33800 outputs differ from the host reference; first at (0, 8)

// FIXED-DAG: fp8-emu: PASS fp8_scaled_matmul_127x65x136_e5m2_e5m2_bf16_b1x128: 127x65x136, 8255 outputs bit-exact
// FIXED-DAG: fp8-emu: PASS fp8_scaled_matmul_130x129x136_e4m3_e4m3_bf16_accf32_b1x128: 130x129x136, 16770 outputs bit-exact
// FIXED-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128: 200x300x400, 60000 outputs bit-exact
// FIXED-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_b1x128: 65x520x272, 33800 outputs bit-exact
// FIXED-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x40_e5m2_e4m3_f32_accbf16_b1x128: 130x200x40, 26000 outputs bit-exact

// N16-DAG: fp8-emu: PASS fp8_scaled_matmul_127x65x136_e5m2_e5m2_bf16_b1x128_t128x16s8: 127x65x136, 8255 outputs bit-exact
// N16-DAG: fp8-emu: PASS fp8_scaled_matmul_130x129x136_e4m3_e4m3_bf16_accf32_b1x128_t128x16s8: 130x129x136, 16770 outputs bit-exact
// N16-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_t128x16s8: 200x300x400, 60000 outputs bit-exact
// N16-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_b1x128_t128x16s8: 65x520x272, 33800 outputs bit-exact
// N16-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x40_e5m2_e4m3_f32_accbf16_b1x128_t128x16s8: 65x200x40, 13000 outputs bit-exact

// N64-DAG: fp8-emu: PASS fp8_scaled_matmul_127x65x136_e5m2_e5m2_bf16_b1x128_t128x64s2: 127x65x136, 8255 outputs bit-exact
// N64-DAG: fp8-emu: PASS fp8_scaled_matmul_130x129x136_e4m3_e4m3_bf16_accf32_b1x128_t128x64s2: 130x129x136, 16770 outputs bit-exact
// N64-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_t128x64s2: 200x300x400, 60000 outputs bit-exact
// N64-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_b1x128_t128x64s2: 65x520x272, 33800 outputs bit-exact
// N64-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x40_e5m2_e4m3_f32_accbf16_b1x128_t128x64s2: 1x200x40, 200 outputs bit-exact

// N96-DAG: fp8-emu: PASS fp8_scaled_matmul_127x65x136_e5m2_e5m2_bf16_b1x128_t128x96s7: 127x65x136, 8255 outputs bit-exact (grid 1,
// N96-DAG: fp8-emu: PASS fp8_scaled_matmul_130x129x136_e4m3_e4m3_bf16_accf32_b1x128_t128x96s7: 130x129x136, 16770 outputs bit-exact (grid 3,
// N96-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_t128x96s7: 200x300x400, 60000 outputs bit-exact (grid 3,
// N96-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_b1x128_t128x96s7: 65x520x272, 33800 outputs bit-exact (grid 3,
// N96-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x40_e5m2_e4m3_f32_accbf16_b1x128_t128x96s7: 200x200x40, 40000 outputs bit-exact (grid 3,

// N168-DAG: fp8-emu: PASS fp8_scaled_matmul_127x65x136_e5m2_e5m2_bf16_b1x128_t128x168s6: 127x65x136, 8255 outputs bit-exact
// N168-DAG: fp8-emu: PASS fp8_scaled_matmul_130x129x136_e4m3_e4m3_bf16_accf32_b1x128_t128x168s6: 130x129x136, 16770 outputs bit-exact
// N168-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_t128x168s6: 200x300x400, 60000 outputs bit-exact
// N168-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_b1x128_t128x168s6: 65x520x272, 33800 outputs bit-exact
// N168-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x40_e5m2_e4m3_f32_accbf16_b1x128_t128x168s6: 130x200x40, 26000 outputs bit-exact

// N256-DAG: fp8-emu: PASS fp8_scaled_matmul_127x65x136_e5m2_e5m2_bf16_b1x128_t64x256s5c2: 127x65x136, 8255 outputs bit-exact
// N256-DAG: fp8-emu: PASS fp8_scaled_matmul_130x129x136_e4m3_e4m3_bf16_accf32_b1x128_t64x256s5c2: 130x129x136, 16770 outputs bit-exact
// N256-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_t64x256s5c2: 200x300x400, 60000 outputs bit-exact
// N256-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_b1x128_t64x256s5c2: 65x520x272, 33800 outputs bit-exact
// N256-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x40_e5m2_e4m3_f32_accbf16_b1x128_t64x256s5c2: 64x200x40, 12800 outputs bit-exact

// M256-DAG: fp8-emu: PASS fp8_scaled_matmul_127x65x136_e5m2_e5m2_bf16_b1x128_t256x64s5: 127x65x136, 8255 outputs bit-exact
// M256-DAG: fp8-emu: PASS fp8_scaled_matmul_130x129x136_e4m3_e4m3_bf16_accf32_b1x128_t256x64s5: 130x129x136, 16770 outputs bit-exact
// M256-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_t256x64s5: 200x300x400, 60000 outputs bit-exact
// M256-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_b1x128_t256x64s5: 65x520x272, 33800 outputs bit-exact
// M256-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x40_e5m2_e4m3_f32_accbf16_b1x128_t256x64s5: 257x200x40, 51400 outputs bit-exact

// AUTO-DAG: fp8-emu: PASS fp8_scaled_matmul_127x65x136_e5m2_e5m2_bf16_b1x128_t64x16s8: 127x65x136, 8255 outputs bit-exact
// AUTO-DAG: fp8-emu: PASS fp8_scaled_matmul_130x129x136_e4m3_e4m3_bf16_accf32_b1x128_t64x16s8: 130x129x136, 16770 outputs bit-exact
// AUTO-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_t64x16s8: 200x300x400, 60000 outputs bit-exact
// AUTO-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_b1x128_t64x16s8: 65x520x272, 33800 outputs bit-exact
// AUTO-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x40_e5m2_e4m3_f32_accbf16_b1x128: 3x200x40, 600 outputs bit-exact

// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_127x65x136_e5m2_e5m2_bf16_b1x128_t64x16s8cl2: 127x65x136, 8255 outputs bit-exact
// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_130x129x136_e4m3_e4m3_bf16_accf32_b1x128_t64x16s8cl2: 130x129x136, 16770 outputs bit-exact
// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_t64x16s8cl2: 200x300x400, 60000 outputs bit-exact
// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_b1x128_t64x16s8cl2: 65x520x272, 33800 outputs bit-exact
// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x40_e5m2_e4m3_f32_accbf16_b1x128_t64x16s8cl2: 3x200x40, 600 outputs bit-exact

func.func @n300(%a: !fp8.scaled<200x400xf8E4M3FN, block = [1, 128], scale = f32>,
                %b: !fp8.scaled<300x400xf8E4M3FN, block = [1, 128], scale = f32>) -> tensor<200x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x400xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<300x400xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<200x300xbf16>
  return %d : tensor<200x300xbf16>
}

func.func @n520_f32(%a: !fp8.scaled<65x272xf8E4M3FN, block = [1, 128], scale = f32>,
                    %b: !fp8.scaled<520x272xf8E4M3FN, block = [1, 128], scale = f32>) -> tensor<65x520xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<65x272xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<520x272xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<65x520xf32>
  return %d : tensor<65x520xf32>
}

func.func @n129_c_f32(%a: !fp8.scaled<130x136xf8E4M3FN, block = [1, 128], scale = f32>,
                      %b: !fp8.scaled<129x136xf8E4M3FN, block = [1, 128], scale = f32>,
                      %c: tensor<130x129xf32>) -> tensor<130x129xbf16> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<130x129xf32>) : !fp8.scaled<130x136xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<129x136xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<130x129xbf16>
  return %d : tensor<130x129xbf16>
}

func.func @dyn_c_bf16(%a: !fp8.scaled<?x40xf8E5M2, block = [1, 128], scale = f32>,
                      %b: !fp8.scaled<200x40xf8E4M3FN, block = [1, 128], scale = f32>,
                      %c: tensor<?x200xbf16>) -> tensor<?x200xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<?x200xbf16>) : !fp8.scaled<?x40xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<200x40xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<?x200xf32>
  return %d : tensor<?x200xf32>
}

func.func @n65_e5m2(%a: !fp8.scaled<127x136xf8E5M2, block = [1, 128], scale = f32>,
                    %b: !fp8.scaled<65x136xf8E5M2, block = [1, 128], scale = f32>) -> tensor<127x65xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<127x136xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<65x136xf8E5M2, block = [1, 128], scale = f32> -> tensor<127x65xbf16>
  return %d : tensor<127x65xbf16>
}
