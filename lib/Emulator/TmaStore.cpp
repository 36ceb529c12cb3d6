//===- TmaStore.cpp - TMA tiled stores and bulk async-groups --------------===//
//
// A TMA store of a CTA (CtaRun.h; PTX ISA, cp.async.bulk.tensor with
// .global.shared::cta.bulk_group): at issue the tensor map, coordinates and
// source alignment are checked, and so is that every source byte a thread
// stored was followed by a fence.proxy.async of that thread (the TMA engine
// is the async proxy: without the fence it may not see generic-proxy
// writes). The store then reads shared memory at a seeded random or
// adversarially late moment (CopyLanding.h) and writes the box's elements
// that lie inside the tensor (outside ones are not written: TMA clips at
// the tensor's edges). Its thread's cp.async.bulk.commit_group puts it in
// a bulk async-group; cp.async.bulk.wait_group N{.read} lands the stores of
// every group of the thread but the N most recent. Until then its source
// may not be written (a fault, CtaRun::checkNoPendingReads) and its thread
// may not exit: a kernel that reuses the staging buffer, or ends, without
// the wait is caught whatever the schedule, and with a late landing its
// stale data would also show in the result.
//
//===----------------------------------------------------------------------===//
#include "CtaRun.h"
#include "Numerics.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstring>
#include <sstream>

using namespace mlir::fp8::emu;

/// The shared memory a store of `bytes` from `src` reads: the swizzle
/// permutes 16-byte chunks inside 128-byte lines, so a swizzled box reads
/// whole lines.
static void sourceRange(uint32_t src, uint64_t bytes, uint32_t swizzle,
                        uint32_t &lo, uint32_t &hi) {
  lo = src;
  uint64_t span = swizzle ? (bytes + 127) / 128 * 128 : bytes;
  hi = static_cast<uint32_t>(src + span);
}

void CtaRun::issueTmaStore(Thread &t, const Inst &in) {
  int32_t idx = t.pc;
  PendingTmaStore st;
  readTensorMap(t, t.regs[in.b], in.x, st.map, st.coords);
  uint64_t srcAddr = t.regs[in.a];
  uint64_t bytes = boxBytes(st.map);
  uint32_t align = st.map.swizzle ? 1024 : 128;
  if (srcAddr % align) {
    std::ostringstream os;
    os << "TMA store: shared-memory source 0x" << std::hex << srcAddr
       << std::dec << " is not " << align << "-byte aligned"
       << (st.map.swizzle ? " (swizzled boxes start on a swizzle-pattern "
                            "boundary)"
                          : "");
    fault(&t, idx, os.str());
  }
  uint32_t lo, hi;
  sourceRange(static_cast<uint32_t>(srcAddr), bytes, st.map.swizzle, lo, hi);
  checkShared(&t, idx, lo, hi - lo, "TMA store source");
  for (uint32_t b = lo; b < hi; ++b) {
    uint16_t s = storer[b];
    if (s && proxyFences[s - 1] <= storeFence[b]) {
      std::ostringstream os;
      os << "TMA store reads shared memory at 0x" << std::hex << b << std::dec
         << " that thread " << s - 1
         << " stored with no fence.proxy.async since (the async proxy may "
            "not see the store)";
      // Continued: the emulated shared memory is coherent.
      softFault(&t, idx, os.str());
      break;
    }
  }
  st.src = static_cast<uint32_t>(srcAddr);
  st.thread = t.tid;
  st.group = -1;
  st.inst = idx;
  st.late = landing.drawLate();
  tmaStores.push_back(st);
  bulkReads.push_back({lo, hi, t.tid, -1, idx});
}

void CtaRun::completeTmaStore(size_t index) {
  PendingTmaStore st = tmaStores[index];
  tmaStores[index] = tmaStores.back();
  tmaStores.pop_back();
  const TensorMap &m = st.map;
  const Thread *t = &threads[st.thread];
  uint64_t bytes = boxBytes(m);
  std::vector<uint8_t> buf(bytes);
  // Read through the swizzle in 16-byte chunks (as the TMA load writes).
  for (uint64_t off = 0; off < bytes; off += 16) {
    uint32_t addr = swizzleAddr(st.src + static_cast<uint32_t>(off), m.swizzle);
    uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(16, bytes - off));
    checkInitialised(t, st.inst, addr, n);
    std::memcpy(&buf[off], &smem[addr], n);
  }
  writeBox(st, t, buf);
}

void CtaRun::writeBox(const PendingTmaStore &st, const Thread *t,
                      const std::vector<uint8_t> &buf) {
  for (const BoxSpan &span : getBoxSpans(st.map, st.coords, buf.size())) {
    uint8_t *to = dev.resolve(span.global, span.bytes);
    if (!to)
      fault(t, st.inst,
            "TMA store: the tensor map's global memory " +
                dev.describe(span.global) + " (" + std::to_string(span.bytes) +
                " bytes) is not inside a device allocation");
    std::memcpy(to, &buf[span.boxOffset], span.bytes);
  }
}

void CtaRun::bulkCommit(Thread &t) {
  int64_t group = ++bulkCommits[t.tid];
  for (PendingTmaStore &st : tmaStores)
    if (st.thread == t.tid && st.group == -1)
      st.group = group;
  for (BulkRead &r : bulkReads)
    if (r.thread == t.tid && r.group == -1)
      r.group = group;
}

void CtaRun::bulkWait(Thread &t, const Inst &in) {
  // Groups up to `newest` complete; the N most recent may stay in flight.
  int64_t newest = bulkCommits[t.tid] - in.imm;
  auto covered = [&](uint32_t thread, int64_t group) {
    return thread == t.tid && group != -1 && group <= newest;
  };
  for (size_t i = 0; i < tmaStores.size();)
    if (covered(tmaStores[i].thread, tmaStores[i].group))
      completeTmaStore(i); // moves the last store to `i`
    else
      ++i;
  llvm::erase_if(bulkReads,
                 [&](const BulkRead &r) { return covered(r.thread, r.group); });
}

void CtaRun::checkBulkReadsWaited(const Thread &t) {
  for (const BulkRead &r : bulkReads)
    if (r.thread == t.tid) {
      std::ostringstream os;
      os << "thread exits while its TMA store (cp.async.bulk.tensor) may still "
            "read shared memory [0x"
         << std::hex << r.lo << ", 0x" << r.hi << std::dec << "): "
         << (r.group == -1 ? "no cp.async.bulk.commit_group put it in a "
                             "bulk async-group"
                           : "no cp.async.bulk.wait_group.read covered its "
                             "bulk async-group")
         << "\n  the store: " << p.locs[r.inst];
      fault(&t, t.pc, os.str());
    }
}
