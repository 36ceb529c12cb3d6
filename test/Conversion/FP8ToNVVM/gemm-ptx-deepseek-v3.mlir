// The sm_90a FP8 GEMM for DeepSeek-V3's GEMM shapes (M = 64 / 128 / 4096
// tokens; N x K of its projections), through fp8-gpu-pipeline to PTX, then
// ptxas: it must assemble with no spills, and the PTX must hold the TMA ring
// (ROLES), the e4m3 wgmma (4 per 128-wide K block, the first with scale-d =
// 0) and the 64 promotion FMAs per K block of each consumer thread (MMA).
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a" | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s --check-prefix=ROLES < %t.ptx
// RUN: FileCheck %s --check-prefix=MMA < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-11: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

// ROLES-LABEL: .entry fp8_scaled_matmul_128x2112x7168_e4m3_e4m3_bf16(
// ROLES: .maxntid 384, 1, 1
// ROLES: .minnctapersm 1
// The three tensor maps (parameters 0-2) prefetched into the descriptor
// cache (with the barrier initialisation, before the CTA barrier).
// ROLES-DAG: prefetch.tensormap [{{%rd[0-9]+}}];
// ROLES-DAG: prefetch.tensormap [{{%rd[0-9]+}}];
// ROLES-DAG: prefetch.tensormap [{{%rd[0-9]+}}];
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

