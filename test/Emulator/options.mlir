// fp8-emu validates its options: each bad value is an error naming the
// option and its range (before: --m -1 or a huge --m aborted with
// std::length_error or an out-of-memory stack dump, --sm-count -1 ran about
// 4 billion CTAs, --schedules 0 printed PASS with nothing run, tile options
// the kernel was not compiled with surfaced as kernel faults, --m 0 as
// launch and tensor-map errors).
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed > %t.mlir
// RUN: not fp8-emu %t.mlir --m -1 2>&1 | FileCheck %s --check-prefix=MNEG
// MNEG: fp8-emu: error: --m must be in 0..1048576 (rows of a kernel compiled for a run-time M), got -1
// RUN: not fp8-emu %t.mlir --m 4611686018427387904 2>&1 | FileCheck %s --check-prefix=MHUGE
// MHUGE: fp8-emu: error: --m must be in 0..1048576 (rows of a kernel compiled for a run-time M), got 4611686018427387904
// A dynamic-M kernel whose operand would not fit the emulator.
// RUN: not fp8-emu %t.mlir --m 1048576 --kernel fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16 2>&1 | FileCheck %s --check-prefix=MBIG
// MBIG: fp8-emu: error: --m 1048576 for kernel 'fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16': an operand of 1048576 x 512 elements exceeds the emulator's 2^28
// RUN: not fp8-emu %t.mlir --sm-count -1 2>&1 | FileCheck %s --check-prefix=SM
// RUN: not fp8-emu %t.mlir --sm-count 0 2>&1 | FileCheck %s --check-prefix=SM
// SM: fp8-emu: error: --sm-count must be in 1..1024 (SMs of the emulated device: the persistent grid is min(tiles, sm-count)), got {{-1|0}}
// RUN: not fp8-emu %t.mlir --schedules 0 2>&1 | FileCheck %s --check-prefix=SCHED
// SCHED: fp8-emu: error: --schedules must be in 1..1048576 (scheduler seeds each kernel runs under), got 0
// SCHED-NOT: PASS
// RUN: not fp8-emu %t.mlir --max-quantum 0 2>&1 | FileCheck %s --check-prefix=QUANTUM
// QUANTUM: fp8-emu: error: --max-quantum must be in 1..1048576 (instructions a thread runs before a switch), got 0
// RUN: not fp8-emu %t.mlir --copies never 2>&1 | FileCheck %s --check-prefix=COPIES
// COPIES: fp8-emu: error: --copies must be seeded, late or prompt, got 'never'
// RUN: not fp8-emu %t.mlir --block-n -8 --stages 65 2>&1 | FileCheck %s --check-prefix=RANGES
// RANGES: fp8-emu: error: --block-n must be in 0..256 (0: the kernel's own), got -8
// RANGES-NEXT: fp8-emu: error: --stages must be in 0..64 (0: the kernel's own), got 65

// Tile options that are not a configuration, or not the kernel's own
// (compiled with BLOCK_M 128, BLOCK_N 128, 6 stages).
// RUN: not fp8-emu %t.mlir --kernel fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16 --block-m 100 2>&1 | FileCheck %s --check-prefix=BM
// BM: fp8-emu: error: --block-m 100 for kernel 'fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16': block-m must be 64, 128, 192 or 256
// RUN: not fp8-emu %t.mlir --kernel fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16 --block-m 64 2>&1 | FileCheck %s --check-prefix=BM64
// BM64: fp8-emu: error: --block-m 64 for kernel 'fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16': the tiles take a block of 256, the kernel's code (nvvm.maxntid) is for 384
// RUN: not fp8-emu %t.mlir --kernel fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16 --block-n 64 2>&1 | FileCheck %s --check-prefix=BN
// BN: fp8-emu: error: --block-n 64 for kernel 'fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16': the tiles give each consumer a wgmma N of 64, the kernel's code has wgmma N 128
// RUN: not fp8-emu %t.mlir --kernel fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16 --stages 3 2>&1 | FileCheck %s --check-prefix=ST
// ST: fp8-emu: error: --stages 3 for kernel 'fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16': two mbarriers per stage make 6, the kernel's code initialises 12
// The kernel's own tiles given explicitly run.
// RUN: fp8-emu %t.mlir --kernel fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16 --block-m 128 --block-n 128 --stages 6 --m 70 | FileCheck %s --check-prefix=OWN
// OWN: fp8-emu: PASS fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16: 70x256x512
// So do a column-split kernel's (BLOCK_M 64, BLOCK_N 256 over two
// consumers: --block-m 64 keeps the split), and a wrong --block-n on it is
// named.
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=256" > %t.split.mlir
// RUN: fp8-emu %t.split.mlir --kernel fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16_t64x256s5c2 --block-m 64 --block-n 256 --stages 5 --m 65 | FileCheck %s --check-prefix=SPLIT
// SPLIT: fp8-emu: PASS fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16_t64x256s5c2: 65x256x512
// RUN: not fp8-emu %t.split.mlir --kernel fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16_t64x256s5c2 --block-n 128 2>&1 | FileCheck %s --check-prefix=SPLITN
// SPLITN: fp8-emu: error: --block-n 128 for kernel 'fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16_t64x256s5c2': the tiles give each consumer a wgmma N of 64, the kernel's code has wgmma N 128

// --m 0: a run-time M of no rows has nothing to run (said, exit status 0);
// static-M kernels ignore --m.
// RUN: fp8-emu %t.mlir --m 0 | FileCheck %s --check-prefix=ZERO
// ZERO-DAG: fp8-emu: PASS fp8_scaled_matmul_64x128x256_e4m3_e4m3_bf16: 64x128x256
// ZERO-DAG: fp8-emu: SKIP fp8_scaled_matmul_dynx256x512_e4m3_e4m3_bf16: --m 0 gives no rows, nothing to run

func.func @dyn(%a: !fp8.scaled<?x512xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x256xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x512xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x256xbf16>
  return %d : tensor<?x256xbf16>
}

func.func @static(%a: !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<64x128xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x128xbf16>
  return %d : tensor<64x128xbf16>
}
