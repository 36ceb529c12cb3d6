//===- Tma.cpp - TMA tiled loads (cp.async.bulk.tensor) -------------------===//
//
// A TMA load of a CTA (CtaRun.h): at issue the tensor map, coordinates,
// destination alignment and mbarrier are checked and the bytes announced
// in flight on the mbarrier; the copy lands later (CopyLanding.h) and only
// then reads global memory (out-of-bounds elements zero), writes shared
// memory through the map's swizzle, tags the 128-byte lines with the
// swizzle (wgmma checks it reads them the same way) and performs
// complete_tx on the mbarrier. prefetch.tensormap checks its operand is a
// tensor map.
//
//===----------------------------------------------------------------------===//
#include "CtaRun.h"
#include "Numerics.h"

#include <algorithm>
#include <cstring>
#include <sstream>

using namespace mlir::fp8::emu;

uint64_t mlir::fp8::emu::boxBytes(const TensorMap &m) {
  uint64_t bytes = m.elementBytes;
  for (uint32_t i = 0; i < m.rank && i < TensorMap::kMaxRank; ++i)
    bytes *= m.boxDim[i];
  return bytes;
}

void CtaRun::readTensorMap(const Thread &t, uint64_t mapAddr, int32_t coordsX,
                           TensorMap &m, int64_t *coordsOut) {
  int32_t idx = t.pc;
  if (mapAddr % 64)
    fault(&t, idx, "TMA: the tensor map address is not 64-byte aligned");
  if (!dev.read(mapAddr, &m, sizeof(TensorMap)))
    fault(&t, idx,
          "TMA: the tensor map pointer " + dev.describe(mapAddr) +
              " is not inside a device allocation");
  if (m.magic != TensorMap::kMagic)
    fault(&t, idx,
          "TMA: the tensor map pointer " + dev.describe(mapAddr) +
              " does not point to an encoded tensor map");
  const std::vector<GepTerm> &coords = p.geps[coordsX];
  if (coords.size() != m.rank)
    fault(&t, idx,
          "TMA: " + std::to_string(coords.size()) +
              " coordinates for a tensor map of rank " +
              std::to_string(m.rank));
  for (size_t i = 0; i < TensorMap::kMaxRank; ++i)
    coordsOut[i] = i < coords.size() ? sext(t.regs[coords[i].slot], 32) : 0;
}

void CtaRun::issueTma(Thread &t, const Inst &inst) {
  int32_t idx = t.pc;
  PendingTma tma;
  readTensorMap(t, t.regs[inst.b], inst.x, tma.map, tma.coords);
  const TensorMap &m = tma.map;
  uint64_t dstAddr = t.regs[inst.a], mbarAddr = t.regs[inst.c];
  uint64_t bytes = boxBytes(m);
  uint32_t align = m.swizzle ? 1024 : 128;
  if (dstAddr % align) {
    std::ostringstream os;
    os << "TMA: shared-memory destination 0x" << std::hex << dstAddr << std::dec
       << " is not " << align << "-byte aligned"
       << (m.swizzle ? " (swizzled boxes start on a swizzle-pattern "
                       "boundary)"
                     : "");
    fault(&t, idx, os.str());
  }
  if (inst.imm) {
    // .multicast::cluster (PTX ISA, cp.async.bulk.tensor): the box is
    // written at the same CTA-relative offset as dstMem into every CTA
    // whose bit is set in ctaMask (bit i: %cluster_ctarank i), and each
    // destination's mbarrier at mbar's CTA-relative offset gets the
    // complete_tx of the box bytes.
    uint32_t mask = static_cast<uint32_t>(t.regs[inst.imm - 1] & 0xFFFF);
    uint32_t size = static_cast<uint32_t>(cluster->ctas.size());
    if (mask == 0)
      fault(&t, idx, "TMA multicast with an empty ctaMask");
    if (mask >> size) {
      std::ostringstream os;
      os << "TMA multicast: ctaMask 0x" << std::hex << mask << std::dec
         << " names CTA rank " << (31 - __builtin_clz(mask))
         << ", outside the cluster of " << size << " CTA"
         << (size == 1 ? "" : "s");
      fault(&t, idx, os.str());
    }
    tma.dst = static_cast<uint32_t>(dstAddr % kClusterWindow);
    tma.mbar = static_cast<uint32_t>(mbarAddr % kClusterWindow);
    for (uint32_t r = 0; r < size; ++r) {
      if (!(mask >> r & 1))
        continue;
      uint64_t a = (uint64_t(r) + 1) * kClusterWindow + tma.dst;
      CtaRun &d = sharedOwner(&t, idx, a, "TMA multicast destination");
      tma.dests.push_back(&d);
    }
  } else {
    CtaRun &d = sharedOwner(&t, idx, dstAddr, "TMA destination");
    CtaRun &b = sharedOwner(&t, idx, mbarAddr, "TMA mbarrier");
    if (&b != &d)
      fault(&t, idx,
            "TMA: the mbarrier is in CTA rank " + std::to_string(b.rank) +
                ", the destination in CTA rank " + std::to_string(d.rank) +
                " (PTX ISA: the same CTA)");
    tma.dst = static_cast<uint32_t>(dstAddr);
    tma.mbar = static_cast<uint32_t>(mbarAddr);
    tma.dests.push_back(&d);
  }
  for (CtaRun *d : tma.dests) {
    d->checkShared(&t, idx, tma.dst, bytes, "TMA destination");
    MBarrier &mb = d->mbarrier(&t, idx, tma.mbar);
    mb.inflight += bytes;
  }
  tma.thread = t.tid;
  tma.inst = idx;
  tma.late = landing.drawLate();
  tmas.push_back(tma);
}

