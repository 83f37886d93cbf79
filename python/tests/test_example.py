"""examples/python/quickstart.py runs and prints what it says."""

import os
import subprocess
import sys

EXAMPLE = os.path.join(os.path.dirname(__file__), "../../examples/python/quickstart.py")


def test_quickstart_runs():
    out = subprocess.run([sys.executable, EXAMPLE], capture_output=True, text=True, check=True).stdout
    assert "output y: ['past_batch', 'past+2*seq', 64]" in out
    assert "y at past_batch=2, seq=8, past=5: (2, 21, 64)" in out
    assert "past_batch == batch" in out
    assert "error: <ModelProto>: error: node #1 'proj' (MatMul): incompatible inner dimensions" in out
