//===- KernelSpecs.cpp - which fp8 ops get which sm_90a kernel -----------===//
//
// Shared by fp8-lower-to-nvvm (which builds the kernels) and
// fp8-launch-kernels (which launches them from the host), so both derive
// the same kernel name and configuration from an op and the options.
//
//===----------------------------------------------------------------------===//
#include "KernelSpecs.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/IR/ShapeString.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fp8;

/// Sizes a kernel indexes with signed 32-bit values: TMA coordinates, the
/// i32 M parameter. A dynamic size is checked at run time instead
/// (fp8-launch-kernels).
static constexpr int64_t kMaxKernelExtent = GemmKernelConfig::kMaxExtent;

/// The K at which the cost model chooses the tiles of a kernel taking K at
/// run time (the Wgrad GEMM over a run-time token count): a training
/// step's tokens per GPU (e.g. 4 sequences of 1024). The modelled time of
/// such a kernel depends on K and is not recorded.
static constexpr int64_t kModelledDynamicK = 4096;

/// Whether a static size of `sizes` is too large for the kernels (TMA
/// coordinates, the i32 M parameter); then `os` says which.
static bool explainKernelExtents(llvm::raw_ostream &os,
                                 ArrayRef<int64_t> sizes) {
  for (int64_t s : sizes)
    if (!ShapedType::isDynamic(s) && s >= kMaxKernelExtent) {
      os << "needs every size below 2^31 (the kernels' TMA coordinates and "
            "row counts are signed 32-bit), got "
         << s;
      return true;
    }
  return false;
}

/// `x * y`, or kMaxKernelExtent where it reaches it (or overflows int64):
/// the products the kernels compute in signed 32 bits, compared with the
/// limit without wrapping.
static int64_t productUpToLimit(int64_t x, int64_t y) {
  int64_t p;
  if (llvm::MulOverflow(x, y, p) || p > kMaxKernelExtent)
    return kMaxKernelExtent;
  return p;
}

/// Whether the scales of operand `name` (`ty`) have too many elements for
/// the GEMM kernels, which index them with signed 32-bit values: B's are
/// loaded at an element index (GemmScales.cpp: block i of group g at g *
/// blocks + i, a per-column scale at kb * columns + col), A's and the
/// per-column B's are transposed on the device first by the transpose
/// kernel, whose element index is signed 32-bit; then `os` says how many.
/// The transposed scales' rows, a dimension of blocks of 1, are padded: to
/// 4 rows for A's TMA map, to the tiles' columns for B's (at most 255
/// more: a BLOCK_N of at most 256), `padTo`. A dynamic size is checked at
/// run time (fp8-launch-kernels: the transpose's assert).
static bool explainScaleCount(llvm::raw_ostream &os, StringRef name,
                              ScaledTensorType ty, int64_t padTo) {
  SmallVector<int64_t> shape = ty.getScaleShape();
  if (llvm::any_of(shape, ShapedType::isDynamic))
    return false;
  const int64_t rowDim = shape.size() - 2;
  if (ty.getBlockShape()[rowDim] == 1)
    shape[rowDim] = (shape[rowDim] + padTo - 1) / padTo * padTo;
  int64_t count = 1;
  for (int64_t s : shape)
    count = productUpToLimit(count, s);
  if (count < kMaxKernelExtent)
    return false;
  os << "needs fewer than 2^31 " << name
     << " scales (the kernels index them with signed 32-bit values), got "
     << shapeString(shape, " x ");
  return true;
}

/// Both operands' scales (explainScaleCount).
static bool explainScaleCounts(llvm::raw_ostream &os, ScaledTensorType aTy,
                               ScaledTensorType bTy) {
  return explainScaleCount(os, "A", aTy, 4) ||
         explainScaleCount(os, "B", bTy, 256);
}

/// What every generated GEMM kernel needs of its promotion: one per 128 K
/// elements. (Its scales are f32; E8M0 scales are widened to f32 by the
/// launcher, exactly.) Whether it is missing; then `os` says what.
static bool explainScalesAndInterval(llvm::raw_ostream &os,
                                     ScaledTensorType aTy, ScaledTensorType bTy,
                                     int64_t promoteInterval) {
  if (promoteInterval != 128) {
    os << "needs promote_interval = 128 (one promotion per 4 wgmma k32), got "
       << promoteInterval;
    return true;
  }
  return false;
}

static bool isBlock(ScaledTensorType t, int64_t b0, int64_t b1) {
  ArrayRef<int64_t> blk = t.getBlockShape();
  return blk.size() == 2 && blk[0] == b0 && blk[1] == b1;
}

/// The scales of an operand of `rows` rows (static or not) whose blocks
/// span the whole K: one per row (`[1, >= K]`, the rowwise preset) or one
/// for the tensor (`[>= rows, >= K]`, a static `rows`: per-tensor), which
/// the whole-K kernel (scale_k = k) reads as one per row; nullopt for other
/// blocks. The value says whether the scale is per-tensor.
static std::optional<bool> getWholeKScales(ScaledTensorType t) {
  ArrayRef<int64_t> blk = t.getBlockShape(), shape = t.getShape();
  if (blk.size() != 2 || ShapedType::isDynamic(shape[1]) || blk[1] < shape[1])
    return std::nullopt;
  if (blk[0] == 1)
    return false;
  if (!ShapedType::isDynamic(shape[0]) && blk[0] >= shape[0])
    return true;
  return std::nullopt;
}

/// Whether `op` is in the whole-K form: both operands' scales span the
/// whole K, one per row or one per tensor (rowwise, per-tensor).
static bool isWholeKForm(ScaledMatmulOp op) {
  return getWholeKScales(cast<ScaledTensorType>(op.getA().getType())) &&
         getWholeKScales(cast<ScaledTensorType>(op.getB().getType()));
}

/// Whether `op` is in mxfp8's form: both operands in 1x32 blocks (a scale
/// per row and 32 K, OCP MX), promoted every 32 K.
static bool isMxForm(ScaledMatmulOp op) {
  return isBlock(cast<ScaledTensorType>(op.getA().getType()), 1,
                 GemmKernelConfig::kMxScaleK) &&
         isBlock(cast<ScaledTensorType>(op.getB().getType()), 1,
                 GemmKernelConfig::kMxScaleK);
}

/// A run-time K (T) of 0 gives D = C without a launch (a device copy: the
/// launcher), so an accumulator `c` must have the result's element type;
/// writes why not to `os` and returns true when it does not.
static bool explainCopiedC(raw_ostream &os, Value c, RankedTensorType resTy,
                           StringRef dynamicK, StringRef k) {
  if (!c || cast<RankedTensorType>(c.getType()).getElementType() ==
                resTy.getElementType())
    return false;
  os << dynamicK << " needs an accumulator C of the result's element type ("
     << k << " = 0 copies C to the result), got " << c.getType() << " -> "
     << resTy;
  return true;
}

