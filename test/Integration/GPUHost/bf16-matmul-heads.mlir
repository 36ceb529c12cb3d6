// The BF16 batch kernel's head views (docs/gpu-kernel.md, "The BF16
// variant", head views): a batch operand that is attention's head
// permutation of a [B, S, H, D] source (a linalg.transpose [0, 2, 1, 3],
// the batch dimensions collapsed: G = B x H) is read in place through a
// rank-4 TMA map (B, H, rows, cols) of the source's strides, batch g at
// (g / H, g % H) (kernels named _ah<H>, _bh<H>), alone or with a major
// (the [0, 2, 1] swap of a head view: K^T, V^T). B = 2 sequences of S = 200
// tokens, H = 3 heads of D = 64 and 128: M tails (200 = 128 + 72 rows), a
// K tail (K = S = 200: 3 blocks of 64 and 8), C non-zero (_acc) and zero
// fills (_init0), f32 sources converted after the permutation (the
// language model's form: the conversion applied to the source in place)
// and bf16 ones, as the compiled host program on the emulated mgpu
// runtime, bit for bit against fp8-cpu-pipeline (which permutes, then sums
// in k order from the init: the same products in the same order). Three
// scheduler seeds and the lockstep schedule; the trace shows the kernels
// and no host kernel for the permutations read in place; a permutation the
// kernel cannot express (@otherperm: [2, 0, 1, 3], batch g = h x B + b)
// keeps its transpose and the packed kernel. A batch of one sequence
// (@qk1, @pv1: the [S, H, D] source permuted [1, 0, 2] to [H, S, D], no
// collapse) is the same head view with B = 1 (the launcher reads the
// source as [1, S, H, D]).
//
// config=fixed: the shapes' default tiles (128 x 128, two consumers).
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator config=fixed" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so pv 1 f32:1200x64 bf16:1200x200 f32:400x192 2>&1 | FileCheck %s --check-prefix=PV
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so pv 2 f32:1200x64 bf16:1200x200 f32:400x192 | FileCheck %s --check-prefix=PV-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so pv 3 f32:1200x64 bf16:1200x200 f32:400x192 | FileCheck %s --check-prefix=PV-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so qk 4 f32:1200x200 bf16:400x384 bf16:400x384 f32:1200x200 2>&1 | FileCheck %s --check-prefix=QK
// RUN: env FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so qk 5 f32:1200x200 bf16:400x384 bf16:400x384 f32:1200x200 | FileCheck %s --check-prefix=QK-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so qk 6 f32:1200x200 bf16:400x384 bf16:400x384 f32:1200x200 | FileCheck %s --check-prefix=QK-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so amn 7 f32:1200x136 f32:128x600 bf16:384x136 2>&1 | FileCheck %s --check-prefix=AMN
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so amn 8 f32:1200x136 f32:128x600 bf16:384x136 | FileCheck %s --check-prefix=AMN-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so amn 9 f32:1200x136 f32:128x600 bf16:384x136 | FileCheck %s --check-prefix=AMN-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so otherperm 10 f32:1200x64 bf16:1200x200 bf16:400x192 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so qk1 11 f32:600x200 bf16:200x384 bf16:200x384 f32:600x200 2>&1 | FileCheck %s --check-prefix=QK1
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so qk1 12 f32:600x200 bf16:200x384 bf16:200x384 f32:600x200 | FileCheck %s --check-prefix=QK1-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so pv1 13 f32:600x64 bf16:600x200 f32:200x192 2>&1 | FileCheck %s --check-prefix=PV1
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so pv1 14 f32:600x64 bf16:600x200 f32:200x192 | FileCheck %s --check-prefix=PV1-PASS

