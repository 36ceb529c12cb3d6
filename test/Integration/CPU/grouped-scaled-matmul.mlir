// fp8.grouped_scaled_matmul lowered by fp8-cpu-pipeline and run on the CPU,
// against its contract: every computed row equals fp8.scaled_matmul on the
// group's 2-D slices, here written out group by group with static shapes
// (each slice quantized on its own: 1x128 activation tiles and 128x128
// weight blocks never cross a row or a group, so the codes and scales are
// the grouped operands'), inserted into +0.0. Rows that are not computed
// (past a group's count, padding rows) must be +0.0 bit for bit, also with
// an accumulator. K = 200 (a K tail of 72 in the second promotion
// interval), N = 40 (a partial weight block).
//
// Masked: G = 3, M = 5, counts = [5, 0, 7] clamps to [5, 0, 5]; then
// counts = [1, 5, 0] (a single-row group, an empty one) with C; then no
// counts, bf16. Contiguous: G = 4, M = 9 (odd), m_alignment = 2, rows
// [1, 1, 1, -1, 0, -1, 2, 2, 2]: group 3 empty, group 0 a single row,
// padding rows between runs; with C in f32, then bf16.
// Printed per case: differing elements (bits), non-zero reference elements.
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline=tiled=false | %fp8_run | FileCheck %s

#id2 = affine_map<(i, j) -> (i, j)>
#id3 = affine_map<(e, i, j) -> (e, i, j)>
#red2 = affine_map<(i, j) -> ()>
#red3 = affine_map<(e, i, j) -> ()>

