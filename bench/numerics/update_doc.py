#!/usr/bin/env python3
"""Runs fp8-bench-numerics and replaces the table block of docs/numerics.md
with its output (between the BEGIN/END markers), so the recorded figures are
always the program's.

    python3 bench/numerics/update_doc.py build/bin/fp8-bench-numerics docs/numerics.md
"""
import subprocess
import sys

BEGIN = "<!-- BEGIN bench/numerics output -->"
END = "<!-- END bench/numerics output -->"


def main() -> int:
    bench, doc = sys.argv[1], sys.argv[2]
    out = subprocess.run([bench], check=True, capture_output=True, text=True).stdout
    text = open(doc, encoding="utf-8").read()
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    open(doc, "w", encoding="utf-8").write(head + BEGIN + "\n" + out.rstrip() + "\n" + END + tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
