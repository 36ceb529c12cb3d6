// RUN: fp8-opt %s -split-input-file -fp8-unshare-destinations | FileCheck %s

// One tensor.empty and one zero fill of it, shared by three ops as CSE
// leaves them: every use after the first gets its own copy (a fill with its
// own empty), next to the original; the first use keeps the original.
// CHECK-LABEL: func.func @shared
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK: %[[E3:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[F2:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E3]] : tensor<4xf32>)
// CHECK: %[[X:.*]] = linalg.add ins(%[[A]], %[[B]] : {{.*}}) outs(%[[F]] : tensor<4xf32>)
// CHECK: %[[Y:.*]] = linalg.add ins(%[[A]], %[[A]] : {{.*}}) outs(%[[F2]] : tensor<4xf32>)
// CHECK: %[[W:.*]] = linalg.sub ins(%[[A]], %[[B]] : {{.*}}) outs(%[[E2]] : tensor<4xf32>)
// CHECK: return %[[X]], %[[Y]], %[[W]]
func.func @shared(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %x = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%z : tensor<4xf32>) -> tensor<4xf32>
  %y = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%z : tensor<4xf32>) -> tensor<4xf32>
  %w = linalg.sub ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %x, %y, %w : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A dynamic empty is cloned with its size operand; a fill of a value that
// is not a tensor.empty is left shared (its destination holds data);
// single uses are left alone.
// CHECK-LABEL: func.func @dynamic_and_unshared
// CHECK-SAME: (%[[A:.*]]: tensor<?xf32>, %[[N:.*]]: index)
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: %[[E2:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: linalg.add ins(%[[A]], %[[A]] : {{.*}}) outs(%[[E]] : tensor<?xf32>)
// CHECK: linalg.sub ins(%[[A]], %[[A]] : {{.*}}) outs(%[[E2]] : tensor<?xf32>)
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : tensor<?xf32>)
// CHECK-NOT: linalg.fill
// CHECK: linalg.add ins(%[[A]], %[[A]] : {{.*}}) outs(%[[F]] : tensor<?xf32>)
// CHECK: linalg.sub ins(%[[A]], %[[A]] : {{.*}}) outs(%[[F]] : tensor<?xf32>)
func.func @dynamic_and_unshared(%a: tensor<?xf32>, %n: index) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %x = linalg.add ins(%a, %a : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %y = linalg.sub ins(%a, %a : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%a : tensor<?xf32>) -> tensor<?xf32>
  %u = linalg.add ins(%a, %a : tensor<?xf32>, tensor<?xf32>) outs(%f : tensor<?xf32>) -> tensor<?xf32>
  %v = linalg.sub ins(%a, %a : tensor<?xf32>, tensor<?xf32>) outs(%f : tensor<?xf32>) -> tensor<?xf32>
  return %x, %y, %u, %v : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
