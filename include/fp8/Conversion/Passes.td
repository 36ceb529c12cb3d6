//===- Passes.td - fp8 conversion passes --------------------*- tablegen -*-===//
//
// Every conversion out of the fp8 dialect, one section per target as in
// upstream mlir/Conversion/Passes.td: FP8ToLinalg (the CPU reference
// lowering) and FP8ToNVVM (the sm_90a kernels and their CPU-run schedule).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_CONVERSION_PASSES_TD
#define FP8_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// FP8ToLinalg
//===----------------------------------------------------------------------===//

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
    The reference lowering of the numerics contract (docs/design.md §1,
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
      RNE from the f32 accumulator. With `k_splits = S > 1` (split-K,
      docs/numerics.md "Split-K") the intervals are promoted in the S
      ranges of the op's partition rule (one `linalg.generic` each over
      all the intervals, promoting its own and passing the others'
      accumulator through), split 0 from `C` (or
      0), the others from 0, and the S accumulators added in split order
      (`arith.addf`, canonical NaN) before the rounding; such an op takes
      these reference generics also under `tiled` (the tiled kernel has
      one accumulator per output).
    - `fp8.assemble` / `fp8.disassemble` forward their operands.

    Option `accumulator` selects how the partial sum of a promotion
    interval is formed (the promotion FMA is the same for every model):

    - `exact` (the default): the f32 partial sums above.
    - `sm90`: Hopper's `wgmma` FP8 accumulation, bit-exact (Khattak &
      Mikaitis, "Accurate Models of NVIDIA Tensor Cores", arXiv:2512.07004,
      2025; checked against 2000 measured H100 outputs in
      test/Integration/CPU/hopper-accumulation.test). The interval's
      products are taken in groups of 32 (one `wgmma` k32 step; a K tail is
      a shorter group), chained from a zero accumulator. One step: each
      product is aligned by `ea + eb`, the exponents of its inputs each
      clamped at the format's minimum normal exponent (the unnormalised
      product, significand in [0, 4)); zero products take no part; the
      running accumulator takes part with its own exponent; `E` = the
      largest of these; every term (accumulator included) is truncated
      toward zero to a multiple of `2^(E-13)`, without guard or sticky
      bits; the exact sum is normalised and truncated toward zero to 14
      significant bits and is the next step's accumulator.
      Under `sm90` only, the contractions the GPU pipeline runs on the
      BF16 tensor cores (`fp8::runsOnBF16TensorCores`: a bf16 x bf16 -> f32
      `linalg.matmul` or `linalg.batch_matmul` on tensors with the default
      maps, N and K static multiples of 8; M and a batch_matmul's batch
      static or dynamic) become Hopper's `wgmma ... k16` chain from the init
      value:
      groups of 16 K elements in increasing k, each
      one step of `tensorcore::accumulateGroup16` (products aligned by
      `ea + eb`, the accumulator by its own exponent, `E` at least -133,
      every term truncated toward zero to `2^(E-25)`, the exact sum
      truncated toward zero to an f32), as the BF16 `wgmma` kernels run
      them (docs/numerics.md). Other matmuls (which the GPU runs as host
      kernels summing in K order) are left alone; these stay plain f32 sums
      under the other models. Under every model, the K of these (static) is
      padded to a multiple of 16 with +0.0 in both operands (`tensor.pad`)
      when it is not one: the kernel's last k16 step takes those +0.0
      products from TMA's zero fill, which turns a plain sum's -0.0 into
      +0.0 (a k16 step ignores zero products).
    - `sm89`: the same on 16-product groups (Ada `mma.sync`).

    Option `accumulator-bits=N` (1..24; 0 = not used, the default) is the
    generic parametric model (DeepSeek-V3 §3.5.2: products aligned to the
    largest exponent, about 14 bits kept): as `sm90`, but every term is
    aligned by its own normalised exponent (products and accumulator),
    truncated to a multiple of `2^(E-N+1)` (N significant bits of the
    largest term), and the sum truncated to N significant bits. It cannot
    be combined with `accumulator=sm90|sm89` nor with an explicit
    `accumulator=exact` (an error names both options).

    With every model, a non-finite plain f32 sum of a group (an Inf or NaN
    code, Inf * 0) is the group's result, so NaN propagates. The host form
    of the same arithmetic is `include/fp8/Target/Hopper/
    TensorCoreAccumulation.h`.

    Option `tiled` replaces the generics of `fp8.scaled_matmul` (exact
    sums and every accumulator model) by a register-tiled kernel with the
    same arithmetic per output: codes decoded once per call into f32
    panels, one `scf.forall` over chunks of 128 x 96 outputs (each chunk
    runs every promotion interval in order over its 4 x 24 output tiles,
    whose partials live in `vector<8xf32>` values; 8 x 48 and
    `vector<16xf32>` with `vector-lanes=16`), `vector.fma` per k in
    increasing k (exact products: the same sum as `partial + a * b`), or
    the accumulator model's integer alignment and truncation lane by lane,
    the same promotion FMA and the same rounding of the result. A bf16
    result whose only use widens it to f32 (`arith.extf` of the tensor, or
    a `linalg.generic` / `linalg.map` that is just that extf, as
    `convert-elementwise-to-linalg` writes it; `tensor.dim` of a dynamic
    size may read it too) is fused: the kernel rounds each output to bf16
    by the same `arith.truncf` and stores it widened (`arith.extf`, exact)
    into the f32 tensor that replaces the widening, with no bf16
    intermediate and no second pass; the same f32 values, bit for bit
    (test/Integration/CPU/scaled-matmul-tiled-widen.test). With
    `tiled`, `fp8.quantize`, `fp8.dequantize` and
    `fp8.requantize` of rank 2 (rank 1, and higher ranks whose blocks are
    1 but in the last dimension, through a collapsed rank-2 view) run as
    an `scf.forall` over chunks of whole block
    rows (about 64 rows), one pass per block on `vector<8xf32>` /
    `vector<16xf32>`: amax by `arith.maximumf` and `vector.reduction
    <maximumf>` (NaN-propagating, so order-independent), the block's scale
    once, then x / s and the RNE + satfinite conversion on vectors (the
    builders above, element-wise); row tails (columns past the last whole
    vector) on scalars. The same codes, scales and values as the generics
    (test/Integration/CPU/tiled-quantize.test); a bf16/f16 dequantized
    result only widened to f32 is stored widened, as for scaled_matmul
    above. Other layouts: the
    generics, chunked by block rows for `fp8.quantize`. `fp8-cpu-pipeline` turns
    `tiled` on.

    The result runs on CPU through `fp8-cpu-pipeline`.
  }];
  let options = [
    Option<"accumulator", "accumulator", "::mlir::fp8::AccumulatorModel",
           /*default=*/"::mlir::fp8::AccumulatorModel::exact",
           "Partial sums inside a promotion interval: exact (f32), sm90 "
           "(Hopper wgmma, bit-exact) or sm89 (Ada mma.sync)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::fp8::AccumulatorModel::exact, "exact",
                        "exact f32 partial sums"),
             clEnumValN(::mlir::fp8::AccumulatorModel::sm90, "sm90",
                        "Hopper wgmma: 32-product groups"),
             clEnumValN(::mlir::fp8::AccumulatorModel::sm89, "sm89",
                        "Ada mma.sync: 16-product groups"))}]>,
    Option<"accumulatorBits", "accumulator-bits", "unsigned", /*default=*/"0",
           "Generic model: significant bits kept by the emulated tensor-core "
           "accumulator (0 = not used; Hopper ~14)">,
    Option<"tiled", "tiled", "bool", /*default=*/"false",
           "scaled_matmul: the register-tiled, vectorised kernel "
           "(scf.forall over output chunks); quantize / dequantize / "
           "requantize: one vectorised pass per block (scf.forall over block "
           "rows); bit-identical to the reference generics">,
    Option<"vectorLanes", "vector-lanes", "unsigned", /*default=*/"8",
           "f32 lanes of the tiled kernels' vectors: 8 (4 x 24 register "
           "tile, AVX2) or 16 (8 x 48, AVX-512)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
    "::mlir::fp8::FP8Dialect"
  ];
}

