//===- SharedMemory.cpp - shared-memory checks, loads and stores ----------===//
//
// A CTA's shared memory (CtaRun.h): every access is checked against the
// launch's shared window, reads against what was stored or copied there
// (initialisation), and writes against the ranges that issued wgmma still
// read. Loads and stores go to shared memory (address spaces 3 and 7: a
// shared::cluster address may name a peer CTA's, Cluster.cpp), or
// through generic addresses to the thread's local frame (allocas), the
// module's constant globals or the device's global allocations
// (Device::resolve), each bounds-checked.
//
//===----------------------------------------------------------------------===//
#include "CtaRun.h"

#include <algorithm>
#include <cstring>
#include <sstream>

using namespace mlir::fp8::emu;

void CtaRun::checkShared(const Thread *t, int32_t inst, uint64_t addr,
                         uint64_t bytes, const char *what) {
  if (addr < kSharedBase || addr + bytes > smemEnd || addr + bytes < addr) {
    std::ostringstream os;
    os << "out-of-bounds shared-memory " << what << " of " << bytes
       << " bytes at 0x" << std::hex << addr << std::dec
       << " (shared memory of this launch: [0x" << std::hex << kSharedBase
       << ", 0x" << smemEnd << std::dec << "))";
    fault(t, inst, os.str());
  }
}

void CtaRun::checkInitialised(const Thread *t, int32_t inst, uint32_t addr,
                              uint32_t bytes) {
  if (!opt.checkUninitialisedShared)
    return;
  for (uint32_t i = 0; i < bytes; ++i)
    if (!initialised[addr + i]) {
      std::ostringstream os;
      os << "read of uninitialised shared memory at 0x" << std::hex << addr + i
         << std::dec << " (nothing stored or copied there "
         << "before this read)";
      // Continued: the emulated shared memory starts as zeros.
      softFault(t, inst, os.str());
      return;
    }
}

uint16_t CtaRun::racingThread(uint32_t b, uint16_t me, bool isLoad,
                              bool &loaded) const {
  auto now = [&](uint32_t epoch) { return epoch == syncEpoch; };
  // A store or a load races with another thread's store of this epoch.
  loaded = false;
  if (storer[b] && storer[b] != me && now(storeEpoch[b]))
    return storer[b];
  if (isLoad || !now(loadEpoch[b]))
    return 0;
  // A store races with another thread's load of this epoch: the last loader,
  // or when that is this thread, the other one recorded (whichever order the
  // loads ran in).
  loaded = true;
  return loader[b] != me ? loader[b] : otherLoader[b];
}

void CtaRun::checkSharedRace(const Thread &t, uint32_t addr, uint32_t bytes,
                             bool isLoad) {
  const uint16_t me = static_cast<uint16_t>(t.tid + 1);
  for (uint32_t b = addr; b < addr + bytes; ++b) {
    bool loaded;
    if (uint16_t other = racingThread(b, me, isLoad, loaded)) {
      std::ostringstream os;
      os << "shared-memory race: thread " << t.tid
         << (isLoad ? " loads" : " stores") << " 0x" << std::hex << b
         << std::dec << ", which thread " << other - 1
         << (loaded ? " loaded" : " stored")
         << " with no barrier or mbarrier phase between the two";
      // Continued: the access happens in the order the scheduler chose.
      softFault(&t, t.pc, os.str());
      break;
    }
  }
  if (!isLoad) {
    std::fill(&storer[addr], &storer[addr] + bytes, me);
    std::fill(&storeEpoch[addr], &storeEpoch[addr] + bytes, syncEpoch);
    std::fill(&storeFence[addr], &storeFence[addr] + bytes, proxyFences[t.tid]);
    return;
  }
  for (uint32_t b = addr; b < addr + bytes; ++b) {
    // Keep a second loader of the epoch: a later store by either thread
    // races with the other's load.
    if (loadEpoch[b] != syncEpoch)
      otherLoader[b] = 0;
    else if (loader[b] != me)
      otherLoader[b] = loader[b];
    loader[b] = me;
    loadEpoch[b] = syncEpoch;
  }
}

void CtaRun::checkNoPendingReads(const Thread *t, int32_t inst, uint32_t lo,
                                 uint32_t hi, const char *writer) {
  for (const BulkRead &r : bulkReads)
    if (lo < r.hi && r.lo < hi) {
      std::ostringstream os;
      os << writer << " writes shared memory [0x" << std::hex << lo << ", 0x"
         << hi << ") that a TMA store (cp.async.bulk.tensor) of thread "
         << std::dec << r.thread << " may still read ([0x" << std::hex << r.lo
         << ", 0x" << r.hi << std::dec
         << "), its bulk async-group not yet covered by a "
            "cp.async.bulk.wait_group.read)\n  the store: "
         << p.locs[r.inst];
      fault(t, inst, os.str());
    }
  for (uint32_t w = 0; w < wgs.size(); ++w)
    for (const OutstandingRead &r : wgs[w].reads)
      if (lo < r.hi && r.lo < hi) {
        std::ostringstream os;
        os << writer << " writes shared memory [0x" << std::hex << lo << ", 0x"
           << hi << ") that a wgmma.mma_async of warpgroup " << std::dec << w
           << " still reads ([0x" << std::hex << r.lo << ", 0x" << r.hi
           << std::dec
           << "), not yet covered by a wgmma.wait_group)\n  the wgmma: "
           << p.locs[r.inst];
        fault(t, inst, os.str());
      }
}

