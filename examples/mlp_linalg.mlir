// A two-layer MLP (Linear -> ReLU -> Linear) in the linalg-on-tensors form
// torch-mlir exports: nn.Linear weights stored [out, in] and transposed by a
// linalg.generic before linalg.matmul, module paths kept in loc names.
// Tokens 32, hidden 256, intermediate 512.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#bias = affine_map<(d0, d1) -> (d1)>
module {
  func.func @forward(%x: tensor<32x256xf32>, %w1: tensor<512x256xf32>, %b1: tensor<512xf32>,
                     %w2: tensor<256x512xf32>, %b2: tensor<256xf32>) -> tensor<32x256xf32> {
    %zero = arith.constant 0.000000e+00 : f32
    %e0 = tensor.empty() : tensor<256x512xf32>
    %w1t = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]}
        ins(%w1 : tensor<512x256xf32>) outs(%e0 : tensor<256x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x512xf32> loc("model.fc1")
    %e1 = tensor.empty() : tensor<32x512xf32>
    %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<32x512xf32>) -> tensor<32x512xf32>
    %h = linalg.matmul ins(%x, %w1t : tensor<32x256xf32>, tensor<256x512xf32>)
        outs(%z1 : tensor<32x512xf32>) -> tensor<32x512xf32> loc("model.fc1")
    %hb = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
        ins(%h, %b1 : tensor<32x512xf32>, tensor<512xf32>) outs(%e1 : tensor<32x512xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      %p = arith.cmpf ugt, %s, %zero : f32
      %r = arith.select %p, %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<32x512xf32> loc("model.act")
    %e2 = tensor.empty() : tensor<512x256xf32>
    %w2t = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]}
        ins(%w2 : tensor<256x512xf32>) outs(%e2 : tensor<512x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<512x256xf32> loc("model.fc2")
    %e3 = tensor.empty() : tensor<32x256xf32>
    %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<32x256xf32>) -> tensor<32x256xf32>
    %y = linalg.matmul ins(%hb, %w2t : tensor<32x512xf32>, tensor<512x256xf32>)
        outs(%z3 : tensor<32x256xf32>) -> tensor<32x256xf32> loc("model.fc2")
    %yb = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
        ins(%y, %b2 : tensor<32x256xf32>, tensor<256xf32>) outs(%e3 : tensor<32x256xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<32x256xf32> loc("model.fc2")
    return %yb : tensor<32x256xf32>
  }
}
