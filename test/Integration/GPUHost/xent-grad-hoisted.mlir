// The cross-entropy as the language model's step writes it (the
// log-sum-exp's max, exp(z - max) and sum; the target pick, a gather; the
// mean loss; then the gradient (softmax - one-hot) / T and its conversion
// to bf16 for the output head's GEMMs): fp8-split-reductions moves the
// gradient and the conversion, written after the pick and the loss (which
// end the log-sum-exp's group), to just after the sum, where they join the
// group (docs/gpu-kernel.md, "Hoisted consumers"): ONE row kernel computes
// the max, the sum and the bf16 gradient (a third walk recomputing the
// exps, which it no longer stores: nothing after the kernel reads them),
// the one-hot a compare of the element's column with the row's target id.
// Bit-exact against fp8-cpu-pipeline (the oracle: the same ops per element
// as separate loop nests, in the graph's order), two seeds and lockstep,
// rows whose length is no multiple of the 128-element vector step: 9 rows
// of 1037 (8 whole steps and a tail of 13 elements, lanes 0-12 adding one
// more; 2 CTAs) and 40 rows of 33 (no whole step: 32 lane-strided
// elements and a tail of one; 5 CTAs). Targets uniform in [0, N); the
// logits scaled by 2^-4 (`/4`) so that few of the softmax's terms
// underflow to zero.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARK --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so xg1037 1 bf16:9x1037,f32:1 f32:9x1037/4 'i64<1037>:9' 2>&1 | FileCheck %s --check-prefix=XG1037
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so xg1037 2 bf16:9x1037,f32:1 f32:9x1037/4 'i64<1037>:9' | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so xg1037 3 bf16:9x1037,f32:1 f32:9x1037/4 'i64<1037>:9' | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so xg33 4 bf16:40x33,f32:1 f32:40x33/4 'i64<33>:40' 2>&1 | FileCheck %s --check-prefix=XG33
// RUN: env FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so xg33 5 bf16:40x33,f32:1 f32:40x33/4 'i64<33>:40' | FileCheck %s --check-prefix=PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so xg33 6 bf16:40x33,f32:1 f32:40x33/4 'i64<33>:40' | FileCheck %s --check-prefix=PASS

// The gradient and its conversion joined the group: no remark on them.
// REMARK-NOT: not fused into the row kernel of its operand (fp8-split-reductions): the group ends
// REMARK-NOT: runs on the host

// PASS: host-check: PASS {{.*}}#0: {{.*}} bit-exact
// PASS-NEXT: host-check: PASS {{.*}}#1: 1x1, 1 outputs bit-exact

// The launches in order: the row kernel (the max, the sum, the bf16
// gradient), the pick (one thread per row), the loss (one thread after its
// fill; a row kernel of one warp for 40 rows); no launch over the
// elements but the row kernel.
// XG1037: launch xg1037_row_max_fused grid 2 block 256
// XG1037-NEXT: launch xg1037_generic grid 1 block 9
// XG1037-NEXT: launch xg1037_fill grid 1 block 1
// XG1037-NEXT: launch xg1037_generic_0 grid 1 block 1
// XG1037-NEXT: host-check: PASS xg1037#0: 9x1037, 9333 outputs bit-exact
// XG1037-NEXT: host-check: PASS xg1037#1: 1x1, 1 outputs bit-exact
// XG33: launch xg33_row_max_fused grid 5 block 256
// XG33-NEXT: launch xg33_generic grid 1 block 40
// XG33-NEXT: launch xg33_row_sum grid 1 block 32
// XG33-NEXT: host-check: PASS xg33#0: 40x33, 1320 outputs bit-exact
// XG33-NEXT: host-check: PASS xg33#1: 1x1, 1 outputs bit-exact

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#first = affine_map<(d0) -> (0)>

