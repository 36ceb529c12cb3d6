// Row kernels (issue 42 item 2): a float row sum that fp8-split-reductions
// marks (`fp8.reduction_lanes`, fp8-gpu-pipeline with host kernels) runs
// as one warp-per-row kernel on the emulated device, bit-exact against
// fp8-cpu-pipeline, whose loops add the same terms in the same order
// (docs/numerics.md, "Reduction order"): rows of 32, 64, 96 (bf16 inputs)
// and 1024 elements, 1 to 20 rows (more than the 8 rows of one CTA: grids
// of 3 and 2 CTAs), the accumulator on either side of the body's
// addition, and a sum with two parallel iterators (2 x 5 rows). Rows that
// are not a multiple of 32 (33, 40, 100, 1000, 4099 elements; bf16 rows of
// 100 and 4099) run as the same kernel, lane l < N % 32 adding the tail
// element N - N % 32 + l last, as fp8-cpu-pipeline's split does; rows
// shorter than the 32 lanes (1, 31) are not split: they stay sequential on
// both sides (one thread per row).
// Row maxima (softmax's max: maximumf, whose result no order changes) run
// as the same kernel, tails included (33, 4099; bf16 1000); a row max of
// 31 stays one thread per row.
// Each sum is one launch, its init's fill folded into it (lane 0 combines
// the fill's scalar with the butterfly's total where it loaded the init:
// foldableInitFill; before, the fill was a launch of its own, and main's
// kernels split the sum into 7: the lanes' -0.0 fill, the partial sums,
// four tree levels, the final add).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARK --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so sum1 1 f32:5 f32:5x1 2>&1 | FileCheck %s --check-prefix=SUM1
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so sum31 2 f32:9 f32:9x31 2>&1 | FileCheck %s --check-prefix=SUM31
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so sum32 3 f32:20 f32:20x32 2>&1 | FileCheck %s --check-prefix=SUM32
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so sum33 4 f32:3 f32:3x33 2>&1 | FileCheck %s --check-prefix=SUM33
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so sum64 5 f32:17 f32:17x64 2>&1 | FileCheck %s --check-prefix=SUM64
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so sum100 6 f32:9 f32:9x100 2>&1 | FileCheck %s --check-prefix=SUM100
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so sum1000 7 f32:4 f32:4x1000 2>&1 | FileCheck %s --check-prefix=SUM1000
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so sum1024 8 f32:9 f32:9x1024 2>&1 | FileCheck %s --check-prefix=SUM1024
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so sum64bf16 9 f32:8 bf16:8x64 2>&1 | FileCheck %s --check-prefix=SUM64BF16
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so sum96bf16 10 f32:1 bf16:1x96 2>&1 | FileCheck %s --check-prefix=SUM96BF16
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so sum3d 11 f32:2x5 f32:10x64 2>&1 | FileCheck %s --check-prefix=SUM3D
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so max64 12 f32:20 f32:20x64 2>&1 | FileCheck %s --check-prefix=MAX64
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so maxright 13 f32:9 bf16:9x128 2>&1 | FileCheck %s --check-prefix=MAXRIGHT
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so sum40 14 f32:11 f32:11x40 2>&1 | FileCheck %s --check-prefix=SUM40
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so sum4099 15 f32:3 f32:3x4099 2>&1 | FileCheck %s --check-prefix=SUM4099
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so sum100bf16 16 f32:5 bf16:5x100 2>&1 | FileCheck %s --check-prefix=SUM100BF16
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so sum4099bf16 17 f32:2 bf16:2x4099 2>&1 | FileCheck %s --check-prefix=SUM4099BF16
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so max31 18 f32:4 f32:4x31 2>&1 | FileCheck %s --check-prefix=MAX31
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so max33 19 f32:10 f32:10x33 2>&1 | FileCheck %s --check-prefix=MAX33
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so max4099 20 f32:2 f32:2x4099 2>&1 | FileCheck %s --check-prefix=MAX4099
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so max1000bf16 21 f32:3 bf16:3x1000 2>&1 | FileCheck %s --check-prefix=MAX1000BF16
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so col70 22 f32:16 f32:70x16 f32:70x16 2>&1 | FileCheck %s --check-prefix=COL70
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so col4099 23 f32:40 f32:4099x40 2>&1 | FileCheck %s --check-prefix=COL4099
// RUN: env FP8_EMU_SCHEDULE=lockstep FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so col100bf16 24 f32:8 bf16:100x8 2>&1 | FileCheck %s --check-prefix=COL100BF16