/// The forms of fp8.scaled_matmul no GEMM kernel implements.
static std::string explainNoKernel(ScaledMatmulOp op) {
  auto aTy = cast<ScaledTensorType>(op.getA().getType());
  auto bTy = cast<ScaledTensorType>(op.getB().getType());
  auto resTy = cast<RankedTensorType>(op.getResult().getType());
  auto isStatic = [](ArrayRef<int64_t> shape) {
    return llvm::none_of(shape, ShapedType::isDynamic);
  };
  std::string why;
  llvm::raw_string_ostream os(why);
  // M (the token dimension of Fprop and Dgrad) may be dynamic: one kernel
  // for every M, which takes M at run time. So may K (the token dimension
  // of the Wgrad, dW = dY^T X) with a scale per K block: the kernel takes
  // it at run time too. N is compiled in.
  if (ShapedType::isDynamic(bTy.getShape()[0]) ||
      !isStatic(resTy.getShape().drop_front())) {
    os << "needs a static N (M and K may be dynamic), got " << aTy << ", "
       << bTy << " -> " << resTy;
    return why;
  }
  const bool dynamicK = ShapedType::isDynamic(aTy.getShape()[1]);
  if (dynamicK != ShapedType::isDynamic(bTy.getShape()[1])) {
    os << "needs K static in both operands or dynamic in both, got " << aTy
       << ", " << bTy;
    return why;
  }
  if (dynamicK && (!isBlock(aTy, 1, 128) ||
                   (!isBlock(bTy, 128, 128) && !isBlock(bTy, 1, 128)))) {
    os << "a dynamic K needs a scale per 128 K (a: [1, 128], b: [128, 128] "
          "or [1, 128]), got a: "
       << aTy << ", b: " << bTy;
    return why;
  }
  if (dynamicK && explainCopiedC(os, op.getC(), resTy, "a dynamic K", "K"))
    return why;
  // b: [128, 128] is the weight of Fprop and Dgrad (DeepSeek-V3 §3.3.2);
  // b: [1, 128], one scale per column and K block, the activation operand
  // of the Wgrad GEMM (docs/training.md; DeepGEMM's "1D-1D" kernel).
  // Or scales along the whole K: one per row or per tensor of each operand
  // (the rowwise and per-tensor presets).
  // Or mxfp8's 1x32 blocks on both operands (a scale per row and 32 K),
  // which the op's verifier promotes every 32 K: the mxfp8 kernel takes any
  // static K (it skips a K tail's steps at compile time).
  if (!isMxForm(op)) {
    if ((!isBlock(aTy, 1, 128) ||
         (!isBlock(bTy, 128, 128) && !isBlock(bTy, 1, 128))) &&
        !isWholeKForm(op)) {
      os << "implements the DeepSeek-V3 blocks (a: [1, 128], b: [128, 128] "
            "or, for the Wgrad GEMM, [1, 128]), scales along the whole K "
            "(one per row or per tensor of each operand) and mxfp8's [1, 32] "
            "blocks, got a: "
         << aTy << ", b: " << bTy;
      return why;
    }
    if (explainScalesAndInterval(os, aTy, bTy, op.getPromoteInterval()))
      return why;
  }
  if (!explainKernelExtents(
          os, {aTy.getShape()[0], bTy.getShape()[0], aTy.getShape()[1]}))
    explainScaleCounts(os, aTy, bTy);
  return why;
}

/// The forms of the k_grouped layout (the MoE Wgrad) the k-grouped kernel
/// does not implement: the op's verifier already fixed the blocks ([1, 128]
/// on both operands), the ranks and G.
static std::string explainNoKGroupedKernel(GroupedScaledMatmulOp op) {
  auto aTy = cast<ScaledTensorType>(op.getA().getType());
  auto bTy = cast<ScaledTensorType>(op.getB().getType());
  std::string why;
  llvm::raw_string_ostream os(why);
  // M and N static; the token count T static in both operands or dynamic
  // in both (the kernel takes it at run time, as the 2-D Wgrad kernel its
  // K).
  const bool dynamicT = ShapedType::isDynamic(aTy.getShape()[1]);
  if (ShapedType::isDynamic(aTy.getShape()[0]) ||
      ShapedType::isDynamic(bTy.getShape()[0]) ||
      dynamicT != ShapedType::isDynamic(bTy.getShape()[1])) {
    os << "the k_grouped layout needs static M and N and T static in both "
          "operands or dynamic in both, got "
       << aTy << ", " << bTy;
    return why;
  }
  auto resTy = cast<RankedTensorType>(op.getResult().getType());
  if (dynamicT && explainCopiedC(os, op.getC(), resTy, "a run-time T", "T"))
    return why;
  if (explainScalesAndInterval(os, aTy, bTy, op.getPromoteInterval()))
    return why;
  if (!explainKernelExtents(
          os, {aTy.getShape()[0], bTy.getShape()[0], aTy.getShape()[1],
               productUpToLimit(op.getNumGroups(), aTy.getShape()[0])}))
    explainScaleCounts(os, aTy, bTy);
  return why;
}

/// The forms of fp8.grouped_scaled_matmul no grouped GEMM kernel
/// implements.
static std::string explainNoKernel(GroupedScaledMatmulOp op) {
  if (op.isKGrouped())
    return explainNoKGroupedKernel(op);
  auto aTy = cast<ScaledTensorType>(op.getA().getType());
  auto bTy = cast<ScaledTensorType>(op.getB().getType());
  auto resTy = cast<RankedTensorType>(op.getResult().getType());
  const bool masked = op.getLayout() == GroupLayout::masked;
  std::string why;
  llvm::raw_string_ostream os(why);
  // Static G, N, K (and the masked M, a per-group capacity); the
  // contiguous M (the routed token count) may be dynamic.
  ArrayRef<int64_t> aShape = aTy.getShape();
  ArrayRef<int64_t> aFixed = masked ? aShape : aShape.drop_front();
  if (llvm::any_of(aFixed, ShapedType::isDynamic) ||
      llvm::any_of(bTy.getShape(), ShapedType::isDynamic)) {
    os << "needs static G, N and K"
       << (masked ? " and M (masked layout)" : " (only M may be dynamic)")
       << ", got " << aTy << ", " << bTy << " -> " << resTy;
    return why;
  }
  ArrayRef<int64_t> aBlk = aTy.getBlockShape(), bBlk = bTy.getBlockShape();
  if (aBlk.back() != 128 || aBlk[aBlk.size() - 2] != 1 || bBlk[1] != 128 ||
      bBlk[2] != 128) {
    os << "implements the DeepSeek-V3 blocks (a: [1, 128] per row, b: [1, "
          "128, 128]), got a: "
       << aTy << ", b: " << bTy;
    return why;
  }
  if (explainScalesAndInterval(os, aTy, bTy, op.getPromoteInterval()))
    return why;
  if (explainKernelExtents(os, {bTy.getShape()[0], aShape[aShape.size() - 2],
                                bTy.getShape()[1], aShape.back()}))
    return why;
  // The masked layout's C and D rows: group g's start at g * M, a signed
  // 32-bit row index (GemmGroupedScheduler.cpp).
  if (masked && productUpToLimit(aShape[0], aShape[1]) >= kMaxKernelExtent) {
    os << "the masked layout needs G x M below 2^31 (the kernel's row index "
          "g * M + row of C and D is signed 32-bit), got G = "
       << aShape[0] << ", M = " << aShape[1];
    return why;
  }
  if (explainScaleCounts(os, aTy, bTy))
    return why;
  // Contiguous: a tile holds one group's rows, so BLOCK_M divides the
  // alignment of the groups (64, 128 or 256 rows).
  if (!masked && op.getMAlignment() % 64 != 0)
    os << "the contiguous layout needs m_alignment a multiple of 64 (BLOCK_M "
          "is 64, 128 or 256 and must divide it), got "
       << op.getMAlignment();
  return why;
}

std::string mlir::fp8::explainNoGemmKernel(Operation *op) {
  if (auto mm = dyn_cast<ScaledMatmulOp>(op))
    return explainNoKernel(mm);
  return explainNoKernel(cast<GroupedScaledMatmulOp>(op));
}

std::string mlir::fp8::getEmptyProblemReason(Operation *op) {
  if (hasEmptyResult(op))
    return "the result is empty";
  if (hasEmptyContraction(op))
    return "K = 0: the result is C, or +0.0";
  return "";
}

/// The cost model's tile and promotion as overrides, so that the kernel
/// name carries them (`_t<BM>x<BN>s<S>[o<U>]` unless they are the default)
/// and everything that reads the kernel's attribute gets them; a tile
/// order given as an option stays.
static void applyModelTile(GemmKernelOverrides &o,
                           const GemmKernelConfig &chosen) {
  o.setModelChoice(chosen);
  if (!o.groupM)
    o.groupM = chosen.groupM;
  if (!o.cluster)
    o.cluster = chosen.cluster;
}

