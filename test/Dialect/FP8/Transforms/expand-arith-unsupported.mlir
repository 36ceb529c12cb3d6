// fp8-expand-arith leaves the FP8 conversions it cannot expand unchanged
// with a remark naming the types and what is supported; under strict=true
// (what fp8-cpu-pipeline uses) they are errors, so the CPU lowering never
// emits half-lowered LLVM-dialect IR (it used to keep arith.truncf and an
// unrealized_conversion_cast in llvm.func).
// RUN: fp8-opt %s -split-input-file -fp8-expand-arith -verify-diagnostics | FileCheck %s
// RUN: not fp8-opt %s -split-input-file -fp8-cpu-pipeline 2>&1 | FileCheck %s --check-prefix=CPU

// CHECK-LABEL: func.func @fnuz
// CHECK: arith.truncf %{{.*}} : f32 to f8E4M3FNUZ
// CPU: error: fp8-expand-arith: cannot expand 'f32' -> 'f8E4M3FNUZ': 8-bit float type is not supported (expected f8E4M3FN or f8E5M2)
func.func @fnuz(%x: f32) -> f8E4M3FNUZ {
  // expected-remark @+1 {{fp8-expand-arith: cannot expand 'f32' -> 'f8E4M3FNUZ': 8-bit float type is not supported (expected f8E4M3FN or f8E5M2); left unchanged}}
  %t = arith.truncf %x : f32 to f8E4M3FNUZ
  return %t : f8E4M3FNUZ
}

// -----

// CHECK-LABEL: func.func @fnuz_ext
// CHECK: arith.extf %{{.*}} : f8E5M2FNUZ to f32
// CPU: error: fp8-expand-arith: cannot expand 'f8E5M2FNUZ' -> 'f32': 8-bit float type is not supported
func.func @fnuz_ext(%x: f8E5M2FNUZ) -> f32 {
  // expected-remark @+1 {{cannot expand 'f8E5M2FNUZ' -> 'f32': 8-bit float type is not supported (expected f8E4M3FN or f8E5M2)}}
  %t = arith.extf %x : f8E5M2FNUZ to f32
  return %t : f32
}

// -----

// CHECK-LABEL: func.func @from_f64
// CHECK: arith.truncf %{{.*}} : f64 to f8E4M3FN
// CPU: error: fp8-expand-arith: cannot expand 'f64' -> 'f8E4M3FN': source must be f32, f16 or bf16 (one rounding step)
func.func @from_f64(%x: f64) -> f8E4M3FN {
  // expected-remark @+1 {{cannot expand 'f64' -> 'f8E4M3FN': source must be f32, f16 or bf16 (one rounding step); left unchanged}}
  %t = arith.truncf %x : f64 to f8E4M3FN
  return %t : f8E4M3FN
}

// -----

// CHECK-LABEL: func.func @toward_zero
// CHECK: arith.truncf %{{.*}} toward_zero : f32 to f8E5M2
// CPU: error: fp8-expand-arith: cannot expand 'f32' -> 'f8E5M2': only round-to-nearest-even is expanded
func.func @toward_zero(%x: f32) -> f8E5M2 {
  // expected-remark @+1 {{cannot expand 'f32' -> 'f8E5M2': only round-to-nearest-even is expanded; left unchanged}}
  %t = arith.truncf %x toward_zero : f32 to f8E5M2
  return %t : f8E5M2
}

// -----

// A tensor operand: fp8-cpu-pipeline turns it into a linalg.generic on
// scalars first, so only the standalone pass remarks.
// CHECK-LABEL: func.func @on_tensor
// CHECK: arith.truncf %{{.*}} : tensor<4xf32> to tensor<4xf8E4M3FN>
func.func @on_tensor(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  // expected-remark @+1 {{cannot expand 'tensor<4xf32>' -> 'tensor<4xf8E4M3FN>': operand is not a scalar or vector (convert-elementwise-to-linalg first, as fp8-cpu-pipeline does); left unchanged}}
  %t = arith.truncf %x : tensor<4xf32> to tensor<4xf8E4M3FN>
  return %t : tensor<4xf8E4M3FN>
}

// -----

