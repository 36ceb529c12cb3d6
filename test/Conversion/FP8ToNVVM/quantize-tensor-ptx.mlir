// The per-tensor quantize kernel (one block over the whole tensor, one
// scale: the per-tensor preset): #fp8.quantize_kernel<..., block_rows =
// rows, block_cols = cols, per_tensor = true>, symbol ..._tensor_...; the
// kernel ABI's two extra parameters (the amax pointer, the pass), pass 0
// the CTA's amax (5 shfl.sync.bfly steps, the 8 warps through shared
// memory) combined by one atomic unsigned max on its bits, pass 1 the scale
// (stored by block 0 only) and the codes; the launcher's device amax set
// to +0.0 and its two launches. Grids by hand: 200 rows x ceil(400 / 128) =
// 4 tiles = 800 1x128 tiles, 8 per CTA: 100 CTAs; 300 x ceil(301 / 128) =
// 900 tiles: ceil(900 / 8) = 113. Through ptxas for sm_90a: the
// atom.global.max.u32, no spills.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed -verify-diagnostics | FileCheck %s --check-prefix=NVVM
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed -fp8-launch-kernels -canonicalize -cse | FileCheck %s --check-prefix=LAUNCH
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a" 2>/dev/null | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// NVVM-LABEL: llvm.func @fp8_quantize_200x400_tensor_f32_e4m3(
// NVVM-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32, %{{.*}}: !llvm.ptr, %[[PASS:.*]]: i32)
// NVVM-SAME: fp8.kernel = #fp8.quantize_kernel<rows = 200, cols = 400, block_rows = 200, block_cols = 400, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 9.99999974E-5 : f32, per_tensor = true>
// x, q, scales, then amax.
// NVVM-COUNT-3: llvm.addrspacecast
// NVVM: %[[AMAX:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<1>
// NVVM: %[[IS0:.*]] = arith.cmpi eq, %[[PASS]], %c0_i32
// NVVM: scf.if %[[IS0]] {
// Pass 0: the tile's loads (each masked), no range guard before the barrier.
// NVVM-NOT: arith.cmpi ult, %{{.*}}, %c800_i32
// NVVM: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// NVVM-COUNT-5: nvvm.shfl.sync  bfly
// NVVM: llvm.store {{.*}} : f32, !llvm.ptr<3>
// NVVM: nvvm.barrier0
// NVVM-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// NVVM: %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// NVVM: llvm.atomicrmw umax %[[AMAX]], %[[BITS]] monotonic {alignment = 4 : i64} : !llvm.ptr<1>, i32
// NVVM-NOT: llvm.store
// NVVM: } else {
// Pass 1: the tile's loads, the amax, the scale (block 0's first lane
// stores it), the codes.
// NVVM: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// NVVM: llvm.load %[[AMAX]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// NVVM: arith.divf
// NVVM: %[[BLK0:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32
// NVVM: arith.andi %{{.*}}, %[[BLK0]]
// NVVM: llvm.store {{.*}} : f32, !llvm.ptr<1>
// NVVM-COUNT-2: nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E4M3FN)
// NVVM: llvm.store {{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// NVVM-NOT: llvm.atomicrmw
// NVVM: llvm.return

// bf16 with 301 columns (byte-wise accesses), E5M2, pow2 scales.
// NVVM-LABEL: llvm.func @fp8_quantize_300x301_tensor_bf16_e5m2_pow2(
// NVVM-SAME: block_rows = 300, block_cols = 301, input = bf16, fp8 = f8E5M2, scale = f32, scale_mode = pow2
// NVVM: llvm.atomicrmw umax
// NVVM: nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E5M2)
// NVVM: llvm.store {{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<1>

// LAUNCH-LABEL: func.func @act(
// LAUNCH: call @fp8_launch_fp8_quantize_200x400_tensor_f32_e4m3(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<200x400xf32>, memref<200x400xf8E4M3FN>, memref<1x1xf32>) -> ()
// LAUNCH-LABEL: func.func private @fp8_launch_fp8_quantize_200x400_tensor_f32_e4m3(
// LAUNCH: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// The one scale (4 bytes), then the amax (4 bytes), set to +0.0.
// LAUNCH: gpu.alloc async [%{{.*}}] (%c4) : memref<?xi8>
// LAUNCH-NEXT: memref.view %{{.*}}[%c0][] : memref<?xi8> to memref<1x1xf32>
// LAUNCH-NEXT: %[[RAW:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%c4) : memref<?xi8>
// LAUNCH-NEXT: %[[AMAX:.*]] = memref.view %[[RAW]][%c0][] : memref<?xi8> to memref<1xf32>
// LAUNCH-NEXT: gpu.memset async [%{{.*}}] %[[AMAX]], %[[ZERO]] : memref<1xf32>, f32
// LAUNCH-NEXT: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_quantize_200x400_tensor_f32_e4m3 blocks in (%c100, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c0_i32 args(%{{.*}} : memref<200x400xf32>, %{{.*}} : memref<200x400xf8E4M3FN>, %{{.*}} : memref<1x1xf32>, %c200_i32 : i32, %[[AMAX]] : memref<1xf32>, %c0_i32 : i32)
// LAUNCH-NEXT: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_quantize_200x400_tensor_f32_e4m3 blocks in (%c100, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c0_i32 args(%{{.*}} : memref<200x400xf32>, %{{.*}} : memref<200x400xf8E4M3FN>, %{{.*}} : memref<1x1xf32>, %c200_i32 : i32, %[[AMAX]] : memref<1xf32>, %c1_i32 : i32)
// LAUNCH-NOT: gpu.launch_func
// LAUNCH: gpu.dealloc async [%{{.*}}] %[[RAW]]
// LAUNCH-LABEL: func.func private @fp8_launch_fp8_quantize_300x301_tensor_bf16_e5m2_pow2(
// LAUNCH: gpu.memset
// LAUNCH: gpu.launch_func {{.*}} blocks in (%c113, %c1, %c1)
// LAUNCH-SAME: %c0_i32 : i32)
// LAUNCH-NEXT: gpu.launch_func {{.*}} blocks in (%c113, %c1, %c1)
// LAUNCH-SAME: %c1_i32 : i32)

// (LLVM places the passes in either order.)
// PTX-LABEL: .entry fp8_quantize_200x400_tensor_f32_e4m3(
// PTX-DAG: bar.sync 0;
// PTX-DAG: atom.global.max.u32
// PTX-DAG: cvt.rn.satfinite.e4m3x2.f32
// PTX-LABEL: .entry fp8_quantize_300x301_tensor_bf16_e5m2_pow2(
// PTX-DAG: atom.global.max.u32
// PTX-DAG: cvt.rn.satfinite.e5m2x2.f32

// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
// PTXAS-NOT: warning

func.func @act(%x: tensor<200x400xf32>) -> !fp8.scaled<200x400xf8E4M3FN, block = [200, 400], scale = f32> {
  %q = fp8.quantize %x : tensor<200x400xf32> -> !fp8.scaled<200x400xf8E4M3FN, block = [200, 400], scale = f32>
  return %q : !fp8.scaled<200x400xf8E4M3FN, block = [200, 400], scale = f32>
}

func.func @weight(%w: tensor<300x301xbf16>) -> !fp8.scaled<300x301xf8E5M2, block = [300, 301], scale = f32> {
  %q = fp8.quantize %w {scale_mode = #fp8.scale_mode<pow2>} : tensor<300x301xbf16> -> !fp8.scaled<300x301xf8E5M2, block = [300, 301], scale = f32>
  return %q : !fp8.scaled<300x301xf8E5M2, block = [300, 301], scale = f32>
}
