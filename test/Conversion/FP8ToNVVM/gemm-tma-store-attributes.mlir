// #fp8.gemm_kernel's `tma_store` (the TMA-store epilogue, docs/gpu-kernel.md):
// printed and round-tripped, and
// refused by the verifier where the kernel cannot take it, each refusal
// naming its limit.
// RUN: fp8-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: fp8-opt %s -split-input-file -verify-diagnostics | fp8-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func private @tma_store()
// CHECK-SAME: #fp8.gemm_kernel<m = 4096, n = 7168, k = 7168, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 4, consumers = 2, tma_store = true>
func.func private @tma_store() attributes {fp8.kernel = #fp8.gemm_kernel<m = 4096, n = 7168, k = 7168, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 4, consumers = 2, tma_store = true>}

// -----

// Five stages of 128 x 128 and two staging buffers of 64 x 128 f32: 233472
// bytes, past the 227 KB (232448).
// expected-error @+1 {{invalid tile configuration block_m = 128, block_n = 128, stages = 5, consumers = 2, tma_store = true: the shared-memory ring and the TMA store's staging}}
func.func private @smem() attributes {fp8.kernel = #fp8.gemm_kernel<m = 4096, n = 7168, k = 7168, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 5, consumers = 2, tma_store = true>}

// -----

// The quantize epilogue's TMA store: its codes' staging (2 x 64 x 128
// bytes) leaves room for 6 stages of 128 x 128.
// CHECK-LABEL: func.func private @quantize()
// CHECK-SAME: stages = 6, consumers = 2, epilogue = quantize, q = f8E4M3FN, q_eps = 9.99999974E-5 : f32, tma_store = true>
func.func private @quantize() attributes {fp8.kernel = #fp8.gemm_kernel<m = 4096, n = 7168, k = 7168, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, epilogue = quantize, q = f8E4M3FN, q_eps = 1.0E-4 : f32, tma_store = true>}

// -----

// Seven stages and the codes' staging: 250880 bytes.
// expected-error @+1 {{invalid tile configuration block_m = 128, block_n = 128, stages = 7, consumers = 2, tma_store = true: the shared-memory ring and the TMA store's staging}}
func.func private @quantize_smem() attributes {fp8.kernel = #fp8.gemm_kernel<m = 4096, n = 7168, k = 7168, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 7, consumers = 2, epilogue = quantize, q = f8E4M3FN, q_eps = 1.0E-4 : f32, tma_store = true>}

// -----

// n = 7160: a row of 7160 codes is no TMA global stride (a multiple of 16
// bytes), though a row of bf16 D would be.
// expected-error @+1 {{the TMA store (store = tma) of the quantize epilogue needs n a multiple of 16 (a row of the FP8 codes is a TMA global stride: a multiple of 16 bytes)}}
func.func private @quantize_n7160() attributes {fp8.kernel = #fp8.gemm_kernel<m = 4096, n = 7160, k = 7168, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, epilogue = quantize, q = f8E4M3FN, q_eps = 1.0E-4 : f32, tma_store = true>}

// -----

// 96 columns per consumer: one and a half bf16 boxes.
// expected-error @+1 {{the TMA store (store = tma) needs block-n / splits a multiple of 64}}
func.func private @n96() attributes {fp8.kernel = #fp8.gemm_kernel<m = 4096, n = 7168, k = 7168, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 96, block_k = 128, stages = 4, consumers = 2, tma_store = true>}

// -----

// expected-error @+1 {{the TMA store (store = tma) needs n a multiple of 8}}
func.func private @n_odd() attributes {fp8.kernel = #fp8.gemm_kernel<m = 4096, n = 7164, k = 7168, a = f8E4M3FN, b = f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 4, consumers = 2, tma_store = true>}

// -----

// expected-error @+1 {{the TMA store (store = tma) needs the 2-D kernel}}
func.func private @grouped() attributes {fp8.kernel = #fp8.gemm_kernel<m = 4096, n = 7168, k = 2048, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = contiguous, groups = 4, block_m = 128, block_n = 128, block_k = 128, stages = 4, consumers = 2, tma_store = true>}
