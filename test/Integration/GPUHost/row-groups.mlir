// Fused row kernels (issue 42 item 2): fp8-split-reductions{row-kernels}
// marks a row sum and the elementwise ops that consume its per-row result
// (`fp8.row_group`), and fp8-outline-host-kernels computes the group in
// the row sum's launch: after the butterfly every lane holds the row's
// total, computes the per-row ops in registers (lane 0 stores their
// outputs) and then its own elements of the row in the reduction order's
// lane map (V = 4: elements 4 l .. 4 l + 3 of each 128-element step with
// vector loads and stores where aligned, then l + 32 i, then the tail),
// storing each elementwise output, the element loop before a reduction
// carrying the lane's partial sum of it. Bit-exact against fp8-cpu-pipeline
// (the oracle, which runs the same ops as separate loop nests), on the
// emulated device, traced (seeds 1-3) and in lockstep:
// - RMSNorm forward (sum of squares, rsqrt(sum / N + eps), x * rstd * w):
//   rows of 33 (20 rows: 3 CTAs), 100 (an init of 0.5, so that every lane
//   must take lane 0's init), 1024 (bf16 in and out), 4099; both results
//   (the normalized rows and rstd, which the backward reads) checked;
// - masked softmax over the last dimension of a [b, s, n] tensor, the exp
//   expanded by fp8-expand-math, rows of 33, 128, 4099: ONE launch (after
//   the two inits' fills) computes the mask add (a producer of the max,
//   each lane storing its own elements, which z - max reads back) with the
//   max's partial maxima in the same loop, the max, exp(z - max) (stored)
//   with the sum's partial sums in the same loop, its butterfly, the
//   divide (each lane reads back only what it stored: no barrier); before producer and chained fusion: the mask add, the max's
//   group and the sum's group, each a launch (and the sum's fill between);
// - softmax without a mask, rows of 100: the same launch without the
//   producer;
// - the intermediates nothing reads after a kernel (the masked scores, the
//   exps, the row max and sum, RMSNorm's sums) are not stored: later walks
//   recompute them from the inputs (docs/gpu-kernel.md, "Dead outputs");
//   softmaxlive128 returns its exps, which its kernel stores and reads back;
// - cross-entropy: logsumexp (max, exp(z - max), sum, log(sum) + max per
//   row) with the gradient softmax - onehot(target) (reading the i64
//   target ids), rows of 33 (40 rows: 5 CTAs), 1000, 4099, one launch;
// - RMSNorm backward: sum(dn * gamma * x) with dx (reading rstd, gamma and
//   the sum broadcast), rows of 100 and 4099;
// - a row sum with an init of 1000.25 (its fill folded into the kernel: the
//   init added after the butterfly, as the CPU adds it last; added first,
//   to lane 0's partial sum, the rounding differs) and its consumer x * sum,
//   the sum itself an output, 40 rows of 100.
// Each group is one launch (the inits' fills, moved before it by
// fp8-split-reductions, folded into it: the kernel takes each fill's scalar
// as the init; before the fusion: the fill, the row kernel, then one
// launch per consumer).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARK --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so rms33 1 f32:20x33,f32:20 f32:20x33 f32:33 2>&1 | FileCheck %s --check-prefix=RMS33
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so rms100 2 f32:5x100,f32:5 f32:5x100 f32:100 2>&1 | FileCheck %s --check-prefix=RMS100
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so rms1024bf16 3 bf16:9x1024,f32:9 bf16:9x1024 f32:1024 2>&1 | FileCheck %s --check-prefix=RMS1024BF16
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so rms4099 4 f32:3x4099,f32:3 f32:3x4099 f32:4099 2>&1 | FileCheck %s --check-prefix=RMS4099
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so softmax33 5 f32:10x33 f32:10x33 f32:5x33 2>&1 | FileCheck %s --check-prefix=SOFTMAX33
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so softmax128 6 f32:9x128 f32:9x128 f32:9x128 2>&1 | FileCheck %s --check-prefix=SOFTMAX128
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so softmaxlive128 45 f32:9x128,f32:9x128 f32:9x128 f32:9x128 2>&1 | FileCheck %s --check-prefix=SOFTMAXLIVE128
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so softmax4099 7 f32:2x4099 f32:2x4099 f32:2x4099 2>&1 | FileCheck %s --check-prefix=SOFTMAX4099
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so rmsbwd100 8 f32:11x100 f32:11x100 f32:11x100 f32:11 f32:100 2>&1 | FileCheck %s --check-prefix=RMSBWD100
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so rmsbwd4099 9 f32:2x4099 f32:2x4099 f32:2x4099 f32:2 f32:4099 2>&1 | FileCheck %s --check-prefix=RMSBWD4099
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so plainsoftmax100 10 f32:12x100 f32:12x100 2>&1 | FileCheck %s --check-prefix=PLAIN100
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so xent33 11 f32:40x33,f32:40 f32:40x33 'i64<33>:40' 2>&1 | FileCheck %s --check-prefix=XENT33
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so xent1000 12 f32:7x1000,f32:7 f32:7x1000 'i64<1000>:7' 2>&1 | FileCheck %s --check-prefix=XENT1000
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so xent4099 13 f32:3x4099,f32:3 f32:3x4099 'i64<4099>:3' 2>&1 | FileCheck %s --check-prefix=XENT4099
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so softmax33 14 f32:10x33 f32:10x33 f32:5x33 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so softmax4099 15 f32:2x4099 f32:2x4099 f32:2x4099 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so xent4099 16 f32:3x4099,f32:3 f32:3x4099 'i64<4099>:3' | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so sumscale 17 f32:40x100,f32:40 f32:40x100 2>&1 | FileCheck %s --check-prefix=SUMSCALE
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so sumscale 18 f32:40x100,f32:40 f32:40x100 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so sumscale 44 f32:40x100,f32:40 f32:40x100 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so rms33 31 f32:20x33,f32:20 f32:20x33 f32:33 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so rms100 32 f32:5x100,f32:5 f32:5x100 f32:100 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so rms1024bf16 33 bf16:9x1024,f32:9 bf16:9x1024 f32:1024 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so rms4099 34 f32:3x4099,f32:3 f32:3x4099 f32:4099 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so softmax33 35 f32:10x33 f32:10x33 f32:5x33 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so softmax128 36 f32:9x128 f32:9x128 f32:9x128 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so softmaxlive128 46 f32:9x128,f32:9x128 f32:9x128 f32:9x128 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so softmax4099 37 f32:2x4099 f32:2x4099 f32:2x4099 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so rmsbwd100 38 f32:11x100 f32:11x100 f32:11x100 f32:11 f32:100 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so rmsbwd4099 39 f32:2x4099 f32:2x4099 f32:2x4099 f32:2 f32:4099 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so plainsoftmax100 40 f32:12x100 f32:12x100 | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so xent33 41 f32:40x33,f32:40 f32:40x33 'i64<33>:40' | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so xent1000 42 f32:7x1000,f32:7 f32:7x1000 'i64<1000>:7' | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so xent4099 43 f32:3x4099,f32:3 f32:3x4099 'i64<4099>:3' | FileCheck %s --check-prefix=PASS

