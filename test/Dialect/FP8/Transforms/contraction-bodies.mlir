// A linalg.generic is a matmul only when its body computes a matmul's
// terms: arith.mulf and arith.addf of the block arguments and their float
// casts. linalg::isaContractionOpInterface checks the multiply-accumulate's
// shape but looks through any single-operand op, so each body below passed
// it and was rewritten into an FP8 scaled_matmul computing a plain matmul
// (a relative error of 0.8 to 2 against the op's own result). Now each
// stays as written, in f32; the control, a mul-add body with widening
// casts, is still rewritten.
// RUN: fp8-opt %s -split-input-file --fp8-pipeline=report=false | FileCheck %s

// -----

// c - a * b: the product negated
// CHECK-LABEL: func.func @neg_product
// CHECK-NOT: fp8.
// CHECK: linalg.generic
// CHECK-NOT: fp8.
// CHECK: return
func.func @neg_product(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>) -> tensor<16x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%f : tensor<16x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %n = arith.negf %m : f32
    %s = arith.addf %c, %n : f32
    linalg.yield %s : f32
  } -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

// |a| * b: an operand's absolute value
// CHECK-LABEL: func.func @abs_operand
// CHECK-NOT: fp8.
// CHECK: linalg.generic
// CHECK-NOT: fp8.
// CHECK: return
func.func @abs_operand(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>) -> tensor<16x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%f : tensor<16x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %u = math.absf %a : f32
    %m = arith.mulf %u, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

// exp(a) * b
// CHECK-LABEL: func.func @exp_operand
// CHECK-NOT: fp8.
// CHECK: linalg.generic
// CHECK-NOT: fp8.
// CHECK: return
func.func @exp_operand(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>) -> tensor<16x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%f : tensor<16x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %u = math.exp %a : f32
    %m = arith.mulf %u, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

// -c + a * b: the accumulator negated at every step
// CHECK-LABEL: func.func @neg_acc
// CHECK-NOT: fp8.
// CHECK: linalg.generic
// CHECK-NOT: fp8.
// CHECK: return
func.func @neg_acc(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>) -> tensor<16x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%f : tensor<16x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %n = arith.negf %c : f32
    %s = arith.addf %n, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

// sqrt(c + a * b) at every step
// CHECK-LABEL: func.func @sqrt_sum
// CHECK-NOT: fp8.
// CHECK: linalg.generic
// CHECK-NOT: fp8.
// CHECK: return
func.func @sqrt_sum(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>) -> tensor<16x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%f : tensor<16x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %c, %m : f32
    %s = math.sqrt %t : f32
    linalg.yield %s : f32
  } -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

// The control: bf16 operands widened to f32, multiplied and accumulated.
// CHECK-LABEL: func.func @mul_add
// CHECK: fp8.scaled_matmul
func.func @mul_add(%x: tensor<16x256xbf16>, %w: tensor<256x512xbf16>) -> tensor<16x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%f : tensor<16x512xf32>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}
