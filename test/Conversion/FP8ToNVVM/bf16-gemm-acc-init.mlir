// The BF16 variant's folded fills (docs/gpu-kernel.md, "The BF16 variant",
// acc_init): a bf16 linalg.matmul / batch_matmul whose f32 init a
// linalg.fill of an arith.constant wrote gets a kernel whose accumulators
// start at the constant (acc_init, no c; named _init<f32 bits>) and takes
// no C parameter; fp8-launch-kernels calls its launcher (a, b, d) and
// erases the fill and its tensor.empty once nothing reads them. -0.0 and
// +0.0 get two kernels (0.0 + -0.0 = +0.0). A fill another op also reads
// stays, and the matmul's kernel still starts at its constant; a fill CSE
// shared between two matmuls goes with the second. An init that is not a
// constant fill (an argument, a fill of a function argument's scalar) keeps
// C (_accf32).
// config=fixed: the shapes' default tiles.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed | FileCheck %s
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed --fp8-launch-kernels | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: func.func @negzero(
// CHECK: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_64x72x64_bf16_bf16_f32_init80000000}
// CHECK-LABEL: func.func @poszero(
// CHECK: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_64x72x64_bf16_bf16_f32_init0}
// CHECK-LABEL: func.func @batch(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_2x64x72x64_bf16_bf16_f32_init3fc00000}
// CHECK-LABEL: func.func @scalar_arg(
// CHECK: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_64x72x64_bf16_bf16_f32_accf32}

// The variant: no C parameter (tmapA, tmapB, tmapSA, sb, d, m), the
// accumulators the constant (no C load), each its own register through an
// operand fence before the K loop, fed to the first wgmma of the chain.
// CHECK-LABEL: llvm.func @fp8_matmul_64x72x64_bf16_bf16_f32_init80000000(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32)
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 64, n = 72, k = 64, a = bf16, b = bf16, d = f32, acc_init = -0.000000e+00 : f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 128, block_k = 64, stages = 8, consumers = 1>
// CHECK-NOT: llvm.load {{.*}}volatile
// CHECK: %[[NEG:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NOT: llvm.load {{.*}}volatile
// CHECK: %[[FENCE:.*]] = llvm.inline_asm has_side_effects {{.*}} "", "=f,{{.*}}" %[[NEG]], %[[NEG]],
// CHECK: %[[R0:.*]] = llvm.extractvalue %[[FENCE]][0]
// CHECK: %[[R1:.*]] = llvm.extractvalue %[[FENCE]][1]
// CHECK-NOT: llvm.load {{.*}}volatile
// CHECK: scf.for {{.*}} iter_args({{.*}} = %{{.*}}, %{{.*}} = %[[R0]], %{{.*}} = %[[R1]],
// CHECK: nvvm.wgmma.mma_async
// CHECK-LABEL: llvm.func @fp8_matmul_64x72x64_bf16_bf16_f32_init0(
// CHECK-SAME: acc_init = 0.000000e+00 : f32
// CHECK-LABEL: llvm.func @fp8_batch_matmul_2x64x72x64_bf16_bf16_f32_init3fc00000(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32)
// CHECK-SAME: acc_init = 1.500000e+00 : f32
// CHECK: arith.constant 1.500000e+00 : f32
// CHECK-LABEL: llvm.func @fp8_matmul_64x72x64_bf16_bf16_f32_accf32(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32, %{{.*}}: !llvm.ptr)

// HOST-LABEL: func.func @negzero(
// HOST-NOT: linalg.fill
// HOST-NOT: tensor.empty() : tensor<64x72xf32>
// HOST: call @fp8_launch_fp8_matmul_64x72x64_bf16_bf16_f32_init80000000(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<64x64xbf16>, memref<64x72xbf16>, memref<64x72xf32>) -> ()
// HOST-NOT: linalg.fill
// HOST: return
// Both matmuls start at the shared fill's +0.0; the fill goes.
// HOST-LABEL: func.func @poszero(
// HOST-NOT: linalg.fill
// HOST: call @fp8_launch_fp8_matmul_64x72x64_bf16_bf16_f32_init0(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<64x64xbf16>, memref<64x72xbf16>, memref<64x72xf32>) -> ()
// HOST-NOT: linalg.fill
// HOST: call @fp8_launch_fp8_matmul_64x72x64_bf16_bf16_f32_init0(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<64x64xbf16>, memref<64x72xbf16>, memref<64x72xf32>) -> ()
// HOST-NOT: linalg.fill
// HOST: return
// HOST-LABEL: func.func @batch(
// HOST-NOT: linalg.fill
// HOST: call @fp8_launch_fp8_batch_matmul_2x64x72x64_bf16_bf16_f32_init3fc00000(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<2x64x64xbf16>, memref<2x64x72xbf16>, memref<2x64x72xf32>) -> ()
// HOST-NOT: linalg.fill
// HOST: return
// The add reads the fill: it stays; the kernel still starts at 1.5.
// HOST-LABEL: func.func @shared(
// HOST: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32)
// HOST: call @fp8_launch_fp8_matmul_64x72x64_bf16_bf16_f32_init3fc00000(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<64x64xbf16>, memref<64x72xbf16>, memref<64x72xf32>) -> ()
// HOST: linalg.add ins(%{{.*}}, %[[FILL]] :
// HOST-LABEL: func.func @scalar_arg(
// HOST: linalg.fill
// HOST: call @fp8_launch_fp8_matmul_64x72x64_bf16_bf16_f32_accf32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<64x64xbf16>, memref<64x72xbf16>, memref<64x72xf32>, memref<64x72xf32>) -> ()
// The launchers: the variant's kernel gets six arguments (no C).
// HOST-LABEL: func.func private @fp8_launch_fp8_matmul_64x72x64_bf16_bf16_f32_init80000000(
// HOST: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_matmul_64x72x64_bf16_bf16_f32_init80000000 {{.*}} args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : memref<64x64xbf16>, %{{.*}} : memref<64x72xf32>, %{{.*}} : i32)
// HOST-LABEL: func.func private @fp8_launch_fp8_batch_matmul_2x64x72x64_bf16_bf16_f32_init3fc00000(
// HOST: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_batch_matmul_2x64x72x64_bf16_bf16_f32_init3fc00000 {{.*}} args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : memref<2x64x64xbf16>, %{{.*}} : memref<2x64x72xf32>, %{{.*}} : i32)

func.func @negzero(%a: tensor<64x64xbf16>, %b: tensor<64x72xbf16>) -> tensor<64x72xf32> {
  %neg = arith.constant -0.0 : f32
  %e = tensor.empty() : tensor<64x72xf32>
  %z = linalg.fill ins(%neg : f32) outs(%e : tensor<64x72xf32>) -> tensor<64x72xf32>
  %y = linalg.matmul ins(%a, %b : tensor<64x64xbf16>, tensor<64x72xbf16>) outs(%z : tensor<64x72xf32>) -> tensor<64x72xf32>
  return %y : tensor<64x72xf32>
}

func.func @poszero(%a: tensor<64x64xbf16>, %b: tensor<64x72xbf16>, %a2: tensor<64x64xbf16>) -> (tensor<64x72xf32>, tensor<64x72xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x72xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x72xf32>) -> tensor<64x72xf32>
  %y = linalg.matmul ins(%a, %b : tensor<64x64xbf16>, tensor<64x72xbf16>) outs(%z : tensor<64x72xf32>) -> tensor<64x72xf32>
  %y2 = linalg.matmul ins(%a2, %b : tensor<64x64xbf16>, tensor<64x72xbf16>) outs(%z : tensor<64x72xf32>) -> tensor<64x72xf32>
  return %y, %y2 : tensor<64x72xf32>, tensor<64x72xf32>
}

