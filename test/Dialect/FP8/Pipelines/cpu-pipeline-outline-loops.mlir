// What keeps LLVM's code generation of a model step linear in its depth
// (docs/compile-time.md, "The first call's code generation"), checked on the
// structure, not timed: fp8-cpu-pipeline outlines each top-level loop nest
// of a large function into a private noinline function, one per distinct
// nest, so that the number of outlined functions is that of the distinct
// nests of one layer whatever the number of layers, and the step itself,
// left without loops, is compiled unoptimised (optnone). Two steps of the
// same layer (an add and a multiply), 8 and 16 layers deep: each gets two
// outlined functions, called once per layer and op.
// RUN: fp8-opt %s --fp8-cpu-pipeline | FileCheck %s

// CHECK-LABEL: llvm.func @eight_layers(
// CHECK-SAME: attributes {passthrough = ["noinline", "optnone"]}
// CHECK-COUNT-16: llvm.call @eight_layers_loop{{[01]}}(
// CHECK-NOT: llvm.call @eight_layers_loop
// CHECK: llvm.return
// CHECK-LABEL: llvm.func internal @eight_layers_loop0(
// CHECK-SAME: attributes {passthrough = ["noinline"]
// CHECK: llvm.fadd
// CHECK-LABEL: llvm.func internal @eight_layers_loop1(
// CHECK-SAME: attributes {passthrough = ["noinline"]
// CHECK: llvm.fmul
// CHECK-NOT: @eight_layers_loop2
// CHECK-LABEL: llvm.func @sixteen_layers(
// CHECK-SAME: attributes {passthrough = ["noinline", "optnone"]}
// CHECK-COUNT-32: llvm.call @sixteen_layers_loop{{[01]}}(
// CHECK-NOT: llvm.call @sixteen_layers_loop
// CHECK: llvm.return
// CHECK-LABEL: llvm.func internal @sixteen_layers_loop0(
// CHECK: llvm.fadd
// CHECK-LABEL: llvm.func internal @sixteen_layers_loop1(
// CHECK: llvm.fmul
// CHECK-NOT: @sixteen_layers_loop2

func.func @eight_layers(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %a0 = linalg.add ins(%x, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f0 = tensor.empty() : tensor<4x8xf32>
  %m0 = linalg.mul ins(%a0, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %a1 = linalg.add ins(%m0, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f1 = tensor.empty() : tensor<4x8xf32>
  %m1 = linalg.mul ins(%a1, %m0 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %a2 = linalg.add ins(%m1, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f2 = tensor.empty() : tensor<4x8xf32>
  %m2 = linalg.mul ins(%a2, %m1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e3 = tensor.empty() : tensor<4x8xf32>
  %a3 = linalg.add ins(%m2, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f3 = tensor.empty() : tensor<4x8xf32>
  %m3 = linalg.mul ins(%a3, %m2 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e4 = tensor.empty() : tensor<4x8xf32>
  %a4 = linalg.add ins(%m3, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e4 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f4 = tensor.empty() : tensor<4x8xf32>
  %m4 = linalg.mul ins(%a4, %m3 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f4 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e5 = tensor.empty() : tensor<4x8xf32>
  %a5 = linalg.add ins(%m4, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e5 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f5 = tensor.empty() : tensor<4x8xf32>
  %m5 = linalg.mul ins(%a5, %m4 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f5 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e6 = tensor.empty() : tensor<4x8xf32>
  %a6 = linalg.add ins(%m5, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e6 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f6 = tensor.empty() : tensor<4x8xf32>
  %m6 = linalg.mul ins(%a6, %m5 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f6 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e7 = tensor.empty() : tensor<4x8xf32>
  %a7 = linalg.add ins(%m6, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e7 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f7 = tensor.empty() : tensor<4x8xf32>
  %m7 = linalg.mul ins(%a7, %m6 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f7 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m7 : tensor<4x8xf32>
}

func.func @sixteen_layers(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %a0 = linalg.add ins(%x, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f0 = tensor.empty() : tensor<4x8xf32>
  %m0 = linalg.mul ins(%a0, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %a1 = linalg.add ins(%m0, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f1 = tensor.empty() : tensor<4x8xf32>
  %m1 = linalg.mul ins(%a1, %m0 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %a2 = linalg.add ins(%m1, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f2 = tensor.empty() : tensor<4x8xf32>
  %m2 = linalg.mul ins(%a2, %m1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e3 = tensor.empty() : tensor<4x8xf32>
  %a3 = linalg.add ins(%m2, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f3 = tensor.empty() : tensor<4x8xf32>
  %m3 = linalg.mul ins(%a3, %m2 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e4 = tensor.empty() : tensor<4x8xf32>
  %a4 = linalg.add ins(%m3, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e4 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f4 = tensor.empty() : tensor<4x8xf32>
  %m4 = linalg.mul ins(%a4, %m3 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f4 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e5 = tensor.empty() : tensor<4x8xf32>
  %a5 = linalg.add ins(%m4, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e5 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f5 = tensor.empty() : tensor<4x8xf32>
  %m5 = linalg.mul ins(%a5, %m4 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f5 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e6 = tensor.empty() : tensor<4x8xf32>
  %a6 = linalg.add ins(%m5, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e6 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f6 = tensor.empty() : tensor<4x8xf32>
  %m6 = linalg.mul ins(%a6, %m5 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f6 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e7 = tensor.empty() : tensor<4x8xf32>
  %a7 = linalg.add ins(%m6, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e7 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f7 = tensor.empty() : tensor<4x8xf32>
  %m7 = linalg.mul ins(%a7, %m6 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f7 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e8 = tensor.empty() : tensor<4x8xf32>
  %a8 = linalg.add ins(%m7, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f8 = tensor.empty() : tensor<4x8xf32>
  %m8 = linalg.mul ins(%a8, %m7 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e9 = tensor.empty() : tensor<4x8xf32>
  %a9 = linalg.add ins(%m8, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e9 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f9 = tensor.empty() : tensor<4x8xf32>
  %m9 = linalg.mul ins(%a9, %m8 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f9 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e10 = tensor.empty() : tensor<4x8xf32>
  %a10 = linalg.add ins(%m9, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e10 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f10 = tensor.empty() : tensor<4x8xf32>
  %m10 = linalg.mul ins(%a10, %m9 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f10 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e11 = tensor.empty() : tensor<4x8xf32>
  %a11 = linalg.add ins(%m10, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e11 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f11 = tensor.empty() : tensor<4x8xf32>
  %m11 = linalg.mul ins(%a11, %m10 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f11 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e12 = tensor.empty() : tensor<4x8xf32>
  %a12 = linalg.add ins(%m11, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e12 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f12 = tensor.empty() : tensor<4x8xf32>
  %m12 = linalg.mul ins(%a12, %m11 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f12 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e13 = tensor.empty() : tensor<4x8xf32>
  %a13 = linalg.add ins(%m12, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e13 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f13 = tensor.empty() : tensor<4x8xf32>
  %m13 = linalg.mul ins(%a13, %m12 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f13 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e14 = tensor.empty() : tensor<4x8xf32>
  %a14 = linalg.add ins(%m13, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e14 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f14 = tensor.empty() : tensor<4x8xf32>
  %m14 = linalg.mul ins(%a14, %m13 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f14 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e15 = tensor.empty() : tensor<4x8xf32>
  %a15 = linalg.add ins(%m14, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e15 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f15 = tensor.empty() : tensor<4x8xf32>
  %m15 = linalg.mul ins(%a15, %m14 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f15 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m15 : tensor<4x8xf32>
}
