// The BF16 batch kernel's D written through a head view (docs/gpu-kernel.md,
// "The BF16 variant", head views): a batch result whose only reader is
// attention's permutation back ([G, S, D] expanded to [B, H, S, D], then
// linalg.transpose [0, 2, 1, 3] to [B, S, H, D]) is stored by the kernel as
// [B, S, H, D] (batch g's row r at row (g / H x S + r) x H + g % H; kernels
// named _dh<H>), alone or with head views of the operands and a major. B =
// 2 sequences of S = 200 tokens, H = 3 heads of D = 64 and 128: M tails
// (200 = 128 + 72 rows: the tail's rows would land in the next sequence's),
// a K tail (K = S = 200), f32 and bf16 sources, as the compiled host
// program on the emulated mgpu runtime, bit for bit against
// fp8-cpu-pipeline (which sums, then permutes: the same products in the
// same order). Three scheduler seeds and the lockstep schedule; the trace
// shows the kernels and no host kernel for the permutations (@one: a
// batch of one sequence, the rank-3 [1, 0, 2] of [H, S, D]); one the
// kernel cannot express (@otherperm: [2, 0, 1, 3]) keeps its transpose and
// the packed kernel.
//
// config=fixed: the shapes' default tiles (128 x 128, two consumers).
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator config=fixed" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so ctx 1 f32:400x192 bf16:1200x200 f32:400x192 2>&1 | FileCheck %s --check-prefix=CTX
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so ctx 2 f32:400x192 bf16:1200x200 f32:400x192 | FileCheck %s --check-prefix=CTX-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so ctx 3 f32:400x192 bf16:1200x200 f32:400x192 | FileCheck %s --check-prefix=CTX-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so packed 4 f32:400x384 bf16:1200x64 bf16:384x128 2>&1 | FileCheck %s --check-prefix=PACKED
// RUN: env FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so packed 5 f32:400x384 bf16:1200x64 bf16:384x128 | FileCheck %s --check-prefix=PACKED-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so packed 6 f32:400x384 bf16:1200x64 bf16:384x128 | FileCheck %s --check-prefix=PACKED-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so dv 7 f32:400x192 f32:400x192 f32:1200x200 2>&1 | FileCheck %s --check-prefix=DV
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so dv 8 f32:400x192 f32:400x192 f32:1200x200 | FileCheck %s --check-prefix=DV-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so dv 9 f32:400x192 f32:400x192 f32:1200x200 | FileCheck %s --check-prefix=DV-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so one 11 f32:200x192 bf16:600x200 bf16:600x64 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: env FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so one 12 f32:200x192 bf16:600x200 bf16:600x64 | FileCheck %s --check-prefix=ONE-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so one 13 f32:200x192 bf16:600x200 bf16:600x64 | FileCheck %s --check-prefix=ONE-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so otherperm 10 f32:1200x64 bf16:1200x200 bf16:1200x64 2>&1 | FileCheck %s --check-prefix=OTHER

// V's conversion stays (one element-wise host kernel, on the source), no
// permuting one.
// A host kernel is matched by its op (`<function>_generic`, `_copy`, ...), not
// by its function: fp8-outline-host-kernels shares equal kernels between
// functions, named after the first.
// CTX-COUNT-1: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// CTX-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// CTX: fp8-emu-mgpu: launch fp8_batch_matmul_6x200x64x200_bf16_bf16_f32_init0_bh3_dh3 grid
// CTX-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// CTX: host-check: PASS ctx: 400x192, 76800 outputs bit-exact
// CTX-PASS: host-check: PASS ctx: 400x192, 76800 outputs bit-exact
// PACKED-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// PACKED: fp8-emu-mgpu: launch fp8_batch_matmul_6x200x128x64_bf16_bf16_f32_init0_dh3 grid
// PACKED-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// PACKED: host-check: PASS packed: 400x384, 153600 outputs bit-exact
// PACKED-PASS: host-check: PASS packed: 400x384, 153600 outputs bit-exact
// dV = P^T dO: P's swap read MN-major, dO (f32) through its head view; the
// two f32 conversions stay (element-wise host kernels), no permuting one.
// DV-COUNT-2: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// DV-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// DV: fp8-emu-mgpu: launch fp8_batch_matmul_6x200x64x200_bf16_bf16_f32_init0_am_bh3_dh3 grid
// DV-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// DV: host-check: PASS dv: 400x192, 76800 outputs bit-exact
// DV-PASS: host-check: PASS dv: 400x192, 76800 outputs bit-exact
// ONE-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// ONE: fp8-emu-mgpu: launch fp8_batch_matmul_3x200x64x200_bf16_bf16_f32_init0_dh3 grid
// ONE-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// ONE: host-check: PASS one: 200x192, 38400 outputs bit-exact
// ONE-PASS: host-check: PASS one: 200x192, 38400 outputs bit-exact
// OTHER: fp8-emu-mgpu: launch fp8_batch_matmul_6x200x64x200_bf16_bf16_f32_init0 grid
// OTHER: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// OTHER: host-check: PASS otherperm: 1200x64, 76800 outputs bit-exact