// Grids: G x ceil(200 / 128) x ceil(N / 128) tiles = 12 for N = 64 and
// 136... 200: 6 x 2 x 2 = 24.
// PV-NOT: fp8-emu-mgpu: launch fp8_host
// A host kernel is matched by its op (`<function>_generic`, `_copy`, ...), not
// by its function: fp8-outline-host-kernels shares equal kernels between
// functions, named after the first.
// PV-NOT: fp8-emu-mgpu: launch {{[a-z0-9_]+}}transpose
// PV: fp8-emu-mgpu: launch fp8_batch_matmul_6x200x64x200_bf16_bf16_f32_init0_bh3 grid
// PV: host-check: PASS pv: 1200x64, 76800 outputs bit-exact
// PV-PASS: host-check: PASS pv: 1200x64, 76800 outputs bit-exact
// QK-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// QK: fp8-emu-mgpu: launch fp8_batch_matmul_6x200x200x128_bf16_bf16_f32_accf32_bk_ah3_bh3 grid
// QK-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// QK: host-check: PASS qk: 1200x200, 240000 outputs bit-exact
// QK-PASS: host-check: PASS qk: 1200x200, 240000 outputs bit-exact
// The f32 source's conversion stays (one element-wise host kernel, on the
// source), no permuting one.
// AMN-COUNT-1: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// AMN-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// AMN: fp8-emu-mgpu: launch fp8_batch_matmul_6x200x136x64_bf16_bf16_f32_init0_am_ah3 grid
// AMN-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// AMN: host-check: PASS amn: 1200x136, 163200 outputs bit-exact
// AMN-PASS: host-check: PASS amn: 1200x136, 163200 outputs bit-exact
// OTHER: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// OTHER: fp8-emu-mgpu: launch fp8_batch_matmul_6x200x64x200_bf16_bf16_f32_init0 grid
// OTHER: host-check: PASS otherperm: 1200x64, 76800 outputs bit-exact
// QK1-NOT: fp8-emu-mgpu: launch qk1_
// QK1: fp8-emu-mgpu: launch fp8_batch_matmul_3x200x200x128_bf16_bf16_f32_accf32_bk_ah3_bh3 grid
// QK1-NOT: fp8-emu-mgpu: launch qk1_
// QK1: host-check: PASS qk1: 600x200, 120000 outputs bit-exact
// QK1-PASS: host-check: PASS qk1: 600x200, 120000 outputs bit-exact
// The f32 source's conversion stays (one element-wise host kernel).
// PV1-COUNT-1: fp8-emu-mgpu: launch pv1_
// PV1-NOT: fp8-emu-mgpu: launch pv1_
// PV1: fp8-emu-mgpu: launch fp8_batch_matmul_3x200x64x200_bf16_bf16_f32_init0_bh3 grid
// PV1-NOT: fp8-emu-mgpu: launch pv1_
// PV1: host-check: PASS pv1: 600x64, 38400 outputs bit-exact
// PV1-PASS: host-check: PASS pv1: 600x64, 38400 outputs bit-exact

// The context (P V): probabilities [G, S, S] times V, the v_proj output [B x
// S, H x D] in f32 viewed [B, S, H, D], permuted to [B, H, S, D] and
// converted to bf16.
func.func @pv(%p2: tensor<1200x200xbf16>, %v2: tensor<400x192xf32>) -> tensor<1200x64xf32> attributes {llvm.emit_c_interface} {
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
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<6x200x64xf32> into tensor<1200x64xf32>
  return %y2 : tensor<1200x64xf32>
}