// Vector lanes (fp8.reduction_vector = 4, the default): rows of 127 (no
// vector step: lane-strided and a tail of 31), 129 (one vector step of 128
// elements, then lane 0's tail element 128), 4099 (32 vector steps, then a
// tail of 3) and bf16 rows of 256 (8-byte vector loads) and 4099 (odd: the
// row kernel's scalar loads in the vector order); f32 rows whose 16-byte
// vector loads are aligned: 160 (one vector step, one strided step) and
// 4100 (32 vector steps, a tail of 4); under scheduler seeds and the
// lockstep schedule.
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so sum160 32 f32:9 f32:9x160 2>&1 | FileCheck %s --check-prefix=SUM160
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so sum160 33 f32:9 f32:9x160 2>&1 | FileCheck %s --check-prefix=PASS160
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so suminit 34 f32:40 f32:40x100 2>&1 | FileCheck %s --check-prefix=SUMINIT
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so suminit 35 f32:40 f32:40x100 2>&1 | FileCheck %s --check-prefix=PASSINIT
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so suminit 36 f32:40 f32:40x100 2>&1 | FileCheck %s --check-prefix=PASSINIT
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so sum4100 34 f32:3 f32:3x4100 2>&1 | FileCheck %s --check-prefix=SUM4100
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so sum4100 35 f32:3 f32:3x4100 2>&1 | FileCheck %s --check-prefix=PASS4100
// The vector steps in the kernels' PTX, 16-byte loads of f32 and 8-byte loads of bf16.
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=ptx" 2>/dev/null | FileCheck %s --check-prefix=PTX
// PTX-DAG: ld.global.v4.b32
// PTX-DAG: ld.global.v4.b16
// SUM160-NOT: launch sum160_fill
// SUM160: launch sum160_row_sum{{.*}} grid 2 block 256
// SUM160-NEXT: host-check: PASS sum160: 1x9, 9 outputs bit-exact
// PASS160: host-check: PASS sum160: 1x9, 9 outputs bit-exact
// SUM4100-NOT: launch sum4100_fill
// SUM4100: launch sum4100_row_sum{{.*}} grid 1 block 96
// SUM4100-NEXT: host-check: PASS sum4100: 1x3, 3 outputs bit-exact
// PASS4100: host-check: PASS sum4100: 1x3, 3 outputs bit-exact
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so sum127 25 f32:3 f32:3x127 2>&1 | FileCheck %s --check-prefix=SUM127
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so sum129 26 f32:5 f32:5x129 2>&1 | FileCheck %s --check-prefix=SUM129
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so sum129 27 f32:5 f32:5x129 2>&1 | FileCheck %s --check-prefix=PASS129
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so sum4099 28 f32:3 f32:3x4099 2>&1 | FileCheck %s --check-prefix=PASS4099
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so sum256bf16 29 f32:3 bf16:3x256 2>&1 | FileCheck %s --check-prefix=SUM256BF16
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so sum256bf16 30 f32:3 bf16:3x256 2>&1 | FileCheck %s --check-prefix=PASS256BF16
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so sum4099bf16 31 f32:2 bf16:2x4099 2>&1 | FileCheck %s --check-prefix=PASS4099BF16
// SUM127-NOT: launch sum127_fill
// SUM127: launch sum127_row_sum{{.*}} grid 1 block 96
// SUM127-NEXT: host-check: PASS sum127: 1x3, 3 outputs bit-exact
// SUM129-NOT: launch sum129_fill
// SUM129: launch sum129_row_sum{{.*}} grid 1 block 160
// SUM129-NEXT: host-check: PASS sum129: 1x5, 5 outputs bit-exact
// PASS129: host-check: PASS sum129: 1x5, 5 outputs bit-exact
// PASS4099: host-check: PASS sum4099: 1x3, 3 outputs bit-exact
// SUM256BF16-NOT: launch sum256bf16_fill
// SUM256BF16: launch sum256bf16_row_sum{{.*}} grid 1 block 96
// SUM256BF16-NEXT: host-check: PASS sum256bf16: 1x3, 3 outputs bit-exact
// PASS256BF16: host-check: PASS sum256bf16: 1x3, 3 outputs bit-exact
// PASS4099BF16: host-check: PASS sum4099bf16: 1x2, 2 outputs bit-exact

