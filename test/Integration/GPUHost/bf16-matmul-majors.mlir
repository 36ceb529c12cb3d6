// The BF16 kernel's operand majors (docs/gpu-kernel.md, "The BF16 variant",
// operand majors): an operand the graph transposes (a linalg.transpose of
// the two matrix dimensions, of bf16 or of f32 converted by an arith.truncf
// after it) is read from its untransposed source, A [K, M] MN-major
// (wgmma's imm-trans-a; kernels named _am), B [N, K] K-major (no
// imm-trans-b; _bk). The four combinations (the default A K-major x B
// MN-major in bf16-matmul.mlir, here the other three) with every tail (M
// 200, N 136, K 72: a 72-row M tail, an 8-column N tail, a K tail of one
// k16 step), the _acc kernels (a non-zero C) and the _init0 ones (a zero
// fill), the conversion after the transpose (@mmf32: the truncf applied to
// the source untransposed), the batch kernel ([2, 72, 200] x [2, 136, 72]
// through [0, 2, 1] transposes), and a batch-dimension permutation that is
// not a major (@batchperm: [2, 0, 1] keeps the default kernel and its
// transpose; [1, 0, 2] is a batch of one's head view, bf16-matmul-heads.mlir) as the compiled host program on the emulated mgpu runtime,
// bit for bit against fp8-cpu-pipeline (which transposes, then sums in k
// order from the init: the same products in the same order). Three
// scheduler seeds and the lockstep schedule; the trace shows the kernels
// launched and no host kernel for the transposes the kernels read through.
//
// config=fixed: the shapes' default tiles (128 x 128, two consumers).
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator config=fixed" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so mmkk 1 f32:200x136 bf16:200x72 bf16:136x72 f32:200x136 2>&1 | FileCheck %s --check-prefix=KK
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so mmkk 2 f32:200x136 bf16:200x72 bf16:136x72 f32:200x136 | FileCheck %s --check-prefix=KK-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so mmkk 3 f32:200x136 bf16:200x72 bf16:136x72 f32:200x136 | FileCheck %s --check-prefix=KK-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so mmmn 4 f32:200x136 bf16:72x200 bf16:72x136 2>&1 | FileCheck %s --check-prefix=MN
// RUN: env FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so mmmn 5 f32:200x136 bf16:72x200 bf16:72x136 | FileCheck %s --check-prefix=MN-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so mmmn 6 f32:200x136 bf16:72x200 bf16:72x136 | FileCheck %s --check-prefix=MN-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so mmmk 7 f32:200x136 bf16:72x200 bf16:136x72 f32:200x136 2>&1 | FileCheck %s --check-prefix=MK
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so mmmk 8 f32:200x136 bf16:72x200 bf16:136x72 f32:200x136 | FileCheck %s --check-prefix=MK-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so mmmk 9 f32:200x136 bf16:72x200 bf16:136x72 f32:200x136 | FileCheck %s --check-prefix=MK-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so mmf32 10 f32:200x136 f32:72x200 f32:136x72 2>&1 | FileCheck %s --check-prefix=F32
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so mmf32 11 f32:200x136 f32:72x200 f32:136x72 | FileCheck %s --check-prefix=F32-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so batch 12 f32:400x136 bf16:144x200 bf16:272x72 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so batch 13 f32:400x136 bf16:144x200 bf16:272x72 | FileCheck %s --check-prefix=BATCH-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so batchperm 14 f32:400x136 bf16:200x144 bf16:144x136 2>&1 | FileCheck %s --check-prefix=PERM