// The first kernel in detail: the four wgmma chain their accumulators; the
// promotion FMA of register d<i> of the last wgmma multiplies by
// sa[row slot (i / 2) % 2] * sb (the fragment map: d0, d1 on row r, d2, d3 on
// row r + 8, ...), with the two A scales read 32 bytes (8 rows) apart from
// the A-scale ring at 196608 = 6 stages x (16 KiB A + 16 KiB B).
// MMA-LABEL: .entry fp8_scaled_matmul_128x2112x7168_e4m3_e4m3_bf16(
// The K loop's latch block comes first in the PTX (the per-warp arrive is
// a branch, and the block layout puts the latch before the loop body): the
// promotion, sa[slot] * sb, then one FMA per accumulator register.
// MMA-DAG: mul.rn.f32 [[S0:%r[0-9]+]], {{%r[0-9]+}}, [[SA0:%r[0-9]+]];
// MMA-DAG: mul.rn.f32 [[S1:%r[0-9]+]], {{%r[0-9]+}}, [[SA1:%r[0-9]+]];
// MMA: fma.rn.f32 [[ACC0:%r[0-9]+]], [[D0:%r[0-9]+]], [[S0]], [[ACC0]];
// MMA: fma.rn.f32 [[ACC1:%r[0-9]+]], [[D1:%r[0-9]+]], [[S0]], [[ACC1]];
// MMA: fma.rn.f32 [[ACC2:%r[0-9]+]], [[D2:%r[0-9]+]], [[S1]], [[ACC2]];
// MMA: fma.rn.f32 [[ACC3:%r[0-9]+]], [[D3:%r[0-9]+]], [[S1]], [[ACC3]];
// MMA: fma.rn.f32 [[ACC4:%r[0-9]+]], [[D4:%r[0-9]+]], [[S0]], [[ACC4]];
// MMA: fma.rn.f32 [[ACC5:%r[0-9]+]], [[D5:%r[0-9]+]], [[S0]], [[ACC5]];
// MMA: fma.rn.f32 [[ACC6:%r[0-9]+]], [[D6:%r[0-9]+]], [[S1]], [[ACC6]];
// MMA: fma.rn.f32 [[ACC7:%r[0-9]+]], [[D7:%r[0-9]+]], [[S1]], [[ACC7]];
// MMA: fma.rn.f32 [[ACC8:%r[0-9]+]], [[D8:%r[0-9]+]], [[S0]], [[ACC8]];
// MMA: fma.rn.f32 [[ACC9:%r[0-9]+]], [[D9:%r[0-9]+]], [[S0]], [[ACC9]];
// MMA: fma.rn.f32 [[ACC10:%r[0-9]+]], [[D10:%r[0-9]+]], [[S1]], [[ACC10]];
// MMA: fma.rn.f32 [[ACC11:%r[0-9]+]], [[D11:%r[0-9]+]], [[S1]], [[ACC11]];
// MMA: fma.rn.f32 [[ACC12:%r[0-9]+]], [[D12:%r[0-9]+]], [[S0]], [[ACC12]];
// MMA: fma.rn.f32 [[ACC13:%r[0-9]+]], [[D13:%r[0-9]+]], [[S0]], [[ACC13]];
// MMA: fma.rn.f32 [[ACC14:%r[0-9]+]], [[D14:%r[0-9]+]], [[S1]], [[ACC14]];
// MMA: fma.rn.f32 [[ACC15:%r[0-9]+]], [[D15:%r[0-9]+]], [[S1]], [[ACC15]];
// MMA: fma.rn.f32 [[ACC16:%r[0-9]+]], [[D16:%r[0-9]+]], [[S0]], [[ACC16]];
// MMA: fma.rn.f32 [[ACC17:%r[0-9]+]], [[D17:%r[0-9]+]], [[S0]], [[ACC17]];
// MMA: fma.rn.f32 [[ACC18:%r[0-9]+]], [[D18:%r[0-9]+]], [[S1]], [[ACC18]];
// MMA: fma.rn.f32 [[ACC19:%r[0-9]+]], [[D19:%r[0-9]+]], [[S1]], [[ACC19]];
// MMA: fma.rn.f32 [[ACC20:%r[0-9]+]], [[D20:%r[0-9]+]], [[S0]], [[ACC20]];
// MMA: fma.rn.f32 [[ACC21:%r[0-9]+]], [[D21:%r[0-9]+]], [[S0]], [[ACC21]];
// MMA: fma.rn.f32 [[ACC22:%r[0-9]+]], [[D22:%r[0-9]+]], [[S1]], [[ACC22]];
// MMA: fma.rn.f32 [[ACC23:%r[0-9]+]], [[D23:%r[0-9]+]], [[S1]], [[ACC23]];
// MMA: fma.rn.f32 [[ACC24:%r[0-9]+]], [[D24:%r[0-9]+]], [[S0]], [[ACC24]];
// MMA: fma.rn.f32 [[ACC25:%r[0-9]+]], [[D25:%r[0-9]+]], [[S0]], [[ACC25]];
// MMA: fma.rn.f32 [[ACC26:%r[0-9]+]], [[D26:%r[0-9]+]], [[S1]], [[ACC26]];
// MMA: fma.rn.f32 [[ACC27:%r[0-9]+]], [[D27:%r[0-9]+]], [[S1]], [[ACC27]];
// MMA: fma.rn.f32 [[ACC28:%r[0-9]+]], [[D28:%r[0-9]+]], [[S0]], [[ACC28]];
// MMA: fma.rn.f32 [[ACC29:%r[0-9]+]], [[D29:%r[0-9]+]], [[S0]], [[ACC29]];
// MMA: fma.rn.f32 [[ACC30:%r[0-9]+]], [[D30:%r[0-9]+]], [[S1]], [[ACC30]];
// MMA: fma.rn.f32 [[ACC31:%r[0-9]+]], [[D31:%r[0-9]+]], [[S1]], [[ACC31]];
// MMA: fma.rn.f32 [[ACC32:%r[0-9]+]], [[D32:%r[0-9]+]], [[S0]], [[ACC32]];
// MMA: fma.rn.f32 [[ACC33:%r[0-9]+]], [[D33:%r[0-9]+]], [[S0]], [[ACC33]];
// MMA: fma.rn.f32 [[ACC34:%r[0-9]+]], [[D34:%r[0-9]+]], [[S1]], [[ACC34]];
// MMA: fma.rn.f32 [[ACC35:%r[0-9]+]], [[D35:%r[0-9]+]], [[S1]], [[ACC35]];
// MMA: fma.rn.f32 [[ACC36:%r[0-9]+]], [[D36:%r[0-9]+]], [[S0]], [[ACC36]];
// MMA: fma.rn.f32 [[ACC37:%r[0-9]+]], [[D37:%r[0-9]+]], [[S0]], [[ACC37]];
// MMA: fma.rn.f32 [[ACC38:%r[0-9]+]], [[D38:%r[0-9]+]], [[S1]], [[ACC38]];
// MMA: fma.rn.f32 [[ACC39:%r[0-9]+]], [[D39:%r[0-9]+]], [[S1]], [[ACC39]];
// MMA: fma.rn.f32 [[ACC40:%r[0-9]+]], [[D40:%r[0-9]+]], [[S0]], [[ACC40]];
// MMA: fma.rn.f32 [[ACC41:%r[0-9]+]], [[D41:%r[0-9]+]], [[S0]], [[ACC41]];
// MMA: fma.rn.f32 [[ACC42:%r[0-9]+]], [[D42:%r[0-9]+]], [[S1]], [[ACC42]];
// MMA: fma.rn.f32 [[ACC43:%r[0-9]+]], [[D43:%r[0-9]+]], [[S1]], [[ACC43]];
// MMA: fma.rn.f32 [[ACC44:%r[0-9]+]], [[D44:%r[0-9]+]], [[S0]], [[ACC44]];
// MMA: fma.rn.f32 [[ACC45:%r[0-9]+]], [[D45:%r[0-9]+]], [[S0]], [[ACC45]];
// MMA: fma.rn.f32 [[ACC46:%r[0-9]+]], [[D46:%r[0-9]+]], [[S1]], [[ACC46]];
// MMA: fma.rn.f32 [[ACC47:%r[0-9]+]], [[D47:%r[0-9]+]], [[S1]], [[ACC47]];
// MMA: fma.rn.f32 [[ACC48:%r[0-9]+]], [[D48:%r[0-9]+]], [[S0]], [[ACC48]];
// MMA: fma.rn.f32 [[ACC49:%r[0-9]+]], [[D49:%r[0-9]+]], [[S0]], [[ACC49]];
// MMA: fma.rn.f32 [[ACC50:%r[0-9]+]], [[D50:%r[0-9]+]], [[S1]], [[ACC50]];
// MMA: fma.rn.f32 [[ACC51:%r[0-9]+]], [[D51:%r[0-9]+]], [[S1]], [[ACC51]];
// MMA: fma.rn.f32 [[ACC52:%r[0-9]+]], [[D52:%r[0-9]+]], [[S0]], [[ACC52]];
// MMA: fma.rn.f32 [[ACC53:%r[0-9]+]], [[D53:%r[0-9]+]], [[S0]], [[ACC53]];
// MMA: fma.rn.f32 [[ACC54:%r[0-9]+]], [[D54:%r[0-9]+]], [[S1]], [[ACC54]];
// MMA: fma.rn.f32 [[ACC55:%r[0-9]+]], [[D55:%r[0-9]+]], [[S1]], [[ACC55]];
// MMA: fma.rn.f32 [[ACC56:%r[0-9]+]], [[D56:%r[0-9]+]], [[S0]], [[ACC56]];
// MMA: fma.rn.f32 [[ACC57:%r[0-9]+]], [[D57:%r[0-9]+]], [[S0]], [[ACC57]];
// MMA: fma.rn.f32 [[ACC58:%r[0-9]+]], [[D58:%r[0-9]+]], [[S1]], [[ACC58]];
// MMA: fma.rn.f32 [[ACC59:%r[0-9]+]], [[D59:%r[0-9]+]], [[S1]], [[ACC59]];
// MMA: fma.rn.f32 [[ACC60:%r[0-9]+]], [[D60:%r[0-9]+]], [[S0]], [[ACC60]];
// MMA: fma.rn.f32 [[ACC61:%r[0-9]+]], [[D61:%r[0-9]+]], [[S0]], [[ACC61]];
// MMA: fma.rn.f32 [[ACC62:%r[0-9]+]], [[D62:%r[0-9]+]], [[S1]], [[ACC62]];
// MMA: fma.rn.f32 [[ACC63:%r[0-9]+]], [[D63:%r[0-9]+]], [[S1]], [[ACC63]];
// MMA-NOT: fma.rn.f32
// The loop body: the A scales S0 / S1 multiply, loaded 8 rows apart after
// the wait and before the wgmma chain (docs/gpu-kernel.md, "The K-block
// path"); the four wgmma, whose last one writes the D registers the FMAs
// read; then bar.warp.sync and the arrive of lane 0 only.
// MMA: ld.shared.b32 [[SA0]], [{{%rd[0-9]+}}+196608];
// MMA-NEXT: ld.shared.b32 [[SA1]], [{{%rd[0-9]+}}+196640];
// MMA-NEXT: wgmma.fence.sync.aligned;
// MMA: setp.ne.b32 p, 0, 0;
// MMA-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// MMA: setp.ne.b32 p, 1, 0;
// MMA-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// MMA: setp.ne.b32 p, 1, 0;
// MMA-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// MMA: setp.ne.b32 p, 1, 0;
// MMA-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{[{]}}[[D0]], [[D1]], [[D2]], [[D3]], [[D4]], [[D5]], [[D6]], [[D7]], [[D8]], [[D9]], [[D10]], [[D11]], [[D12]], [[D13]], [[D14]], [[D15]], [[D16]], [[D17]], [[D18]], [[D19]], [[D20]], [[D21]], [[D22]], [[D23]], [[D24]], [[D25]], [[D26]], [[D27]], [[D28]], [[D29]], [[D30]], [[D31]], [[D32]], [[D33]], [[D34]], [[D35]], [[D36]], [[D37]], [[D38]], [[D39]], [[D40]], [[D41]], [[D42]], [[D43]], [[D44]], [[D45]], [[D46]], [[D47]], [[D48]], [[D49]], [[D50]], [[D51]], [[D52]], [[D53]], [[D54]], [[D55]], [[D56]], [[D57]], [[D58]], [[D59]], [[D60]], [[D61]], [[D62]], [[D63]]{{[}]}}, {{%rd[0-9]+}}, {{%rd[0-9]+}}, p, 1, 1;
// MMA: wgmma.commit_group.sync.aligned;
// MMA-NEXT: wgmma.wait_group.sync.aligned 0;
// MMA-NEXT: bar.warp.sync -1;
// MMA-NEXT: @{{%p[0-9]+}} bra
// MMA: mbarrier.arrive.shared.b64
// MMA-NOT: fma.rn.f32
// MMA: cvt.rn.bf16x2.f32
// MMA: st.global.b32

