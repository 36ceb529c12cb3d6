#!/usr/bin/env python3
"""Runs ptxas and fails on what must never pass silently.

Usage: ptxas_guard.py PTXAS [ptxas arguments...]

Prints ptxas's output (stdout and stderr, on stderr, as ptxas prints -v
info) and exits with ptxas's status, or 1 when ptxas succeeded but reported
any of:
  - a warning;
  - register spills (a non-zero "bytes spill" count);
  - a coded diagnostic "(Cnnnn)", in particular the wgmma serialisation
    info lines: C7515 "Potential Performance Loss: wgmma.mma_async
    instructions are serialized ...", C7517 "warpgroup.wait is injected ...",
    C7519 "warpgroup.arrive is injected ..." (ptxas prints these as `info`,
    and the kernel still assembles: a serialised GEMM runs several times
    slower).
The one guard of every place that assembles the project's PTX (the lit tests'
%ptxas, the Python package's test, bench/gpu/prepare.sh).
"""
import re
import subprocess
import sys

FORBIDDEN = re.compile(
    r"warning|[1-9][0-9]* bytes spill|\(C[0-9]{4}\)|is injected|serializ",
    re.IGNORECASE)


def offending(log: str) -> list:
    return [line for line in log.splitlines() if FORBIDDEN.search(line)]


def main(argv: list) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    proc = subprocess.run(argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stderr.write(proc.stdout)
    if proc.returncode != 0:
        return proc.returncode
    bad = offending(proc.stdout)
    for line in bad:
        print(f"ptxas_guard: ptxas reported: {line.strip()}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
