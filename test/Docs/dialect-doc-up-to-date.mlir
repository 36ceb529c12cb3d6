// The committed dialect reference (docs/Dialects/FP8Dialect.md) is the one
// generated from ODS by this build. If this fails, run
// `ninja -C build fp8-doc-update` and commit docs/Dialects/FP8Dialect.md.
// RUN: diff %fp8_src_root/docs/Dialects/FP8Dialect.md %fp8_obj_root/docs/Dialects/FP8Dialect.md
// RUN: FileCheck %s < %fp8_obj_root/docs/Dialects/FP8Dialect.md
// CHECK: fp8.quantize
// CHECK: fp8.scaled_matmul
// CHECK: GemmKernelAttr
// CHECK: PolicyAttr
// CHECK: QuantizeKernelAttr
// CHECK: TransposeKernelAttr
// CHECK: ScaledTensorType
