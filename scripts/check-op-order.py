#!/usr/bin/env python3
"""Checks the "one op per statement" rule of the C++ sources.

C++ leaves the order in which a call's arguments (and most operators'
operands) are evaluated unspecified: in `AddIOp::create(b, loc,
ConstantOp::create(...), SubIOp::create(...))` the constant and the
subtraction are created in the compiler's order (GCC on x86-64 evaluates
arguments right to left, Clang left to right), so the IR's op order, and the
kernels scripts/kernel-corpus-diff.sh compares op for op, would depend on the
compiler. Each op is therefore created in its own statement, in the order the
statements are written.

A statement breaks the rule when it holds two op-creating calls whose order
C++ leaves unspecified. Sequenced, so accepted: a call inside another's
argument list (`Outer::create(b, Inner::create(b, ...))`: the inner op is
built first), the elements of one braced initializer list (left to right),
the arms of a `?:` (one is evaluated). Two calls in one statement's
declarators (`Value a = f(1), b = f(2);`) are reported too: one op per
statement.

An op-creating call is:
  - `Op::create(` (the LLVM 22 builder API) and `replaceOpWithNewOp<`;
  - a call of a function, a method or a lambda whose own body (not a lambda
    it defines) makes an op-creating call, computed to a fixpoint: the helper
    builders that wrap creation (HELPERS below: `fb.add(fb.mul(a, b), c)`,
    `kb.c32(4)`, `e.ci(0x7F)`) and each file's own functions and lambdas
    (SignificantBits.h's `c(0)`). A class's method counts, whatever the
    receiver (`obj.m(`, `ptr->m(`, `Class::m(`), in the files that define or
    include the class; a free function or a lambda in the file that defines
    it.
A statement is the text between two `;` (outside parentheses) of one block;
the bodies of lambdas and blocks nested in it are statements of their own.
Comments, string and character literals and preprocessor lines are ignored.

Usage: check-op-order.py [--known LIST] [FILE...]   (default: the tracked
C/C++ files under lib/, include/, tools/, unittests/ and python/src/, with
scripts/check-op-order-known.txt: the per-file counts of the breaches not
split yet). Prints each breach as FILE:LINE; exit status 1 if a file has more
breaches than LIST allows it (none for a file LIST does not name), else 0.
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIRS = ["lib", "include", "tools", "unittests", "python/src"]

TOKEN = re.compile(
    r"""(?P<ws>\s+)
      | (?P<comment>//[^\n]*|/\*.*?\*/)
      | (?P<raw>R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)")
      | (?P<str>(?:u8|u|U|L)?"(?:\\.|[^"\\\n])*")
      | (?P<chr>(?:u8|u|U|L)?'(?:\\.|[^'\\\n])+')
      | (?P<num>\.?\d(?:[\w.']|[eEpP][+-])*)
      | (?P<id>[A-Za-z_]\w*)
      | (?P<punct>::|->|\+\+|--|&&|\|\||<<=|>>=|[-+*/%&|^!=<>]=|.)
    """, re.S | re.X)

# HELPERS: the helper builders that wrap op creation. Every class or struct of
# the scanned files counts (its methods that create ops); today's are
#   F32Builder          lib/Dialect/FP8/Transforms/ExpandMath.cpp (fb.add, fb.f)
#   IREval              lib/Dialect/FP8/Utils/FP8Arith.cpp (e.addi, e.ci)
#   KernelBuilder       lib/Conversion/FP8ToNVVM/KernelBuilder.h (kb.c32, ir.add)
#   KernelEmitter and the GemmEmitter/QuantizeEmitter pieces
#   HostBuilder         lib/Conversion/FP8ToNVVM/Launchers.cpp (h.idx, h.input)
#   TiledKernelBuilder  lib/Conversion/FP8ToLinalg/TiledScaledMatmul.cpp (cst)
#   TileScaledMatmulPass.cpp's index helper (t.idx, t.mul)
# plus each file's own op-creating functions and lambdas
# (SignificantBits.h's `c(0)`, OutlineHostKernels.cpp's `cst(1)`).

# A `{` after one of these opens a block or a lambda body (statements of
# their own); after anything else it opens a braced initializer list.
BLOCK_AFTER = {")", "]", ";", "{", "}", ":", "else", "do", "try", "mutable",
               "noexcept", "const", "override", "final", "namespace"}
CLASS_HEAD = {"struct", "class", "union", "enum", "namespace"}
NOT_CALLS = {"if", "for", "while", "switch", "catch", "return", "sizeof",
             "decltype", "alignof", "static_assert", "defined"}
CALL_AFTER_ID = {"return", "else", "case", "throw", "co_return", "co_yield"}


def tokenize(text):
    """(token, line) pairs without whitespace, comments, literals' contents
    and preprocessor lines."""
    text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", lambda m: "\n" * m.group().count("\n"), text,
                  flags=re.M)
    toks, line = [], 1
    for m in TOKEN.finditer(text):
        kind, s = m.lastgroup, m.group()
        if kind in ("str", "raw", "chr"):
            toks.append(('"', line))
        elif kind not in ("ws", "comment"):
            toks.append((s, line))
        line += s.count("\n")
    return toks


def match_close(toks, i):
    """The index of the bracket closing the one at i."""
    open_, close = toks[i][0], {"(": ")", "[": "]", "{": "}"}[toks[i][0]]
    depth = 0
    for j in range(i, len(toks)):
        if toks[j][0] == open_:
            depth += 1
        elif toks[j][0] == close:
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def is_block(toks, i, stmt_start):
    """Whether the `{` at i opens a block, a function, lambda or class body
    (rather than a braced initializer list); stmt_start is where its
    statement begins."""
    prev = toks[i - 1][0] if i else ";"
    if prev in BLOCK_AFTER:
        return True
    head = [t for t, _ in toks[stmt_start:i]]
    if any(t in CLASS_HEAD for t in head[:4]) and "(" not in head and "=" not in head:
        return True
    # A lambda's trailing return type: `) -> T {`.
    depth = 0
    for t in reversed(head):
        if t in (")", "]", ">"):
            depth += 1
        elif t in ("(", "[", "<"):
            depth -= 1
        elif depth == 0 and t in (";", ",", "=", "{", "}"):
            return False
        elif depth == 0 and t == "->":
            return True
    return False


def structure(toks):
    """The statements (lists of token indices, nested bodies left out) and
    the bodies: (name, first, last) for every function or lambda body."""
    statements, bodies = [], []
    # Each open block: the token indices of its current statement.
    stack, stmt, stmt_start, parens = [], [], 0, 0
    i = 0
    while i < len(toks):
        t = toks[i][0]
        if t in ("(", "["):
            parens += 1
        elif t in (")", "]"):
            parens -= 1
        if t == "{" and is_block(toks, i, stmt_start):
            end = match_close(toks, i)
            bodies.append((body_name(toks, i, stmt_start), i, end))
            if parens > 0:
                # A lambda argument: the call goes on after its body.
                stack.append((stmt, stmt_start, parens))
            else:
                # The text before a block is a statement of its own (an
                # `if (...)` condition, a function's signature).
                if stmt:
                    statements.append(stmt)
                stack.append(([], i + 1, 0))
            stmt, stmt_start, parens = [], i + 1, 0
        elif t == "}" and stack and parens <= 0:
            if stmt:
                statements.append(stmt)
            stmt, stmt_start, parens = stack.pop()
        elif t == ";" and parens <= 0:
            statements.append(stmt)
            stmt, stmt_start = [], i + 1
        else:
            stmt.append(i)
        i += 1
    if stmt:
        statements.append(stmt)
    return statements, bodies


def body_name(toks, i, stmt_start):
    """What a body defines: ("function", name) for `name(...) ... {`,
    ("lambda", name) for `auto name = [...](...) {`, ("lambda", None) for
    another lambda, or None (a block)."""
    head = [t for t, _ in toks[stmt_start:i]]
    if head and head[-1] in ("]", "mutable"):
        return ("lambda", None)
    if "[" in head and "=" in head:
        k = head.index("=")
        if k >= 1 and re.match(r"[A-Za-z_]\w*$", head[k - 1]) and "[" in head[k:k + 2]:
            return ("lambda", head[k - 1])
    if ")" not in head:
        return None
    # The `(` matching the last `)` before the body.
    j = len(head) - 1 - head[::-1].index(")")
    depth = 0
    for k in range(j, -1, -1):
        if head[k] == ")":
            depth += 1
        elif head[k] == "(":
            depth -= 1
            if depth == 0:
                if k >= 1 and re.match(r"[A-Za-z_]\w*$", head[k - 1]) and head[k - 1] not in NOT_CALLS:
                    if "[" not in head[max(0, k - 3):k]:
                        return ("function", head[k - 1])
                if k >= 1 and head[k - 1] == "]":
                    return ("lambda", None)
                return None
    return None


def is_call(toks, i, names, local=(), helpers=()):
    """Whether the token at i starts an op-creating call: names are the
    helper methods (unqualified only inside the helpers' bodies `helpers`),
    local the file's own op-creating functions and lambdas."""
    t = toks[i][0]
    nxt = toks[i + 1][0] if i + 1 < len(toks) else ""
    prev = toks[i - 1][0] if i else ""
    if t == "create" and prev == "::" and nxt == "(":
        return True
    if t == "replaceOpWithNewOp" and nxt == "<":
        return True
    if nxt != "(":
        return False
    member = prev in (".", "->", "::")  # obj.m(, ptr->m(, Class::m(
    if not (t in local and not member
            or t in names and (member or any(a < i < b for a, b in helpers))):
        return False  # not op-creating, or a namesake of a helper's method
    if re.match(r"[A-Za-z_]\w*$", prev) and prev not in CALL_AFTER_ID:
        return False  # a declaration `Value add(...)`
    return prev not in (">", "~")


def arguments(toks, k):
    """The token range (open, close) of the argument list of the call at k."""
    j = k + 1
    if toks[j][0] == "<":  # replaceOpWithNewOp<OpTy>(
        depth = 0
        while j < len(toks):
            depth += {"<": 1, ">": -1}.get(toks[j][0], 0)
            j += 1
            if depth == 0:
                break
    return j, match_close(toks, j)


def innermost_bracket(toks, start, first, last):
    """The innermost bracket of the statement beginning at token `start`
    that is open around both tokens first < last, or None."""
    depth = 0
    for k in range(last - 1, start - 1, -1):
        t = toks[k][0]
        if t in (")", "]", "}"):
            depth += 1
        elif t in ("(", "[", "{"):
            if depth:
                depth -= 1
            elif k < first:
                return t
    return None


def unsequenced(toks, start, calls):
    """Two of the calls (token indices, in order) evaluated in an order C++
    leaves unspecified, or None. Sequenced are: a call inside another's
    arguments (evaluated before it), and two calls in different elements of
    one braced initializer list (evaluated left to right)."""
    spans = [arguments(toks, k) for k in calls]
    for a in range(len(calls)):
        for b in range(a + 1, len(calls)):
            if spans[a][0] < calls[b] < spans[a][1]:
                continue
            if innermost_bracket(toks, start, calls[a], calls[b]) == "{":
                continue
            return calls[a], calls[b]
    return None


def helper_spans(toks):
    """The token ranges of the bodies of the classes defined here."""
    spans = []
    for k in range(len(toks) - 1):
        if toks[k][0] in ("struct", "class") and re.match(r"[A-Za-z_]\w*$", toks[k + 1][0]):
            j = k + 2
            while j < len(toks) and toks[j][0] not in ("{", ";"):
                j += 1
            if j < len(toks) and toks[j][0] == "{":
                spans.append((j, match_close(toks, j)))
    return spans


def includes(files):
    """{file: the files it includes, directly or not}, among `files` (an
    include "a/b.h" is a file whose path ends with a/b.h)."""
    direct = {}
    for f in files:
        text = Path(f).read_text(errors="replace")
        names = re.findall(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', text, flags=re.M)
        direct[f] = {g for n in names for g in files if g.endswith("/" + n) or g == n}
    closure = {}
    for f in files:
        seen, todo = set(), [f]
        while todo:
            for g in direct[todo.pop()] - seen:
                seen.add(g)
                todo.append(g)
        closure[f] = seen
    return closure


def analyse(files):
    parsed = {}
    for f in files:
        toks = tokenize(Path(f).read_text(errors="replace"))
        statements, bodies = structure(toks)
        parsed[f] = (toks, statements, bodies)
    # A helper's methods are op-creating in the files that define or
    # include it (others' `.alloc(` or `.add(` are namesakes).
    methods, local = {f: set() for f in files}, {f: set() for f in files}
    seen_by = includes(files)
    spans = {f: helper_spans(toks) for f, (toks, _, _) in parsed.items()}
    changed = True
    while changed:
        changed = False
        names = {f: methods[f].union(*(methods[g] for g in seen_by[f])) for f in files}
        for f, (toks, _, bodies) in parsed.items():
            helpers = spans[f]
            lambdas = [(a, b) for n, a, b in bodies if n and n[0] == "lambda"]
            for name, first, last in bodies:
                if name is None or name[1] is None:
                    continue
                method = name[0] == "function" and any(a < first < b for a, b in helpers)
                into = methods[f] if method else local[f]
                if name[1] in into:
                    continue
                # A lambda defined in the body creates ops when it is called,
                # not when the body runs (a function returning a lambda).
                own = [k for k in range(first, last)
                       if not any(first < a < k < b for a, b in lambdas)]
                if any(is_call(toks, k, names[f], local[f], helpers) for k in own):
                    into.add(name[1])
                    changed = True
    breaches = []
    for f, (toks, statements, _) in parsed.items():
        for stmt in statements:
            calls = [k for k in stmt if is_call(toks, k, names[f], local[f], spans[f])]
            if len(calls) < 2 or any(toks[k][0] == "?" for k in stmt):
                continue
            pair = unsequenced(toks, stmt[0], calls)
            if pair:
                breaches.append((f, toks[pair[0]][1], [toks[k][0] for k in pair]))
    return breaches


def read_known(path):
    """{file: count} from the list of statements not split yet."""
    known = {}
    for line in Path(path).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            count, name = line.split()
            known[name] = int(count)
    return known


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="C/C++ files (default: the project's)")
    parser.add_argument("--known", help="a list of 'COUNT FILE' lines: FILE may keep up to COUNT "
                        "breaches (statements not split yet); default: none for given files, "
                        "scripts/check-op-order-known.txt for the project's")
    args = parser.parse_args()
    files = args.files
    known = args.known
    if not files:
        # Tracked and new (untracked, not ignored) files, as check-format.sh.
        globs = [f"{d}/*.{e}" for d in DIRS for e in ("h", "cpp", "c")]
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "--"] + globs,
                             cwd=ROOT, check=True, capture_output=True, text=True).stdout
        files = sorted({str(ROOT / f) for f in out.split() if (ROOT / f).is_file()})
        known = known or str(ROOT / "scripts" / "check-op-order-known.txt")
    allowed = read_known(known) if known else {}
    per_file = {}
    for f, line, calls in analyse(files):
        rel = Path(f).resolve()
        try:
            rel = rel.relative_to(ROOT)
        except ValueError:
            pass
        per_file.setdefault(str(rel), []).append((line, calls))
    failed = 0
    for name, found in sorted(per_file.items()):
        if len(found) <= allowed.get(name, 0):
            continue
        failed += len(found)
        for line, calls in sorted(found):
            print(f"{name}:{line}: {len(calls)} op-creating calls in one statement "
                  f"({', '.join(calls)}): create each op in its own statement")
    scanned = set()
    for f in files:
        try:
            scanned.add(str(Path(f).resolve().relative_to(ROOT)))
        except ValueError:
            scanned.add(f)
    for name, count in sorted(allowed.items()):
        if name in scanned and len(per_file.get(name, [])) < count:
            print(f"check-op-order: {name} has {len(per_file.get(name, []))} breaches, "
                  f"fewer than the {count} of {known}: lower its count")
    if failed:
        print(f"check-op-order: {failed} statements create more than one op (above)")
        return 1
    print(f"check-op-order: {len(files)} files, one op per statement"
          + (f" (besides {sum(n for f, n in allowed.items() if f in scanned)} known breaches)"
             if allowed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
