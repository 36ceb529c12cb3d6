// RUN: fp8-opt %s -split-input-file -fp8-verify-dynamic-shapes | FileCheck %s
// fp8-cpu-pipeline runs it by default (and not with verify-shapes=false):
// the lowered functions call abort only where a check was emitted.
// RUN: fp8-opt %s -split-input-file -fp8-cpu-pipeline | FileCheck %s --check-prefix=PIPE
// RUN: fp8-opt %s -split-input-file -fp8-cpu-pipeline=verify-shapes=false | FileCheck %s --check-prefix=OFF

// A matmul with dynamic sizes: upstream's checks, guarded by non-empty
// loops, each message naming the op, its location and the dimension.
// CHECK-LABEL: func.func @matmul_dynamic
// CHECK: scf.if
// CHECK: cf.assert %{{.*}}, "linalg.matmul at loc(\22{{.*}}verify-dynamic-shapes.mlir\22:[[@LINE+10]]:8): dimension #0 of input/output operand #1 is incompatible with inferred dimension size"
// CHECK: cf.assert %{{.*}}, "linalg.matmul at loc(\22{{.*}}verify-dynamic-shapes.mlir\22:[[@LINE+9]]:8): dimension #0 of input/output operand #2 is incompatible with inferred dimension size"
// CHECK: linalg.matmul
// PIPE-LABEL: llvm.func @matmul_dynamic
// PIPE: llvm.call @abort
// PIPE: // -----
// OFF-LABEL: llvm.func @matmul_dynamic
// OFF-NOT: llvm.call @abort
// OFF: // -----
func.func @matmul_dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %d = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %d : tensor<?x?xf32>
}

// -----

// Static shapes: the verifier compared them.
// CHECK-LABEL: func.func @matmul_static
// CHECK-NOT: cf.assert
// CHECK: linalg.matmul
// PIPE-LABEL: llvm.func @matmul_static
// PIPE-NOT: llvm.call @abort
// PIPE: // -----
func.func @matmul_static(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>, %c: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %d = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %d : tensor<4x5xf32>
}

// -----

// Dynamic sizes that agree by construction (the output sized by tensor.dim
// of the input, as the lowerings build them): no check, upstream's would
// not fold away.
// CHECK-LABEL: func.func @elementwise_sized_from_input
// CHECK-NOT: cf.assert
// CHECK: linalg.generic
// CHECK-NOT: cf.assert
// CHECK: return
// PIPE-LABEL: llvm.func @elementwise_sized_from_input
// PIPE-NOT: llvm.call @abort
// PIPE: // -----
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise_sized_from_input(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// fp8.scaled_matmul: the extents its operands share where one is dynamic
// (K of a and b, M of a and c); N is static in b and c, the result's M is
// the lowering's (from a).
// CHECK-LABEL: func.func @scaled_k_and_m
// CHECK: %[[KA:.*]] = tensor.dim %{{.*}}, %c1
// CHECK: %[[KB:.*]] = tensor.dim %{{.*}}, %c1
// CHECK: %[[SAMEK:.*]] = arith.cmpi eq, %[[KA]], %[[KB]]
// CHECK: cf.assert %[[SAMEK]], "fp8.scaled_matmul at loc(\22{{.*}}verify-dynamic-shapes.mlir\22:[[@LINE+16]]:8): the K of a (dimension 1) and of b (dimension 1) differ at run time"
// CHECK: %[[MA:.*]] = tensor.dim %{{.*}}, %c0
// CHECK: %[[MC:.*]] = tensor.dim %{{.*}}, %c0
// CHECK: %[[SAMEM:.*]] = arith.cmpi eq, %[[MA]], %[[MC]]
// CHECK: cf.assert %[[SAMEM]], "fp8.scaled_matmul at loc(\22{{.*}}verify-dynamic-shapes.mlir\22:[[@LINE+12]]:8): the M of a (dimension 0) and of c (dimension 0) differ at run time"
// CHECK-NOT: cf.assert
// CHECK: fp8.scaled_matmul
// PIPE-LABEL: llvm.func @scaled_k_and_m
// PIPE: llvm.call @abort
// PIPE: // -----
// OFF-LABEL: llvm.func @scaled_k_and_m
// OFF-NOT: llvm.call @abort
// OFF: // -----
!a = !fp8.scaled<?x?xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<8x?xf8E4M3FN, block = [128, 128], scale = f32>
func.func @scaled_k_and_m(%qx: !a, %qw: !b, %c: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %d = fp8.scaled_matmul %qx, %qw acc(%c : tensor<?x8xf32>) : !a, !b -> tensor<?x8xf32>
  return %d : tensor<?x8xf32>
}

// -----

// fp8-pipeline's linear with a run-time token count: only M is dynamic and
// only A has it (the result's M is A's): no check.
// CHECK-LABEL: func.func @scaled_dynamic_tokens
// CHECK-NOT: cf.assert
// CHECK: return
// PIPE-LABEL: llvm.func @scaled_dynamic_tokens
// PIPE-NOT: llvm.call @abort
// PIPE: // -----
!a = !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
func.func @scaled_dynamic_tokens(%x: tensor<?x256xf32>, %qw: !b) -> tensor<?x512xbf16> {
  %qx = fp8.quantize %x : tensor<?x256xf32> -> !a
  %d = fp8.scaled_matmul %qx, %qw : !a, !b -> tensor<?x512xbf16>
  return %d : tensor<?x512xbf16>
}

// -----

// fp8.grouped_scaled_matmul, contiguous: the rows of a and of group_ids.
// CHECK-LABEL: func.func @grouped_rows
// CHECK: cf.assert %{{.*}}, "fp8.grouped_scaled_matmul at loc(\22{{.*}}verify-dynamic-shapes.mlir\22:[[@LINE+6]]:8): the M of a (dimension 0) and of group_ids (dimension 0) differ at run time"
// CHECK-NOT: cf.assert
// CHECK: fp8.grouped_scaled_matmul
!a = !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<4x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32>
func.func @grouped_rows(%qx: !a, %qw: !b, %ids: tensor<?xi32>) -> tensor<?x128xf32> {
  %d = fp8.grouped_scaled_matmul contiguous %qx, %qw group_ids(%ids : tensor<?xi32>)
      : !a, !b -> tensor<?x128xf32>
  return %d : tensor<?x128xf32>
}