// Grids: ceil(200 / 128) x ceil(136 / 128) = 4 tiles (8 for the batch of 2).
// KK-NOT: fp8-emu-mgpu: launch fp8_host
// KK: fp8-emu-mgpu: launch fp8_matmul_200x136x72_bf16_bf16_f32_accf32_bk grid 4 block 384
// KK-NOT: fp8-emu-mgpu: launch fp8_host
// KK: host-check: PASS mmkk: 200x136, 27200 outputs bit-exact
// KK-PASS: host-check: PASS mmkk: 200x136, 27200 outputs bit-exact
// MN-NOT: fp8-emu-mgpu: launch fp8_host
// MN: fp8-emu-mgpu: launch fp8_matmul_200x136x72_bf16_bf16_f32_init0_am grid 4 block 384
// MN-NOT: fp8-emu-mgpu: launch fp8_host
// MN: host-check: PASS mmmn: 200x136, 27200 outputs bit-exact
// MN-PASS: host-check: PASS mmmn: 200x136, 27200 outputs bit-exact
// MK-NOT: fp8-emu-mgpu: launch fp8_host
// MK: fp8-emu-mgpu: launch fp8_matmul_200x136x72_bf16_bf16_f32_accf32_am_bk grid 4 block 384
// MK-NOT: fp8-emu-mgpu: launch fp8_host
// MK: host-check: PASS mmmk: 200x136, 27200 outputs bit-exact
// MK-PASS: host-check: PASS mmmk: 200x136, 27200 outputs bit-exact
// The conversions of the two f32 sources stay (element-wise host kernels,
// untransposed), no transposing one.
// F32-COUNT-2: fp8-emu-mgpu: launch mmf32_
// F32-NOT: fp8-emu-mgpu: launch mmf32_
// F32: fp8-emu-mgpu: launch fp8_matmul_200x136x72_bf16_bf16_f32_init0_am_bk grid 4 block 384
// F32-NOT: fp8-emu-mgpu: launch mmf32_
// F32: host-check: PASS mmf32: 200x136, 27200 outputs bit-exact
// F32-PASS: host-check: PASS mmf32: 200x136, 27200 outputs bit-exact
// A host kernel is matched by its op (`<function>_generic`, `_copy`, ...), not
// by its function: fp8-outline-host-kernels shares equal kernels between
// functions, named after the first.
// BATCH-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// BATCH: fp8-emu-mgpu: launch fp8_batch_matmul_2x200x136x72_bf16_bf16_f32_init0_am_bk grid 8 block 384
// BATCH-NOT: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// BATCH: host-check: PASS batch: 400x136, 54400 outputs bit-exact
// BATCH-PASS: host-check: PASS batch: 400x136, 54400 outputs bit-exact
// The batch permutation: A's transpose a host kernel, the default kernel.
// PERM: fp8-emu-mgpu: launch {{[a-z0-9]+_(generic|copy|transpose|fill)}}
// PERM: fp8-emu-mgpu: launch fp8_batch_matmul_2x200x136x72_bf16_bf16_f32_init0 grid 8 block 384
// PERM: host-check: PASS batchperm: 400x136, 54400 outputs bit-exact

func.func @mmkk(%a: tensor<200x72xbf16>, %bt: tensor<136x72xbf16>, %c: tensor<200x136xf32>) -> tensor<200x136xf32> attributes {llvm.emit_c_interface} {
  %e = tensor.empty() : tensor<72x136xbf16>
  %b = linalg.transpose ins(%bt : tensor<136x72xbf16>) outs(%e : tensor<72x136xbf16>) permutation = [1, 0]
  %y = linalg.matmul ins(%a, %b : tensor<200x72xbf16>, tensor<72x136xbf16>) outs(%c : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %y : tensor<200x136xf32>
}

func.func @mmmn(%at: tensor<72x200xbf16>, %b: tensor<72x136xbf16>) -> tensor<200x136xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x72xbf16>
  %a = linalg.transpose ins(%at : tensor<72x200xbf16>) outs(%e : tensor<200x72xbf16>) permutation = [1, 0]
  %ce = tensor.empty() : tensor<200x136xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<200x136xf32>) -> tensor<200x136xf32>
  %y = linalg.matmul ins(%a, %b : tensor<200x72xbf16>, tensor<72x136xbf16>) outs(%z : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %y : tensor<200x136xf32>
}

