// The GEMM kernel with per-column B scales (b blocks [1, 128]: the Wgrad
// GEMM, DeepGEMM's "1D-1D" form) at the NVVM level: its name and
// fp8.kernel (b_scale_rows = 1) say so; per K block each consumer thread loads the
// scales of its fragment columns (WgmmaFragment.h: columns colTile + 8j and
// + 1 of register group j) from the transposed [KB, Np] array, Np the
// columns of all tiles (300 columns in 128-wide tiles: 3 * 128 = 384), as
// consumerN / 8 aligned 8-byte loads at constant offsets 8j floats, before
// the full-barrier wait; the promotion multiplies each register's A scale
// (its row) by its own column's B scale and fmas, the reference's order.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed | FileCheck %s
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-n=112" | FileCheck %s --check-prefix=N112
// The per-column scales take consumerN / 4 registers: BLOCK_N 176 with two
// consumers is rejected (within 232 registers: block-n / splits <= 168).
// RUN: not fp8-opt %s --fp8-lower-to-nvvm="block-n=176" 2>&1 | FileCheck %s --check-prefix=WIDE

// CHECK-LABEL: llvm.func @fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128(
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 200, n = 300, k = 400, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 1, block_m = 128, block_n = 128, block_k = 128
// CHECK: %[[SB:.*]] = llvm.addrspacecast %arg3 : !llvm.ptr to !llvm.ptr<1>
// The consumers' K loop (4 K blocks).
// CHECK: scf.for %[[KB:.*]] = %{{.*}} to %c4_i32{{.*}} step
// CHECK: %[[ROW:.*]] = arith.muli %[[KB]], %c384_i32 : i32
// CHECK: %[[IDX:.*]] = arith.addi %[[ROW]], %{{.*}} : i32
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[SB]][%[[IDX]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK: %[[V0:.*]] = llvm.load %[[P0]] {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[P0]][8] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK: %[[V1:.*]] = llvm.load %[[P1]] {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK-COUNT-13: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK: %[[P15:.*]] = llvm.getelementptr %[[P0]][120] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK: llvm.load %[[P15]] {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK-NOT: vector<2xf32>
// CHECK: nvvm.mbarrier.try_wait.parity
// The two A scales of the thread's rows (shared memory, read after the wait
// and before the wgmma chain), then per register r of group 0: column pair
// element r % 2, row slot (r / 2) % 2.
// CHECK: %[[SA0:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: %[[SA1:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: %[[E0:.*]] = llvm.extractelement %[[V0]][%c0_i32{{.*}} : i32] : vector<2xf32>
// CHECK: %[[X0:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK: %[[S0:.*]] = arith.mulf %[[SA0]], %[[E0]] : f32
// CHECK: llvm.intr.fma(%[[X0]], %[[S0]], %{{.*}}) : (f32, f32, f32) -> f32
// CHECK: %[[E1:.*]] = llvm.extractelement %[[V0]][%c1_i32{{.*}} : i32] : vector<2xf32>
// CHECK: %[[X1:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK: %[[S1:.*]] = arith.mulf %[[SA0]], %[[E1]] : f32
// CHECK: llvm.intr.fma(%[[X1]], %[[S1]], %{{.*}}) : (f32, f32, f32) -> f32
// CHECK: %[[E2:.*]] = llvm.extractelement %[[V0]][%c0_i32{{.*}} : i32] : vector<2xf32>
// CHECK: %[[X2:.*]] = llvm.extractvalue %{{.*}}[2]
// CHECK: %[[S2:.*]] = arith.mulf %[[SA1]], %[[E2]] : f32
// CHECK: llvm.intr.fma(%[[X2]], %[[S2]], %{{.*}}) : (f32, f32, f32) -> f32
// Register 4: group 1, the second pair.
// CHECK: %[[E4:.*]] = llvm.extractelement %[[V1]][%c0_i32{{.*}} : i32] : vector<2xf32>
// CHECK: %[[X4:.*]] = llvm.extractvalue %{{.*}}[4]
// CHECK: arith.mulf %[[SA0]], %[[E4]] : f32

// BLOCK_N 112: Np = ceil(300 / 112) * 112 = 336, 14 pair loads (offsets 0,
// 8, ..., 104 floats).
// N112-LABEL: llvm.func @fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_t128x112s7(
// N112: arith.muli %{{.*}}, %c336_i32 : i32
// N112: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// N112-COUNT-12: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// N112: llvm.getelementptr %{{.*}}[104] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// N112-NEXT: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// N112-NOT: vector<2xf32>
// N112: nvvm.mbarrier.try_wait.parity

// WIDE: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=128 block-n=176 stages=5 consumers=2 (198144 bytes of shared memory): block-n is too wide for the consumer registers of a kernel with per-column B scales

func.func @wgrad(%a: !fp8.scaled<200x400xf8E4M3FN, block = [1, 128], scale = f32>,
                 %b: !fp8.scaled<300x400xf8E4M3FN, block = [1, 128], scale = f32>) -> tensor<200x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x400xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<300x400xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<200x300xbf16>
  return %d : tensor<200x300xbf16>
}
