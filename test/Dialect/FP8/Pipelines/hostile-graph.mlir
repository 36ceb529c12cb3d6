// Hostile and half-edited graphs through the graph pipeline (fp8-pipeline:
// tosa-to-linalg, fp8-assign-precision, fp8-insert-quant, canonicalize, cse).
// What the passes cannot handle stays unchanged with a remark (MLIR prints
// remarks on stderr; -verify-diagnostics pins every one of them), under
// strict=true it is an error; what they can handle is rewritten into IR
// that verifies (fp8-opt verifies after every pass).
// RUN: fp8-opt %s -split-input-file --fp8-pipeline=report=false -verify-diagnostics | FileCheck %s
// RUN: not fp8-opt %s -split-input-file --fp8-pipeline="report=false strict=true" 2>&1 | FileCheck %s --check-prefix=STRICT
// The report and the lowerings accept whatever the graph pipeline leaves.
// RUN: fp8-opt %s -split-input-file --fp8-pipeline -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REPORT

// REPORT-COUNT-13: fp8-report: policy deepseek-v3

// Dynamic M (the token dimension) is rewritten; dynamic K (the weight's
// shape) is left in high precision.
// CHECK-LABEL: func.func @dynamic_m
// CHECK: fp8.scaled_matmul {{.*}} -> tensor<?x512xf32>
// CHECK: linalg.matmul
// STRICT: error: fp8-insert-quant: linear left in high precision: dynamic N or K
func.func @dynamic_m(%x: tensor<?x256xf32>, %w: tensor<256x512xf32>, %init: tensor<?x512xf32>,
                     %xk: tensor<16x?xf32>, %wk: tensor<?x512xf32>, %init2: tensor<16x512xf32>) -> (tensor<?x512xf32>, tensor<16x512xf32>) {
  %y = linalg.matmul ins(%x, %w : tensor<?x256xf32>, tensor<256x512xf32>) outs(%init : tensor<?x512xf32>) -> tensor<?x512xf32>
  // expected-remark @+1 {{fp8-insert-quant: linear left in high precision: dynamic N or K}}
  %z = linalg.matmul ins(%xk, %wk : tensor<16x?xf32>, tensor<?x512xf32>) outs(%init2 : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y, %z : tensor<?x512xf32>, tensor<16x512xf32>
}

// -----

// f64: no FP8 rewrite.
// CHECK-LABEL: func.func @f64_matmul
// CHECK: linalg.matmul {{.*}} tensor<16x256xf64>
// STRICT: error: fp8-insert-quant: linear left in high precision: operands and result must be f32, bf16 or f16
func.func @f64_matmul(%x: tensor<16x256xf64>, %w: tensor<256x512xf64>, %init: tensor<16x512xf64>) -> tensor<16x512xf64> {
  // expected-remark @+1 {{fp8-insert-quant: linear left in high precision: operands and result must be f32, bf16 or f16}}
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf64>, tensor<256x512xf64>) outs(%init : tensor<16x512xf64>) -> tensor<16x512xf64>
  return %y : tensor<16x512xf64>
}

// -----

// An integer (int8-quantized) matmul: no precision, unchanged.
// CHECK-LABEL: func.func @i8_matmul
// CHECK: linalg.matmul
// CHECK-NOT: fp8.precision
// CHECK-SAME: tensor<16x256xi8>
func.func @i8_matmul(%x: tensor<16x256xi8>, %w: tensor<256x512xi8>, %init: tensor<16x512xi32>) -> tensor<16x512xi32> {
  // expected-remark @+1 {{fp8-assign-precision: contraction with element type 'i32' is not floating-point (expected f32, bf16 or f16); no precision assigned, left unchanged}}
  %y = linalg.matmul ins(%x, %w : tensor<16x256xi8>, tensor<256x512xi8>) outs(%init : tensor<16x512xi32>) -> tensor<16x512xi32>
  return %y : tensor<16x512xi32>
}

// -----