// The scores QK^T with D = 128: Q's head view as A, K's as B through the
// [0, 2, 1] swap (K-major B), bf16 sources, a non-zero C.
func.func @qk(%q2: tensor<400x384xbf16>, %k2: tensor<400x384xbf16>, %c2: tensor<1200x200xf32>) -> tensor<1200x200xf32> attributes {llvm.emit_c_interface} {
  %q4 = tensor.expand_shape %q2 [[0, 1], [2, 3]] output_shape [2, 200, 3, 128] : tensor<400x384xbf16> into tensor<2x200x3x128xbf16>
  %k4 = tensor.expand_shape %k2 [[0, 1], [2, 3]] output_shape [2, 200, 3, 128] : tensor<400x384xbf16> into tensor<2x200x3x128xbf16>
  %e4 = tensor.empty() : tensor<2x3x200x128xbf16>
  %qt = linalg.transpose ins(%q4 : tensor<2x200x3x128xbf16>) outs(%e4 : tensor<2x3x200x128xbf16>) permutation = [0, 2, 1, 3]
  %kt = linalg.transpose ins(%k4 : tensor<2x200x3x128xbf16>) outs(%e4 : tensor<2x3x200x128xbf16>) permutation = [0, 2, 1, 3]
  %q = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x3x200x128xbf16> into tensor<6x200x128xbf16>
  %kg = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x3x200x128xbf16> into tensor<6x200x128xbf16>
  %ek = tensor.empty() : tensor<6x128x200xbf16>
  %k = linalg.transpose ins(%kg : tensor<6x200x128xbf16>) outs(%ek : tensor<6x128x200xbf16>) permutation = [0, 2, 1]
  %c = tensor.expand_shape %c2 [[0, 1], [2]] output_shape [6, 200, 200] : tensor<1200x200xf32> into tensor<6x200x200xf32>
  %y = linalg.batch_matmul ins(%q, %k : tensor<6x200x128xbf16>, tensor<6x128x200xbf16>) outs(%c : tensor<6x200x200xf32>) -> tensor<6x200x200xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<6x200x200xf32> into tensor<1200x200xf32>
  return %y2 : tensor<1200x200xf32>
}

// An MN-major A through a head view: the f32 source [B, K, H, M] = [2,
// 64, 3, 200], permuted to [G, K, M], swapped to [G, M, K], converted.
func.func @amn(%x2: tensor<128x600xf32>, %b2: tensor<384x136xbf16>) -> tensor<1200x136xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %x4 = tensor.expand_shape %x2 [[0, 1], [2, 3]] output_shape [2, 64, 3, 200] : tensor<128x600xf32> into tensor<2x64x3x200xf32>
  %e4 = tensor.empty() : tensor<2x3x64x200xf32>
  %xt = linalg.transpose ins(%x4 : tensor<2x64x3x200xf32>) outs(%e4 : tensor<2x3x64x200xf32>) permutation = [0, 2, 1, 3]
  %xg = tensor.collapse_shape %xt [[0, 1], [2], [3]] : tensor<2x3x64x200xf32> into tensor<6x64x200xf32>
  %ea = tensor.empty() : tensor<6x200x64xf32>
  %a32 = linalg.transpose ins(%xg : tensor<6x64x200xf32>) outs(%ea : tensor<6x200x64xf32>) permutation = [0, 2, 1]
  %a = arith.truncf %a32 : tensor<6x200x64xf32> to tensor<6x200x64xbf16>
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [6, 64, 136] : tensor<384x136xbf16> into tensor<6x64x136xbf16>
  %ce = tensor.empty() : tensor<6x200x136xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x200x136xf32>) -> tensor<6x200x136xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<6x200x64xbf16>, tensor<6x64x136xbf16>) outs(%z : tensor<6x200x136xf32>) -> tensor<6x200x136xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<6x200x136xf32> into tensor<1200x136xf32>
  return %y2 : tensor<1200x136xf32>
}

// [B, S, H, D] -> [H, B, S, D]: batch g is (g / B, g % B) of (H, B), not a
// head view (whose batch is (g / H, g % H) of (B, H)): a transpose kernel.
func.func @otherperm(%p2: tensor<1200x200xbf16>, %v2: tensor<400x192xbf16>) -> tensor<1200x64xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %p = tensor.expand_shape %p2 [[0, 1], [2]] output_shape [6, 200, 200] : tensor<1200x200xbf16> into tensor<6x200x200xbf16>
  %v4 = tensor.expand_shape %v2 [[0, 1], [2, 3]] output_shape [2, 200, 3, 64] : tensor<400x192xbf16> into tensor<2x200x3x64xbf16>
  %ev = tensor.empty() : tensor<3x2x200x64xbf16>
  %vt = linalg.transpose ins(%v4 : tensor<2x200x3x64xbf16>) outs(%ev : tensor<3x2x200x64xbf16>) permutation = [2, 0, 1, 3]
  %v = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<3x2x200x64xbf16> into tensor<6x200x64xbf16>
  %ce = tensor.empty() : tensor<6x200x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %y = linalg.batch_matmul ins(%p, %v : tensor<6x200x200xbf16>, tensor<6x200x64xbf16>) outs(%z : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<6x200x64xf32> into tensor<1200x64xf32>
  return %y2 : tensor<1200x64xf32>
}