func.func @xg1037(%z: tensor<9x1037xf32>, %t: tensor<9xi64>) -> (tensor<9x1037xbf16>, tensor<1xf32>) attributes {llvm.emit_c_interface} {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<9xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<9xf32>) -> tensor<9xf32>
  %mx = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<9x1037xf32>) outs(%m0 : tensor<9xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<9xf32>
  %e1 = tensor.empty() : tensor<9x1037xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %mx : tensor<9x1037xf32>, tensor<9xf32>) outs(%e1 : tensor<9x1037xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<9x1037xf32>
  %e2 = tensor.empty() : tensor<9xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<9xf32>) -> tensor<9xf32>
  %sm = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<9x1037xf32>) outs(%s0 : tensor<9xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<9xf32>
  %e3 = tensor.empty() : tensor<9xf32>
  %pick = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%t : tensor<9xi64>) outs(%e3 : tensor<9xf32>) {
  ^bb0(%id: i64, %o: f32):
    %r = linalg.index 0 : index
    %c = arith.index_cast %id : i64 to index
    %v = tensor.extract %z[%r, %c] : tensor<9x1037xf32>
    %p = arith.addf %zero, %v : f32
    linalg.yield %p : f32
  } -> tensor<9xf32>
  %e4 = tensor.empty() : tensor<1xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1xf32>) -> tensor<1xf32>
  %loss = linalg.generic {indexing_maps = [#id1, #id1, #id1, #first], iterator_types = ["reduction"]}
      ins(%mx, %sm, %pick : tensor<9xf32>, tensor<9xf32>, tensor<9xf32>) outs(%l0 : tensor<1xf32>) {
  ^bb0(%m: f32, %s: f32, %p: f32, %acc: f32):
    %lg = math.log %s : f32
    %lse = arith.addf %m, %lg : f32
    %d = arith.subf %lse, %p : f32
    %w = arith.mulf %d, %inv : f32
    %r = arith.addf %acc, %w : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  %e5 = tensor.empty() : tensor<9x1037xf32>
  %g = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm, %t : tensor<9x1037xf32>, tensor<9xf32>, tensor<9xi64>) outs(%e5 : tensor<9x1037xf32>) {
  ^bb0(%a: f32, %s: f32, %id: i64, %o: f32):
    %c = linalg.index 1 : index
    %ti = arith.index_cast %id : i64 to index
    %hit = arith.cmpi eq, %c, %ti : index
    %p = arith.divf %a, %s : f32
    %one = arith.constant 1.0 : f32
    %q = arith.subf %p, %one : f32
    %y = arith.select %hit, %q, %p : f32
    %w = arith.mulf %y, %inv : f32
    linalg.yield %w : f32
  } -> tensor<9x1037xf32>
  %e6 = tensor.empty() : tensor<9x1037xbf16>
  %b = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<9x1037xf32>) outs(%e6 : tensor<9x1037xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %y = arith.truncf %a : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<9x1037xbf16>
  return %b, %loss : tensor<9x1037xbf16>, tensor<1xf32>
}

func.func @xg33(%z: tensor<40x33xf32>, %t: tensor<40xi64>) -> (tensor<40x33xbf16>, tensor<1xf32>) attributes {llvm.emit_c_interface} {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 0.03125 : f32
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
  %e2 = tensor.empty() : tensor<40xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<40xf32>) -> tensor<40xf32>
  %sm = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<40x33xf32>) outs(%s0 : tensor<40xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<40xf32>
  %e3 = tensor.empty() : tensor<40xf32>
  %pick = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%t : tensor<40xi64>) outs(%e3 : tensor<40xf32>) {
  ^bb0(%id: i64, %o: f32):
    %r = linalg.index 0 : index
    %c = arith.index_cast %id : i64 to index
    %v = tensor.extract %z[%r, %c] : tensor<40x33xf32>
    %p = arith.addf %zero, %v : f32
    linalg.yield %p : f32
  } -> tensor<40xf32>
  %e4 = tensor.empty() : tensor<1xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1xf32>) -> tensor<1xf32>
  %loss = linalg.generic {indexing_maps = [#id1, #id1, #id1, #first], iterator_types = ["reduction"]}
      ins(%mx, %sm, %pick : tensor<40xf32>, tensor<40xf32>, tensor<40xf32>) outs(%l0 : tensor<1xf32>) {
  ^bb0(%m: f32, %s: f32, %p: f32, %acc: f32):
    %lg = math.log %s : f32
    %lse = arith.addf %m, %lg : f32
    %d = arith.subf %lse, %p : f32
    %w = arith.mulf %d, %inv : f32
    %r = arith.addf %acc, %w : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  %e5 = tensor.empty() : tensor<40x33xf32>
  %g = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm, %t : tensor<40x33xf32>, tensor<40xf32>, tensor<40xi64>) outs(%e5 : tensor<40x33xf32>) {
  ^bb0(%a: f32, %s: f32, %id: i64, %o: f32):
    %c = linalg.index 1 : index
    %ti = arith.index_cast %id : i64 to index
    %hit = arith.cmpi eq, %c, %ti : index
    %p = arith.divf %a, %s : f32
    %one = arith.constant 1.0 : f32
    %q = arith.subf %p, %one : f32
    %y = arith.select %hit, %q, %p : f32
    %w = arith.mulf %y, %inv : f32
    linalg.yield %w : f32
  } -> tensor<40x33xf32>
  %e6 = tensor.empty() : tensor<40x33xbf16>
  %b = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<40x33xf32>) outs(%e6 : tensor<40x33xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %y = arith.truncf %a : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<40x33xbf16>
  return %b, %loss : tensor<40x33xbf16>, tensor<1xf32>
}
