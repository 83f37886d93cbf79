#!/usr/bin/python3
"""Checks that `pip install .` works offline and installs a working package:
installs the repository into DIR/site (--no-build-isolation --no-index, the
system's setuptools and pybind11), then imports it from there in a fresh
process and runs a smoke test. ctest runs it as python.pip_install.

    /usr/bin/python3 python/pip_install_check.py DIR
"""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SMOKE = """
import os, sys
import symshape
from symshape.testing import FLOAT, infer, ts
assert os.path.dirname(symshape.__file__) == os.path.join(sys.argv[1], "symshape"), symshape.__file__
assert infer("Add", [ts(FLOAT, ["batch", 3]), ts(FLOAT, [3])]) == [ts(FLOAT, ["batch", 3])]
assert symshape.simplify("2*b//b") == "2"
assert os.path.exists(os.path.join(sys.argv[1], "symshape", "py.typed"))
assert os.path.exists(os.path.join(sys.argv[1], "symshape", "_symshape.pyi"))
print("pip install check: the installed package imports and infers")
"""

# The command, as `python -m symshape` and as the console script pip writes.
COMMAND_SMOKE = """
import subprocess, sys
version = subprocess.run([sys.executable, "-m", "symshape", "--version"], capture_output=True, text=True, check=True)
assert version.stdout.startswith("symshape "), version.stdout
script = subprocess.run([sys.argv[1] + "/bin/symshape", "simplify", "2*b//b"], capture_output=True, text=True, check=True)
assert script.stdout == "2\\n", script.stdout
bad = subprocess.run([sys.executable, "-m", "symshape", "infer", "/nonexistent.onnx"], capture_output=True, text=True)
assert bad.returncode == 1 and "cannot open" in bad.stderr, (bad.returncode, bad.stderr)
print("pip install check: python -m symshape and the symshape script run the command")
"""


def main() -> int:
    out = os.path.abspath(sys.argv[1])
    site = os.path.join(out, "site")
    shutil.rmtree(site, ignore_errors=True)
    env = dict(os.environ, SYMSHAPE_JOBS=os.environ.get("SYMSHAPE_JOBS", "1"), SYMSHAPE_PIP_BUILD_BASE=os.path.join(out, "build"))
    env.pop("PYTHONPATH", None)
    cmd = [sys.executable, "-m", "pip", "install", ROOT, "--no-build-isolation", "--no-index", "--no-deps",
           "--disable-pip-version-check", "--target", site]
    subprocess.run(cmd, check=True, env=env, cwd=out)
    subprocess.run([sys.executable, "-c", SMOKE, site], check=True, env=dict(env, PYTHONPATH=site), cwd=out)
    subprocess.run([sys.executable, "-c", COMMAND_SMOKE, site], check=True, env=dict(env, PYTHONPATH=site), cwd=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