/// Swap-AB (issue 28 item 6): a GEMM of small M in the DeepSeek-V3 blocks
/// (A 1x128 tiles, B 128x128 blocks, static M and K) computed as D^T = B
/// A^T, so N fills the wgmma's 64 rows and M the tile's columns (BLOCK_N
/// down to 16). The products and their promotion are the same (a * b and
/// sa * sb commute), so D is bit for bit the unswapped kernel's.
static bool canSwapAB(ScaledMatmulOp op) {
  auto aTy = cast<ScaledTensorType>(op.getA().getType());
  auto bTy = cast<ScaledTensorType>(op.getB().getType());
  return isBlock(aTy, 1, 128) && isBlock(bTy, 128, 128) &&
         aTy.getScaleType().isF32() && bTy.getScaleType().isF32() &&
         !ShapedType::isDynamic(aTy.getShape()[0]) &&
         !ShapedType::isDynamic(aTy.getShape()[1]);
}

/// Whether the cost model prefers D^T = B A^T for M x N x K on `chip`: the
/// swapped problem N x M x K (per-column B scales) modelled faster.
static bool swapABPays(int64_t m, int64_t n, int64_t k, const ChipSpec &chip) {
  if (m > GemmKernelConfig::kSwapABMaxM)
    return false;
  double plain = chooseGemmConfigByModel(m, n, k, chip).cost.us;
  double swapped = chooseGemmConfigByModel(n, m, k, chip, 0, 1, false,
                                           /*bScalesPerColumn=*/true)
                       .cost.us;
  return swapped < plain;
}

int64_t mlir::fp8::chooseOpKSplits(ScaledMatmulOp op, const ChipSpec &chip) {
  auto aTy = cast<ScaledTensorType>(op.getA().getType());
  auto bTy = cast<ScaledTensorType>(op.getB().getType());
  int64_t m = aTy.getShape()[0], k = aTy.getShape()[1], n = bTy.getShape()[0];
  const bool perColumn = isBlock(bTy, 1, 128);
  if (ShapedType::isDynamic(m) || ShapedType::isDynamic(k) ||
      ShapedType::isDynamic(n) || m == 0 || n == 0 || k == 0 ||
      !explainNoKernel(op).empty() || !isBlock(aTy, 1, 128) ||
      !(isBlock(bTy, 128, 128) || perColumn) || getEpilogueQuantize(op) ||
      (canSwapAB(op) && swapABPays(m, n, k, chip)))
    return 1;
  return chooseKSplitsByModel(m, n, k, chip, perColumn);
}

/// The swapped spec of `op` (canSwapAB): an N x M x K GEMM of B and A with
/// per-column B scales, the model's tile under `model`.
static FailureOr<GemmKernelSpec>
getSwappedGemmKernelSpec(ScaledMatmulOp op, const GemmKernelOverrides &o,
                         const ChipSpec *model) {
  auto aTy = cast<ScaledTensorType>(op.getA().getType());
  auto bTy = cast<ScaledTensorType>(op.getB().getType());
  int64_t m = aTy.getShape()[0], k = aTy.getShape()[1], n = bTy.getShape()[0];
  GemmKernelOverrides swapped = o;
  if (model && !o.any()) {
    applyModelTile(swapped,
                   chooseGemmConfigByModel(n, m, k, *model, 0, 1, false,
                                           /*bScalesPerColumn=*/true)
                       .config);
  }
  // No cluster: the swapped kernel's B is the activation (the verifier of
  // #fp8.gemm_kernel).
  swapped.cluster = 1;
  GemmKernelSpec spec;
  spec.swapAB = true;
  spec.config =
      makeGemmKernelConfig(n, m, k, swapped, /*bScalesPerColumn=*/true);
  StringRef why = checkGemmKernelConfig(spec.config);
  if (!why.empty())
    return op.emitOpError("GPU lowering: invalid swap-AB kernel "
                          "configuration (")
           << n << " x " << m << " x " << k << "): " << why;
  spec.aType = bTy.getElementType();
  spec.bType = aTy.getElementType();
  spec.resultType =
      cast<RankedTensorType>(op.getResult().getType()).getElementType();
  if (Value c = op.getC())
    spec.accType = cast<RankedTensorType>(c.getType()).getElementType();
  return spec;
}

QuantizeOp mlir::fp8::getEpilogueQuantize(ScaledMatmulOp op) {
  Value d = op.getResult();
  if (!d.hasOneUse())
    return {};
  auto q = dyn_cast<QuantizeOp>(*d.getUsers().begin());
  auto aTy = cast<ScaledTensorType>(op.getA().getType());
  if (!q || ShapedType::isDynamic(aTy.getShape()[1]))
    return {};
  auto qTy = cast<ScaledTensorType>(q.getResult().getType());
  if (!isBlock(qTy, 1, 128) || !qTy.getScaleType().isF32() ||
      !isSupportedFP8Type(qTy.getElementType()) || !q.getSaturate())
    return {};
  return q;
}

/// The tile of `c` made fit for the quantize epilogue (a 1x128 tile of D
/// in one consumer's columns), or nullopt: the chosen tile when it fits
/// (with the TMA store where asked and its limits hold, else on
/// st.global); else, when no option fixed BLOCK_N or the consumers, the
/// candidates
/// BLOCK_M (the chosen one, 128, 64) x BLOCK_N (256 split over two
/// consumers when 256 was chosen, 128) with the chosen tile order and
/// cluster and as many stages as fit: the fastest under `model` (when the
/// model chose the tile), else the first valid one.
static std::optional<GemmKernelConfig>
fitQuantizeEpilogue(GemmKernelConfig c, const GemmKernelOverrides &options,
                    bool bPerColumn, const ChipSpec *model) {
  c.quantizeEpilogue = true;
  // The codes' staging is a quarter of D's at f32 width: more stages fit.
  if (c.tmaStore && !options.stages)
    fillStages(c);
  if (!*checkGemmKernelConfig(c))
    return c;
  // The tile without the TMA store (n not a multiple of 16): the codes on
  // st.global, and the stages that fit without the staging.
  if (c.tmaStore) {
    GemmKernelConfig global = c;
    global.tmaStore = false;
    if (!options.stages)
      fillStages(global);
    if (!*checkGemmKernelConfig(global))
      return global;
  }
  // Two waves per consumer (an explicit option) take no quantize
  // epilogue: a refit would drop them silently.
  if (options.blockN || options.consumers || options.waves > 1)
    return std::nullopt;
  SmallVector<int64_t, 3> heights{c.blockM};
  for (int64_t h : {int64_t(128), int64_t(64)})
    if (h != c.blockM)
      heights.push_back(h);
  SmallVector<int64_t, 2> widths{128};
  if (c.blockN >= 256)
    widths.insert(widths.begin(), 256);
  std::optional<GemmKernelConfig> best;
  double bestUs = 0;
  // The chosen tile order, clusters and promotion where the tile allows
  // them, else without the optional speed-ups (lock-step).
  const GemmKernelOverrides kept = GemmKernelOverrides::getNonTileChoices(c);
  for (int64_t blockM : heights)
    for (int64_t blockN : widths) {
      GemmKernelConfig fit;
      for (GemmKernelOverrides o : {kept, kept.withoutOptionalChoices()}) {
        o.blockM = blockM;
        o.blockN = blockN;
        fit = makeGemmKernelConfig(c.m, c.n, c.k, o, bPerColumn);
        fit.scaleK = c.scaleK;
        fit.quantizeEpilogue = true;
        if (fit.tmaStore)
          fillStages(fit);
        else
          fitStages(fit);
        if (!*checkGemmKernelConfig(fit))
          break;
      }
      if (*checkGemmKernelConfig(fit))
        continue;
      if (!model || c.m == GemmKernelConfig::kDynamicM)
        return fit;
      double us = modelGemmCost(fit, *model).us;
      if (!best || us < bestUs) {
        best = fit;
        bestUs = us;
      }
    }
  return best;
}

