// The quantize epilogue: a GEMM whose result only an fp8.quantize into
// [1, 128] tiles reads (the next FP8 linear's input) is one kernel that
// stores the codes and 1x128 scales (kernel suffix `_q<fp8>`, a 7th
// parameter: the scales) instead of D; no quantize kernel runs for it.
// Each function returns the second GEMM's result and the dequantized
// codes of the fused quantize (any wrong code or scale shows there); both
// must equal fp8-cpu-pipeline bit for bit, under several schedules of the
// emulator. Tails: M = 130 (a 2-row second tile), N = 200 (a 72-column
// last tile), N = 129 (odd: byte stores; a last tile of one column), a
// dynamic M; bf16 results (rounded before the amax) with pow2 scales, f32
// results with E5M2 codes, eps = 1e-3 and an accumulator C (whose last
// column the columns past N start from, read clamped: they must not reach
// the amax).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" -o %t.gpu.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: mlir-translate --mlir-to-llvmir %t.gpu.mlir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so chain_bf16 1 f32:130x136,f32:130x200 f32:130x272 f32:200x272 f32:136x200 2>&1 | FileCheck %s --check-prefix=BF16
// RUN: env FP8_EMU_SEED=5 %t.check %t.gpu.so %t.cpu.so chain_bf16 2 f32:130x136,f32:130x200 f32:130x272 f32:200x272 f32:136x200 | FileCheck %s --check-prefix=PASS2
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so chain_bf16 3 f32:130x136,f32:130x200 f32:130x272 f32:200x272 f32:136x200 | FileCheck %s --check-prefix=PASS2
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so chain_f32 4 bf16:70x136,f32:70x129 f32:70x272 f32:129x272 f32:136x129 f32:70x129 2>&1 | FileCheck %s --check-prefix=F32
// Column splits: block-m 64 with block-n 256 runs two consumers of 128
// columns each (the second one's scales start at tile 1); block-n 112
// cannot hold a 1x128 tile per consumer, so the GEMM and the quantize stay
// two kernels; so they do with quantize-epilogue=false.
// RUN: fp8-opt %s --fp8-gpu-pipeline="block-m=64 block-n=256 chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.split.ll
// RUN: %clang %t.split.ll -o %t.split.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.split.so %t.cpu.so chain_bf16 5 f32:130x136,f32:130x200 f32:130x272 f32:200x272 f32:136x200 2>&1 | FileCheck %s --check-prefix=SPLIT
// N = 300: the second consumer of the last tile (columns 384..511) starts
// past N, so it stores no scale (index 300 / 128 = 3 of a row of 3 would be
// the next row's first scale, or past the buffer for the last row).
// RUN: env FP8_EMU_TRACE=1 %t.check %t.split.so %t.cpu.so split_n300 8 f32:130x300 f32:130x272 f32:300x272 2>&1 | FileCheck %s --check-prefix=SPLIT300
// RUN: fp8-opt %s --fp8-gpu-pipeline="block-n=112 chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.narrow.ll
// RUN: %clang %t.narrow.ll -o %t.narrow.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.narrow.so %t.cpu.so chain_bf16 6 f32:130x136,f32:130x200 f32:130x272 f32:200x272 f32:136x200 2>&1 | FileCheck %s --check-prefix=NARROW
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed quantize-epilogue=false chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.off.ll
// RUN: %clang %t.off.ll -o %t.off.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.off.so %t.cpu.so chain_bf16 7 f32:130x136,f32:130x200 f32:130x272 f32:200x272 f32:136x200 2>&1 | FileCheck %s --check-prefix=NARROW

// REMARK: remark: fp8-lower-to-nvvm: the GEMM kernel's epilogue computes the fp8.quantize of its result
// REMARK: remark: fp8-lower-to-nvvm: the GEMM kernel's epilogue computes the fp8.quantize of its result
// REMARK-NOT: stays on the host

// Grids by hand. The fused GEMM: 130 x 200 in 128 x 128 tiles, 2 x 2 = 4
// CTAs of 384 threads, 7 parameters (tmapA, tmapB, tmapSA, sb, codes, m,
// scales). The second GEMM: 130 x 136, 2 x 2 tiles, 6 parameters.
// BF16: launch fp8_quantize_130x272_1x128_f32_e4m3 grid
// BF16: launch fp8_quantize_200x272_128x128_f32_e4m3 grid
// BF16: launch fp8_scaled_matmul_130x200x272_e4m3_e4m3_bf16_qe4m3_pow2 grid 4 block 384 smem {{[0-9]+}} params 7
// BF16-NOT: launch fp8_quantize_130x200
// BF16: launch fp8_scaled_matmul_130x136x200_e4m3_e4m3_f32 grid 4 block 384 smem {{[0-9]+}} params 6
// BF16: host-check: PASS chain_bf16#0: 130x136, 17680 outputs bit-exact
// BF16: host-check: PASS chain_bf16#1: 130x200, 26000 outputs bit-exact
// PASS2-COUNT-2: host-check: PASS chain_bf16#{{[01]}}

// chain_f32: M = 70 at run time, ceil(70 / 128) x ceil(129 / 128) = 2
// tiles; 8 parameters (C before the scales).
// F32: launch fp8_scaled_matmul_dynx129x272_e4m3_e4m3_f32_accf32_qe5m2_eps3a83126f grid 2 block 384 smem {{[0-9]+}} params 8
// F32-NOT: launch fp8_quantize_dynx129
// F32: host-check: PASS chain_f32#0: 70x136, 9520 outputs bit-exact
// F32: host-check: PASS chain_f32#1: 70x129, 9030 outputs bit-exact

