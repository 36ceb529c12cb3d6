// Values of exporter forms that fp8-pipeline rewrites (IR and roles in
// test/Dialect/FP8/Pipelines/exporter-forms.mlir), through
// fp8-cpu-pipeline: torch-mlir's bmm against a [1, K, N] weight expanded
// over the batch at index 0 (one FP8 GEMM), a StableHLO dot_general with the
// batch dims last against a broadcast weight (one FP8 GEMM), and a dense
// top-1 MoE whose experts are grouped FP8 GEMMs against [E, K, N] argument
// weights.
//
// Values derived by hand, exact in FP8 (as in linalg22-forms.mlir): token m
// holds c_m = 7 * 2^m in every element (a 1x128 block's amax, every code
// 448).
// - bmm: w(k, n) = 7/16 for k <= n, else 0, so y[m, n] = 49/16 * 2^m *
//   (n + 1), printed at n = 0, 127, 255: [3.0625, 392, 784] and
//   [6.125, 784, 1568]. The same for the dot_general, whose two batches
//   (stored last) hold one token each.
// - MoE (E = 4, H = F = 256): the router's weight is 1/256 in column 1
//   only, so the logits are [0, c_m, 0, 0] and the top-1 gate is 1 for
//   expert 1, 0 for the others. Expert e's up weight is 7/16 * 2^-e in row
//   k = 0 only: up[e][m][f] = 49/16 * 2^(m - e) for every f (one value per
//   token block, exact). The down weight is w(k, n) above for every
//   expert: down[e][m][n] = 343/256 * 2^(m - e) * (n + 1). The combine
//   keeps expert 1: y[m, n] = 343/512 * 2^m * (n + 1): [0.669922, 85.75,
//   171.5] and [1.33984, 171.5, 343]. Another expert's weights (a wrong
//   group index) would scale the row by a power of two.
//
// RUN: fp8-opt %s --fp8-pipeline="report=false" -o %t.fp8 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.fp8
// RUN: fp8-opt %t.fp8 --fp8-cpu-pipeline | %fp8_run | FileCheck %s

// IR-LABEL: func.func @bmm_expand0
// IR: fp8.scaled_matmul
// IR-LABEL: func.func @dot_general_batch_last
// IR: fp8.scaled_matmul
// IR-LABEL: func.func @moe_dense
// IR-COUNT-2: fp8.grouped_scaled_matmul

// CHECK: {{\[\[}}3.0625,   392,   784],
// CHECK-NEXT: [6.125,   784,   1568]]
// CHECK: {{\[\[}}3.0625,   392,   784],
// CHECK-NEXT: [6.125,   784,   1568]]
// CHECK: {{\[\[}}0.669922,   85.75,   171.5],
// CHECK-NEXT: [1.33984,   171.5,   343]]

#kn = affine_map<(k, n) -> (k, n)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bc0 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#r1 = affine_map<(d0, d1) -> (d0)>
#et = affine_map<(e, t, f) -> (t, e)>
#red = affine_map<(e, t, f) -> (t, f)>

func.func private @printMemrefF32(memref<*xf32>)

// Two batches of one token each, the [1, K, N] weight expanded over them.
func.func @bmm_expand0(%x: tensor<2x256xf32>, %w: tensor<1x256x256xf32>) -> tensor<2x256xf32> {
  %z = arith.constant 0.0 : f32
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 1, 256] : tensor<2x256xf32> into tensor<2x1x256xf32>
  %ew = tensor.empty() : tensor<2x256x256xf32>
  %wb = linalg.generic {indexing_maps = [#bc0, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<1x256x256xf32>) outs(%ew : tensor<2x256x256xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<2x256x256xf32>
  %e = tensor.empty() : tensor<2x1x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x1x256xf32>) -> tensor<2x1x256xf32>
  %y = linalg.batch_matmul ins(%x3, %wb : tensor<2x1x256xf32>, tensor<2x256x256xf32>) outs(%f : tensor<2x1x256xf32>) -> tensor<2x1x256xf32>
  %r = tensor.collapse_shape %y [[0, 1], [2]] : tensor<2x1x256xf32> into tensor<2x256xf32>
  return %r : tensor<2x256xf32>
}

