"""pip install . (offline: --no-build-isolation): builds the extension
symshape._symshape with CMake (the target symshape_python of this repository,
with Debian's pybind11-dev) and installs it with python/symshape/."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
BUILD_BASE = os.environ.get("SYMSHAPE_PIP_BUILD_BASE", "build-pip")
os.makedirs(BUILD_BASE, exist_ok=True)  # egg_info needs its folder to exist


def project_version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(symshape VERSION ([0-9.]+)", text).group(1)


def default_jobs() -> int:
    """One compilation per core, at most one per 1.5 GiB of available memory: a unit
    that includes every rule takes about 0.5-1 GiB, so every core of a large machine
    with little memory would swap (SYMSHAPE_JOBS overrides)."""
    cores = os.cpu_count() or 1
    try:
        with open("/proc/meminfo") as f:
            fields = dict(line.split(":", 1) for line in f)
        available_kib = int(fields["MemAvailable"].split()[0])
    except (OSError, KeyError, ValueError):
        return cores
    return max(1, min(cores, int(available_kib / (1.5 * 1024 * 1024))))


class CMakeExtension(Extension):
    def __init__(self, name: str):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Configures this repository with only the Python package on and builds it."""

    def build_extension(self, ext: Extension) -> None:
        build_dir = Path(self.build_temp).resolve() / "cmake"
        build_dir.mkdir(parents=True, exist_ok=True)
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            f"-DPython3_EXECUTABLE={sys.executable}",
            "-DSYMSHAPE_BUILD_PYTHON=ON", "-DSYMSHAPE_BUILD_TESTS=OFF", "-DSYMSHAPE_BUILD_BENCH=OFF",
            "-DSYMSHAPE_BUILD_EXAMPLES=OFF", "-DSYMSHAPE_BUILD_TOOLS=ON",
            # The command links the module's precompiled rules (python/CMakeLists.txt):
            # the rules are compiled once, not twice.
            "-DSYMSHAPE_BUILD_COMPILED=OFF",
        ]
        subprocess.run(configure, check=True)
        jobs = os.environ.get("SYMSHAPE_JOBS", str(default_jobs()))
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "symshape_python", "symshape_cli", "-j", jobs],
                       check=True)
        built = sorted((build_dir / "python" / "symshape").glob("_symshape*.so"))
        if not built:
            raise RuntimeError(f"the CMake build left no _symshape module in {build_dir / 'python' / 'symshape'}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)
        # The command, run by `python -m symshape` and the console script (symshape/__main__.py).
        command = build_dir / "bin" / "symshape"
        if not command.exists():
            raise RuntimeError(f"the CMake build left no symshape command at {command}")
        packaged = target.parent / "bin" / "symshape"
        packaged.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(command, packaged)


setup(
    name="symshape",
    version=project_version(),
    description="Symbolic shape inference of ONNX models (C++ core, Python binding)",
    long_description=(ROOT / "docs" / "python.md").read_text() if (ROOT / "docs" / "python.md").exists() else "",
    long_description_content_type="text/markdown",
    python_requires=">=3.8",
    packages=["symshape"],
    package_dir={"": "python"},
    package_data={"symshape": ["py.typed", "*.pyi"]},
    ext_modules=[CMakeExtension("symshape._symshape")],
    cmdclass={"build_ext": CMakeBuild},
    # ModelProto in and out; bytes and paths work without it.
    install_requires=["onnx"],
    entry_points={"console_scripts": ["symshape = symshape.__main__:main"]},
    # The CMake build goes to build-pip/ (or $SYMSHAPE_PIP_BUILD_BASE), apart from build/,
    # and so does the egg-info, which setuptools would otherwise write into python/.
    options={"build": {"build_base": BUILD_BASE}, "egg_info": {"egg_base": BUILD_BASE}},
    zip_safe=False,
)
