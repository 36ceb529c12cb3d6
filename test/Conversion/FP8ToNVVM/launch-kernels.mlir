// fp8-launch-kernels: the host functions launch the kernels of
// fp8-lower-to-nvvm (gpu.launch_func, TMA descriptors built on the host,
// the grid from the kernel configuration). Launch constants are derived by
// hand from GemmKernelConfig.h / QuantizeKernelConfig.h, not printed by the
// code under test.
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm=config=fixed -fp8-launch-kernels -canonicalize -cse | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm='config=fixed block-n=96' -fp8-launch-kernels=sm-count=8 -canonicalize -cse | FileCheck %s --check-prefix=CFG
// (With block-n=96 the launcher takes BLOCK_N = 96 from the kernel's
// fp8.kernel, not from options of its own: launch-kernels-config.mlir.)
// Kernels that read their B scales from global memory (docs/gpu-kernel.md,
// "The K-block path"): their shared memory has no staging buffers.
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm='config=fixed block-n=216' -fp8-launch-kernels=sm-count=8 -canonicalize -cse | FileCheck %s --check-prefix=N216
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm='config=fixed promotion-schedule=overlap8' -fp8-launch-kernels=sm-count=8 -canonicalize -cse | FileCheck %s --check-prefix=O8
// RUN: not fp8-opt %s -fp8-launch-kernels=launchers=some 2>&1 | FileCheck %s --check-prefix=MODE
// Declared only (for bufferization and deallocation), then defined.
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm=config=fixed -fp8-launch-kernels=launchers=declare | FileCheck %s --check-prefix=DECL
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm=config=fixed -fp8-launch-kernels=launchers=declare -fp8-launch-kernels=launchers=define-only -canonicalize -cse | FileCheck %s

// MODE: fp8-launch-kernels: option launchers='some' is invalid (expected all, declare or define-only)

// A whole FP8 linear: the two quantize kernels, then the GEMM on their
// results; no fp8 compute op stays on the host. (After canonicalization the
// codes go from the quantize launchers' output buffers straight to the GEMM:
// fp8.assemble / fp8.disassemble and to_tensor / to_buffer pairs fold.)
// CHECK-LABEL: func.func @linear(
// CHECK: %[[QA:.*]] = memref.alloc() : memref<200x384xf8E4M3FN>
// CHECK: %[[SA:.*]] = memref.alloc() : memref<200x3xf32>
// CHECK: %[[X:.*]] = bufferization.to_buffer %arg0 read_only : tensor<200x384xbf16> to memref<200x384xbf16>
// CHECK: call @fp8_launch_fp8_quantize_200x384_1x128_bf16_e4m3(%[[X]], %[[QA]], %[[SA]]) : (memref<200x384xbf16>, memref<200x384xf8E4M3FN>, memref<200x3xf32>) -> ()
// CHECK: %[[QB:.*]] = memref.alloc() : memref<256x384xf8E4M3FN>
// CHECK: %[[SB:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK: call @fp8_launch_fp8_quantize_256x384_128x128_f32_e4m3(%{{.*}}, %[[QB]], %[[SB]])
// The A scales [200, 3] become the kernel's [3, 200] on the device (200 is
// a multiple of 4: no padding rows): the transpose kernel reads the
// quantize launcher's buffer (transpose-kernel.mlir).
// CHECK: %[[T:.*]] = memref.alloc() : memref<3x200xf32>
// CHECK: call @fp8_launch_fp8_transpose_b32_200x3_to_3x200(%[[SA]], %[[T]]) : (memref<200x3xf32>, memref<3x200xf32>) -> ()
// CHECK: %[[D:.*]] = memref.alloc() : memref<200x256xbf16>
// CHECK: call @fp8_launch_fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16(%[[QA]], %[[QB]], %[[T]], %[[SB]], %[[D]]) : (memref<200x384xf8E4M3FN>, memref<256x384xf8E4M3FN>, memref<3x200xf32>, memref<2x3xf32>, memref<200x256xbf16>) -> ()
// CHECK: %[[R:.*]] = bufferization.to_tensor %[[D]] restrict writable
// CHECK: return %[[R]]
// CHECK-NOT: = fp8.quantize
// CHECK-NOT: = fp8.scaled_matmul

