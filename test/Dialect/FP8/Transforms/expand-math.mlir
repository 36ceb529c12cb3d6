// fp8-expand-math: the transcendental ops become arith + math.fma/sqrt (no
// libm call left for the CPU, no libdevice/approximate instruction for the
// GPU); bf16/f16 go through f32; f64 and the ops it does not cover stay.
// The numbers of the expansions are tested in
// test/Integration/CPU/math-ulp.test.
// RUN: fp8-opt %s --fp8-expand-math | FileCheck %s

// exp (f32): clamp to [-104, 89] keeping NaN, n by the 1.5 * 2^23 trick,
// Cody-Waite ln 2 (two fma), the polynomial, two powers of two, NaN
// returned as it came.
// CHECK-LABEL: func.func @exp_f32(
// CHECK-SAME: %[[X:.*]]: f32)
// CHECK-DAG: %[[LO:.*]] = arith.constant -1.040000e+02 : f32
// CHECK-DAG: %[[HI:.*]] = arith.constant 8.900000e+01 : f32
// CHECK-DAG: %[[MAGIC:.*]] = arith.constant 0x4B400000 : f32
// CHECK: %[[C1:.*]] = arith.cmpf olt, %[[X]], %[[LO]]
// CHECK: %[[X1:.*]] = arith.select %[[C1]], %[[LO]], %[[X]]
// CHECK: %[[C2:.*]] = arith.cmpf ogt, %[[X1]], %[[HI]]
// CHECK: %[[X2:.*]] = arith.select %[[C2]], %[[HI]], %[[X1]]
// CHECK: math.fma %[[X2]], %{{.*}}, %[[MAGIC]]
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK-COUNT-8: math.fma
// CHECK: arith.shrsi
// CHECK: arith.shli
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]]
// CHECK: %[[R:.*]] = arith.select %[[NAN]], %[[X]], %{{.*}} : f32
// CHECK-NOT: math.exp
// CHECK: return %[[R]]
func.func @exp_f32(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}

// Vectors: the same, lane by lane (splat constants).
// CHECK-LABEL: func.func @exp_vector(
// CHECK: arith.constant dense<-1.040000e+02> : vector<8xf32>
// CHECK-NOT: math.exp
// CHECK: return
func.func @exp_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.exp %x : vector<8xf32>
  return %y : vector<8xf32>
}

// bf16: extended to f32, expanded there, truncated once.
// CHECK-LABEL: func.func @exp_bf16(
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK-NOT: math.exp
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @exp_bf16(%x: bf16) -> bf16 {
  %y = math.exp %x : bf16
  return %y : bf16
}

// exp2: the same kernel, n = round(x).
// CHECK-LABEL: func.func @exp2_f16(
// CHECK: arith.constant -1.510000e+02 : f32
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-NOT: math.exp2
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @exp2_f16(%x: f16) -> f16 {
  %y = math.exp2 %x : f16
  return %y : f16
}

// rsqrt: 1 / sqrt(x), two correctly rounded ops.
// CHECK-LABEL: func.func @rsqrt(
// CHECK-SAME: %[[X:.*]]: f32)
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[S:.*]] = math.sqrt %[[X]] : f32
// CHECK: %[[D:.*]] = arith.divf %[[ONE]], %[[S]] : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]]
// CHECK: %[[R:.*]] = arith.select %[[NAN]], %[[X]], %[[D]] : f32
// CHECK: return %[[R]]
func.func @rsqrt(%x: f32) -> f32 {
  %y = math.rsqrt %x : f32
  return %y : f32
}

// log: subnormal x scaled by 2^23 first (MLIR's approximation reads the
// exponent field), 23 ln 2 subtracted after; no math.log left; a NaN
// operand returned as it came (not through the approximation's arithmetic).
// CHECK-LABEL: func.func @log(
// CHECK-SAME: %[[X:.*]]: f32)
// CHECK-DAG: arith.constant 1.17549435E-38 : f32
// CHECK-DAG: arith.constant 0x4B000000 : f32
// CHECK-DAG: arith.constant -2.300000e+01 : f32
// CHECK-NOT: math.log
// CHECK-NOT: fp8.
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]]
// CHECK: %[[R:.*]] = arith.select %[[NAN]], %[[X]], %{{.*}} : f32
// CHECK: return %[[R]]
func.func @log(%x: f32) -> f32 {
  %y = math.log %x : f32
  return %y : f32
}

// log1p, expm1, tanh, erf (MLIR's approximations) and log2: none left,
// each result a select keeping a NaN operand.
// CHECK-LABEL: func.func @others(
// CHECK-SAME: %[[X:.*]]: f32)
// CHECK-COUNT-5: arith.select %{{.*}}, %[[X]], %{{.*}} : f32
// CHECK-NOT: math.log2
// CHECK-NOT: math.log1p
// CHECK-NOT: math.expm1
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK-NOT: math.log
// CHECK-NOT: math.exp
// CHECK: return
func.func @others(%x: f32) -> (f32, f32, f32, f32, f32) {
  %a = math.log2 %x : f32
  %b = math.log1p %x : f32
  %c = math.expm1 %x : f32
  %d = math.tanh %x : f32
  %e = math.erf %x : f32
  return %a, %b, %c, %d, %e : f32, f32, f32, f32, f32
}

// Left as they are: f64, and the ops outside the training step's set.
// CHECK-LABEL: func.func @left(
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.sin %{{.*}} : f32
// CHECK: math.powf %{{.*}} : f32
// CHECK: math.ctlz %{{.*}} : i32
func.func @left(%x: f64, %y: f32, %i: i32) -> (f64, f32, f32, i32) {
  %a = math.exp %x : f64
  %b = math.sin %y : f32
  %c = math.powf %y, %y : f32
  %d = math.ctlz %i : i32
  return %a, %b, %c, %d : f64, f32, f32, i32
}