// A standalone row sum whose init is not zero (1000.25: the order of its
// addition shows in the bits, as in row-groups.mlir's sumscale): the fill
// folded, lane 0 adds the scalar after the butterfly as the CPU adds the
// init last (docs/numerics.md, "Reduction order").
// SUMINIT-NOT: launch suminit_fill
// SUMINIT: launch suminit_row_sum{{.*}} grid 5 block 256
// SUMINIT-NEXT: host-check: PASS suminit: 1x40, 40 outputs bit-exact
// PASSINIT: host-check: PASS suminit: 1x40, 40 outputs bit-exact

// REMARK-NOT: runs on the host

// The unsplit sums: one thread per row, sequential.
// SUM1: fp8-emu-mgpu: launch sum1_fill{{.*}} grid 1 block 5
// SUM1-NEXT: fp8-emu-mgpu: launch sum1_generic{{.*}} grid 1 block 5
// SUM1-NEXT: host-check: PASS sum1: 1x5, 5 outputs bit-exact
// SUM31: launch sum31_fill
// SUM31-NEXT: launch sum31_generic{{.*}} grid 1 block 9
// SUM31-NEXT: host-check: PASS sum31: 1x9, 9 outputs bit-exact
// MAX31: launch max31_fill
// MAX31-NEXT: launch max31_generic{{.*}} grid 1 block 4
// MAX31-NEXT: host-check: PASS max31: 1x4, 4 outputs bit-exact

// The rows with a tail (N % 32 != 0): the row kernel too.
// SUM33-NOT: launch sum33_fill
// SUM33: launch sum33_row_sum{{.*}} grid 1 block 96
// SUM33-NEXT: host-check: PASS sum33: 1x3, 3 outputs bit-exact
// SUM40-NOT: launch sum40_fill
// SUM40: launch sum40_row_sum{{.*}} grid 2 block 256
// SUM40-NEXT: host-check: PASS sum40: 1x11, 11 outputs bit-exact
// SUM100-NOT: launch sum100_fill
// SUM100: launch sum100_row_sum{{.*}} grid 2 block 256
// SUM100-NEXT: host-check: PASS sum100: 1x9, 9 outputs bit-exact
// SUM1000-NOT: launch sum1000_fill
// SUM1000: launch sum1000_row_sum{{.*}} grid 1 block 128
// SUM1000-NEXT: host-check: PASS sum1000: 1x4, 4 outputs bit-exact
// SUM4099-NOT: launch sum4099_fill
// SUM4099: launch sum4099_row_sum{{.*}} grid 1 block 96
// SUM4099-NEXT: host-check: PASS sum4099: 1x3, 3 outputs bit-exact
// SUM100BF16-NOT: launch sum100bf16_fill
// SUM100BF16: launch sum100bf16_row_sum{{.*}} grid 1 block 160
// SUM100BF16-NEXT: host-check: PASS sum100bf16: 1x5, 5 outputs bit-exact
// SUM4099BF16-NOT: launch sum4099bf16_fill
// SUM4099BF16: launch sum4099bf16_row_sum{{.*}} grid 1 block 64
// SUM4099BF16-NEXT: host-check: PASS sum4099bf16: 1x2, 2 outputs bit-exact
// MAX33-NOT: launch max33_fill
// MAX33: launch max33_row_max{{.*}} grid 2 block 256
// MAX33-NEXT: host-check: PASS max33: 1x10, 10 outputs bit-exact
// MAX4099-NOT: launch max4099_fill
// MAX4099: launch max4099_row_max{{.*}} grid 1 block 64
// MAX4099-NEXT: host-check: PASS max4099: 1x2, 2 outputs bit-exact
// MAX1000BF16-NOT: launch max1000bf16_fill
// MAX1000BF16: launch max1000bf16_row_max{{.*}} grid 1 block 96
// MAX1000BF16-NEXT: host-check: PASS max1000bf16: 1x3, 3 outputs bit-exact

