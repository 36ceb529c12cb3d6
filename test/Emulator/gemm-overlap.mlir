// The overlapped promotion (`promotion-schedule=overlap4|overlap8`,
// #fp8.gemm_kernel `overlap = U`: block k promoted after `wgmma.wait_group 1`
// while block k + 1's wgmma chain runs, the K loop unrolled by U blocks per
// trip and drained before its back edge, the KB mod U blocks after the last
// trip in lock-step) runs on the CPU emulator bit-exact against the host
// reference with Hopper's accumulation model (`--accumulator sm90`, the
// arithmetic of fp8-cpu-pipeline{accumulator=sm90}): the promotion per output
// stays in K-block order. K blocks per shape: 11 (K = 1300: one trip of 8 and 3
// blocks in lock-step, or two trips of 4 and 3), 16 (K = 2048 with C: whole
// trips only, two of 8 or four of 4), 3 (K = 272: no trip, all in lock-step)
// and 5 with a run-time M (one trip of 4 and 1; in lock-step by 8); M, N and K
// tails, e4m3/e5m2, bf16 and f32 results. The emulator's time grows with tiles
// x K blocks, so M and N are only as large as a property needs: the K = 1300
// kernel has 3 tiles of 128 x 128 (5 of 128 x 64), more than the SMs of its
// run, so a CTA runs several tiles and the ring wraps across them with trips in
// flight; the others are one or two tiles. Each configuration runs under its
// own scheduler seed, thread-switch quantum and TMA landing order (seeded,
// prompt, late), on 2 or 3 SMs; two stages (the fewest the overlap allows: a
// consumer holds block k's slot while it waits for block k + 1's) and clusters
// of 2 (the peers' releases; on 2 SMs one cluster runs the K = 1300 kernel's 3
// cluster tiles, each pairing a tile with a rank past M, zero-filled) included.
// The emulator faults on a read of a wgmma result before a wgmma.wait_group
// covers its group and on a TMA write into a slot a wgmma still reads (a
// missing drain, an early release); fp8-emu exits with 1 if an output differs.
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 promotion-schedule=overlap8" > %t.o8.mlir
// RUN: fp8-emu %t.o8.mlir --accumulator sm90 --seed 1 --m 200 --sm-count 2 | FileCheck %s --check-prefix=O8
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=64 promotion-schedule=overlap4" > %t.n64o4.mlir
// RUN: fp8-emu %t.n64o4.mlir --accumulator sm90 --seed 3 --m 1 --max-quantum 1 --copies prompt --sm-count 3 | FileCheck %s --check-prefix=N64O4
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=112 promotion-schedule=overlap8" > %t.n112.mlir
// RUN: fp8-emu %t.n112.mlir --accumulator sm90 --seed 4 --m 129 --copies late --sm-count 2 | FileCheck %s --check-prefix=N112
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=64 stages=2 promotion-schedule=overlap4" > %t.s2.mlir
// RUN: fp8-emu %t.s2.mlir --accumulator sm90 --seed 5 --m 130 --max-quantum 7 --sm-count 3 | FileCheck %s --check-prefix=S2
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 cluster=2 promotion-schedule=overlap8" > %t.cl2.mlir
// RUN: fp8-emu %t.cl2.mlir --accumulator sm90 --seed 6 --m 65 --sm-count 2 | FileCheck %s --check-prefix=CL2
// Planted faults in the overlapped kernel's NVVM-level IR, each caught: the
// trip's wait_group 1 as 2 (block j - 1's group still pending when it is
// promoted) and the drain before the back edge removed (the trip's last
// block promoted in flight; the trip's wait_group 0 is the kernel's first).
// RUN: sed 's/nvvm.wgmma.wait.group.sync.aligned 1$/nvvm.wgmma.wait.group.sync.aligned 2/' %t.o8.mlir | not fp8-emu - --kernel fp8_scaled_matmul_65x264x1300_e4m3_e4m3_bf16_t128x128s6o8 2>&1 | FileCheck %s --check-prefix=WAIT2
// RUN: awk '/nvvm.wgmma.wait.group.sync.aligned 0/ && !done { done = 1; next } { print }' %t.o8.mlir | not fp8-emu - --kernel fp8_scaled_matmul_65x264x1300_e4m3_e4m3_bf16_t128x128s6o8 2>&1 | FileCheck %s --check-prefix=NODRAIN
// WAIT2: fp8-emu: error: reads the result of a wgmma.mma_async before a wgmma.wait_group covering it (commit group 0 of the warpgroup; groups below 0 are complete)
// WAIT2-NEXT: 'llvm.intr.fma'
// NODRAIN: fp8-emu: error: reads the result of a wgmma.mma_async before a wgmma.wait_group covering it (commit group 7 of the warpgroup; groups below 7 are complete)
// NODRAIN-NEXT: 'llvm.intr.fma'

