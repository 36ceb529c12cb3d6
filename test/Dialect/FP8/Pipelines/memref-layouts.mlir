// Memrefs whose layout is not strided (an affine map such as a transposed
// view written as (i, j) -> (j, i)): upstream's buffer deallocation and
// expand-strided-metadata build memref.extract_strided_metadata on them,
// which does not verify, so fp8-cpu-pipeline stopped in its middle with
// "'memref.extract_strided_metadata' op operand #0 must be strided memref"
// on the function's return. fp8-check-memref-layouts (the host lowering's
// second pass) names the memref instead; strided layouts still lower.
// RUN: fp8-opt %s -split-input-file -fp8-check-memref-layouts -verify-diagnostics
// RUN: fp8-opt %s -split-input-file -fp8-cpu-pipeline -verify-diagnostics
// RUN: not fp8-opt %s -split-input-file '--pass-pipeline=builtin.module(fp8-gpu-pipeline{host=llvm})' 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not fp8-opt %s -split-input-file -fp8-cpu-pipeline 2>&1 | FileCheck %s

// CHECK-NOT: extract_strided_metadata' op operand
// CHECK: llvm.func @strided_views
// GPU: error: fp8-check-memref-layouts: {{.*}} an argument has type 'memref<2x4xf32, affine_map<(d0, d1) -> (d1, d0)>>'
// GPU: llvm.func @strided_views

// expected-error @+1 {{fp8-check-memref-layouts: the lowering pipelines take memrefs with strided layouts (identity or strided<[...], offset: ...>); an argument has type 'memref<2x4xf32, affine_map<(d0, d1) -> (d1, d0)>>', whose layout is not strided: rewrite it with memref.transpose / a strided view, or normalize-memrefs first}}
func.func @transposed_argument(%a: memref<2x4xf32, affine_map<(i, j) -> (j, i)>>, %o: memref<2x4xf32>) {
  return
}

// -----

// A declaration's signature too: a call would pass such a memref.
// expected-error @+1 {{a result has type 'memref<4xf32, affine_map<(d0) -> (d0 floordiv 2)>>'}}
func.func private @external() -> memref<4xf32, affine_map<(i) -> (i floordiv 2)>>

// -----

func.func @allocated() {
  // expected-error @+1 {{a result of 'memref.alloc' has type 'memref<2x4xf32, affine_map<(d0, d1) -> (d1, d0)>>'}}
  %a = memref.alloc() : memref<2x4xf32, affine_map<(i, j) -> (j, i)>>
  memref.dealloc %a : memref<2x4xf32, affine_map<(i, j) -> (j, i)>>
  return
}

// -----

// Strided layouts, static and dynamic, and an affine map that is strided:
// no diagnostic, lowered.
func.func @strided_views(%a: memref<2x4xf32, strided<[8, 1], offset: ?>>,
                         %b: memref<2x4xf32, affine_map<(i, j) -> (i * 4 + j + 2)>>,
                         %o: memref<2x4xf32>) {
  memref.copy %a, %o : memref<2x4xf32, strided<[8, 1], offset: ?>> to memref<2x4xf32>
  memref.copy %b, %o : memref<2x4xf32, affine_map<(i, j) -> (i * 4 + j + 2)>> to memref<2x4xf32>
  return
}