// Quantize 200 x 384 in 1x128 tiles: 600 tiles, 8 per CTA (one per warp):
// 75 CTAs of 256 threads, no dynamic shared memory.
// CHECK-LABEL: func.func private @fp8_launch_fp8_quantize_200x384_1x128_bf16_e4m3(
// CHECK: gpu.wait async
// CHECK: gpu.alloc async
// CHECK: gpu.memcpy async
// CHECK: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_quantize_200x384_1x128_bf16_e4m3 blocks in (%c75, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c0_i32 args(%{{.*}} : memref<200x384xbf16>, %{{.*}} : memref<200x384xf8E4M3FN>, %{{.*}} : memref<200x3xf32>, %c200_i32 : i32)
// CHECK: gpu.memcpy async [%{{.*}}] %arg1
// CHECK: gpu.memcpy async [%{{.*}}] %arg2
// CHECK: gpu.wait [%{{.*}}]

// Quantize 256 x 384 in 128x128 blocks: 6 blocks, one per CTA.
// CHECK-LABEL: func.func private @fp8_launch_fp8_quantize_256x384_128x128_f32_e4m3(
// CHECK: gpu.launch_func {{.*}} blocks in (%c6, %c1, %c1) threads in (%c256, %c1, %c1)

// The GEMM: operands to the device, three TMA maps (A and B codes as u8,
// box [128 rows, 128 bytes], 128-byte swizzle; A scales f32 box [1, 128]),
// grid min(ceil(200/128) * ceil(256/128), SMs) = min(4, SMs) CTAs of 384
// threads (SMs: the device's, fp8_mgpu_sm_count() at run time; sm-count
// and the invalid option: launch-kernels-checks.mlir),
// 6 stages x (16384 + 16384 + 512) + 1024 = 200704 bytes of shared memory
// and the staged B scales, 2 consumers x roundUp(1 block x 3 K blocks x 4,
// 16) = 32: 200736.
// CHECK-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16(
// CHECK-SAME: %[[A:.*]]: memref<200x384xf8E4M3FN>, %[[B:.*]]: memref<256x384xf8E4M3FN>, %[[SA:.*]]: memref<3x200xf32>, %[[SB:.*]]: memref<2x3xf32>, %[[OUT:.*]]: memref<200x256xbf16>)
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: %[[RA:.*]], %[[TA:.*]] = gpu.alloc async [%[[T0]]] (%c76800) : memref<?xi8>
// CHECK: %[[VA:.*]] = memref.view %[[RA]][%c0][] : memref<?xi8> to memref<200x384xf8E4M3FN>
// CHECK: gpu.memcpy async [%[[TA]]] %[[VA]], %[[A]]
// CHECK: gpu.alloc async [%{{.*}}] (%c98304) : memref<?xi8>
// CHECK: gpu.alloc async [%{{.*}}] (%c2400) : memref<?xi8>
// CHECK: %[[RSB:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%c24) : memref<?xi8>
// CHECK: %[[VSB:.*]] = memref.view %[[RSB]]
// CHECK: %[[RD:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%c102400) : memref<?xi8>
// CHECK: %[[VD:.*]] = memref.view %[[RD]][%c0][] : memref<?xi8> to memref<200x256xbf16>
// CHECK: %[[UA:.*]] = builtin.unrealized_conversion_cast %[[VA]] : memref<200x384xf8E4M3FN> to memref<200x384xui8>
// CHECK: %[[CA:.*]] = memref.cast %[[UA]] : memref<200x384xui8> to memref<*xui8>
// CHECK: %[[MA:.*]] = nvgpu.tma.create.descriptor %[[CA]] box[%c128, %c128] : memref<*xui8> -> <tensor = memref<128x128xui8, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
// CHECK: %[[PA:.*]] = builtin.unrealized_conversion_cast %[[MA]] {{.*}} to !llvm.ptr
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c128, %c128] : memref<*xui8>
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c128] : memref<*xf32> -> <tensor = memref<1x128xf32, 3>, swizzle = none, l2promo = l2promo_256b, oob = zero, interleave = none>
// CHECK: %[[NSM:.*]] = call @fp8_mgpu_sm_count() : () -> i32
// CHECK: %[[NSMI:.*]] = arith.index_castui %[[NSM]] : i32 to index
// CHECK: %[[GRID:.*]] = arith.minui %[[NSMI]], %c4 : index
// CHECK: %[[L:.*]] = gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16 blocks in (%[[GRID]], %c1, %c1) threads in (%c384, %c1, %c1) dynamic_shared_memory_size %c200736_i32 args(%[[PA]] : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %[[VSB]] : memref<2x3xf32>, %[[VD]] : memref<200x256xbf16>, %c200_i32 : i32)
// CHECK: %[[C:.*]] = gpu.memcpy async [%[[L]]] %[[OUT]], %[[VD]]
// CHECK-COUNT-5: gpu.dealloc async
// CHECK: gpu.wait [%{{.*}}]
// CHECK-NEXT: return

