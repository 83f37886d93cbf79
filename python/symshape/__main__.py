"""The symshape command from the Python package: ``python -m symshape ARGS`` and the
``symshape`` console script that ``pip install`` writes run the command built with
the package (the same program as CMake's build/bin/symshape, docs/cli.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import List, Optional

# Where setup.py puts the command inside the installed package.
PACKAGED_COMMAND = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "symshape")


def command_path() -> Optional[str]:
    """The command shipped in the package, else $SYMSHAPE_CLI (a CMake build's
    build/bin/symshape when the package is imported from build/python)."""
    if os.access(PACKAGED_COMMAND, os.X_OK):
        return PACKAGED_COMMAND
    from_env = os.environ.get("SYMSHAPE_CLI")
    if from_env and os.access(from_env, os.X_OK):
        return from_env
    return None


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = command_path()
    if path is None:
        sys.stderr.write(
            "symshape: the command is not part of this installation of the Python package "
            f"(looked for {PACKAGED_COMMAND} and $SYMSHAPE_CLI); `pip install .` builds it, "
            "and a CMake build leaves it at build/bin/symshape\n"
        )
        return 1
    sys.stdout.flush()
    return subprocess.call([path, *args])


if __name__ == "__main__":
    sys.exit(main())
