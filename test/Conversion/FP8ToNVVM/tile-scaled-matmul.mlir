// fp8-tile-scaled-matmul: the GPU kernel's schedule in scf loops on tensors.
// Tails (M = 100 < BLOCK_M, N = 200 = 112 + 88, K = 272 = 2 x 128 + 16) and
// a BLOCK_N (112) that is not a multiple of the 128-row B-scale block: the B
// scale index is computed per column, (n0 + j) / 128.
// RUN: fp8-opt %s --fp8-tile-scaled-matmul="block-n=112" --canonicalize | FileCheck %s
// RUN: fp8-opt %s --fp8-tile-scaled-matmul | FileCheck %s --check-prefix=DEFAULT
// RUN: not fp8-opt %s --fp8-tile-scaled-matmul="block-n=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @tails
// CHECK-DAG: %[[C112:.*]] = arith.constant 112 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[C200:.*]] = arith.constant 200 : index
// CHECK-DAG: %[[C272:.*]] = arith.constant 272 : index
// CHECK: %[[AD:.*]], %[[AS:.*]] = fp8.disassemble %arg0
// CHECK: %[[BD:.*]], %[[BS:.*]] = fp8.disassemble %arg1
// One M tile (folded away: ceil(100 / 128) = 1), two N tiles.
// CHECK: scf.for %[[NT:.*]] = %c0 to %c2 step %c1
// CHECK:   %[[N0:.*]] = arith.muli %[[NT]], %[[C112]]
// CHECK:   %[[REST:.*]] = arith.subi %[[C200]], %[[N0]]
// CHECK:   %[[NSZ:.*]] = arith.minui %[[REST]], %[[C112]]
// CHECK:   tensor.empty() : tensor<128x112xf32>
// K chunks: ceil(272 / 128) = 3, the last one cut at K.
// CHECK:   scf.for %[[KB:.*]] = %c0 to %c3 step %c1
// CHECK:     %[[K0:.*]] = arith.muli %[[KB]], %[[C128]]
// CHECK:     %[[K1A:.*]] = arith.addi %[[K0]], %[[C128]]
// CHECK:     %[[K1:.*]] = arith.minui %[[K1A]], %[[C272]]
// CHECK:     scf.for %[[I:.*]] = %c0 to %c100 step %c1
// CHECK:       %[[SAK:.*]] = arith.divui %[[K0]], %[[C128]]
// CHECK:       %[[SA:.*]] = tensor.extract %[[AS]][%[[I]], %[[SAK]]] : tensor<100x3xf32>
// CHECK:       scf.for %[[J:.*]] = %c0 to %[[NSZ]] step %c1
// CHECK:         %[[N:.*]] = arith.addi %[[N0]], %[[J]]
// CHECK:         %[[NB:.*]] = arith.divui %[[N]], %[[C128]]
// CHECK:         %[[SB:.*]] = tensor.extract %[[BS]][%[[NB]], %{{.*}}] : tensor<2x3xf32>
// CHECK:         %[[P:.*]] = scf.for %[[K:.*]] = %[[K0]] to %[[K1]] step %c1 iter_args(%[[PA:.*]] = %cst) -> (f32)
// CHECK:           tensor.extract %[[AD]][%[[I]], %[[K]]] : tensor<100x272xf8E4M3FN>
// CHECK:           arith.extf
// CHECK:           tensor.extract %[[BD]][%[[N]], %[[K]]] : tensor<200x272xf8E4M3FN>
// CHECK:           arith.extf
// CHECK:           %[[PR:.*]] = arith.mulf
// CHECK:           arith.addf %[[PA]], %[[PR]] : f32
// CHECK:         %[[S:.*]] = arith.mulf %[[SA]], %[[SB]] : f32
// CHECK:         %[[OLD:.*]] = tensor.extract
// CHECK:         math.fma %[[P]], %[[S]], %[[OLD]] : f32
// Epilogue: the valid part of the tile, rounded to bf16.
// CHECK:   arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT: fp8.scaled_matmul

// DEFAULT-LABEL: func.func @tails
// DEFAULT: tensor.empty() : tensor<128x128xf32>
// DEFAULT-LABEL: func.func @small_m_acc
// The GPU kernel's BLOCK_M for M <= 64; the accumulator starts from C.
// DEFAULT: tensor.empty() : tensor<64x128xf32>
// DEFAULT: %[[C:.*]] = tensor.extract %arg2
// DEFAULT: arith.extf %[[C]] : bf16 to f32

// BAD: error: fp8-tile-scaled-matmul: option block-n=0 is invalid: expected a positive tile width

func.func @tails(%a: !fp8.scaled<100x272xf8E4M3FN, block = [1, 128], scale = f32>,
                 %b: !fp8.scaled<200x272xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<100x200xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<100x272xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<200x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<100x200xbf16>
  return %d : tensor<100x200xbf16>
}

func.func @small_m_acc(%a: !fp8.scaled<8x256xf8E4M3FN, block = [1, 128], scale = f32>,
                       %b: !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>,
                       %c: tensor<8x256xbf16>) -> tensor<8x256xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<8x256xbf16>) : !fp8.scaled<8x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<8x256xf32>
  return %d : tensor<8x256xf32>
}

// Tile options past the problem (here near INT64_MAX, where ceil(M /
// BLOCK_M) computed as (M + BLOCK_M - 1) / BLOCK_M overflowed to no tile
// at all, and the accumulator's static shape outgrew any memory) compute
// what tiles of the problem's size rounded up to 128 do: one tile each way.
// RUN: fp8-opt %s --fp8-tile-scaled-matmul="block-m=9223372036854775807 block-n=9223372036854775807" --canonicalize | FileCheck %s --check-prefix=HUGE
// HUGE-LABEL: func.func @tails
// HUGE-NOT: scf.for %{{.*}} = %c0 to %c0
// HUGE: tensor.empty() : tensor<128x256xf32>
// HUGE: scf.for %{{.*}} = %c0 to %c3 step %c1