// DECL: func.func private @fp8_launch_fp8_quantize_200x384_1x128_bf16_e4m3(memref<200x384xbf16>, memref<200x384xf8E4M3FN>, memref<200x3xf32>)
// DECL: func.func private @fp8_launch_fp8_quantize_256x384_128x128_f32_e4m3(memref<256x384xf32>, memref<256x384xf8E4M3FN>, memref<2x3xf32>)
// DECL: func.func private @fp8_launch_fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16(memref<200x384xf8E4M3FN>, memref<256x384xf8E4M3FN>, memref<3x200xf32>, memref<2x3xf32>, memref<200x256xbf16>)

// CFG-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_t128x96s7(
// CFG: nvgpu.tma.create.descriptor %{{.*}} box[%c96, %c128] : memref<*xui8> -> <tensor = memref<96x128xui8, 3>
// Grid min(2 * 3, 8) = 6; 7 x (16384 + 12288 + 512) + 1024 = 205312 bytes
// and the staged B scales, 2 consumers x roundUp(2 blocks x 3 K blocks x 4,
// 16) = 64: 205376.
// CFG: gpu.launch_func {{.*}}@fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_t128x96s7 blocks in (%c6, %c1, %c1) threads in (%c384, %c1, %c1) dynamic_shared_memory_size %c205376_i32

// BLOCK_N 216 (216 of the 232 consumer registers in use plus 16: no room
// for the short K-block path): 5 x (16384 + 27648 + 512) + 1024 = 223744
// bytes, not 223744 + 2 x roundUp(3 blocks x 3 K blocks x 4, 16) = 223840.
// N216-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_t128x216s5(
// N216: gpu.launch_func {{.*}}@fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_t128x216s5 blocks in (%c4, %c1, %c1) threads in (%c384, %c1, %c1) dynamic_shared_memory_size %c223744_i32
// The overlapped promotion: 6 x (16384 + 16384 + 512) + 1024 = 200704
// bytes, not 200704 + 2 x 16 = 200736.
// O8-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_t128x128s6o8(
// O8: gpu.launch_func {{.*}}@fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_t128x128s6o8 blocks in (%c4, %c1, %c1) threads in (%c384, %c1, %c1) dynamic_shared_memory_size %c200704_i32

func.func @linear(%x: tensor<200x384xbf16>, %w: tensor<256x384xf32>) -> tensor<200x256xbf16> {
  %a = fp8.quantize %x : tensor<200x384xbf16> -> !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w : tensor<256x384xf32> -> !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x256xbf16>
  return %d : tensor<200x256xbf16>
}

// -----

// A dynamic token dimension: the A scales padded to roundUp(M, 4) columns
// at run time, M passed to the kernel, grid from M: with BLOCK_N = 96 and 8
// SMs, min(ceil(M / 128) * ceil(300 / 96), 8) = min(ceil(M / 128) * 4, 8).
// CFG-LABEL: func.func @dyn(
// CFG: %[[M:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x256xf8E4M3FN>
// CFG: %[[MS:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x2xf32>
// CFG: %[[Q:.*]] = arith.ceildivui %[[MS]], %c4 : index
// CFG: %[[MP:.*]] = arith.muli %[[Q]], %c4 : index
// CFG: memref.alloc(%[[MP]]) : memref<2x?xf32>
// CFG: call @fp8_launch_fp8_transpose_b32_dynx2_to_2xdyn(
// CFG: memref.alloc(%[[M]]) : memref<?x300xbf16>
// CFG: call @fp8_launch_fp8_scaled_matmul_dynx300x256_e4m3_e4m3_bf16_t128x96s7(
// CFG-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_dynx300x256_e4m3_e4m3_bf16_t128x96s7(
// CFG: %[[DM:.*]] = memref.dim %arg0, %c0 : memref<?x256xf8E4M3FN>
// CFG: %[[T:.*]] = arith.ceildivui %[[DM]], %c128 : index
// CFG: %[[TILES:.*]] = arith.muli %[[T]], %c4 : index
// CFG: %[[G:.*]] = arith.minui %[[TILES]], %c8 : index
// CFG: %[[M32:.*]] = arith.index_cast %[[DM]] : index to i32
// CFG: gpu.launch_func {{.*}} blocks in (%[[G]], %c1, %c1) {{.*}} %[[M32]] : i32)
func.func @dyn(%a: !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<300x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<300x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x300xbf16>
  return %d : tensor<?x300xbf16>
}
