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
