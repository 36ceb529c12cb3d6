// Bad group_ids of a contiguous fp8.grouped_scaled_matmul are run-time
// errors on the CPU path: the lowered code stops at a cf.assert whose
// message names the op, rather than reading another group's weight or
// memory outside B. Each entry point runs one case; @ok shows that the same
// code runs through with good indices. The message is written by puts to
// stdout just before abort(): stdbuf -o0 keeps it from dying in the buffer.
// REQUIRES: stdbuf
//
// RUN: fp8-opt %s --fp8-cpu-pipeline > %t.mlir
// RUN: %fp8_run_entry %t.mlir -e ok | FileCheck %s --check-prefix=OK
// RUN: not --crash stdbuf -o0 %fp8_run_entry %t.mlir -e index_too_large 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not --crash stdbuf -o0 %fp8_run_entry %t.mlir -e index_below_minus_one 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not --crash stdbuf -o0 %fp8_run_entry %t.mlir -e misaligned 2>&1 | FileCheck %s --check-prefix=ALIGN

// OK: 4
// RANGE: fp8.grouped_scaled_matmul: a group index in group_ids is outside [-1, G)
// ALIGN: fp8.grouped_scaled_matmul: a group's rows in group_ids start at a row that is not a multiple of m_alignment

!a = !fp8.scaled<6x128xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<2x8x128xf8E4M3FN, block = [1, 128, 128], scale = f32>

func.func @run(%ids: tensor<6xi32>) -> tensor<6x8xf32> {
  %x = arith.constant dense<1.0> : tensor<6x128xf32>
  %w = arith.constant dense<0.5> : tensor<2x8x128xf32>
  %qx = fp8.quantize %x : tensor<6x128xf32> -> !a
  %qw = fp8.quantize %w : tensor<2x8x128xf32> -> !b
  %d = fp8.grouped_scaled_matmul contiguous %qx, %qw group_ids(%ids : tensor<6xi32>) {m_alignment = 2} : !a, !b -> tensor<6x8xf32>
  return %d : tensor<6x8xf32>
}

// Groups 0 (rows 0-1) and 1 (rows 2-3), padding (rows 4-5): the padding rows
// are 0 and the group rows 128 * 1.0 * 0.5 = 64; printed: the number of
// non-zero rows' first elements (4).
func.func @ok() {
  %ids = arith.constant dense<[0, 0, 1, 1, -1, -1]> : tensor<6xi32>
  %d = call @run(%ids) : (tensor<6xi32>) -> tensor<6x8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  %n0 = arith.constant 0 : i64
  %n = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %n0) -> i64 {
    %v = tensor.extract %d[%i, %c0] : tensor<6x8xf32>
    %nz = arith.cmpf une, %v, %zero : f32
    %one = arith.extui %nz : i1 to i64
    %s = arith.addi %acc, %one : i64
    scf.yield %s : i64
  }
  vector.print %n : i64
  return
}

func.func @index_too_large() {
  %ids = arith.constant dense<[0, 0, 2, 2, -1, -1]> : tensor<6xi32>
  %d = call @run(%ids) : (tensor<6xi32>) -> tensor<6x8xf32>
  return
}

func.func @index_below_minus_one() {
  %ids = arith.constant dense<[0, 0, -2, -2, 1, 1]> : tensor<6xi32>
  %d = call @run(%ids) : (tensor<6xi32>) -> tensor<6x8xf32>
  return
}

// Group 1 starts at row 3, not a multiple of m_alignment = 2.
func.func @misaligned() {
  %ids = arith.constant dense<[0, 0, 0, 1, 1, -1]> : tensor<6xi32>
  %d = call @run(%ids) : (tensor<6xi32>) -> tensor<6x8xf32>
  return
}