// Every consumer of a row kernel is in its group.
// REMARK-NOT: runs on the host
// REMARK-NOT: one thread per output element
// REMARK-NOT: not fused

// PASS: host-check: PASS

// RMS33-NOT: launch {{.*}}_fill
// RMS33: launch rms33_row_sum_fused grid 3 block 256
// RMS33-NEXT: host-check: PASS rms33#0: 20x33, 660 outputs bit-exact
// RMS33-NEXT: host-check: PASS rms33#1: 1x20, 20 outputs bit-exact
// RMS100-NOT: launch {{.*}}_fill
// RMS100: launch rms100_row_sum_fused grid 1 block 160
// RMS100-NEXT: host-check: PASS rms100#0: 5x100, 500 outputs bit-exact
// RMS100-NEXT: host-check: PASS rms100#1: 1x5, 5 outputs bit-exact
// RMS1024BF16-NOT: launch {{.*}}_fill
// RMS1024BF16: launch rms1024bf16_row_sum_fused grid 2 block 256
// RMS1024BF16-NEXT: host-check: PASS rms1024bf16#0: 9x1024, 9216 outputs bit-exact
// RMS1024BF16-NEXT: host-check: PASS rms1024bf16#1: 1x9, 9 outputs bit-exact
// RMS4099-NOT: launch {{.*}}_fill
// RMS4099: launch rms4099_row_sum_fused grid 1 block 96
// RMS4099-NEXT: host-check: PASS rms4099#0: 3x4099, 12297 outputs bit-exact
// RMS4099-NEXT: host-check: PASS rms4099#1: 1x3, 3 outputs bit-exact
// The one launch (the two inits' fills folded into it): the mask add, the max, its
// consumers, the sum, its consumer.
// SOFTMAX33-NOT: launch {{.*}}_fill
// SOFTMAX33: launch softmax33_row_max_fused grid 2 block 256
// SOFTMAX33-NEXT: host-check: PASS softmax33: 10x33, 330 outputs bit-exact
// SOFTMAX128-NOT: launch {{.*}}_fill
// SOFTMAX128: launch softmax128_row_max_fused grid 2 block 256
// SOFTMAX128-NEXT: host-check: PASS softmax128: 9x128, 1152 outputs bit-exact
// SOFTMAXLIVE128: launch softmaxlive128_row_max_fused grid 2 block 256
// SOFTMAXLIVE128-NEXT: host-check: PASS softmaxlive128#0: 9x128, 1152 outputs bit-exact
// SOFTMAXLIVE128-NEXT: host-check: PASS softmaxlive128#1: 9x128, 1152 outputs bit-exact
// SOFTMAX4099-NOT: launch {{.*}}_fill
// SOFTMAX4099: launch softmax4099_row_max_fused grid 1 block 64
// SOFTMAX4099-NEXT: host-check: PASS softmax4099: 2x4099, 8198 outputs bit-exact
// PLAIN100-NOT: launch {{.*}}_fill
// PLAIN100: launch plainsoftmax100_row_max_fused grid 2 block 256
// PLAIN100-NEXT: host-check: PASS plainsoftmax100: 12x100, 1200 outputs bit-exact
// XENT33-NOT: launch {{.*}}_fill
// XENT33: launch xent33_row_max_fused grid 5 block 256
// XENT33-NEXT: host-check: PASS xent33#0: 40x33, 1320 outputs bit-exact
// XENT33-NEXT: host-check: PASS xent33#1: 1x40, 40 outputs bit-exact
// XENT1000-NOT: launch {{.*}}_fill
// XENT1000: launch xent1000_row_max_fused grid 1 block 224
// XENT1000-NEXT: host-check: PASS xent1000#0: 7x1000, 7000 outputs bit-exact
// XENT1000-NEXT: host-check: PASS xent1000#1: 1x7, 7 outputs bit-exact
// XENT4099-NOT: launch {{.*}}_fill
// XENT4099: launch xent4099_row_max_fused grid 1 block 96
// XENT4099-NEXT: host-check: PASS xent4099#0: 3x4099, 12297 outputs bit-exact
// XENT4099-NEXT: host-check: PASS xent4099#1: 1x3, 3 outputs bit-exact
// RMSBWD100-NOT: launch {{.*}}_fill
// RMSBWD100: launch rmsbwd100_row_sum_fused grid 2 block 256
// RMSBWD100-NEXT: host-check: PASS rmsbwd100: 11x100, 1100 outputs bit-exact
// SUMSCALE-NOT: launch {{.*}}_fill
// SUMSCALE: launch sumscale_row_sum_fused grid 5 block 256
// SUMSCALE-NEXT: host-check: PASS sumscale#0: 40x100, 4000 outputs bit-exact
// SUMSCALE-NEXT: host-check: PASS sumscale#1: 1x40, 40 outputs bit-exact
// RMSBWD4099-NOT: launch {{.*}}_fill
// RMSBWD4099: launch rmsbwd4099_row_sum_fused grid 1 block 64
// RMSBWD4099-NEXT: host-check: PASS rmsbwd4099: 2x4099, 8198 outputs bit-exact

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#m3 = affine_map<(d0, d1, d2) -> (d1, d2)>

