// Host kernels (issue 28): the high-precision linalg ops of a host program
// (a softmax-like row normalisation, RMSNorm with a bf16 result, a column
// reduction of bf16 input with a sqrt, a batch_matmul between reshapes and
// a transpose, arithmetic with program constants: tables of the kernel
// module) run as GPU kernels of fp8-outline-host-kernels on the emulated
// device, bit-exact against fp8-cpu-pipeline, and only each
// function's arguments and results cross (the intermediate row statistics,
// the reshaped operands, the batch_matmul's result stay on the device).
// With host-kernels=false they run on the host: no byte crosses. The same
// kernels in PTX have separate multiplies and adds (`mul.rn`, `add.rn`: no
// contraction into fma, which ptxas may not fuse either), and correctly
// rounded `div.rn`, `rcp.rn` (math.rsqrt as 1 / sqrt) and `sqrt.rn`, as the
// host's divss/sqrtss (docs/numerics.md, "Host kernels").
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARK --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator host-kernels=false" | mlir-translate --mlir-to-llvmir -o %t.host.ll
// RUN: %clang %t.host.ll -o %t.host.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRANSFERS=1 %t.check %t.gpu.so %t.cpu.so softmaxish 1 f32:16x40 f32:16x40 | FileCheck %s --check-prefix=SOFTMAX
// RUN: env FP8_EMU_TRANSFERS=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so rmsnorm 2 bf16:16x40 f32:16x40 f32:40 | FileCheck %s --check-prefix=RMS
// RUN: env FP8_EMU_TRANSFERS=1 %t.check %t.gpu.so %t.cpu.so colnorm 3 f32:40 bf16:24x40 | FileCheck %s --check-prefix=COL
// RUN: env FP8_EMU_TRANSFERS=1 %t.check %t.gpu.so %t.cpu.so bmm 4 f32:12x48 f32:48x16 f32:32x12 | FileCheck %s --check-prefix=BMM
// RUN: env FP8_EMU_TRANSFERS=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so table 5 f32:4x16 f32:4x16 | FileCheck %s --check-prefix=TABLE
// RUN: env FP8_EMU_TRANSFERS=1 FP8_EMU_SEED=4 %t.check %t.gpu.so %t.cpu.so scalars 7 f32:4x16 f32:4x16 | FileCheck %s --check-prefix=SCALARS
// RUN: env FP8_EMU_TRANSFERS=1 FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so rmsnorm64 6 bf16:16x64 f32:16x64 f32:64 2>&1 | FileCheck %s --check-prefix=RMS64
// RUN: env FP8_EMU_TRANSFERS=1 %t.check %t.host.so %t.cpu.so softmaxish 1 f32:16x40 f32:16x40 | FileCheck %s --check-prefix=OFF
// RUN: env FP8_EMU_TRANSFERS=1 %t.check %t.host.so %t.cpu.so rmsnorm64 6 bf16:16x64 f32:16x64 f32:64 | FileCheck %s --check-prefix=OFF64
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm format=isa" | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// Every op became a kernel.
// REMARK-NOT: runs on the host

