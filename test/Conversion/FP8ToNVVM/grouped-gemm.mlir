// The grouped (MoE) GEMM kernels of fp8.grouped_scaled_matmul at the NVVM
// level and their host launch: one kernel and ONE gpu.launch_func per op
// (never a loop of launches), 3-D tensor maps with the group outermost and
// box 1 along it, the counts / group index as the last parameter.
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-nvvm=config=fixed | FileCheck %s --check-prefix=NVVM
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-nvvm=config=fixed --fp8-launch-kernels=sm-count=8 -canonicalize -cse | FileCheck %s --check-prefix=HOST
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-nvvm | FileCheck %s --check-prefix=AUTO

// Masked, counts, no C. Parameters: A, B, A-scale maps, B scales, D, M, counts.
// Each of the 4 groups has ceil(100/128) * ceil(200/128) = 2 tiles: 8 tiles,
// group g = tile / 2. The producer loads A [G, M, K] and the A scales [G, KB,
// M] at (k, row0, g) / (row0, kb, g) and B [G, N, K] at (k, col0, g); a tile
// with counts[g] <= row0 runs no K block (select KB or 0).
// NVVM-LABEL: llvm.func @fp8_grouped_matmul_masked_4x100x200x256_e4m3_e4m3_bf16_counts(
// NVVM-SAME: %arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: !llvm.ptr, %arg4: !llvm.ptr, %arg5: i32, %arg6: !llvm.ptr)
// NVVM-SAME: fp8.kernel = #fp8.gemm_kernel<m = 100, n = 200, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, counts = true, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>, fp8.kernel_model = #fp8.kernel_model<chip = "h200", ctas = 8,
// NVVM: %[[G:.*]] = arith.divui %{{.*}}, %c2_i32 : i32
// NVVM: %[[CNT:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i32
// NVVM: %[[ACTIVE:.*]] = arith.cmpi slt, %{{.*}}, %[[CNT]] : i32
// NVVM: arith.select %[[ACTIVE]], %c2_i32{{.*}}, %c0_i32{{.*}} : i32
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %{{.*}}, box[%{{.*}}, %{{.*}}, %[[G]]]
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%{{.*}}, %{{.*}}, %[[G]]]
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg2, %{{.*}}, box[%{{.*}}, %{{.*}}, %[[G]]]
// Consumer: rows past counts[g] store +0.0.
// NVVM: arith.cmpi slt
// NVVM: arith.select %{{.*}}, %{{.*}}, %cst{{.*}} : f32

// HOST-LABEL: func.func @masked(
// HOST-COUNT-1: call @fp8_launch_fp8_grouped_matmul_masked_4x100x200x256_e4m3_e4m3_bf16_counts(%{{.*}}) : (memref<4x100x256xf8E4M3FN>, memref<4x200x256xf8E4M3FN>, memref<4x2x100xf32>, memref<4x2x2xf32>, memref<4x100x200xbf16>, memref<4xi32>) -> ()
// HOST-NOT: call @fp8_launch
// HOST-LABEL: func.func private @fp8_launch_fp8_grouped_matmul_masked_4x100x200x256_e4m3_e4m3_bf16_counts(
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c128, %c128] : memref<*xui8> -> <tensor = memref<1x128x128xui8, 3>
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c128, %c128] : memref<*xui8> -> <tensor = memref<1x128x128xui8, 3>
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c1, %c128] : memref<*xf32> -> <tensor = memref<1x1x128xf32, 3>
// Grid: min(4 groups * 2 tiles, 8 SMs) = 8.
// HOST-COUNT-1: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_grouped_matmul_masked_4x100x200x256_e4m3_e4m3_bf16_counts blocks in (%c8, %c1, %c1) threads in (%c384, %c1, %c1)
// HOST-NOT: gpu.launch_func

// The cost model sees G * M = 400 rows: 64x16 tiles, 4 * 2 * 13 = 104 CTAs.
// AUTO-LABEL: llvm.func @fp8_grouped_matmul_masked_4x100x200x256_e4m3_e4m3_bf16_counts_t64x16s8(
// AUTO-SAME: block_m = 64, block_n = 16, {{.*}}ctas = 104,
func.func @masked(%a: !fp8.scaled<4x100x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<4x200x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %n: tensor<4xi32>) -> tensor<4x100x200xbf16> {
  %d = fp8.grouped_scaled_matmul masked %a, %b counts(%n : tensor<4xi32>) : !fp8.scaled<4x100x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<4x200x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<4x100x200xbf16>
  return %d : tensor<4x100x200xbf16>
}

// -----