// A declaration (no body) is skipped; a caller without a contraction is
// remarked and unchanged.
// CHECK: func.func private @decl(tensor<16x256xf32>) -> tensor<16x512xf32>
// CHECK-LABEL: func.func @calls_decl
// CHECK-NEXT: call @decl
// STRICT: error: fp8-assign-precision: no matmul-like contraction recognised in @calls_decl; function left unchanged
func.func private @decl(%x: tensor<16x256xf32>) -> tensor<16x512xf32>
// expected-remark @+1 {{fp8-assign-precision: no matmul-like contraction recognised in @calls_decl; function left unchanged}}
func.func @calls_decl(%x: tensor<16x256xf32>) -> tensor<16x512xf32> {
  %y = func.call @decl(%x) : (tensor<16x256xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

// Unranked tensors.
// CHECK-LABEL: func.func @unranked
// CHECK-NEXT: return %arg0 : tensor<*xf32>
// expected-remark @+1 {{no matmul-like contraction recognised in @unranked}}
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  return %x : tensor<*xf32>
}

// -----

// A matvec over K = 16 (less than one quantization block) is a dot product
// per row, not a linear layer: fp8-normalize-forms keeps it as it is.
// CHECK-LABEL: func.func @matvec
// CHECK: linalg.matvec
// expected-remark @+1 {{no matmul-like contraction recognised in @matvec}}
func.func @matvec(%x: tensor<256x16xf32>, %w: tensor<16xf32>, %init: tensor<256xf32>) -> tensor<256xf32> {
  // expected-remark @+1 {{fp8-normalize-forms: linalg.matvec kept as it is: a matrix-vector product over K = 16 (less than one 128-element quantization block, or unknown) is a dot product per row, not a linear layer}}
  %y = linalg.matvec ins(%x, %w : tensor<256x16xf32>, tensor<16xf32>) outs(%init : tensor<256xf32>) -> tensor<256xf32>
  return %y : tensor<256xf32>
}

// -----

// Buffers (already bufferized IR): not a tensor graph.
// CHECK-LABEL: func.func @on_memrefs
// CHECK: linalg.matmul ins(%arg0, %arg1 : memref<16x256xf32>, memref<256x512xf32>)
// expected-remark @+1 {{no matmul-like contraction recognised in @on_memrefs}}
func.func @on_memrefs(%x: memref<16x256xf32>, %w: memref<256x512xf32>, %init: memref<16x512xf32>) {
  linalg.matmul ins(%x, %w : memref<16x256xf32>, memref<256x512xf32>) outs(%init : memref<16x512xf32>)
  return
}

// -----

// Nested modules: the inner function is rewritten like a top-level one.
// CHECK-LABEL: module @inner
// CHECK: func.func @f
// CHECK: fp8.scaled_matmul
module @outer {
  module @inner {
    func.func @f(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
      %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
      return %y : tensor<16x512xf32>
    }
  }
}

// -----

// Matmuls inside scf.if / scf.for regions are rewritten in place.
// CHECK-LABEL: func.func @in_regions
// CHECK: scf.if
// CHECK: fp8.scaled_matmul
// CHECK: scf.for
// CHECK: fp8.scaled_matmul
func.func @in_regions(%c: i1, %x: tensor<16x256xf32>, %w: tensor<256x256xf32>, %init: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %r = scf.if %c -> tensor<16x256xf32> {
    %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x256xf32>) outs(%init : tensor<16x256xf32>) -> tensor<16x256xf32>
    scf.yield %y : tensor<16x256xf32>
  } else {
    scf.yield %init : tensor<16x256xf32>
  }
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %r) -> tensor<16x256xf32> {
    %e = tensor.empty() : tensor<16x256xf32>
    %y = linalg.matmul ins(%a, %w : tensor<16x256xf32>, tensor<256x256xf32>) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
    scf.yield %y : tensor<16x256xf32>
  }
  return %s : tensor<16x256xf32>
}

// -----

// linalg.matmul with transposed indexing maps (A is [K, M], B is [N, K]).
// CHECK-LABEL: func.func @transposed_maps
// CHECK: fp8.scaled_matmul {{.*}} -> tensor<16x512xf32>
#mapA = affine_map<(m, n, k) -> (k, m)>
#mapB = affine_map<(m, n, k) -> (n, k)>
#mapC = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_maps(%x: tensor<256x16xf32>, %w: tensor<512x256xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %y = linalg.matmul indexing_maps = [#mapA, #mapB, #mapC] ins(%x, %w : tensor<256x16xf32>, tensor<512x256xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

// Degenerate sizes: K = 7 (no full block), M = N = 0.
// CHECK-LABEL: func.func @odd_sizes
// CHECK: fp8.scaled_matmul {{.*}} -> tensor<16x3xf32>
// CHECK: fp8.scaled_matmul {{.*}} -> tensor<0x0xf32>
func.func @odd_sizes(%x: tensor<16x7xf32>, %w: tensor<7x3xf32>, %init: tensor<16x3xf32>,
                     %x0: tensor<0x256xf32>, %w0: tensor<256x0xf32>, %i0: tensor<0x0xf32>) -> (tensor<16x3xf32>, tensor<0x0xf32>) {
  %y = linalg.matmul ins(%x, %w : tensor<16x7xf32>, tensor<7x3xf32>) outs(%init : tensor<16x3xf32>) -> tensor<16x3xf32>
  %z = linalg.matmul ins(%x0, %w0 : tensor<0x256xf32>, tensor<256x0xf32>) outs(%i0 : tensor<0x0xf32>) -> tensor<0x0xf32>
  return %y, %z : tensor<16x3xf32>, tensor<0x0xf32>
}

// -----

// The graph already holds fp8 ops (a second run over its own output, or
// hand-written): the linear is rewritten and reuses the existing FP8
// activation (quantize(dequantize(q)) folds to q under the same block).
// CHECK-LABEL: func.func @already_fp8
// CHECK: %[[Q:.*]] = fp8.quantize %arg0
// CHECK-NOT: fp8.dequantize
// CHECK: fp8.scaled_matmul %[[Q]], 
func.func @already_fp8(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %q = fp8.quantize %x : tensor<16x256xf32> -> !fp8.scaled<16x256xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<16x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<16x256xf32>
  %y = linalg.matmul ins(%d, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

// A batched matmul of two arguments is classified (attention-like) and
// kept in high precision (batch_matmul is never rewritten to FP8 here).
// CHECK-LABEL: func.func @batched
// CHECK: linalg.batch_matmul
// CHECK-NOT: fp8.scaled_matmul
func.func @batched(%x: tensor<4x16x256xf32>, %w: tensor<4x256x512xf32>, %init: tensor<4x16x512xf32>) -> tensor<4x16x512xf32> {
  %y = linalg.batch_matmul ins(%x, %w : tensor<4x16x256xf32>, tensor<4x256x512xf32>) outs(%init : tensor<4x16x512xf32>) -> tensor<4x16x512xf32>
  return %y : tensor<4x16x512xf32>
}
