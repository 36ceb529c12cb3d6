// The TMA-store epilogue (`store=tma`, #fp8.gemm_kernel `tma_store = true`:
// each consumer warpgroup writes its 64 rows of D into a 128B-swizzled
// staging buffer, stmatrix for bf16 and st.shared.v2.f32 for f32, and one
// of its threads stores the 64-row x 128-byte boxes with cp.async.bulk.tensor,
// waiting for them to have read the buffer at the next tile's epilogue and
// after the last tile) runs on the CPU emulator bit-exact against the host
// reference with Hopper's accumulation model (`--accumulator sm90`, the
// arithmetic of fp8-cpu-pipeline{accumulator=sm90}). M and N are not
// multiples of the tile, so TMA clips boxes at both edges (N = 200: the
// second tile's columns 200..255 lie outside D, its second bf16 box half
// of them); on 2 or 3 SMs each CTA runs several tiles, so every staging
// buffer is reused; bf16 and f32 results, an accumulator C, a run-time M;
// the default tile, one consumer (block-m 64), 64 columns per consumer,
// the overlapped promotion (K = 1024: one whole trip of 8 blocks before the
// epilogue) and clusters of 2; random schedules (several seeds, late and
// prompt TMA landings) and the lock-step schedule. The other kernels have
// 2 or 3 K blocks: the store's properties depend on tails and tiles per
// CTA, not on K, and the emulator's time grows with tiles x K blocks. The
// emulator faults on a write of a staging buffer a TMA store may still
// read, on a CTA exiting before its stores read their source, and on a
// TMA store of bytes written without fence.proxy.async since; fp8-emu
// exits with 1 if an output differs.
// RUN: fp8-opt %s --fp8-lower-to-nvvm="store=tma" > %t.tma.mlir
// RUN: fp8-emu %t.tma.mlir --accumulator sm90 --seed 1 --m 200 --sm-count 2 --schedules 2 | FileCheck %s --check-prefix=TMA
// RUN: env FP8_EMU_SCHEDULE=lockstep fp8-emu %t.tma.mlir --accumulator sm90 --seed 7 --m 1 --sm-count 3 | FileCheck %s --check-prefix=TMA
// RUN: fp8-emu %t.tma.mlir --accumulator sm90 --seed 2 --m 65 --max-quantum 1 --copies prompt --sm-count 3 | FileCheck %s --check-prefix=TMA
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=128 store=tma" > %t.m64.mlir
// RUN: fp8-emu %t.m64.mlir --accumulator sm90 --seed 3 --m 130 --copies late --sm-count 2 | FileCheck %s --check-prefix=M64
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=64 store=tma" > %t.n64.mlir
// RUN: fp8-emu %t.n64.mlir --accumulator sm90 --seed 4 --m 129 --max-quantum 7 --sm-count 3 | FileCheck %s --check-prefix=N64
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 promotion-schedule=overlap8 store=tma" > %t.o8.mlir
// RUN: fp8-emu %t.o8.mlir --accumulator sm90 --seed 5 --m 130 --sm-count 2 | FileCheck %s --check-prefix=O8
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 cluster=2 store=tma" > %t.cl2.mlir
// RUN: fp8-emu %t.cl2.mlir --accumulator sm90 --seed 6 --m 300 --sm-count 4 | FileCheck %s --check-prefix=CL2
// Planted faults in the kernel's NVVM-level IR, each caught whatever the
// outputs: the storing thread's wait before the staging writes removed (a
// warpgroup's second tile's stmatrix writes the buffer its first tile's
// store may still read; the schedule decides which warpgroup faults
// first), the exit wait removed (the thread exits with its last store
// pending), and the fence.proxy.async removed (the TMA store reads bytes
// the generic proxy wrote unfenced).
// RUN: awk '/nvvm.cp.async.bulk.wait_group 0 \{read\}/ && !done { done = 1; next } { print }' %t.tma.mlir | not fp8-emu - --kernel fp8_scaled_matmul_130x200x256_e4m3_e4m3_bf16_t128x128s4tma --sm-count 2 2>&1 | FileCheck %s --check-prefix=NOWAIT
// RUN: awk '/nvvm.cp.async.bulk.wait_group 0 \{read\}/ { n++; if (n == 2) next } { print }' %t.tma.mlir | not fp8-emu - --kernel fp8_scaled_matmul_130x200x256_e4m3_e4m3_bf16_t128x128s4tma --sm-count 2 2>&1 | FileCheck %s --check-prefix=NOEXITWAIT
// RUN: awk '/nvvm.fence.proxy/ && !done { done = 1; next } { print }' %t.tma.mlir | not fp8-emu - --kernel fp8_scaled_matmul_130x200x256_e4m3_e4m3_bf16_t128x128s4tma --sm-count 2 2>&1 | FileCheck %s --check-prefix=NOFENCE
// NOWAIT: fp8-emu: error: a store writes shared memory [0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}) that a TMA store (cp.async.bulk.tensor) of thread {{[0-9]+}} may still read
// NOWAIT: 'nvvm.stmatrix'
// NOEXITWAIT: fp8-emu: error: thread exits while its TMA store (cp.async.bulk.tensor) may still read shared memory
// NOFENCE: fp8-emu: error: TMA store reads shared memory at 0x{{[0-9a-f]+}} that thread {{[0-9]+}} stored with no fence.proxy.async since

