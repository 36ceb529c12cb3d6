// RUN: fp8-opt %s --fp8-lower-to-linalg --split-input-file | FileCheck %s
// RUN: fp8-opt %s --fp8-lower-to-linalg=accumulator=sm90 --split-input-file | FileCheck %s --check-prefix=SM90

// The K tail of the matmuls the BF16 kernel runs (fp8::runsOnBF16TensorCores,
// K mod 16 != 0): both operands padded with +0.0 to the next multiple of 16,
// the products +0.0 * +0.0 that the kernel's last k16 step takes from TMA's
// zero fill (docs/numerics.md). Under sm90 the k16 chain then runs over the
// padded K.

// CHECK-LABEL: func.func @k40
// CHECK-DAG: %[[Z:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK: %[[A:.*]] = tensor.pad %{{.*}} low[0, 0] high[0, 8]
// CHECK: tensor.yield %[[Z]] : bf16
// CHECK: } : tensor<64x40xbf16> to tensor<64x48xbf16>
// CHECK: %[[B:.*]] = tensor.pad %{{.*}} low[0, 0] high[8, 0]
// CHECK: } : tensor<40x72xbf16> to tensor<48x72xbf16>
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<64x48xbf16>, tensor<48x72xbf16>)
// SM90-LABEL: func.func @k40
// SM90: tensor.pad
// SM90: tensor.pad
// SM90-NOT: linalg.matmul
// SM90: linalg.generic
func.func @k40(%a: tensor<64x40xbf16>, %b: tensor<40x72xbf16>, %c: tensor<64x72xf32>) -> tensor<64x72xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<64x40xbf16>, tensor<40x72xbf16>) outs(%c : tensor<64x72xf32>) -> tensor<64x72xf32>
  return %y : tensor<64x72xf32>
}

// -----

// A run-time M and a batch_matmul: K is static on these (the kernel's
// condition), their other sizes are kept.
// CHECK-LABEL: func.func @dynm
// CHECK: tensor.pad %{{.*}} low[0, 0] high[0, 8]
// CHECK: } : tensor<?x24xbf16> to tensor<?x32xbf16>
// CHECK: } : tensor<24x64xbf16> to tensor<32x64xbf16>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x32xbf16>, tensor<32x64xbf16>)
func.func @dynm(%a: tensor<?x24xbf16>, %b: tensor<24x64xbf16>, %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<?x24xbf16>, tensor<24x64xbf16>) outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// CHECK-LABEL: func.func @batch
// CHECK: tensor.pad %{{.*}} low[0, 0, 0] high[0, 0, 8]
// CHECK: } : tensor<2x64x8xbf16> to tensor<2x64x16xbf16>
// CHECK: tensor.pad %{{.*}} low[0, 0, 0] high[0, 8, 0]
// CHECK: } : tensor<2x8x72xbf16> to tensor<2x16x72xbf16>
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x64x16xbf16>, tensor<2x16x72xbf16>)
func.func @batch(%a: tensor<2x64x8xbf16>, %b: tensor<2x8x72xbf16>, %c: tensor<2x64x72xf32>) -> tensor<2x64x72xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x64x8xbf16>, tensor<2x8x72xbf16>) outs(%c : tensor<2x64x72xf32>) -> tensor<2x64x72xf32>
  return %y : tensor<2x64x72xf32>
}

// -----

// Left alone: K a multiple of 16; f16 operands and N not a multiple of 8
// (host kernels on the GPU, summing the K products only).
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: tensor.pad
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x32xbf16>, tensor<32x72xbf16>)
// CHECK-NOT: tensor.pad
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x40xf16>, tensor<40x72xf16>)
// CHECK-NOT: tensor.pad
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x40xbf16>, tensor<40x12xbf16>)
// CHECK-NOT: tensor.pad
func.func @untouched(%a: tensor<64x32xbf16>, %b: tensor<32x72xbf16>, %c: tensor<64x72xf32>,
                     %h: tensor<64x40xf16>, %g: tensor<40x72xf16>,
                     %a2: tensor<64x40xbf16>, %b2: tensor<40x12xbf16>, %c2: tensor<64x12xf32>)
    -> (tensor<64x72xf32>, tensor<64x72xf32>, tensor<64x12xf32>) {
  %y = linalg.matmul ins(%a, %b : tensor<64x32xbf16>, tensor<32x72xbf16>) outs(%c : tensor<64x72xf32>) -> tensor<64x72xf32>
  %z = linalg.matmul ins(%h, %g : tensor<64x40xf16>, tensor<40x72xf16>) outs(%c : tensor<64x72xf32>) -> tensor<64x72xf32>
  %w = linalg.matmul ins(%a2, %b2 : tensor<64x40xbf16>, tensor<40x12xbf16>) outs(%c2 : tensor<64x12xf32>) -> tensor<64x12xf32>
  return %y, %z, %w : tensor<64x72xf32>, tensor<64x72xf32>, tensor<64x12xf32>
}
