// fp8-launch-kernels launches a bf16 linalg.matmul with the kernel its
// fp8.kernel_ref names only when that kernel's #fp8.gemm_kernel computes
// the op: its M, N, K and its types. A record (written by hand here) whose
// d and c are bf16 for an op with an f32 result was launched before (the
// check compared d with c, not with the op); its M still is refused. A
// record with acc_init (the folded fill) computes only an op whose init is
// a fill of that very constant (-0.0 is not +0.0); a record with c
// computes a filled op too (the fill then stays, C its buffer).
// RUN: fp8-opt %s -split-input-file -fp8-launch-kernels=sm-count=132 -verify-diagnostics | FileCheck %s

// The record that computes the op: launched.
// CHECK-LABEL: func.func @mm(
// CHECK: call @fp8_launch_fp8_matmul_64x64x64_bf16_bf16_f32_accf32(
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_matmul_64x64x64_bf16_bf16_f32_accf32(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32, %c: !llvm.ptr) attributes {fp8.kernel = #fp8.gemm_kernel<m = 64, n = 64, k = 64, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 128, block_k = 64, stages = 8, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %y = linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_64x64x64_bf16_bf16_f32_accf32} ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}

// -----

// d and c bf16: not this op's f32 result.
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_matmul_64x64x64_bf16_bf16_f32_accf32(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32, %c: !llvm.ptr) attributes {fp8.kernel = #fp8.gemm_kernel<m = 64, n = 64, k = 64, a = bf16, b = bf16, d = bf16, c = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 128, block_k = 64, stages = 8, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{does not compute this op}}
    %y = linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_64x64x64_bf16_bf16_f32_accf32} ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}

// -----

// d bf16, c f32.
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_matmul_64x64x64_bf16_bf16_f32_accf32(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32, %c: !llvm.ptr) attributes {fp8.kernel = #fp8.gemm_kernel<m = 64, n = 64, k = 64, a = bf16, b = bf16, d = bf16, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 128, block_k = 64, stages = 8, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{does not compute this op}}
    %y = linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_64x64x64_bf16_bf16_f32_accf32} ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}

// -----

// No accumulator c: the BF16 kernel always starts from C.
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_matmul_64x64x64_bf16_bf16_f32_accf32(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32, %c: !llvm.ptr) attributes {fp8.kernel = #fp8.gemm_kernel<m = 64, n = 64, k = 64, a = bf16, b = bf16, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 128, block_k = 64, stages = 8, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{does not compute this op}}
    %y = linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_64x64x64_bf16_bf16_f32_accf32} ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}

// -----

// M 128 for an op of M 64.
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_matmul_64x64x64_bf16_bf16_f32_accf32(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32, %c: !llvm.ptr) attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 64, k = 64, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 128, block_k = 64, stages = 8, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{does not compute this op}}
    %y = linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_64x64x64_bf16_bf16_f32_accf32} ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}

// -----

// acc_init = -0.0 for an init filled with +0.0: not this op.
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_matmul_64x64x64_bf16_bf16_f32_init80000000(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {fp8.kernel = #fp8.gemm_kernel<m = 64, n = 64, k = 64, a = bf16, b = bf16, d = f32, acc_init = -0.0 : f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 128, block_k = 64, stages = 8, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x64xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    // expected-error @+1 {{does not compute this op}}
    %y = linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_64x64x64_bf16_bf16_f32_init80000000} ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}

// -----

// acc_init for an init that is an argument (C): not this op.
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_matmul_64x64x64_bf16_bf16_f32_init0(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {fp8.kernel = #fp8.gemm_kernel<m = 64, n = 64, k = 64, a = bf16, b = bf16, d = f32, acc_init = 0.0 : f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 128, block_k = 64, stages = 8, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{does not compute this op}}
    %y = linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_64x64x64_bf16_bf16_f32_init0} ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}

// -----

// A record with c for a filled init: launched with the fill's tensor as C,
// the fill kept.
// CHECK-LABEL: func.func @filled(
// CHECK: linalg.fill
// CHECK: call @fp8_launch_fp8_matmul_64x64x64_bf16_bf16_f32_accf32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_matmul_64x64x64_bf16_bf16_f32_accf32(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32, %c: !llvm.ptr) attributes {fp8.kernel = #fp8.gemm_kernel<m = 64, n = 64, k = 64, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 128, block_k = 64, stages = 8, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @filled(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x64xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %y = linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_64x64x64_bf16_bf16_f32_accf32} ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}

// -----