std::vector<BoxSpan> mlir::fp8::emu::getBoxSpans(const TensorMap &m,
                                                 const int64_t *coords,
                                                 uint64_t boxBytes) {
  uint32_t eb = m.elementBytes;
  constexpr uint32_t R = TensorMap::kMaxRank;
  uint32_t box[R];
  for (uint32_t i = 0; i < R; ++i)
    box[i] = i < m.rank ? m.boxDim[i] : 1;
  uint64_t rowBytes = uint64_t(box[0]) * eb;
  uint64_t rows = boxBytes / rowBytes;
  std::vector<BoxSpan> spans;
  for (uint64_t row = 0; row < rows; ++row) {
    uint64_t global = m.globalAddress, rest = row;
    bool inBounds = true;
    for (uint32_t d = 1; d < m.rank; ++d) {
      int64_t g = coords[d] + int64_t(rest % box[d]);
      rest /= box[d];
      if (g < 0 || g >= int64_t(m.globalDim[d])) {
        inBounds = false;
        break;
      }
      global += uint64_t(g) * m.globalStride[d];
    }
    int64_t c0 = coords[0];
    int64_t first = std::max<int64_t>(0, -c0);
    int64_t last = std::min<int64_t>(box[0], int64_t(m.globalDim[0]) - c0);
    if (!inBounds || first >= last)
      continue;
    spans.push_back({global + uint64_t(c0 + first) * eb,
                     row * rowBytes + uint64_t(first) * eb,
                     uint64_t(last - first) * eb});
  }
  return spans;
}

std::vector<uint8_t> CtaRun::readBox(const PendingTma &tma, const Thread *t,
                                     uint64_t bytes) {
  std::vector<uint8_t> buf(bytes, 0); // out-of-bounds elements: zero
  for (const BoxSpan &span : getBoxSpans(tma.map, tma.coords, bytes)) {
    uint8_t *from = dev.resolve(span.global, span.bytes);
    if (!from)
      fault(t, tma.inst,
            "TMA: the tensor map's global memory " + dev.describe(span.global) +
                " (" + std::to_string(span.bytes) +
                " bytes) is not inside a device allocation");
    std::memcpy(&buf[span.boxOffset], from, span.bytes);
  }
  return buf;
}

void CtaRun::completeTma(size_t index) {
  PendingTma tma = tmas[index];
  tmas[index] = tmas.back();
  tmas.pop_back();
  const TensorMap &m = tma.map;
  const Thread *t = &threads[tma.thread];
  uint64_t bytes = boxBytes(m);
  std::vector<uint8_t> buf = readBox(tma, t, bytes);
  for (CtaRun *d : tma.dests) {
    d->checkNoPendingReads(t, tma.inst, tma.dst, tma.dst + bytes,
                           "a TMA copy (cp.async.bulk.tensor) completing now");
    // Write through the swizzle in 16-byte chunks (the swizzle permutes
    // 16-byte chunks inside each 128-byte line).
    for (uint64_t off = 0; off < bytes; off += 16) {
      uint32_t logical = tma.dst + static_cast<uint32_t>(off);
      uint32_t addr = swizzleAddr(logical, m.swizzle);
      uint64_t n = std::min<uint64_t>(16, bytes - off);
      std::memcpy(&d->smem[addr], &buf[off], n);
      std::memset(&d->initialised[addr], 1, n);
      std::fill(&d->storer[addr], &d->storer[addr] + n, 0); // async proxy's
      d->lineTag[addr / 128] = static_cast<uint8_t>(1 + m.swizzle);
    }
    auto it = d->mbars.find(tma.mbar);
    if (it == d->mbars.end())
      fault(t, tma.inst, "TMA completes on an mbarrier that no longer exists");
    MBarrier &mb = it->second;
    mb.inflight -= bytes;
    d->addTx(t, tma.inst, tma.mbar, mb, -static_cast<int64_t>(bytes));
    d->maybeCompletePhase(t, tma.inst, tma.mbar, mb);
  }
}

void CtaRun::prefetchTensorMap(Thread &t, const Inst &in) {
  // A cache hint without effect on the results, but its operand must be
  // what TMA will read: an encoded, 64-byte aligned tensor map.
  uint64_t mapAddr = t.regs[in.a];
  TensorMap m;
  if (mapAddr % 64)
    fault(&t, t.pc, "prefetch.tensormap: the address is not 64-byte aligned");
  if (!dev.read(mapAddr, &m, sizeof(TensorMap)) || m.magic != TensorMap::kMagic)
    fault(&t, t.pc,
          "prefetch.tensormap: " + dev.describe(mapAddr) +
              " does not point to an encoded tensor map");
}
