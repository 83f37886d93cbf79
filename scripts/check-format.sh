#!/usr/bin/env bash
# Checks that every C++ source of the repository is formatted by clang-format
# under the repository's .clang-format (Debian 12's clang-format 14). With
# --fix, formats them in place instead.
#
#   bash scripts/check-format.sh [--fix]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

FORMAT=${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || true)}
[[ -n "$FORMAT" ]] || { echo "check-format: clang-format not found (scripts/install-deps.sh installs it)" >&2; exit 1; }

mapfile -t files < <(git ls-files '*.hpp' '*.cpp' '*.h' '*.cc')
if [[ "${1:-}" == --fix ]]; then
  "$FORMAT" -i "${files[@]}"
  echo "check-format: formatted ${#files[@]} files"
else
  "$FORMAT" --dry-run --Werror "${files[@]}"
  echo "check-format: ${#files[@]} files clean"
fi