// The scores of one sequence: Q [S, H, D] permuted [1, 0, 2] to [H, S, D]
// as A, K's the same view through the [0, 2, 1] swap as B.
func.func @qk1(%q2: tensor<200x384xbf16>, %k2: tensor<200x384xbf16>, %c2: tensor<600x200xf32>) -> tensor<600x200xf32> attributes {llvm.emit_c_interface} {
  %q3 = tensor.expand_shape %q2 [[0], [1, 2]] output_shape [200, 3, 128] : tensor<200x384xbf16> into tensor<200x3x128xbf16>
  %k3 = tensor.expand_shape %k2 [[0], [1, 2]] output_shape [200, 3, 128] : tensor<200x384xbf16> into tensor<200x3x128xbf16>
  %e3 = tensor.empty() : tensor<3x200x128xbf16>
  %q = linalg.transpose ins(%q3 : tensor<200x3x128xbf16>) outs(%e3 : tensor<3x200x128xbf16>) permutation = [1, 0, 2]
  %kg = linalg.transpose ins(%k3 : tensor<200x3x128xbf16>) outs(%e3 : tensor<3x200x128xbf16>) permutation = [1, 0, 2]
  %ek = tensor.empty() : tensor<3x128x200xbf16>
  %k = linalg.transpose ins(%kg : tensor<3x200x128xbf16>) outs(%ek : tensor<3x128x200xbf16>) permutation = [0, 2, 1]
  %c = tensor.expand_shape %c2 [[0, 1], [2]] output_shape [3, 200, 200] : tensor<600x200xf32> into tensor<3x200x200xf32>
  %y = linalg.batch_matmul ins(%q, %k : tensor<3x200x128xbf16>, tensor<3x128x200xbf16>) outs(%c : tensor<3x200x200xf32>) -> tensor<3x200x200xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<3x200x200xf32> into tensor<600x200xf32>
  return %y2 : tensor<600x200xf32>
}

// The context of one sequence: V [S, H, D] in f32 permuted to [H, S, D],
// then converted.
func.func @pv1(%p2: tensor<600x200xbf16>, %v2: tensor<200x192xf32>) -> tensor<600x64xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %p = tensor.expand_shape %p2 [[0, 1], [2]] output_shape [3, 200, 200] : tensor<600x200xbf16> into tensor<3x200x200xbf16>
  %v3 = tensor.expand_shape %v2 [[0], [1, 2]] output_shape [200, 3, 64] : tensor<200x192xf32> into tensor<200x3x64xf32>
  %ev = tensor.empty() : tensor<3x200x64xf32>
  %vt = linalg.transpose ins(%v3 : tensor<200x3x64xf32>) outs(%ev : tensor<3x200x64xf32>) permutation = [1, 0, 2]
  %v = arith.truncf %vt : tensor<3x200x64xf32> to tensor<3x200x64xbf16>
  %ce = tensor.empty() : tensor<3x200x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<3x200x64xf32>) -> tensor<3x200x64xf32>
  %y = linalg.batch_matmul ins(%p, %v : tensor<3x200x200xbf16>, tensor<3x200x64xbf16>) outs(%z : tensor<3x200x64xf32>) -> tensor<3x200x64xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<3x200x64xf32> into tensor<600x64xf32>
  return %y2 : tensor<600x64xf32>
}