/// The quantize epilogue computing `q` (getEpilogueQuantize) for `spec`
/// when a tile fits (the options allowing). A TMA store asked for (store=
/// tma) that the quantize epilogue cannot take is reported on `gemm`.
static void applyQuantizeEpilogue(Operation *gemm, QuantizeOp q,
                                  GemmKernelSpec &spec,
                                  const GemmKernelOverrides &options,
                                  bool bPerColumn, const ChipSpec *model) {
  std::optional<GemmKernelConfig> fit =
      fitQuantizeEpilogue(spec.config, options, bPerColumn, model);
  if (!fit)
    return;
  if (spec.config.tmaStore && !fit->tmaStore) {
    GemmKernelConfig asked = *fit;
    asked.tmaStore = true;
    StringRef why = checkGemmKernelConfig(asked);
    emitRemark(gemm->getLoc())
        << "fp8-lower-to-nvvm: store=tma is not applied to the quantize "
           "epilogue of this GEMM ("
        << (why.empty() ? StringRef("no tile fits both") : why)
        << "); its codes are stored by st.global";
  }
  spec.config = *fit;
  spec.quantizeType =
      cast<ScaledTensorType>(q.getResult().getType()).getElementType();
  spec.quantizeEps = q.getEps().convertToDouble();
  spec.quantizePow2 = q.getScaleMode() == ScaleMode::pow2;
}

FailureOr<GemmKernelSpec>
mlir::fp8::getGemmKernelSpec(ScaledMatmulOp op,
                             const GemmKernelOverrides &overrides,
                             const ChipSpec *model) {
  auto aTy = cast<ScaledTensorType>(op.getA().getType());
  auto bTy = cast<ScaledTensorType>(op.getB().getType());
  auto resTy = cast<RankedTensorType>(op.getResult().getType());
  std::string noKernel = explainNoKernel(op);
  if (!noKernel.empty())
    return op.emitOpError("GPU lowering: no kernel: ") << noKernel;
  // The DeepSeek-V3 blocks, else scales along the whole K (the rowwise and
  // per-tensor presets): one per row of A and per column of the output,
  // a per-tensor scale broadcast by the launcher.
  const bool deepSeek =
      isBlock(aTy, 1, 128) && (isBlock(bTy, 128, 128) || isBlock(bTy, 1, 128));
  const bool mx = isMxForm(op);
  const bool bPerColumn = !deepSeek || isBlock(bTy, 1, 128);
  int64_t m = aTy.getShape()[0], k = aTy.getShape()[1], n = bTy.getShape()[0];
  if (ShapedType::isDynamic(m))
    m = GemmKernelConfig::kDynamicM;
  if (ShapedType::isDynamic(k))
    k = GemmKernelConfig::kDynamicK;
  using SwapAB = GemmKernelOverrides::SwapAB;
  // Split-K (the op's k_splits, chosen before the pipelines diverge): the
  // 2-D kernel storing D, so neither swap-AB nor the quantize epilogue
  // (the quantize of D runs as its own kernel).
  const int64_t kSplits = op.getKSplits();
  if (kSplits > 1 && overrides.swapAB == GemmKernelOverrides::SwapAB::always)
    return op.emitOpError("GPU lowering: swap-ab=always and k_splits = ")
           << kSplits
           << " do not combine (the split-K kernel is the 2-D kernel)";
  // A quantized result takes the quantize epilogue of the 2-D kernel
  // rather than swap-AB (unless forced): one launch and no D in HBM.
  QuantizeOp quantize = overrides.quantizeEpilogue && m != 0 && kSplits == 1
                            ? getEpilogueQuantize(op)
                            : QuantizeOp();
  if (kSplits == 1 && canSwapAB(op) && m > 0 &&
      (overrides.swapAB == SwapAB::always ||
       (!quantize && overrides.swapAB == SwapAB::model && model &&
        !overrides.any() && swapABPays(m, n, k, *model))))
    return getSwappedGemmKernelSpec(op, overrides, model);
  // K need not be a multiple of 16 (TMA global strides are): the host pads
  // the codes' rows to one with zero codes (fp8-launch-kernels).
  GemmKernelSpec spec;
  GemmKernelOverrides o = overrides;
  if (model && !o.any() && m != GemmKernelConfig::kDynamicM && m > 0) {
    // The model's tiles and stages, spelled as overrides so that the kernel
    // name carries them (`_t<BM>x<BN>s<S>` unless they are the default) and
    // the host runtime and the emulator read them back from it. A run-time
    // K (the Wgrad's tokens) is modelled at kModelledDynamicK.
    applyModelTile(
        o, chooseGemmConfigByModel(
               m, n, k == GemmKernelConfig::kDynamicK ? kModelledDynamicK : k,
               *model, /*blockMDivides=*/0,
               /*groups=*/1, /*grouped=*/false, bPerColumn,
               mx ? GemmKernelConfig::kMxScaleK : 128, kSplits)
               .config);
  }
  // mxfp8's fixed default tile: 64 columns (its per-step promotions fit
  // 80 per consumer, GemmKernelConfig::consumerRegsNeeded).
  if (mx && !o.blockN && !o.consumers)
    o.blockN = 64;
  spec.config = makeGemmKernelConfig(m, n, k, o, bPerColumn);
  if (mx) {
    // A scale per 32 K of each row of A and B (B's: per column of D); the
    // stages that fit its larger A-scale slots.
    spec.config.scaleK = GemmKernelConfig::kMxScaleK;
    if (!o.stages)
      fitStages(spec.config);
  } else if (!deepSeek) {
    // One scale along K: a K of one block is the per-block kernel.
    spec.config.scaleK = k > spec.config.blockK ? k : spec.config.blockK;
    spec.aScaleWhole = *getWholeKScales(aTy);
    spec.bScaleWhole = *getWholeKScales(bTy);
  }
  if (quantize)
    applyQuantizeEpilogue(op, quantize, spec, overrides, bPerColumn,
                          overrides.any() ? nullptr : model);
  spec.config.kSplits = kSplits;
  StringRef why = checkGemmKernelConfig(spec.config);
  if (!why.empty()) {
    const GemmKernelConfig &c = spec.config;
    InFlightDiagnostic diag = op.emitOpError("GPU lowering: invalid kernel "
                                             "configuration block-m=")
                              << c.blockM << " block-n=" << c.blockN
                              << " stages=" << c.stages
                              << " consumers=" << c.consumers;
    if (c.kSplits > 1)
      diag << " k_splits=" << c.kSplits;
    return diag << " (" << c.sharedMemoryBytes()
                << " bytes of shared memory): " << why;
  }
  spec.aType = aTy.getElementType();
  spec.bType = bTy.getElementType();
  spec.resultType = resTy.getElementType();
  if (Value c = op.getC())
    spec.accType = cast<RankedTensorType>(c.getType()).getElementType();
  return spec;
}