// The context P V back to [B x S, H x D] for o_proj: V (f32, [B x S, H x
// D]) read through its head view, D written through its.
func.func @ctx(%p2: tensor<1200x200xbf16>, %v2: tensor<400x192xf32>) -> tensor<400x192xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %p = tensor.expand_shape %p2 [[0, 1], [2]] output_shape [6, 200, 200] : tensor<1200x200xbf16> into tensor<6x200x200xbf16>
  %v4 = tensor.expand_shape %v2 [[0, 1], [2, 3]] output_shape [2, 200, 3, 64] : tensor<400x192xf32> into tensor<2x200x3x64xf32>
  %ev = tensor.empty() : tensor<2x3x200x64xf32>
  %vt = linalg.transpose ins(%v4 : tensor<2x200x3x64xf32>) outs(%ev : tensor<2x3x200x64xf32>) permutation = [0, 2, 1, 3]
  %vg = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x3x200x64xf32> into tensor<6x200x64xf32>
  %v = arith.truncf %vg : tensor<6x200x64xf32> to tensor<6x200x64xbf16>
  %ce = tensor.empty() : tensor<6x200x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %y = linalg.batch_matmul ins(%p, %v : tensor<6x200x200xbf16>, tensor<6x200x64xbf16>) outs(%z : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %y4 = tensor.expand_shape %y [[0, 1], [2], [3]] output_shape [2, 3, 200, 64] : tensor<6x200x64xf32> into tensor<2x3x200x64xf32>
  %ey = tensor.empty() : tensor<2x200x3x64xf32>
  %yt = linalg.transpose ins(%y4 : tensor<2x3x200x64xf32>) outs(%ey : tensor<2x200x3x64xf32>) permutation = [0, 2, 1, 3]
  %y2 = tensor.collapse_shape %yt [[0, 1], [2, 3]] : tensor<2x200x3x64xf32> into tensor<400x192xf32>
  return %y2 : tensor<400x192xf32>
}

// Packed operands, D = 128 (N = 128: one column tile), K = 64.
func.func @packed(%a2: tensor<1200x64xbf16>, %b2: tensor<384x128xbf16>) -> tensor<400x384xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %a = tensor.expand_shape %a2 [[0, 1], [2]] output_shape [6, 200, 64] : tensor<1200x64xbf16> into tensor<6x200x64xbf16>
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [6, 64, 128] : tensor<384x128xbf16> into tensor<6x64x128xbf16>
  %ce = tensor.empty() : tensor<6x200x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x200x128xf32>) -> tensor<6x200x128xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<6x200x64xbf16>, tensor<6x64x128xbf16>) outs(%z : tensor<6x200x128xf32>) -> tensor<6x200x128xf32>
  %y4 = tensor.expand_shape %y [[0, 1], [2], [3]] output_shape [2, 3, 200, 128] : tensor<6x200x128xf32> into tensor<2x3x200x128xf32>
  %ey = tensor.empty() : tensor<2x200x3x128xf32>
  %yt = linalg.transpose ins(%y4 : tensor<2x3x200x128xf32>) outs(%ey : tensor<2x200x3x128xf32>) permutation = [0, 2, 1, 3]
  %y2 = tensor.collapse_shape %yt [[0, 1], [2, 3]] : tensor<2x200x3x128xf32> into tensor<400x384xf32>
  return %y2 : tensor<400x384xf32>
}

