//===- GemmTileScheduler.h - the GEMM kernel's tile schedulers --*- C++ -*-===//
//
// The tile scheduler is what the kernel's grouping (GemmGrouping) changes:
// which tiles the persistent loop walks, a tile's group, the K blocks it
// runs, its group's offsets in the operands and the rows of D that hold no
// result. One implementation per form, chosen once by the driver
// (TileScheduler::create); the producer, the consumers and the epilogue ask
// it instead of testing the form, and it owns the values only it needs
// (the group argument, the tile counts). A new form (split-K) is a
// subclass here, not a flag in every piece.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMMTILESCHEDULER_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMMTILESCHEDULER_H

#include "GemmEmitter.h"

#include <memory>

namespace mlir {
namespace fp8 {
namespace gemm {

/// The persistent tile loop and what the grouping decides of a tile. The
/// defaults are the dense GEMM's (DenseScheduler): every tile runs every K
/// block of one [M, K] x [N, K]^T problem.
class TileScheduler : protected GemmStrategy {
public:
  virtual ~TileScheduler() = default;
  /// The scheduler of `e`'s spec.grouping.
  static std::unique_ptr<TileScheduler> create(GemmEmitter &e);

  /// Whether the kernel takes the group argument: an i32 pointer after C
  /// (masked: the counts, when present; contiguous: the per-row group
  /// index; k-grouped: the per-token group ids).
  virtual bool takesGroupArgument() const { return false; }
  /// The group argument, cast to global memory.
  void bindGroupArgument(Value ptr) { groupPtr = ptr; }

  /// M (GemmEmitter::mRows) and the tile count of the grid: constants, or
  /// computed from the run-time M by a dynamic-M kernel and from the
  /// run-time group count `runtimeGroups` (non-null: the bf16 batch kernel
  /// of a run-time G) by a group-major one.
  void emitTileCount(Value runtimeM, Value runtimeGroups = Value());
  /// The tile rows of the grouped tile order (groupM > 1).
  void emitTileOrder();
  /// The persistent loop over the tiles of this CTA, one iter_arg (the ring
  /// iteration), its body the insertion point.
  scf::ForOp emitTileLoop();
  /// Tile index -> the tile (its group, rows, columns, K blocks).
  Tile tileOf(Value tile);
  /// The K blocks a tile runs (the trip count of its K loop).
  virtual Value kBlocksOf(const Tile &t);
  /// The K block in the operands of iteration `kBlock` of the tile's K loop.
  virtual Value kBlockOf(const Tile &t, Value kBlock) { return kBlock; }

  /// Whether A and its scales have the group outermost (3-D tensor maps
  /// [G, M, K], [G, KB, M]), and B ([G, N, K]).
  virtual bool aPerGroup() const { return false; }
  virtual bool bPerGroup() const { return false; }
  /// The first row of the tile's group in C and D ([G, M, N]: g * M; a
  /// head view's [B, M, H, N]: (g / H) x M x H + g % H), or null where C
  /// and D are one [M, N] matrix.
  virtual Value groupRowOffset(const Tile &t) { return Value(); }
  /// The first B scale of the tile's group ([G, ceil(N / 128), KB]), or
  /// null.
  virtual Value bScaleGroupOffset(const Tile &t) { return Value(); }
  /// Whether row `row` (of the tile's group) holds a result; the epilogue
  /// stores +0.0 in the others. Null: every row below M does.
  virtual Value emitRowValid(const Tile &t, Value row) { return Value(); }
  /// Whether the tile's accumulators start from C (else from +0.0); null:
  /// always (split-K: split 0 only).
  virtual Value emitStartsFromC(const Tile &t) { return Value(); }

protected:
  explicit TileScheduler(GemmEmitter &e) : GemmStrategy(e) {}
  /// Whether the grid is group-major: the tiles of one group times the
  /// group count, a tile's group its index / the tiles of a group.
  virtual bool groupMajor() const { return false; }
  /// The groups of a group-major grid.
  virtual int64_t majorGroups() const { return spec.numGroups; }
  /// What the form derives of a tile after its rows and columns (its
  /// group, whether it has rows, its K blocks).
  virtual void emitTileGroup(Tile &t) {}
  /// An i32 of the group argument (counts, group indices or ids).
  Value loadGroupI32(Value index);