func.func @mmmk(%at: tensor<72x200xbf16>, %bt: tensor<136x72xbf16>, %c: tensor<200x136xf32>) -> tensor<200x136xf32> attributes {llvm.emit_c_interface} {
  %ea = tensor.empty() : tensor<200x72xbf16>
  %a = linalg.transpose ins(%at : tensor<72x200xbf16>) outs(%ea : tensor<200x72xbf16>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<72x136xbf16>
  %b = linalg.transpose ins(%bt : tensor<136x72xbf16>) outs(%eb : tensor<72x136xbf16>) permutation = [1, 0]
  %y = linalg.matmul ins(%a, %b : tensor<200x72xbf16>, tensor<72x136xbf16>) outs(%c : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %y : tensor<200x136xf32>
}

// The language model's form: f32 transposed, then converted to bf16.
func.func @mmf32(%at: tensor<72x200xf32>, %bt: tensor<136x72xf32>) -> tensor<200x136xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<200x72xf32>
  %a32 = linalg.transpose ins(%at : tensor<72x200xf32>) outs(%ea : tensor<200x72xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<72x136xf32>
  %b32 = linalg.transpose ins(%bt : tensor<136x72xf32>) outs(%eb : tensor<72x136xf32>) permutation = [1, 0]
  %a = arith.truncf %a32 : tensor<200x72xf32> to tensor<200x72xbf16>
  %b = arith.truncf %b32 : tensor<72x136xf32> to tensor<72x136xbf16>
  %ce = tensor.empty() : tensor<200x136xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<200x136xf32>) -> tensor<200x136xf32>
  %y = linalg.matmul ins(%a, %b : tensor<200x72xbf16>, tensor<72x136xbf16>) outs(%z : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %y : tensor<200x136xf32>
}

// host_check passes matrices: the batches are expanded from their rows.
func.func @batch(%at2: tensor<144x200xbf16>, %bt2: tensor<272x72xbf16>) -> tensor<400x136xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %at = tensor.expand_shape %at2 [[0, 1], [2]] output_shape [2, 72, 200] : tensor<144x200xbf16> into tensor<2x72x200xbf16>
  %bt = tensor.expand_shape %bt2 [[0, 1], [2]] output_shape [2, 136, 72] : tensor<272x72xbf16> into tensor<2x136x72xbf16>
  %ea = tensor.empty() : tensor<2x200x72xbf16>
  %a = linalg.transpose ins(%at : tensor<2x72x200xbf16>) outs(%ea : tensor<2x200x72xbf16>) permutation = [0, 2, 1]
  %eb = tensor.empty() : tensor<2x72x136xbf16>
  %b = linalg.transpose ins(%bt : tensor<2x136x72xbf16>) outs(%eb : tensor<2x72x136xbf16>) permutation = [0, 2, 1]
  %ce = tensor.empty() : tensor<2x200x136xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<2x200x136xf32>) -> tensor<2x200x136xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x200x72xbf16>, tensor<2x72x136xbf16>) outs(%z : tensor<2x200x136xf32>) -> tensor<2x200x136xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<2x200x136xf32> into tensor<400x136xf32>
  return %y2 : tensor<400x136xf32>
}

// [S, K, G] -> [G, S, K]: the batch moves out of the columns, neither a
// major nor a head view of the kernel.
func.func @batchperm(%as2: tensor<200x144xbf16>, %b2: tensor<144x136xbf16>) -> tensor<400x136xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %as = tensor.expand_shape %as2 [[0], [1, 2]] output_shape [200, 72, 2] : tensor<200x144xbf16> into tensor<200x72x2xbf16>
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [2, 72, 136] : tensor<144x136xbf16> into tensor<2x72x136xbf16>
  %ea = tensor.empty() : tensor<2x200x72xbf16>
  %a = linalg.transpose ins(%as : tensor<200x72x2xbf16>) outs(%ea : tensor<2x200x72xbf16>) permutation = [2, 0, 1]
  %ce = tensor.empty() : tensor<2x200x136xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<2x200x136xf32>) -> tensor<2x200x136xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x200x72xbf16>, tensor<2x72x136xbf16>) outs(%z : tensor<2x200x136xf32>) -> tensor<2x200x136xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<2x200x136xf32> into tensor<400x136xf32>
  return %y2 : tensor<400x136xf32>
}