// ROLES-LABEL: .entry fp8_scaled_matmul_4096x2112x7168_e4m3_e4m3_bf16(
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

// MMA-LABEL: .entry fp8_scaled_matmul_4096x2112x7168_e4m3_e4m3_bf16(
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

// ROLES-LABEL: .entry fp8_scaled_matmul_128x24576x1536_e4m3_e4m3_bf16(
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

// MMA-LABEL: .entry fp8_scaled_matmul_128x24576x1536_e4m3_e4m3_bf16(
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

// ROLES-LABEL: .entry fp8_scaled_matmul_4096x24576x1536_e4m3_e4m3_bf16(
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

// MMA-LABEL: .entry fp8_scaled_matmul_4096x24576x1536_e4m3_e4m3_bf16(
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

// ROLES-LABEL: .entry fp8_scaled_matmul_128x7168x16384_e4m3_e4m3_bf16(
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

// MMA-LABEL: .entry fp8_scaled_matmul_128x7168x16384_e4m3_e4m3_bf16(
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

// ROLES-LABEL: .entry fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_bf16(
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

// MMA-LABEL: .entry fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_bf16(
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

// ROLES-LABEL: .entry fp8_scaled_matmul_128x4096x7168_e4m3_e4m3_bf16(
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

// MMA-LABEL: .entry fp8_scaled_matmul_128x4096x7168_e4m3_e4m3_bf16(
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