// dV = P^T dO (the attention backward): P [G, S, S] in f32 swapped and
// converted (MN-major A), dO [B x S, H x D] in f32 through its head view,
// dV back to [B x S, H x D].
func.func @dv(%do2: tensor<400x192xf32>, %p2: tensor<1200x200xf32>) -> tensor<400x192xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %p = tensor.expand_shape %p2 [[0, 1], [2]] output_shape [6, 200, 200] : tensor<1200x200xf32> into tensor<6x200x200xf32>
  %ep = tensor.empty() : tensor<6x200x200xf32>
  %pt = linalg.transpose ins(%p : tensor<6x200x200xf32>) outs(%ep : tensor<6x200x200xf32>) permutation = [0, 2, 1]
  %a = arith.truncf %pt : tensor<6x200x200xf32> to tensor<6x200x200xbf16>
  %do4 = tensor.expand_shape %do2 [[0, 1], [2, 3]] output_shape [2, 200, 3, 64] : tensor<400x192xf32> into tensor<2x200x3x64xf32>
  %ed = tensor.empty() : tensor<2x3x200x64xf32>
  %dot = linalg.transpose ins(%do4 : tensor<2x200x3x64xf32>) outs(%ed : tensor<2x3x200x64xf32>) permutation = [0, 2, 1, 3]
  %dog = tensor.collapse_shape %dot [[0, 1], [2], [3]] : tensor<2x3x200x64xf32> into tensor<6x200x64xf32>
  %b = arith.truncf %dog : tensor<6x200x64xf32> to tensor<6x200x64xbf16>
  %ce = tensor.empty() : tensor<6x200x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<6x200x200xbf16>, tensor<6x200x64xbf16>) outs(%z : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %y4 = tensor.expand_shape %y [[0, 1], [2], [3]] output_shape [2, 3, 200, 64] : tensor<6x200x64xf32> into tensor<2x3x200x64xf32>
  %ey = tensor.empty() : tensor<2x200x3x64xf32>
  %yt = linalg.transpose ins(%y4 : tensor<2x3x200x64xf32>) outs(%ey : tensor<2x200x3x64xf32>) permutation = [0, 2, 1, 3]
  %y2 = tensor.collapse_shape %yt [[0, 1], [2, 3]] : tensor<2x200x3x64xf32> into tensor<400x192xf32>
  return %y2 : tensor<400x192xf32>
}

// One sequence (no batch dimension, the python models' unbatched
// attention): the context [H, S, D] -> [S, H, D] by a rank-3 [1, 0, 2],
// then [S, H x D].
func.func @one(%p2: tensor<600x200xbf16>, %v2: tensor<600x64xbf16>) -> tensor<200x192xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %p = tensor.expand_shape %p2 [[0, 1], [2]] output_shape [3, 200, 200] : tensor<600x200xbf16> into tensor<3x200x200xbf16>
  %v = tensor.expand_shape %v2 [[0, 1], [2]] output_shape [3, 200, 64] : tensor<600x64xbf16> into tensor<3x200x64xbf16>
  %ce = tensor.empty() : tensor<3x200x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<3x200x64xf32>) -> tensor<3x200x64xf32>
  %y = linalg.batch_matmul ins(%p, %v : tensor<3x200x200xbf16>, tensor<3x200x64xbf16>) outs(%z : tensor<3x200x64xf32>) -> tensor<3x200x64xf32>
  %ey = tensor.empty() : tensor<200x3x64xf32>
  %yt = linalg.transpose ins(%y : tensor<3x200x64xf32>) outs(%ey : tensor<200x3x64xf32>) permutation = [1, 0, 2]
  %y2 = tensor.collapse_shape %yt [[0], [1, 2]] : tensor<200x3x64xf32> into tensor<200x192xf32>
  return %y2 : tensor<200x192xf32>
}

// [B, H, S, D] -> [H, S, B, D]... as [1, 2, 0, 3]: not [B, S, H, D], a
// transpose kernel after the packed one.
func.func @otherperm(%p2: tensor<1200x200xbf16>, %v2: tensor<1200x64xbf16>) -> tensor<1200x64xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %p = tensor.expand_shape %p2 [[0, 1], [2]] output_shape [6, 200, 200] : tensor<1200x200xbf16> into tensor<6x200x200xbf16>
  %v = tensor.expand_shape %v2 [[0, 1], [2]] output_shape [6, 200, 64] : tensor<1200x64xbf16> into tensor<6x200x64xbf16>
  %ce = tensor.empty() : tensor<6x200x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %y = linalg.batch_matmul ins(%p, %v : tensor<6x200x200xbf16>, tensor<6x200x64xbf16>) outs(%z : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %y4 = tensor.expand_shape %y [[0, 1], [2], [3]] output_shape [2, 3, 200, 64] : tensor<6x200x64xf32> into tensor<2x3x200x64xf32>
  %ey = tensor.empty() : tensor<3x200x2x64xf32>
  %yt = linalg.transpose ins(%y4 : tensor<2x3x200x64xf32>) outs(%ey : tensor<3x200x2x64xf32>) permutation = [1, 2, 0, 3]
  %y2 = tensor.collapse_shape %yt [[0, 1, 2], [3]] : tensor<3x200x2x64xf32> into tensor<1200x64xf32>
  return %y2 : tensor<1200x64xf32>
}