  Value groupPtr;
  /// The tiles the persistent loop walks (cluster tiles in a cluster), of
  /// one group of a group-major grid, and the tile rows of their order.
  Value tiles, groupTiles, mTiles;

private:
  /// Tile -> (tile row, tile column), row-major or grouped order.
  std::pair<Value, Value> tileCoords(Value tile);
};

/// One [M, K] x [N, K]^T GEMM: the defaults.
class DenseScheduler final : public TileScheduler {
public:
  explicit DenseScheduler(GemmEmitter &e) : TileScheduler(e) {}
};

/// The grouped MoE forms whose B is [G, N, K] with its scales per group
/// (GemmGroupedScheduler.cpp); a tile may hold no rows of its group
/// (`Tile::active`), and runs no K block then.
class GroupedScheduler : public TileScheduler {
public:
  Value kBlocksOf(const Tile &t) override;
  bool bPerGroup() const override { return true; }
  Value bScaleGroupOffset(const Tile &t) override;

protected:
  explicit GroupedScheduler(GemmEmitter &e);
};

/// Masked: A [G, M, K], D [G, M, N], group-major; with the counts operand,
/// rows >= counts[g] hold no result. With bf16 operands (no counts) the
/// batch kernel of a linalg.batch_matmul: B [G, K, N], no B scales.
class MaskedScheduler final : public GroupedScheduler {
public:
  explicit MaskedScheduler(GemmEmitter &e) : GroupedScheduler(e) {}
  bool takesGroupArgument() const override { return spec.hasCounts; }
  bool aPerGroup() const override { return true; }
  Value groupRowOffset(const Tile &t) override;
  Value emitRowValid(const Tile &t, Value row) override;

protected:
  bool groupMajor() const override { return true; }
  void emitTileGroup(Tile &t) override;
};

/// Contiguous: A [M, K], D [M, N]; row r's group is groupIdx[r], a tile's
/// the group of its first row (-1 or outside [0, G): padding, no result).
class ContiguousScheduler final : public GroupedScheduler {
public:
  explicit ContiguousScheduler(GemmEmitter &e) : GroupedScheduler(e) {}
  bool takesGroupArgument() const override { return true; }
  Value emitRowValid(const Tile &t, Value row) override;

protected:
  void emitTileGroup(Tile &t) override;
};

/// Split-K (cfg.kSplits = S > 1, GemmSplitKScheduler.cpp): A [M, K], D
/// [M, N], the grid split-major (S x tiles work units); unit (s, tile)
/// runs split s's K blocks (KSplit.h). The partial tiles and their
/// reduction are the epilogue's (SplitKEpilogue, GemmEpilogue.h).
class SplitKScheduler final : public TileScheduler {
public:
  explicit SplitKScheduler(GemmEmitter &e) : TileScheduler(e) {}
  Value kBlocksOf(const Tile &t) override { return t.kCount; }
  Value kBlockOf(const Tile &t, Value kBlock) override {
    return ir.add(t.kFirst, kBlock);
  }
  Value emitStartsFromC(const Tile &t) override;

protected:
  bool groupMajor() const override { return true; }
  int64_t majorGroups() const override { return cfg.kSplits; }
  void emitTileGroup(Tile &t) override;
};

/// k-grouped, the MoE Wgrad (GemmKGroupedScheduler.cpp): A [M, T], B
/// [N, T], D [G, M, N], group-major; group g's tokens are one run of K
/// blocks, found by a scan of the per-token group ids.
class KGroupedScheduler final : public TileScheduler {
public:
  explicit KGroupedScheduler(GemmEmitter &e);
  bool takesGroupArgument() const override { return true; }
  Value kBlocksOf(const Tile &t) override;
  Value kBlockOf(const Tile &t, Value kBlock) override;
  Value groupRowOffset(const Tile &t) override;

protected:
  bool groupMajor() const override;
  void emitTileGroup(Tile &t) override;
};

} // namespace gemm
} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMMTILESCHEDULER_H
