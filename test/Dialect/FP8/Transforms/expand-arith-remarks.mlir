// RUN: fp8-opt %s -split-input-file --fp8-expand-arith -verify-diagnostics | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-expand-arith='saturate=true' -verify-diagnostics -o /dev/null
// RUN: not fp8-opt %s -split-input-file --fp8-expand-arith='strict=true' 2>&1 | FileCheck %s --check-prefix=STRICT

// The diagnostics of fp8-expand-arith (lib/Dialect/FP8/Transforms/ExpandArith.cpp): an
// FP8 arith.truncf/extf that ExpandTruncF/ExpandExtF cannot expand is left
// unchanged with a remark naming the types and the reason (other 8-bit
// float types, an f64 source of truncf, a rounding mode other than RNE, a
// tensor operand); under strict=true the same text is an error (without
// "; left unchanged") and the pass fails. saturate does not change which
// ops are expanded. Expandable conversions next to them are still expanded.

// (fp8-opt also reports, on stderr and without failing, the expected-remark
// lines that the strict run does not produce; hence the anchored patterns.)
// STRICT-NOT: error: fp8-expand-arith:{{.*}}left unchanged

// A vector truncf to another 8-bit float type.
// CHECK-LABEL: func.func @fnuz_vector
// CHECK-NEXT:    arith.truncf %{{.+}} : vector<8xf32> to vector<8xf8E4M3FNUZ>
// STRICT: error: fp8-expand-arith: cannot expand 'vector<8xf32>' -> 'vector<8xf8E4M3FNUZ>': 8-bit float type is not supported (expected f8E4M3FN or f8E5M2){{$}}
func.func @fnuz_vector(%x: vector<8xf32>) -> vector<8xf8E4M3FNUZ> {
  // expected-remark @+1 {{fp8-expand-arith: cannot expand 'vector<8xf32>' -> 'vector<8xf8E4M3FNUZ>': 8-bit float type is not supported (expected f8E4M3FN or f8E5M2); left unchanged}}
  %t = arith.truncf %x : vector<8xf32> to vector<8xf8E4M3FNUZ>
  return %t : vector<8xf8E4M3FNUZ>
}

// -----

// extf from the IEEE-style f8E4M3 (not f8E4M3FN).
// CHECK-LABEL: func.func @e4m3_ieee_ext
// CHECK-NEXT:    arith.extf %{{.+}} : f8E4M3 to bf16
// STRICT: error: fp8-expand-arith: cannot expand 'f8E4M3' -> 'bf16': 8-bit float type is not supported (expected f8E4M3FN or f8E5M2){{$}}
func.func @e4m3_ieee_ext(%x: f8E4M3) -> bf16 {
  // expected-remark @+1 {{fp8-expand-arith: cannot expand 'f8E4M3' -> 'bf16': 8-bit float type is not supported (expected f8E4M3FN or f8E5M2); left unchanged}}
  %e = arith.extf %x : f8E4M3 to bf16
  return %e : bf16
}

// -----

// An f64 source: expanding it through f32 would round twice.
// CHECK-LABEL: func.func @from_f64
// CHECK-NEXT:    arith.truncf %{{.+}} : f64 to f8E5M2
// STRICT: error: fp8-expand-arith: cannot expand 'f64' -> 'f8E5M2': source must be f32, f16 or bf16 (one rounding step){{$}}
func.func @from_f64(%x: f64) -> f8E5M2 {
  // expected-remark @+1 {{fp8-expand-arith: cannot expand 'f64' -> 'f8E5M2': source must be f32, f16 or bf16 (one rounding step); left unchanged}}
  %t = arith.truncf %x : f64 to f8E5M2
  return %t : f8E5M2
}

// -----

// A rounding mode other than to_nearest_even.
// CHECK-LABEL: func.func @upward_vector
// CHECK-NEXT:    arith.truncf %{{.+}} upward : vector<4xf32> to vector<4xf8E4M3FN>
// STRICT: error: fp8-expand-arith: cannot expand 'vector<4xf32>' -> 'vector<4xf8E4M3FN>': only round-to-nearest-even is expanded{{$}}
func.func @upward_vector(%x: vector<4xf32>) -> vector<4xf8E4M3FN> {
  // expected-remark @+1 {{fp8-expand-arith: cannot expand 'vector<4xf32>' -> 'vector<4xf8E4M3FN>': only round-to-nearest-even is expanded; left unchanged}}
  %t = arith.truncf %x upward : vector<4xf32> to vector<4xf8E4M3FN>
  return %t : vector<4xf8E4M3FN>
}

// -----

// A tensor operand (fp8-cpu-pipeline runs convert-elementwise-to-linalg
// first).
// CHECK-LABEL: func.func @tensor_ext
// CHECK-NEXT:    arith.extf %{{.+}} : tensor<2x3xf8E5M2> to tensor<2x3xf32>
// STRICT: error: fp8-expand-arith: cannot expand 'tensor<2x3xf8E5M2>' -> 'tensor<2x3xf32>': operand is not a scalar or vector (convert-elementwise-to-linalg first, as fp8-cpu-pipeline does){{$}}
func.func @tensor_ext(%x: tensor<2x3xf8E5M2>) -> tensor<2x3xf32> {
  // expected-remark @+1 {{fp8-expand-arith: cannot expand 'tensor<2x3xf8E5M2>' -> 'tensor<2x3xf32>': operand is not a scalar or vector (convert-elementwise-to-linalg first, as fp8-cpu-pipeline does); left unchanged}}
  %e = arith.extf %x : tensor<2x3xf8E5M2> to tensor<2x3xf32>
  return %e : tensor<2x3xf32>
}

// -----

// One function, one expandable and one unsupported conversion: the first is
// expanded (no arith.truncf to f8E4M3FN is left), only the second remarks.
// CHECK-LABEL: func.func @mixed
// CHECK-NOT:     arith.truncf {{.*}} to f8E4M3FN
// CHECK:         arith.bitcast %{{.+}} : i8 to f8E4M3FN
// CHECK-NOT:     arith.truncf {{.*}} to f8E4M3FN
// CHECK:         arith.truncf %{{.+}} : f64 to f8E4M3FN
// CHECK-NOT:     arith.truncf {{.*}} to f8E4M3FN
// CHECK:         return
// STRICT: error: fp8-expand-arith: cannot expand 'f64' -> 'f8E4M3FN': source must be f32, f16 or bf16 (one rounding step){{$}}
// STRICT-NOT: error: fp8-expand-arith:
func.func @mixed(%x: f32, %y: f64) -> (f8E4M3FN, f8E4M3FN) {
  %a = arith.truncf %x : f32 to f8E4M3FN
  // expected-remark @+1 {{cannot expand 'f64' -> 'f8E4M3FN': source must be f32, f16 or bf16 (one rounding step); left unchanged}}
  %b = arith.truncf %y : f64 to f8E4M3FN
  return %a, %b : f8E4M3FN, f8E4M3FN
}