// The split sums: one launch, a warp per row, ceil(rows / 8) CTAs of
// min(rows, 8) warps.
// SUM32-NOT: launch sum32_fill
// SUM32: launch sum32_row_sum{{.*}} grid 3 block 256
// SUM32-NEXT: host-check: PASS sum32: 1x20, 20 outputs bit-exact
// SUM64-NOT: launch sum64_fill
// SUM64: launch sum64_row_sum{{.*}} grid 3 block 256
// SUM64-NEXT: host-check: PASS sum64: 1x17, 17 outputs bit-exact
// SUM1024-NOT: launch sum1024_fill
// SUM1024: launch sum1024_row_sum{{.*}} grid 2 block 256
// SUM1024-NEXT: host-check: PASS sum1024: 1x9, 9 outputs bit-exact
// SUM64BF16-NOT: launch sum64bf16_fill
// SUM64BF16: launch sum64bf16_row_sum{{.*}} grid 1 block 256
// SUM64BF16-NEXT: host-check: PASS sum64bf16: 1x8, 8 outputs bit-exact
// SUM96BF16-NOT: launch sum96bf16_fill
// SUM96BF16: launch sum96bf16_row_sum{{.*}} grid 1 block 32
// SUM96BF16-NEXT: host-check: PASS sum96bf16: 1x1, 1 outputs bit-exact
// SUM3D-NOT: launch sum3d_fill
// SUM3D: launch sum3d_row_sum{{.*}} grid 2 block 256
// SUM3D-NEXT: host-check: PASS sum3d: 2x5, 10 outputs bit-exact
// The row max (softmax's): the same kernel with maximumf, its result the
// same in any order (-inf fill; the accumulator on either side).
// MAX64-NOT: launch max64_fill
// MAX64: launch max64_row_max{{.*}} grid 3 block 256
// MAX64-NEXT: host-check: PASS max64: 1x20, 20 outputs bit-exact
// MAXRIGHT-NOT: launch maxright_fill
// MAXRIGHT: launch maxright_row_max{{.*}} grid 2 block 256
// MAXRIGHT-NEXT: host-check: PASS maxright: 1x9, 9 outputs bit-exact

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @sum1(%x: tensor<5x1xf32>) -> tensor<5xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x1xf32>) outs(%s0 : tensor<5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  return %s : tensor<5xf32>
}
func.func @sum31(%x: tensor<9x31xf32>) -> tensor<9xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<9xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<9xf32>) -> tensor<9xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<9x31xf32>) outs(%s0 : tensor<9xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<9xf32>
  return %s : tensor<9xf32>
}
func.func @sum32(%x: tensor<20x32xf32>) -> tensor<20xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<20xf32>) -> tensor<20xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<20x32xf32>) outs(%s0 : tensor<20xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<20xf32>
  return %s : tensor<20xf32>
}
func.func @sum33(%x: tensor<3x33xf32>) -> tensor<3xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x33xf32>) outs(%s0 : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %s : tensor<3xf32>
}
func.func @sum64(%x: tensor<17x64xf32>) -> tensor<17xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<17xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<17xf32>) -> tensor<17xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<17x64xf32>) outs(%s0 : tensor<17xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<17xf32>
  return %s : tensor<17xf32>
}
func.func @sum100(%x: tensor<9x100xf32>) -> tensor<9xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<9xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<9xf32>) -> tensor<9xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<9x100xf32>) outs(%s0 : tensor<9xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<9xf32>
  return %s : tensor<9xf32>
}
func.func @sum1000(%x: tensor<4x1000xf32>) -> tensor<4xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x1000xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @sum1024(%x: tensor<9x1024xf32>) -> tensor<9xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<9xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<9xf32>) -> tensor<9xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<9x1024xf32>) outs(%s0 : tensor<9xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<9xf32>
  return %s : tensor<9xf32>
}
func.func @sum64bf16(%x: tensor<8x64xbf16>) -> tensor<8xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xbf16>) outs(%s0 : tensor<8xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %q = arith.mulf %f, %f : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}
func.func @sum96bf16(%x: tensor<1x96xbf16>) -> tensor<1xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x96xbf16>) outs(%s0 : tensor<1xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %q = arith.mulf %f, %f : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  return %s : tensor<1xf32>
}
func.func @sum3d(%x: tensor<10x64xf32>) -> tensor<2x5xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 5, 64] : tensor<10x64xf32> into tensor<2x5x64xf32>
  %e = tensor.empty() : tensor<2x5xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x3 : tensor<2x5x64xf32>) outs(%s0 : tensor<2x5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<2x5xf32>
  return %s : tensor<2x5xf32>
}
func.func @max64(%x: tensor<20x64xf32>) -> tensor<20xf32> attributes {llvm.emit_c_interface} {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<20xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<20xf32>) -> tensor<20xf32>
  %m = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<20x64xf32>) outs(%m0 : tensor<20xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<20xf32>
  return %m : tensor<20xf32>
}
func.func @maxright(%x: tensor<9x128xbf16>) -> tensor<9xf32> attributes {llvm.emit_c_interface} {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<9xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<9xf32>) -> tensor<9xf32>
  %m = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<9x128xbf16>) outs(%m0 : tensor<9xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %r = arith.maximumf %f, %acc : f32
    linalg.yield %r : f32
  } -> tensor<9xf32>
  return %m : tensor<9xf32>
}
func.func @sum40(%x: tensor<11x40xf32>) -> tensor<11xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<11xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<11xf32>) -> tensor<11xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<11x40xf32>) outs(%s0 : tensor<11xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<11xf32>
  return %s : tensor<11xf32>
}
func.func @sum4099(%x: tensor<3x4099xf32>) -> tensor<3xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x4099xf32>) outs(%s0 : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %s : tensor<3xf32>
}
func.func @sum100bf16(%x: tensor<5x100xbf16>) -> tensor<5xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x100xbf16>) outs(%s0 : tensor<5xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %q = arith.mulf %f, %f : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  return %s : tensor<5xf32>
}
func.func @sum4099bf16(%x: tensor<2x4099xbf16>) -> tensor<2xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4099xbf16>) outs(%s0 : tensor<2xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %q = arith.mulf %f, %f : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  return %s : tensor<2xf32>
}
func.func @max31(%x: tensor<4x31xf32>) -> tensor<4xf32> attributes {llvm.emit_c_interface} {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x31xf32>) outs(%m0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %m : tensor<4xf32>
}
func.func @max33(%x: tensor<10x33xf32>) -> tensor<10xf32> attributes {llvm.emit_c_interface} {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<10xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<10xf32>) -> tensor<10xf32>
  %m = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<10x33xf32>) outs(%m0 : tensor<10xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<10xf32>
  return %m : tensor<10xf32>
}
func.func @max4099(%x: tensor<2x4099xf32>) -> tensor<2xf32> attributes {llvm.emit_c_interface} {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %m = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4099xf32>) outs(%m0 : tensor<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  return %m : tensor<2xf32>
}
func.func @max1000bf16(%x: tensor<3x1000xbf16>) -> tensor<3xf32> attributes {llvm.emit_c_interface} {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<3xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %m = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x1000xbf16>) outs(%m0 : tensor<3xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %r = arith.maximumf %f, %acc : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %m : tensor<3xf32>
}

