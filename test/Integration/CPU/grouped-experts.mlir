// A grouped linear (MoE routed experts: linalg.batch_matmul over per-expert
// weights), rewritten by fp8-insert-quant into one fp8.grouped_scaled_matmul
// (masked layout, every row valid) for all experts, against its definition: each expert quantized and
// multiplied on its own (explicit fp8.quantize + fp8.scaled_matmul per
// expert, the deepseek-v3 blocks written out). Run on the CPU, the two must
// agree bit for bit; every reference element is non-zero, so the
// comparison is not vacuous. Two forms: f32 with N = 192, which the 128-row
// weight block does not divide (weights quantized [E, N, K] with block
// [1, 128, 128]), and bf16 with a non-zero init (the accumulator of each
// expert) and N = 256 (weights collapsed to [E * N, K]).
//
// RUN: fp8-opt %s --fp8-insert-quant --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-insert-quant | FileCheck %s --check-prefix=IR

// IR-LABEL: func.func @grouped_f32
// IR-NOT: scf.for
// IR: fp8.grouped_scaled_matmul masked %{{.*}}, %{{.*}} {{{.*}}} : !fp8.scaled<3x8x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<3x192x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<3x8x192xf32>
// IR-NOT: fp8.scaled_matmul
// IR-LABEL: func.func @expert_f32
// IR-LABEL: func.func @grouped_bf16
// IR-NOT: scf.for
// IR: fp8.grouped_scaled_matmul masked %{{.*}}, %{{.*}} acc(%{{.*}} : tensor<2x16x256xbf16>)
// IR-NOT: fp8.scaled_matmul
// IR-LABEL: func.func @expert_bf16

#id3 = affine_map<(e, i, j) -> (e, i, j)>
#red3 = affine_map<(e, i, j) -> ()>

