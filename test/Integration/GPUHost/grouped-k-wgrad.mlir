// The k-grouped grouped GEMM (fp8.grouped_scaled_matmul k_grouped: the MoE
// Wgrad, each expert's tokens a run of K) through the compiled host program
// (fp8-gpu-pipeline{host=llvm target=emulator}, emulated mgpu* runtime):
// the quantize kernels and then ONE k-grouped GEMM launch per op for all
// groups, every output bit-exact against the op's own CPU lowering
// (fp8-cpu-pipeline: one fp8.scaled_matmul per run of tokens, C[g] or +0.0
// for a group without tokens).
//   kg_f32: G = 4, M = 200, N = 160, T = 700 (a 60-token tail: codes padded
//     to 704, the last K block partial), group ids by K block [0, 0, -1, 2,
//     2, 1]: group 0 two blocks, a padding block, group 2 two blocks, group
//     1 the tail, group 3 empty (+0.0); no C, f32 out: 3 groups x 200 x 160
//     = 96000 non-zero outputs, 32000 zeros.
//   kg_acc: G = 5, M = 96, N = 136, T = 1000 (tail 104), block ids [4, -1,
//     -1, 1, 1, 1, 0, 0]: groups 2 and 3 empty (their D is C, bit for bit
//     through the f32 accumulator), two padding blocks, C f32, bf16 out.
//   kg_bf16c: G = 2, M = 64, N = 256, T = 256 (no tail), block ids [1, 1]:
//     group 0 empty, C bf16, f32 out.
//   kg_dyn: a run-time T (700, 300, 100 and 0 tokens), G = 3, M = 96, N =
//     64, block ids [2, 2, -1, 0, ...], C f32, f32 out.
// Schedules: the cost model's tiles, config=fixed (128x128), BLOCK_N 48
// with 2 stages (the ring wraps inside a group's run and across tiles),
// 64x256 (two consumers splitting the columns), with scheduler seeds. The
// emulated device memory starts as 0xFF bytes (NaN): an output the kernel
// did not store is a mismatch. A group whose K blocks are not consecutive
// traps in the kernel (kg_gap), as does a K block whose first and last
// token ids differ (kg_mixed; the CPU lowering asserts both).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2>&1 >%t.auto.mlir | FileCheck %s --check-prefix=REMARK --allow-empty
// RUN: mlir-translate --mlir-to-llvmir %t.auto.mlir -o %t.auto.ll
// RUN: %clang %t.auto.ll -o %t.auto.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.auto.so %t.cpu.so kg_f32 1 f32:800x160 f32:200x700 f32:160x700 2>&1 | FileCheck %s --check-prefix=AUTO-F32
// RUN: env FP8_EMU_SEED=2 %t.check %t.auto.so %t.cpu.so kg_acc 2 bf16:480x136 f32:96x1000 f32:136x1000 f32:480x136 | FileCheck %s --check-prefix=ACC
// RUN: env FP8_EMU_SEED=3 %t.check %t.auto.so %t.cpu.so kg_bf16c 3 f32:128x256 f32:64x256 f32:256x256 bf16:128x256 | FileCheck %s --check-prefix=BF16C
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator config=fixed" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.fix.ll
// RUN: %clang %t.fix.ll -o %t.fix.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.fix.so %t.cpu.so kg_f32 4 f32:800x160 f32:200x700 f32:160x700 2>&1 | FileCheck %s --check-prefix=FIX-F32
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.fix.so %t.cpu.so kg_acc 5 bf16:480x136 f32:96x1000 f32:136x1000 f32:480x136 2>&1 | FileCheck %s --check-prefix=FIX-ACC
// RUN: %t.check %t.fix.so %t.cpu.so kg_bf16c 6 f32:128x256 f32:64x256 f32:256x256 bf16:128x256 | FileCheck %s --check-prefix=BF16C
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-n=48 stages=2" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.n48.ll
// RUN: %clang %t.n48.ll -o %t.n48.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.n48.so %t.cpu.so kg_f32 7 f32:800x160 f32:200x700 f32:160x700 2>&1 | FileCheck %s --check-prefix=N48-F32
// RUN: env FP8_EMU_SEED=3 %t.check %t.n48.so %t.cpu.so kg_acc 8 bf16:480x136 f32:96x1000 f32:136x1000 f32:480x136 | FileCheck %s --check-prefix=ACC
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-m=64 block-n=256" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.n256.ll
// RUN: %clang %t.n256.ll -o %t.n256.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.n256.so %t.cpu.so kg_f32 9 f32:800x160 f32:200x700 f32:160x700 2>&1 | FileCheck %s --check-prefix=N256-F32
// RUN: env FP8_EMU_SEED=1 %t.check %t.n256.so %t.cpu.so kg_bf16c 10 f32:128x256 f32:64x256 f32:256x256 bf16:128x256 | FileCheck %s --check-prefix=BF16C
// A run-time T (kg_dyn: the kernel takes T as its last parameter, after C
// and the ids: 9 parameters): tails,
// fewer blocks than groups, and T = 0 (no launch: D is C, bit for bit).
// RUN: env FP8_EMU_TRACE=1 %t.check %t.auto.so %t.cpu.so kg_dyn 13 f32:288x64 f32:96x700 f32:64x700 f32:288x64 2>&1 | FileCheck %s --check-prefix=DYN
// RUN: env FP8_EMU_SEED=2 %t.check %t.fix.so %t.cpu.so kg_dyn 14 f32:288x64 f32:96x300 f32:64x300 f32:288x64 | FileCheck %s --check-prefix=DYN-PASS
// RUN: %t.check %t.n48.so %t.cpu.so kg_dyn 15 f32:288x64 f32:96x100 f32:64x100 f32:288x64 | FileCheck %s --check-prefix=DYN-PASS
// RUN: env FP8_EMU_TRACE=1 %t.check %t.fix.so %t.cpu.so kg_dyn 16 f32:288x64=in3 f32:96x0 f32:64x0 f32:288x64 2>&1 | FileCheck %s --check-prefix=DYN0
// A group in two runs, a run ending inside a K block: the kernel traps.
// RUN: not %t.check %t.fix.so %t.cpu.so kg_gap 11 f32:256x64 f32:128x512 f32:64x512 2>&1 | FileCheck %s --check-prefix=GAP
// RUN: not %t.check %t.fix.so %t.cpu.so kg_mixed 12 f32:128x64 f32:64x256 f32:64x256 2>&1 | FileCheck %s --check-prefix=GAP

