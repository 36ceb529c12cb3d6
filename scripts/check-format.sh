#!/usr/bin/env bash
# Checks that every C/C++ source of the project is formatted as
# clang-format-22 formats it with .clang-format (LLVM style). Run by
# scripts/test.sh; `scripts/check-format.sh --fix` reformats in place.
# Then checks the "one op per statement" rule (scripts/check-op-order.py):
# no statement creates two ops whose order would be the compiler's argument
# evaluation order.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CLANG_FORMAT=${CLANG_FORMAT:-clang-format-22}
# Tracked and new (untracked, not ignored) files: a file not yet added is
# checked before it is committed. A tracked file deleted in the work tree
# is skipped.
files=()
while IFS= read -r f; do
  [ -f "$f" ] && files+=("$f")
done < <(git ls-files --cached --others --exclude-standard -- '*.h' '*.cpp' '*.c' | sort -u)
if [ "${1:-}" = "--fix" ]; then
  "$CLANG_FORMAT" -i "${files[@]}"
  exit 0
fi
if ! "$CLANG_FORMAT" --dry-run --Werror "${files[@]}"; then
  echo "check-format: the files above are not formatted" \
       "(scripts/check-format.sh --fix)" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
python3 scripts/check-op-order.py