// TMA-DAG: fp8-emu: PASS fp8_scaled_matmul_130x200x256_e4m3_e4m3_bf16_t128x128s4tma: 130x200x256, 26000 outputs bit-exact
// TMA-DAG: fp8-emu: PASS fp8_scaled_matmul_65x200x384_e4m3_e5m2_f32_accf32_t128x128s4tma: 65x200x384, 13000 outputs bit-exact
// TMA-DAG: fp8-emu: PASS fp8_scaled_matmul_129x72x272_e5m2_e4m3_bf16_t128x128s4tma: 129x72x272, 9288 outputs bit-exact
// TMA-DAG: fp8-emu: PASS fp8_scaled_matmul_65x128x1024_e4m3_e4m3_bf16_t128x128s4tma: 65x128x1024, 8320 outputs bit-exact
// TMA-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx136x256_e4m3_e4m3_f32_t128x128s4tma:
// M64-DAG: fp8-emu: PASS fp8_scaled_matmul_130x200x256_e4m3_e4m3_bf16_t64x128s8tma: 130x200x256, 26000 outputs bit-exact
// M64-DAG: fp8-emu: PASS fp8_scaled_matmul_65x200x384_e4m3_e5m2_f32_accf32_t64x128s8tma: 65x200x384, 13000 outputs bit-exact
// M64-DAG: fp8-emu: PASS fp8_scaled_matmul_129x72x272_e5m2_e4m3_bf16_t64x128s8tma: 129x72x272, 9288 outputs bit-exact
// M64-DAG: fp8-emu: PASS fp8_scaled_matmul_65x128x1024_e4m3_e4m3_bf16_t64x128s8tma: 65x128x1024, 8320 outputs bit-exact
// M64-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx136x256_e4m3_e4m3_f32_t64x128s8tma:
// N64-DAG: fp8-emu: PASS fp8_scaled_matmul_130x200x256_e4m3_e4m3_bf16_t128x64s7tma: 130x200x256, 26000 outputs bit-exact
// N64-DAG: fp8-emu: PASS fp8_scaled_matmul_65x200x384_e4m3_e5m2_f32_accf32_t128x64s7tma: 65x200x384, 13000 outputs bit-exact
// N64-DAG: fp8-emu: PASS fp8_scaled_matmul_129x72x272_e5m2_e4m3_bf16_t128x64s7tma: 129x72x272, 9288 outputs bit-exact
// N64-DAG: fp8-emu: PASS fp8_scaled_matmul_65x128x1024_e4m3_e4m3_bf16_t128x64s7tma: 65x128x1024, 8320 outputs bit-exact
// N64-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx136x256_e4m3_e4m3_f32_t128x64s7tma:
// O8-DAG: fp8-emu: PASS fp8_scaled_matmul_130x200x256_e4m3_e4m3_bf16_t128x128s4o8tma: 130x200x256, 26000 outputs bit-exact
// O8-DAG: fp8-emu: PASS fp8_scaled_matmul_65x200x384_e4m3_e5m2_f32_accf32_t128x128s4o8tma: 65x200x384, 13000 outputs bit-exact
// O8-DAG: fp8-emu: PASS fp8_scaled_matmul_129x72x272_e5m2_e4m3_bf16_t128x128s4o8tma: 129x72x272, 9288 outputs bit-exact
// O8-DAG: fp8-emu: PASS fp8_scaled_matmul_65x128x1024_e4m3_e4m3_bf16_t128x128s4o8tma: 65x128x1024, 8320 outputs bit-exact
// O8-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx136x256_e4m3_e4m3_f32_t128x128s4o8tma:
// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_130x200x256_e4m3_e4m3_bf16_t128x128s4cl2tma: 130x200x256, 26000 outputs bit-exact
// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_65x200x384_e4m3_e5m2_f32_accf32_t128x128s4cl2tma: 65x200x384, 13000 outputs bit-exact
// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_129x72x272_e5m2_e4m3_bf16_t128x128s4cl2tma: 129x72x272, 9288 outputs bit-exact
// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_65x128x1024_e4m3_e4m3_bf16_t128x128s4cl2tma: 65x128x1024, 8320 outputs bit-exact
// CL2-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx136x256_e4m3_e4m3_f32_t128x128s4cl2tma:

func.func @k256(%a: !fp8.scaled<130x256xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<200x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<130x200xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<130x256xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<200x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x200xbf16>
  return %d : tensor<130x200xbf16>
}

func.func @k384_acc(%a: !fp8.scaled<65x384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<200x384xf8E5M2, block = [128, 128], scale = f32>,
    %c: tensor<65x200xf32>) -> tensor<65x200xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<65x200xf32>) : !fp8.scaled<65x384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<200x384xf8E5M2, block = [128, 128], scale = f32> -> tensor<65x200xf32>
  return %d : tensor<65x200xf32>
}

func.func @k272(%a: !fp8.scaled<129x272xf8E5M2, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<72x272xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<129x72xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<129x272xf8E5M2, block = [1, 128], scale = f32>,
    !fp8.scaled<72x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<129x72xbf16>
  return %d : tensor<129x72xbf16>
}

func.func @k1024(%a: !fp8.scaled<65x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<128x1024xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<65x128xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<65x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<128x1024xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<65x128xbf16>
  return %d : tensor<65x128xbf16>
}

func.func @dynamic_m(%a: !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<136x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x136xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<136x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x136xf32>
  return %d : tensor<?x136xf32>
}