// The op gets its kernel: no remark that it stays on the host.
// REMARK-NOT: no GPU GEMM kernel

// AUTO-F32: launch fp8_grouped_matmul_k_grouped_4x200x160x700_e4m3_e4m3_f32_b1x128
// AUTO-F32: host-check: PASS kg_f32: 800x160, 128000 outputs bit-exact (96000 non-zero)
// ACC: host-check: PASS kg_acc: 480x136, 65280 outputs bit-exact (65280 non-zero)
// BF16C: host-check: PASS kg_bf16c: 128x256, 32768 outputs bit-exact (32768 non-zero)
// By hand (config=fixed: 128 x 128 tiles, 6 stages of 128*128 + 128*128 +
// 512 bytes + 1024 of barriers = 200704): kg_f32 ceil(200/128) *
// ceil(160/128) = 4 tiles per group, 16 for G = 4; 7 parameters (maps, B
// scales, D, M, the ids). kg_acc: 1 * 2 tiles per group, 10; C makes 8.
// FIX-F32: fp8-emu-mgpu: launch fp8_grouped_matmul_k_grouped_4x200x160x700_e4m3_e4m3_f32_b1x128 grid 16 block 384 smem 200704 params 7
// FIX-F32-NEXT: host-check: PASS kg_f32: 800x160, 128000 outputs bit-exact (96000 non-zero)
// FIX-ACC: fp8-emu-mgpu: launch fp8_grouped_matmul_k_grouped_5x96x136x1000_e4m3_e4m3_bf16_accf32_b1x128 grid 10 block 384 smem 200704 params 8
// FIX-ACC-NEXT: host-check: PASS kg_acc: 480x136, 65280 outputs bit-exact (65280 non-zero)
// BLOCK_N 48, 2 stages: 2 * ceil(160/48) = 8 tiles per group, 32; shared
// memory 2 * (128*128 + 48*128 + 512) + 1024 = 47104.
// N48-F32: fp8-emu-mgpu: launch fp8_grouped_matmul_k_grouped_4x200x160x700_e4m3_e4m3_f32_b1x128_t128x48s2 grid 32 block 384 smem 47104 params 7
// N48-F32-NEXT: host-check: PASS kg_f32: 800x160, 128000 outputs bit-exact (96000 non-zero)
// 64 x 256, two consumers over the columns: 4 * 1 tiles per group, 16.
// N256-F32: fp8-emu-mgpu: launch fp8_grouped_matmul_k_grouped_4x200x160x700_e4m3_e4m3_f32_b1x128_t64x256{{s[0-9]+}}c2 grid 16 block 384
// N256-F32-NEXT: host-check: PASS kg_f32: 800x160, 128000 outputs bit-exact (96000 non-zero)
// GAP: llvm.intr.trap: the kernel trapped
// DYN: fp8-emu-mgpu: launch fp8_grouped_matmul_k_grouped_3x96x64xdyn_e4m3_e4m3_f32_accf32_b1x128{{.*}} params 9
// DYN-NEXT: host-check: PASS kg_dyn: 288x64, 18432 outputs bit-exact
// DYN-PASS: host-check: PASS kg_dyn: 288x64, 18432 outputs bit-exact
// DYN0-NOT: launch fp8_grouped_matmul
// DYN0: host-check: PASS kg_dyn: 288x64, 18432 outputs bit-exact
// DYN0: host-check: kg_dyn tested: the bits of input 3