//===----------------------------------------------------------------------===//
// FP8ToNVVM
//===----------------------------------------------------------------------===//

def FP8LowerToNVVMPass : Pass<"fp8-lower-to-nvvm", "ModuleOp"> {
  let summary = "Generate sm_90a block-scaled FP8 GEMM kernels (TMA, wgmma "
                "e4m3/e5m2, FP32 promotion) for fp8.scaled_matmul and block "
                "quantize kernels for fp8.quantize";
  let description = [{
    For every `fp8.scaled_matmul` with static shapes, adds a kernel to the
    `gpu.module @fp8_kernels` (created with an `#nvvm.target` for `chip`):
    an `llvm.func` in the NVVM dialect carrying its typed configuration
    `fp8.kernel = #fp8.gemm_kernel<...>` (problem, element types, scales,
    grouping, tile, stages, consumers, tile order, modelled time), named
    from that attribute for humans
    (`fp8_scaled_matmul_<M>x<N>x<K>_<a>_<b>_<out>[...]`; nothing parses
    the name). The host op is left in place and names its kernel with
    `fp8.kernel_ref = @fp8_kernels::@<name>`, which `fp8-launch-kernels`
    follows; the kernel ABI and launch configuration are those of
    `include/fp8/Target/Hopper/GemmKernelConfig.h` (shared with `runtime/`).

    Kernel structure (DeepSeek-V3 §3.3.2; DeepGEMM's public SM90 FP8 GEMM
    is the structural reference): persistent CTAs over BLOCK_M x 128 output
    tiles; one producer warpgroup (`setmaxnreg` 40) whose elected thread
    issues TMA loads of A [BLOCK_M x 128], B [128 x 128] (128-byte swizzle)
    and the A scales [BLOCK_M] of each K block into a `stages`-deep ring
    guarded by full/empty mbarriers (`expect_tx`, parity waits); one or two
    consumer warpgroups (`setmaxnreg` 232), each issuing four
    `wgmma.mma_async.m64n128k32.f32.<a>.<b>` per 128-wide K block (the first
    with scale-d = 0), then after `wgmma.wait_group 0` promoting the partial
    into FP32 accumulators: `acc += partial * (sa[row, kb] * sb[n / 128, kb])`,
    each thread fetching the two A scales of the rows its accumulator
    fragment holds (WgmmaFragment.h). The epilogue converts to bf16 (RNE)
    or keeps f32 and stores with M/N tails masked; K tails are zero-filled by
    TMA's out-of-bounds fill.

    The high-precision contractions get the BF16 variant of the same
    generator (docs/gpu-kernel.md, "The BF16 variant"): every
    `linalg.matmul` (A [M, K] x B [K, N]) and `linalg.batch_matmul` ([G, M,
    K] x [G, K, N], attention's QK^T and PV) on tensors, bf16 x bf16 -> f32
    with the default maps, that `fp8::runsOnBF16TensorCores` admits (N and
    K static multiples of 8, sizes below 2^31; M and a batch_matmul's
    batch may be dynamic: `dyn` in the name, an i32 parameter) gets a kernel
    (`fp8_matmul_<M>x<N>x<K>_bf16_bf16_f32_accf32`, or
    `fp8_batch_matmul_<G>x<M>x<N>x<K>_bf16_bf16_f32_accf32`: the masked
    grouping without counts, one group per batch, rank-3 TMA maps of A, B
    and C/D rows per batch) and `fp8.kernel_ref`: no scales, the wgmma
    `m64nNk16` bf16 chain from the op's init over all of K, B read
    MN-major. Any other of these ops stays a host kernel with a remark
    naming why (never an error, also under `require-kernels`). The tile
    options below (`block-m`, `block-n`, `stages`, `consumers`, `group-m`)
    configure the bf16 kernels too where they take them (`block-n` /
    splits a multiple of 64); a tile they refuse, `cluster`, `store=tma`,
    an overlapped `promotion-schedule` and `swap-ab=always` are not
    applied to them, with a remark on the op naming the option and why.

    `fp8.grouped_scaled_matmul` gets one grouped kernel for all its groups
    (`fp8_grouped_matmul_<layout>_<G>x<M>x<N>x<K>_...`, docs/gpu-kernel.md,
    "Grouped GEMM"): masked and contiguous (per-expert B in 128 x 128
    blocks), and k_grouped (the MoE Wgrad, T static or run-time: 2-D A
    and B with per-column B scales, each tile's K blocks its group's run of
    tokens, found by a scan of the group ids that traps on a malformed
    run).

    The tile configuration is the shape's default (GemmKernelConfig.h:
    BLOCK_M 64 for M <= 64 else 128, BLOCK_N 128, as many stages as fit the
    227 KB of shared memory up to 8) unless the options `block-m`,
    `block-n`, `stages`, `consumers` say otherwise; a kernel with a
    non-default configuration has the suffix
    `_t<BM>x<BN>s<S>[c<C>][g<G>][cl<N>][o<U>]` in its name (`c<C>` when
    the C consumers split the tile's columns, `g<G>` for a grouped tile
    order, `cl<N>` for clusters of N CTAs, `o<U>` for the overlapped
    promotion unrolled by U K blocks: `promotion-schedule`). Clusters (`cluster` 2, 2-D kernels):
    the two CTAs of a cluster compute vertically adjacent tiles and share
    their B tile, each loading half of it with TMA multicast into both
    (DeepGEMM's SM90 scheme); their empty barriers count both CTAs'
    consumer warps. The cost model does not choose clusters: on an H200
    they ran at about half the speed of the same tiles alone. Tile order: with `group-m` G > 1 the
    persistent CTAs take the tiles in groups of G tile rows, each group
    swept column by column, so a wave of CTAs shares its A and B panels
    through L2 (row-major, G = 1, re-reads all of B every wave); under
    `config=auto` the cost model chooses G (GemmCostModel.h).
    BLOCK_N need not be a multiple of the 128-column B-scale block: each
    8-column register group takes the B scale of the block its columns fall
    in (a tile may straddle two or three blocks). A configuration that
    breaks a hardware limit (wgmma N, the 227 KB of shared memory, the
    consumer registers: BLOCK_N / splits <= 216 with one or two consumers,
    136 with three, 88 with four) is an error naming the options. The
    consumer warpgroups are BLOCK_M / 64 row groups times column splits:
    each computes 64 rows and BLOCK_N / splits columns
    (`wgmma .m64n<BLOCK_N/splits>k32`); a BLOCK_N too wide for one consumer
    per 64 rows (224..256) is split across two when `consumers` is not
    given (`block-m=64 block-n=256`: two consumers of 128 columns). With
    `waves=2` each consumer computes 128 rows as two m64 waves that reuse
    one wgmma partial set (per K block wave 0's chain, wait_group 0 and
    promotion, then wave 1's; suffix `w2`): `block-m=256 block-n=128
    waves=2` is two consumers of 232 registers, at most 144 columns each;
    the 2-D FP8 kernel with 128 x 128 B blocks, the lock-step promotion and
    `store=global` only (anything else is an error naming the conflict).

    Requirements (diagnosed otherwise): static N and K (M may be dynamic);
    FP8 operands with f32 scales, `a` blocks [1, 128], `b` blocks
    [128, 128] or [1, 128] (the Wgrad GEMM: a kernel named `..._b1x128`
    with per-column B scales, passed as f32 [ceil(K/128), Np], Np the
    columns of all tiles), promote_interval 128 (the DeepSeek-V3 recipe,
    §3.3.2). Swap-AB (`swap-ab`, a kernel named `..._swapab`): a small M
    computed as D^T = B A^T, so N fills the wgmma's 64 rows; the launcher
    hands it B as A (its block scales one per row) and A as B (per-column
    scales) and transposes D^T back. Any K: the
    host pads the codes' rows to a multiple of 16 bytes (TMA global
    strides). An `acc` operand C (bf16/f32) is the kernel's last parameter
    and the accumulators' initial value.

    Quantize epilogue (`quantize-epilogue`, a kernel named `..._q<fp8>`):
    when the only user of a 2-D GEMM's result (static K) is an
    `fp8.quantize` into [1, 128] tiles with f32 scales that saturates (the
    next FP8 linear's input, DeepSeek-V3 §3.3.2), the kernel computes both:
    each consumer rounds its tile to the result type, reduces every row's
    amax over each 1x128 tile (its 32 values per thread, then the four
    lanes of the fragment quad by `shfl.sync.bfly`) and stores the codes and
    scales with the quantize kernel's arithmetic, bit-identical to the
    two-op graph, without D in global memory. It needs BLOCK_N / splits a
    multiple of 128: a chosen tile that is not is replaced by the fastest
    one that is (the cost model's choice) when no option fixes the tile,
    else the two ops stay separate kernels.
    Swap-AB is not chosen for such a GEMM (unless `swap-ab=always`).

    For every `fp8.quantize` of a static rank-2 f32/bf16 tensor into
    [1, 128] tiles or [128, 128] blocks with f32 scales and `saturate`, adds
    a quantize kernel `fp8_quantize_<R>x<C>_<b>x128_<in>_<fp8>[_pow2]
    [_eps<f32 bits>]` with its `#fp8.quantize_kernel` (and the op its
    `fp8.kernel_ref`; launch and ABI: `QuantizeKernelConfig.h`; 256
    threads): per block, amax by `max.NaN` across lanes (`shfl.sync.bfly`)
    and, for 128x128, across the 8 warps through shared memory; the scale
    with the CPU reference's arithmetic (eps, pow2, "not a normal f32 -> 1",
    numerics contract §1); codes `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32` of
    `x / s` (`nvvm.convert.f32x2.to.f8x2`). Other quantize forms (other
    blocks, E8M0 scales, non-saturating, f16 input, dynamic or other ranks)
    stay host ops with a remark.

    With `require-kernels`, an op that would stay on the host is an error
    (the remark's message, "the op stays on the host" becoming "the op
    would stay on the host ..., which require-kernels forbids") and the pass
    fails after reporting every such op: for a caller that runs nothing but the kernels (the Python
    `gpu-emulator` backend), which learns of it from the failure, not from
    the text of a remark.

    Options: `chip` and `features` (the `#nvvm.target`), and the GEMM
    kernel options, declared in
    `include/fp8/Conversion/FP8ToNVVM/GemmKernelOptions.h` once for this
    pass and for `fp8-gpu-pipeline`, which forwards them (`--help` lists
    them): `config` (auto: the cost model chooses per shape; fixed),
    `device` (the modelled chip: h200, h100-sxm), `block-m`, `block-n`,
    `stages`, `consumers`, `waves` (the tile), `group-m` (the tile order),
    `cluster`, `promotion-schedule` (auto, lockstep, overlap4, overlap8),
    `swap-ab` (auto, always, never), `quantize-epilogue`,
    `require-kernels`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", [{"sm_90a"}],
           "Target chip (sm_90a: wgmma and setmaxnreg need the 'a' target)">,
    Option<"features", "features", "std::string", [{"+ptx80"}],
           "PTX features of the #nvvm.target">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect"
  ];
}

def FP8LaunchKernelsPass : Pass<"fp8-launch-kernels", "ModuleOp"> {
  let summary = "Launch the sm_90a kernels of fp8-lower-to-nvvm from the host "
                "functions (gpu.launch_func, TMA descriptors built on the host)";
  let description = [{
    The host half of the GPU lowering; runs after `fp8-lower-to-nvvm` on the
    host program on tensors. Every `fp8.scaled_matmul` and every
    `fp8.quantize` with a kernel in `gpu.module @fp8_kernels` becomes a call
    of a private launcher `@fp8_launch_<kernel>` on host memrefs (handed
    over with `bufferization.to_buffer`, results through
    `bufferization.to_tensor` of a `memref.alloc`). Each op launches the
    kernel it names (`fp8.kernel_ref`, a symbol reference that
    `fp8-lower-to-nvvm` sets; no kernel is searched by name) in whatever
    configuration `fp8-lower-to-nvvm` gave it: BLOCK_M, BLOCK_N, stages and
    consumers come from the kernel's `fp8.kernel` attribute
    (`#fp8.gemm_kernel`, copied onto the launcher declaration with the
    reference), never from options of this pass, so the grid, block and
    shared-memory size always match the compiled kernel.

    - GEMM: `fp8.disassemble` of both operands; the A scales transposed into
      the K-block-major, 4-row-padded `[KB, roundUp(M, 4)]` layout of the
      kernel ABI on the device, by a launch of the transpose kernel
      (`#fp8.transpose_kernel`, added to `@fp8_kernels` on first use; also
      per-column B scales into `[KB, Np]`); the launcher copies codes and scales to the device (`gpu.alloc`,
      `gpu.memcpy`, one stream of async tokens), builds the three TMA
      descriptors with `nvgpu.tma.create.descriptor` (A and B codes as u8,
      box {BLOCK_M or BLOCK_N, 128}, 128-byte swizzle; A scales f32, box
      {1, BLOCK_M}, no swizzle; zero fill), launches the kernel with the
      persistent grid `min(ceil(M / BLOCK_M) * ceil(N / BLOCK_N), SMs)`
      (SMs: the device's, from `fp8_mgpu_sm_count()` at run time, or
      `sm-count` when it is set),
      `128 * (consumers + 1)` threads and the configuration's dynamic shared
      memory, copies D back and frees the device buffers.
    - quantize: input to the device, grid of `QuantizeKernelConfig.h`
      (256 threads), codes and scales back, `fp8.assemble`d into the result.
    - a 2-D `linalg.transpose` of an `fp8.disassemble`'s codes or scales
      (the Dgrad's `W^T`, `fp8-insert-quant`): a launch of the transpose
      kernel, so W's codes stay on the device.

    After bufferization, `convert-nvgpu-to-nvvm` and `gpu-to-llvm` (bare
    pointers for kernel arguments) lower the launchers to the upstream
    `mgpu*` runtime ABI (docs/gpu-kernel.md, "Host ABI"). With
    `launchers=define-only` and `resident` (the default), the launchers
    take device buffers and the host functions keep tensors on the device
    between launches (docs/gpu-kernel.md, "Device-resident tensors"). With
    `emit-c-interface`, every public function gets `llvm.emit_c_interface`.

    Run-time checks (`cf.assert` before the launch, the CPU lowering's
    messages): a dynamic M (or quantize rows) of 2^31 or more; a contiguous
    grouped GEMM's group index outside [-1, G) or a group's run of rows not
    starting at a multiple of `m_alignment`.

    Errors: an op without `fp8.kernel_ref`, or naming a kernel missing from
    `@fp8_kernels`; a kernel without its `fp8.kernel`, or whose attribute
    describes another problem than the op's (shape, element types, B-scale
    layout, grouping) or a cluster, multicast or swapped operands (not
    launched yet); the GEMM forms `fp8-lower-to-nvvm` rejects.
  }];
  let options = [
    Option<"smCount", "sm-count", "int64_t", /*default=*/"0",
           "Streaming multiprocessors for the persistent GEMM grid "
           "min(tiles, SMs): 0 reads the device's count at run time "
           "(fp8_mgpu_sm_count of the runtime), N > 0 compiles N in "
           "(132 on H100 SXM and H200)">,
    Option<"emitCInterface", "emit-c-interface", "bool", /*default=*/"false",
           "Add llvm.emit_c_interface to every public function">,
    Option<"launchers", "launchers", "std::string", [{"all"}],
           "all: rewrite the ops and define the launchers; declare: rewrite "
           "the ops, launchers only declared (so buffer deallocation, which "
           "rejects the gpu ops, can run on the host program); define-only: "
           "give declared launchers their bodies (after deallocation)">,
    Option<"resident", "resident", "bool", /*default=*/"true",
           "define-only: the host functions keep the tensors a launch "
           "writes on the device for the launches that read them; only "
           "the functions' arguments and results, and buffers host ops "
           "read, cross (gpu.alloc/memcpy/dealloc at the call sites, the "
           "launchers take device buffers). false (and launchers=all): "
           "every launcher copies its inputs in and its result out">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::tensor::TensorDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::func::FuncDialect", "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect", "::mlir::NVVM::NVVMDialect"
  ];
}

def FP8GPUModuleToTextPass : Pass<"fp8-gpu-module-to-text", "ModuleOp"> {
  let summary = "Embed each gpu.module as its MLIR text in a gpu.binary (the "
                "kernels for the CPU emulator instead of PTX)";
  let description = [{
    The `target=emulator` alternative to `gpu-module-to-binary` in
    `fp8-gpu-pipeline`: every `gpu.module` (the kernels as
    `fp8-lower-to-nvvm` produces them: NVVM and LLVM ops with `arith`/`scf`
    control flow, what `fp8-emu` executes; the pipeline embeds them before
    the lowering to the LLVM dialect, whose inline PTX the emulator does not
    read) becomes
    a `gpu.binary` of the same name with one object
    `#gpu.object<#nvvm.target<...>, bin = "<the gpu.module printed as MLIR
    text>">`. The host code is unchanged: the binary's translation loads it
    with `mgpuModuleLoad(text, size)` (format `bin`), so a runtime library
    implementing the `mgpu*` ABI on the emulator runs the same host program.
    The text is the `gpu.module` operation printed on its own, parseable
    with the NVVM, LLVM, GPU, arith and SCF dialects loaded: the custom
    form; with `debug-info`, the generic form with the ops' locations (a
    fault the emulator reports then names the line of the kernel's source).
    The generic form because MLIR 22's custom syntax of `nvvm.barrier`
    with `number_of_threads` reads a trailing `loc(...)` as its optional
    reduction attribute and does not parse back.
  }];
  let options = [
    Option<"debugInfo", "debug-info", "bool", /*default=*/"false",
           "Print the kernels' locations into the text">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def FP8OutlineHostKernelsPass : Pass<"fp8-outline-host-kernels", "ModuleOp"> {
  let summary = "Outline the linalg ops of a bufferized host program into "
                "GPU kernels computing the host loop nests' bits";
  let description = [{
    Runs in `fp8-gpu-pipeline{host=llvm}` (option `host-kernels`) after
    bufferization and buffer deallocation, before
    `fp8-launch-kernels{launchers=define-only}`, whose residency then keeps
    the buffers these kernels read and write on the device
    (docs/gpu-kernel.md, "Host kernels").

    Every linalg op of a `func.func` (named ops generalized; a `memref.copy`
    of a static shape as `linalg.copy`) whose operands are memrefs with
    static shapes and static strides and offsets (the kernels take bare
    pointers) of i8/i16/i32/i64/f16/bf16/f32 elements (or FP8 codes,
    f8E4M3FN/f8E5M2/f8E8M0FNU, which the bodies' checks below only let
    move: fills and copies), or scalars, whose
    outputs index by a projected permutation of the iterators naming every
    parallel iterator (each output element has one thread; inputs may read
    through any affine map) and whose iterators are parallel or reductions,
    becomes a `gpu.launch_func` of a `gpu.func` in
    `gpu.module @fp8_host_kernels` (created with `#nvvm.target<chip,
    features>`; the module gets `gpu.container_module`), named
    `<function>_<op>[_<n>]` for humans:

    - the iterators are interchanged so the parallel ones come first, the
      reductions keeping their relative order: each output element then
      accumulates its terms in the order of the host's loop nest
      (`convert-linalg-to-loops`);
    - upstream `linalgOpToParallelLoops` lowers it inside a `gpu.launch` of
      `ceil(P / 256)` blocks of `min(P, 256)` threads (P the product of the
      parallel extents): thread `i < P` computes the parallel iteration of
      row-major linear index `i`, its reductions as sequential `scf.for`
      loops (an op without parallel iterators: one thread); such a
      fallback (no row kernel takes the reduction) gets `remark: one thread
      per output element (fp8-outline-host-kernels): <P> threads, <S>
      sequential steps each; no row kernel: <why>`, also under
      `require-kernels`;
    - constants are sunk into the launch, which upstream
      `outlineKernelFunc` outlines (buffers and other scalars become the
      kernel's parameters).

    The body must only hold ops whose GPU lowering (the same
    `arith-expand-ops{include-bf16}` and `convert-math-to-llvm` as the
    host, then `convert-gpu-to-nvvm`) computes the host's bits: arith ops on
    f32 and integers (bf16/f16 only as `arith.extf`/`arith.truncf`/
    `arith.bitcast`; no `arith.remf`, no fast-math flags), `math.sqrt`,
    `math.rsqrt`, `math.absf`, `math.fma` on f32, `linalg.index`
    (docs/numerics.md, "Host kernels"). Any other op (e.g. `linalg.generic`
    with `math.exp`, a dynamic shape) stays on the host with a remark
    `runs on the host (fp8-outline-host-kernels): <why>`. An op with an
    empty parallel domain is erased (it computes nothing).

    With `require-kernels` (set by `fp8-gpu-pipeline{require-kernels}`: a
    caller that passes device pointers, whose host loops would read device
    memory), each such op is instead an error `cannot run on the host
    (fp8-outline-host-kernels, require-kernels): <why>` and the pass fails;
    so is every other op left in a host function that touches a buffer's
    elements: a memref or affine load, store or atomic, a vector op on a
    memref, a `func.call` passing a buffer to a function without a body
    (a kernel's launcher declaration, marked `fp8.kernel_ref`, excepted).

    A row sum or max marked `fp8.reduction_lanes = 32`
    (fp8-split-reductions{row-kernels}) is one warp-per-row launch,
    `<function>_row_sum` / `_row_max`: `ceil(R / 8)` CTAs of `min(R, 8)`
    warps, lane `l` combining, for V = `fp8.reduction_vector` (1 when
    absent), elements `32 V j + V l + v` of each whole 32 V-element step
    (one `vector.load` aligned to its 4 V or 2 V bytes per input and step
    where the memref type (innermost unit stride, offset and other strides
    multiples of V) and the base pointer, tested at run time, allow it; V
    scalar loads in the same order otherwise), then elements `l, l + 32,
    ...` of the rest of the row, the butterfly
    (`nvvm.shfl.sync bfly` xor 16 .. 1) the lanes, lane 0 the init
    (docs/numerics.md, "Reduction order"). A marked sum that also carries
    `fp8.row_group = <id>` leads a fused group, `<function>_row_sum_fused` /
    `_row_max_fused`: the ops of that id after it in its block
    (all-parallel `linalg.generic`s with one identity-indexed output whose
    initial value the body does not read, over the sum's R rows or its
    R x N elements) run in the same launch, which takes the place of the
    group's last op (deallocations between move after it). Lane 0's init
    reaches every lane by `nvvm.shfl.sync idx`; every lane computes the
    per-row ops on the row's result (lane 0 stores their outputs); lane `l`
    computes elements `32 j + l` of the row (j < ceil(N / 32), the last step
    for the lanes below N mod 32 only) of each elementwise op in order,
    reading the group's per-row values and its own elements' values from
    registers, and stores every output. The ops of the id before the sum
    are its elementwise producers: the lanes compute and store their
    elements first, the sum's partial sums read them back. An op of the id
    with `fp8.reduction_lanes` after the sum is a chained reduction (the
    sum's loop ranges, reduction dimension and init map): its lane partial
    sums over the elements the lane stored itself (no barrier), its
    butterfly and its init as the sum's, then the ops after it.

    A column sum marked `fp8.column_lanes = 32` (fp8-split-reductions{
    row-kernels}: the reduction not the inputs' innermost dimension,
    RMSNorm's weight gradient over the tokens) is one launch,
    `<function>_<op>_column_sum`: `ceil(C / 8)` CTAs of 256 threads for C
    columns (the parallel iterations, row-major), thread `t` running lane
    `t / 8` of column `8 b + t % 8` (consecutive threads read consecutive
    columns of a token's row). Lane `l` adds elements `l, l + 32, ...` of
    its column from `-0.0` (the lanes below N mod 32 the last one too), the
    halving tree runs through 256 f32 of shared memory (a workgroup
    attribution): before level `h` (16, 8, 4, 2, 1) lanes `[h, 2h)` store
    their value, a `gpu.barrier`, lanes `l < h` add lane `l + h`'s slot on
    the right; lane 0 of an in-range column adds the init and stores
    (docs/numerics.md, "Reduction order"). The threads of columns past C
    take part in every barrier and store nothing.

    Errors: under `require-kernels`, an op that would stay on the host; the
    upstream transformations failing on an op that passed the checks is an
    error naming the step; a marked sum the row kernel cannot take (`the
    row sum marked fp8.reduction_lanes cannot run as a row kernel: <why>`),
    or a marked column sum the column kernel cannot take (`the column sum
    marked fp8.column_lanes cannot run as a column kernel: <why>`), or a
    marked sum inside a loop;
    a row group it cannot take (`the row group <id> cannot be one kernel:
    <why>`: a member that is no such op or that could not be a kernel, an
    op between the sum and its last member that reads or writes memory
    other than an allocation or deallocation, a member reading a buffer
    the group writes other than the value an earlier op of the group
    computed at its own row or element, the sum reading a buffer its group
    writes); an op of a row group with no sum of its group before it in its
    block.
  }];
  let options = [
    Option<"chip", "chip", "std::string", [{"sm_90a"}],
           "Target chip of the kernel module's #nvvm.target">,
    Option<"features", "features", "std::string", [{"+ptx80"}],
           "PTX features of the kernel module's #nvvm.target">,
    Option<"requireKernels", "require-kernels", "bool", /*default=*/"false",
           "An op that would stay on the host is an error (the caller "
           "runs nothing but kernels)">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def FP8HostKernelsToNVVMPass
    : Pass<"fp8-host-kernels-to-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower the host kernels of fp8-outline-host-kernels to the "
                "LLVM/NVVM dialects with the host's math lowering";
  let description = [{
    `convert-gpu-to-nvvm` for the kernels of `fp8-outline-host-kernels`
    (after `lower-affine`, `convert-scf-to-cf` and
    `arith-expand-ops{include-bf16}`, as on the host): the same GPU, arith,
    cf and memref patterns and type conversion (bare-pointer kernel
    parameters), but math ops lowered by `convert-math-to-llvm`'s patterns
    (`math.sqrt` -> `llvm.intr.sqrt`, `math.rsqrt` -> `1 / llvm.intr.sqrt`,
    the host's code) instead of libdevice calls, and `llvm.intr.sqrt` /
    `llvm.intr.fabs` left legal (upstream turns them into `__nv_sqrtf` /
    `__nv_fabsf`): NVPTX lowers them to `sqrt.rn.f32` / `abs.f32`
    (docs/numerics.md, "Host kernels"). Errors: an op of the gpu, arith,
    math, memref, vector or cf dialects left unconverted (the row kernels'
    `vector.load`s become aligned `llvm.load`s of vectors).
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"
  ];
}

def FP8ChooseKSplitsPass : Pass<"fp8-choose-k-splits", "ModuleOp"> {
  let summary = "Choose split-K (fp8.scaled_matmul's k_splits) by the GPU "
                "kernel's cost model, for both pipelines";
  let description = [{
    Sets `k_splits` on every `fp8.scaled_matmul` whose GPU kernel the cost
    model (`GemmCostModel.h`, `chooseKSplitsByModel`, for `device`) times
    faster split along K: a static M and K, the DeepSeek-V3 blocks (A
    [1, 128], B [128, 128] or [1, 128]), `k_splits` still 1, a result not
    quantized by the next op alone (that one keeps the quantize epilogue),
    and no swap-AB kernel the model prefers. It splits only where the
    unsplit kernel runs one wave of tiles (decode: 64 x 2112 x 7168 on 132
    SMs), whose CTAs each run the whole K loop; other ops keep
    `k_splits = 1`.

    A split changes the result's bits (the S partial sums are added in
    split order: docs/numerics.md, "Split-K"), so it is decided here, on
    the graph, before the pipelines diverge: run it once and give its
    output to both `fp8-cpu-pipeline` (the reference, which reproduces the
    split) and `fp8-gpu-pipeline` (whose kernel reads it, and whose
    `config=auto` chooses the tile for it). Neither pipeline runs it: a
    GPU option that split the kernel alone would leave the CPU reference
    summing differently.

    Options: `device` (the modelled chip: h200, h100-sxm).
  }];
  let options = [
    Option<"device", "device", "std::string", [{"h200"}],
           "The chip the cost model describes (h200, h100-sxm)">,
  ];
}

def FP8TileScaledMatmulPass : Pass<"fp8-tile-scaled-matmul", "ModuleOp"> {
  let summary = "Express fp8.scaled_matmul as the GPU kernel's tiled schedule "
                "in scf loops over tensors (runs on the CPU)";
  let description = [{
    Rewrites every `fp8.scaled_matmul` with static shapes into the schedule
    of the sm_90a kernel (`fp8-lower-to-nvvm`), at a level the CPU pipeline
    runs: `fp8.disassemble` of both operands, then

    ```
    for mt < ceil(M / BLOCK_M), nt < ceil(N / BLOCK_N):      // CTA tiles
      acc[BLOCK_M x BLOCK_N] = C tile (or 0)                 // f32
      for kb < ceil(K / I):                                   // K chunk = promotion interval I
        for i < min(BLOCK_M, M - m0), j < min(BLOCK_N, N - n0):  // tails
          partial = sum_{k in [kb*I, min(K, kb*I + I))} f32(a[m, k]) * f32(b[n, k])
          acc[i, j] = fma(partial, sa[m / ba0, kb*I / ba1] * sb[n / bb0, kb*I / bb1], acc[i, j])
      D[tile] = acc (rounded RNE to bf16 for bf16 results)
    ```

    with `m = m0 + i`, `n = n0 + j`. The scale indices are computed per row
    and per column, so any BLOCK_N works, including sizes that are not a
    multiple of the 128-row B-scale block (a tile then straddles two scale
    blocks). Only the innermost partial differs from the GPU kernel (four
    wgmma there, a sequential f32 sum in increasing k here); per element
    the arithmetic is the reference lowering's (`fp8-lower-to-linalg`), so
    the results are bit-identical to it.

    BLOCK_M = 0 (default) takes the GPU kernel's choice for the shape
    (GemmKernelConfig.h: 64 for M <= 64, else 128).
  }];
  let options = [
    Option<"blockM", "block-m", "int64_t", /*default=*/"0",
           "CTA tile rows (0: the GPU kernel's choice)">,
    Option<"blockN", "block-n", "int64_t", /*default=*/"128",
           "CTA tile columns (any positive size)">,
  ];
  let dependentDialects = [
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect"
  ];
}

#endif // FP8_CONVERSION_PASSES_TD
