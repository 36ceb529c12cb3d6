// The quantize kernels fp8-lower-to-nvvm generates for fp8.quantize, at the
// NVVM level (no CUDA toolkit needed): one per distinct shape and parameters,
// the launch attributes of QuantizeKernelConfig.h (256 threads), the warp
// amax reduction (5 butterfly shuffles of max.NaN: 32 lanes), the shared
// amax slots and barrier only for 128x128 blocks (8 warps share a block),
// and the hardware conversion cvt.rn.satfinite two values at a time: 2 per
// lane of a 1x128 tile (4 columns), 32 per lane of a 128x128 block (16 rows
// x 4 columns). The fp8.quantize ops stay on the host.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed | FileCheck %s

// CHECK: func.func @act
// CHECK: fp8.quantize
// CHECK: gpu.module @fp8_kernels
// CHECK: llvm.mlir.global internal @fp8_quantize_amax() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8 x f32>

// CHECK-LABEL: llvm.func @fp8_quantize_256x7168_1x128_bf16_e4m3(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32)
// CHECK-SAME: nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK: llvm.load {{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<4xbf16>
// CHECK-COUNT-4: arith.maximumf
// CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %c16_i32
// CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %c8_i32
// CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %c4_i32
// CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %c2_i32
// CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %c1_i32
// CHECK-NOT: nvvm.barrier0
// CHECK: arith.divf
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<1>
// CHECK-COUNT-2: nvvm.convert.f32x2.to.f8x2 {{.*}} {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
// CHECK: llvm.store {{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: llvm.return

// CHECK-LABEL: llvm.func @fp8_quantize_2112x7168_128x128_f32_e4m3(
// CHECK-COUNT-16: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-5: nvvm.shfl.sync  bfly
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK-COUNT-32: nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E4M3FN)

// Columns not a multiple of 4 (byte-wise masked loads and stores), E5M2,
// pow2 scales and a non-default eps (its f32 bits name the kernel: 1e-6 =
// 0x358637bd).
// CHECK-LABEL: llvm.func @fp8_quantize_100x270_128x128_f32_e5m2_pow2_eps358637bd(
// CHECK-NOT: vector<4xf32>
// CHECK: llvm.load {{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E5M2)
// CHECK: llvm.store {{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<1>

// The same shape and parameters twice: one kernel.
// CHECK-NOT: llvm.func @fp8_quantize_256x7168_1x128_bf16_e4m3(

func.func @act(%x: tensor<256x7168xbf16>) -> !fp8.scaled<256x7168xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<256x7168xbf16> -> !fp8.scaled<256x7168xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<256x7168xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @weight(%x: tensor<2112x7168xf32>) -> !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<2112x7168xf32> -> !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>
  return %q : !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>
}

func.func @tail(%x: tensor<100x270xf32>) -> !fp8.scaled<100x270xf8E5M2, block = [128, 128], scale = f32> {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>, eps = 1.0e-6 : f32} : tensor<100x270xf32> -> !fp8.scaled<100x270xf8E5M2, block = [128, 128], scale = f32>
  return %q : !fp8.scaled<100x270xf8E5M2, block = [128, 128], scale = f32>
}

func.func @act_again(%x: tensor<256x7168xbf16>) -> !fp8.scaled<256x7168xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<256x7168xbf16> -> !fp8.scaled<256x7168xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<256x7168xf8E4M3FN, block = [1, 128], scale = f32>
}
