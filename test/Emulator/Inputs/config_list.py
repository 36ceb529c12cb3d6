#!/usr/bin/env python3
"""Compares the GEMM configurations the cost model chooses (the "Distinct
configurations" line of bench/gpu/config_table.py) with the forced
configurations an emulator test runs (its `--fp8-lower-to-nvvm="..."` RUN
lines). Prints both sets' sizes and exits 1, naming each difference, when
they differ.

Usage: config_list.py TABLE_OUTPUT EMULATOR_TEST
"""
import re
import sys


def chosen(table_text):
    line = next((l for l in table_text.splitlines() if l.startswith("Distinct configurations")), None)
    if line is None:
        sys.exit("config_list.py: no 'Distinct configurations' line in the table")
    configs = set()
    for entry in line.split(":", 1)[1].split(","):
        m = re.fullmatch(r"\s*(\d+)x(\d+) s(\d+) c\d+ g(\d+) cl(\d+)(?: o(\d+))?\s*", entry)
        if not m:
            sys.exit(f"config_list.py: cannot read configuration '{entry.strip()}'")
        bm, bn, stages, group, cluster, overlap = m.groups()
        # The consumer count follows from BLOCK_M and BLOCK_N (it is not an
        # option); a group of 1 is the row-major order and a cluster of 1
        # no cluster, the options' defaults.
        opts = f"block-m={bm} block-n={bn} stages={stages}"
        opts += f" group-m={group}" if group != "1" else ""
        opts += f" cluster={cluster}" if cluster != "1" else ""
        # The overlapped promotion by U K blocks (absent: lock-step).
        configs.add(opts + (f" promotion-schedule=overlap{overlap}" if overlap else ""))
    return configs


def emulated(test_text):
    return set(re.findall(r'^// RUN: .*--fp8-lower-to-nvvm="([^"]*)"', test_text, re.M))


def main(table_path, test_path):
    with open(table_path) as f:
        want = chosen(f.read())
    with open(test_path) as f:
        have = emulated(f.read())
    print(f"chosen: {len(want)}, emulated: {len(have)}")
    for c in sorted(want - have):
        print(f"chosen but not run in the emulator: {c}")
    for c in sorted(have - want):
        print(f"run in the emulator but no longer chosen: {c}")
    return 0 if want == have else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
