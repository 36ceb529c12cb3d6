//===- Passes.td - fp8 lowering passes ----------------------*- tablegen -*-===//
#ifndef FP8_CONVERSION_PASSES_TD
#define FP8_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def FP8DecomposePass : Pass<"fp8-decompose", "ModuleOp"> {
  let summary = "Split !fp8.scaled function arguments, results and calls into "
                "data + scale tensors";
  let description = [{
    A 1:N type conversion at function boundaries: every
    `!fp8.scaled<shape x E, block = b, scale = S>` argument or result of a
    `func.func`, `func.call` and `func.return` becomes two values,
    `tensor<shape x E>` (the FP8 codes) followed by
    `tensor<ceil(shape / b) x S>` (one scale per block). Inside the
    function, `fp8.assemble` rebuilds the scaled value, and `fp8.disassemble`
    splits the values returned, so the fp8 ops themselves are untouched.

    This is how callers that hold raw buffers (a C++ harness, the Python
    API through the ExecutionEngine, another compiler) pass quantized
    tensors in and out. `fp8-lower-to-linalg` performs the same boundary
    conversion itself; running this pass first is optional.

    ```mlir
    func.func @f(%q: !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>)
    // becomes
    func.func @f(%d: tensor<2x256xf8E4M3FN>, %s: tensor<2x2xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::fp8::FP8Dialect"];
}

def FP8LowerToLinalgPass : Pass<"fp8-lower-to-linalg", "ModuleOp"> {
  let summary = "Lower fp8 value-level ops to linalg/tensor/arith/scf on "
                "explicit data and scale tensors";
  let description = [{
    The reference lowering of the numerics contract (DESIGN.md §1,
    docs/numerics.md). Every `!fp8.scaled` value (including function
    arguments and results, as in `fp8-decompose`) becomes a data tensor of
    FP8 codes and a scale tensor of shape `ceil(shape / block)`; then:

    - `fp8.quantize`: per-block `amax = max |x|` over the block's valid
      elements (a `linalg.generic` whose output map is `d floordiv block`,
      so tails in any dimension cover only real elements), computed with
      `arith.maximumf` so a NaN anywhere makes amax NaN; `amax =
      max(amax, eps)`; `s = amax / fmax` in f32 (448 or 57344), rounded up
      to a power of two from its bits in `pow2` mode, encoded as the
      biased exponent for `f8E8M0FNU`; `s = 1` when `amax / fmax` is not a
      normal f32 (zero, subnormal, Inf, NaN: TransformerEngine's rule); then
      `q = cvt_rne(x / s)` with satfinite (or non-saturating) semantics,
      bit-exact against NVIDIA's `__nv_cvt_float_to_fp8`.
    - `fp8.dequantize`: `f32(q) * s`, rounded RNE to bf16/f16 results.
    - `fp8.requantize`: dequantize to f32, `linalg.transpose` by
      `permutation`, quantize.
    - `fp8.scaled_matmul` (NT): codes decoded to f32; the FP32 partial sum
      of each promotion interval of `promote_interval` K elements
      (products summed in increasing k, a K tail contributes nothing) is
      promoted as `acc = fma(partial, sa * sb, acc)` in increasing
      interval order, starting from `C` (or 0); bf16 results are rounded
      RNE from the f32 accumulator.
    - `fp8.assemble` / `fp8.disassemble` forward their operands.

    Option `accumulator-bits=N` (1..24, 0 = exact f32, the default)
    replaces the f32 partial sum by an emulation of the Hopper tensor
    core's limited accumulator (DeepSeek-V3 §3.5.2): inside a promotion
    interval, for each group of 32 products (one wgmma k32 step) the
    running partial and the products are aligned to the largest exponent
    among them, truncated toward zero to N significant bits of that
    exponent, summed exactly, and the sum truncated to N significant bits.
    With N = 14 and no promotion (promote_interval >= K) it shows the error
    that promotion every 128 elements removes.

    The result runs on CPU through `fp8-cpu-pipeline`.
  }];
  let options = [
    Option<"accumulatorBits", "accumulator-bits", "unsigned", /*default=*/"0",
           "Significant bits kept by the emulated tensor-core accumulator "
           "inside a promotion interval (0 = exact f32 sums; Hopper ~14)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::fp8::FP8Dialect"
  ];
}

def FP8ExpandArithPass : Pass<"fp8-expand-arith"> {
  let summary = "Expand arith.truncf/extf to and from FP8 into integer "
                "arithmetic";
  let description = [{
    MLIR 22 cannot lower `arith.truncf` to, or `arith.extf` from,
    `f8E4M3FN`/`f8E5M2` for LLVM. This pass rewrites them (scalar or vector
    operands, f32/f16/bf16 on the wide side) into `arith` integer ops on the
    bit patterns (the builders of fp8/Conversion/FP8Arith.h):

    - `arith.truncf` (no rounding mode or `to_nearest_even`): RNE with
      subnormals, NaN -> 0x7F. Overflow follows the op's IEEE semantics
      (NaN for E4M3FN, Inf for E5M2) unless `saturate=true`, which gives the
      satfinite conversion of the numerics contract (±max; what NVIDIA's
      `cvt.rn.satfinite` does).
    - `arith.extf` from FP8: exact.

    Conversions it cannot expand (other 8-bit float types such as
    `f8E4M3FNUZ`, an f64 source of `truncf`, a rounding mode other than
    RNE, tensor operands) are left unchanged with a remark naming the op,
    the types and what is supported, or an error under `strict=true`.

    Bit-exact against NVIDIA's host reference on all 2^32 inputs
    (test/Integration/CPU/conversion-exhaustive.test).
  }];
  let options = [
    Option<"saturate", "saturate", "bool", /*default=*/"false",
           "Saturate finite overflow and Inf to ±max (satfinite) instead of "
           "producing NaN/Inf">,
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Fail (instead of a remark) on an FP8 truncf/extf that cannot be "
           "expanded (fp8-cpu-pipeline sets it: LLVM cannot lower them)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // FP8_CONVERSION_PASSES_TD