// ROLES-LABEL: .entry fp8_scaled_matmul_4096x4096x7168_e4m3_e4m3_bf16(
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

// MMA-LABEL: .entry fp8_scaled_matmul_4096x4096x7168_e4m3_e4m3_bf16(
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

// ROLES-LABEL: .entry fp8_scaled_matmul_128x7168x512_e4m3_e4m3_bf16(
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

// MMA-LABEL: .entry fp8_scaled_matmul_128x7168x512_e4m3_e4m3_bf16(
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

// ROLES-LABEL: .entry fp8_scaled_matmul_4096x7168x512_e4m3_e4m3_bf16(
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

// MMA-LABEL: .entry fp8_scaled_matmul_4096x7168x512_e4m3_e4m3_bf16(
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

// ROLES-LABEL: .entry fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16(
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

// MMA-LABEL: .entry fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16(
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

func.func @gemm_128x2112x7168(%a: !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<128x2112xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x2112xbf16>
  return %d : tensor<128x2112xbf16>
}

func.func @gemm_4096x2112x7168(%a: !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<4096x2112xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x2112xbf16>
  return %d : tensor<4096x2112xbf16>
}

func.func @gemm_128x24576x1536(%a: !fp8.scaled<128x1536xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<24576x1536xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<128x24576xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x1536xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<24576x1536xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x24576xbf16>
  return %d : tensor<128x24576xbf16>
}

func.func @gemm_4096x24576x1536(%a: !fp8.scaled<4096x1536xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<24576x1536xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<4096x24576xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x1536xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<24576x1536xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x24576xbf16>
  return %d : tensor<4096x24576xbf16>
}

func.func @gemm_128x7168x16384(%a: !fp8.scaled<128x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<128x7168xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x7168xbf16>
  return %d : tensor<128x7168xbf16>
}

func.func @gemm_4096x7168x16384(%a: !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<4096x7168xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  return %d : tensor<4096x7168xbf16>
}

func.func @gemm_128x4096x7168(%a: !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<128x4096xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x4096xbf16>
  return %d : tensor<128x4096xbf16>
}

func.func @gemm_4096x4096x7168(%a: !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<4096x4096xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x4096xbf16>
  return %d : tensor<4096x4096xbf16>
}

func.func @gemm_128x7168x512(%a: !fp8.scaled<128x512xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x512xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<128x7168xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x512xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x512xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x7168xbf16>
  return %d : tensor<128x7168xbf16>
}

func.func @gemm_4096x7168x512(%a: !fp8.scaled<4096x512xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x512xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<4096x7168xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x512xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x512xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  return %d : tensor<4096x7168xbf16>
}

func.func @gemm_64x2112x7168(%a: !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<64x2112xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x2112xbf16>
  return %d : tensor<64x2112xbf16>
}
