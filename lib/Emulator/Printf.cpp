//===- Printf.cpp - device printf (vprintf) -------------------------------===//
//
// CUDA's device printf on a CTA's thread (CtaRun.h): `vprintf(format,
// arguments)`, where the format is a NUL-terminated string in memory (a
// constant global) and the arguments a buffer holding one value per
// conversion in order, each at the next multiple of its size (the natural
// layout of the struct gpu.printf's lowering allocates): 4 bytes for the
// integer conversions (8 with an l, ll, z, j or t length), 8 for the
// floating ones (f32 arguments are promoted to double, as C varargs), 8 for
// %s and %p. The text goes to the launch's output (LaunchResult::output) in
// the order the threads execute their printf. An argument narrower than its
// conversion (gpu.printf stores an i8 as one byte, vprintf reads 4: the GPU
// prints the stack's bytes beside it) is reported as such, naming the
// conversion, rather than as a bare read of uninitialised local memory.
//
//===----------------------------------------------------------------------===//
#include "CtaRun.h"

#include <cstdio>
#include <cstring>

using namespace mlir::fp8::emu;

/// At most this many bytes of a format or %s string are read.
static constexpr uint64_t kMaxString = 1 << 16;

void CtaRun::reportNarrowArgument(Thread &t, uint64_t args, uint64_t offset,
                                  uint64_t size, int number,
                                  const std::string &conversion) {
  uint64_t addr = args + offset;
  // Only a local buffer (the alloca gpu.printf's lowering fills) records
  // which bytes were stored.
  if ((addr & kRegionMask) != kLocalBase)
    return;
  uint64_t off = addr - kLocalBase;
  std::string what = "printf: conversion " + std::to_string(number) + " ('" +
                     conversion + "') reads " + std::to_string(size) +
                     " bytes at offset " + std::to_string(offset) +
                     " of the argument buffer";
  if (off + size > p.localBytes || off + size < off)
    fault(&t, t.pc,
          what + ", past the thread's local frame (" +
              std::to_string(p.localBytes) +
              " bytes): a conversion without its argument, or an argument "
              "narrower than its conversion");
  size_t base = size_t(p.localBytes) * t.tid + off;
  uint64_t written = 0;
  for (uint64_t i = 0; i < size; ++i)
    written += localInit[base + i] != 0;
  if (written == size || written == 0)
    return; // all written, or none (genericMemory's report: no argument)
  softFault(&t, t.pc,
            what + ", of which " + std::to_string(written) +
                " were written: an argument narrower than its conversion "
                "(gpu.printf stores an i8 or i16 as 1 or 2 bytes, an i32 as "
                "4; vprintf reads 4 bytes for an int conversion, 8 with l, "
                "ll, z, j or t: extend the argument, as C's varargs promote "
                "it, e.g. arith.extsi to i32)");
}

void CtaRun::printf(Thread &t, const Inst &in) {
  uint64_t *R = t.regs;
  auto readString = [&](uint64_t addr) {
    std::string s;
    for (uint64_t i = 0;; ++i) {
      if (i == kMaxString)
        fault(&t, t.pc, "printf: a string without its NUL within 64 KB");
      char c = static_cast<char>(*genericMemory(t, addr + i, 1, true));
      if (!c)
        return s;
      s.push_back(c);
    }
  };
  std::string format = readString(R[in.a]);
  uint64_t args = R[in.b], offset = 0;
  // The conversion being read (its text, its number from 1) for the reports.
  std::string conversion;
  int conversions = 0;
  auto readArg = [&](uint64_t size) {
    if (!args)
      fault(&t, t.pc, "printf: a conversion without an argument buffer");
    offset = (offset + size - 1) / size * size;
    reportNarrowArgument(t, args, offset, size, conversions, conversion);
    uint64_t v = 0;
    std::memcpy(&v, genericMemory(t, args + offset, size, true), size);
    offset += size;
    return v;
  };
  std::string out;
  char buf[512];
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out.push_back(format[i]);
      continue;
    }
    size_t start = i++;
    if (i < format.size() && format[i] == '%') {
      out.push_back('%');
      continue;
    }
    ++conversions;
    conversion = format.substr(
        start, format.find_first_of("diouxXcfFeEgGaAsp%", i) + 1 - start);
    std::string spec = "%";
    while (i < format.size() && std::strchr("-+ #0", format[i]))
      spec.push_back(format[i++]);
    auto number = [&]() {
      if (i < format.size() && format[i] == '*') {
        ++i;
        spec += std::to_string(static_cast<int32_t>(readArg(4)));
        return;
      }
      while (i < format.size() && format[i] >= '0' && format[i] <= '9')
        spec.push_back(format[i++]);
    };
    number();
    if (i < format.size() && format[i] == '.') {
      spec.push_back(format[i++]);
      number();
    }
    bool wide = false;
    std::string length;
    while (i < format.size() && std::strchr("hlLzjt", format[i])) {
      length.push_back(format[i]);
      wide |= std::strchr("lzjt", format[i]) != nullptr;
      ++i;
    }
    if (i >= format.size())
      fault(&t, t.pc,
            "printf: the format ends inside a conversion ('" +
                format.substr(start) + "')");
    char conv = format[i];
    if (std::strchr("diuxXoc", conv)) {
      uint64_t v = readArg(wide ? 8 : 4);
      if (wide) {
        spec += "ll";
        spec.push_back(conv);
        if (conv == 'd' || conv == 'i')
          std::snprintf(buf, sizeof(buf), spec.c_str(),
                        static_cast<long long>(v));
        else
          std::snprintf(buf, sizeof(buf), spec.c_str(),
                        static_cast<unsigned long long>(v));
      } else {
        if (length == "h" || length == "hh")
          spec += length;
        spec.push_back(conv);
        if (conv == 'd' || conv == 'i' || conv == 'c')
          std::snprintf(buf, sizeof(buf), spec.c_str(),
                        static_cast<int32_t>(v));
        else
          std::snprintf(buf, sizeof(buf), spec.c_str(),
                        static_cast<uint32_t>(v));
      }
    } else if (std::strchr("fFeEgGaA", conv)) {
      uint64_t v = readArg(8);
      double d;
      std::memcpy(&d, &v, 8);
      spec.push_back(conv);
      std::snprintf(buf, sizeof(buf), spec.c_str(), d);
    } else if (conv == 's') {
      std::string s = readString(readArg(8));
      spec.push_back('s');
      std::snprintf(buf, sizeof(buf), spec.c_str(), s.c_str());
    } else if (conv == 'p') {
      std::snprintf(buf, sizeof(buf), "0x%llx",
                    static_cast<unsigned long long>(readArg(8)));
    } else {
      fault(&t, t.pc,
            std::string("printf: unsupported conversion '%") + conv + "'");
    }
    out += buf;
  }
  output += out;
  if (in.d >= 0)
    R[in.d] = static_cast<uint32_t>(out.size());
}