// x[e, i, j] = sin(0.37 i + 1.3 j + 0.5 e) * (1 + e) * (1 + i / 4): blocks
// of different amax per expert and per row.
func.func @fill_f32(%t: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
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
    %sin = math.sin %s1 : f32
    %ge = arith.addf %ef, %one : f32
    %ri = arith.mulf %if, %quarter : f32
    %gr = arith.addf %ri, %one : f32
    %v0 = arith.mulf %sin, %ge : f32
    %v = arith.mulf %v0, %gr : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// Elements whose bits differ, and non-zero elements of the reference.
func.func @compare_f32(%ref: tensor<?x?x?xf32>, %got: tensor<?x?x?xf32>) {
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

func.func @grouped_f32(%x: tensor<3x8x256xf32>, %w: tensor<3x192x256xf32>) -> tensor<3x8x192xf32> {
  %e = tensor.empty() : tensor<3x256x192xf32>
  %wt = linalg.transpose ins(%w : tensor<3x192x256xf32>) outs(%e : tensor<3x256x192xf32>) permutation = [0, 2, 1]
  %cst = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<3x8x192xf32>
  %f = linalg.fill ins(%cst : f32) outs(%o : tensor<3x8x192xf32>) -> tensor<3x8x192xf32>
  %y = linalg.batch_matmul {fp8.role = #fp8.role<linear>, fp8.precision = #fp8.precision<fp8>} ins(%x, %wt : tensor<3x8x256xf32>, tensor<3x256x192xf32>) outs(%f : tensor<3x8x192xf32>) -> tensor<3x8x192xf32>
  return %y : tensor<3x8x192xf32>
}

func.func @expert_f32(%x: tensor<3x8x256xf32>, %w: tensor<3x192x256xf32>, %g: index) -> tensor<8x192xf32> {
  %xg = tensor.extract_slice %x[%g, 0, 0] [1, 8, 256] [1, 1, 1] : tensor<3x8x256xf32> to tensor<8x256xf32>
  %wg = tensor.extract_slice %w[%g, 0, 0] [1, 192, 256] [1, 1, 1] : tensor<3x192x256xf32> to tensor<192x256xf32>
  %qx = fp8.quantize %xg : tensor<8x256xf32> -> !fp8.scaled<8x256xf8E4M3FN, block = [1, 128], scale = f32>
  %qw = fp8.quantize %wg : tensor<192x256xf32> -> !fp8.scaled<192x256xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %qx, %qw : !fp8.scaled<8x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<192x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<8x192xf32>
  return %d : tensor<8x192xf32>
}

func.func @reference_f32(%x: tensor<3x8x256xf32>, %w: tensor<3x192x256xf32>) -> tensor<3x8x192xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %o = tensor.empty() : tensor<3x8x192xf32>
  %d0 = call @expert_f32(%x, %w, %c0) : (tensor<3x8x256xf32>, tensor<3x192x256xf32>, index) -> tensor<8x192xf32>
  %d1 = call @expert_f32(%x, %w, %c1) : (tensor<3x8x256xf32>, tensor<3x192x256xf32>, index) -> tensor<8x192xf32>
  %d2 = call @expert_f32(%x, %w, %c2) : (tensor<3x8x256xf32>, tensor<3x192x256xf32>, index) -> tensor<8x192xf32>
  %r0 = tensor.insert_slice %d0 into %o[0, 0, 0] [1, 8, 192] [1, 1, 1] : tensor<8x192xf32> into tensor<3x8x192xf32>
  %r1 = tensor.insert_slice %d1 into %r0[1, 0, 0] [1, 8, 192] [1, 1, 1] : tensor<8x192xf32> into tensor<3x8x192xf32>
  %r2 = tensor.insert_slice %d2 into %r1[2, 0, 0] [1, 8, 192] [1, 1, 1] : tensor<8x192xf32> into tensor<3x8x192xf32>
  return %r2 : tensor<3x8x192xf32>
}

func.func @grouped_bf16(%x: tensor<2x16x128xbf16>, %w: tensor<2x256x128xbf16>, %c: tensor<2x16x256xbf16>) -> tensor<2x16x256xbf16> {
  %e = tensor.empty() : tensor<2x128x256xbf16>
  %wt = linalg.transpose ins(%w : tensor<2x256x128xbf16>) outs(%e : tensor<2x128x256xbf16>) permutation = [0, 2, 1]
  %y = linalg.batch_matmul {fp8.role = #fp8.role<linear>, fp8.precision = #fp8.precision<fp8>} ins(%x, %wt : tensor<2x16x128xbf16>, tensor<2x128x256xbf16>) outs(%c : tensor<2x16x256xbf16>) -> tensor<2x16x256xbf16>
  return %y : tensor<2x16x256xbf16>
}

func.func @expert_bf16(%x: tensor<2x16x128xbf16>, %w: tensor<2x256x128xbf16>, %c: tensor<2x16x256xbf16>, %g: index) -> tensor<16x256xbf16> {
  %xg = tensor.extract_slice %x[%g, 0, 0] [1, 16, 128] [1, 1, 1] : tensor<2x16x128xbf16> to tensor<16x128xbf16>
  %wg = tensor.extract_slice %w[%g, 0, 0] [1, 256, 128] [1, 1, 1] : tensor<2x256x128xbf16> to tensor<256x128xbf16>
  %cg = tensor.extract_slice %c[%g, 0, 0] [1, 16, 256] [1, 1, 1] : tensor<2x16x256xbf16> to tensor<16x256xbf16>
  %qx = fp8.quantize %xg : tensor<16x128xbf16> -> !fp8.scaled<16x128xf8E4M3FN, block = [1, 128], scale = f32>
  %qw = fp8.quantize %wg : tensor<256x128xbf16> -> !fp8.scaled<256x128xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %qx, %qw acc(%cg : tensor<16x256xbf16>) : !fp8.scaled<16x128xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x128xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<16x256xbf16>
  return %d : tensor<16x256xbf16>
}

func.func @reference_bf16(%x: tensor<2x16x128xbf16>, %w: tensor<2x256x128xbf16>, %c: tensor<2x16x256xbf16>) -> tensor<2x16x256xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %o = tensor.empty() : tensor<2x16x256xbf16>
  %d0 = call @expert_bf16(%x, %w, %c, %c0) : (tensor<2x16x128xbf16>, tensor<2x256x128xbf16>, tensor<2x16x256xbf16>, index) -> tensor<16x256xbf16>
  %d1 = call @expert_bf16(%x, %w, %c, %c1) : (tensor<2x16x128xbf16>, tensor<2x256x128xbf16>, tensor<2x16x256xbf16>, index) -> tensor<16x256xbf16>
  %r0 = tensor.insert_slice %d0 into %o[0, 0, 0] [1, 16, 256] [1, 1, 1] : tensor<16x256xbf16> into tensor<2x16x256xbf16>
  %r1 = tensor.insert_slice %d1 into %r0[1, 0, 0] [1, 16, 256] [1, 1, 1] : tensor<16x256xbf16> into tensor<2x16x256xbf16>
  return %r1 : tensor<2x16x256xbf16>
}

func.func @main() {
  // f32, N = 192: 3 * 8 * 192 = 4608 elements.
  // CHECK: 0
  // CHECK-NEXT: 4608
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c192 = arith.constant 192 : index
  %c256 = arith.constant 256 : index
  %ex = tensor.empty(%c3, %c8, %c256) : tensor<?x?x?xf32>
  %ew = tensor.empty(%c3, %c192, %c256) : tensor<?x?x?xf32>
  %xd = call @fill_f32(%ex) : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %wd = call @fill_f32(%ew) : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %x = tensor.cast %xd : tensor<?x?x?xf32> to tensor<3x8x256xf32>
  %w = tensor.cast %wd : tensor<?x?x?xf32> to tensor<3x192x256xf32>
  %ref = call @reference_f32(%x, %w) : (tensor<3x8x256xf32>, tensor<3x192x256xf32>) -> tensor<3x8x192xf32>
  %got = call @grouped_f32(%x, %w) : (tensor<3x8x256xf32>, tensor<3x192x256xf32>) -> tensor<3x8x192xf32>
  %refd = tensor.cast %ref : tensor<3x8x192xf32> to tensor<?x?x?xf32>
  %gotd = tensor.cast %got : tensor<3x8x192xf32> to tensor<?x?x?xf32>
  call @compare_f32(%refd, %gotd) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> ()

  // bf16 with an accumulator, N = 256: 2 * 16 * 256 = 8192 elements
  // (compared as f32, which bf16 extends exactly).
  // CHECK-NEXT: 0
  // CHECK-NEXT: 8192
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %bx = tensor.empty(%c2, %c16, %c128) : tensor<?x?x?xf32>
  %bw = tensor.empty(%c2, %c256, %c128) : tensor<?x?x?xf32>
  %bc = tensor.empty(%c2, %c16, %c256) : tensor<?x?x?xf32>
  %bxd = call @fill_f32(%bx) : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %bwd = call @fill_f32(%bw) : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %bcd = call @fill_f32(%bc) : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %bx3 = tensor.cast %bxd : tensor<?x?x?xf32> to tensor<2x16x128xf32>
  %bw3 = tensor.cast %bwd : tensor<?x?x?xf32> to tensor<2x256x128xf32>
  %bc3 = tensor.cast %bcd : tensor<?x?x?xf32> to tensor<2x16x256xf32>
  %xb = arith.truncf %bx3 : tensor<2x16x128xf32> to tensor<2x16x128xbf16>
  %wb = arith.truncf %bw3 : tensor<2x256x128xf32> to tensor<2x256x128xbf16>
  %cb = arith.truncf %bc3 : tensor<2x16x256xf32> to tensor<2x16x256xbf16>
  %refb = call @reference_bf16(%xb, %wb, %cb) : (tensor<2x16x128xbf16>, tensor<2x256x128xbf16>, tensor<2x16x256xbf16>) -> tensor<2x16x256xbf16>
  %gotb = call @grouped_bf16(%xb, %wb, %cb) : (tensor<2x16x128xbf16>, tensor<2x256x128xbf16>, tensor<2x16x256xbf16>) -> tensor<2x16x256xbf16>
  %refe = arith.extf %refb : tensor<2x16x256xbf16> to tensor<2x16x256xf32>
  %gote = arith.extf %gotb : tensor<2x16x256xbf16> to tensor<2x16x256xf32>
  %refbd = tensor.cast %refe : tensor<2x16x256xf32> to tensor<?x?x?xf32>
  %gotbd = tensor.cast %gote : tensor<2x16x256xf32> to tensor<?x?x?xf32>
  call @compare_f32(%refbd, %gotbd) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> ()
  return
}