func.func @rms33(%x: tensor<20x33xf32>, %w: tensor<33xf32>) -> (tensor<20x33xf32>, tensor<20xf32>) attributes {llvm.emit_c_interface} {
  %init = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20xf32>
  %s0 = linalg.fill ins(%init : f32) outs(%e : tensor<20xf32>) -> tensor<20xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<20x33xf32>) outs(%s0 : tensor<20xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %nz = arith.constant -0.0 : f32
    %xf = arith.addf %a, %nz : f32
    %q = arith.mulf %xf, %xf : f32
    %y = arith.addf %acc, %q : f32
    linalg.yield %y : f32
  } -> tensor<20xf32>
  %e1 = tensor.empty() : tensor<20xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%s : tensor<20xf32>) outs(%e1 : tensor<20xf32>) {
  ^bb0(%a: f32, %o: f32):
    %inv = arith.constant 3.030303030e-02 : f32
    %eps = arith.constant 9.99999997e-07 : f32
    %m = arith.mulf %a, %inv : f32
    %p = arith.addf %m, %eps : f32
    %y = math.rsqrt %p : f32
    linalg.yield %y : f32
  } -> tensor<20xf32>
  %e2 = tensor.empty() : tensor<20x33xf32>
  %n = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %w : tensor<20x33xf32>, tensor<20xf32>, tensor<33xf32>) outs(%e2 : tensor<20x33xf32>) {
  ^bb0(%a: f32, %rs: f32, %g: f32, %o: f32):
    %nz = arith.constant -0.0 : f32
    %xf = arith.addf %a, %nz : f32
    %t = arith.mulf %xf, %rs : f32
    %u = arith.mulf %t, %g : f32
    %v = arith.addf %u, %nz : f32
    linalg.yield %v : f32
  } -> tensor<20x33xf32>
  return %n, %rstd : tensor<20x33xf32>, tensor<20xf32>
}

