//===- Memory.cpp - emulated global memory and tensor maps ----------------===//
#include "fp8/Emulator/Emulator.h"

#include <cstring>
#include <sstream>

using namespace mlir::fp8::emu;

uint64_t Device::alloc(size_t bytes) {
  uint64_t base = next;
  Allocation a;
  a.size = bytes;
  a.data.reset(new uint8_t[bytes ? bytes : 1]());
  allocations.emplace(base, std::move(a));
  // A gap of at least 64 KB after each allocation, so an overrun never lands
  // in the next one.
  next += (bytes + 0xFFFF + 0x10000) & ~uint64_t(0xFF);
  return base;
}

bool Device::free(uint64_t addr) {
  auto it = allocations.find(addr);
  if (it == allocations.end())
    return false;
  if (lastBase == addr)
    lastData = nullptr, lastBase = lastSize = 0;
  allocations.erase(it);
  return true;
}

uint8_t *Device::resolve(uint64_t addr, size_t bytes) {
  if (lastData && addr >= lastBase && addr - lastBase + bytes <= lastSize)
    return lastData + (addr - lastBase);
  auto it = allocations.upper_bound(addr);
  if (it == allocations.begin())
    return nullptr;
  --it;
  if (addr - it->first + bytes > it->second.size)
    return nullptr;
  lastBase = it->first;
  lastSize = it->second.size;
  lastData = it->second.data.get();
  return lastData + (addr - lastBase);
}

bool Device::write(uint64_t addr, const void *src, size_t bytes) {
  uint8_t *p = resolve(addr, bytes);
  if (!p)
    return false;
  std::memcpy(p, src, bytes);
  return true;
}

bool Device::read(uint64_t addr, void *dst, size_t bytes) const {
  auto *self = const_cast<Device *>(this);
  uint8_t *p = self->resolve(addr, bytes);
  if (!p)
    return false;
  std::memcpy(dst, p, bytes);
  return true;
}

std::string Device::describe(uint64_t addr) const {
  std::ostringstream os;
  os << "0x" << std::hex << addr << std::dec;
  auto it = allocations.upper_bound(addr);
  if (it == allocations.begin()) {
    os << " (below every allocation)";
    return os.str();
  }
  --it;
  int64_t off = static_cast<int64_t>(addr - it->first);
  os << " (allocation 0x" << std::hex << it->first << std::dec << " of "
     << it->second.size << " bytes, offset " << off << ")";
  return os.str();
}

std::string mlir::fp8::emu::encodeTensorMapTiled(
    TensorMap &map, uint32_t elementBytes, uint32_t rank,
    uint64_t globalAddress, const uint64_t *globalDim,
    const uint64_t *globalStrides, const uint32_t *boxDim,
    const uint32_t *elementStrides, TensorMapSwizzle swizzle) {
  std::memset(&map, 0, sizeof(map));
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 &&
      elementBytes != 8)
    return "element size must be 1, 2, 4 or 8 bytes";
  if (rank < 1 || rank > TensorMap::kMaxRank)
    return "rank must be 1..5";
  if (globalAddress % 16)
    return "globalAddress must be 16-byte aligned";
  for (uint32_t i = 0; i < rank; ++i) {
    if (globalDim[i] == 0 || globalDim[i] > (1ull << 32))
      return "globalDim[" + std::to_string(i) + "] must be in 1..2^32";
    if (boxDim[i] == 0 || boxDim[i] > 256)
      return "boxDim[" + std::to_string(i) + "] must be in 1..256";
    if (elementStrides && elementStrides[i] != 1)
      return "elementStrides other than 1 are not modelled";
  }
  for (uint32_t i = 0; i + 1 < rank; ++i)
    if (globalStrides[i] % 16 || globalStrides[i] >= (1ull << 40))
      return "globalStrides[" + std::to_string(i) +
             "] must be a multiple of 16 below 2^40";
  uint64_t innerBytes = uint64_t(boxDim[0]) * elementBytes;
  if (innerBytes % 16)
    return "boxDim[0] * element size must be a multiple of 16 bytes";
  static const uint64_t span[] = {0, 32, 64, 128};
  uint32_t sw = static_cast<uint32_t>(swizzle);
  if (sw > 3)
    return "unknown swizzle mode";
  if (sw && innerBytes > span[sw])
    return "the inner box dimension (" + std::to_string(innerBytes) +
           " bytes) exceeds the swizzle span (" + std::to_string(span[sw]) +
           " bytes)";
  map.magic = TensorMap::kMagic;
  map.elementBytes = elementBytes;
  map.rank = rank;
  map.swizzle = sw;
  map.globalAddress = globalAddress;
  map.globalStride[0] = elementBytes;
  for (uint32_t i = 0; i < rank; ++i) {
    map.globalDim[i] = globalDim[i];
    map.boxDim[i] = boxDim[i];
    map.elementStrides[i] = 1;
    if (i > 0)
      map.globalStride[i] = globalStrides[i - 1];
  }
  return "";
}
