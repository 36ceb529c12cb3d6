// Column-sum kernels (fp8.column_lanes, docs/gpu-kernel.md, "Column-sum
// kernels"): RMSNorm's weight gradient, the sum over the tokens of each
// hidden column, is one launch on the emulated device, bit-exact against
// fp8-cpu-pipeline, whose loops run fp8-split-reductions' column split
// (lane l adds tokens 32 j + l, then the tail token for l < T % 32, then
// the halving tree and the init: docs/numerics.md, "Reduction order").
// Odd shapes: 13 columns (a CTA's 8 columns do not divide them: the last
// CTA's threads past the end take part in the barriers only), 70 tokens
// (a tail of 6 lanes); the weight gradient's form (dy * xhat * rstd, rstd
// broadcast along the columns) over 1000 tokens (tail 8) and 100 columns
// (13 CTAs, the last with 4 columns) and 2048 tokens (no tail, the
// accumulator on the right); a -0.0 init and -0.0 terms (the sum keeps
// -0.0 only if every addition, the lanes' start included, does). Each
// under an emulator seed (two for the odd shapes) and the lockstep
// schedule: the schedules reorder the CTA's threads,
// so a level reading a slot before the lane that owns it stored it is a
// shared-memory race the emulator reports (a missing barrier), and a
// level pairing the wrong slots gives other bits.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARK --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so odd 1 f32:13 f32:70x13 f32:70x13 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so odd 2 f32:13 f32:70x13 f32:70x13 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so odd 3 f32:13 f32:70x13 f32:70x13 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so wgrad 4 f32:100 f32:1000x100 f32:1000x100 f32:1000 2>&1 | FileCheck %s --check-prefix=WGRAD
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=4 %t.check %t.gpu.so %t.cpu.so wgrad 5 f32:100 f32:1000x100 f32:1000x100 f32:1000 2>&1 | FileCheck %s --check-prefix=WGRAD
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so wgrad 6 f32:100 f32:1000x100 f32:1000x100 f32:1000 2>&1 | FileCheck %s --check-prefix=WGRAD
// RUN: env FP8_EMU_SEED=5 %t.check %t.gpu.so %t.cpu.so wide 7 f32:24 f32:2048x24 f32:2048x24 f32:2048 | FileCheck %s --check-prefix=WIDE
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so wide 8 f32:24 f32:2048x24 f32:2048x24 f32:2048 | FileCheck %s --check-prefix=WIDE
// RUN: env FP8_EMU_SEED=6 %t.check %t.gpu.so %t.cpu.so negzero 9 f32:9 f32:33x9 | FileCheck %s --check-prefix=NEGZERO
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so negzero 10 f32:9 f32:33x9 | FileCheck %s --check-prefix=NEGZERO

// No sum is left to the host, none runs one thread per column.
// REMARK-NOT: runs on the host
// REMARK-NOT: one thread per output element

// ODD-NOT: launch
// ODD: launch odd_generic_column_sum grid 2 block 256
// ODD-NOT: launch
// ODD: host-check: PASS odd: 1x13, 13 outputs bit-exact
// WGRAD-NOT: launch
// WGRAD: launch wgrad_generic_column_sum grid 13 block 256
// WGRAD-NOT: launch
// WGRAD: host-check: PASS wgrad: 1x100, 100 outputs bit-exact
// WIDE: host-check: PASS wide: 1x24, 24 outputs bit-exact
// NEGZERO: host-check: PASS negzero: 1x9, 9 outputs bit-exact (0 non-zero)

func.func @odd(%x: tensor<70x13xf32>, %y: tensor<70x13xf32>) -> tensor<13xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<13xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<13xf32>) -> tensor<13xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x, %y : tensor<70x13xf32>, tensor<70x13xf32>) outs(%s0 : tensor<13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %q = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  return %s : tensor<13xf32>
}

// The language model's form: dw[h] = sum_t dy[t, h] * x[t, h] * rstd[t].
func.func @wgrad(%dy: tensor<1000x100xf32>, %x: tensor<1000x100xf32>, %rstd: tensor<1000xf32>) -> tensor<100xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<100xf32>) -> tensor<100xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%dy, %x, %rstd : tensor<1000x100xf32>, tensor<1000x100xf32>, tensor<1000xf32>) outs(%s0 : tensor<100xf32>) {
  ^bb0(%g: f32, %a: f32, %r: f32, %acc: f32):
    %q = arith.mulf %g, %a : f32
    %w = arith.mulf %q, %r : f32
    %t = arith.addf %acc, %w : f32
    linalg.yield %t : f32
  } -> tensor<100xf32>
  return %s : tensor<100xf32>
}

// The accumulator on the right.
func.func @wide(%dy: tensor<2048x24xf32>, %x: tensor<2048x24xf32>, %rstd: tensor<2048xf32>) -> tensor<24xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<24xf32>) -> tensor<24xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%dy, %x, %rstd : tensor<2048x24xf32>, tensor<2048x24xf32>, tensor<2048xf32>) outs(%s0 : tensor<24xf32>) {
  ^bb0(%g: f32, %a: f32, %r: f32, %acc: f32):
    %q = arith.mulf %g, %a : f32
    %w = arith.mulf %q, %r : f32
    %t = arith.addf %w, %acc : f32
    linalg.yield %t : f32
  } -> tensor<24xf32>
  return %s : tensor<24xf32>
}

// Every term -0.0 (-0.0 * |x|) and the init -0.0: the result is -0.0 only
// where the lanes start at -0.0 (a +0.0 start would give +0.0).
func.func @negzero(%x: tensor<33x9xf32>) -> tensor<9xf32> attributes {llvm.emit_c_interface} {
  %nz = arith.constant -0.0 : f32
  %e = tensor.empty() : tensor<9xf32>
  %s0 = linalg.fill ins(%nz : f32) outs(%e : tensor<9xf32>) -> tensor<9xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<33x9xf32>) outs(%s0 : tensor<9xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = math.absf %a : f32
    %z = arith.mulf %m, %nz : f32
    %t = arith.addf %acc, %z : f32
    linalg.yield %t : f32
  } -> tensor<9xf32>
  return %s : tensor<9xf32>
}
