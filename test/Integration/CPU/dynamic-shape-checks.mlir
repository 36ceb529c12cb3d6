// Operands whose run-time sizes disagree are run-time errors on the CPU
// path (fp8-cpu-pipeline's fp8-verify-dynamic-shapes): the lowered code
// stops at a cf.assert whose message names the op, where it was written and
// the dimension, instead of reading and writing past a buffer (a
// linalg.matmul given a C of 3 rows for an A of 2 wrote a third row past
// C) or computing garbage (the tiled fp8.scaled_matmul kernel read B's K
// from A). Each entry point runs one case; @*_ok run the same code with
// agreeing sizes, which computes the values derived by hand. The message is
// written by puts to stdout just before abort(): stdbuf -o0 keeps it from
// dying in the buffer.
// REQUIRES: stdbuf
//
// RUN: fp8-opt %s --fp8-cpu-pipeline > %t.mlir
// RUN: %fp8_run_entry %t.mlir -e matmul_ok | FileCheck %s --check-prefix=MMOK
// RUN: %fp8_run_entry %t.mlir -e matmul_empty | FileCheck %s --check-prefix=MMEMPTY
// RUN: not --crash stdbuf -o0 %fp8_run_entry %t.mlir -e matmul_c_rows 2>&1 | FileCheck %s --check-prefix=MMC
// RUN: not --crash stdbuf -o0 %fp8_run_entry %t.mlir -e matmul_k 2>&1 | FileCheck %s --check-prefix=MMK
// RUN: not --crash stdbuf -o0 %fp8_run_entry %t.mlir -e add_short 2>&1 | FileCheck %s --check-prefix=ADD
// RUN: %fp8_run_entry %t.mlir -e scaled_ok | FileCheck %s --check-prefix=SMOK
// RUN: not --crash stdbuf -o0 %fp8_run_entry %t.mlir -e scaled_c_rows 2>&1 | FileCheck %s --check-prefix=SMC
// RUN: not --crash stdbuf -o0 %fp8_run_entry %t.mlir -e scaled_k 2>&1 | FileCheck %s --check-prefix=SMK
// The untiled lowering (linalg loop nests) stops at the same check.
// RUN: fp8-opt %s --fp8-cpu-pipeline=tiled=false > %t.untiled.mlir
// RUN: %fp8_run_entry %t.untiled.mlir -e scaled_ok | FileCheck %s --check-prefix=SMOK
// RUN: not --crash stdbuf -o0 %fp8_run_entry %t.untiled.mlir -e scaled_k 2>&1 | FileCheck %s --check-prefix=SMK

func.func private @printMemrefF32(memref<*xf32>)

func.func @print(%t: tensor<?x?xf32>) {
  %m = bufferization.to_buffer %t : tensor<?x?xf32> to memref<?x?xf32>
  %u = memref.cast %m : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @filled(%rows: index, %cols: index, %v: f32) -> tensor<?x?xf32> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %f : tensor<?x?xf32>
}

//===----------------------------------------------------------------------===//
// linalg.matmul: C = A (M x K) B (K x N) + C, all sizes dynamic.
//===----------------------------------------------------------------------===//

// MMC: linalg.matmul at loc("{{.*}}dynamic-shape-checks.mlir":[[@LINE+3]]:8): dimension #0 of input/output operand #2 is incompatible with inferred dimension size
// MMK: linalg.matmul at loc("{{.*}}dynamic-shape-checks.mlir":[[@LINE+2]]:8): dimension #0 of input/output operand #1 is incompatible with inferred dimension size
func.func @mm(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %d = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %d : tensor<?x?xf32>
}

// A of m x k ones, B of kb x 4 twos, C of mc x 4 ones.
func.func @run_matmul(%m: index, %k: index, %kb: index, %mc: index) {
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a = call @filled(%m, %k, %one) : (index, index, f32) -> tensor<?x?xf32>
  %b = call @filled(%kb, %c4, %two) : (index, index, f32) -> tensor<?x?xf32>
  %c = call @filled(%mc, %c4, %one) : (index, index, f32) -> tensor<?x?xf32>
  %d = call @mm(%a, %b, %c) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  call @print(%d) : (tensor<?x?xf32>) -> ()
  return
}