func.func @batch(%a: tensor<2x64x64xbf16>, %b: tensor<2x64x72xbf16>) -> tensor<2x64x72xf32> {
  %c = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<2x64x72xf32>
  %z = linalg.fill ins(%c : f32) outs(%e : tensor<2x64x72xf32>) -> tensor<2x64x72xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x64x64xbf16>, tensor<2x64x72xbf16>) outs(%z : tensor<2x64x72xf32>) -> tensor<2x64x72xf32>
  return %y : tensor<2x64x72xf32>
}

func.func @shared(%a: tensor<64x64xbf16>, %b: tensor<64x72xbf16>) -> tensor<64x72xf32> {
  %c = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<64x72xf32>
  %z = linalg.fill ins(%c : f32) outs(%e : tensor<64x72xf32>) -> tensor<64x72xf32>
  %y = linalg.matmul ins(%a, %b : tensor<64x64xbf16>, tensor<64x72xbf16>) outs(%z : tensor<64x72xf32>) -> tensor<64x72xf32>
  %e2 = tensor.empty() : tensor<64x72xf32>
  %s = linalg.add ins(%y, %z : tensor<64x72xf32>, tensor<64x72xf32>) outs(%e2 : tensor<64x72xf32>) -> tensor<64x72xf32>
  return %s : tensor<64x72xf32>
}

func.func @scalar_arg(%a: tensor<64x64xbf16>, %b: tensor<64x72xbf16>, %v: f32) -> tensor<64x72xf32> {
  %e = tensor.empty() : tensor<64x72xf32>
  %z = linalg.fill ins(%v : f32) outs(%e : tensor<64x72xf32>) -> tensor<64x72xf32>
  %y = linalg.matmul ins(%a, %b : tensor<64x64xbf16>, tensor<64x72xbf16>) outs(%z : tensor<64x72xf32>) -> tensor<64x72xf32>
  return %y : tensor<64x72xf32>
}
