// fp8-convert-tosa converts TOSA control flow (tosa.cond_if,
// tosa.while_loop) through tosa-to-scf, then the ops in their regions; an
// unranked graph is one error on the first TOSA op's location with the others
// counted, never followed by the op printed with its regions.
//
// RUN: not fp8-opt %s -split-input-file -fp8-convert-tosa 2>/dev/null | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-convert-tosa -verify-diagnostics -o /dev/null
// RUN: not fp8-opt %s -split-input-file -fp8-convert-tosa 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR \
// RUN:   --implicit-check-not="see current operation" --implicit-check-not=tosa.add --implicit-check-not="error: fp8-convert-tosa"
// ERR: error: fp8-convert-tosa: tosa.cond_if has an unranked tensor 'tensor<*xf32>'; tosa-to-linalg needs ranked tensors (run --tosa-infer-shapes first) (and 4 more TOSA ops with unranked tensors)

// CHECK-LABEL: func.func @cond
// CHECK: %[[C:.*]] = tensor.extract
// CHECK: scf.if %[[C]] -> (tensor<4x4xf32>)
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: scf.yield
// CHECK: } else {
// CHECK: arith.subf
// CHECK-NOT: tosa.
func.func @cond(%c: tensor<i1>, %a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = tosa.cond_if %c : tensor<i1> -> tensor<4x4xf32> {
    %1 = tosa.add %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    tosa.yield %1 : tensor<4x4xf32>
  } else {
    %2 = tosa.sub %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    tosa.yield %2 : tensor<4x4xf32>
  }
  return %0 : tensor<4x4xf32>
}

// -----

// CHECK-LABEL: func.func @loop
// CHECK: scf.while
// CHECK: arith.cmpi sgt
// CHECK: scf.condition
// CHECK: } do {
// CHECK: arith.addi
// CHECK: scf.yield
// CHECK-NOT: tosa.
func.func @loop(%a: tensor<i32>) -> tensor<i32> {
  %0 = tosa.while_loop (%x = %a) : (tensor<i32>) -> tensor<i32> {
    %l = "tosa.const"() {values = dense<10> : tensor<i32>} : () -> tensor<i32>
    %c = tosa.greater %l, %x : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%y: tensor<i32>):
    %one = "tosa.const"() {values = dense<1> : tensor<i32>} : () -> tensor<i32>
    %n = tosa.add %y, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %n : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

func.func @cond_unranked(%c: tensor<i1>, %a: tensor<*xf32>, %b: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{fp8-convert-tosa: tosa.cond_if has an unranked tensor 'tensor<*xf32>'; tosa-to-linalg needs ranked tensors (run --tosa-infer-shapes first) (and 4 more TOSA ops with unranked tensors)}}
  %0 = tosa.cond_if %c : tensor<i1> -> tensor<*xf32> {
    %1 = tosa.add %a, %b : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    tosa.yield %1 : tensor<*xf32>
  } else {
    %2 = tosa.sub %a, %b : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    tosa.yield %2 : tensor<*xf32>
  }
  return %0 : tensor<*xf32>
}