// COL70-NOT: launch
// COL70: launch col70_generic_column_sum grid 2 block 256
// COL70-NOT: launch
// COL70: host-check: PASS col70: 1x16, 16 outputs bit-exact
// COL4099-NOT: launch
// COL4099: launch col4099_generic_column_sum grid 5 block 256
// COL4099-NOT: launch
// COL4099: host-check: PASS col4099: 1x40, 40 outputs bit-exact
// COL100BF16-NOT: launch
// COL100BF16: launch col100bf16_generic_column_sum grid 1 block 256
// COL100BF16-NOT: launch
// COL100BF16: host-check: PASS col100bf16: 1x8, 8 outputs bit-exact

// Column sums (RMSNorm's weight gradient: the reduction over the inputs'
// outer dimension), marked fp8.column_lanes by fp8-split-reductions and
// split on the CPU: one launch each, its init's fill folded, CTAs of the
// 32 lanes of 8 columns computing the partial sums and the halving tree
// through shared memory (column-sums.mlir runs more shapes, seeds and
// lockstep). Columns of 70 (tail 6) with a product of two inputs, of 4099
// (tail 3), of 100 bf16 (tail 4, lockstep). They were 9 launches each
// before (the init's fill, the lanes' -0.0 fill, the partial sums, the
// tail's lanes, four tree levels, the final add).
func.func @col70(%x: tensor<70x16xf32>, %y: tensor<70x16xf32>) -> tensor<16xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x, %y : tensor<70x16xf32>, tensor<70x16xf32>) outs(%s0 : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %q = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}
func.func @col4099(%x: tensor<4099x40xf32>) -> tensor<40xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<40xf32>) -> tensor<40xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4099x40xf32>) outs(%s0 : tensor<40xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<40xf32>
  return %s : tensor<40xf32>
}
func.func @col100bf16(%x: tensor<100x8xbf16>) -> tensor<8xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<100x8xbf16>) outs(%s0 : tensor<8xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %q = arith.mulf %f, %f : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}
func.func @sum127(%x: tensor<3x127xf32>) -> tensor<3xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x127xf32>) outs(%s0 : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %s : tensor<3xf32>
}
func.func @sum129(%x: tensor<5x129xf32>) -> tensor<5xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x129xf32>) outs(%s0 : tensor<5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  return %s : tensor<5xf32>
}
func.func @sum256bf16(%x: tensor<3x256xbf16>) -> tensor<3xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x256xbf16>) outs(%s0 : tensor<3xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %q = arith.mulf %f, %f : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %s : tensor<3xf32>
}
func.func @sum160(%x: tensor<9x160xf32>) -> tensor<9xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<9xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<9xf32>) -> tensor<9xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<9x160xf32>) outs(%s0 : tensor<9xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<9xf32>
  return %s : tensor<9xf32>
}
func.func @sum4100(%x: tensor<3x4100xf32>) -> tensor<3xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x4100xf32>) outs(%s0 : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %s : tensor<3xf32>
}
func.func @suminit(%x: tensor<40x100xf32>) -> tensor<40xf32> attributes {llvm.emit_c_interface} {
  %init = arith.constant 1000.25 : f32
  %e = tensor.empty() : tensor<40xf32>
  %s0 = linalg.fill ins(%init : f32) outs(%e : tensor<40xf32>) -> tensor<40xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<40x100xf32>) outs(%s0 : tensor<40xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<40xf32>
  return %s : tensor<40xf32>
}