// Masked without counts: no group parameter, every row of every group valid
// (no select on the K blocks, no row select).
// NVVM-LABEL: llvm.func @fp8_grouped_matmul_masked_2x64x128x128_e4m3_e4m3_f32(
// NVVM-SAME: %arg4: !llvm.ptr, %arg5: i32) attributes
// NVVM-NOT: arith.select %{{.*}} : f32
// NVVM: llvm.return
// HOST-LABEL: func.func @masked_all(
// HOST-COUNT-1: call @fp8_launch_fp8_grouped_matmul_masked_2x64x128x128_e4m3_e4m3_f32(
// HOST-NOT: call @fp8_launch
func.func @masked_all(%a: !fp8.scaled<2x64x128xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<2x128x128xf8E4M3FN, block = [1, 128, 128], scale = f32>) -> tensor<2x64x128xf32> {
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<2x64x128xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<2x128x128xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<2x64x128xf32>
  return %d : tensor<2x64x128xf32>
}

// -----

// Contiguous with C: parameters A, B, A-scale maps, B scales, D, M, C,
// group index. A tile's group is the index of its first row (a load at
// row0); an index outside [0, 4) (unsigned compare: -1 too) runs no K block.
// A and its scales are 2-D maps, B is 3-D at (k, col0, g).
// NVVM-LABEL: llvm.func @fp8_grouped_matmul_contiguous_4x512x200x256_e4m3_e4m3_bf16_accf32(
// NVVM-SAME: %arg5: i32, %arg6: !llvm.ptr, %arg7: !llvm.ptr)
// NVVM: %[[G:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i32
// NVVM: %[[ACTIVE:.*]] = arith.cmpi ult, %[[G]], %c4_i32 : i32
// NVVM: arith.select %[[ACTIVE]], %c2_i32{{.*}}, %c0_i32{{.*}} : i32
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %{{.*}}, box[%{{.*}}, %{{.*}}] :
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%{{.*}}, %{{.*}}, %[[G]]]
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg2, %{{.*}}, box[%{{.*}}, %{{.*}}] :
// HOST-LABEL: func.func @contiguous(
// HOST-COUNT-1: call @fp8_launch_fp8_grouped_matmul_contiguous_4x512x200x256_e4m3_e4m3_bf16_accf32(%{{.*}}) : (memref<512x256xf8E4M3FN>, memref<4x200x256xf8E4M3FN>, memref<2x512xf32>, memref<4x2x2xf32>, memref<512x200xbf16>, memref<512x200xf32>, memref<512xi32>) -> ()
// HOST-LABEL: func.func private @fp8_launch_fp8_grouped_matmul_contiguous_4x512x200x256_e4m3_e4m3_bf16_accf32(
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c128, %c128] : memref<*xui8> -> <tensor = memref<128x128xui8, 3>
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c128, %c128] : memref<*xui8> -> <tensor = memref<1x128x128xui8, 3>
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c128] : memref<*xf32> -> <tensor = memref<1x128xf32, 3>
// Grid: min(4 * 2 tiles, 8) = 8.
// HOST-COUNT-1: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_grouped_matmul_contiguous_4x512x200x256_e4m3_e4m3_bf16_accf32 blocks in (%c8, %c1, %c1) threads in (%c384, %c1, %c1)
// HOST-NOT: gpu.launch_func {{.*}}@fp8_grouped_matmul_contiguous_4x512x200x256

// The model chooses among BLOCK_M dividing m_alignment 128 only.
// AUTO-LABEL: llvm.func @fp8_grouped_matmul_contiguous_4x512x200x256_e4m3_e4m3_bf16_accf32_t64x16s8(
func.func @contiguous(%a: !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<4x200x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<512xi32>, %c: tensor<512x200xf32>) -> tensor<512x200xbf16> {
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<512xi32>) acc(%c : tensor<512x200xf32>) : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x200x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<512x200xbf16>
  return %d : tensor<512x200xbf16>
}

// -----

// Contiguous with a dynamic M (the routed token count) and m_alignment 64:
// the fixed default's BLOCK_M 128 does not divide 64, so BLOCK_M is 64
// (named in the suffix); the grid follows M at run time.
// NVVM-LABEL: llvm.func @fp8_grouped_matmul_contiguous_8xdynx256x512_e4m3_e4m3_bf16_t64x128s8(
// HOST-LABEL: func.func private @fp8_launch_fp8_grouped_matmul_contiguous_8xdynx256x512_e4m3_e4m3_bf16_t64x128s8(
// HOST: %[[M:.*]] = memref.dim %arg0, %c0 : memref<?x512xf8E4M3FN>
// HOST: %[[T:.*]] = arith.ceildivui %[[M]], %c64 : index
// HOST: %[[TILES:.*]] = arith.muli %[[T]], %c2 : index
// HOST: %[[GRID:.*]] = arith.minui %[[TILES]], %c8 : index
// HOST: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_grouped_matmul_contiguous_8xdynx256x512_e4m3_e4m3_bf16_t64x128s8 blocks in (%[[GRID]], %c1, %c1) threads in (%c256, %c1, %c1)
func.func @contiguous_dyn(%a: !fp8.scaled<?x512xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<8x256x512xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<?xi32>) -> tensor<?x256xbf16> {
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<?xi32>) {m_alignment = 64 : i64} : !fp8.scaled<?x512xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<8x256x512xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<?x256xbf16>
  return %d : tensor<?x256xbf16>
}
