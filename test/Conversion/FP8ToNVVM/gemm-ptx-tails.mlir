// Tails: M, N, K not multiples of the tile (100x200x272: K = 2 x 128 + 16,
// the last N scale block cut), one token (1x2112x7168: the FMAs of row
// slot r + 8 are dead, since only row 0 exists, and are dropped: 32 remain), N odd with e5m2
// weights and f32 output (65x129x144: element stores), f32 output with pair
// stores; through to ptxas.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a" | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s --check-prefix=ROLES < %t.ptx
// RUN: FileCheck %s --check-prefix=MMA < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-4: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

// ROLES-LABEL: .entry fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16(
// ROLES: .maxntid 384, 1, 1
// ROLES: .minnctapersm 1
// ROLES-DAG: fence.mbarrier_init.release.cluster;
// ROLES-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// ROLES-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// ROLES-DAG: mbarrier.arrive.expect_tx.shared.b64
// ROLES-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ROLES-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ROLES-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ROLES-DAG: mbarrier.try_wait.parity.shared.b64
// ROLES-DAG: mbarrier.try_wait.parity.shared.b64
// ROLES-DAG: mbarrier.arrive.shared.b64

// MMA-LABEL: .entry fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16(
// MMA-COUNT-64: fma.rn.f32
// MMA-NOT: fma.rn.f32
// MMA: wgmma.fence.sync.aligned;
// MMA: setp.ne.b32 p, 0, 0;
// MMA-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// MMA-COUNT-3: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// MMA-NOT: wgmma.mma_async
// MMA: wgmma.commit_group.sync.aligned;
// MMA-NEXT: wgmma.wait_group.sync.aligned 0;
// MMA: bar.warp.sync -1;
// MMA: mbarrier.arrive.shared.b64
// MMA-NOT: fma.rn.f32
// MMA: cvt.rn.bf16x2.f32
// MMA: st.global.b32

// ROLES-LABEL: .entry fp8_scaled_matmul_1x2112x7168_e4m3_e4m3_bf16(
// ROLES: .maxntid 256, 1, 1
// ROLES: .minnctapersm 1
// ROLES-DAG: fence.mbarrier_init.release.cluster;
// ROLES-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// ROLES-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// ROLES-DAG: mbarrier.arrive.expect_tx.shared.b64
// ROLES-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ROLES-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ROLES-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ROLES-DAG: mbarrier.try_wait.parity.shared.b64
// ROLES-DAG: mbarrier.try_wait.parity.shared.b64
// ROLES-DAG: mbarrier.arrive.shared.b64

// MMA-LABEL: .entry fp8_scaled_matmul_1x2112x7168_e4m3_e4m3_bf16(
// MMA-COUNT-32: fma.rn.f32
// MMA-NOT: fma.rn.f32
// MMA: wgmma.fence.sync.aligned;
// MMA: setp.ne.b32 p, 0, 0;
// MMA-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// MMA-COUNT-3: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// MMA-NOT: wgmma.mma_async
// MMA: wgmma.commit_group.sync.aligned;
// MMA-NEXT: wgmma.wait_group.sync.aligned 0;
// MMA: bar.warp.sync -1;
// MMA: mbarrier.arrive.shared.b64
// MMA-NOT: fma.rn.f32
// MMA: cvt.rn.bf16x2.f32
// MMA: st.global.b32

// ROLES-LABEL: .entry fp8_scaled_matmul_65x129x144_e4m3_e5m2_f32(
// ROLES: .maxntid 384, 1, 1
// ROLES: .minnctapersm 1
// ROLES-DAG: fence.mbarrier_init.release.cluster;
// ROLES-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// ROLES-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// ROLES-DAG: mbarrier.arrive.expect_tx.shared.b64
// ROLES-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ROLES-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ROLES-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ROLES-DAG: mbarrier.try_wait.parity.shared.b64
// ROLES-DAG: mbarrier.try_wait.parity.shared.b64
// ROLES-DAG: mbarrier.arrive.shared.b64

// MMA-LABEL: .entry fp8_scaled_matmul_65x129x144_e4m3_e5m2_f32(
// (Two K blocks: the K loop is unrolled, the promotions follow the last
// arrive, fused with the epilogue's stores.)
// MMA: wgmma.fence.sync.aligned;
// MMA: setp.ne.b32 p, 0, 0;
// MMA-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e5m2
// MMA-COUNT-3: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e5m2
// MMA-NOT: wgmma.mma_async
// MMA: wgmma.commit_group.sync.aligned;
// MMA-NEXT: wgmma.wait_group.sync.aligned 0;
// MMA: bar.warp.sync -1;
// MMA: mbarrier.arrive.shared.b64
// MMA-COUNT-64: fma.rn.f32
// MMA-NOT: fma.rn.f32
// MMA: st.global.b32

// ROLES-LABEL: .entry fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_f32(
// ROLES: .maxntid 384, 1, 1
// ROLES: .minnctapersm 1
// ROLES-DAG: fence.mbarrier_init.release.cluster;
// ROLES-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// ROLES-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// ROLES-DAG: mbarrier.arrive.expect_tx.shared.b64
// ROLES-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ROLES-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ROLES-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ROLES-DAG: mbarrier.try_wait.parity.shared.b64
// ROLES-DAG: mbarrier.try_wait.parity.shared.b64
// ROLES-DAG: mbarrier.arrive.shared.b64

// MMA-LABEL: .entry fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_f32(
// MMA-COUNT-64: fma.rn.f32
// MMA-NOT: fma.rn.f32
// MMA: wgmma.fence.sync.aligned;
// MMA: setp.ne.b32 p, 0, 0;
// MMA-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// MMA-COUNT-3: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// MMA-NOT: wgmma.mma_async
// MMA: wgmma.commit_group.sync.aligned;
// MMA-NEXT: wgmma.wait_group.sync.aligned 0;
// MMA: bar.warp.sync -1;
// MMA: mbarrier.arrive.shared.b64
// MMA-NOT: fma.rn.f32
// MMA: st.global.v2.b32

func.func @gemm_100x200x272(%a: !fp8.scaled<100x272xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<200x272xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<100x200xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<100x272xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<200x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<100x200xbf16>
  return %d : tensor<100x200xbf16>
}

func.func @gemm_1x2112x7168(%a: !fp8.scaled<1x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<1x2112xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<1x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<1x2112xbf16>
  return %d : tensor<1x2112xbf16>
}

func.func @gemm_65x129x144(%a: !fp8.scaled<65x144xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<129x144xf8E5M2, block = [128, 128], scale = f32>) -> tensor<65x129xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<65x144xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<129x144xf8E5M2, block = [128, 128], scale = f32> -> tensor<65x129xf32>
  return %d : tensor<65x129xf32>
}

func.func @gemm_4096x7168x16384(%a: !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<4096x7168xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xf32>
  return %d : tensor<4096x7168xf32>
}
