// A whole host program on the emulated device: fp8-gpu-pipeline
// {target=emulator host=llvm} lowers the quantize and GEMM kernels and the
// host code that launches them (fp8-launch-kernels: uploads, tensor maps,
// grid, block, dynamic shared memory), and mlir-runner runs it against
// libfp8_emu_mgpu (the mgpu* runtime ABI on the CPU emulator:
// mgpuTensorMapEncodeTiledMemref, mgpuLaunchKernel, mgpuMemcpy).
//
// Oracle: with scale_mode = pow2 every input below is a power of two times
// an integer of {0, 1, 2, 3, 4} whose block amax is 4 * 2^e, so each scale is
// 2^(e-6) and each code 64 * v or 32 * v (exact in E4M3FN): the FP8 path
// computes the exact integer matmul, which @main also computes with a plain
// f32 linalg.matmul on the unquantized inputs (no fp8 op; every partial sum
// is an integer below 2^24, so exact). Every scale differs between
// neighbouring blocks (2^(row % 3 + k-block) for A, 2^(n-block + 2 * k-block)
// for B), so a wrong block, tile or scale index changes the result. In B only
// the rows n % 8 = 0 reach a block's amax (their e is one more), so the amax
// of a 128x128 block must be reduced over all its rows (all its warps).
// 200 x 320 x 384: an M tail (200 = 128 + 72), an N tail of B's 128-row
// scale blocks (320 = 2.5 x 128), 3 K blocks.
//
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a target=emulator host=llvm" | %fp8_run_emulated | FileCheck %s

// CHECK-LABEL: mismatches
// CHECK-NEXT: {{^0$}}
// CHECK-NEXT: {{^0$}}
// CHECK-LABEL: corners
// CHECK-NEXT: [[D00:[0-9.e+-]+]]
// CHECK-NEXT: [[D00]]
// CHECK-NEXT: [[D:[0-9.e+-]+]]
// CHECK-NEXT: [[D]]

!qa = !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>
!qb = !fp8.scaled<320x384xf8E4M3FN, block = [128, 128], scale = f32>

func.func private @printI64(i64)
func.func private @printF32(f32)
func.func private @printNewline()
func.func private @printString(!llvm.ptr)

// v in {0, 1, 2, 3, 4, -1, -2, -3, -4, 4, 0} (11 entries, both +-4 present
// in every run of 11 consecutive columns) times 2^e.
func.func @value(%t: index, %e: index) -> f32 {
  %c11 = arith.constant 11 : index
  %r = arith.remui %t, %c11 : index
  %tab = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, -1.0, -2.0, -3.0, -4.0, 4.0, 0.0]> : tensor<11xf32>
  %v = tensor.extract %tab[%r] : tensor<11xf32>
  %ei = arith.index_cast %e : index to i32
  %one = arith.constant 1 : i32
  %p = arith.shli %one, %ei : i32
  %pf = arith.sitofp %p : i32 to f32
  %x = arith.mulf %v, %pf : f32
  return %x : f32
}

// The number of elements of %a that differ from %b.
func.func @mismatches_200(%a: tensor<200x384xf32>, %b: tensor<200x384xf32>) -> i64 {
  %c0i = arith.constant 0 : i64
  %cnt0 = tensor.empty() : tensor<i64>
  %cntz = linalg.fill ins(%c0i : i64) outs(%cnt0 : tensor<i64>) -> tensor<i64>
  %cnt = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%a, %b : tensor<200x384xf32>, tensor<200x384xf32>) outs(%cntz : tensor<i64>) {
  ^bb0(%x: f32, %y: f32, %acc: i64):
    %ne = arith.cmpf une, %x, %y : f32
    %one = arith.extui %ne : i1 to i64
    %s = arith.addi %acc, %one : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  %n = tensor.extract %cnt[] : tensor<i64>
  return %n : i64
}