// 2 x 3 times 3 x 4: each element 1 + 3 * 2 = 7.
// MMOK: sizes = [2, 4]
// MMOK-NEXT: [7, 7, 7, 7]
// MMOK-NEXT: [7, 7, 7, 7]
func.func @matmul_ok() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  call @run_matmul(%c2, %c3, %c3, %c2) : (index, index, index, index) -> ()
  return
}

// M = 0 (an empty loop: upstream's checks are skipped, as no iteration
// touches memory; they would compute a last index of -1).
// MMEMPTY: sizes = [0, 4]
func.func @matmul_empty() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  call @run_matmul(%c0, %c3, %c3, %c0) : (index, index, index, index) -> ()
  return
}

// A of 3 rows, C of 2.
func.func @matmul_c_rows() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  call @run_matmul(%c3, %c3, %c3, %c2) : (index, index, index, index) -> ()
  return
}

// A's K is 3, B's 4.
func.func @matmul_k() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  call @run_matmul(%c2, %c3, %c4, %c2) : (index, index, index, index) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Element-wise arith on tensors (a linalg.generic once converted).
//===----------------------------------------------------------------------===//

// ADD: linalg.generic at loc("{{.*}}dynamic-shape-checks.mlir":[[@LINE+2]]:8): dimension #0 of input/output operand #1 is incompatible with inferred dimension size
func.func @add(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %s = arith.addf %x, %y : tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// x of 3 x 4, y of 2 x 4.
func.func @add_short() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %x = call @filled(%c3, %c4, %one) : (index, index, f32) -> tensor<?x?xf32>
  %y = call @filled(%c2, %c4, %one) : (index, index, f32) -> tensor<?x?xf32>
  %s = call @add(%x, %y) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  call @print(%s) : (tensor<?x?xf32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// fp8.scaled_matmul with a dynamic M and K (A m x k, B 8 x kb, C mc x 8).
//===----------------------------------------------------------------------===//

!a = !fp8.scaled<?x?xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<8x?xf8E4M3FN, block = [128, 128], scale = f32>

// SMC: fp8.scaled_matmul at loc("{{.*}}dynamic-shape-checks.mlir":[[@LINE+7]]:8): the M of a (dimension 0) and of c (dimension 0) differ at run time
// SMK: fp8.scaled_matmul at loc("{{.*}}dynamic-shape-checks.mlir":[[@LINE+6]]:8): the K of a (dimension 1) and of b (dimension 1) differ at run time
func.func @smm(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x8xf32> {
  %w8 = tensor.cast %w : tensor<?x?xf32> to tensor<8x?xf32>
  %c8 = tensor.cast %c : tensor<?x?xf32> to tensor<?x8xf32>
  %qx = fp8.quantize %x : tensor<?x?xf32> -> !a
  %qw = fp8.quantize %w8 : tensor<8x?xf32> -> !b
  %d = fp8.scaled_matmul %qx, %qw acc(%c8 : tensor<?x8xf32>) : !a, !b -> tensor<?x8xf32>
  return %d : tensor<?x8xf32>
}

func.func @run_scaled(%m: index, %k: index, %kb: index, %mc: index) {
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %x = call @filled(%m, %k, %one) : (index, index, f32) -> tensor<?x?xf32>
  %w = call @filled(%c8, %kb, %one) : (index, index, f32) -> tensor<?x?xf32>
  %c = call @filled(%mc, %c8, %one) : (index, index, f32) -> tensor<?x?xf32>
  %d = call @smm(%x, %w, %c) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x8xf32>
  %dd = tensor.cast %d : tensor<?x8xf32> to tensor<?x?xf32>
  call @print(%dd) : (tensor<?x?xf32>) -> ()
  return
}

// All ones (1 is exact with its block scale): each element is C's 1 plus
// K = 256 products of 1, 257.
// SMOK: sizes = [2, 8]
// SMOK-NEXT: [257, 257, 257, 257, 257, 257, 257, 257]
// SMOK-NEXT: [257, 257, 257, 257, 257, 257, 257, 257]
func.func @scaled_ok() {
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  call @run_scaled(%c2, %c256, %c256, %c2) : (index, index, index, index) -> ()
  return
}

// A of 3 rows, C of 2.
func.func @scaled_c_rows() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c256 = arith.constant 256 : index
  call @run_scaled(%c3, %c256, %c256, %c2) : (index, index, index, index) -> ()
  return
}

// A's K is 256, B's 128.
func.func @scaled_k() {
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  call @run_scaled(%c2, %c256, %c128, %c2) : (index, index, index, index) -> ()
  return
}