// Arithmetic computed in an FP8 type: LLVM has no such float, so
// convert-arith-to-llvm left the op and an unrealized_conversion_cast in
// llvm.func and fp8-cpu-pipeline exited with status 0.
// CHECK-LABEL: func.func @add_in_fp8
// CHECK: arith.addf %{{.*}}, %{{.*}} : f8E4M3FN
// CPU: error: fp8-expand-arith: 'arith.addf' computes in 'f8E4M3FN', which has no LLVM type: narrow floats are storage formats here; extend the operands to f32 (arith.extf), compute there and round once (arith.truncf)
func.func @add_in_fp8(%x: f8E4M3FN) -> f8E4M3FN {
  // expected-remark @+1 {{fp8-expand-arith: 'arith.addf' computes in 'f8E4M3FN', which has no LLVM type: narrow floats are storage formats here; extend the operands to f32 (arith.extf), compute there and round once (arith.truncf)}}
  %s = arith.addf %x, %x : f8E4M3FN
  return %s : f8E4M3FN
}

// -----

// An integer converted straight to FP8: the pipeline built an llvm.sitofp
// with an i8 result, which does not verify.
// CHECK-LABEL: func.func @sitofp_to_fp8
// CPU: error: fp8-expand-arith: 'arith.sitofp' computes in 'f8E5M2'
func.func @sitofp_to_fp8(%i: i32) -> f8E5M2 {
  // expected-remark @+1 {{'arith.sitofp' computes in 'f8E5M2'}}
  %f = arith.sitofp %i : i32 to f8E5M2
  return %f : f8E5M2
}

// -----

// The same inside a linalg.generic on tensors (the element-wise body is
// what the pipeline lowers), and math on FP8 vectors.
// CHECK-LABEL: func.func @generic_compare_in_fp8
// CPU: error: fp8-expand-arith: 'arith.cmpf' computes in 'f8E4M3FN'
func.func @generic_compare_in_fp8(%x: tensor<8xf8E4M3FN>, %v: vector<4xf8E5M2>) -> (tensor<8xi1>, vector<4xf8E5M2>) {
  %e = tensor.empty() : tensor<8xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf8E4M3FN>) outs(%e : tensor<8xi1>) {
  ^bb0(%a: f8E4M3FN, %o: i1):
    // expected-remark @+1 {{'arith.cmpf' computes in 'f8E4M3FN'}}
    %c = arith.cmpf olt, %a, %a : f8E4M3FN
    linalg.yield %c : i1
  } -> tensor<8xi1>
  // expected-remark @+1 {{'math.exp' computes in 'f8E5M2'}}
  %m = math.exp %v : vector<4xf8E5M2>
  return %r, %m : tensor<8xi1>, vector<4xf8E5M2>
}

// -----

// FP4 (and other narrow floats): no conversion is expanded; the pipeline
// left them half lowered too.
// CHECK-LABEL: func.func @to_fp4
// CPU: error: fp8-expand-arith: cannot expand 'f32' -> 'f4E2M1FN': 4-bit float type is not supported (expected f8E4M3FN or f8E5M2)
func.func @to_fp4(%x: f32) -> f4E2M1FN {
  // expected-remark @+1 {{cannot expand 'f32' -> 'f4E2M1FN': 4-bit float type is not supported (expected f8E4M3FN or f8E5M2); left unchanged}}
  %t = arith.truncf %x : f32 to f4E2M1FN
  return %t : f4E2M1FN
}

// -----

// Moving FP8 bit patterns is fine: constants, selects and bitcasts lower as
// i8, with no diagnostic (and fp8-cpu-pipeline succeeds on them).
// CHECK-LABEL: func.func @moves_only
// CHECK: arith.select
// CPU: llvm.func @moves_only
// CPU-NOT: unrealized_conversion_cast
func.func @moves_only(%p: i1, %x: f8E4M3FN) -> (f8E4M3FN, i8) {
  %c = arith.constant 1.5 : f8E4M3FN
  %s = arith.select %p, %x, %c : f8E4M3FN
  %b = arith.bitcast %s : f8E4M3FN to i8
  return %s, %b : f8E4M3FN, i8
}
