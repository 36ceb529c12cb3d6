// fp8.scaled_matmul lowered by fp8-cpu-pipeline and run on the CPU: the
// block-scaled matmul regression cases 10, 11, 13, 17 and 19 of
// docs/regression-cases.md, NaN propagation (case 8), M/N/K tails with an
// accumulator C, bf16 RNE output. References are the case file's values,
// hand derivations, or an FP64 product of the unquantized inputs computed
// by @ref_nt below (plain linalg, no fp8 op), compared by @mismatches,
// which prints how many results differ from it by more than rtol * |ref|
// (a NaN always differs).
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// The same values through the reference generics of fp8-lower-to-linalg
// (the pipeline uses the register-tiled kernel by default).
// RUN: fp8-opt %s --fp8-cpu-pipeline=tiled=false | %fp8_run | FileCheck %s

!a1 = !fp8.scaled<1x256xf8E4M3FN, block = [1, 128], scale = f32>
!b1 = !fp8.scaled<3x256xf8E4M3FN, block = [128, 128], scale = f32>

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @print_f32(%t: tensor<?x?xf32>) {
  %m = bufferization.to_buffer %t : tensor<?x?xf32> to memref<?x?xf32>
  %c = memref.cast %m : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%c) : (memref<*xf32>) -> ()
  return
}

// Integral results printed exactly (printMemrefF32 shows 6 digits).
func.func @print_i64(%t: tensor<?x?xf32>) {
  %i = arith.fptosi %t : tensor<?x?xf32> to tensor<?x?xi64>
  %m = bufferization.to_buffer %i : tensor<?x?xi64> to memref<?x?xi64>
  %c = memref.cast %m : memref<?x?xi64> to memref<*xi64>
  call @printMemrefI64(%c) : (memref<*xi64>) -> ()
  return
}

// FP64 reference D[m, n] = sum_k a[m, k] * b[n, k] (NT), in k order.
func.func @ref_nt(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf64> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c0 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty(%m, %n) : tensor<?x?xf64>
  %init = linalg.fill ins(%zero : f64) outs(%e : tensor<?x?xf64>) -> tensor<?x?xf64>
  %r = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<?x?xf64>) {
    ^bb0(%x: f32, %y: f32, %acc: f64):
      %xd = arith.extf %x : f32 to f64
      %yd = arith.extf %y : f32 to f64
      %p = arith.mulf %xd, %yd : f64
      %s = arith.addf %acc, %p : f64
      linalg.yield %s : f64
  } -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

// Prints the number of elements with !(|d - ref| <= rtol * |ref|).
func.func @mismatches(%d: tensor<?x?xf32>, %ref: tensor<?x?xf64>, %rtol: f64) {
  %zero = arith.constant 0 : i32
  %init = tensor.empty() : tensor<i32>
  %acc = linalg.fill ins(%zero : i32) outs(%init : tensor<i32>) -> tensor<i32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> ()>],
      iterator_types = ["reduction", "reduction"]}
      ins(%d, %ref : tensor<?x?xf32>, tensor<?x?xf64>) outs(%acc : tensor<i32>) {
    ^bb0(%x: f32, %y: f64, %a: i32):
      %xd = arith.extf %x : f32 to f64
      %diff = arith.subf %xd, %y : f64
      %ad = math.absf %diff : f64
      %ay = math.absf %y : f64
      %tol = arith.mulf %ay, %rtol : f64
      %ok = arith.cmpf ole, %ad, %tol : f64
      %one = arith.constant 1 : i32
      %z = arith.constant 0 : i32
      %inc = arith.select %ok, %z, %one : i32
      %s = arith.addi %a, %inc : i32
      linalg.yield %s : i32
  } -> tensor<i32>
  %e = tensor.expand_shape %r [] output_shape [1] : tensor<i32> into tensor<1xi32>
  %m = bufferization.to_buffer %e : tensor<1xi32> to memref<1xi32>
  %c = memref.cast %m : memref<1xi32> to memref<*xi32>
  call @printMemrefI32(%c) : (memref<*xi32>) -> ()
  return
}