FailureOr<GemmKernelSpec>
mlir::fp8::getGroupedGemmKernelSpec(GroupedScaledMatmulOp op,
                                    const GemmKernelOverrides &overrides,
                                    const ChipSpec *model) {
  auto aTy = cast<ScaledTensorType>(op.getA().getType());
  auto bTy = cast<ScaledTensorType>(op.getB().getType());
  auto resTy = cast<RankedTensorType>(op.getResult().getType());
  const bool masked = op.getLayout() == GroupLayout::masked;
  std::string noKernel = explainNoKernel(op);
  if (!noKernel.empty())
    return op.emitOpError("GPU lowering: no kernel: ") << noKernel;
  ArrayRef<int64_t> aShape = aTy.getShape();
  // k_grouped: A [M, T], B [N, T], G groups of K (the result's).
  const bool kGrouped = op.isKGrouped();
  int64_t g = kGrouped ? op.getNumGroups() : bTy.getShape()[0];
  int64_t n = bTy.getShape()[kGrouped ? 0 : 1], k = aShape.back();
  int64_t m = aShape[aShape.size() - 2];
  if (ShapedType::isDynamic(m))
    m = GemmKernelConfig::kDynamicM;
  // k_grouped over a run-time token count T: the kernel takes T last.
  if (ShapedType::isDynamic(k))
    k = GemmKernelConfig::kDynamicK;
  // The K the model sees: a run-time T at kModelledDynamicK tokens.
  const int64_t kModel =
      k == GemmKernelConfig::kDynamicK ? kModelledDynamicK : k;
  int64_t align = masked || kGrouped ? 0 : op.getMAlignment();
  GemmKernelOverrides o = overrides;
  if (model && !o.any() && m != GemmKernelConfig::kDynamicM && m > 0) {
    // The model sees the problem as one GEMM: the masked form as G *
    // roundUp(M, BLOCK_M) rows (the tiles of every group), the contiguous
    // form as its M rows with BLOCK_M dividing the alignment. Its HBM term
    // counts B once, as for one weight; a grouped B is G weights
    // (docs/gpu-kernel.md, "Grouped GEMM"). The k-grouped form as the
    // masked one of G groups with the tokens shared evenly (ceil(T / G)
    // each: the group sizes are run-time data).
    GemmKernelConfig chosen =
        chooseGemmConfigByModel(
            m, n, kGrouped ? GemmKernelConfig::ceilDiv(kModel, g) : k, *model,
            align, masked || kGrouped ? g : 1,
            /*grouped=*/true, /*bScalesPerColumn=*/kGrouped)
            .config;
    o.setModelChoice(chosen);
  }
  // Clusters (B multicast) are a 2-D kernel's: a tile pair of a grouped
  // kernel could straddle two groups.
  o.cluster = 1;
  GemmKernelConfig c = makeGemmKernelConfig(m, n, k, o, kGrouped);
  if (align && align % c.blockM != 0) {
    if (overrides.blockM || overrides.consumers)
      return op.emitOpError("GPU lowering: block-m=")
             << c.blockM << " does not divide m_alignment " << align
             << " (a tile of the contiguous layout must hold one group)";
    // The fixed default (128 rows) for an alignment of 64.
    o.blockM = 64;
    c = makeGemmKernelConfig(m, n, k, o, kGrouped);
  }
  StringRef why = checkGroupedGemmKernelConfig(c);
  if (!why.empty())
    return op.emitOpError("GPU lowering: invalid kernel configuration "
                          "block-m=")
           << c.blockM << " block-n=" << c.blockN << " stages=" << c.stages
           << " consumers=" << c.consumers << " (" << c.sharedMemoryBytes()
           << " bytes of shared memory): " << why;
  GemmKernelSpec spec;
  spec.config = c;
  spec.aType = aTy.getElementType();
  spec.bType = bTy.getElementType();
  spec.resultType = resTy.getElementType();
  if (Value acc = op.getC())
    spec.accType = cast<RankedTensorType>(acc.getType()).getElementType();
  spec.grouping = kGrouped ? GemmGrouping::kGrouped
                  : masked ? GemmGrouping::masked
                           : GemmGrouping::contiguous;
  spec.numGroups = g;
  spec.hasCounts = masked && op.getCounts();
  return spec;
}

/// The options of `o` a bf16 kernel takes: its tile (block-m, block-n,
/// stages, consumers) and tile order (group-m). Each other option that
/// would change a kernel is reported on `op` and dropped: the bf16 kernel
/// has no scales to promote (its wgmma chain is lock-step), does not
/// multicast B, stores D by st.global and has no swap-AB form
/// (checkBF16GemmKernelConfig). quantize-epilogue concerns fp8.quantize
/// users of FP8 GEMMs only.
static GemmKernelOverrides getBF16Overrides(Operation *op,
                                            const GemmKernelOverrides &o) {
  GemmKernelOverrides t;
  t.blockM = o.blockM;
  t.blockN = o.blockN;
  t.stages = o.stages;
  t.consumers = o.consumers;
  t.groupM = o.groupM;
  auto notApplied = [&](StringRef option, StringRef why) {
    emitRemark(op->getLoc())
        << "fp8-lower-to-nvvm: " << option
        << " is not applied to the bf16 kernel of '" << op->getName() << "' ("
        << why << "); the option configures the module's FP8 kernels";
  };
  if (o.cluster > 1)
    notApplied("cluster=" + std::to_string(o.cluster),
               "the bf16 kernels do not multicast B: cluster 1");
  if (o.tmaStore)
    notApplied("store=tma", "the bf16 kernels store D by st.global");
  if (o.overlap > 0)
    notApplied("promotion-schedule=overlap" + std::to_string(o.overlap),
               "the bf16 kernels have no scales to promote: their wgmma "
               "chain waits for each K block in lock-step");
  if (o.swapAB == GemmKernelOverrides::SwapAB::always)
    notApplied("swap-ab=always", "the bf16 kernels have no swap-AB form");
  return t;
}

std::optional<TransposedMatmulOperand>
mlir::fp8::getTransposedMatmulOperand(Value v) {
  TransposedMatmulOperand t;
  t.truncf = v.getDefiningOp<arith::TruncFOp>();
  Value transposed = t.truncf ? t.truncf.getIn() : v;
  t.transpose = transposed.getDefiningOp<linalg::TransposeOp>();
  if (!t.transpose || !t.transpose.hasPureTensorSemantics())
    return std::nullopt;
  // The swap of the two matrix dimensions only: a batch dimension that
  // moves (attention's [S, H, D] -> [H, S, D]) is not a major of the
  // kernel's [G, *, *] operands.
  ArrayRef<int64_t> perm = t.transpose.getPermutation();
  const int64_t rank = perm.size();
  if (rank < 2)
    return std::nullopt;
  for (int64_t i = 0; i < rank - 2; ++i)
    if (perm[i] != i)
      return std::nullopt;
  if (perm[rank - 2] != rank - 1 || perm[rank - 1] != rank - 2)
    return std::nullopt;
  // The kernel's operands are bf16: the source as it is, or through the
  // conversion the graph applies after the transpose.
  Type elem = cast<ShapedType>(v.getType()).getElementType();
  if (!elem.isBF16() || (t.truncf && !isa<RankedTensorType>(v.getType())))
    return std::nullopt;
  return t;
}

Value mlir::fp8::getPackedMatmulOperand(Value v, bool swapped) {
  if (swapped)
    if (std::optional<TransposedMatmulOperand> t =
            getTransposedMatmulOperand(v))
      return t->transpose.getInput();
  if (auto truncf = v.getDefiningOp<arith::TruncFOp>())
    return truncf.getIn();
  return v;
}

std::optional<HeadViewOperand> mlir::fp8::getHeadViewOperand(Value packed) {
  HeadViewOperand h;
  h.collapse = packed.getDefiningOp<tensor::CollapseShapeOp>();
  if (h.collapse) {
    if (h.collapse.getSrcType().getRank() != 4 ||
        h.collapse.getReassociationIndices() !=
            SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}})
      return std::nullopt;
    h.transpose = h.collapse.getSrc().getDefiningOp<linalg::TransposeOp>();
  } else {
    // The batch of one: [rows, H, cols] -> [H, rows, cols].
    h.transpose = packed.getDefiningOp<linalg::TransposeOp>();
  }
  static constexpr int64_t kBatched[] = {0, 2, 1, 3}, kOne[] = {1, 0, 2};
  ArrayRef<int64_t> headPermutation =
      h.collapse ? ArrayRef<int64_t>(kBatched) : ArrayRef<int64_t>(kOne);
  if (!h.transpose || !h.transpose.hasPureTensorSemantics() ||
      h.transpose.getPermutation() != headPermutation)
    return std::nullopt;
  auto sourceTy = cast<RankedTensorType>(h.transpose.getInput().getType());
  if (!sourceTy.hasStaticShape() || h.heads() < 2)
    return std::nullopt;
  return h;
}

/// The batch of one's permutation back: the [H, M, N] result's only reader
/// a linalg.transpose [1, 0, 2] to [M, H, N] (static, H > 1).
static std::optional<HeadViewResult> getUnbatchedHeadViewResult(Value result) {
  HeadViewResult h;
  h.transpose = dyn_cast<linalg::TransposeOp>(*result.getUsers().begin());
  if (!h.transpose || !h.transpose.hasPureTensorSemantics() ||
      h.transpose.getInput() != result ||
      h.transpose.getPermutation() != ArrayRef<int64_t>{1, 0, 2})
    return std::nullopt;
  if (!cast<ShapedType>(result.getType()).hasStaticShape() || h.heads() < 2)
    return std::nullopt;
  return h;
}

