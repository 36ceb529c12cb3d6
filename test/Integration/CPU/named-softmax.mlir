// linalg.softmax (the named op torch-mlir and IREE may emit) through
// fp8-pipeline and fp8-cpu-pipeline: fp8-normalize-forms decomposes it into
// upstream's generics (max, exp of the difference, sum, divide), which the
// role analysis classifies as it does an exporter's decomposed softmax
// (roles: test/Dialect/FP8/Pipelines/exporter-forms.mlir @router_named_softmax)
// and fp8-expand-math reaches.
//
// Values derived by hand: a router [T, H] x [H, E] (E = 4, gating: BF16
// operands, exact here) with tokens x[0] = 64 and x[1] = 128 in every
// element and w[k, e] = b_e * 2^-10, b = [1, 1, 1, -8]: the logits are
// 16 * b and 32 * b. The softmax over the experts (dimension 1) subtracts the
// row's max: exp(0) = 1 for the first three experts, exp(-144) and
// exp(-288) underflow to 0 for the last, so every row is [1/3, 1/3, 1/3, 0]
// (the division correctly rounded: 0.333333). A softmax over the tokens
// (dimension 0) would give rows that differ (exp(16 - 32) in the first).
//
// RUN: fp8-opt %s --fp8-pipeline="report=false" -o %t.fp8 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.fp8
// RUN: fp8-opt %t.fp8 --fp8-cpu-pipeline | %fp8_run | FileCheck %s

// IR-LABEL: func.func @router
// IR-NOT: linalg.softmax
// IR: linalg.matmul {{.*}}fp8.role = #fp8.role<gating>
// IR: math.exp
// IR-LABEL: func.func @main

// CHECK: {{\[\[}}0.333333,   0.333333,   0.333333,   0],
// CHECK-NEXT: [0.333333,   0.333333,   0.333333,   0]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @router(%x: tensor<2x256xf32>, %wg: tensor<256x4xf32>) -> tensor<2x4xf32> {
  %z = arith.constant 0.0 : f32
  %el = tensor.empty() : tensor<2x4xf32>
  %zl = linalg.fill ins(%z : f32) outs(%el : tensor<2x4xf32>) -> tensor<2x4xf32>
  %logits = linalg.matmul ins(%x, %wg : tensor<2x256xf32>, tensor<256x4xf32>) outs(%zl : tensor<2x4xf32>) -> tensor<2x4xf32>
  %p = linalg.softmax dimension(1) ins(%logits : tensor<2x4xf32>) outs(%el : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %p : tensor<2x4xf32>
}

func.func @main() {
  %x = arith.constant dense<[64.0, 128.0]> : tensor<2xf32>
  %ex = tensor.empty() : tensor<2x256xf32>
  %xb = linalg.broadcast ins(%x : tensor<2xf32>) outs(%ex : tensor<2x256xf32>) dimensions = [1]
  %b = arith.constant dense<[0.0009765625, 0.0009765625, 0.0009765625, -0.0078125]> : tensor<4xf32>
  %ew = tensor.empty() : tensor<256x4xf32>
  %w = linalg.broadcast ins(%b : tensor<4xf32>) outs(%ew : tensor<256x4xf32>) dimensions = [0]
  %p = call @router(%xb, %w) : (tensor<2x256xf32>, tensor<256x4xf32>) -> tensor<2x4xf32>
  %m = bufferization.to_buffer %p : tensor<2x4xf32> to memref<2x4xf32>
  %u = memref.cast %m : memref<2x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