// The column split: 130 x 200 in 64 x 256 tiles, 3 x 1.
// SPLIT: launch fp8_scaled_matmul_130x200x272_e4m3_e4m3_bf16_qe4m3_pow2_t64x256s{{[0-9]+}}c2 grid 3 block 384
// SPLIT-NOT: launch fp8_quantize_130x200
// SPLIT-COUNT-2: host-check: PASS chain_bf16#{{[01]}}
// SPLIT300: launch fp8_scaled_matmul_130x300x272_e4m3_e4m3_bf16_qe4m3_t64x256s{{[0-9]+}}c2 grid 6 block 384
// SPLIT300-NOT: launch fp8_quantize_130x300
// SPLIT300: host-check: PASS split_n300: 130x300, 39000 outputs bit-exact

// NARROW: launch fp8_scaled_matmul_130x200x272_e4m3_e4m3_bf16{{(_t[0-9x]+s[0-9]+)?}} grid
// NARROW: launch fp8_quantize_130x200_1x128_bf16_e4m3_pow2 grid
// NARROW-COUNT-2: host-check: PASS chain_bf16#{{[01]}}

func.func @chain_bf16(%x: tensor<130x272xf32>, %w1: tensor<200x272xf32>, %w2: tensor<136x200xf32>) -> (tensor<130x136xf32>, tensor<130x200xf32>) attributes {llvm.emit_c_interface} {
  %qx = fp8.quantize %x : tensor<130x272xf32> -> !fp8.scaled<130x272xf8E4M3FN, block = [1, 128], scale = f32>
  %qw1 = fp8.quantize %w1 : tensor<200x272xf32> -> !fp8.scaled<200x272xf8E4M3FN, block = [128, 128], scale = f32>
  %h = fp8.scaled_matmul %qx, %qw1 : !fp8.scaled<130x272xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<200x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x200xbf16>
  %qh = fp8.quantize %h {scale_mode = #fp8.scale_mode<pow2>} : tensor<130x200xbf16> -> !fp8.scaled<130x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw2 = fp8.quantize %w2 : tensor<136x200xf32> -> !fp8.scaled<136x200xf8E4M3FN, block = [128, 128], scale = f32>
  %y = fp8.scaled_matmul %qh, %qw2 : !fp8.scaled<130x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<136x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x136xf32>
  %hd = fp8.dequantize %qh : !fp8.scaled<130x200xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<130x200xf32>
  return %y, %hd : tensor<130x136xf32>, tensor<130x200xf32>
}

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain_f32(%x: tensor<?x272xf32>, %w1: tensor<129x272xf32>, %w2: tensor<136x129xf32>, %c: tensor<?x129xf32>) -> (tensor<?x136xbf16>, tensor<?x129xf32>) attributes {llvm.emit_c_interface} {
  // C x 64 outweighs the GEMM's sums (K = 272 products of values in
  // [-1, 1]), so the clamped C of the columns past N would decide the amax
  // of column 128's tile in about half the rows. Written in place into the
  // argument's buffer (one-shot bufferization treats function arguments as
  // writable): host_check gives each library its own copy of the inputs.
  %k64 = arith.constant 64.0 : f32
  %cbig = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x129xf32>) outs(%c : tensor<?x129xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %k64 : f32
    linalg.yield %m : f32
  } -> tensor<?x129xf32>
  %qx = fp8.quantize %x : tensor<?x272xf32> -> !fp8.scaled<?x272xf8E4M3FN, block = [1, 128], scale = f32>
  %qw1 = fp8.quantize %w1 : tensor<129x272xf32> -> !fp8.scaled<129x272xf8E4M3FN, block = [128, 128], scale = f32>
  %h = fp8.scaled_matmul %qx, %qw1 acc(%cbig : tensor<?x129xf32>) : !fp8.scaled<?x272xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<129x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x129xf32>
  %qh = fp8.quantize %h {eps = 1.0e-3 : f32} : tensor<?x129xf32> -> !fp8.scaled<?x129xf8E5M2, block = [1, 128], scale = f32>
  %qw2 = fp8.quantize %w2 : tensor<136x129xf32> -> !fp8.scaled<136x129xf8E5M2, block = [128, 128], scale = f32>
  %y = fp8.scaled_matmul %qh, %qw2 : !fp8.scaled<?x129xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<136x129xf8E5M2, block = [128, 128], scale = f32> -> tensor<?x136xbf16>
  %hd = fp8.dequantize %qh : !fp8.scaled<?x129xf8E5M2, block = [1, 128], scale = f32> -> tensor<?x129xf32>
  return %y, %hd : tensor<?x136xbf16>, tensor<?x129xf32>
}

// The dequantized result of a quantize-epilogue GEMM with N = 300.
func.func @split_n300(%x: tensor<130x272xf32>, %w: tensor<300x272xf32>) -> tensor<130x300xf32> attributes {llvm.emit_c_interface} {
  %qx = fp8.quantize %x : tensor<130x272xf32> -> !fp8.scaled<130x272xf8E4M3FN, block = [1, 128], scale = f32>
  %qw = fp8.quantize %w : tensor<300x272xf32> -> !fp8.scaled<300x272xf8E4M3FN, block = [128, 128], scale = f32>
  %h = fp8.scaled_matmul %qx, %qw : !fp8.scaled<130x272xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<300x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x300xbf16>
  %qh = fp8.quantize %h : tensor<130x300xbf16> -> !fp8.scaled<130x300xf8E4M3FN, block = [1, 128], scale = f32>
  %hd = fp8.dequantize %qh : !fp8.scaled<130x300xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<130x300xf32>
  return %hd : tensor<130x300xf32>
}
