// Bad group_ids of a k_grouped fp8.grouped_scaled_matmul (the MoE Wgrad)
// are run-time errors on the CPU path: the lowered code stops at a cf.assert
// whose message names the op. T = 384 tokens (three K blocks), G = 2. @ok
// runs the same code with good indices. The message is written by puts to
// stdout just before abort(): stdbuf -o0 keeps it from dying in the buffer.
// REQUIRES: stdbuf
//
// RUN: fp8-opt %s --fp8-cpu-pipeline > %t.mlir
// RUN: %fp8_run_entry %t.mlir -e ok | FileCheck %s --check-prefix=OK
// RUN: not --crash stdbuf -o0 %fp8_run_entry %t.mlir -e index_too_large 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not --crash stdbuf -o0 %fp8_run_entry %t.mlir -e split_group 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not --crash stdbuf -o0 %fp8_run_entry %t.mlir -e ends_inside_block 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not --crash stdbuf -o0 %fp8_run_entry %t.mlir -e misaligned 2>&1 | FileCheck %s --check-prefix=ALIGN

// OK: 128
// OK-NEXT: 0
// OK-NEXT: 128
// RANGE: fp8.grouped_scaled_matmul: a group index in group_ids is outside [-1, G)
// SPLIT: fp8.grouped_scaled_matmul: a group's tokens in group_ids (k_grouped) are not consecutive
// BLOCK: fp8.grouped_scaled_matmul: a run of group_ids (k_grouped) ends inside a 128-token K block
// ALIGN: fp8.grouped_scaled_matmul: a run of group_ids (k_grouped) starts at a token that is not a multiple of m_alignment

!a = !fp8.scaled<4x384xf8E4M3FN, block = [1, 128], scale = f32>

func.func @operand() -> !a {
  %x = arith.constant dense<1.0> : tensor<4x384xf8E4M3FN>
  %s = arith.constant dense<1.0> : tensor<4x3xf32>
  %q = fp8.assemble %x, %s : tensor<4x384xf8E4M3FN>, tensor<4x3xf32> -> !a
  return %q : !a
}

// One id per K block, expanded to the 384 tokens.
func.func @ids(%blocks: tensor<3xi32>) -> tensor<384xi32> {
  %c128 = arith.constant 128 : index
  %e = tensor.empty() : tensor<384xi32>
  %ids = linalg.generic {indexing_maps = [affine_map<(t) -> (t)>], iterator_types = ["parallel"]} outs(%e : tensor<384xi32>) {
  ^bb0(%o: i32):
    %t = linalg.index 0 : index
    %kb = arith.divui %t, %c128 : index
    %g = tensor.extract %blocks[%kb] : tensor<3xi32>
    linalg.yield %g : i32
  } -> tensor<384xi32>
  return %ids : tensor<384xi32>
}

func.func @run(%ids: tensor<384xi32>) -> tensor<2x4x4xf32> {
  %q = call @operand() : () -> !a
  %d = fp8.grouped_scaled_matmul k_grouped %q, %q group_ids(%ids : tensor<384xi32>) : !a, !a -> tensor<2x4x4xf32>
  return %d : tensor<2x4x4xf32>
}

// Blocks [0, -1, 1]: each group one block of 128 ones: D[0] = D[1] = 128;
// padding adds nothing. Printed: D[0, 0, 0], +0.0 - D[1, 3, 3] + 128, D[1, 3, 3].
func.func @ok() {
  %b = arith.constant dense<[0, -1, 1]> : tensor<3xi32>
  %ids = call @ids(%b) : (tensor<3xi32>) -> tensor<384xi32>
  %d = call @run(%ids) : (tensor<384xi32>) -> tensor<2x4x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %v0 = tensor.extract %d[%c0, %c0, %c0] : tensor<2x4x4xf32>
  %v1 = tensor.extract %d[%c1, %c3, %c3] : tensor<2x4x4xf32>
  %diff = arith.subf %v0, %v1 : f32
  vector.print %v0 : f32
  vector.print %diff : f32
  vector.print %v1 : f32
  return
}

func.func @index_too_large() {
  %b = arith.constant dense<[0, 2, 1]> : tensor<3xi32>
  %ids = call @ids(%b) : (tensor<3xi32>) -> tensor<384xi32>
  %d = call @run(%ids) : (tensor<384xi32>) -> tensor<2x4x4xf32>
  return
}

// Group 0 in blocks 0 and 2.
func.func @split_group() {
  %b = arith.constant dense<[0, 1, 0]> : tensor<3xi32>
  %ids = call @ids(%b) : (tensor<3xi32>) -> tensor<384xi32>
  %d = call @run(%ids) : (tensor<384xi32>) -> tensor<2x4x4xf32>
  return
}

// Tokens 0-63 group 0, 64-383 group 1: group 0's run ends at token 64.
func.func @ends_inside_block() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant 1 : i32
  %b = arith.constant dense<[0, 1, 1]> : tensor<3xi32>
  %ids0 = call @ids(%b) : (tensor<3xi32>) -> tensor<384xi32>
  %ids = scf.for %t = %c64 to %c128 step %c1 iter_args(%acc = %ids0) -> tensor<384xi32> {
    %w = tensor.insert %one into %acc[%t] : tensor<384xi32>
    scf.yield %w : tensor<384xi32>
  }
  %d = call @run(%ids) : (tensor<384xi32>) -> tensor<2x4x4xf32>
  return
}

func.func @run256(%ids: tensor<384xi32>) -> tensor<2x4x4xf32> {
  %q = call @operand() : () -> !a
  %d = fp8.grouped_scaled_matmul k_grouped %q, %q group_ids(%ids : tensor<384xi32>) {m_alignment = 256} : !a, !a -> tensor<2x4x4xf32>
  return %d : tensor<2x4x4xf32>
}

// m_alignment 256: group 1's run starts at token 128.
func.func @misaligned() {
  %b = arith.constant dense<[0, 1, 1]> : tensor<3xi32>
  %ids = call @ids(%b) : (tensor<3xi32>) -> tensor<384xi32>
  %d = call @run256(%ids) : (tensor<384xi32>) -> tensor<2x4x4xf32>
  return
}