// x = sin(0.37 i + 1.3 j + 0.5 e + seed) * (1 + e) * (1 + i / 4): blocks of
// different amax per group and row.
func.func @fill3(%t: tensor<?x?x?xf32>, %seed: f32) -> tensor<?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%t : tensor<?x?x?xf32>) {
  ^bb0(%o: f32):
    %e = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ei = arith.index_cast %e : index to i32
    %ii = arith.index_cast %i : index to i32
    %ji = arith.index_cast %j : index to i32
    %ef = arith.sitofp %ei : i32 to f32
    %if = arith.sitofp %ii : i32 to f32
    %jf = arith.sitofp %ji : i32 to f32
    %a = arith.constant 0.37 : f32
    %b = arith.constant 1.3 : f32
    %c = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %quarter = arith.constant 0.25 : f32
    %p0 = arith.mulf %if, %a : f32
    %p1 = arith.mulf %jf, %b : f32
    %p2 = arith.mulf %ef, %c : f32
    %s0 = arith.addf %p0, %p1 : f32
    %s1 = arith.addf %s0, %p2 : f32
    %s2 = arith.addf %s1, %seed : f32
    %sin = math.sin %s2 : f32
    %ge = arith.addf %ef, %one : f32
    %ri = arith.mulf %if, %quarter : f32
    %gr = arith.addf %ri, %one : f32
    %v0 = arith.mulf %sin, %ge : f32
    %v = arith.mulf %v0, %gr : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// x = sin(0.37 i + 1.3 j + 0.5 e + seed) * (1 + e) * (1 + i / 4): blocks of
// different amax per group and row.
func.func @fill2(%t: tensor<?x?xf32>, %seed: f32) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%t : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %e = arith.constant 0 : index
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ei = arith.index_cast %e : index to i32
    %ii = arith.index_cast %i : index to i32
    %ji = arith.index_cast %j : index to i32
    %ef = arith.sitofp %ei : i32 to f32
    %if = arith.sitofp %ii : i32 to f32
    %jf = arith.sitofp %ji : i32 to f32
    %a = arith.constant 0.37 : f32
    %b = arith.constant 1.3 : f32
    %c = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %quarter = arith.constant 0.25 : f32
    %p0 = arith.mulf %if, %a : f32
    %p1 = arith.mulf %jf, %b : f32
    %p2 = arith.mulf %ef, %c : f32
    %s0 = arith.addf %p0, %p1 : f32
    %s1 = arith.addf %s0, %p2 : f32
    %s2 = arith.addf %s1, %seed : f32
    %sin = math.sin %s2 : f32
    %ge = arith.addf %ef, %one : f32
    %ri = arith.mulf %if, %quarter : f32
    %gr = arith.addf %ri, %one : f32
    %v0 = arith.mulf %sin, %ge : f32
    %v = arith.mulf %v0, %gr : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Elements whose bits differ, and non-zero elements of the reference.
func.func @compare2(%ref: tensor<?x?xf32>, %got: tensor<?x?xf32>) {
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<i64>
  %z = linalg.fill ins(%c0 : i64) outs(%e : tensor<i64>) -> tensor<i64>
  %r:2 = linalg.generic {indexing_maps = [#id2, #id2, #red2, #red2], iterator_types = ["reduction", "reduction"]} ins(%ref, %got : tensor<?x?xf32>, tensor<?x?xf32>) outs(%z, %z : tensor<i64>, tensor<i64>) {
  ^bb0(%a: f32, %b: f32, %diff: i64, %nz: i64):
    %ai = arith.bitcast %a : f32 to i32
    %bi = arith.bitcast %b : f32 to i32
    %ne = arith.cmpi ne, %ai, %bi : i32
    %d1 = arith.extui %ne : i1 to i64
    %d = arith.addi %diff, %d1 : i64
    %zero = arith.constant 0.0 : f32
    %isnz = arith.cmpf une, %a, %zero : f32
    %n1 = arith.extui %isnz : i1 to i64
    %n = arith.addi %nz, %n1 : i64
    linalg.yield %d, %n : i64, i64
  } -> (tensor<i64>, tensor<i64>)
  %diffs = tensor.extract %r#0[] : tensor<i64>
  %nonzero = tensor.extract %r#1[] : tensor<i64>
  vector.print %diffs : i64
  vector.print %nonzero : i64
  return
}

// Elements whose bits differ, and non-zero elements of the reference.
func.func @compare3(%ref: tensor<?x?x?xf32>, %got: tensor<?x?x?xf32>) {
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<i64>
  %z = linalg.fill ins(%c0 : i64) outs(%e : tensor<i64>) -> tensor<i64>
  %r:2 = linalg.generic {indexing_maps = [#id3, #id3, #red3, #red3], iterator_types = ["reduction", "reduction", "reduction"]} ins(%ref, %got : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%z, %z : tensor<i64>, tensor<i64>) {
  ^bb0(%a: f32, %b: f32, %diff: i64, %nz: i64):
    %ai = arith.bitcast %a : f32 to i32
    %bi = arith.bitcast %b : f32 to i32
    %ne = arith.cmpi ne, %ai, %bi : i32
    %d1 = arith.extui %ne : i1 to i64
    %d = arith.addi %diff, %d1 : i64
    %zero = arith.constant 0.0 : f32
    %isnz = arith.cmpf une, %a, %zero : f32
    %n1 = arith.extui %isnz : i1 to i64
    %n = arith.addi %nz, %n1 : i64
    linalg.yield %d, %n : i64, i64
  } -> (tensor<i64>, tensor<i64>)
  %diffs = tensor.extract %r#0[] : tensor<i64>
  %nonzero = tensor.extract %r#1[] : tensor<i64>
  vector.print %diffs : i64
  vector.print %nonzero : i64
  return
}

func.func @grouped_m_clamp(%x: tensor<3x5x200xf32>, %w: tensor<3x40x200xf32>) -> tensor<3x5x40xf32> {
  %qx = fp8.quantize %x : tensor<3x5x200xf32> -> !fp8.scaled<3x5x200xf8E4M3FN, block = [1, 1, 128], scale = f32>
  %qw = fp8.quantize %w : tensor<3x40x200xf32> -> !fp8.scaled<3x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32>
  %n = arith.constant dense<[5, 0, 7]> : tensor<3xi32>
  %d = fp8.grouped_scaled_matmul masked %qx, %qw counts(%n : tensor<3xi32>) : !fp8.scaled<3x5x200xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<3x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<3x5x40xf32>
  return %d : tensor<3x5x40xf32>
}

func.func @ref_m_clamp(%x: tensor<3x5x200xf32>, %w: tensor<3x40x200xf32>) -> tensor<3x5x40xf32> {
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<3x5x40xf32>
  %r0 = linalg.fill ins(%zero : f32) outs(%o : tensor<3x5x40xf32>) -> tensor<3x5x40xf32>
  %xa0 = tensor.extract_slice %x[0, 0, 0] [1, 5, 200] [1, 1, 1] : tensor<3x5x200xf32> to tensor<5x200xf32>
  %xw0 = tensor.extract_slice %w[0, 0, 0] [1, 40, 200] [1, 1, 1] : tensor<3x40x200xf32> to tensor<40x200xf32>
  %qa0 = fp8.quantize %xa0 : tensor<5x200xf32> -> !fp8.scaled<5x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw0 = fp8.quantize %xw0 : tensor<40x200xf32> -> !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32>
  %d0 = fp8.scaled_matmul %qa0, %qw0 : !fp8.scaled<5x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<5x40xf32>
  %r1 = tensor.insert_slice %d0 into %r0[0, 0, 0] [1, 5, 40] [1, 1, 1] : tensor<5x40xf32> into tensor<3x5x40xf32>
  %xa1 = tensor.extract_slice %x[2, 0, 0] [1, 5, 200] [1, 1, 1] : tensor<3x5x200xf32> to tensor<5x200xf32>
  %xw1 = tensor.extract_slice %w[2, 0, 0] [1, 40, 200] [1, 1, 1] : tensor<3x40x200xf32> to tensor<40x200xf32>
  %qa1 = fp8.quantize %xa1 : tensor<5x200xf32> -> !fp8.scaled<5x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw1 = fp8.quantize %xw1 : tensor<40x200xf32> -> !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32>
  %d1 = fp8.scaled_matmul %qa1, %qw1 : !fp8.scaled<5x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<5x40xf32>
  %r2 = tensor.insert_slice %d1 into %r1[2, 0, 0] [1, 5, 40] [1, 1, 1] : tensor<5x40xf32> into tensor<3x5x40xf32>
  return %r2 : tensor<3x5x40xf32>
}

func.func @grouped_m_single(%x: tensor<3x5x200xf32>, %w: tensor<3x40x200xf32>, %c: tensor<3x5x40xf32>) -> tensor<3x5x40xf32> {
  %qx = fp8.quantize %x : tensor<3x5x200xf32> -> !fp8.scaled<3x5x200xf8E4M3FN, block = [1, 1, 128], scale = f32>
  %qw = fp8.quantize %w : tensor<3x40x200xf32> -> !fp8.scaled<3x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32>
  %n = arith.constant dense<[1, 5, 0]> : tensor<3xi32>
  %d = fp8.grouped_scaled_matmul masked %qx, %qw counts(%n : tensor<3xi32>) acc(%c : tensor<3x5x40xf32>) : !fp8.scaled<3x5x200xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<3x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<3x5x40xf32>
  return %d : tensor<3x5x40xf32>
}

func.func @ref_m_single(%x: tensor<3x5x200xf32>, %w: tensor<3x40x200xf32>, %c: tensor<3x5x40xf32>) -> tensor<3x5x40xf32> {
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<3x5x40xf32>
  %r0 = linalg.fill ins(%zero : f32) outs(%o : tensor<3x5x40xf32>) -> tensor<3x5x40xf32>
  %xa0 = tensor.extract_slice %x[0, 0, 0] [1, 1, 200] [1, 1, 1] : tensor<3x5x200xf32> to tensor<1x200xf32>
  %xw0 = tensor.extract_slice %w[0, 0, 0] [1, 40, 200] [1, 1, 1] : tensor<3x40x200xf32> to tensor<40x200xf32>
  %qa0 = fp8.quantize %xa0 : tensor<1x200xf32> -> !fp8.scaled<1x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw0 = fp8.quantize %xw0 : tensor<40x200xf32> -> !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32>
  %c0 = tensor.extract_slice %c[0, 0, 0] [1, 1, 40] [1, 1, 1] : tensor<3x5x40xf32> to tensor<1x40xf32>
  %d0 = fp8.scaled_matmul %qa0, %qw0 acc(%c0 : tensor<1x40xf32>) : !fp8.scaled<1x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<1x40xf32>
  %r1 = tensor.insert_slice %d0 into %r0[0, 0, 0] [1, 1, 40] [1, 1, 1] : tensor<1x40xf32> into tensor<3x5x40xf32>
  %xa1 = tensor.extract_slice %x[1, 0, 0] [1, 5, 200] [1, 1, 1] : tensor<3x5x200xf32> to tensor<5x200xf32>
  %xw1 = tensor.extract_slice %w[1, 0, 0] [1, 40, 200] [1, 1, 1] : tensor<3x40x200xf32> to tensor<40x200xf32>
  %qa1 = fp8.quantize %xa1 : tensor<5x200xf32> -> !fp8.scaled<5x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw1 = fp8.quantize %xw1 : tensor<40x200xf32> -> !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32>
  %c1 = tensor.extract_slice %c[1, 0, 0] [1, 5, 40] [1, 1, 1] : tensor<3x5x40xf32> to tensor<5x40xf32>
  %d1 = fp8.scaled_matmul %qa1, %qw1 acc(%c1 : tensor<5x40xf32>) : !fp8.scaled<5x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<5x40xf32>
  %r2 = tensor.insert_slice %d1 into %r1[1, 0, 0] [1, 5, 40] [1, 1, 1] : tensor<5x40xf32> into tensor<3x5x40xf32>
  return %r2 : tensor<3x5x40xf32>
}

func.func @grouped_m_all(%x: tensor<3x5x200xf32>, %w: tensor<3x40x200xf32>) -> tensor<3x5x40xbf16> {
  %qx = fp8.quantize %x : tensor<3x5x200xf32> -> !fp8.scaled<3x5x200xf8E4M3FN, block = [1, 1, 128], scale = f32>
  %qw = fp8.quantize %w : tensor<3x40x200xf32> -> !fp8.scaled<3x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32>
  %d = fp8.grouped_scaled_matmul masked %qx, %qw : !fp8.scaled<3x5x200xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<3x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<3x5x40xbf16>
  return %d : tensor<3x5x40xbf16>
}

func.func @ref_m_all(%x: tensor<3x5x200xf32>, %w: tensor<3x40x200xf32>) -> tensor<3x5x40xbf16> {
  %zero = arith.constant 0.0 : bf16
  %o = tensor.empty() : tensor<3x5x40xbf16>
  %r0 = linalg.fill ins(%zero : bf16) outs(%o : tensor<3x5x40xbf16>) -> tensor<3x5x40xbf16>
  %xa0 = tensor.extract_slice %x[0, 0, 0] [1, 5, 200] [1, 1, 1] : tensor<3x5x200xf32> to tensor<5x200xf32>
  %xw0 = tensor.extract_slice %w[0, 0, 0] [1, 40, 200] [1, 1, 1] : tensor<3x40x200xf32> to tensor<40x200xf32>
  %qa0 = fp8.quantize %xa0 : tensor<5x200xf32> -> !fp8.scaled<5x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw0 = fp8.quantize %xw0 : tensor<40x200xf32> -> !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32>
  %d0 = fp8.scaled_matmul %qa0, %qw0 : !fp8.scaled<5x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<5x40xbf16>
  %r1 = tensor.insert_slice %d0 into %r0[0, 0, 0] [1, 5, 40] [1, 1, 1] : tensor<5x40xbf16> into tensor<3x5x40xbf16>
  %xa1 = tensor.extract_slice %x[1, 0, 0] [1, 5, 200] [1, 1, 1] : tensor<3x5x200xf32> to tensor<5x200xf32>
  %xw1 = tensor.extract_slice %w[1, 0, 0] [1, 40, 200] [1, 1, 1] : tensor<3x40x200xf32> to tensor<40x200xf32>
  %qa1 = fp8.quantize %xa1 : tensor<5x200xf32> -> !fp8.scaled<5x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw1 = fp8.quantize %xw1 : tensor<40x200xf32> -> !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32>
  %d1 = fp8.scaled_matmul %qa1, %qw1 : !fp8.scaled<5x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<5x40xbf16>
  %r2 = tensor.insert_slice %d1 into %r1[1, 0, 0] [1, 5, 40] [1, 1, 1] : tensor<5x40xbf16> into tensor<3x5x40xbf16>
  %xa2 = tensor.extract_slice %x[2, 0, 0] [1, 5, 200] [1, 1, 1] : tensor<3x5x200xf32> to tensor<5x200xf32>
  %xw2 = tensor.extract_slice %w[2, 0, 0] [1, 40, 200] [1, 1, 1] : tensor<3x40x200xf32> to tensor<40x200xf32>
  %qa2 = fp8.quantize %xa2 : tensor<5x200xf32> -> !fp8.scaled<5x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw2 = fp8.quantize %xw2 : tensor<40x200xf32> -> !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32>
  %d2 = fp8.scaled_matmul %qa2, %qw2 : !fp8.scaled<5x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<5x40xbf16>
  %r3 = tensor.insert_slice %d2 into %r2[2, 0, 0] [1, 5, 40] [1, 1, 1] : tensor<5x40xbf16> into tensor<3x5x40xbf16>
  return %r3 : tensor<3x5x40xbf16>
}

func.func @grouped_c_f32(%x: tensor<9x200xf32>, %w: tensor<4x40x200xf32>, %c: tensor<9x40xf32>) -> tensor<9x40xf32> {
  %qx = fp8.quantize %x : tensor<9x200xf32> -> !fp8.scaled<9x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw = fp8.quantize %w : tensor<4x40x200xf32> -> !fp8.scaled<4x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32>
  %ids = arith.constant dense<[1, 1, 1, -1, 0, -1, 2, 2, 2]> : tensor<9xi32>
  %d = fp8.grouped_scaled_matmul contiguous %qx, %qw group_ids(%ids : tensor<9xi32>) acc(%c : tensor<9x40xf32>) {m_alignment = 2} : !fp8.scaled<9x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<9x40xf32>
  return %d : tensor<9x40xf32>
}

func.func @ref_c_f32(%x: tensor<9x200xf32>, %w: tensor<4x40x200xf32>, %c: tensor<9x40xf32>) -> tensor<9x40xf32> {
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<9x40xf32>
  %r0 = linalg.fill ins(%zero : f32) outs(%o : tensor<9x40xf32>) -> tensor<9x40xf32>
  %xa0 = tensor.extract_slice %x[0, 0] [3, 200] [1, 1] : tensor<9x200xf32> to tensor<3x200xf32>
  %xw0 = tensor.extract_slice %w[1, 0, 0] [1, 40, 200] [1, 1, 1] : tensor<4x40x200xf32> to tensor<40x200xf32>
  %qa0 = fp8.quantize %xa0 : tensor<3x200xf32> -> !fp8.scaled<3x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw0 = fp8.quantize %xw0 : tensor<40x200xf32> -> !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32>
  %c0 = tensor.extract_slice %c[0, 0] [3, 40] [1, 1] : tensor<9x40xf32> to tensor<3x40xf32>
  %d0 = fp8.scaled_matmul %qa0, %qw0 acc(%c0 : tensor<3x40xf32>) : !fp8.scaled<3x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<3x40xf32>
  %r1 = tensor.insert_slice %d0 into %r0[0, 0] [3, 40] [1, 1] : tensor<3x40xf32> into tensor<9x40xf32>
  %xa1 = tensor.extract_slice %x[4, 0] [1, 200] [1, 1] : tensor<9x200xf32> to tensor<1x200xf32>
  %xw1 = tensor.extract_slice %w[0, 0, 0] [1, 40, 200] [1, 1, 1] : tensor<4x40x200xf32> to tensor<40x200xf32>
  %qa1 = fp8.quantize %xa1 : tensor<1x200xf32> -> !fp8.scaled<1x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw1 = fp8.quantize %xw1 : tensor<40x200xf32> -> !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32>
  %c1 = tensor.extract_slice %c[4, 0] [1, 40] [1, 1] : tensor<9x40xf32> to tensor<1x40xf32>
  %d1 = fp8.scaled_matmul %qa1, %qw1 acc(%c1 : tensor<1x40xf32>) : !fp8.scaled<1x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<1x40xf32>
  %r2 = tensor.insert_slice %d1 into %r1[4, 0] [1, 40] [1, 1] : tensor<1x40xf32> into tensor<9x40xf32>
  %xa2 = tensor.extract_slice %x[6, 0] [3, 200] [1, 1] : tensor<9x200xf32> to tensor<3x200xf32>
  %xw2 = tensor.extract_slice %w[2, 0, 0] [1, 40, 200] [1, 1, 1] : tensor<4x40x200xf32> to tensor<40x200xf32>
  %qa2 = fp8.quantize %xa2 : tensor<3x200xf32> -> !fp8.scaled<3x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw2 = fp8.quantize %xw2 : tensor<40x200xf32> -> !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32>
  %c2 = tensor.extract_slice %c[6, 0] [3, 40] [1, 1] : tensor<9x40xf32> to tensor<3x40xf32>
  %d2 = fp8.scaled_matmul %qa2, %qw2 acc(%c2 : tensor<3x40xf32>) : !fp8.scaled<3x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<3x40xf32>
  %r3 = tensor.insert_slice %d2 into %r2[6, 0] [3, 40] [1, 1] : tensor<3x40xf32> into tensor<9x40xf32>
  return %r3 : tensor<9x40xf32>
}

func.func @grouped_c_bf16(%x: tensor<9x200xf32>, %w: tensor<4x40x200xf32>) -> tensor<9x40xbf16> {
  %qx = fp8.quantize %x : tensor<9x200xf32> -> !fp8.scaled<9x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw = fp8.quantize %w : tensor<4x40x200xf32> -> !fp8.scaled<4x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32>
  %ids = arith.constant dense<[1, 1, 1, -1, 0, -1, 2, 2, 2]> : tensor<9xi32>
  %d = fp8.grouped_scaled_matmul contiguous %qx, %qw group_ids(%ids : tensor<9xi32>) {m_alignment = 2} : !fp8.scaled<9x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<9x40xbf16>
  return %d : tensor<9x40xbf16>
}

func.func @ref_c_bf16(%x: tensor<9x200xf32>, %w: tensor<4x40x200xf32>) -> tensor<9x40xbf16> {
  %zero = arith.constant 0.0 : bf16
  %o = tensor.empty() : tensor<9x40xbf16>
  %r0 = linalg.fill ins(%zero : bf16) outs(%o : tensor<9x40xbf16>) -> tensor<9x40xbf16>
  %xa0 = tensor.extract_slice %x[0, 0] [3, 200] [1, 1] : tensor<9x200xf32> to tensor<3x200xf32>
  %xw0 = tensor.extract_slice %w[1, 0, 0] [1, 40, 200] [1, 1, 1] : tensor<4x40x200xf32> to tensor<40x200xf32>
  %qa0 = fp8.quantize %xa0 : tensor<3x200xf32> -> !fp8.scaled<3x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw0 = fp8.quantize %xw0 : tensor<40x200xf32> -> !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32>
  %d0 = fp8.scaled_matmul %qa0, %qw0 : !fp8.scaled<3x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<3x40xbf16>
  %r1 = tensor.insert_slice %d0 into %r0[0, 0] [3, 40] [1, 1] : tensor<3x40xbf16> into tensor<9x40xbf16>
  %xa1 = tensor.extract_slice %x[4, 0] [1, 200] [1, 1] : tensor<9x200xf32> to tensor<1x200xf32>
  %xw1 = tensor.extract_slice %w[0, 0, 0] [1, 40, 200] [1, 1, 1] : tensor<4x40x200xf32> to tensor<40x200xf32>
  %qa1 = fp8.quantize %xa1 : tensor<1x200xf32> -> !fp8.scaled<1x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw1 = fp8.quantize %xw1 : tensor<40x200xf32> -> !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32>
  %d1 = fp8.scaled_matmul %qa1, %qw1 : !fp8.scaled<1x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<1x40xbf16>
  %r2 = tensor.insert_slice %d1 into %r1[4, 0] [1, 40] [1, 1] : tensor<1x40xbf16> into tensor<9x40xbf16>
  %xa2 = tensor.extract_slice %x[6, 0] [3, 200] [1, 1] : tensor<9x200xf32> to tensor<3x200xf32>
  %xw2 = tensor.extract_slice %w[2, 0, 0] [1, 40, 200] [1, 1, 1] : tensor<4x40x200xf32> to tensor<40x200xf32>
  %qa2 = fp8.quantize %xa2 : tensor<3x200xf32> -> !fp8.scaled<3x200xf8E4M3FN, block = [1, 128], scale = f32>
  %qw2 = fp8.quantize %xw2 : tensor<40x200xf32> -> !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32>
  %d2 = fp8.scaled_matmul %qa2, %qw2 : !fp8.scaled<3x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x200xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<3x40xbf16>
  %r3 = tensor.insert_slice %d2 into %r2[6, 0] [3, 40] [1, 1] : tensor<3x40xbf16> into tensor<9x40xbf16>
  return %r3 : tensor<9x40xbf16>
}

func.func @main() {
  %s0 = arith.constant 0.0 : f32
  %s1 = arith.constant 0.7 : f32
  %s2 = arith.constant 2.1 : f32
  %xme = tensor.empty() : tensor<3x5x200xf32>
  %xmc = tensor.cast %xme : tensor<3x5x200xf32> to tensor<?x?x?xf32>
  %xmf = call @fill3(%xmc, %s0) : (tensor<?x?x?xf32>, f32) -> tensor<?x?x?xf32>
  %xm = tensor.cast %xmf : tensor<?x?x?xf32> to tensor<3x5x200xf32>
  %wme = tensor.empty() : tensor<3x40x200xf32>
  %wmc = tensor.cast %wme : tensor<3x40x200xf32> to tensor<?x?x?xf32>
  %wmf = call @fill3(%wmc, %s1) : (tensor<?x?x?xf32>, f32) -> tensor<?x?x?xf32>
  %wm = tensor.cast %wmf : tensor<?x?x?xf32> to tensor<3x40x200xf32>
  %cme = tensor.empty() : tensor<3x5x40xf32>
  %cmc = tensor.cast %cme : tensor<3x5x40xf32> to tensor<?x?x?xf32>
  %cmf = call @fill3(%cmc, %s2) : (tensor<?x?x?xf32>, f32) -> tensor<?x?x?xf32>
  %cm = tensor.cast %cmf : tensor<?x?x?xf32> to tensor<3x5x40xf32>
  %xce = tensor.empty() : tensor<9x200xf32>
  %xcc = tensor.cast %xce : tensor<9x200xf32> to tensor<?x?xf32>
  %xcf = call @fill2(%xcc, %s0) : (tensor<?x?xf32>, f32) -> tensor<?x?xf32>
  %xc = tensor.cast %xcf : tensor<?x?xf32> to tensor<9x200xf32>
  %wce = tensor.empty() : tensor<4x40x200xf32>
  %wcc = tensor.cast %wce : tensor<4x40x200xf32> to tensor<?x?x?xf32>
  %wcf = call @fill3(%wcc, %s1) : (tensor<?x?x?xf32>, f32) -> tensor<?x?x?xf32>
  %wc = tensor.cast %wcf : tensor<?x?x?xf32> to tensor<4x40x200xf32>
  %cce = tensor.empty() : tensor<9x40xf32>
  %ccc = tensor.cast %cce : tensor<9x40xf32> to tensor<?x?xf32>
  %ccf = call @fill2(%ccc, %s2) : (tensor<?x?xf32>, f32) -> tensor<?x?xf32>
  %cc = tensor.cast %ccf : tensor<?x?xf32> to tensor<9x40xf32>
  %cmb = arith.truncf %cm : tensor<3x5x40xf32> to tensor<3x5x40xbf16>
  %g_m_clamp = call @grouped_m_clamp(%xm, %wm) : (tensor<3x5x200xf32>, tensor<3x40x200xf32>) -> tensor<3x5x40xf32>
  %r_m_clamp = call @ref_m_clamp(%xm, %wm) : (tensor<3x5x200xf32>, tensor<3x40x200xf32>) -> tensor<3x5x40xf32>
  %gd_m_clamp = tensor.cast %g_m_clamp : tensor<3x5x40xf32> to tensor<?x?x?xf32>
  %rd_m_clamp = tensor.cast %r_m_clamp : tensor<3x5x40xf32> to tensor<?x?x?xf32>
  call @compare3(%rd_m_clamp, %gd_m_clamp) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> ()
  %g_m_single = call @grouped_m_single(%xm, %wm, %cm) : (tensor<3x5x200xf32>, tensor<3x40x200xf32>, tensor<3x5x40xf32>) -> tensor<3x5x40xf32>
  %r_m_single = call @ref_m_single(%xm, %wm, %cm) : (tensor<3x5x200xf32>, tensor<3x40x200xf32>, tensor<3x5x40xf32>) -> tensor<3x5x40xf32>
  %gd_m_single = tensor.cast %g_m_single : tensor<3x5x40xf32> to tensor<?x?x?xf32>
  %rd_m_single = tensor.cast %r_m_single : tensor<3x5x40xf32> to tensor<?x?x?xf32>
  call @compare3(%rd_m_single, %gd_m_single) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> ()
  %g_m_all = call @grouped_m_all(%xm, %wm) : (tensor<3x5x200xf32>, tensor<3x40x200xf32>) -> tensor<3x5x40xbf16>
  %r_m_all = call @ref_m_all(%xm, %wm) : (tensor<3x5x200xf32>, tensor<3x40x200xf32>) -> tensor<3x5x40xbf16>
  %ge_m_all = arith.extf %g_m_all : tensor<3x5x40xbf16> to tensor<3x5x40xf32>
  %re_m_all = arith.extf %r_m_all : tensor<3x5x40xbf16> to tensor<3x5x40xf32>
  %gd_m_all = tensor.cast %ge_m_all : tensor<3x5x40xf32> to tensor<?x?x?xf32>
  %rd_m_all = tensor.cast %re_m_all : tensor<3x5x40xf32> to tensor<?x?x?xf32>
  call @compare3(%rd_m_all, %gd_m_all) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> ()
  %g_c_f32 = call @grouped_c_f32(%xc, %wc, %cc) : (tensor<9x200xf32>, tensor<4x40x200xf32>, tensor<9x40xf32>) -> tensor<9x40xf32>
  %r_c_f32 = call @ref_c_f32(%xc, %wc, %cc) : (tensor<9x200xf32>, tensor<4x40x200xf32>, tensor<9x40xf32>) -> tensor<9x40xf32>
  %gd_c_f32 = tensor.cast %g_c_f32 : tensor<9x40xf32> to tensor<?x?xf32>
  %rd_c_f32 = tensor.cast %r_c_f32 : tensor<9x40xf32> to tensor<?x?xf32>
  call @compare2(%rd_c_f32, %gd_c_f32) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()
  %g_c_bf16 = call @grouped_c_bf16(%xc, %wc) : (tensor<9x200xf32>, tensor<4x40x200xf32>) -> tensor<9x40xbf16>
  %r_c_bf16 = call @ref_c_bf16(%xc, %wc) : (tensor<9x200xf32>, tensor<4x40x200xf32>) -> tensor<9x40xbf16>
  %ge_c_bf16 = arith.extf %g_c_bf16 : tensor<9x40xbf16> to tensor<9x40xf32>
  %re_c_bf16 = arith.extf %r_c_bf16 : tensor<9x40xbf16> to tensor<9x40xf32>
  %gd_c_bf16 = tensor.cast %ge_c_bf16 : tensor<9x40xf32> to tensor<?x?xf32>
  %rd_c_bf16 = tensor.cast %re_c_bf16 : tensor<9x40xf32> to tensor<?x?xf32>
  call @compare2(%rd_c_bf16, %gd_c_bf16) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()
  return
}

// m_clamp: 0 differing, 400 non-zero reference elements
// CHECK: 0
// CHECK-NEXT: 400
// m_single: 0 differing, 240 non-zero reference elements
// CHECK: 0
// CHECK-NEXT: 240
// m_all: 0 differing, 600 non-zero reference elements
// CHECK: 0
// CHECK-NEXT: 600
// c_f32: 0 differing, 280 non-zero reference elements
// CHECK: 0
// CHECK-NEXT: 280
// c_bf16: 0 differing, 280 non-zero reference elements
// CHECK: 0
// CHECK-NEXT: 280