// The number of elements of %a that differ from %b.
func.func @mismatches_320(%a: tensor<320x384xf32>, %b: tensor<320x384xf32>) -> i64 {
  %c0i = arith.constant 0 : i64
  %cnt0 = tensor.empty() : tensor<i64>
  %cntz = linalg.fill ins(%c0i : i64) outs(%cnt0 : tensor<i64>) -> tensor<i64>
  %cnt = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%a, %b : tensor<320x384xf32>, tensor<320x384xf32>) outs(%cntz : tensor<i64>) {
  ^bb0(%x: f32, %y: f32, %acc: i64):
    %ne = arith.cmpf une, %x, %y : f32
    %one = arith.extui %ne : i1 to i64
    %s = arith.addi %acc, %one : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  %n = tensor.extract %cnt[] : tensor<i64>
  return %n : i64
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c128 = arith.constant 128 : index
  %c8 = arith.constant 8 : index
  %c0x = arith.constant 0 : index
  %c1x = arith.constant 1 : index
  %x0 = tensor.empty() : tensor<200x384xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%x0 : tensor<200x384xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i7 = arith.muli %i, %c7 : index
    %t = arith.addi %i7, %j : index
    %ri = arith.remui %i, %c3 : index
    %kb = arith.divui %j, %c128 : index
    %e = arith.addi %ri, %kb : index
    %v = func.call @value(%t, %e) : (index, index) -> f32
    linalg.yield %v : f32
  } -> tensor<200x384xf32>
  %w0 = tensor.empty() : tensor<320x384xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%w0 : tensor<320x384xf32>) {
  ^bb0(%o: f32):
    %n = linalg.index 0 : index
    %k = linalg.index 1 : index
    %n5 = arith.muli %n, %c5 : index
    %k3 = arith.muli %k, %c3 : index
    %t = arith.addi %n5, %k3 : index
    %nb = arith.divui %n, %c128 : index
    %kb = arith.divui %k, %c128 : index
    %kb2 = arith.addi %kb, %kb : index
    %e0 = arith.addi %nb, %kb2 : index
    %n8 = arith.remui %n, %c8 : index
    %first = arith.cmpi eq, %n8, %c0x : index
    %bump = arith.select %first, %c1x, %c0x : index
    %e = arith.addi %e0, %bump : index
    %v = func.call @value(%t, %e) : (index, index) -> f32
    linalg.yield %v : f32
  } -> tensor<320x384xf32>

  %qa = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<200x384xf32> -> !qa
  %qb = fp8.quantize %w {scale_mode = #fp8.scale_mode<pow2>} : tensor<320x384xf32> -> !qb
  %d = fp8.scaled_matmul %qa, %qb : !qa, !qb -> tensor<200x320xf32>

  // The reference: x * w^T in f32 (exact).
  %wt0 = tensor.empty() : tensor<384x320xf32>
  %wt = linalg.transpose ins(%w : tensor<320x384xf32>) outs(%wt0 : tensor<384x320xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %r0 = tensor.empty() : tensor<200x320xf32>
  %rz = linalg.fill ins(%zero : f32) outs(%r0 : tensor<200x320xf32>) -> tensor<200x320xf32>
  %ref = linalg.matmul ins(%x, %wt : tensor<200x384xf32>, tensor<384x320xf32>) outs(%rz : tensor<200x320xf32>) -> tensor<200x320xf32>

  // Mismatches: elements of %d that differ from %ref, then elements of the
  // dequantized operands that differ from the inputs.
  %c0i = arith.constant 0 : i64
  %cnt0 = tensor.empty() : tensor<i64>
  %cntz = linalg.fill ins(%c0i : i64) outs(%cnt0 : tensor<i64>) -> tensor<i64>
  %cnt = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%d, %ref : tensor<200x320xf32>, tensor<200x320xf32>) outs(%cntz : tensor<i64>) {
  ^bb0(%a: f32, %b: f32, %acc: i64):
    %ne = arith.cmpf une, %a, %b : f32
    %one = arith.extui %ne : i1 to i64
    %s = arith.addi %acc, %one : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  %n = tensor.extract %cnt[] : tensor<i64>
  // The quantized operands dequantize to the inputs exactly (codes 64 v or
  // 32 v, pow2 scales): a code stored at the wrong column or with the wrong
  // scale shows here even where it would cancel in the matmul.
  %xq = fp8.dequantize %qa : !qa -> tensor<200x384xf32>
  %wq = fp8.dequantize %qb : !qb -> tensor<320x384xf32>
  %nx = func.call @mismatches_200(%xq, %x) : (tensor<200x384xf32>, tensor<200x384xf32>) -> i64
  %nw = func.call @mismatches_320(%wq, %w) : (tensor<320x384xf32>, tensor<320x384xf32>) -> i64
  %nq = arith.addi %nx, %nw : i64
  %s1 = llvm.mlir.addressof @str_mismatches : !llvm.ptr
  func.call @printString(%s1) : (!llvm.ptr) -> ()
  func.call @printNewline() : () -> ()
  func.call @printI64(%n) : (i64) -> ()
  func.call @printNewline() : () -> ()
  func.call @printI64(%nq) : (i64) -> ()
  func.call @printNewline() : () -> ()
  // Two results, each printed from the GPU path and from the reference.
  %s2 = llvm.mlir.addressof @str_corners : !llvm.ptr
  func.call @printString(%s2) : (!llvm.ptr) -> ()
  func.call @printNewline() : () -> ()
  %c0 = arith.constant 0 : index
  %c199 = arith.constant 199 : index
  %c319 = arith.constant 319 : index
  %d00 = tensor.extract %d[%c0, %c0] : tensor<200x320xf32>
  %r00 = tensor.extract %ref[%c0, %c0] : tensor<200x320xf32>
  %dl = tensor.extract %d[%c199, %c319] : tensor<200x320xf32>
  %rl = tensor.extract %ref[%c199, %c319] : tensor<200x320xf32>
  func.call @printF32(%d00) : (f32) -> ()
  func.call @printNewline() : () -> ()
  func.call @printF32(%r00) : (f32) -> ()
  func.call @printNewline() : () -> ()
  func.call @printF32(%dl) : (f32) -> ()
  func.call @printNewline() : () -> ()
  func.call @printF32(%rl) : (f32) -> ()
  func.call @printNewline() : () -> ()
  return
}
llvm.mlir.global internal constant @str_mismatches("mismatches\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @str_corners("corners\00") {addr_space = 0 : i32}
