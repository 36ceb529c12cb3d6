// Two m64 waves per consumer warpgroup (`waves=2`, #fp8.gemm_kernel
// `waves = 2`: each consumer warpgroup owns 128 rows of the tile as two
// waves of 64 that reuse one wgmma partial set; per K block wave 0's wgmma
// chain, `wgmma.wait_group 0`, promotion into its accumulators and the
// operand fence on them (an empty inline asm that the emulator runs as the
// identity), then wave 1's, its first wgmma on wave 0's partial registers,
// with the A scales of its rows) runs on the CPU
// emulator bit-exact against the host reference with Hopper's accumulation
// model (`--accumulator sm90`, the arithmetic of
// fp8-cpu-pipeline{accumulator=sm90}): each output's promotions stay in
// K-block order from C or +0.0. Tiles 256 x 128 on two consumers (the
// DeepGEMM-class tile and the register limit's width), 256 x 120 (the B
// scales' select: columns cross 128-column blocks), 128 x 128 on one
// consumer of two waves (block-m 128), a cluster of 2. M tails: 300
// (the second tile's wave 0 of consumer 0 has 44 rows, its wave 1 and
// consumer 1 none), 65 (one row in consumer 0's wave 1), 200 (consumer 1's
// wave 1 has 8 rows) and a run-time M; N and K tails (K 404: three K
// blocks and 20), C (bf16 and f32), bf16 and f32 results, e4m3/e5m2; on 2
// or 3 SMs each CTA runs several tiles. Scheduler seeds, TMA landing
// orders (late, prompt) and the lock-step schedule, each on what it needs
// (the suite's time: every kernel once per tile, the orderings on one
// small kernel each). fp8-emu exits with 1 if an output differs.
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=256 block-n=128 waves=2" > %t.w2.mlir
// RUN: fp8-emu %t.w2.mlir --accumulator sm90 --seed 1 --m 600 --sm-count 2 | FileCheck %s --check-prefix=W2
// RUN: env FP8_EMU_SCHEDULE=lockstep fp8-emu %t.w2.mlir --kernel fp8_scaled_matmul_dynx136x384_e4m3_e4m3_f32_t256x128s4w2 --accumulator sm90 --seed 7 --m 129 --sm-count 3 | FileCheck %s --check-prefix=LOCK
// RUN: fp8-emu %t.w2.mlir --kernel fp8_scaled_matmul_65x264x512_e4m3_e5m2_f32_accf32_t256x128s4w2 --accumulator sm90 --seed 2 --max-quantum 1 --copies prompt --sm-count 3 | FileCheck %s --check-prefix=PROMPT
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-n=120 waves=2" > %t.n120.mlir
// RUN: fp8-emu %t.n120.mlir --accumulator sm90 --seed 3 --m 130 --copies late --sm-count 2 | FileCheck %s --check-prefix=N120
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 waves=2" > %t.c1.mlir
// RUN: fp8-emu %t.c1.mlir --accumulator sm90 --seed 4 --m 129 --max-quantum 7 --sm-count 3 | FileCheck %s --check-prefix=C1
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=256 block-n=128 waves=2 cluster=2" > %t.cl2.mlir
// RUN: fp8-emu %t.cl2.mlir --kernel fp8_scaled_matmul_300x200x404_e4m3_e4m3_bf16_t256x128s4cl2w2 --accumulator sm90 --seed 6 --sm-count 4 | FileCheck %s --check-prefix=CL2
// Planted faults in the two-wave kernel's NVVM-level IR, each caught: the
// first wave's wgmma.wait_group 0 removed (wave 0's partial promoted in
// flight, and wave 1's chain issued onto it); the operand fence given a
// PTX instruction (the emulator models only the empty fence).
// RUN: awk '/nvvm.wgmma.wait.group.sync.aligned 0/ && !done { done = 1; next } { print }' %t.w2.mlir | not fp8-emu - --kernel fp8_scaled_matmul_300x200x404_e4m3_e4m3_bf16_t256x128s4w2 > %t.nowait.txt 2>&1
// RUN: FileCheck %s --check-prefix=NOWAIT < %t.nowait.txt
// NOWAIT: fp8-emu: error: reads the result of a wgmma.mma_async before a wgmma.wait_group covering it
// RUN: sed 's/llvm.inline_asm has_side_effects asm_dialect = att ""/llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $1;"/' %t.w2.mlir | not fp8-emu - --kernel fp8_scaled_matmul_65x264x512_e4m3_e5m2_f32_accf32_t256x128s4w2 > %t.asm.txt 2>&1
// RUN: FileCheck %s --check-prefix=ASM < %t.asm.txt
// ASM: fp8-emu: error: {{.*}}inline asm "mov.b32 $0, $1;" with constraints "=f,{{.*}}" (only an operand fence is modelled