func.func @rms100(%x: tensor<5x100xf32>, %w: tensor<100xf32>) -> (tensor<5x100xf32>, tensor<5xf32>) attributes {llvm.emit_c_interface} {
  %init = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<5xf32>
  %s0 = linalg.fill ins(%init : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x100xf32>) outs(%s0 : tensor<5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %nz = arith.constant -0.0 : f32
    %xf = arith.addf %a, %nz : f32
    %q = arith.mulf %xf, %xf : f32
    %y = arith.addf %acc, %q : f32
    linalg.yield %y : f32
  } -> tensor<5xf32>
  %e1 = tensor.empty() : tensor<5xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%s : tensor<5xf32>) outs(%e1 : tensor<5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %inv = arith.constant 1.000000000e-02 : f32
    %eps = arith.constant 9.99999997e-07 : f32
    %m = arith.mulf %a, %inv : f32
    %p = arith.addf %m, %eps : f32
    %y = math.rsqrt %p : f32
    linalg.yield %y : f32
  } -> tensor<5xf32>
  %e2 = tensor.empty() : tensor<5x100xf32>
  %n = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %w : tensor<5x100xf32>, tensor<5xf32>, tensor<100xf32>) outs(%e2 : tensor<5x100xf32>) {
  ^bb0(%a: f32, %rs: f32, %g: f32, %o: f32):
    %nz = arith.constant -0.0 : f32
    %xf = arith.addf %a, %nz : f32
    %t = arith.mulf %xf, %rs : f32
    %u = arith.mulf %t, %g : f32
    %v = arith.addf %u, %nz : f32
    linalg.yield %v : f32
  } -> tensor<5x100xf32>
  return %n, %rstd : tensor<5x100xf32>, tensor<5xf32>
}

func.func @rms1024bf16(%x: tensor<9x1024xbf16>, %w: tensor<1024xf32>) -> (tensor<9x1024xbf16>, tensor<9xf32>) attributes {llvm.emit_c_interface} {
  %init = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<9xf32>
  %s0 = linalg.fill ins(%init : f32) outs(%e : tensor<9xf32>) -> tensor<9xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<9x1024xbf16>) outs(%s0 : tensor<9xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %nz = arith.constant -0.0 : f32
    %xf = arith.extf %a : bf16 to f32
    %q = arith.mulf %xf, %xf : f32
    %y = arith.addf %acc, %q : f32
    linalg.yield %y : f32
  } -> tensor<9xf32>
  %e1 = tensor.empty() : tensor<9xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%s : tensor<9xf32>) outs(%e1 : tensor<9xf32>) {
  ^bb0(%a: f32, %o: f32):
    %inv = arith.constant 9.765625000e-04 : f32
    %eps = arith.constant 9.99999997e-07 : f32
    %m = arith.mulf %a, %inv : f32
    %p = arith.addf %m, %eps : f32
    %y = math.rsqrt %p : f32
    linalg.yield %y : f32
  } -> tensor<9xf32>
  %e2 = tensor.empty() : tensor<9x1024xbf16>
  %n = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %w : tensor<9x1024xbf16>, tensor<9xf32>, tensor<1024xf32>) outs(%e2 : tensor<9x1024xbf16>) {
  ^bb0(%a: bf16, %rs: f32, %g: f32, %o: bf16):
    %nz = arith.constant -0.0 : f32
    %xf = arith.extf %a : bf16 to f32
    %t = arith.mulf %xf, %rs : f32
    %u = arith.mulf %t, %g : f32
    %v = arith.truncf %u : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<9x1024xbf16>
  return %n, %rstd : tensor<9x1024xbf16>, tensor<9xf32>
}

