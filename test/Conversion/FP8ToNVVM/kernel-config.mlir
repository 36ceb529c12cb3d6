// The GEMM kernel configuration is an input (fp8-lower-to-nvvm /
// fp8-gpu-pipeline options block-m, block-n, stages, consumers): what each
// option changes in the kernel, the names that keep two configurations of
// one shape apart, and the errors for configurations the hardware cannot run.

// --- Option values (checked up front, naming the option) -------------------
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed block-m=100' 2>&1 | FileCheck %s --check-prefix=BM
// BM: fp8-lower-to-nvvm: option block-m=100 is invalid: expected 0 (the shape's default) or 64, 128, 192, 256 (64 rows per consumer warpgroup, wgmma m64)
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed block-n=12' 2>&1 | FileCheck %s --check-prefix=BN12
// BN12: fp8-lower-to-nvvm: option block-n=12 is invalid: expected 0 (128) or a multiple of 8 in 16..256 (wgmma .m64nNk32 with e4m3/e5m2 operands)
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed block-n=100' 2>&1 | FileCheck %s --check-prefix=BN100
// BN100: option block-n=100 is invalid
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed block-n=264' 2>&1 | FileCheck %s --check-prefix=BN264
// BN264: option block-n=264 is invalid
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed stages=65' 2>&1 | FileCheck %s --check-prefix=ST
// ST: fp8-lower-to-nvvm: option stages=65 is invalid: expected 0 (as many as fit) or 1..64 (the mbarrier area)
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed consumers=5' 2>&1 | FileCheck %s --check-prefix=CONS
// CONS: fp8-lower-to-nvvm: option consumers=5 is invalid: expected 0 (block-m / 64) or 1..4 consumer warpgroups
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed block-m=128 consumers=1' 2>&1 | FileCheck %s --check-prefix=DISAGREE
// DISAGREE: fp8-lower-to-nvvm: options block-m=128 and consumers=1 disagree: each consumer warpgroup computes 64 rows (consumers = block-m / 64 times the column splits)
// The pipeline passes them on.
// RUN: not fp8-opt %s --fp8-gpu-pipeline='config=fixed block-n=20' 2>&1 | FileCheck %s --check-prefix=PIPE
// PIPE: fp8-lower-to-nvvm: option block-n=20 is invalid

// --- Combinations (checked per kernel, naming every option) ----------------
// 8 stages of 256 x 256 tiles: 8 x (32 + 32 + 1) KB > 227 KB.
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed block-m=256 block-n=256 stages=8' 2>&1 | FileCheck %s --check-prefix=SMEM
// SMEM: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=256 block-n=256 stages=8 consumers=4 (533504 bytes of shared memory): the shared-memory ring (stages x (block-m + block-n) x 128 bytes + A scales + barriers) exceeds the 227 KB of shared memory per block of sm_90
// The accumulators and the wgmma partial (block-n registers per thread) must
// fit the consumers' registers: 232 for one or two consumers (block-n <= 216),
// 104 for four (65536 / 640 threads = 102, rounded to 96 per thread at launch,
// 96 x 640 - 40 x 128 left for 512 consumer threads; block-n <= 88).
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed block-n=256' 2>&1 | FileCheck %s --check-prefix=REGS256
// REGS256: invalid kernel configuration block-m=128 block-n=256 stages={{[0-9]+}} consumers=2 ({{[0-9]+}} bytes of shared memory): block-n is too wide for the consumer registers (accumulators and wgmma partial take block-n / splits registers per thread, plus 16, within 232 registers for 1-2 consumers, 152 for 3, 104 for 4: block-n / splits <= 216, 136, 88; block-n 224..256 needs block-m 64 with two consumers splitting the columns)
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed block-m=256 block-n=128' 2>&1 | FileCheck %s --check-prefix=REGS
// REGS: invalid kernel configuration block-m=256 block-n=128 stages=4 consumers=4 ({{[0-9]+}} bytes of shared memory): block-n is too wide for the consumer registers

// --- Kernels ---------------------------------------------------------------
// RUN: fp8-opt %s -fp8-lower-to-nvvm=config=fixed | FileCheck %s --check-prefix=DEFAULT
// RUN: fp8-opt %s -fp8-lower-to-nvvm='config=fixed block-n=96' | FileCheck %s --check-prefix=N96
// RUN: fp8-opt %s -fp8-lower-to-nvvm='config=fixed block-n=216' | FileCheck %s --check-prefix=N216
// RUN: fp8-opt %s -fp8-lower-to-nvvm='config=fixed block-m=256 block-n=64' | FileCheck %s --check-prefix=M256
// RUN: fp8-opt %s -fp8-lower-to-nvvm='config=fixed block-m=64 stages=3' | FileCheck %s --check-prefix=M64
// RUN: fp8-opt %s -fp8-lower-to-nvvm='config=fixed block-m=64 block-n=256' | FileCheck %s --check-prefix=W256

