#!/usr/bin/env python3
"""Brings an upstream MLIR sm90 integration test to MLIR 22's syntax.

Reads the test (llvm-project mlir/test/Integration/GPU/CUDA/sm90/*.mlir),
writes it to stdout with only the changes MLIR 22's parser or verifier
requires, each applied only where its old form occurs (a test already in
MLIR 22 syntax passes through unchanged), and names each change applied on
stderr. The CHECK lines are FileChecked from the original file, untouched.
docs/gpu-kernel.md, "Upstream's sm90 tests on the emulator".
"""
import re
import sys

ADAPTATIONS = [
    # gpu.printf takes a comma between the format and its arguments.
    ("gpu.printf: a comma before the arguments",
     # (arguments are followed by "," or ":", a next op's result by "=").
     re.compile(r'(gpu\.printf "(?:[^"\\]|\\.)*")(\s+%[\w.$-]+\s*[,:])'), r"\1,\2"),
    # The mbarrier type was renamed (one barrier is a group of one).
    ("!nvgpu.mbarrier.barrier -> !nvgpu.mbarrier.group",
     re.compile(r"!nvgpu\.mbarrier\.barrier<"), "!nvgpu.mbarrier.group<"),
    # The mbarrier ops index their group.
    ("nvgpu.mbarrier ops: the barrier indexed [%c0]",
     re.compile(r"(nvgpu\.mbarrier\.(?:init|arrive\.expect_tx|try_wait\.parity|arrive) %[\w.]+)(,)"),
     r"\1[%c0]\2"),
    ("nvgpu.tma.async.load: the barrier indexed [%c0]",
     re.compile(r"(nvgpu\.tma\.async\.load %[\w.]+\[[^\]]*\], %[\w.]+)( to )"), r"\1[%c0]\2"),
    # The transpose flags of nvgpu.warpgroup.mma are attributes.
    ("nvgpu.warpgroup.mma: transposeA/B in the attribute dictionary",
     re.compile(r"(nvgpu\.warpgroup\.mma [^:\n]*?) (transpose[AB])\s*:"), r"\1 {\2} :"),
    # memref.assume_alignment returns the aligned view (its result unused).
    ("memref.assume_alignment: a result",
     re.compile(r"^(\s*)(memref\.assume_alignment )", re.M), r"\1%adapt_aligned = \2"),
    # Typed LLVM pointers are gone.
    ("!llvm.ptr<i8> -> !llvm.ptr", re.compile(r"!llvm\.ptr<i8>"), "!llvm.ptr"),
    # A subview that runs out of its source's bounds (rows 32..95 of 64) is
    # rejected by the verifier: the same view as a reinterpret_cast.
    ("out-of-bounds memref.subview -> memref.reinterpret_cast",
     re.compile(r"memref\.subview (%\w+)\[32, 0\]\[64, 64\]\[1, 1\] : (\S+) to "
                r"(memref<64x64xf16, strided<\[128, 1\], offset: 4096>, 3>)"),
     r"memref.reinterpret_cast \1 to offset: [4096], sizes: [64, 64], strides: [128, 1] : \2 to \3"),
]

# try_wait.parity takes an i1 phase: an index %c0 becomes a new i1 false.
PARITY = re.compile(r"^(\s*)(nvgpu\.mbarrier\.try_wait\.parity %[\w.]+(?:\[[^\]]*\])?, )%c0(, .*)$")
# Subviews at dynamic offsets have a dynamic offset in their layout.
DYNAMIC_SUBVIEW = "memref.subview %view[%arg14, %arg15, 0, 0]"
OFFSET_FIXES = [
    ("strided<[64, 1]>, #gpu.address_space<workgroup>>",
     "strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>"),
    ("memref<64x64xf16, strided<[128, 1]>>", "memref<64x64xf16, strided<[128, 1], offset: ?>>"),
]


def main():
    text = open(sys.argv[1]).read()
    applied = []
    for what, pattern, repl in ADAPTATIONS:
        text, n = pattern.subn(repl, text)
        if n:
            applied.append(f"{what} ({n}x)")
    lines, n = [], 0
    for line in text.split("\n"):
        m = PARITY.match(line)
        if m:
            lines.append(f"{m.group(1)}%adapt_parity{n} = arith.constant false")
            line = f"{m.group(1)}{m.group(2)}%adapt_parity{n}{m.group(3)}"
            n += 1
        lines.append(line)
    text = "\n".join(lines)
    if n:
        applied.append(f"try_wait.parity: an i1 phase in place of index %c0 ({n}x)")
    if DYNAMIC_SUBVIEW in text:
        for old, new in OFFSET_FIXES:
            if old in text:
                text = text.replace(old, new)
                applied.append(f"subview at dynamic offsets: {old} -> offset: ?")
    for a in applied:
        print(f"adapt: {a}", file=sys.stderr)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
