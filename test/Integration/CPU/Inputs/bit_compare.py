#!/usr/bin/env python3
"""MLIR text shared by the measured-accumulation cases
(hopper_accumulation_case.py, k16_accumulation_case.py): dense constants of
raw bits, and a loop that compares computed f32 bits with measured ones,
printing every mismatch and their count. Nothing here computes a result.
"""


def hexdense(values, width):
    return '"0x' + "".join(v.to_bytes(width, "little").hex().upper() for v in values) + '"'


def compare_loop(name, n, got_expr, want):
    """Counts and prints mismatches of i32 bits `got_expr(%i)` (MLIR lines
    producing %got) against the constant `want`."""
    return f"""
  %want_{name} = arith.constant dense<{hexdense(want, 4)}> : tensor<{n}xi32>
  %bad_{name} = scf.for %i = %c0 to %c{n}_{name} step %c1 iter_args(%count = %c0) -> (index) {{
{got_expr}
    %exp = tensor.extract %want_{name}[%i] : tensor<{n}xi32>
    %ne = arith.cmpi ne, %got, %exp : i32
    %next = scf.if %ne -> (index) {{
      vector.print str "{name} mismatch: "
      vector.print %i : index
      vector.print %got : i32
      vector.print %exp : i32
      %inc = arith.addi %count, %c1 : index
      scf.yield %inc : index
    }} else {{
      scf.yield %count : index
    }}
    scf.yield %next : index
  }}
  vector.print str "{name}: mismatches "
  vector.print %bad_{name} : index
"""
