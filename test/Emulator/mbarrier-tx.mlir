// The emulator's transaction-count accounting (mbarrier expect_tx against
// the bytes TMA copies deliver), on a kernel configuration other than
// gemm-mutations.mlir's: BLOCK_N = 64, so one stage's copies deliver
// 128 x 128 (A) + 64 x 128 (B) + 128 x 4 (A scales) = 25088 bytes (PTX ISA,
// cp.async.bulk.tensor: complete_tx of the box's bytes, out-of-bounds
// elements included). expect_tx announcing 256 bytes more or less than that
// must be reported with the exact difference.
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed block-n=64" > %t.mlir
// RUN: fp8-emu %t.mlir | FileCheck %s --check-prefix=OK
// OK: fp8-emu: PASS fp8_scaled_matmul_70x100x208_e4m3_e4m3_f32_t128x64s8
// RUN: sed 's/arith.constant 25088 : i32/arith.constant 24832 : i32/' %t.mlir | not fp8-emu 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: fp8-emu: error: TMA copies delivered 256 bytes more than expect_tx announced for the current phase (transaction count overflow): mbarrier 0x{{[0-9a-f]+}}: phase 0
// RUN: sed 's/arith.constant 25088 : i32/arith.constant 25344 : i32/' %t.mlir | not fp8-emu 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: fp8-emu: error: deadlock
// LONG: waiting for parity 0 of mbarrier 0x{{[0-9a-f]+}}: phase 0 (parity 0), 0 of 1 arrivals pending, tx-count 256, 0 TMA bytes in flight
// LONG-NEXT: expect_tx: 256 announced bytes never arrived (no TMA copy in flight)

func.func @gemm_70x100x208(%a: !fp8.scaled<70x208xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<100x208xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<70x100xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<70x208xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<100x208xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<70x100xf32>
  return %d : tensor<70x100xf32>
}
