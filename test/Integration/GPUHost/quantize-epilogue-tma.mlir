// The quantize epilogue with the TMA store (`store=tma`: #fp8.gemm_kernel
// `epilogue = quantize, tma_store = true`, kernel suffix `tma`): each
// consumer warpgroup writes its FP8 codes into a 128B-swizzled staging
// buffer of 64 rows x 128 codes per 1x128 tile (st.shared.b16 per code
// pair) and one thread stores the boxes with cp.async.bulk.tensor through
// a u8 tensor map of the codes [M, N], clipped at M and N; the scales stay
// on st.global. Each function returns the second GEMM's result and the
// dequantized fused codes (a wrong code, a code of another row or column,
// a stale staging buffer shows there), bit-exact against fp8-cpu-pipeline.
// N = 144: the last tile's box holds 16 codes inside N (TMA clips the other
// 112); M = 130: a 2-row last tile; a run-time M of 70; E4M3FN with pow2
// scales from a bf16 D, E5M2 with eps 1e-3 from an f32 D with C. On 1 and
// 2 SMs every CTA runs several tiles, so each staging buffer is reused
// after its previous tile's store (the emulator faults on a write a
// pending store may read, a store of unfenced bytes and an exit before the
// last store read its buffer). Random schedules (2 seeds; each store lands
// at a seeded moment) and the lock-step schedule; the column split (64 x 256
// tiles: two consumers of 128 columns, the second's box 16 codes wide at N
// = 144; the fused GEMM alone, its result dequantized). N = 200 is not a multiple of 16 (a row of codes is not a TMA
// global stride): a remark names why, and the codes stay on st.global.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="store=tma sm-count=2 chip=sm_90a host=llvm target=emulator" -o %t.gpu.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: mlir-translate --mlir-to-llvmir %t.gpu.mlir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so chain_bf16 1 f32:130x136,f32:130x144 f32:130x272 f32:144x272 f32:136x144 2>&1 | FileCheck %s --check-prefix=BF16
// RUN: env FP8_EMU_SEED=5 %t.check %t.gpu.so %t.cpu.so chain_bf16 2 f32:130x136,f32:130x144 f32:130x272 f32:144x272 f32:136x144 | FileCheck %s --check-prefix=PASS2
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so chain_bf16 3 f32:130x136,f32:130x144 f32:130x272 f32:144x272 f32:136x144 | FileCheck %s --check-prefix=PASS2
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so chain_f32 4 bf16:70x136,f32:70x272 f32:70x272 f32:272x272 f32:136x272 f32:70x272 2>&1 | FileCheck %s --check-prefix=F32
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so n200 5 f32:130x200 f32:130x272 f32:200x272 2>&1 | FileCheck %s --check-prefix=N200
// RUN: fp8-opt %s --fp8-gpu-pipeline="block-m=64 block-n=256 store=tma sm-count=1 chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.split.ll
// RUN: %clang %t.split.ll -o %t.split.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=9 %t.check %t.split.so %t.cpu.so split_n144 6 f32:130x144 f32:130x272 f32:144x272 2>&1 | FileCheck %s --check-prefix=SPLIT

// REMARK: quantize-epilogue-tma.mlir:[[@LINE+59]]:8: remark: fp8-lower-to-nvvm: store=tma is not applied to the quantize epilogue of this GEMM (the TMA store (store = tma) of the quantize epilogue needs n a multiple of 16 (a row of the FP8 codes is a TMA global stride: a multiple of 16 bytes)); its codes are stored by st.global
// REMARK-COUNT-4: remark: fp8-lower-to-nvvm: the GEMM kernel's epilogue computes the fp8.quantize of its result
// REMARK-NOT: stays on the host

// The fused GEMM: 130 x 144 in 128 x 128 tiles, 2 x 2 = 4 tiles on 2 CTAs.
// BF16: launch fp8_scaled_matmul_130x144x272_e4m3_e4m3_bf16_qe4m3_pow2_t128x128s6tma grid 2 block 384 smem {{[0-9]+}} params 7
// BF16-NOT: launch fp8_quantize_130x144
// BF16: host-check: PASS chain_bf16#0: 130x136, 17680 outputs bit-exact
// BF16: host-check: PASS chain_bf16#1: 130x144, 18720 outputs bit-exact
// PASS2-COUNT-2: host-check: PASS chain_bf16#{{[01]}}

// F32: launch fp8_scaled_matmul_dynx272x272_e4m3_e4m3_f32_accf32_qe5m2_eps3a83126f_t128x128s6tma grid 2 block 384 smem {{[0-9]+}} params 8
// F32-NOT: launch fp8_quantize_dynx272
// F32: host-check: PASS chain_f32#0: 70x136, 9520 outputs bit-exact
// F32: host-check: PASS chain_f32#1: 70x272, 19040 outputs bit-exact

// N200: launch fp8_scaled_matmul_130x200x272_e4m3_e4m3_bf16_qe4m3 grid
// N200-NOT: launch fp8_quantize_130x200
// N200: host-check: PASS n200: 130x200, 26000 outputs bit-exact

// SPLIT: launch fp8_scaled_matmul_130x144x272_e4m3_e4m3_bf16_qe4m3_pow2_t64x256s{{[0-9]+}}c2tma grid 1 block 384
// SPLIT-NOT: launch fp8_quantize_130x144
// SPLIT: host-check: PASS split_n144: 130x144, 18720 outputs bit-exact