std::optional<HeadViewResult> mlir::fp8::getHeadViewResult(Value result) {
  HeadViewResult h;
  if (!result.hasOneUse())
    return std::nullopt;
  if (std::optional<HeadViewResult> one = getUnbatchedHeadViewResult(result))
    return one;
  h.expand = dyn_cast<tensor::ExpandShapeOp>(*result.getUsers().begin());
  if (!h.expand || h.expand.getResultType().getRank() != 4 ||
      h.expand.getReassociationIndices() !=
          SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}} ||
      !h.expand.getResult().hasOneUse())
    return std::nullopt;
  h.transpose =
      dyn_cast<linalg::TransposeOp>(*h.expand.getResult().getUsers().begin());
  if (!h.transpose || !h.transpose.hasPureTensorSemantics() ||
      h.transpose.getInput() != h.expand.getResult() ||
      h.transpose.getPermutation() != ArrayRef<int64_t>{0, 2, 1, 3})
    return std::nullopt;
  if (!h.expand.getResultType().hasStaticShape() || h.heads() < 2)
    return std::nullopt;
  return h;
}

/// The head view of the bf16 batch kernel's D (`mm`'s result; the kernel
/// without C): written through it where the result's only reader is the
/// permutation back to [B, M, H, N] (getHeadViewResult); kept packed where
/// the kernel refuses the view (`check`).
static void chooseResultHeads(
    linalg::LinalgOp mm, GemmKernelConfig &c,
    llvm::function_ref<StringRef(const GemmKernelConfig &)> check) {
  std::optional<HeadViewResult> h = getHeadViewResult(mm->getResult(0));
  if (!h)
    return;
  GemmKernelConfig chosen = c;
  chosen.dHeads = h->heads();
  if (check(chosen).empty())
    c = chosen;
}

/// The head views of the bf16 batch kernel of `mm` (its majors chosen): an
/// operand whose packed tensor is a head permutation of a [B, rows, H,
/// cols] source is read from the source in place (getHeadViewOperand);
/// kept packed where the kernel refuses the view (`check`).
static void chooseOperandHeads(
    linalg::LinalgOp mm, GemmKernelConfig &c,
    llvm::function_ref<StringRef(const GemmKernelConfig &)> check) {
  GemmKernelConfig chosen = c;
  auto heads = [](Value v, bool swapped) -> int64_t {
    std::optional<HeadViewOperand> h =
        getHeadViewOperand(getPackedMatmulOperand(v, swapped));
    return h ? h->heads() : 1;
  };
  chosen.aHeads = heads(mm.getDpsInputs()[0], chosen.aMNMajor());
  chosen.bHeads = heads(mm.getDpsInputs()[1], !chosen.bMNMajor());
  if (check(chosen).empty())
    c = chosen;
}

/// The majors of the bf16 kernel of `mm` (whose tile `c` holds): an operand
/// that transposes its matrix dimensions is read from its source with the
/// other major (A [K, M] MN-major, B [N, K] K-major), so the transpose
/// needs no kernel; kept at the default where the kernel refuses the major
/// (`check`: an MN-major A needs a static M, a multiple of 8).
static void chooseOperandMajors(
    linalg::LinalgOp mm, GemmKernelConfig &c,
    llvm::function_ref<StringRef(const GemmKernelConfig &)> check) {
  GemmKernelConfig chosen = c;
  if (getTransposedMatmulOperand(mm.getDpsInputs()[0]))
    chosen.aMajor = GemmOperandMajor::mn;
  if (getTransposedMatmulOperand(mm.getDpsInputs()[1]))
    chosen.bMajor = GemmOperandMajor::k;
  if (chosen.aMNMajor() && !check(chosen).empty())
    chosen.aMajor = GemmOperandMajor::k;
  if (check(chosen).empty())
    c = chosen;
}

FailureOr<GemmKernelSpec>
mlir::fp8::getMatmulKernelSpec(Operation *op,
                               const GemmKernelOverrides &overrides,
                               const ChipSpec *model) {
  auto mm = cast<linalg::LinalgOp>(op);
  auto aTy = cast<RankedTensorType>(mm.getDpsInputs()[0].getType());
  auto bTy = cast<RankedTensorType>(mm.getDpsInputs()[1].getType());
  // A batch_matmul [G, M, K] x [G, K, N]: the masked grouping without
  // counts, one group per batch (A, B, C and D per group: rank-3 maps).
  const bool batched = isa<linalg::BatchMatmulOp>(op);
  const int64_t r = batched ? 1 : 0;
  int64_t m = aTy.getDimSize(r), k = aTy.getDimSize(r + 1),
          n = bTy.getDimSize(r + 1);
  if (ShapedType::isDynamic(m))
    m = GemmKernelConfig::kDynamicM;
  GemmKernelSpec spec;
  if (batched) {
    spec.grouping = GemmGrouping::masked;
    spec.numGroups = aTy.getDimSize(0);
  }
  auto check = [&](const GemmKernelConfig &c) -> StringRef {
    return batched ? checkGroupedGemmKernelConfig(c) : checkGemmKernelConfig(c);
  };
  GemmKernelOverrides o = getBF16Overrides(op, overrides);
  // config=auto prices a problem known at compile time: a run-time M or
  // batch count gets the shape's default tile, as the FP8 dynamic-M kernels.
  if (model && !o.any() && m != GemmKernelConfig::kDynamicM &&
      !spec.hasDynamicGroups()) {
    // config=auto: the model's bf16 tile (a batch as G masked groups of M
    // rows, the tile order row-major inside them, as for the FP8 masked
    // kernels).
    applyModelTile(o, chooseGemmConfigByModel(
                          m, n, k, *model, /*blockMDivides=*/0,
                          batched ? spec.numGroups : 1, /*grouped=*/batched,
                          /*bScalesPerColumn=*/false, /*scaleK=*/128,
                          /*kSplits=*/1, GemmOperandType::bf16)
                          .config);
  }
  spec.config = makeGemmKernelConfig(m, n, k, o, /*bScalesPerColumn=*/false,
                                     GemmOperandType::bf16);
  StringRef why = check(spec.config);
  if (!why.empty() && o.any()) {
    // A tile the FP8 kernels may take (block-n=96) but the bf16 kernel
    // does not: the shape's default tile, with a remark.
    const GemmKernelConfig &c = spec.config;
    emitRemark(op->getLoc())
        << "fp8-lower-to-nvvm: the tile options (block-m=" << c.blockM
        << " block-n=" << c.blockN << " stages=" << c.stages
        << " consumers=" << c.consumers << ") are not applied to the bf16 "
        << "kernel of '" << op->getName() << "' (" << why
        << "); it gets the shape's default tile";
    GemmKernelOverrides order;
    order.groupM = o.groupM;
    spec.config =
        makeGemmKernelConfig(m, n, k, order, false, GemmOperandType::bf16);
    why = check(spec.config);
  }
  if (!why.empty()) {
    const GemmKernelConfig &c = spec.config;
    return op->emitOpError("GPU lowering: invalid bf16 kernel configuration "
                           "block-m=")
           << c.blockM << " block-n=" << c.blockN << " stages=" << c.stages
           << " consumers=" << c.consumers << " (" << c.sharedMemoryBytes()
           << " bytes of shared memory): " << why;
  }
  chooseOperandMajors(mm, spec.config, check);
  // A head view splits the batch: G static (a multiple of H, as the
  // source's B x H is) and M static (GemmKernelAttr's verifier).
  if (batched && !spec.hasDynamicGroups() && m != GemmKernelConfig::kDynamicM)
    chooseOperandHeads(mm, spec.config, check);
  Type bf16 = aTy.getElementType();
  spec.aType = bf16;
  spec.bType = bf16;
  spec.resultType =
      cast<ShapedType>(op->getResult(0).getType()).getElementType();
  // An init a constant fill wrote: the kernel starts its accumulators at
  // the constant and takes no C (no fill launch writing M x N x 4 bytes,
  // no C read back); any other init is C.
  spec.accInit = getMatmulAccInit(op);
  if (!spec.accInit)
    spec.accType = spec.resultType;
  // D through a head view: the kernel without C (GemmKernelAttr's
  // verifier: the op's C is its packed init), G and M static as above.
  if (batched && !spec.hasDynamicGroups() && m != GemmKernelConfig::kDynamicM &&
      spec.accInit)
    chooseResultHeads(mm, spec.config, check);
  return spec;
}