func.func @rms4099(%x: tensor<3x4099xf32>, %w: tensor<4099xf32>) -> (tensor<3x4099xf32>, tensor<3xf32>) attributes {llvm.emit_c_interface} {
  %init = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %s0 = linalg.fill ins(%init : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x4099xf32>) outs(%s0 : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %nz = arith.constant -0.0 : f32
    %xf = arith.addf %a, %nz : f32
    %q = arith.mulf %xf, %xf : f32
    %y = arith.addf %acc, %q : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  %e1 = tensor.empty() : tensor<3xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%s : tensor<3xf32>) outs(%e1 : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %inv = arith.constant 2.439619419e-04 : f32
    %eps = arith.constant 9.99999997e-07 : f32
    %m = arith.mulf %a, %inv : f32
    %p = arith.addf %m, %eps : f32
    %y = math.rsqrt %p : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  %e2 = tensor.empty() : tensor<3x4099xf32>
  %n = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %w : tensor<3x4099xf32>, tensor<3xf32>, tensor<4099xf32>) outs(%e2 : tensor<3x4099xf32>) {
  ^bb0(%a: f32, %rs: f32, %g: f32, %o: f32):
    %nz = arith.constant -0.0 : f32
    %xf = arith.addf %a, %nz : f32
    %t = arith.mulf %xf, %rs : f32
    %u = arith.mulf %t, %g : f32
    %v = arith.addf %u, %nz : f32
    linalg.yield %v : f32
  } -> tensor<3x4099xf32>
  return %n, %rstd : tensor<3x4099xf32>, tensor<3xf32>
}

func.func @softmax33(%z2: tensor<10x33xf32>, %mask: tensor<5x33xf32>) -> tensor<10x33xf32> attributes {llvm.emit_c_interface} {
  %z = tensor.expand_shape %z2 [[0, 1], [2]] output_shape [2, 5, 33] : tensor<10x33xf32> into tensor<2x5x33xf32>
  %em = tensor.empty() : tensor<2x5x33xf32>
  %zm = linalg.generic {indexing_maps = [#id3, #m3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%z, %mask : tensor<2x5x33xf32>, tensor<5x33xf32>) outs(%em : tensor<2x5x33xf32>) {
  ^bb0(%a: f32, %k: f32, %o: f32):
    %y = arith.addf %a, %k : f32
    linalg.yield %y : f32
  } -> tensor<2x5x33xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x5xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  %mx = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%zm : tensor<2x5x33xf32>) outs(%m0 : tensor<2x5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<2x5xf32>
  %e1 = tensor.empty() : tensor<2x5x33xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%zm, %mx : tensor<2x5x33xf32>, tensor<2x5xf32>) outs(%e1 : tensor<2x5x33xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x5x33xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2x5xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x5xf32>) -> tensor<2x5xf32>
  %sm = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x5x33xf32>) outs(%s0 : tensor<2x5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<2x5xf32>
  %e3 = tensor.empty() : tensor<2x5x33xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<2x5x33xf32>, tensor<2x5xf32>) outs(%e3 : tensor<2x5x33xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %y = arith.divf %a, %t : f32
    linalg.yield %y : f32
  } -> tensor<2x5x33xf32>
  %p2 = tensor.collapse_shape %p [[0, 1], [2]] : tensor<2x5x33xf32> into tensor<10x33xf32>
  return %p2 : tensor<10x33xf32>
}

func.func @softmax128(%z2: tensor<9x128xf32>, %mask: tensor<9x128xf32>) -> tensor<9x128xf32> attributes {llvm.emit_c_interface} {
  %z = tensor.expand_shape %z2 [[0, 1], [2]] output_shape [1, 9, 128] : tensor<9x128xf32> into tensor<1x9x128xf32>
  %em = tensor.empty() : tensor<1x9x128xf32>
  %zm = linalg.generic {indexing_maps = [#id3, #m3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%z, %mask : tensor<1x9x128xf32>, tensor<9x128xf32>) outs(%em : tensor<1x9x128xf32>) {
  ^bb0(%a: f32, %k: f32, %o: f32):
    %y = arith.addf %a, %k : f32
    linalg.yield %y : f32
  } -> tensor<1x9x128xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x9xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x9xf32>) -> tensor<1x9xf32>
  %mx = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%zm : tensor<1x9x128xf32>) outs(%m0 : tensor<1x9xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<1x9xf32>
  %e1 = tensor.empty() : tensor<1x9x128xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%zm, %mx : tensor<1x9x128xf32>, tensor<1x9xf32>) outs(%e1 : tensor<1x9x128xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x9x128xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x9xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x9xf32>) -> tensor<1x9xf32>
  %sm = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<1x9x128xf32>) outs(%s0 : tensor<1x9xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<1x9xf32>
  %e3 = tensor.empty() : tensor<1x9x128xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<1x9x128xf32>, tensor<1x9xf32>) outs(%e3 : tensor<1x9x128xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %y = arith.divf %a, %t : f32
    linalg.yield %y : f32
  } -> tensor<1x9x128xf32>
  %p2 = tensor.collapse_shape %p [[0, 1], [2]] : tensor<1x9x128xf32> into tensor<9x128xf32>
  return %p2 : tensor<9x128xf32>
}

