//===- GemmEpilogue.h - the GEMM kernel's epilogues -------------*- C++ -*-===//
//
// The epilogue is what a consumer warpgroup does with its tile's FP32
// accumulators after the last K block: store D (StoreEpilogue), or store
// D's 1x128-tile FP8 codes and scales (QuantizeEpilogue). One
// implementation per form, chosen once by the driver (Epilogue::create)
// from the configuration; each owns its output parameters, so a new form
// (a TMA store of D from shared memory, with a tensor map of D in place of
// its pointer) is a subclass here, its parameters declared by the hooks
// below, without a flag in the driver or the consumers.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMMEPILOGUE_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMMEPILOGUE_H

#include "GemmEmitter.h"

#include <memory>
#include <optional>

namespace mlir {
namespace fp8 {
namespace gemm {

/// What the consumers store of a tile, and the kernel parameters it needs.
class Epilogue : protected GemmStrategy {
public:
  virtual ~Epilogue() = default;
  /// The epilogue of `e`'s configuration (cfg.quantizeEpilogue).
  static std::unique_ptr<Epilogue> create(GemmEmitter &e);

  /// Binds the output parameter, the kernel's fifth (D's pointer).
  virtual void bindOutput(Value d) = 0;
  /// The parameters the epilogue adds at the end of the signature, and
  /// their binding (called after the other parameters are bound).
  virtual void appendParameterTypes(SmallVectorImpl<Type> &types) {}
  virtual void bindTrailingParameters(Block *entry) {}
  /// The tile's stores: the accumulators are kLoop's results 1..accRegs.
  virtual void emit(const ConsumerThread &thr, const ConsumerTile &ct,
                    scf::ForOp kLoop) = 0;

protected:
  explicit Epilogue(GemmEmitter &e) : GemmStrategy(e) {}
};

/// D converted to its element type, stored from the registers, masked to
/// [M, N]; a grouped kernel's rows without a result as +0.0
/// (GemmEpilogue.cpp).
class StoreEpilogue : public Epilogue {
public:
  explicit StoreEpilogue(GemmEmitter &e) : Epilogue(e) {}
  void bindOutput(Value d) override;
  void emit(const ConsumerThread &thr, const ConsumerTile &ct,
            scf::ForOp kLoop) override;

protected:
  /// The stores of the thread's accRegs values `acc` (fragment order).
  void emitStores(const ConsumerTile &ct, ValueRange acc);

private:
  Value dPtr;
};

/// Split-K (cfg.kSplits > 1, GemmEpilogue.cpp): the unit's accumulators
/// stored as an f32 partial tile in the workspace, then D stored by the
/// thread that arrives last, from the S partials of its registers added in
/// split order. Parameters: the workspace and the counters after the
/// others (GemmKernelConfig.h's ABI).
class SplitKEpilogue final : public StoreEpilogue {
public:
  explicit SplitKEpilogue(GemmEmitter &e) : StoreEpilogue(e) {}
  void appendParameterTypes(SmallVectorImpl<Type> &types) override;
  void bindTrailingParameters(Block *entry) override;
  void emit(const ConsumerThread &thr, const ConsumerTile &ct,
            scf::ForOp kLoop) override;

private:
  /// The element of register `r` of this thread in split `split`'s partial
  /// tile of the tile `local` (i64 index into the workspace).
  Value partialIndex(Value split, Value local, int64_t r);
  /// Its address (a global f32 pointer).
  Value partialAddress(Value split, Value local, int64_t r);

  Value workspacePtr, countersPtr;
};

/// The TMA store's sequence around a consumer warpgroup's writes of its
/// staging buffer (GemmKernelConfig::tmaStore, dStagingOffset): what the
/// store epilogue's TMA store and the quantize epilogue's share
/// (GemmEpilogue.cpp). begin() before the writes: thread 0 of the
/// warpgroup waits until its previous tile's store has read the buffer
/// (cp.async.bulk.wait_group.read 0), then the warpgroup's named barrier.
/// finish() after them: each writer's fence.proxy.async (the writes are
/// the generic proxy's, the TMA store the async proxy's), the barrier,
/// thread 0's cp.async.bulk.tensor of each box (64 rows x 128 bytes) and
/// its commit_group, and after the CTA's last tile its wait (a CTA must not
/// exit while a bulk store reads its shared memory).
class TmaStoreStaging : protected GemmStrategy {
public:
  explicit TmaStoreStaging(GemmEmitter &e) : GemmStrategy(e) {}
  /// The warpgroup's staging buffer (a byte offset into the dynamic shared
  /// memory), free for the writes.
  Value begin();
  /// The stores of the buffer's consumerN() / boxCols boxes of boxCols
  /// columns each through `tmap` (coordinates: the warpgroup's first row
  /// and column of the tile).
  void finish(const ConsumerThread &thr, const ConsumerTile &ct, Value tmap,
              int64_t boxCols, scf::ForOp kLoop);

private:
  /// Thread 0 waits until its committed TMA stores have read their source.
  void emitWaitRead();
  /// Named barrier 1 + wg over the warpgroup's 128 threads (as the B-scale
  /// staging's, which the same threads pass in the same order).
  void emitWarpgroupBarrier();

  Value elected, buf;
};

/// D rounded to its element type, quantized in 1x128 tiles along N: the
/// codes (in place of D) and the scales, a parameter after the others
/// (GemmQuantizeEpilogue.cpp). With the TMA store the codes go through the
/// staging buffer (TmaStoreStaging) and D's parameter is their tensor map.
class QuantizeEpilogue final : public Epilogue {
public:
  explicit QuantizeEpilogue(GemmEmitter &e) : Epilogue(e) {
    if (cfg.tmaStore)
      staging.emplace(e);
  }
  void bindOutput(Value d) override;
  void appendParameterTypes(SmallVectorImpl<Type> &types) override;
  void bindTrailingParameters(Block *entry) override;
  void emit(const ConsumerThread &thr, const ConsumerTile &ct,
            scf::ForOp kLoop) override;

private:
  /// The amax of row slot `slot` over 128-column tile `t` of the
  /// warpgroup's columns: this thread's 32 values `v`, then the quad's.
  Value emitTileAmax(const ConsumerTile &ct, ArrayRef<Value> v, int64_t slot,
                     int64_t t);
  /// The codes of tile `t` of row slot `slot` (scale `s`), stored.
  void emitTileCodes(const ConsumerTile &ct, ArrayRef<Value> v, int64_t slot,
                     int64_t t, Value s, Value rowOffset, Value rowOk);
  /// The code pair `packed` of register pair `r` (row slot `slot`) written
  /// into the staging buffer `buf` at its 128B-swizzled place.
  void emitStagedPair(const ConsumerThread &thr, Value buf, int64_t r,
                      int64_t slot, Value packed);

  /// codes: the codes' pointer, or with the TMA store their tensor map.
  Value codes, scalesPtr;
  std::optional<TmaStoreStaging> staging;
  /// Set while emit() runs with the TMA store: the thread and its buffer.
  const ConsumerThread *stagingThread = nullptr;
  Value stagingBuf;
};

} // namespace gemm
} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMMEPILOGUE_H
