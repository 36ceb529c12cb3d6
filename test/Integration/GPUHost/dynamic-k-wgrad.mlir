// The Wgrad GEMM over a run-time token count (issue 28 item 4): dW = dY^T X
// contracts over the tokens, so a dynamic batch is a dynamic K. The kernel
// (`#fp8.gemm_kernel<..., k = ?, ...>`, named `..._<M>x<N>xdyn_...`) takes K
// at run time as its last parameter, runs ceil(K / 128) K blocks (the TMA
// zero-fills the codes past K in the last, partial block; its scales are
// the op's last K block's), and K = 0 is no launch: the launcher writes C
// (or +0.0) into D on the device. Through the compiled host program
// (fp8-gpu-pipeline{host=llvm target=emulator}) on the emulated mgpu*
// runtime, bit-exact against fp8-cpu-pipeline, for token counts that are
// multiples of 128 (256) and not (1000, 130, 1: codes padded to 16 bytes,
// partial last blocks), and 0 (`=zero`, `=in1`: derived by hand), under the
// cost model's tiles, config=fixed and BLOCK_N 48 with 3 stages (the ring
// wraps over 8 K blocks), with three scheduler seeds. The requantize ops
// of a run-time token count stay on the host (no kernel for a dynamic
// shape yet).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so wg 1 f32:300x400 f32:1000x400 f32:1000x300 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so wg 2 f32:300x400 f32:256x400 f32:256x300 | FileCheck %s --check-prefix=WG
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so wg 3 f32:300x400 f32:130x400 f32:130x300 | FileCheck %s --check-prefix=WG
// RUN: %t.check %t.gpu.so %t.cpu.so wg 4 f32:300x400 f32:1x400 f32:1x300 | FileCheck %s --check-prefix=WG
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so wg 5 f32:300x400=zero f32:0x400 f32:0x300 2>&1 | FileCheck %s --check-prefix=K0
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so wg_acc 6 bf16:130x200 bf16:130x200 f32:1000x200 f32:1000x130 | FileCheck %s --check-prefix=ACC
// RUN: %t.check %t.gpu.so %t.cpu.so wg_acc 7 bf16:130x200 bf16:130x200 f32:130x200 f32:130x130 | FileCheck %s --check-prefix=ACC
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so wg_acc 8 bf16:130x200=in1 bf16:130x200 f32:0x200 f32:0x130 2>&1 | FileCheck %s --check-prefix=ACC0
// Other schedules: config=fixed (128 x 128 tiles) and BLOCK_N 48 with 3
// stages.
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.fixed.ll
// RUN: %clang %t.fixed.ll -o %t.fixed.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.fixed.so %t.cpu.so wg 1 f32:300x400 f32:1000x400 f32:1000x300 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.fixed.so %t.cpu.so wg_acc 6 bf16:130x200 bf16:130x200 f32:1000x200 f32:1000x130 2>&1 | FileCheck %s --check-prefix=FIXED-ACC
// RUN: %t.check %t.fixed.so %t.cpu.so wg 5 f32:300x400=zero f32:0x400 f32:0x300 | FileCheck %s --check-prefix=WG
// RUN: fp8-opt %s --fp8-gpu-pipeline="block-n=48 stages=3 chip=sm_90a host=llvm target=emulator" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.n48.ll
// RUN: %clang %t.n48.ll -o %t.n48.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.n48.so %t.cpu.so wg 1 f32:300x400 f32:1000x400 f32:1000x300 2>&1 | FileCheck %s --check-prefix=N48
// RUN: %t.check %t.n48.so %t.cpu.so wg_acc 7 bf16:130x200 bf16:130x200 f32:130x200 f32:130x130 | FileCheck %s --check-prefix=ACC
// The comparison can fail: Hopper's accumulation model in the CPU pipeline
// rounds differently from the exact k-order sum.
// RUN: fp8-opt %s --fp8-cpu-pipeline=accumulator=sm90 | mlir-translate --mlir-to-llvmir -o %t.sm90.ll
// RUN: %clang %t.sm90.ll -o %t.sm90.so %cpu_host_link
// RUN: not %t.check %t.gpu.so %t.sm90.so wg 1 f32:300x400 f32:1000x400 f32:1000x300 2>&1 | FileCheck %s --check-prefix=DIFF

// Only the requantize ops of a run-time token count stay on the host.
// REMARK-COUNT-4: no GPU requantize kernel (needs a static rank-2 input
// REMARK-NOT: no GPU GEMM kernel