// The group ids of T tokens from one id per 128-token K block.
#ids = affine_map<(t) -> (t)>
func.func private @token_ids(%blocks: tensor<?xi32>, %t: index) -> tensor<?xi32> {
  %c128 = arith.constant 128 : index
  %e = tensor.empty(%t) : tensor<?xi32>
  %ids = linalg.generic {indexing_maps = [#ids], iterator_types = ["parallel"]} outs(%e : tensor<?xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %kb = arith.divui %i, %c128 : index
    %g = tensor.extract %blocks[%kb] : tensor<?xi32>
    linalg.yield %g : i32
  } -> tensor<?xi32>
  return %ids : tensor<?xi32>
}

func.func @kg_f32(%dyt: tensor<200x700xf32>, %xt: tensor<160x700xf32>) -> tensor<800x160xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %dyt : tensor<200x700xf32> -> !fp8.scaled<200x700xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %xt : tensor<160x700xf32> -> !fp8.scaled<160x700xf8E4M3FN, block = [1, 128], scale = f32>
  %blocks = arith.constant dense<[0, 0, -1, 2, 2, 1]> : tensor<6xi32>
  %bd = tensor.cast %blocks : tensor<6xi32> to tensor<?xi32>
  %t = arith.constant 700 : index
  %idd = call @token_ids(%bd, %t) : (tensor<?xi32>, index) -> tensor<?xi32>
  %ids = tensor.cast %idd : tensor<?xi32> to tensor<700xi32>
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<700xi32>) : !fp8.scaled<200x700xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<160x700xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<4x200x160xf32>
  %r = tensor.collapse_shape %d [[0, 1], [2]] : tensor<4x200x160xf32> into tensor<800x160xf32>
  return %r : tensor<800x160xf32>
}

func.func @kg_acc(%dyt: tensor<96x1000xf32>, %xt: tensor<136x1000xf32>, %c2: tensor<480x136xf32>) -> tensor<480x136xbf16> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %dyt : tensor<96x1000xf32> -> !fp8.scaled<96x1000xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %xt : tensor<136x1000xf32> -> !fp8.scaled<136x1000xf8E4M3FN, block = [1, 128], scale = f32>
  %blocks = arith.constant dense<[4, -1, -1, 1, 1, 1, 0, 0]> : tensor<8xi32>
  %bd = tensor.cast %blocks : tensor<8xi32> to tensor<?xi32>
  %t = arith.constant 1000 : index
  %idd = call @token_ids(%bd, %t) : (tensor<?xi32>, index) -> tensor<?xi32>
  %ids = tensor.cast %idd : tensor<?xi32> to tensor<1000xi32>
  %c = tensor.expand_shape %c2 [[0, 1], [2]] output_shape [5, 96, 136] : tensor<480x136xf32> into tensor<5x96x136xf32>
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<1000xi32>) acc(%c : tensor<5x96x136xf32>) : !fp8.scaled<96x1000xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<136x1000xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<5x96x136xbf16>
  %r = tensor.collapse_shape %d [[0, 1], [2]] : tensor<5x96x136xbf16> into tensor<480x136xbf16>
  return %r : tensor<480x136xbf16>
}

