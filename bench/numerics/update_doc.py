#!/usr/bin/env python3
"""Runs fp8-bench-numerics and replaces the table block of docs/numerics.md
with its output (between the BEGIN/END markers), so the recorded figures are
always the program's; with CSV and PNG paths it also keeps the measurements
(CSV) and redraws the plot of error vs K (plot.py, Debian's
python3-matplotlib; skipped with a note when it is missing).

    python3 bench/numerics/update_doc.py build/bin/fp8-bench-numerics docs/numerics.md \\
        [build/bench/numerics/errors.csv docs/numerics-error-vs-k.png]
"""
import os
import subprocess
import sys

BEGIN = "<!-- BEGIN bench/numerics output -->"
END = "<!-- END bench/numerics output -->"


def main() -> int:
    bench, doc = sys.argv[1], sys.argv[2]
    csv = sys.argv[3] if len(sys.argv) > 3 else None
    png = sys.argv[4] if len(sys.argv) > 4 else None
    cmd = [bench] + ([csv] if csv else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    text = open(doc, encoding="utf-8").read()
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    open(doc, "w", encoding="utf-8").write(head + BEGIN + "\n" + out.rstrip() + "\n" + END + tail)
    if csv and png:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("update_doc.py: matplotlib missing (apt-get install python3-matplotlib): plot not redrawn")
            return 0
        plot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plot.py")
        subprocess.run([sys.executable, plot, csv, png], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