// softmax128 with its exps returned too: a fused output read after the
// kernel, stored by the second walk and read back by the third (the other
// intermediates are dead: recomputed, not stored).
func.func @softmaxlive128(%z2: tensor<9x128xf32>, %mask: tensor<9x128xf32>) -> (tensor<9x128xf32>, tensor<9x128xf32>) attributes {llvm.emit_c_interface} {
  %z = tensor.expand_shape %z2 [[0, 1], [2]] output_shape [1, 9, 128] : tensor<9x128xf32> into tensor<1x9x128xf32>
  %em = tensor.empty() : tensor<1x9x128xf32>
  %zm = linalg.generic {indexing_maps = [#id3, #m3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%z, %mask : tensor<1x9x128xf32>, tensor<9x128xf32>) outs(%em : tensor<1x9x128xf32>) {
  ^bb0(%a: f32, %k: f32, %o: f32):
    %y = arith.addf %a, %k : f32
    linalg.yield %y : f32
  } -> tensor<1x9x128xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x9xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x9xf32>) -> tensor<1x9xf32>
  %mx = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%zm : tensor<1x9x128xf32>) outs(%m0 : tensor<1x9xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<1x9xf32>
  %e1 = tensor.empty() : tensor<1x9x128xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%zm, %mx : tensor<1x9x128xf32>, tensor<1x9xf32>) outs(%e1 : tensor<1x9x128xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x9x128xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x9xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x9xf32>) -> tensor<1x9xf32>
  %sm = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<1x9x128xf32>) outs(%s0 : tensor<1x9xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<1x9xf32>
  %e3 = tensor.empty() : tensor<1x9x128xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<1x9x128xf32>, tensor<1x9xf32>) outs(%e3 : tensor<1x9x128xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %y = arith.divf %a, %t : f32
    linalg.yield %y : f32
  } -> tensor<1x9x128xf32>
  %p2 = tensor.collapse_shape %p [[0, 1], [2]] : tensor<1x9x128xf32> into tensor<9x128xf32>
  %ex2 = tensor.collapse_shape %ex [[0, 1], [2]] : tensor<1x9x128xf32> into tensor<9x128xf32>
  return %p2, %ex2 : tensor<9x128xf32>, tensor<9x128xf32>
}