// O8-DAG: fp8-emu: PASS fp8_scaled_matmul_65x264x1300_e4m3_e4m3_bf16_t128x128s6o8: 65x264x1300, 17160 outputs bit-exact
// O8-DAG: fp8-emu: PASS fp8_scaled_matmul_65x56x2048_e4m3_e5m2_f32_accf32_t128x128s6o8: 65x56x2048, 3640 outputs bit-exact
// O8-DAG: fp8-emu: PASS fp8_scaled_matmul_129x72x272_e5m2_e4m3_bf16_t128x128s6o8: 129x72x272, 9288 outputs bit-exact
// O8-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx56x640_e4m3_e4m3_f32_t128x128s6o8: 200x56x640, 11200 outputs bit-exact
// N64O4-DAG: fp8-emu: PASS fp8_scaled_matmul_65x264x1300_e4m3_e4m3_bf16_t128x64s8o4: 65x264x1300, 17160 outputs bit-exact
// N64O4-DAG: fp8-emu: PASS fp8_scaled_matmul_65x56x2048_e4m3_e5m2_f32_accf32_t128x64s8o4: 65x56x2048, 3640 outputs bit-exact
// N64O4-DAG: fp8-emu: PASS fp8_scaled_matmul_129x72x272_e5m2_e4m3_bf16_t128x64s8o4: 129x72x272, 9288 outputs bit-exact
// N64O4-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx56x640_e4m3_e4m3_f32_t128x64s8o4: 1x56x640, 56 outputs bit-exact
// N112-DAG: fp8-emu: PASS fp8_scaled_matmul_65x264x1300_e4m3_e4m3_bf16_t128x112s7o8: 65x264x1300, 17160 outputs bit-exact
// N112-DAG: fp8-emu: PASS fp8_scaled_matmul_65x56x2048_e4m3_e5m2_f32_accf32_t128x112s7o8: 65x56x2048, 3640 outputs bit-exact
// N112-DAG: fp8-emu: PASS fp8_scaled_matmul_129x72x272_e5m2_e4m3_bf16_t128x112s7o8: 129x72x272, 9288 outputs bit-exact
// N112-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx56x640_e4m3_e4m3_f32_t128x112s7o8: 129x56x640, 7224 outputs bit-exact
// S2-DAG: fp8-emu: PASS fp8_scaled_matmul_65x264x1300_e4m3_e4m3_bf16_t128x64s2o4: 65x264x1300, 17160 outputs bit-exact
// S2-DAG: fp8-emu: PASS fp8_scaled_matmul_65x56x2048_e4m3_e5m2_f32_accf32_t128x64s2o4: 65x56x2048, 3640 outputs bit-exact
// S2-DAG: fp8-emu: PASS fp8_scaled_matmul_129x72x272_e5m2_e4m3_bf16_t128x64s2o4: 129x72x272, 9288 outputs bit-exact
// S2-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx56x640_e4m3_e4m3_f32_t128x64s2o4: 130x56x640, 7280 outputs bit-exact
// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_65x264x1300_e4m3_e4m3_bf16_t128x128s6cl2o8: 65x264x1300, 17160 outputs bit-exact
// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_65x56x2048_e4m3_e5m2_f32_accf32_t128x128s6cl2o8: 65x56x2048, 3640 outputs bit-exact
// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_129x72x272_e5m2_e4m3_bf16_t128x128s6cl2o8: 129x72x272, 9288 outputs bit-exact
// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx56x640_e4m3_e4m3_f32_t128x128s6cl2o8: 65x56x640, 3640 outputs bit-exact

func.func @k1300(%a: !fp8.scaled<65x1300xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<264x1300xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<65x264xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<65x1300xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<264x1300xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<65x264xbf16>
  return %d : tensor<65x264xbf16>
}

func.func @k2048_acc(%a: !fp8.scaled<65x2048xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<56x2048xf8E5M2, block = [128, 128], scale = f32>,
    %c: tensor<65x56xf32>) -> tensor<65x56xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<65x56xf32>) : !fp8.scaled<65x2048xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<56x2048xf8E5M2, block = [128, 128], scale = f32> -> tensor<65x56xf32>
  return %d : tensor<65x56xf32>
}

func.func @k272(%a: !fp8.scaled<129x272xf8E5M2, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<72x272xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<129x72xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<129x272xf8E5M2, block = [1, 128], scale = f32>,
    !fp8.scaled<72x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<129x72xbf16>
  return %d : tensor<129x72xbf16>
}

func.func @dynamic_m(%a: !fp8.scaled<?x640xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<56x640xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x56xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x640xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<56x640xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x56xf32>
  return %d : tensor<?x56xf32>
}