func.func @kg_bf16c(%dyt: tensor<64x256xf32>, %xt: tensor<256x256xf32>, %c2: tensor<128x256xbf16>) -> tensor<128x256xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %dyt : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %xt : tensor<256x256xf32> -> !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>
  %blocks = arith.constant dense<[1, 1]> : tensor<2xi32>
  %bd = tensor.cast %blocks : tensor<2xi32> to tensor<?xi32>
  %t = arith.constant 256 : index
  %idd = call @token_ids(%bd, %t) : (tensor<?xi32>, index) -> tensor<?xi32>
  %ids = tensor.cast %idd : tensor<?xi32> to tensor<256xi32>
  %c = tensor.expand_shape %c2 [[0, 1], [2]] output_shape [2, 64, 256] : tensor<128x256xbf16> into tensor<2x64x256xbf16>
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<256xi32>) acc(%c : tensor<2x64x256xbf16>) : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<2x64x256xf32>
  %r = tensor.collapse_shape %d [[0, 1], [2]] : tensor<2x64x256xf32> into tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}

// Group 0 in blocks 0 and 2 (not consecutive): the kernel traps.
func.func @kg_gap(%dyt: tensor<128x512xf32>, %xt: tensor<64x512xf32>) -> tensor<256x64xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %dyt : tensor<128x512xf32> -> !fp8.scaled<128x512xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %xt : tensor<64x512xf32> -> !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>
  %blocks = arith.constant dense<[0, 1, 0, -1]> : tensor<4xi32>
  %bd = tensor.cast %blocks : tensor<4xi32> to tensor<?xi32>
  %t = arith.constant 512 : index
  %idd = call @token_ids(%bd, %t) : (tensor<?xi32>, index) -> tensor<?xi32>
  %ids = tensor.cast %idd : tensor<?xi32> to tensor<512xi32>
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) : !fp8.scaled<128x512xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<2x128x64xf32>
  %r = tensor.collapse_shape %d [[0, 1], [2]] : tensor<2x128x64xf32> into tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}

// Tokens [0, 200) group 0, [200, 256) group 1: K block 1's first token is
// group 0's, its last group 1's (a run ending inside a block): the kernel
// traps.
func.func @kg_mixed(%dyt: tensor<64x256xf32>, %xt: tensor<64x256xf32>) -> tensor<128x64xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %dyt : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %xt : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  %e = tensor.empty() : tensor<256xi32>
  %ids = linalg.generic {indexing_maps = [#ids], iterator_types = ["parallel"]} outs(%e : tensor<256xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c200 = arith.constant 200 : index
    %late = arith.cmpi uge, %i, %c200 : index
    %g = arith.extui %late : i1 to i32
    linalg.yield %g : i32
  } -> tensor<256xi32>
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<256xi32>) : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<2x64x64xf32>
  %r = tensor.collapse_shape %d [[0, 1], [2]] : tensor<2x64x64xf32> into tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

// A run-time T: K blocks 0 and 1 group 2, block 2 padding, blocks 3 on
// group 0; group 1 empty (its D is C). C f32, f32 out.
func.func @kg_dyn(%dyt: tensor<96x?xf32>, %xt: tensor<64x?xf32>, %c2: tensor<288x64xf32>) -> tensor<288x64xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %dyt : tensor<96x?xf32> -> !fp8.scaled<96x?xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %xt : tensor<64x?xf32> -> !fp8.scaled<64x?xf8E4M3FN, block = [1, 128], scale = f32>
  %c1 = arith.constant 1 : index
  %t = tensor.dim %dyt, %c1 : tensor<96x?xf32>
  %e = tensor.empty(%t) : tensor<?xi32>
  %ids = linalg.generic {indexing_maps = [#ids], iterator_types = ["parallel"]} outs(%e : tensor<?xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c128 = arith.constant 128 : index
    %kb = arith.divui %i, %c128 : index
    %c2i = arith.constant 2 : index
    %lt2 = arith.cmpi ult, %kb, %c2i : index
    %eq2 = arith.cmpi eq, %kb, %c2i : index
    %g2 = arith.constant 2 : i32
    %gpad = arith.constant -1 : i32
    %g0 = arith.constant 0 : i32
    %late = arith.select %eq2, %gpad, %g0 : i32
    %g = arith.select %lt2, %g2, %late : i32
    linalg.yield %g : i32
  } -> tensor<?xi32>
  %c = tensor.expand_shape %c2 [[0, 1], [2]] output_shape [3, 96, 64] : tensor<288x64xf32> into tensor<3x96x64xf32>
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<?xi32>) acc(%c : tensor<3x96x64xf32>) : !fp8.scaled<96x?xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x?xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<3x96x64xf32>
  %r = tensor.collapse_shape %d [[0, 1], [2]] : tensor<3x96x64xf32> into tensor<288x64xf32>
  return %r : tensor<288x64xf32>
}