// Decided here, on tensors, before bufferization and
// fp8-outline-host-kernels: the init is then the fill's SSA value, so no
// other op can write it between the fill and the matmul, and the fill's
// other readers are its other uses (fp8-launch-kernels keeps the fill for
// them). Once bufferized the fill writes a buffer other ops may write or
// alias, and once outlined it is an opaque launch: the same decision would
// need an alias and ordering analysis of the host program.
FloatAttr mlir::fp8::getMatmulAccInit(Operation *op) {
  Value init = cast<linalg::LinalgOp>(op).getDpsInits()[0];
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.hasPureTensorSemantics())
    return FloatAttr();
  // The scalar as the accumulators hold it: an f32 constant of the init's
  // element type (a fill converting another type is left as C).
  Type elem = cast<ShapedType>(init.getType()).getElementType();
  FloatAttr value;
  if (!elem.isF32() || fill.getInputs()[0].getType() != elem ||
      !matchPattern(fill.getInputs()[0], m_Constant(&value)))
    return FloatAttr();
  return value;
}

std::optional<GroupLayout> mlir::fp8::getGroupLayout(GemmGrouping grouping) {
  switch (grouping) {
  case GemmGrouping::none:
    return std::nullopt;
  case GemmGrouping::masked:
    return GroupLayout::masked;
  case GemmGrouping::contiguous:
    return GroupLayout::contiguous;
  case GemmGrouping::kGrouped:
    return GroupLayout::k_grouped;
  }
  llvm_unreachable("unknown GemmGrouping");
}

GemmGrouping mlir::fp8::getGemmGrouping(std::optional<GroupLayout> layout) {
  if (!layout)
    return GemmGrouping::none;
  switch (*layout) {
  case GroupLayout::masked:
    return GemmGrouping::masked;
  case GroupLayout::contiguous:
    return GemmGrouping::contiguous;
  case GroupLayout::k_grouped:
    return GemmGrouping::kGrouped;
  }
  llvm_unreachable("unknown GroupLayout");
}

KernelModelAttr mlir::fp8::getKernelModelAttr(MLIRContext *ctx,
                                              const GemmKernelSpec &spec,
                                              const ChipSpec &chip) {
  Builder b(ctx);
  const GemmKernelConfig &c = spec.config;
  int64_t ctas = 0;
  FloatAttr us, tflops;
  if (c.m != GemmKernelConfig::kDynamicM && !c.hasDynamicK() &&
      !spec.hasDynamicGroups()) {
    GemmKernelConfig modelled = c;
    // The masked and k-grouped grids: every group's tiles; k-grouped with
    // the tokens shared evenly among the groups (as getGroupedGemmKernelSpec
    // chose).
    if (spec.grouping == GemmGrouping::masked ||
        spec.grouping == GemmGrouping::kGrouped)
      modelled.m = spec.numGroups *
                   GemmKernelConfig::roundUp(modelled.m, modelled.blockM);
    if (spec.grouping == GemmGrouping::kGrouped)
      modelled.k = GemmKernelConfig::ceilDiv(modelled.k, spec.numGroups);
    GemmCost cost = modelGemmCost(modelled, chip);
    ctas = cost.ctas;
    us = b.getF64FloatAttr(cost.us);
    tflops = b.getF64FloatAttr(cost.tflops);
  }
  return KernelModelAttr::get(ctx, b.getStringAttr(chip.name), ctas, us,
                              tflops);
}

GemmKernelAttr mlir::fp8::getGemmKernelAttr(MLIRContext *ctx,
                                            const GemmKernelSpec &spec) {
  GemmKernelProblem p;
  p.a = spec.aType;
  p.b = spec.bType;
  p.d = spec.resultType;
  p.c = spec.accType;
  p.accInit = spec.accInit;
  p.layout = getGroupLayout(spec.grouping);
  p.groups = spec.numGroups;
  p.counts = spec.hasCounts;
  p.swapAB = spec.swapAB;
  p.q = spec.quantizeType;
  p.qEps = spec.quantizeEps;
  p.qPow2 = spec.quantizePow2;
  return GemmKernelAttr::get(ctx, p, spec.config);
}

QuantizeKernelAttr
mlir::fp8::getQuantizeKernelAttr(MLIRContext *ctx,
                                 const QuantizeKernelSpec &spec) {
  Builder b(ctx);
  const QuantizeKernelConfig &c = spec.config;
  // A per-tensor kernel's block is the whole tensor (its config's blocks
  // are the tiles its warps walk).
  return QuantizeKernelAttr::get(
      ctx,
      c.rows == QuantizeKernelConfig::kDynamicRows ? ShapedType::kDynamic
                                                   : c.rows,
      c.cols, c.perTensor ? c.rows : c.blockRows,
      c.perTensor ? c.cols : c.blockCols, spec.inputType, spec.fp8Type,
      spec.e8m0Scale ? Type(b.getType<Float8E8M0FNUType>()) : b.getF32Type(),
      spec.pow2 ? ScaleMode::pow2 : ScaleMode::f32,
      b.getF32FloatAttr(static_cast<float>(spec.eps)),
      spec.transpose ? b.getBoolAttr(true) : BoolAttr(),
      c.perTensor ? b.getBoolAttr(true) : BoolAttr());
}

/// Whether no kernel quantizes into `resTy` (f32 scales, or E8M0 scales of
/// pow2 mode when `e8m0Ok`; satfinite); then `os` says why.
static bool explainNoQuantizeKernel(llvm::raw_ostream &os,
                                    ScaledTensorType resTy, bool saturate,
                                    bool e8m0Ok = false) {
  if (!resTy.getScaleType().isF32() &&
      !(e8m0Ok && isa<Float8E8M0FNUType>(resTy.getScaleType())))
    os << "needs f32 scales"
       << (e8m0Ok ? " (or E8M0 with scale_mode pow2)" : "") << ", got '"
       << resTy.getScaleType() << "'";
  else if (!saturate)
    os << "the hardware conversion cvt.rn.satfinite needs saturate = true";
  else
    return false;
  return true;
}

InFlightDiagnostic mlir::fp8::emitNoKernel(Location loc,
                                           NoKernelReport report) {
  assert(report != NoKernelReport::silent && "nothing to emit");
  return report == NoKernelReport::error ? ::mlir::emitError(loc)
                                         : ::mlir::emitRemark(loc);
}

/// Reports an op that has no kernel as `report` says; nullopt.
static std::optional<QuantizeKernelSpec> reportNoKernel(Operation *op,
                                                        StringRef what,
                                                        StringRef why,
                                                        NoKernelReport report) {
  if (report == NoKernelReport::silent)
    return std::nullopt;
  const bool error = report == NoKernelReport::error;
  // The op and its input name it among the ops of one source line (a
  // linear's two quantizations).
  emitNoKernel(op->getLoc(), report)
      << "fp8-lower-to-nvvm: no GPU " << what << " kernel (" << why
      << "); the op " << (error ? "would stay" : "stays") << " on the host ('"
      << op->getName() << "' of " << op->getOperand(0).getType() << ")"
      << (error ? ", which require-kernels forbids" : "");
  return std::nullopt;
}

/// Why the quantize kernel of `c` cannot index its blocks, empty when it
/// can: the block index (the scale's, QuantizeKernel.cpp) and the block
/// count are signed 32-bit, so a static input needs fewer than 2^31 blocks
/// (2^38 elements and more in 1x128 tiles). A run-time row count is
/// checked at run time (fp8-launch-kernels).
static std::string explainQuantizeTiles(const QuantizeKernelConfig &c) {
  if (c.rows == QuantizeKernelConfig::kDynamicRows ||
      productUpToLimit(c.rowBlocks(), c.colTiles()) < kMaxKernelExtent)
    return "";
  return "needs fewer than 2^31 blocks (its block index is signed 32-bit), "
         "got " +
         std::to_string(c.rowBlocks()) + " x " + std::to_string(c.colTiles());
}