// softmaxish: x 16x40 f32 in (2560 bytes), the result 16x40 f32 out.
// SOFTMAX: host-check: transfers softmaxish: 2560 bytes to the device, 2560 to the host
// SOFTMAX: host-check: PASS softmaxish: 16x40, 640 outputs bit-exact
// rmsnorm: x 16x40 f32 and w 40 f32 in (2560 + 160), the result 16x40
// bf16 out (1280).
// RMS: host-check: transfers rmsnorm: 2720 bytes to the device, 1280 to the host
// RMS: host-check: PASS rmsnorm: 16x40, 640 outputs bit-exact
// colnorm: x 24x40 bf16 in (1920), the 40 f32 norms out (160).
// COL: host-check: transfers colnorm: 1920 bytes to the device, 160 to the host
// COL: host-check: PASS colnorm: 1x40, 40 outputs bit-exact
// bmm: a 48x16 and b 32x12 f32 in ((768 + 384) * 4), the 12x48 f32
// transpose out (2304).
// BMM: host-check: transfers bmm: 4608 bytes to the device, 2304 to the host
// BMM: host-check: PASS bmm: 12x48, 576 outputs bit-exact
// table: x 4x16 f32 in (256 bytes), the result 4x16 f32 out; its two
// constant tables (one of them a splat) are read by its kernel from the
// kernel module's copies: they do not cross.
// TABLE: host-check: transfers table: 256 bytes to the device, 256 to the host
// TABLE: host-check: PASS table: 4x16, 64 outputs bit-exact
// scalars: rank-0 constants (torch-mlir's BERT divides its scores by
// sqrt(dense<64> : tensor<i64>)), each a global of its element type, not
// an array: the kernel reads the module's copies of an i64 and an f32
// (the emulator lays scalar initializers out as it does dense ones).
// SCALARS: host-check: transfers scalars: 256 bytes to the device, 256 to the host
// SCALARS: host-check: PASS scalars: 4x16, 64 outputs bit-exact
// rmsnorm64: rows of 64, a multiple of the 32 lanes: the sum of squares is
// split (docs/numerics.md, "Reduction order"), one launch of the row
// kernel (2 CTAs of 8 warps), its init's fill folded into it (the kernel
// adds the fill's 0 after the butterfly; was a launch of its own, grid 1
// block 16), with the scaling fused into it (fp8.row_group: each lane
// scales its elements of the row; was a launch of its own, grid 4 block
// 256); the same bytes cross.
// RMS64-NOT: launch rmsnorm64_fill
// RMS64: fp8-emu-mgpu: launch rmsnorm64_row_sum_fused{{.*}} grid 2 block 256
// RMS64-NEXT: host-check: transfers rmsnorm64: 4352 bytes to the device, 2048 to the host
// RMS64-NEXT: host-check: PASS rmsnorm64: 16x64, 1024 outputs bit-exact
// OFF: host-check: transfers softmaxish: 0 bytes to the device, 0 to the host
// OFF64: host-check: transfers rmsnorm64: 0 bytes to the device, 0 to the host
// OFF64: host-check: PASS rmsnorm64: 16x64, 1024 outputs bit-exact
// OFF: host-check: PASS softmaxish: 16x40, 640 outputs bit-exact

