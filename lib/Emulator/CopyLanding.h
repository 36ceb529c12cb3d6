//===- CopyLanding.h - when a CTA's asynchronous copies land ----*- C++ -*-===//
//
// A TMA copy (cp.async.bulk.tensor) completes at a moment its issuer cannot
// know; only the mbarrier it signals orders it with the threads that wait
// there. An emulator that lands copies soon after their issue certifies
// kernels that read the destination without waiting (the consumers' wgmma
// needs 128 threads to arrive, so a prompt copy is always there first). So
// the scheduler lands a seeded share of the copies adversarially late: a
// late copy lands only when no thread of the CTA can run, after everything
// the threads can do without it; a missing or early wait then reads
// uninitialised or stale shared memory (a fault or a mismatch), and a
// producer that does not wait for a free slot arrives twice on a full
// barrier whose phase is still open (a fault). The other copies land at
// random moments, so races of a copy landing too early (over a slot a wgmma
// still reads) stay reachable. Internal to lib/Emulator.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_EMULATOR_COPYLANDING_H
#define FP8_LIB_EMULATOR_COPYLANDING_H

#include "fp8/Emulator/Emulator.h"

#include <random>

namespace mlir::fp8::emu {

class CopyLandingPolicy {
public:
  /// One per CTA: under CopyLanding::Seeded the seed chooses whether every
  /// copy of the CTA is late or each one by a coin flip.
  CopyLandingPolicy(CopyLanding mode, std::mt19937_64 &rng) : rng(rng) {
    if (mode == CopyLanding::Seeded)
      lateShare = (rng() & 1) ? Share::All : Share::Half;
    else
      lateShare = mode == CopyLanding::Late ? Share::All : Share::None;
  }
  /// Whether the copy being issued now is late.
  bool drawLate() {
    return lateShare == Share::All || (lateShare == Share::Half && (rng() & 1));
  }
  /// The copy of `pending` (each with a `late` flag) to land at this
  /// scheduler step, or -1: any copy when no thread can run, else with
  /// probability 1/4 a random prompt one.
  template <typename Copies> int pick(const Copies &pending, bool anyRunnable) {
    if (pending.empty())
      return -1;
    if (!anyRunnable)
      return static_cast<int>(rng() % pending.size());
    if (lateShare == Share::All || rng() % 4 != 0)
      return -1;
    size_t prompt = 0;
    for (const auto &c : pending)
      prompt += !c.late;
    if (!prompt)
      return -1;
    size_t k = rng() % prompt;
    for (size_t i = 0; i < pending.size(); ++i)
      if (!pending[i].late && k-- == 0)
        return static_cast<int>(i);
    return -1;
  }

private:
  enum class Share : uint8_t { None, Half, All };
  std::mt19937_64 &rng;
  Share lateShare;
};

} // namespace mlir::fp8::emu

#endif // FP8_LIB_EMULATOR_COPYLANDING_H