// Quantizing is cheap next to the GEMM, so an unsupported form is not an
// error: the op stays a host op (passes leave what they cannot handle),
// unless the caller runs nothing but kernels (require-kernels).
std::optional<QuantizeKernelSpec>
mlir::fp8::getQuantizeSpec(QuantizeOp op, NoKernelReport report) {
  auto inTy = cast<RankedTensorType>(op.getInput().getType());
  auto resTy = cast<ScaledTensorType>(op.getResult().getType());
  ArrayRef<int64_t> blk = resTy.getBlockShape();
  Type in = inTy.getElementType();
  std::string why = getEmptyProblemReason(op);
  llvm::raw_string_ostream os(why);
  // Rowwise blocks [1, >= cols] (one scale per row): the 1x128 kernel when
  // the row fits one tile, else the whole-row kernel (block_cols = cols).
  const bool rowwise = inTy.getRank() == 2 && !inTy.isDynamicDim(1) &&
                       blk.size() == 2 && blk[0] == 1 &&
                       blk[1] >= inTy.getDimSize(1);
  // MX blocks [1, 32] (mxfp8: E8M0 scales): a warp per block.
  const bool mx = !rowwise && blk.size() == 2 && blk[0] == 1 && blk[1] == 32;
  // Column blocks [128, 1] (Wgrad operands quantized along the tokens):
  // a CTA per 128 x 128 region, a scale per column.
  const bool perColumn = blk.size() == 2 && blk[0] == 128 && blk[1] == 1;
  // One block over the whole tensor (the per-tensor preset): the two-pass
  // per-tensor kernel, for a static row count (its block's); at most
  // 128 x 128 in a [128, 128] block, or at most 128 x 1 in a [128, 1]
  // block, is that kernel's one block.
  const bool perTensor =
      !rowwise && !perColumn && inTy.getRank() == 2 && inTy.hasStaticShape() &&
      blk.size() == 2 && blk[0] >= inTy.getDimSize(0) &&
      blk[1] >= inTy.getDimSize(1) && !(blk[0] == 128 && blk[1] == 128);
  if (!why.empty()) {
    // Nothing to compute: the host lowering builds the empty result.
  } else if (inTy.getRank() != 2 || inTy.isDynamicDim(1))
    os << "needs a rank-2 input with static columns (rows may be dynamic), "
          "got '"
       << inTy << "'";
  else if (!rowwise && !mx && !perColumn && !perTensor &&
           (blk.size() != 2 || blk[1] != 128 ||
            (blk[0] != 1 && blk[0] != 128))) {
    os << "implements blocks [1, 128], [128, 128], [1, 32] (MX), [128, 1] "
          "(per column), [1, cols] (rowwise) and the whole tensor "
          "(per-tensor, static rows), got ["
       << shapeString(blk, ", ") << "]";
  } else if (explainNoQuantizeKernel(os, resTy, op.getSaturate(),
                                     /*e8m0Ok=*/op.getScaleMode() ==
                                         ScaleMode::pow2)) {
    // `why` says it.
  } else if (!in.isF32() && !in.isBF16())
    os << "needs an f32 or bf16 input, got '" << in << "'";
  else if (inTy.getDimSize(1) >= kMaxKernelExtent ||
           (!inTy.isDynamicDim(0) && inTy.getDimSize(0) >= kMaxKernelExtent))
    os << "needs fewer than 2^31 rows and columns (its coordinates and row "
          "count are signed 32-bit), got '"
       << inTy << "'";
  if (!why.empty())
    return reportNoKernel(op, "quantize", why, report);
  QuantizeKernelSpec spec;
  spec.config = makeQuantizeKernelConfig(
      inTy.isDynamicDim(0) ? QuantizeKernelConfig::kDynamicRows
                           : inTy.getDimSize(0),
      inTy.getDimSize(1), blk[0],
      mx          ? 32
      : perColumn ? 1
      : rowwise && inTy.getDimSize(1) > QuantizeKernelConfig::kBlockCols
          ? inTy.getDimSize(1)
          : QuantizeKernelConfig::kBlockCols);
  if (perTensor)
    spec.config = makePerTensorQuantizeKernelConfig(inTy.getDimSize(0),
                                                    inTy.getDimSize(1));
  if (std::string many = explainQuantizeTiles(spec.config); !many.empty())
    return reportNoKernel(op, "quantize", many, report);
  spec.inputType = in;
  spec.fp8Type = resTy.getElementType();
  spec.eps = op.getEps().convertToDouble();
  spec.pow2 = op.getScaleMode() == ScaleMode::pow2;
  spec.e8m0Scale = isa<Float8E8M0FNUType>(resTy.getScaleType());
  return spec;
}

// The transpose-requantize of a training graph's Wgrad operands
// (docs/training.md): [T, F] codes in 1x128 tiles along F -> [F, T] in 1x128
// tiles along T. Other forms stay host ops, as for fp8.quantize.
std::optional<QuantizeKernelSpec>
mlir::fp8::getRequantizeSpec(RequantizeOp op, NoKernelReport report) {
  auto inTy = cast<ScaledTensorType>(op.getInput().getType());
  auto resTy = cast<ScaledTensorType>(op.getResult().getType());
  std::optional<ArrayRef<int64_t>> perm = op.getPermutation();
  ArrayRef<int64_t> shape = inTy.getShape();
  auto isTile = [](ScaledTensorType t) {
    ArrayRef<int64_t> blk = t.getBlockShape();
    return blk.size() == 2 && blk[0] == 1 && blk[1] == 128;
  };
  std::string why = getEmptyProblemReason(op);
  llvm::raw_string_ostream os(why);
  if (!why.empty()) {
    // Nothing to compute: the host lowering builds the empty result.
  } else if (shape.size() != 2 || ShapedType::isDynamicShape(shape))
    os << "needs a static rank-2 input, got " << inTy;
  else if (!perm || *perm != ArrayRef<int64_t>{1, 0})
    os << "implements the transpose (permutation [1, 0]) only";
  else if (!isTile(inTy) || !isTile(resTy))
    os << "implements [1, 128] tiles in and out, got " << inTy << " -> "
       << resTy;
  else if (!inTy.getScaleType().isF32() &&
           !isa<Float8E8M0FNUType>(inTy.getScaleType()))
    os << "needs f32 or E8M0 input scales, got '" << inTy.getScaleType() << "'";
  else if (explainNoQuantizeKernel(os, resTy, op.getSaturate(),
                                   /*e8m0Ok=*/op.getScaleMode() ==
                                       ScaleMode::pow2)) {
    // `why` says it.
  } else if (shape[0] >= kMaxKernelExtent || shape[1] >= kMaxKernelExtent)
    os << "needs fewer than 2^31 rows and columns, got " << inTy;
  if (!why.empty())
    return reportNoKernel(op, "requantize", why, report);
  QuantizeKernelSpec spec;
  // The output [F, T]: rows are the input's columns.
  spec.config = makeQuantizeKernelConfig(shape[1], shape[0], /*blockRows=*/1);
  if (std::string many = explainQuantizeTiles(spec.config); !many.empty())
    return reportNoKernel(op, "requantize", many, report);
  spec.inputType = inTy.getElementType();
  spec.fp8Type = resTy.getElementType();
  spec.eps = op.getEps().convertToDouble();
  spec.pow2 = op.getScaleMode() == ScaleMode::pow2;
  spec.transpose = true;
  // E8M0 input scales reach the kernel widened to f32 (the launcher);
  // E8M0 output scales are stored as bytes, as by the quantize kernel.
  spec.e8m0Scale = isa<Float8E8M0FNUType>(resTy.getScaleType());
  return spec;
}