// AUTO: fp8-emu-mgpu: launch fp8_scaled_matmul_300x400xdyn_e5m2_e4m3_f32_b1x128{{(_t[0-9]+x[0-9]+s[0-9]+(c[0-9])?(g[0-9]+)?)?}} grid {{[0-9]+}} block {{[0-9]+}} smem {{[0-9]+}} params 7
// AUTO: host-check: PASS wg: 300x400, 120000 outputs bit-exact (120000 non-zero)
// WG: host-check: PASS wg: 300x400, 120000 outputs bit-exact
// K = 0: no GEMM launch, dW = +0.0.
// K0-NOT: launch fp8_scaled_matmul
// K0: host-check: PASS wg: 300x400, 120000 outputs bit-exact (0 non-zero)
// K0: host-check: wg tested: every element +0.0
// ACC: host-check: PASS wg_acc: 130x200, 26000 outputs bit-exact (26000 non-zero)
// K = 0 with C: no GEMM launch, dW = C bit for bit.
// ACC0-NOT: launch fp8_scaled_matmul
// ACC0: host-check: PASS wg_acc: 130x200, 26000 outputs bit-exact
// ACC0: host-check: wg_acc tested: the bits of input 1
// By hand (config=fixed: 128 x 128 tiles): grid ceil(300/128) *
// ceil(400/128) = 3 * 4 = 12, 384 threads, shared memory 6 * (128*128 +
// 128*128 + 512) + 1024 = 200704; 7 parameters (maps, B scales, D, M, K).
// FIXED: fp8-emu-mgpu: launch fp8_scaled_matmul_300x400xdyn_e5m2_e4m3_f32_b1x128 grid 12 block 384 smem 200704 params 7
// FIXED: host-check: PASS wg: 300x400, 120000 outputs bit-exact
// 130 x 200: 2 * 2 = 4 tiles; C makes 8 parameters.
// FIXED-ACC: fp8-emu-mgpu: launch fp8_scaled_matmul_130x200xdyn_e4m3_e4m3_bf16_accbf16_b1x128 grid 4 block 384 smem 200704 params 8
// FIXED-ACC: host-check: PASS wg_acc: 130x200, 26000 outputs bit-exact
// BLOCK_N 48, 3 stages: 3 * ceil(400/48) = 27 tiles, shared memory
// 3 * (128*128 + 48*128 + 512) + 1024 = 70144.
// N48: fp8-emu-mgpu: launch fp8_scaled_matmul_300x400xdyn_e5m2_e4m3_f32_b1x128_t128x48s3 grid 27 block 384 smem 70144 params 7
// N48: host-check: PASS wg: 300x400, 120000 outputs bit-exact
// DIFF: host-check: FAIL wg: {{[0-9]+}} of 120000 outputs differ

// dY in e5m2 (the gradient format of hybrid), X in e4m3, f32 dW.
func.func @wg(%x: tensor<?x400xf32>, %dy: tensor<?x300xf32>) -> tensor<300x400xf32> attributes {llvm.emit_c_interface} {
  %qx = fp8.quantize %x : tensor<?x400xf32> -> !fp8.scaled<?x400xf8E4M3FN, block = [1, 128], scale = f32>
  %qd = fp8.quantize %dy : tensor<?x300xf32> -> !fp8.scaled<?x300xf8E5M2, block = [1, 128], scale = f32>
  %tx = fp8.requantize %qx {permutation = array<i64: 1, 0>} : !fp8.scaled<?x400xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<400x?xf8E4M3FN, block = [1, 128], scale = f32>
  %td = fp8.requantize %qd {permutation = array<i64: 1, 0>} : !fp8.scaled<?x300xf8E5M2, block = [1, 128], scale = f32> -> !fp8.scaled<300x?xf8E5M2, block = [1, 128], scale = f32>
  %r = fp8.scaled_matmul %td, %tx : !fp8.scaled<300x?xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<400x?xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<300x400xf32>
  return %r : tensor<300x400xf32>
}

// Gradient accumulation: dW = C + dY^T X, bf16 C and result.
func.func @wg_acc(%c: tensor<130x200xbf16>, %x: tensor<?x200xf32>, %dy: tensor<?x130xf32>) -> tensor<130x200xbf16> attributes {llvm.emit_c_interface} {
  %qx = fp8.quantize %x : tensor<?x200xf32> -> !fp8.scaled<?x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qd = fp8.quantize %dy : tensor<?x130xf32> -> !fp8.scaled<?x130xf8E4M3FN, block = [1, 128], scale = f32>
  %tx = fp8.requantize %qx {permutation = array<i64: 1, 0>} : !fp8.scaled<?x200xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<200x?xf8E4M3FN, block = [1, 128], scale = f32>
  %td = fp8.requantize %qd {permutation = array<i64: 1, 0>} : !fp8.scaled<?x130xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<130x?xf8E4M3FN, block = [1, 128], scale = f32>
  %r = fp8.scaled_matmul %td, %tx acc(%c : tensor<130x200xbf16>) : !fp8.scaled<130x?xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<200x?xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<130x200xbf16>
  return %r : tensor<130x200xbf16>
}