// The table's kernel reads the kernel module's copy of the constant table:
// a global-space array with its data (its first two elements, -3.5 and
// 1.125: 0xC0600000, 0x3F900000, little-endian bytes; LLVM folds the
// splat's loads into the constant 0.75).
// PTX-DAG: .global .align 64 .b8 __constant_4x16xf32[256] = {0, 0, 96, 192, 0, 0, 144, 63,
// PTX-NOT: fma
// PTX-DAG: mul.rn.f32
// PTX-DAG: add.rn.f32
// PTX-DAG: sub.rn.f32
// PTX-DAG: div.rn.f32
// PTX-DAG: rcp.rn.f32
// PTX-DAG: sqrt.rn.f32
// PTX-DAG: shfl.sync.bfly.b32
// PTX-NOT: fma

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @softmaxish(%x: tensor<16x40xf32>) -> tensor<16x40xf32> attributes {llvm.emit_c_interface} {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %m = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x40xf32>) outs(%m0 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<16x40xf32>, tensor<16xf32>) outs(%s0 : tensor<16xf32>) {
  ^bb0(%a: f32, %mx: f32, %acc: f32):
    %d = arith.subf %a, %mx : f32
    %q = arith.mulf %d, %d : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16x40xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %s : tensor<16x40xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16x40xf32>) {
  ^bb0(%a: f32, %mx: f32, %sum: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %r = arith.divf %d, %sum : f32
    linalg.yield %r : f32
  } -> tensor<16x40xf32>
  return %y : tensor<16x40xf32>
}
func.func @rmsnorm(%x: tensor<16x40xf32>, %w: tensor<40xf32>) -> tensor<16x40xbf16> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 40.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e0 = tensor.empty() : tensor<16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x40xf32>) outs(%s0 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16x40xbf16>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %w : tensor<16x40xf32>, tensor<16xf32>, tensor<40xf32>) outs(%e1 : tensor<16x40xbf16>) {
  ^bb0(%a: f32, %sum: f32, %wt: f32, %o: bf16):
    %mean = arith.divf %sum, %n : f32
    %v = arith.addf %mean, %eps : f32
    %r = math.rsqrt %v : f32
    %t = arith.mulf %a, %r : f32
    %u = arith.mulf %t, %wt : f32
    %b = arith.truncf %u : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<16x40xbf16>
  return %y : tensor<16x40xbf16>
}
func.func @rmsnorm64(%x: tensor<16x64xf32>, %w: tensor<64xf32>) -> tensor<16x64xbf16> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e0 = tensor.empty() : tensor<16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%s0 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16x64xbf16>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %w : tensor<16x64xf32>, tensor<16xf32>, tensor<64xf32>) outs(%e1 : tensor<16x64xbf16>) {
  ^bb0(%a: f32, %sum: f32, %wt: f32, %o: bf16):
    %mean = arith.divf %sum, %n : f32
    %v = arith.addf %mean, %eps : f32
    %r = math.rsqrt %v : f32
    %t = arith.mulf %a, %r : f32
    %u = arith.mulf %t, %wt : f32
    %b = arith.truncf %u : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<16x64xbf16>
  return %y : tensor<16x64xbf16>
}
func.func @colnorm(%x: tensor<24x40xbf16>) -> tensor<40xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<40xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<40xf32>) -> tensor<40xf32>
  %s = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<24x40xbf16>) outs(%s0 : tensor<40xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %q = arith.mulf %f, %f : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<40xf32>
  %e1 = tensor.empty() : tensor<40xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s : tensor<40xf32>) outs(%e1 : tensor<40xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.sqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<40xf32>
  return %y : tensor<40xf32>
}
func.func @bmm(%a: tensor<48x16xf32>, %b: tensor<32x12xf32>) -> tensor<12x48xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %a3 = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 24, 16] : tensor<48x16xf32> into tensor<2x24x16xf32>
  %b3 = tensor.expand_shape %b [[0, 1], [2]] output_shape [2, 16, 12] : tensor<32x12xf32> into tensor<2x16x12xf32>
  %e = tensor.empty() : tensor<2x24x12xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%e : tensor<2x24x12xf32>) -> tensor<2x24x12xf32>
  %c = linalg.batch_matmul ins(%a3, %b3 : tensor<2x24x16xf32>, tensor<2x16x12xf32>) outs(%c0 : tensor<2x24x12xf32>) -> tensor<2x24x12xf32>
  %c2 = tensor.collapse_shape %c [[0, 1], [2]] : tensor<2x24x12xf32> into tensor<48x12xf32>
  %et = tensor.empty() : tensor<12x48xf32>
  %t = linalg.transpose ins(%c2 : tensor<48x12xf32>) outs(%et : tensor<12x48xf32>) permutation = [1, 0]
  return %t : tensor<12x48xf32>
}
func.func @table(%x: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {llvm.emit_c_interface} {
  %c = arith.constant dense<[[-3.5, 1.125, -1.875, 2.75, -0.25, -3.25, 1.375, -1.625, 3.0, 0.0, -3.0, 1.625, -1.375, 3.25, 0.25, -2.75], [1.875, -1.125, 3.5, 0.5, -2.5, 2.125, -0.875, 3.75, 0.75, -2.25, 2.375, -0.625, 4.0, 1.0, -2.0, 2.625], [-0.375, -3.375, 1.25, -1.75, 2.875, -0.125, -3.125, 1.5, -1.5, 3.125, 0.125, -2.875, 1.75, -1.25, 3.375, 0.375], [-2.625, 2.0, -1.0, 3.625, 0.625, -2.375, 2.25, -0.75, 3.875, 0.875, -2.125, 2.5, -0.5, -3.5, 1.125, -1.875]]> : tensor<4x16xf32>
  %s = arith.constant dense<0.75> : tensor<4x16xf32>
  %r = tensor.extract_slice %c[2, 0] [1, 16] [1, 1] : tensor<4x16xf32> to tensor<16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %c, %s, %r : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %t: f32, %u: f32, %v: f32, %o: f32):
    %m = arith.mulf %a, %t : f32
    %p = arith.addf %m, %u : f32
    %q = arith.subf %p, %v : f32
    linalg.yield %q : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
func.func @scalars(%x: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {llvm.emit_c_interface} {
  %h = arith.constant dense<64> : tensor<i64>
  %b = arith.constant dense<-0.625> : tensor<f32>
  %e = tensor.empty() : tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %h, %b : tensor<4x16xf32>, tensor<i64>, tensor<f32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %n: i64, %c: f32, %o: f32):
    %nf = arith.sitofp %n : i64 to f32
    %r = math.sqrt %nf : f32
    %q = arith.divf %a, %r : f32
    %p = arith.addf %q, %c : f32
    linalg.yield %p : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