// W2-DAG: fp8-emu: PASS fp8_scaled_matmul_300x200x404_e4m3_e4m3_bf16_t256x128s4w2: 300x200x404, 60000 outputs bit-exact
// W2-DAG: fp8-emu: PASS fp8_scaled_matmul_65x264x512_e4m3_e5m2_f32_accf32_t256x128s4w2: 65x264x512, 17160 outputs bit-exact
// W2-DAG: fp8-emu: PASS fp8_scaled_matmul_200x136x272_e5m2_e4m3_bf16_accbf16_t256x128s4w2: 200x136x272, 27200 outputs bit-exact
// W2-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx136x384_e4m3_e4m3_f32_t256x128s4w2: 600x136x384, 81600 outputs bit-exact
// LOCK: fp8-emu: PASS fp8_scaled_matmul_dynx136x384_e4m3_e4m3_f32_t256x128s4w2: 129x136x384, 17544 outputs bit-exact
// PROMPT: fp8-emu: PASS fp8_scaled_matmul_65x264x512_e4m3_e5m2_f32_accf32_t256x128s4w2: 65x264x512, 17160 outputs bit-exact
// N120-DAG: fp8-emu: PASS fp8_scaled_matmul_300x200x404_e4m3_e4m3_bf16_t256x120s4w2: 300x200x404, 60000 outputs bit-exact
// N120-DAG: fp8-emu: PASS fp8_scaled_matmul_65x264x512_e4m3_e5m2_f32_accf32_t256x120s4w2: 65x264x512, 17160 outputs bit-exact
// N120-DAG: fp8-emu: PASS fp8_scaled_matmul_200x136x272_e5m2_e4m3_bf16_accbf16_t256x120s4w2: 200x136x272, 27200 outputs bit-exact
// N120-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx136x384_e4m3_e4m3_f32_t256x120s4w2: 130x136x384, 17680 outputs bit-exact
// C1-DAG: fp8-emu: PASS fp8_scaled_matmul_300x200x404_e4m3_e4m3_bf16_t128x128s6w2: 300x200x404, 60000 outputs bit-exact
// C1-DAG: fp8-emu: PASS fp8_scaled_matmul_65x264x512_e4m3_e5m2_f32_accf32_t128x128s6w2: 65x264x512, 17160 outputs bit-exact
// C1-DAG: fp8-emu: PASS fp8_scaled_matmul_200x136x272_e5m2_e4m3_bf16_accbf16_t128x128s6w2: 200x136x272, 27200 outputs bit-exact
// C1-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx136x384_e4m3_e4m3_f32_t128x128s6w2: 129x136x384, 17544 outputs bit-exact
// CL2: fp8-emu: PASS fp8_scaled_matmul_300x200x404_e4m3_e4m3_bf16_t256x128s4cl2w2: 300x200x404, 60000 outputs bit-exact

func.func @k404(%a: !fp8.scaled<300x404xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<200x404xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<300x200xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<300x404xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<200x404xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<300x200xbf16>
  return %d : tensor<300x200xbf16>
}

func.func @k512_acc(%a: !fp8.scaled<65x512xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<264x512xf8E5M2, block = [128, 128], scale = f32>,
    %c: tensor<65x264xf32>) -> tensor<65x264xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<65x264xf32>) : !fp8.scaled<65x512xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<264x512xf8E5M2, block = [128, 128], scale = f32> -> tensor<65x264xf32>
  return %d : tensor<65x264xf32>
}

func.func @k272_acc(%a: !fp8.scaled<200x272xf8E5M2, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<136x272xf8E4M3FN, block = [128, 128], scale = f32>,
    %c: tensor<200x136xbf16>) -> tensor<200x136xbf16> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<200x136xbf16>) : !fp8.scaled<200x272xf8E5M2, block = [1, 128], scale = f32>,
    !fp8.scaled<136x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x136xbf16>
  return %d : tensor<200x136xbf16>
}

func.func @dynamic_m(%a: !fp8.scaled<?x384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<136x384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x136xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<136x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x136xf32>
  return %d : tensor<?x136xf32>
}
