#!/usr/bin/env python3
"""Writes the rule list at the end of each op family header from the header's
SYMSHAPE_RULES lines, so that a rule is written once plus its registration
line: the `family_rules<...>` list is derived, never kept by hand.

    python3 scripts/gen_family_lists.py            # rewrite the lists that differ (then clang-format them)
    python3 scripts/gen_family_lists.py --check    # exit 1 when a list differs

A family header is an include/symshape/ops/*.hpp or ops/microsoft/*.hpp file
with a `family_rules<...>(` list; ops/all.hpp and the shared helpers in
ops/common/ and ops/microsoft/common.hpp have none. Needs only Python 3.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
REGISTRATION = re.compile(r"^SYMSHAPE_RULES\((\w+),", re.MULTILINE)
FAMILY_LIST = re.compile(r"family_rules<([^>]*)>\(", re.DOTALL)


def family_headers():
    ops = os.path.join(ROOT, "include", "symshape", "ops")
    headers = glob.glob(os.path.join(ops, "*.hpp")) + glob.glob(os.path.join(ops, "microsoft", "*.hpp"))
    return sorted(h for h in headers if os.path.basename(h) != "all.hpp")  # all.hpp merges the families


def derived(text):
    """The header's text with its family list derived from its registrations;
    None when it has no list."""
    match = FAMILY_LIST.search(text)
    if not match:
        return None
    names = [name + "_rules" for name in REGISTRATION.findall(text)]
    listed = [name.strip() for name in match.group(1).split(",") if name.strip()]
    if listed == names:
        return text
    return text[:match.start(1)] + ", ".join(names) + text[match.end(1):]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a family list differs")
    args = parser.parse_args()
    stale = []
    for path in family_headers():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = derived(text)
        if new is None or new == text:
            continue
        stale.append(os.path.relpath(path, ROOT))
        if not args.check:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
    if args.check:
        for path in stale:
            print(f"gen_family_lists: {path}: its family_rules<...> list differs from its SYMSHAPE_RULES lines "
                  "(run scripts/gen_family_lists.py)", file=sys.stderr)
        return 1 if stale else 0
    if stale:
        fmt = shutil.which("clang-format-14") or shutil.which("clang-format")
        if fmt:
            subprocess.run([fmt, "-i", *[os.path.join(ROOT, p) for p in stale]], check=True)
        print("gen_family_lists: rewrote " + ", ".join(stale))
    else:
        print("gen_family_lists: every family list is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