// The default configuration keeps its name (no suffix): 128 x 128 tiles, 6
// stages, one B scale per tile (BLOCK_N = 128 never straddles a block).
// DEFAULT-LABEL: llvm.func @fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16(
// DEFAULT-SAME: nvvm.maxntid = array<i32: 384, 1, 1>
// DEFAULT-COUNT-6: nvvm.mbarrier.init
// DEFAULT: nvvm.setmaxregister increase 232
// DEFAULT: llvm.load {{.*}} : !llvm.ptr<1> -> f32
// DEFAULT-NOT: llvm.load {{.*}} : !llvm.ptr<1> -> f32
// DEFAULT: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 32>
// DEFAULT-NOT: arith.select

// BLOCK_N = 96: the suffix names tiles and stages (7 fit: 7 x 29 KB); a
// tile starts 0, 96, 192 or 288 columns in, so it may straddle two B-scale
// blocks: the scales of two blocks are staged (docs/gpu-kernel.md, "The
// K-block path": 2 blocks x KB = 4 f32 = 32 bytes per warpgroup after the
// ring and the barriers, 7 x (16384 + 12288 + 512) + 1024 = 205312; the
// copy's element index clamped to the last of the 3 x 4) and each 8-column
// register group picks one by its column (12 groups).
// N96-LABEL: llvm.func @fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x96s7(
// N96: nvvm.setmaxregister increase 232
// N96: %[[COL0:.*]] = arith.muli %{{.*}}, %c96_i32{{[_0-9]*}} : i32
// N96: %[[BLK0:.*]] = arith.divui %[[COL0]], %c128_i32{{[_0-9]*}} : i32
// N96: arith.remui %[[COL0]], %c128_i32{{[_0-9]*}} : i32
// N96: %c205312_i32 = arith.constant 205312 : i32
// N96: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32{{[_0-9]*}}
// N96: %[[FIRST:.*]] = arith.muli %[[BLK0]], %c4_i32{{[_0-9]*}} : i32
// N96: scf.for %[[I:.*]] = %{{.*}} to %c8_i32{{[_0-9]*}} step %c128_i32{{[_0-9]*}}
// N96: %[[SRC:.*]] = arith.addi %[[FIRST]], %[[I]] : i32
// N96: arith.minui %[[SRC]], %c11_i32{{[_0-9]*}} : i32
// N96: llvm.load {{.*}} : !llvm.ptr<1> -> f32
// N96: llvm.store {{.*}} : f32, !llvm.ptr<3>
// N96: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32{{[_0-9]*}}
// N96: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 96, k = 32>
// N96-COUNT-12: arith.select
// N96-NOT: arith.select
// N96: llvm.store

// BLOCK_N = 216 (the widest two consumers hold): a tile starts at a multiple
// of 8 inside its first 128-column block and may touch three blocks, so
// three scales are loaded and each of the 27 register groups selects twice.
// N216-LABEL: llvm.func @fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x216s5(
// N216: arith.minui
// N216: arith.minui
// N216-NOT: arith.minui
// N216: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 216, k = 32>
// N216-COUNT-54: arith.select
// N216-NOT: arith.select
// N216: llvm.store

// BLOCK_M = 256: four consumer warpgroups (640 threads) at 104 registers;
// BLOCK_N = 64 divides 128, so a tile lies in one B-scale block.
// M256-LABEL: llvm.func @fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t256x64s5(
// M256-SAME: nvvm.maxntid = array<i32: 640, 1, 1>
// M256: nvvm.setmaxregister decrease 40
// M256: nvvm.setmaxregister increase 104
// M256: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 32>
// M256-NOT: arith.select

// BLOCK_M = 64 with 3 stages (a full and an empty barrier each) for a shape
// whose default is 128 rows.
// M64-LABEL: llvm.func @fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t64x128s3(
// M64-SAME: nvvm.maxntid = array<i32: 256, 1, 1>
// M64-COUNT-6: nvvm.mbarrier.init
// M64-NOT: nvvm.mbarrier.init
// M64: nvvm.setmaxregister increase 232

// BLOCK_N = 256 with BLOCK_M = 64: two consumer warpgroups split the tile's
// columns (suffix c2), each one wgmma .m64n128k32 per k32 step from B rows
// 128 x consumer on (16384 bytes into the stage), 232 registers each; the
// tiles start at multiples of 128 columns: one B scale per consumer, no
// select.
// W256-LABEL: llvm.func @fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t64x256s5c2(
// W256-SAME: nvvm.maxntid = array<i32: 384, 1, 1>
// W256: nvvm.setmaxregister increase 232
// W256: arith.muli %{{.*}}, %c128_i32{{[_0-9]*}} : i32
// W256: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 32>
// W256-NOT: arith.select
// W256-NOT: <m = 64, n = 256, k = 32>

func.func @gemm(%a: !fp8.scaled<200x400xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<200x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x400xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x300xbf16>
  return %d : tensor<200x300xbf16>
}
