// fp8-expand-math run on its own (no earlier pass loading the dialects it
// creates ops of) on vectors: every op it expands, f32 and, through f32,
// bf16 and f16, 1-D, 2-D and 0-D. MLIR's approximations broadcast their
// constants with vector.broadcast (folded into splat constants here), so
// the pass must load the vector dialect itself (it crashed on log, log2,
// log1p, expm1, tanh, erf of a vector).
// RUN: fp8-opt %s --split-input-file --fp8-expand-math | FileCheck %s

// CHECK-LABEL: func.func @all_f32(
// CHECK-SAME: %[[X:.*]]: vector<4xf32>)
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: math.rsqrt
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK: arith.constant dense<3.750000e+00> : vector<4xf32>
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: math.rsqrt
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK: return
func.func @all_f32(%x: vector<4xf32>)
    -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>,
        vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>,
        vector<4xf32>) {
  %a = math.exp %x : vector<4xf32>
  %b = math.exp2 %x : vector<4xf32>
  %c = math.rsqrt %x : vector<4xf32>
  %d = math.log %x : vector<4xf32>
  %e = math.log2 %x : vector<4xf32>
  %f = math.log1p %x : vector<4xf32>
  %g = math.expm1 %x : vector<4xf32>
  %h = math.tanh %x : vector<4xf32>
  %i = math.erf %x : vector<4xf32>
  return %a, %b, %c, %d, %e, %f, %g, %h, %i
      : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>,
        vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>,
        vector<4xf32>
}

// -----

// Each op alone (the vector dialect not loaded by another op's expansion),
// its result the select that keeps a NaN (and, for erf, a zero) operand.
// CHECK-LABEL: func.func @erf_vector(
// CHECK-SAME: %[[X:.*]]: vector<8xf32>)
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK: %[[C:.*]] = arith.cmpf ueq, %[[X]], %[[Z]] : vector<8xf32>
// CHECK: %[[R:.*]] = arith.select %[[C]], %[[X]], %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NOT: math.erf
// CHECK: return %[[R]]
func.func @erf_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.erf %x : vector<8xf32>
  return %y : vector<8xf32>
}

// -----

// CHECK-LABEL: func.func @log_vector(
// CHECK-NOT: math.log
// CHECK: return
func.func @log_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.log %x : vector<8xf32>
  return %y : vector<8xf32>
}

// -----

// CHECK-LABEL: func.func @log2_vector(
// CHECK-NOT: math.log2
// CHECK: return
func.func @log2_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.log2 %x : vector<8xf32>
  return %y : vector<8xf32>
}

// -----

// CHECK-LABEL: func.func @log1p_vector(
// CHECK-NOT: math.log1p
// CHECK: return
func.func @log1p_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.log1p %x : vector<8xf32>
  return %y : vector<8xf32>
}

// -----

// CHECK-LABEL: func.func @expm1_vector(
// CHECK-NOT: math.expm1
// CHECK: return
func.func @expm1_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.expm1 %x : vector<8xf32>
  return %y : vector<8xf32>
}

// -----

// CHECK-LABEL: func.func @tanh_vector(
// CHECK-NOT: math.tanh
// CHECK: return
func.func @tanh_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.tanh %x : vector<8xf32>
  return %y : vector<8xf32>
}

// -----

// bf16 and f16 vectors: extended to f32, expanded there, truncated once.
// CHECK-LABEL: func.func @bf16_f16_vectors(
// CHECK-DAG: arith.extf %{{.*}} : vector<4xbf16> to vector<4xf32>
// CHECK-DAG: arith.extf %{{.*}} : vector<4xf16> to vector<4xf32>
// CHECK-DAG: arith.truncf %{{.*}} : vector<4xf32> to vector<4xbf16>
// CHECK-DAG: arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// CHECK-NOT: math.log
// CHECK-NOT: math.tanh
// CHECK: return
func.func @bf16_f16_vectors(%x: vector<4xbf16>, %y: vector<4xf16>)
    -> (vector<4xbf16>, vector<4xf16>) {
  %a = math.log %x : vector<4xbf16>
  %b = math.tanh %y : vector<4xf16>
  return %a, %b : vector<4xbf16>, vector<4xf16>
}

// -----

// 2-D and 0-D vectors, lane by lane.
// CHECK-LABEL: func.func @ranks(
// CHECK-DAG: arith.constant dense<3.750000e+00> : vector<f32>
// CHECK-DAG: arith.cmpf ueq, %{{.*}}, %{{.*}} : vector<2x3xf32>
// CHECK-DAG: arith.constant dense<-1.040000e+02> : vector<2x3xf32>
// CHECK-NOT: math.log1p
// CHECK-NOT: math.exp
// CHECK: return
func.func @ranks(%x: vector<2x3xf32>, %y: vector<f32>)
    -> (vector<2x3xf32>, vector<f32>, vector<2x3xf32>) {
  %a = math.log1p %x : vector<2x3xf32>
  %b = math.erf %y : vector<f32>
  %c = math.exp %x : vector<2x3xf32>
  return %a, %b, %c : vector<2x3xf32>, vector<f32>, vector<2x3xf32>
}