func.func @softmax4099(%z2: tensor<2x4099xf32>, %mask: tensor<2x4099xf32>) -> tensor<2x4099xf32> attributes {llvm.emit_c_interface} {
  %z = tensor.expand_shape %z2 [[0, 1], [2]] output_shape [1, 2, 4099] : tensor<2x4099xf32> into tensor<1x2x4099xf32>
  %em = tensor.empty() : tensor<1x2x4099xf32>
  %zm = linalg.generic {indexing_maps = [#id3, #m3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%z, %mask : tensor<1x2x4099xf32>, tensor<2x4099xf32>) outs(%em : tensor<1x2x4099xf32>) {
  ^bb0(%a: f32, %k: f32, %o: f32):
    %y = arith.addf %a, %k : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4099xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x2xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mx = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%zm : tensor<1x2x4099xf32>) outs(%m0 : tensor<1x2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<1x2xf32>
  %e1 = tensor.empty() : tensor<1x2x4099xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%zm, %mx : tensor<1x2x4099xf32>, tensor<1x2xf32>) outs(%e1 : tensor<1x2x4099xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4099xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x2xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %sm = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<1x2x4099xf32>) outs(%s0 : tensor<1x2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<1x2xf32>
  %e3 = tensor.empty() : tensor<1x2x4099xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<1x2x4099xf32>, tensor<1x2xf32>) outs(%e3 : tensor<1x2x4099xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %y = arith.divf %a, %t : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4099xf32>
  %p2 = tensor.collapse_shape %p [[0, 1], [2]] : tensor<1x2x4099xf32> into tensor<2x4099xf32>
  return %p2 : tensor<2x4099xf32>
}

func.func @rmsbwd100(%dn: tensor<11x100xf32>, %x: tensor<11x100xf32>, %rstd: tensor<11xf32>, %g: tensor<100xf32>) -> tensor<11x100xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<11xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%e : tensor<11xf32>) -> tensor<11xf32>
  %c = linalg.generic {indexing_maps = [#id2, #id2, #col, #row], iterator_types = ["parallel", "reduction"]}
      ins(%dn, %x, %g : tensor<11x100xf32>, tensor<11x100xf32>, tensor<100xf32>) outs(%c0 : tensor<11xf32>) {
  ^bb0(%a: f32, %b: f32, %w: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %p = arith.mulf %m, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<11xf32>
  %e2 = tensor.empty() : tensor<11x100xf32>
  %dx = linalg.generic {indexing_maps = [#id2, #id2, #row, #col, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%dn, %x, %rstd, %g, %c : tensor<11x100xf32>, tensor<11x100xf32>, tensor<11xf32>, tensor<100xf32>, tensor<11xf32>) outs(%e2 : tensor<11x100xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32, %b3: f32, %b4: f32, %o: f32):
    %inv = arith.constant 1.000000000e-02 : f32
    %a = arith.mulf %b0, %b3 : f32
    %u = arith.mulf %a, %b2 : f32
    %r2 = arith.mulf %b2, %b2 : f32
    %r3 = arith.mulf %r2, %b2 : f32
    %k = arith.mulf %b4, %inv : f32
    %w = arith.mulf %r3, %k : f32
    %v = arith.mulf %b1, %w : f32
    %d = arith.subf %u, %v : f32
    linalg.yield %d : f32
  } -> tensor<11x100xf32>
  return %dx : tensor<11x100xf32>
}

func.func @rmsbwd4099(%dn: tensor<2x4099xf32>, %x: tensor<2x4099xf32>, %rstd: tensor<2xf32>, %g: tensor<4099xf32>) -> tensor<2x4099xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %c = linalg.generic {indexing_maps = [#id2, #id2, #col, #row], iterator_types = ["parallel", "reduction"]}
      ins(%dn, %x, %g : tensor<2x4099xf32>, tensor<2x4099xf32>, tensor<4099xf32>) outs(%c0 : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32, %w: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %p = arith.mulf %m, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %e2 = tensor.empty() : tensor<2x4099xf32>
  %dx = linalg.generic {indexing_maps = [#id2, #id2, #row, #col, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%dn, %x, %rstd, %g, %c : tensor<2x4099xf32>, tensor<2x4099xf32>, tensor<2xf32>, tensor<4099xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4099xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32, %b3: f32, %b4: f32, %o: f32):
    %inv = arith.constant 2.439619419e-04 : f32
    %a = arith.mulf %b0, %b3 : f32
    %u = arith.mulf %a, %b2 : f32
    %r2 = arith.mulf %b2, %b2 : f32
    %r3 = arith.mulf %r2, %b2 : f32
    %k = arith.mulf %b4, %inv : f32
    %w = arith.mulf %r3, %k : f32
    %v = arith.mulf %b1, %w : f32
    %d = arith.subf %u, %v : f32
    linalg.yield %d : f32
  } -> tensor<2x4099xf32>
  return %dx : tensor<2x4099xf32>
}

func.func @plainsoftmax100(%z: tensor<12x100xf32>) -> tensor<12x100xf32> attributes {llvm.emit_c_interface} {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<12xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<12xf32>) -> tensor<12xf32>
  %mx = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<12x100xf32>) outs(%m0 : tensor<12xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<12xf32>
  %e1 = tensor.empty() : tensor<12x100xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %mx : tensor<12x100xf32>, tensor<12xf32>) outs(%e1 : tensor<12x100xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<12x100xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<12xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<12xf32>) -> tensor<12xf32>
  %sm = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<12x100xf32>) outs(%s0 : tensor<12xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<12xf32>
  %e3 = tensor.empty() : tensor<12x100xf32>
  %p = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm : tensor<12x100xf32>, tensor<12xf32>) outs(%e3 : tensor<12x100xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %y = arith.divf %a, %t : f32
    linalg.yield %y : f32
  } -> tensor<12x100xf32>
  return %p : tensor<12x100xf32>
}

func.func @xent33(%z: tensor<40x33xf32>, %t: tensor<40xi64>) -> (tensor<40x33xf32>, tensor<40xf32>) attributes {llvm.emit_c_interface} {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<40xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<40xf32>) -> tensor<40xf32>
  %mx = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<40x33xf32>) outs(%m0 : tensor<40xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<40xf32>
  %e1 = tensor.empty() : tensor<40x33xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %mx : tensor<40x33xf32>, tensor<40xf32>) outs(%e1 : tensor<40x33xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<40x33xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<40xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<40xf32>) -> tensor<40xf32>
  %sm = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<40x33xf32>) outs(%s0 : tensor<40xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<40xf32>
  %e3 = tensor.empty() : tensor<40xf32>
  %lse = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%sm, %mx : tensor<40xf32>, tensor<40xf32>) outs(%e3 : tensor<40xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %y = arith.addf %l, %m : f32
    linalg.yield %y : f32
  } -> tensor<40xf32>
  %e4 = tensor.empty() : tensor<40x33xf32>
  %g = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm, %t : tensor<40x33xf32>, tensor<40xf32>, tensor<40xi64>) outs(%e4 : tensor<40x33xf32>) {
  ^bb0(%a: f32, %s: f32, %id: i64, %o: f32):
    %p = arith.divf %a, %s : f32
    %one = arith.constant 1.0 : f32
    %q = arith.subf %p, %one : f32
    %c = linalg.index 1 : index
    %ci = arith.index_cast %c : index to i64
    %hit = arith.cmpi eq, %ci, %id : i64
    %y = arith.select %hit, %q, %p : f32
    linalg.yield %y : f32
  } -> tensor<40x33xf32>
  return %g, %lse : tensor<40x33xf32>, tensor<40xf32>
}

func.func @xent1000(%z: tensor<7x1000xf32>, %t: tensor<7xi64>) -> (tensor<7x1000xf32>, tensor<7xf32>) attributes {llvm.emit_c_interface} {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<7xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<7xf32>) -> tensor<7xf32>
  %mx = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<7x1000xf32>) outs(%m0 : tensor<7xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<7xf32>
  %e1 = tensor.empty() : tensor<7x1000xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %mx : tensor<7x1000xf32>, tensor<7xf32>) outs(%e1 : tensor<7x1000xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<7x1000xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<7xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<7xf32>) -> tensor<7xf32>
  %sm = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<7x1000xf32>) outs(%s0 : tensor<7xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<7xf32>
  %e3 = tensor.empty() : tensor<7xf32>
  %lse = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%sm, %mx : tensor<7xf32>, tensor<7xf32>) outs(%e3 : tensor<7xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %y = arith.addf %l, %m : f32
    linalg.yield %y : f32
  } -> tensor<7xf32>
  %e4 = tensor.empty() : tensor<7x1000xf32>
  %g = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm, %t : tensor<7x1000xf32>, tensor<7xf32>, tensor<7xi64>) outs(%e4 : tensor<7x1000xf32>) {
  ^bb0(%a: f32, %s: f32, %id: i64, %o: f32):
    %p = arith.divf %a, %s : f32
    %one = arith.constant 1.0 : f32
    %q = arith.subf %p, %one : f32
    %c = linalg.index 1 : index
    %ci = arith.index_cast %c : index to i64
    %hit = arith.cmpi eq, %ci, %id : i64
    %y = arith.select %hit, %q, %p : f32
    linalg.yield %y : f32
  } -> tensor<7x1000xf32>
  return %g, %lse : tensor<7x1000xf32>, tensor<7xf32>
}