// Case 10: K = 256, A row = [1] * 128 + [2] * 128, B = ones: D = 384 (a
// kernel applying the first block's scale to the whole K tile gives 256).
// f32 scales (1/448, 2/448) are not exact, so rtol 2^-20; pow2 scales
// (2^-8, 2^-7) make every step exact.
func.func @case10() {
  %ones = arith.constant dense<1.0> : tensor<1x128xf32>
  %twos = arith.constant dense<2.0> : tensor<1x128xf32>
  %a = tensor.concat dim(1) %ones, %twos : (tensor<1x128xf32>, tensor<1x128xf32>) -> tensor<1x256xf32>
  %b = arith.constant dense<1.0> : tensor<3x256xf32>
  %ad = tensor.cast %a : tensor<1x256xf32> to tensor<?x?xf32>
  %bd = tensor.cast %b : tensor<3x256xf32> to tensor<?x?xf32>
  %ref = call @ref_nt(%ad, %bd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf64>

  %qa = fp8.quantize %a : tensor<1x256xf32> -> !a1
  %qb = fp8.quantize %b : tensor<3x256xf32> -> !b1
  %d = fp8.scaled_matmul %qa, %qb : !a1, !b1 -> tensor<1x3xf32>
  %dd = tensor.cast %d : tensor<1x3xf32> to tensor<?x?xf32>
  call @print_f32(%dd) : (tensor<?x?xf32>) -> ()
  %rtol = arith.constant 9.5367431640625e-07 : f64
  call @mismatches(%dd, %ref, %rtol) : (tensor<?x?xf32>, tensor<?x?xf64>, f64) -> ()

  %qap = fp8.quantize %a {scale_mode = #fp8.scale_mode<pow2>} : tensor<1x256xf32> -> !a1
  %qbp = fp8.quantize %b {scale_mode = #fp8.scale_mode<pow2>} : tensor<3x256xf32> -> !b1
  %dp = fp8.scaled_matmul %qap, %qbp : !a1, !b1 -> tensor<1x3xf32>
  %dpd = tensor.cast %dp : tensor<1x3xf32> to tensor<?x?xf32>
  %exact = arith.constant 0.0 : f64
  call @mismatches(%dpd, %ref, %exact) : (tensor<?x?xf32>, tensor<?x?xf64>, f64) -> ()
  return
}
// CHECK-LABEL: case10
// CHECK:      [384, 384, 384]
// CHECK:      [0]
// CHECK:      [0]

// Case 11: N = 448 (not a multiple of 128): B's 128-row blocks hold 1, 2,
// 4, 8; A = ones[1 x 128]: D[0, j] = 128 * {1, 2, 4, 8}[j / 128], so
// column 112 is 128 and column 447 is 1024. Also N = 576, K = 2560 gives a
// [5, 20] B scale tensor (dynamic shapes).
func.func @case11() {
  %b1 = arith.constant dense<1.0> : tensor<128x128xf32>
  %b2 = arith.constant dense<2.0> : tensor<128x128xf32>
  %b4 = arith.constant dense<4.0> : tensor<128x128xf32>
  %b8 = arith.constant dense<8.0> : tensor<64x128xf32>
  %b = tensor.concat dim(0) %b1, %b2, %b4, %b8
      : (tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<64x128xf32>) -> tensor<448x128xf32>
  %a = arith.constant dense<1.0> : tensor<1x128xf32>
  %qa = fp8.quantize %a {scale_mode = #fp8.scale_mode<pow2>} : tensor<1x128xf32> -> !fp8.scaled<1x128xf8E4M3FN, block = [1, 128], scale = f32>
  %qb = fp8.quantize %b {scale_mode = #fp8.scale_mode<pow2>} : tensor<448x128xf32> -> !fp8.scaled<448x128xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %qa, %qb
      : !fp8.scaled<1x128xf8E4M3FN, block = [1, 128], scale = f32>,
        !fp8.scaled<448x128xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<1x448xf32>
  %sel = tensor.extract_slice %d[0, 0] [1, 7] [1, 64] : tensor<1x448xf32> to tensor<1x7xf32>
  %seld = tensor.cast %sel : tensor<1x7xf32> to tensor<?x?xf32>
  // Columns 0, 64, ..., 384.
  call @print_i64(%seld) : (tensor<?x?xf32>) -> ()
  %c112 = tensor.extract_slice %d[0, 112] [1, 1] [1, 1] : tensor<1x448xf32> to tensor<1x1xf32>
  %c447 = tensor.extract_slice %d[0, 447] [1, 1] [1, 1] : tensor<1x448xf32> to tensor<1x1xf32>
  %pair = tensor.concat dim(1) %c112, %c447 : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x2xf32>
  %paird = tensor.cast %pair : tensor<1x2xf32> to tensor<?x?xf32>
  call @print_i64(%paird) : (tensor<?x?xf32>) -> ()
  %ad = tensor.cast %a : tensor<1x128xf32> to tensor<?x?xf32>
  %bd = tensor.cast %b : tensor<448x128xf32> to tensor<?x?xf32>
  %ref = call @ref_nt(%ad, %bd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf64>
  %dd = tensor.cast %d : tensor<1x448xf32> to tensor<?x?xf32>
  %exact = arith.constant 0.0 : f64
  call @mismatches(%dd, %ref, %exact) : (tensor<?x?xf32>, tensor<?x?xf64>, f64) -> ()

  %c576 = arith.constant 576 : index
  %c2560 = arith.constant 2560 : index
  %big = tensor.empty(%c576, %c2560) : tensor<?x?xf32>
  %one = arith.constant 1.0 : f32
  %bigf = linalg.fill ins(%one : f32) outs(%big : tensor<?x?xf32>) -> tensor<?x?xf32>
  %qbig = fp8.quantize %bigf : tensor<?x?xf32> -> !fp8.scaled<?x?xf8E4M3FN, block = [128, 128], scale = f32>
  %dbig, %sbig = fp8.disassemble %qbig : !fp8.scaled<?x?xf8E4M3FN, block = [128, 128], scale = f32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = tensor.dim %sbig, %c0 : tensor<?x?xf32>
  %s1 = tensor.dim %sbig, %c1 : tensor<?x?xf32>
  vector.print %s0 : index
  vector.print %s1 : index
  return
}
// CHECK-LABEL: case11
// CHECK:      [128, 128, 256, 256, 512, 512, 1024]
// CHECK:      [128, 1024]
// CHECK:      [0]
// CHECK-NEXT: 5
// CHECK-NEXT: 20

// Case 13: M = 200 (tail of no M block: A blocks are 1x128), N = K = 128,
// A row m = m + 1, B = ones: D[m, n] = 128 (m + 1), row 199 = 25600. f32
// scales ((m+1)/448, 1/448) carry rounding: rtol 2^-20. Also M = 1.
func.func @case13() {
  %e = tensor.empty() : tensor<200x128xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>],
                       iterator_types = ["parallel", "parallel"]} outs(%e : tensor<200x128xf32>) {
    ^bb0(%o: f32):
      %m = linalg.index 0 : index
      %mi = arith.index_cast %m : index to i32
      %mf = arith.sitofp %mi : i32 to f32
      %one = arith.constant 1.0 : f32
      %v = arith.addf %mf, %one : f32
      linalg.yield %v : f32
  } -> tensor<200x128xf32>
  %b = arith.constant dense<1.0> : tensor<128x128xf32>
  %qa = fp8.quantize %a : tensor<200x128xf32> -> !fp8.scaled<200x128xf8E4M3FN, block = [1, 128], scale = f32>
  %qb = fp8.quantize %b : tensor<128x128xf32> -> !fp8.scaled<128x128xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %qa, %qb
      : !fp8.scaled<200x128xf8E4M3FN, block = [1, 128], scale = f32>,
        !fp8.scaled<128x128xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x128xf32>
  %last = tensor.extract_slice %d[198, 126] [2, 2] [1, 1] : tensor<200x128xf32> to tensor<2x2xf32>
  %lastd = tensor.cast %last : tensor<2x2xf32> to tensor<?x?xf32>
  call @print_f32(%lastd) : (tensor<?x?xf32>) -> ()
  %ad = tensor.cast %a : tensor<200x128xf32> to tensor<?x?xf32>
  %bd = tensor.cast %b : tensor<128x128xf32> to tensor<?x?xf32>
  %ref = call @ref_nt(%ad, %bd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf64>
  %dd = tensor.cast %d : tensor<200x128xf32> to tensor<?x?xf32>
  %rtol = arith.constant 9.5367431640625e-07 : f64
  call @mismatches(%dd, %ref, %rtol) : (tensor<?x?xf32>, tensor<?x?xf64>, f64) -> ()

  %a1 = tensor.extract_slice %a[0, 0] [1, 128] [1, 1] : tensor<200x128xf32> to tensor<1x128xf32>
  %qa1 = fp8.quantize %a1 : tensor<1x128xf32> -> !fp8.scaled<1x128xf8E4M3FN, block = [1, 128], scale = f32>
  %d1 = fp8.scaled_matmul %qa1, %qb
      : !fp8.scaled<1x128xf8E4M3FN, block = [1, 128], scale = f32>,
        !fp8.scaled<128x128xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<1x128xf32>
  %d1s = tensor.extract_slice %d1[0, 0] [1, 2] [1, 1] : tensor<1x128xf32> to tensor<1x2xf32>
  %d1d = tensor.cast %d1s : tensor<1x2xf32> to tensor<?x?xf32>
  call @print_f32(%d1d) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: case13
// CHECK:      [25472, 25472]
// CHECK-NEXT: [25600, 25600]
// CHECK:      [0]
// CHECK:      [128, 128]

// Case 17: K = 128, every A and B value 448, scales 1 (amax 448):
// D = 128 * 448^2 = 25690112, exact in f32 (an f16 accumulator overflows
// at the first product, 200704).
func.func @case17() {
  %a = arith.constant dense<448.0> : tensor<2x128xf32>
  %b = arith.constant dense<448.0> : tensor<2x128xf32>
  %qa = fp8.quantize %a : tensor<2x128xf32> -> !fp8.scaled<2x128xf8E4M3FN, block = [1, 128], scale = f32>
  %qb = fp8.quantize %b : tensor<2x128xf32> -> !fp8.scaled<2x128xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %qa, %qb
      : !fp8.scaled<2x128xf8E4M3FN, block = [1, 128], scale = f32>,
        !fp8.scaled<2x128xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<2x2xf32>
  %dd = tensor.cast %d : tensor<2x2xf32> to tensor<?x?xf32>
  call @print_i64(%dd) : (tensor<?x?xf32>) -> ()
  %ad = tensor.cast %a : tensor<2x128xf32> to tensor<?x?xf32>
  %bd = tensor.cast %b : tensor<2x128xf32> to tensor<?x?xf32>
  %ref = call @ref_nt(%ad, %bd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf64>
  %exact = arith.constant 0.0 : f64
  call @mismatches(%dd, %ref, %exact) : (tensor<?x?xf32>, tensor<?x?xf64>, f64) -> ()
  return
}
// CHECK-LABEL: case17
// CHECK:      [25690112, 25690112]
// CHECK-NEXT: [25690112, 25690112]
// CHECK:      [0]

// Case 19: M = N = K = 128, A = identity (code 0x38 = 1.0 on the diagonal),
// B[n][k] = E4M3 code (k mod 126) + 1, scales 1, built with fp8.assemble:
// D[m][n] = decode((m mod 126) + 1), whatever n. The expected decode is
// computed here from the E4M3 definition in f64 (exponent field c >> 3,
// mantissa c & 7, bias 7, subnormal for field 0), not by the lowering.
func.func @case19() {
  %ea = tensor.empty() : tensor<128x128xi8>
  %ai = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>],
                        iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<128x128xi8>) {
    ^bb0(%o: i8):
      %m = linalg.index 0 : index
      %k = linalg.index 1 : index
      %eq = arith.cmpi eq, %m, %k : index
      %one = arith.constant 56 : i8
      %zero = arith.constant 0 : i8
      %v = arith.select %eq, %one, %zero : i8
      linalg.yield %v : i8
  } -> tensor<128x128xi8>
  %bi = linalg.generic {indexing_maps = [affine_map<(n, k) -> (n, k)>],
                        iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<128x128xi8>) {
    ^bb0(%o: i8):
      %k = linalg.index 1 : index
      %c126 = arith.constant 126 : index
      %r = arith.remui %k, %c126 : index
      %c1 = arith.constant 1 : index
      %c = arith.addi %r, %c1 : index
      %ci = arith.index_cast %c : index to i8
      linalg.yield %ci : i8
  } -> tensor<128x128xi8>
  %af = arith.bitcast %ai : tensor<128x128xi8> to tensor<128x128xf8E4M3FN>
  %bf = arith.bitcast %bi : tensor<128x128xi8> to tensor<128x128xf8E4M3FN>
  %sa = arith.constant dense<1.0> : tensor<128x1xf32>
  %sb = arith.constant dense<1.0> : tensor<1x1xf32>
  %qa = fp8.assemble %af, %sa : tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
      -> !fp8.scaled<128x128xf8E4M3FN, block = [1, 128], scale = f32>
  %qb = fp8.assemble %bf, %sb : tensor<128x128xf8E4M3FN>, tensor<1x1xf32>
      -> !fp8.scaled<128x128xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %qa, %qb
      : !fp8.scaled<128x128xf8E4M3FN, block = [1, 128], scale = f32>,
        !fp8.scaled<128x128xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x128xf32>
  %er = tensor.empty() : tensor<128x128xf64>
  %ref = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>],
                         iterator_types = ["parallel", "parallel"]} outs(%er : tensor<128x128xf64>) {
    ^bb0(%o: f64):
      %m = linalg.index 0 : index
      %c126 = arith.constant 126 : index
      %r = arith.remui %m, %c126 : index
      %c1 = arith.constant 1 : index
      %c = arith.addi %r, %c1 : index
      %ci = arith.index_cast %c : index to i64
      %c3 = arith.constant 3 : i64
      %c7 = arith.constant 7 : i64
      %field = arith.shrui %ci, %c3 : i64
      %mant = arith.andi %ci, %c7 : i64
      %mantf = arith.sitofp %mant : i64 to f64
      %eighth = arith.constant 0.125 : f64
      %frac = arith.mulf %mantf, %eighth : f64
      %zero = arith.constant 0 : i64
      %isSub = arith.cmpi eq, %field, %zero : i64
      %onef = arith.constant 1.0 : f64
      %sig = arith.addf %onef, %frac : f64
      %sigOrFrac = arith.select %isSub, %frac, %sig : f64
      %one = arith.constant 1 : i64
      %e0 = arith.select %isSub, %one, %field : i64
      %e = arith.subi %e0, %c7 : i64
      %ef = arith.sitofp %e : i64 to f64
      %p = math.exp2 %ef : f64
      %v = arith.mulf %sigOrFrac, %p : f64
      linalg.yield %v : f64
  } -> tensor<128x128xf64>
  %refd = tensor.cast %ref : tensor<128x128xf64> to tensor<?x?xf64>
  %dd = tensor.cast %d : tensor<128x128xf32> to tensor<?x?xf32>
  %exact = arith.constant 0.0 : f64
  call @mismatches(%dd, %refd, %exact) : (tensor<?x?xf32>, tensor<?x?xf64>, f64) -> ()
  %col = tensor.extract_slice %d[0, 5] [128, 1] [1, 1] : tensor<128x128xf32> to tensor<128x1xf32>
  %rows = tensor.extract_slice %col[0, 0] [4, 1] [42, 1] : tensor<128x1xf32> to tensor<4x1xf32>
  %rowsd = tensor.cast %rows : tensor<4x1xf32> to tensor<?x?xf32>
  // Rows 0, 42, 84, 126: codes 1, 43, 85, 1 -> 2^-9, 1.375 * 2^-2 = 0.34375,
  // 1.625 * 2^3 = 13, 2^-9.
  call @print_f32(%rowsd) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: case19
// CHECK:      [0]
// CHECK:      [0.00195312]
// CHECK-NEXT: [0.34375]
// CHECK-NEXT: [13]
// CHECK-NEXT: [0.00195312]

// Case 8 through the matmul: a NaN in A's first row makes its block's
// scale 1 and its code 0x7F, and the whole row of D NaN; row 1 is 128.
func.func @nan_row() {
  %nan = arith.constant 0x7FC00000 : f32
  %ones = arith.constant dense<1.0> : tensor<2x128xf32>
  %i0 = arith.constant 0 : index
  %a = tensor.insert %nan into %ones[%i0, %i0] : tensor<2x128xf32>
  %qa = fp8.quantize %a : tensor<2x128xf32> -> !fp8.scaled<2x128xf8E4M3FN, block = [1, 128], scale = f32>
  %qb = fp8.quantize %ones : tensor<2x128xf32> -> !fp8.scaled<2x128xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %qa, %qb
      : !fp8.scaled<2x128xf8E4M3FN, block = [1, 128], scale = f32>,
        !fp8.scaled<2x128xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<2x2xf32>
  %dd = tensor.cast %d : tensor<2x2xf32> to tensor<?x?xf32>
  call @print_f32(%dd) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: nan_row
// CHECK:      [nan, nan]
// CHECK-NEXT: [128, 128]

// M, N and K tails at once with an f32 accumulator C: M = 5, N = 130
// (two B blocks, the second 2 rows), K = 300 (three promotion intervals,
// the last 44 wide). Entries are integers in [-7, 7] and pow2 scales, so
// every code, scale, product and partial is exact and D must equal the
// FP64 reference C + A B^T exactly.
func.func @int_matrix(%m: index, %k: index, %mul: index, %add: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%m, %k) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x?xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %t0 = arith.muli %i, %mul : index
      %t1 = arith.muli %j, %add : index
      %t2 = arith.addi %t0, %t1 : index
      %c15 = arith.constant 15 : index
      %t3 = arith.remui %t2, %c15 : index
      %ti = arith.index_cast %t3 : index to i32
      %c7 = arith.constant 7 : i32
      %v = arith.subi %ti, %c7 : i32
      %vf = arith.sitofp %v : i32 to f32
      linalg.yield %vf : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @tails_with_c() {
  %c5 = arith.constant 5 : index
  %c130 = arith.constant 130 : index
  %c300 = arith.constant 300 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c2 = arith.constant 2 : index
  %ad = call @int_matrix(%c5, %c300, %c3, %c7) : (index, index, index, index) -> tensor<?x?xf32>
  %bd = call @int_matrix(%c130, %c300, %c11, %c2) : (index, index, index, index) -> tensor<?x?xf32>
  %cd = call @int_matrix(%c5, %c130, %c2, %c3) : (index, index, index, index) -> tensor<?x?xf32>
  %a = tensor.cast %ad : tensor<?x?xf32> to tensor<5x300xf32>
  %b = tensor.cast %bd : tensor<?x?xf32> to tensor<130x300xf32>
  %c = tensor.cast %cd : tensor<?x?xf32> to tensor<5x130xf32>
  %qa = fp8.quantize %a {scale_mode = #fp8.scale_mode<pow2>} : tensor<5x300xf32> -> !fp8.scaled<5x300xf8E4M3FN, block = [1, 128], scale = f32>
  %qb = fp8.quantize %b {scale_mode = #fp8.scale_mode<pow2>} : tensor<130x300xf32> -> !fp8.scaled<130x300xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %qa, %qb acc(%c : tensor<5x130xf32>)
      : !fp8.scaled<5x300xf8E4M3FN, block = [1, 128], scale = f32>,
        !fp8.scaled<130x300xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<5x130xf32>
  %ref = call @ref_nt(%ad, %bd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf64>
  %cf = arith.extf %cd : tensor<?x?xf32> to tensor<?x?xf64>
  %refc = arith.addf %ref, %cf : tensor<?x?xf64>
  %dd = tensor.cast %d : tensor<5x130xf32> to tensor<?x?xf32>
  %exact = arith.constant 0.0 : f64
  call @mismatches(%dd, %refc, %exact) : (tensor<?x?xf32>, tensor<?x?xf64>, f64) -> ()
  return
}
// CHECK-LABEL: tails_with_c
// CHECK:      [0]

// bf16 output, rounded RNE from the f32 accumulator: A = ones[1x128],
// B = ones[2x128] (pow2: exact 128), C = [0.5, 1.5] (bf16): 128.5 ties to
// the even 128, 129.5 ties to the even 130.
func.func @bf16_out() {
  %a = arith.constant dense<1.0> : tensor<1x128xf32>
  %b = arith.constant dense<1.0> : tensor<2x128xf32>
  %c = arith.constant dense<[[0.5, 1.5]]> : tensor<1x2xbf16>
  %qa = fp8.quantize %a {scale_mode = #fp8.scale_mode<pow2>} : tensor<1x128xf32> -> !fp8.scaled<1x128xf8E4M3FN, block = [1, 128], scale = f32>
  %qb = fp8.quantize %b {scale_mode = #fp8.scale_mode<pow2>} : tensor<2x128xf32> -> !fp8.scaled<2x128xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %qa, %qb acc(%c : tensor<1x2xbf16>)
      : !fp8.scaled<1x128xf8E4M3FN, block = [1, 128], scale = f32>,
        !fp8.scaled<2x128xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<1x2xbf16>
  %df = arith.extf %d : tensor<1x2xbf16> to tensor<1x2xf32>
  %dd = tensor.cast %df : tensor<1x2xf32> to tensor<?x?xf32>
  call @print_f32(%dd) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: bf16_out
// CHECK:      [128, 130]

func.func @main() {
  vector.print str "case10\n"
  call @case10() : () -> ()
  vector.print str "case11\n"
  call @case11() : () -> ()
  vector.print str "case13\n"
  call @case13() : () -> ()
  vector.print str "case17\n"
  call @case17() : () -> ()
  vector.print str "case19\n"
  call @case19() : () -> ()
  vector.print str "nan_row\n"
  call @nan_row() : () -> ()
  vector.print str "tails_with_c\n"
  call @tails_with_c() : () -> ()
  vector.print str "bf16_out\n"
  call @bf16_out() : () -> ()
  return
}