// A record with b_heads = 2 (B read through a head view of a [B, S, H, D]
// source) for a batch_matmul whose B is packed: refused (the launch would
// pass B's [G, K, N] where the kernel maps a [B, K, H, N]).
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_batch_matmul_4x64x64x64_bf16_bf16_f32_accf32_bh2(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32, %c: !llvm.ptr) attributes {fp8.kernel = #fp8.gemm_kernel<m = 64, n = 64, k = 64, a = bf16, b = bf16, b_heads = 2, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, block_m = 64, block_n = 128, block_k = 64, stages = 8, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @bmm(%a: tensor<4x64x64xbf16>, %b: tensor<4x64x64xbf16>, %c: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
    // expected-error @+1 {{does not compute this op}}
    %y = linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_4x64x64x64_bf16_bf16_f32_accf32_bh2} ins(%a, %b : tensor<4x64x64xbf16>, tensor<4x64x64xbf16>) outs(%c : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
    return %y : tensor<4x64x64xf32>
  }
}

// -----

// A record with b_heads = 4 for a B of 2 heads: refused.
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_batch_matmul_4x64x64x64_bf16_bf16_f32_accf32_bh4(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32, %c: !llvm.ptr) attributes {fp8.kernel = #fp8.gemm_kernel<m = 64, n = 64, k = 64, a = bf16, b = bf16, b_heads = 4, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, block_m = 64, block_n = 128, block_k = 64, stages = 8, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @bmm(%a: tensor<4x64x64xbf16>, %b2: tensor<128x128xbf16>, %c: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
    %b4 = tensor.expand_shape %b2 [[0, 1], [2, 3]] output_shape [2, 64, 2, 64] : tensor<128x128xbf16> into tensor<2x64x2x64xbf16>
    %e = tensor.empty() : tensor<2x2x64x64xbf16>
    %bt = linalg.transpose ins(%b4 : tensor<2x64x2x64xbf16>) outs(%e : tensor<2x2x64x64xbf16>) permutation = [0, 2, 1, 3]
    %b = tensor.collapse_shape %bt [[0, 1], [2], [3]] : tensor<2x2x64x64xbf16> into tensor<4x64x64xbf16>
    // expected-error @+1 {{does not compute this op}}
    %y = linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_4x64x64x64_bf16_bf16_f32_accf32_bh4} ins(%a, %b : tensor<4x64x64xbf16>, tensor<4x64x64xbf16>) outs(%c : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
    return %y : tensor<4x64x64xf32>
  }
}

// -----

// A record with d_heads = 2 (D written as [B, M, H, N]) for a batch_matmul
// whose result is read packed: refused (the launch would hand the kernel a
// [G, M, N] D it writes at the rows of a [B, M, H, N] one).
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_batch_matmul_4x64x64x64_bf16_bf16_f32_init0_dh2(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {fp8.kernel = #fp8.gemm_kernel<m = 64, n = 64, k = 64, a = bf16, b = bf16, d_heads = 2, d = f32, acc_init = 0.0 : f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, block_m = 64, block_n = 128, block_k = 64, stages = 8, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @bmm(%a: tensor<4x64x64xbf16>, %b: tensor<4x64x64xbf16>) -> tensor<4x64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x64x64xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
    // expected-error @+1 {{does not compute this op}}
    %y = linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_4x64x64x64_bf16_bf16_f32_init0_dh2} ins(%a, %b : tensor<4x64x64xbf16>, tensor<4x64x64xbf16>) outs(%z : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
    return %y : tensor<4x64x64xf32>
  }
}

// -----

// A record with d_heads = 4 for a result permuted back from 2 heads:
// refused.
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_batch_matmul_4x64x64x64_bf16_bf16_f32_init0_dh4(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {fp8.kernel = #fp8.gemm_kernel<m = 64, n = 64, k = 64, a = bf16, b = bf16, d_heads = 4, d = f32, acc_init = 0.0 : f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, block_m = 64, block_n = 128, block_k = 64, stages = 8, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @bmm(%a: tensor<4x64x64xbf16>, %b: tensor<4x64x64xbf16>) -> tensor<2x64x2x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x64x64xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
    // expected-error @+1 {{does not compute this op}}
    %y = linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_4x64x64x64_bf16_bf16_f32_init0_dh4} ins(%a, %b : tensor<4x64x64xbf16>, tensor<4x64x64xbf16>) outs(%z : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
    %y4 = tensor.expand_shape %y [[0, 1], [2], [3]] output_shape [2, 2, 64, 64] : tensor<4x64x64xf32> into tensor<2x2x64x64xf32>
    %et = tensor.empty() : tensor<2x64x2x64xf32>
    %yt = linalg.transpose ins(%y4 : tensor<2x2x64x64xf32>) outs(%et : tensor<2x64x2x64xf32>) permutation = [0, 2, 1, 3]
    return %yt : tensor<2x64x2x64xf32>
  }
}