func.func @xent4099(%z: tensor<3x4099xf32>, %t: tensor<3xi64>) -> (tensor<3x4099xf32>, tensor<3xf32>) attributes {llvm.emit_c_interface} {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<3xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %mx = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<3x4099xf32>) outs(%m0 : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  %e1 = tensor.empty() : tensor<3x4099xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %mx : tensor<3x4099xf32>, tensor<3xf32>) outs(%e1 : tensor<3x4099xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<3x4099xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<3xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3xf32>) -> tensor<3xf32>
  %sm = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<3x4099xf32>) outs(%s0 : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  %e3 = tensor.empty() : tensor<3xf32>
  %lse = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%sm, %mx : tensor<3xf32>, tensor<3xf32>) outs(%e3 : tensor<3xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %y = arith.addf %l, %m : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  %e4 = tensor.empty() : tensor<3x4099xf32>
  %g = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm, %t : tensor<3x4099xf32>, tensor<3xf32>, tensor<3xi64>) outs(%e4 : tensor<3x4099xf32>) {
  ^bb0(%a: f32, %s: f32, %id: i64, %o: f32):
    %p = arith.divf %a, %s : f32
    %one = arith.constant 1.0 : f32
    %q = arith.subf %p, %one : f32
    %c = linalg.index 1 : index
    %ci = arith.index_cast %c : index to i64
    %hit = arith.cmpi eq, %ci, %id : i64
    %y = arith.select %hit, %q, %p : f32
    linalg.yield %y : f32
  } -> tensor<3x4099xf32>
  return %g, %lse : tensor<3x4099xf32>, tensor<3xf32>
}

func.func @sumscale(%x: tensor<40x100xf32>) -> (tensor<40x100xf32>, tensor<40xf32>) attributes {llvm.emit_c_interface} {
  %init = arith.constant 1000.25 : f32
  %e = tensor.empty() : tensor<40xf32>
  %s0 = linalg.fill ins(%init : f32) outs(%e : tensor<40xf32>) -> tensor<40xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<40x100xf32>) outs(%s0 : tensor<40xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<40xf32>
  %e2 = tensor.empty() : tensor<40x100xf32>
  %n = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<40x100xf32>, tensor<40xf32>) outs(%e2 : tensor<40x100xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %u = arith.mulf %a, %t : f32
    linalg.yield %u : f32
  } -> tensor<40x100xf32>
  return %n, %s : tensor<40x100xf32>, tensor<40xf32>
}