func.func @chain_bf16(%x: tensor<130x272xf32>, %w1: tensor<144x272xf32>, %w2: tensor<136x144xf32>) -> (tensor<130x136xf32>, tensor<130x144xf32>) attributes {llvm.emit_c_interface} {
  %qx = fp8.quantize %x : tensor<130x272xf32> -> !fp8.scaled<130x272xf8E4M3FN, block = [1, 128], scale = f32>
  %qw1 = fp8.quantize %w1 : tensor<144x272xf32> -> !fp8.scaled<144x272xf8E4M3FN, block = [128, 128], scale = f32>
  %h = fp8.scaled_matmul %qx, %qw1 : !fp8.scaled<130x272xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<144x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x144xbf16>
  %qh = fp8.quantize %h {scale_mode = #fp8.scale_mode<pow2>} : tensor<130x144xbf16> -> !fp8.scaled<130x144xf8E4M3FN, block = [1, 128], scale = f32>
  %qw2 = fp8.quantize %w2 : tensor<136x144xf32> -> !fp8.scaled<136x144xf8E4M3FN, block = [128, 128], scale = f32>
  %y = fp8.scaled_matmul %qh, %qw2 : !fp8.scaled<130x144xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<136x144xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x136xf32>
  %hd = fp8.dequantize %qh : !fp8.scaled<130x144xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<130x144xf32>
  return %y, %hd : tensor<130x136xf32>, tensor<130x144xf32>
}

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain_f32(%x: tensor<?x272xf32>, %w1: tensor<272x272xf32>, %w2: tensor<136x272xf32>, %c: tensor<?x272xf32>) -> (tensor<?x136xbf16>, tensor<?x272xf32>) attributes {llvm.emit_c_interface} {
  // C x 64 outweighs the GEMM's sums, so the clamped C of the columns past
  // N would decide the amax of the last tile if they reached it.
  %k64 = arith.constant 64.0 : f32
  %cbig = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x272xf32>) outs(%c : tensor<?x272xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %k64 : f32
    linalg.yield %m : f32
  } -> tensor<?x272xf32>
  %qx = fp8.quantize %x : tensor<?x272xf32> -> !fp8.scaled<?x272xf8E4M3FN, block = [1, 128], scale = f32>
  %qw1 = fp8.quantize %w1 : tensor<272x272xf32> -> !fp8.scaled<272x272xf8E4M3FN, block = [128, 128], scale = f32>
  %h = fp8.scaled_matmul %qx, %qw1 acc(%cbig : tensor<?x272xf32>) : !fp8.scaled<?x272xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<272x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x272xf32>
  %qh = fp8.quantize %h {eps = 1.0e-3 : f32} : tensor<?x272xf32> -> !fp8.scaled<?x272xf8E5M2, block = [1, 128], scale = f32>
  %qw2 = fp8.quantize %w2 : tensor<136x272xf32> -> !fp8.scaled<136x272xf8E5M2, block = [128, 128], scale = f32>
  %y = fp8.scaled_matmul %qh, %qw2 : !fp8.scaled<?x272xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<136x272xf8E5M2, block = [128, 128], scale = f32> -> tensor<?x136xbf16>
  %hd = fp8.dequantize %qh : !fp8.scaled<?x272xf8E5M2, block = [1, 128], scale = f32> -> tensor<?x272xf32>
  return %y, %hd : tensor<?x136xbf16>, tensor<?x272xf32>
}

// N = 200: the quantize epilogue on st.global (a remark says why).
func.func @n200(%x: tensor<130x272xf32>, %w: tensor<200x272xf32>) -> tensor<130x200xf32> attributes {llvm.emit_c_interface} {
  %qx = fp8.quantize %x : tensor<130x272xf32> -> !fp8.scaled<130x272xf8E4M3FN, block = [1, 128], scale = f32>
  %qw = fp8.quantize %w : tensor<200x272xf32> -> !fp8.scaled<200x272xf8E4M3FN, block = [128, 128], scale = f32>
  %h = fp8.scaled_matmul %qx, %qw : !fp8.scaled<130x272xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<200x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x200xbf16>
  %qh = fp8.quantize %h : tensor<130x200xbf16> -> !fp8.scaled<130x200xf8E4M3FN, block = [1, 128], scale = f32>
  %hd = fp8.dequantize %qh : !fp8.scaled<130x200xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<130x200xf32>
  return %hd : tensor<130x200xf32>
}

// The dequantized result of a quantize-epilogue GEMM with N = 144.
func.func @split_n144(%x: tensor<130x272xf32>, %w: tensor<144x272xf32>) -> tensor<130x144xf32> attributes {llvm.emit_c_interface} {
  %qx = fp8.quantize %x : tensor<130x272xf32> -> !fp8.scaled<130x272xf8E4M3FN, block = [1, 128], scale = f32>
  %qw = fp8.quantize %w : tensor<144x272xf32> -> !fp8.scaled<144x272xf8E4M3FN, block = [128, 128], scale = f32>
  %h = fp8.scaled_matmul %qx, %qw : !fp8.scaled<130x272xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<144x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x144xbf16>
  %qh = fp8.quantize %h {scale_mode = #fp8.scale_mode<pow2>} : tensor<130x144xbf16> -> !fp8.scaled<130x144xf8E4M3FN, block = [1, 128], scale = f32>
  %hd = fp8.dequantize %qh : !fp8.scaled<130x144xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<130x144xf32>
  return %hd : tensor<130x144xf32>
}