uint8_t *CtaRun::genericMemory(Thread &t, uint64_t addr, uint64_t bytes,
                               bool isLoad) {
  const char *what = isLoad ? "load" : "store";
  uint64_t region = addr & kRegionMask;
  if (region == kLocalBase) {
    uint64_t off = addr - kLocalBase;
    if (off + bytes > p.localBytes || off + bytes < off)
      fault(&t, t.pc,
            std::string("out-of-bounds local-memory ") + what + " of " +
                std::to_string(bytes) + " bytes at offset " +
                std::to_string(off) + " of a " + std::to_string(p.localBytes) +
                "-byte frame");
    size_t base = size_t(p.localBytes) * t.tid + off;
    if (isLoad) {
      for (uint64_t i = 0; i < bytes; ++i)
        if (!localInit[base + i]) {
          softFault(&t, t.pc,
                    "read of uninitialised local memory (an "
                    "alloca nothing was stored to)");
          break;
        }
    } else {
      std::memset(&localInit[base], 1, bytes);
    }
    return &localArena[base];
  }
  if (region == kConstantBase) {
    uint64_t off = addr - kConstantBase;
    if (!isLoad)
      fault(&t, t.pc, "store into a constant global");
    if (off + bytes > p.constants.size() || off + bytes < off)
      fault(&t, t.pc,
            "out-of-bounds load of " + std::to_string(bytes) +
                " bytes of the module's constant globals");
    return const_cast<uint8_t *>(&p.constants[off]);
  }
  uint8_t *mem = dev.resolve(addr, bytes);
  if (!mem)
    fault(&t, t.pc,
          std::string("out-of-bounds global-memory ") + what + " of " +
              std::to_string(bytes) + " bytes at " + dev.describe(addr));
  return mem;
}

uint8_t *CtaRun::dataMemory(Thread &t, const MemAccess &m, uint64_t addr,
                            uint32_t bytes, Access kind) {
  bool isLoad = kind == Access::Load, reads = kind != Access::Store;
  const char *what = isLoad                  ? "load"
                     : kind == Access::Store ? "store"
                                             : "atomic";
  // Atomics need natural alignment, vector accesses their size up to 16.
  uint32_t align =
      kind == Access::Atomic ? bytes : std::min<uint32_t>(bytes, 16);
  if (addr % align) {
    std::ostringstream os;
    os << "misaligned " << what << " of " << bytes << " bytes at 0x" << std::hex
       << addr;
    fault(&t, t.pc, os.str());
  }
  if (m.addressSpace != 3 && m.addressSpace != 7) {
    if (kind == Access::Atomic && (addr & kRegionMask) == kLocalBase)
      fault(&t, t.pc, "atomic on local memory (undefined: PTX ISA atom)");
    return genericMemory(t, addr, bytes, isLoad);
  }
  // shared::cluster addresses (mapa's) may name a peer CTA's shared memory
  // (distributed shared memory); its accesses are checked for bounds,
  // initialisation and pending wgmma reads in the owner, not for races with
  // the owner's threads (the race check follows threads of one CTA). An
  // atomic is no race with another atomic: it is not in the race check.
  CtaRun &o = sharedOwner(&t, t.pc, addr, what);
  o.checkShared(&t, t.pc, addr, bytes, what);
  if (&o == this && kind != Access::Atomic)
    checkSharedRace(t, static_cast<uint32_t>(addr), bytes, isLoad);
  else if (!isLoad)
    std::fill(&o.storer[addr], &o.storer[addr] + bytes, 0);
  if (reads)
    o.checkInitialised(&t, t.pc, addr, bytes);
  if (!isLoad) {
    o.checkNoPendingReads(&t, t.pc, addr, addr + bytes, "a store");
    std::memset(&o.initialised[addr], 1, bytes);
    o.lineTag[addr / 128] = 0;
  }
  return &o.smem[addr];
}

void CtaRun::loadStore(Thread &t, const Inst &in) {
  uint64_t *R = t.regs;
  const MemAccess &m = p.mems[in.x];
  uint32_t bytes = uint32_t(m.elementBytes) * m.count;
  bool isLoad = in.op == Opcode::Load;
  uint8_t *mem =
      dataMemory(t, m, R[in.a], bytes, isLoad ? Access::Load : Access::Store);
  for (uint32_t e = 0; e < m.count; ++e) {
    uint8_t *q = mem + e * m.elementBytes;
    if (isLoad) {
      uint64_t v = 0;
      std::memcpy(&v, q, m.elementBytes);
      R[in.d + e] = v;
    } else {
      std::memcpy(q, &R[in.b + e], m.elementBytes);
    }
  }
}
