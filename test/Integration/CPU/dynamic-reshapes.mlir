// A [G * M, H] activation viewed as [G, M, H] with G and M both run-time
// values (a graph exported with a dynamic batch and sequence), through
// fp8-cpu-pipeline and run on the CPU: the view (two run-time sizes in one
// reassociation group, which MLIR 22's expand-strided-metadata cannot
// lower; fp8-resolve-expand-shapes writes it first) must address row
// g * M + m of the source. Row r of the source holds 10 r + c in column c;
// the op adds 100 g, so element [g, m, c] is 10 (g M + m) + c + 100 g,
// derived by hand below for G = 2, M = 3. The second case views a column
// slice (a source with a run-time row stride of 4 and an offset of 1).
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline=tiled=false | %fp8_run | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

// 10 r + c at [r, c].
func.func @rows(%r: index, %c: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%r, %c) : tensor<?x?xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ten = arith.constant 10 : index
    %i10 = arith.muli %i, %ten : index
    %v = arith.addi %i10, %j : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    linalg.yield %vf : f32
  } -> tensor<?x?xf32>
  return %t : tensor<?x?xf32>
}

// [G * M, H] viewed as [G, M, H], plus 100 g.
func.func @view(%t: tensor<?x?xf32>, %g: index, %m: index, %h: index) {
  %v = tensor.expand_shape %t [[0, 1], [2]] output_shape [%g, %m, %h]
      : tensor<?x?xf32> into tensor<?x?x?xf32>
  %e = tensor.empty(%g, %m, %h) : tensor<?x?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(g, m, c) -> (g, m, c)>,
                                        affine_map<(g, m, c) -> (g, m, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v : tensor<?x?x?xf32>) outs(%e : tensor<?x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %gi = linalg.index 0 : index
    %hundred = arith.constant 100 : index
    %g100 = arith.muli %gi, %hundred : index
    %gv = arith.index_cast %g100 : index to i32
    %gf = arith.sitofp %gv : i32 to f32
    %y = arith.addf %x, %gf : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?xf32>
  %buf = bufferization.to_buffer %r : tensor<?x?x?xf32> to memref<?x?x?xf32>
  %u = memref.cast %buf : memref<?x?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  // CHECK: sizes = [2, 3, 2]
  // CHECK-NEXT: {{\[\[\[}}0, 1],
  // CHECK-NEXT: [10, 11],
  // CHECK-NEXT: [20, 21]],
  // CHECK-NEXT: {{\[\[}}130, 131],
  // CHECK-NEXT: [140, 141],
  // CHECK-NEXT: [150, 151]]]
  %t = call @rows(%c6, %c2) : (index, index) -> tensor<?x?xf32>
  call @view(%t, %c2, %c3, %c2) : (tensor<?x?xf32>, index, index, index) -> ()
  // Columns 1 and 2 of a [6, 4] source: 10 r + c + 1 + 100 g.
  // CHECK: sizes = [2, 3, 2]
  // CHECK-NEXT: {{\[\[\[}}1, 2],
  // CHECK-NEXT: [11, 12],
  // CHECK-NEXT: [21, 22]],
  // CHECK-NEXT: {{\[\[}}131, 132],
  // CHECK-NEXT: [141, 142],
  // CHECK-NEXT: [151, 152]]]
  %w = call @rows(%c6, %c4) : (index, index) -> tensor<?x?xf32>
  %s = tensor.extract_slice %w[0, %c1] [%c6, %c2] [1, 1]
      : tensor<?x?xf32> to tensor<?x?xf32>
  call @view(%s, %c2, %c3, %c2) : (tensor<?x?xf32>, index, index, index) -> ()
  return
}
