//===- GemmKernelOptions.h - GEMM options of fp8-lower-to-nvvm -*- C++ -*-===//
//
// The options that choose fp8-lower-to-nvvm's GEMM kernels (config, device,
// the tile, the tile order, clusters, the promotion schedule, swap-AB, the
// quantize epilogue, the store of D) and require-kernels, declared once for
// the pass (`fp8-lower-to-nvvm{block-m=128}`) and for fp8-gpu-pipeline
// (`fp8-gpu-pipeline{block-m=128}`), which forwards them to its
// fp8-lower-to-nvvm (copyFrom), with their parsing into the
// GemmKernelOverrides beside them (select). A new option is declared,
// copied and parsed here, and nowhere else.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_CONVERSION_FP8TONVVM_GEMMKERNELOPTIONS_H
#define FP8_CONVERSION_FP8TONVVM_GEMMKERNELOPTIONS_H

#include "fp8/Target/Hopper/GemmCostModel.h"
#include "fp8/Target/Hopper/GemmKernelConfig.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include "llvm/ADT/STLExtras.h"

#include <string>

namespace mlir {
namespace fp8 {

/// What the GEMM kernel options select (GemmKernelOptions::select).
struct GemmKernelSelection {
  /// The tile, tile order, clusters, promotion, swap-AB and quantize
  /// epilogue the options fix.
  GemmKernelOverrides overrides;
  /// The chip the cost model describes (`device`): under config=auto it
  /// chooses the kernels for it, and every GEMM kernel records its modelled
  /// figures on it.
  const ChipSpec *modelChip = nullptr;
  /// config=auto: the cost model chooses what no option fixes.
  bool autoConfig = true;
  /// An op that would stay on the host is an error, not a remark.
  bool requireKernels = false;
};

/// The GEMM kernel options of an `Owner` that declares its options with
/// `Owner::Option<T>(Owner &, ...)`: a pass (mlir::Pass, whose options its
/// textual form `fp8-lower-to-nvvm{...}` sets and `--help` lists) or a
/// pipeline's options (detail::PassOptions). A member of either, built
/// from it: `GemmKernelOptions<Pass> gemmOptions{*this};`.
template <typename Owner> class GemmKernelOptions {
  template <typename T> using Option = typename Owner::template Option<T>;

  /// Where the options below register (declared first: they use it).
  Owner &owner;

public:
  explicit GemmKernelOptions(Owner &owner) : owner(owner) {}
  GemmKernelOptions(const GemmKernelOptions &) = delete;
  GemmKernelOptions &operator=(const GemmKernelOptions &) = delete;

  Option<std::string> config{
      owner, "config",
      llvm::cl::desc(
          "GEMM kernel configuration when no block-m/block-n/stages/"
          "consumers option is given: auto (the cost model of "
          "docs/gpu-kernel.md chooses per shape for `device`; a dynamic M "
          "keeps the default) or fixed (128x128 tiles, 64x128 for M <= 64, "
          "stages as fit)"),
      llvm::cl::init("auto")};
  Option<std::string> device{
      owner, "device",
      llvm::cl::desc("The chip the GEMM cost model describes: h200 or "
                     "h100-sxm (132 SMs; the kernels' #fp8.gemm_kernel "
                     "records it)"),
      llvm::cl::init("h200")};
  Option<int64_t> blockM{
      owner, "block-m",
      llvm::cl::desc("GEMM CTA tile rows: 64, 128, 192 or 256, 64 per "
                     "consumer warpgroup (0: the shape's default, 64 for M "
                     "<= 64 else 128)"),
      llvm::cl::init(0)};
  Option<int64_t> blockN{
      owner, "block-n",
      llvm::cl::desc("GEMM CTA tile columns: a multiple of 8 in 16..256 (0: "
                     "128)"),
      llvm::cl::init(0)};
  Option<int64_t> stages{
      owner, "stages",
      llvm::cl::desc("GEMM shared-memory ring depth, 1..64 (0: as many as "
                     "fit the 227 KB, at most 8)"),
      llvm::cl::init(0)};
  Option<int64_t> consumers{
      owner, "consumers",
      llvm::cl::desc("GEMM consumer warpgroups, 1..4: block-m / 64 times the "
                     "column splits (0: block-m / 64, doubled when block-n is "
                     "too wide for one consumer per 64 rows)"),
      llvm::cl::init(0)};
  Option<int64_t> groupM{
      owner, "group-m",
      llvm::cl::desc("GEMM tile order: rows of tiles per group of the "
                     "grouped (swizzled) order, 1..4096, 1 = row-major (0: "
                     "the cost model's choice when it chooses the tiles, else "
                     "row-major)"),
      llvm::cl::init(0)};
  Option<int64_t> cluster{
      owner, "cluster",
      llvm::cl::desc("GEMM clusters: 1 or 2 CTAs per cluster, the CTAs of a "
                     "cluster computing vertically adjacent tiles and sharing "
                     "the B tile by TMA multicast, 2-D kernels only (0: 1; "
                     "the cost model does not choose clusters)"),
      llvm::cl::init(0)};
  Option<int64_t> waves{
      owner, "waves",
      llvm::cl::desc(
          "GEMM m64 waves per consumer warpgroup: 1, or 2 (each consumer "
          "computes 128 rows as two waves of 64 that reuse one wgmma "
          "partial set, wave 0's chain, wait and promotion before wave "
          "1's: block-m 256 on two consumers, at most 144 columns per "
          "consumer; the 2-D FP8 kernel with 128 x 128 B blocks, the "
          "lock-step promotion and store=global). 0: 1. Like a tile option "
          "it keeps the cost model from choosing the tile"),
      llvm::cl::init(0)};
  Option<std::string> promotionSchedule{
      owner, "promotion-schedule",
      llvm::cl::desc(
          "GEMM promotion schedule: auto (the cost model's choice when it "
          "chooses the tiles, else lockstep), lockstep (wgmma.wait_group "
          "0, then the FFMAs), overlap4 or overlap8 (block k promoted "
          "while block k + 1's wgmma runs, the K loop unrolled by 4 or 8 "
          "blocks per trip; 128 x 128 B blocks, block-m 128, at most 128 "
          "columns per consumer by 8, 64 by 4); an explicit schedule, like "
          "a tile option, keeps the cost model from choosing the tile"),
      llvm::cl::init("auto")};
  Option<std::string> swapAB{
      owner, "swap-ab",
      llvm::cl::desc("Swap-AB (D^T = B A^T) for a static M <= 64 in the "
                     "DeepSeek-V3 blocks with f32 scales: auto (the cost "
                     "model decides under config=auto without tile options; "
                     "never under config=fixed), always, never"),
      llvm::cl::init("auto")};
  Option<bool> quantizeEpilogue{
      owner, "quantize-epilogue",
      llvm::cl::desc("Fuse the fp8.quantize into [1, 128] tiles (f32 "
                     "scales, saturating) that is a GEMM result's only user "
                     "into the GEMM kernel's epilogue, where the tile allows "
                     "one"),
      llvm::cl::init(true)};
  Option<std::string> store{
      owner, "store",
      llvm::cl::desc(
          "How the GEMM kernels store D: global (st.global from the "
          "registers) or tma (through a 128B-swizzled staging buffer in "
          "shared memory and cp.async.bulk.tensor, overlapping the next "
          "tile's main loop: 2-D kernels with block-n / splits a multiple "
          "of 64 and N a multiple of 8; a GEMM that gets the quantize "
          "epilogue keeps it and stores its FP8 codes so where N is a "
          "multiple of 16, else on st.global with a remark naming why; "
          "the 1x128 scales stay on st.global). tma, like a tile option, "
          "keeps the cost model from choosing the tile (it is not offered "
          "under config=auto: untimed)"),
      llvm::cl::init("global")};
  Option<bool> requireKernels{
      owner, "require-kernels",
      llvm::cl::desc("Every fp8.scaled_matmul, fp8.grouped_scaled_matmul, "
                     "fp8.quantize and fp8.requantize must get a kernel: an "
                     "op that would stay on the host (no kernel implements "
                     "its form, or its problem is empty) is an error and the "
                     "pass fails, instead of a remark"),
      llvm::cl::init(false)};

  /// Sets every option above to `other`'s value (fp8-gpu-pipeline's to its
  /// fp8-lower-to-nvvm's).
  template <typename OtherOwner>
  void copyFrom(const GemmKernelOptions<OtherOwner> &other) {
    config = other.config;
    device = other.device;
    blockM = other.blockM;
    blockN = other.blockN;
    stages = other.stages;
    consumers = other.consumers;
    groupM = other.groupM;
    cluster = other.cluster;
    waves = other.waves;
    promotionSchedule = other.promotionSchedule;
    swapAB = other.swapAB;
    quantizeEpilogue = other.quantizeEpilogue;
    store = other.store;
    requireKernels = other.requireKernels;
  }

  /// The options' selection, or an error at `loc` naming `pass`, the option
  /// and the values it takes. Each option's own range is checked here; the
  /// combination (shared memory, registers) per kernel, where the shape is
  /// known.
  FailureOr<GemmKernelSelection> select(Location loc, StringRef pass) const {
    GemmKernelSelection s;
    GemmKernelOverrides &o = s.overrides;
    if (failed(checkTile(loc, pass)))
      return failure();
    o.blockM = blockM;
    o.blockN = blockN;
    o.stages = stages;
    o.consumers = consumers;
    o.groupM = groupM;
    o.cluster = cluster;
    o.waves = waves;
    o.quantizeEpilogue = quantizeEpilogue;
    if (failed(parsePromotionSchedule(loc, pass, o.overlap)) ||
        failed(parseSwapAB(loc, pass, o.swapAB)))
      return failure();
    StringRef storeName = store;
    if (storeName != "global" && storeName != "tma")
      return emitError(loc) << pass << ": option store='" << storeName
                            << "' is invalid (expected global or tma)";
    o.tmaStore = storeName == "tma";
    // The swapped kernel's B is the activation, which no cluster shares
    // (#fp8.gemm_kernel's verifier): a cluster would be dropped silently.
    if (cluster > 1 && o.swapAB == GemmKernelOverrides::SwapAB::always)
      return emitError(loc)
             << pass << ": options cluster=" << static_cast<int64_t>(cluster)
             << " and swap-ab=always contradict: a swap-AB kernel has no "
                "cluster (the CTAs of a cluster share the B tile, and the "
                "swapped kernel's B is the activation); give cluster=0 or 1 "
                "with swap-ab=always, or swap-ab=auto or never with cluster="
             << static_cast<int64_t>(cluster);
    s.modelChip = lookupChip(device);
    if (!s.modelChip)
      return emitError(loc)
             << pass << ": option device='" << device
             << "' is unknown: expected one of " << knownChipNames();
    StringRef configName = config;
    if (configName != "auto" && configName != "fixed")
      return emitError(loc) << pass << ": option config='" << configName
                            << "' is invalid: expected auto (the cost model "
                               "chooses per shape) or fixed (the shape's "
                               "default: 128x128, 64x128 for M <= 64)";
    s.autoConfig = configName == "auto";
    s.requireKernels = requireKernels;
    return s;
  }

private:
  /// The values each tile option can take on its own.
  LogicalResult checkTile(Location loc, StringRef pass) const {
    auto bad = [&](StringRef name, int64_t value) {
      return emitError(loc) << pass << ": option " << name << "=" << value
                            << " is invalid: expected ";
    };
    if (blockM != 0 && !llvm::is_contained({64, 128, 192, 256}, blockM))
      return bad("block-m", blockM)
             << "0 (the shape's default) or 64, 128, 192, 256 (64 rows per "
                "consumer warpgroup, wgmma m64)";
    if (blockN != 0 && (blockN < 16 || blockN > 256 || blockN % 8 != 0))
      return bad("block-n", blockN)
             << "0 (128) or a multiple of 8 in 16..256 (wgmma .m64nNk32 "
                "with e4m3/e5m2 operands)";
    if (stages < 0 || stages > 64)
      return bad("stages", stages)
             << "0 (as many as fit) or 1..64 (the mbarrier area)";
    if (consumers < 0 || consumers > 4)
      return bad("consumers", consumers)
             << "0 (block-m / 64) or 1..4 consumer warpgroups";
    if (waves < 0 || waves > 2)
      return bad("waves", waves)
             << "0 or 1 (one m64 wave per consumer warpgroup) or 2 (128 "
                "rows per consumer as two m64 waves)";
    const int64_t rowsPerConsumer = waves == 2 ? 128 : 64;
    if (waves == 2 && blockM != 0 && blockM % 128 != 0)
      return emitError(loc)
             << pass << ": options block-m=" << static_cast<int64_t>(blockM)
             << " and waves=2 disagree: each consumer warpgroup computes "
                "128 rows as two m64 waves (block-m 128 or 256)";
    if (blockM != 0 && consumers != 0 &&
        consumers % (blockM / rowsPerConsumer) != 0)
      return emitError(loc)
             << pass << ": options block-m=" << static_cast<int64_t>(blockM)
             << " and consumers=" << static_cast<int64_t>(consumers)
             << " disagree: each consumer warpgroup computes "
             << rowsPerConsumer << " rows (consumers = block-m / "
             << rowsPerConsumer << " times the column splits)";
    if (groupM < 0 || groupM > 4096)
      return bad("group-m", groupM)
             << "0 (the cost model's choice under config=auto, else 1) or "
                "1..4096 rows of tiles per group (1: row-major)";
    if (cluster < 0 || cluster > 2)
      return bad("cluster", cluster)
             << "0 (no clusters: the cost model does not choose them), 1 or "
                "2 CTAs per cluster sharing the B tile by TMA multicast";
    return success();
  }

  /// promotion-schedule as GemmKernelOverrides::overlap.
  LogicalResult parsePromotionSchedule(Location loc, StringRef pass,
                                       int64_t &overlap) const {
    StringRef schedule = promotionSchedule;
    overlap = GemmKernelOverrides::kOverlapUnset;
    if (schedule == "lockstep")
      overlap = 0;
    else if (schedule == "overlap4")
      overlap = 4;
    else if (schedule == "overlap8")
      overlap = 8;
    else if (schedule != "auto")
      return emitError(loc)
             << pass << ": option promotion-schedule='" << schedule
             << "' is invalid (expected auto, lockstep, "
                "overlap4 or overlap8)";
    return success();
  }

  /// swap-ab as GemmKernelOverrides::SwapAB.
  LogicalResult parseSwapAB(Location loc, StringRef pass,
                            GemmKernelOverrides::SwapAB &swap) const {
    using SwapAB = GemmKernelOverrides::SwapAB;
    StringRef value = swapAB;
    if (value == "auto")
      swap = SwapAB::model;
    else if (value == "always")
      swap = SwapAB::always;
    else if (value == "never")
      swap = SwapAB::never;
    else
      return emitError(loc) << pass << ": option swap-ab='" << value
                            << "' is invalid (expected auto, always or never)";
    return success();
  }
};

} // namespace fp8
} // namespace mlir

#endif // FP8_CONVERSION_FP8TONVVM_GEMMKERNELOPTIONS_H