// `mkb,knb->bmn`: the tokens [M = 1, K, B = 2], the weight broadcast to
// [K, N, B].
func.func @dot_general_batch_last(%x: tensor<1x256x2xf32>, %w: tensor<256x256xf32>) -> tensor<2x256xf32> {
  %z = arith.constant 0.0 : f32
  %ew = tensor.empty() : tensor<256x256x2xf32>
  %wb = linalg.generic {indexing_maps = [affine_map<(k, n, b) -> (k, n)>, affine_map<(k, n, b) -> (k, n, b)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<256x256xf32>) outs(%ew : tensor<256x256x2xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<256x256x2xf32>
  %e = tensor.empty() : tensor<2x1x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x1x256xf32>) -> tensor<2x1x256xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k, b)>, affine_map<(b, m, n, k) -> (k, n, b)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %wb : tensor<1x256x2xf32>, tensor<256x256x2xf32>) outs(%f : tensor<2x1x256xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x1x256xf32>
  %r = tensor.collapse_shape %y [[0, 1], [2]] : tensor<2x1x256xf32> into tensor<2x256xf32>
  return %r : tensor<2x256xf32>
}

func.func @moe_dense(%x: tensor<2x256xf32>, %wg: tensor<256x4xf32>, %wup: tensor<4x256x256xf32>, %wdown: tensor<4x256x256xf32>) -> tensor<2x256xf32> {
  %c0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %el = tensor.empty() : tensor<2x4xf32>
  %zl = linalg.fill ins(%c0 : f32) outs(%el : tensor<2x4xf32>) -> tensor<2x4xf32>
  %logits = linalg.matmul ins(%x, %wg : tensor<2x256xf32>, tensor<256x4xf32>) outs(%zl : tensor<2x4xf32>) -> tensor<2x4xf32>
  %em = tensor.empty() : tensor<2xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<2xf32>) -> tensor<2xf32>
  %mx = linalg.generic {indexing_maps = [#kn, #r1], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<2x4xf32>) outs(%fm : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %gate = linalg.generic {indexing_maps = [#kn, #r1, #kn], iterator_types = ["parallel", "parallel"]}
      ins(%logits, %mx : tensor<2x4xf32>, tensor<2xf32>) outs(%el : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %eq = arith.cmpf oeq, %a, %b : f32
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    %v = arith.select %eq, %e, %c0 : f32
    linalg.yield %v : f32
  } -> tensor<2x4xf32>
  %ex = tensor.empty() : tensor<4x2x256xf32>
  %xb = linalg.broadcast ins(%x : tensor<2x256xf32>) outs(%ex : tensor<4x2x256xf32>) dimensions = [0]
  %zu = linalg.fill ins(%c0 : f32) outs(%ex : tensor<4x2x256xf32>) -> tensor<4x2x256xf32>
  %up = linalg.batch_matmul ins(%xb, %wup : tensor<4x2x256xf32>, tensor<4x256x256xf32>) outs(%zu : tensor<4x2x256xf32>) -> tensor<4x2x256xf32>
  %down = linalg.batch_matmul ins(%up, %wdown : tensor<4x2x256xf32>, tensor<4x256x256xf32>) outs(%zu : tensor<4x2x256xf32>) -> tensor<4x2x256xf32>
  %ey = tensor.empty() : tensor<2x256xf32>
  %zy = linalg.fill ins(%c0 : f32) outs(%ey : tensor<2x256xf32>) -> tensor<2x256xf32>
  %y = linalg.generic {indexing_maps = [#id3, #et, #red], iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%down, %gate : tensor<4x2x256xf32>, tensor<2x4xf32>) outs(%zy : tensor<2x256xf32>) {
  ^bb0(%a: f32, %g: f32, %o: f32):
    %m = arith.mulf %a, %g : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x256xf32>
  return %y : tensor<2x256xf32>
}

// Columns 0, 127 and 255 of each row.
func.func @print2(%t: tensor<2x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c127 = arith.constant 127 : index
  %c255 = arith.constant 255 : index
  %a = tensor.extract %t[%c0, %c0] : tensor<2x256xf32>
  %b = tensor.extract %t[%c0, %c127] : tensor<2x256xf32>
  %c = tensor.extract %t[%c0, %c255] : tensor<2x256xf32>
  %d = tensor.extract %t[%c1, %c0] : tensor<2x256xf32>
  %e = tensor.extract %t[%c1, %c127] : tensor<2x256xf32>
  %f = tensor.extract %t[%c1, %c255] : tensor<2x256xf32>
  %s = tensor.from_elements %a, %b, %c, %d, %e, %f : tensor<2x3xf32>
  %m = bufferization.to_buffer %s : tensor<2x3xf32> to memref<2x3xf32>
  %u = memref.cast %m : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// 7/16 when k <= n.
func.func @tri(%k: index, %n: index) -> f32 {
  %le = arith.cmpi ule, %k, %n : index
  %w = arith.constant 0.4375 : f32
  %zero = arith.constant 0.0 : f32
  %v = arith.select %le, %w, %zero : f32
  return %v : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  // Tokens: row m holds 7 * 2^m.
  %ex = tensor.empty() : tensor<2x256xf32>
  %x = linalg.generic {indexing_maps = [#kn], iterator_types = ["parallel", "parallel"]} outs(%ex : tensor<2x256xf32>) {
  ^bb0(%out: f32):
    %m = linalg.index 0 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %p = math.powf %two, %mf : f32
    %seven = arith.constant 7.0 : f32
    %v = arith.mulf %seven, %p : f32
    linalg.yield %v : f32
  } -> tensor<2x256xf32>
  %ew = tensor.empty() : tensor<256x256xf32>
  %wkn = linalg.generic {indexing_maps = [#kn], iterator_types = ["parallel", "parallel"]} outs(%ew : tensor<256x256xf32>) {
  ^bb0(%out: f32):
    %k = linalg.index 0 : index
    %n = linalg.index 1 : index
    %v = func.call @tri(%k, %n) : (index, index) -> f32
    linalg.yield %v : f32
  } -> tensor<256x256xf32>
  %w1 = tensor.expand_shape %wkn [[0, 1], [2]] output_shape [1, 256, 256] : tensor<256x256xf32> into tensor<1x256x256xf32>
  %y1 = call @bmm_expand0(%x, %w1) : (tensor<2x256xf32>, tensor<1x256x256xf32>) -> tensor<2x256xf32>
  call @print2(%y1) : (tensor<2x256xf32>) -> ()
  %ext = tensor.empty() : tensor<256x2xf32>
  %xt = linalg.transpose ins(%x : tensor<2x256xf32>) outs(%ext : tensor<256x2xf32>) permutation = [1, 0]
  %xkb = tensor.expand_shape %xt [[0, 1], [2]] output_shape [1, 256, 2] : tensor<256x2xf32> into tensor<1x256x2xf32>
  %yd = call @dot_general_batch_last(%xkb, %wkn) : (tensor<1x256x2xf32>, tensor<256x256xf32>) -> tensor<2x256xf32>
  call @print2(%yd) : (tensor<2x256xf32>) -> ()

  // Router: 1/256 in column 1.
  %eg = tensor.empty() : tensor<256x4xf32>
  %wg = linalg.generic {indexing_maps = [#kn], iterator_types = ["parallel", "parallel"]} outs(%eg : tensor<256x4xf32>) {
  ^bb0(%out: f32):
    %e = linalg.index 1 : index
    %is1 = arith.cmpi eq, %e, %c1 : index
    %w = arith.constant 0.00390625 : f32
    %v = arith.select %is1, %w, %zero : f32
    linalg.yield %v : f32
  } -> tensor<256x4xf32>
  // Up: 7/16 * 2^-e in row k = 0. Down: the triangular weight for every expert.
  %e3 = tensor.empty() : tensor<4x256x256xf32>
  %wup = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e3 : tensor<4x256x256xf32>) {
  ^bb0(%out: f32):
    %e = linalg.index 0 : index
    %k = linalg.index 1 : index
    %ei = arith.index_cast %e : index to i32
    %ef = arith.sitofp %ei : i32 to f32
    %ne = arith.negf %ef : f32
    %p = math.powf %two, %ne : f32
    %w = arith.constant 0.4375 : f32
    %s = arith.mulf %w, %p : f32
    %row0 = arith.cmpi eq, %k, %c0 : index
    %v = arith.select %row0, %s, %zero : f32
    linalg.yield %v : f32
  } -> tensor<4x256x256xf32>
  %wdown = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e3 : tensor<4x256x256xf32>) {
  ^bb0(%out: f32):
    %k = linalg.index 1 : index
    %n = linalg.index 2 : index
    %v = func.call @tri(%k, %n) : (index, index) -> f32
    linalg.yield %v : f32
  } -> tensor<4x256x256xf32>
  %y2 = call @moe_dense(%x, %wg, %wup, %wdown) : (tensor<2x256xf32>, tensor<256x4xf32>, tensor<4x256x256xf32>, tensor<4x256x256xf32>) -> tensor<2x256xf32>
  call @print2(%y2) : (tensor<2x256xf32>) -> ()
  return
}
