// Invalid group_ids of a contiguous grouped GEMM stop the compiled host
// program (fp8-gpu-pipeline{host=llvm target=emulator}, emulated mgpu*
// runtime) before the launch, with the message the CPU lowering
// (fp8-cpu-pipeline) gives for the same input, instead of a kernel that
// stores +0.0 for the rows of a misplaced run (the kernel takes a tile's
// group from its first row) or reads another group's weight.
//   misaligned: G = 2, M = 128, m_alignment 64: rows [0, 65) group 0, rows
//     [65, 128) group 1, whose run starts at row 65.
//   out_of_range: rows [64, 128) group 2 with G = 2.
// Each run calls one library as both program and oracle, so the message
// can only come from that library; `not --crash` needs the abort of the
// failed cf.assert (a program that runs to the end fails the test). The
// message is written by puts to stdout just before abort(): stdbuf -o0
// keeps it from dying in the buffer.
//
// REQUIRES: clang, stdbuf
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator config=fixed" | mlir-translate --mlir-to-llvmir -o %t.emu.ll
// RUN: %clang %t.emu.ll -o %t.emu.so %emu_host_link
// RUN: not --crash stdbuf -o0 %t.check %t.emu.so %t.emu.so misaligned 1 f32:128x128 f32:128x256 bf16:256x256 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not --crash stdbuf -o0 %t.check %t.cpu.so %t.cpu.so misaligned 1 f32:128x128 f32:128x256 bf16:256x256 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not --crash stdbuf -o0 %t.check %t.emu.so %t.emu.so out_of_range 1 f32:128x128 f32:128x256 bf16:256x256 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not --crash stdbuf -o0 %t.check %t.cpu.so %t.cpu.so out_of_range 1 f32:128x128 f32:128x256 bf16:256x256 2>&1 | FileCheck %s --check-prefix=RANGE

// ALIGN: fp8.grouped_scaled_matmul: a group's rows in group_ids start at a row that is not a multiple of m_alignment
// ALIGN-NOT: host-check: PASS
// RANGE: fp8.grouped_scaled_matmul: a group index in group_ids is outside [-1, G)
// RANGE-NOT: host-check: PASS

// rows [0, 65) group 0, rows [65, 128) group 1 (a run starting at row 65)
func.func @misaligned(%x: tensor<128x256xf32>, %w: tensor<256x256xbf16>) -> tensor<128x128xf32> attributes {llvm.emit_c_interface} {
  %w3 = tensor.expand_shape %w [[0, 1], [2]] output_shape [2, 128, 256] : tensor<256x256xbf16> into tensor<2x128x256xbf16>
  %a = fp8.quantize %x : tensor<128x256xf32> -> !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w3 : tensor<2x128x256xbf16> -> !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32>
  %ids = arith.constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]> : tensor<128xi32>
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<128xi32>) {m_alignment = 64 : i64} : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<128x128xf32>
  return %d : tensor<128x128xf32>
}

// rows [0, 64) group 0, rows [64, 128) group 2 (G = 2)
func.func @out_of_range(%x: tensor<128x256xf32>, %w: tensor<256x256xbf16>) -> tensor<128x128xf32> attributes {llvm.emit_c_interface} {
  %w3 = tensor.expand_shape %w [[0, 1], [2]] output_shape [2, 128, 256] : tensor<256x256xbf16> into tensor<2x128x256xbf16>
  %a = fp8.quantize %x : tensor<128x256xf32> -> !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w3 : tensor<2x128x256xbf16> -> !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32>
  %ids = arith.constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]> : tensor<128xi32>
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<128xi32>) {m_alignment = 64 : i64} : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<128x128xf32>
  return %d : tensor<128x128xf32>
}
