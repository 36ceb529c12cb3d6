// Errors on ops that hold a whole graph (a module with an invalid
// fp8.policy, a tosa.cond_if with unranked tensors) are one error on the
// op's location, never followed by a dump of the op (issue 19: "tools print
// an error once, without dumping the module").
//
// RUN: not fp8-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=POLICY \
// RUN:   --implicit-check-not="see current operation" --implicit-check-not=arith.addf --implicit-check-not=error:
// POLICY: error: attribute 'fp8.policy' must be an #fp8.policy<...> attribute, got 3 : i32
// POLICY: error: attribute 'fp8.role' must be an #fp8.role<...> attribute, got "linear"
//
// The same through fp8-pipeline: no dump either (the verifier runs first).
// RUN: not fp8-opt %s -split-input-file --fp8-pipeline 2>&1 | FileCheck %s --check-prefix=POLICY \
// RUN:   --implicit-check-not="see current operation" --implicit-check-not=arith.addf --implicit-check-not=error:

module attributes {fp8.policy = 3 : i32} {
  func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = arith.addf %a, %a : tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}

// -----

// A function-level annotation: the function is not printed either.
func.func @g(%a: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {fp8.role = "linear"} {
  %0 = arith.addf %a, %a : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
