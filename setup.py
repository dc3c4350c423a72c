"""Build the compiled core.

``TRICKCORE_DEBUG=1`` turns bounds checks, wrap-around and line annotation back on.
``TRICKCORE_ONLY=_solve,_deal`` builds only the named modules (handy for in-place builds
while working on one of them: ``TRICKCORE_ONLY=_solve python setup.py build_ext --inplace``);
shell-style patterns work too.  The point games run the point kernel's builds per shape,
which include ``_solve.pyx``: after changing it, rebuild them with the general build,
``TRICKCORE_ONLY='_solve,_solve_*x*'``, or one, e.g. ``TRICKCORE_ONLY=_solve_5x32x4``.
``TRICKCORE_BUILD_JOBS=N`` sets how many modules Cython translates at once (default: one
per CPU; the C compiles run one per CPU too).
"""

import fnmatch
import os
import platform
import re
import sys
import sysconfig
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("TRICKCORE_DEBUG", "") not in ("", "0")
ONLY = {m for m in os.environ.get("TRICKCORE_ONLY", "").split(",") if m}

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": True,
    "initializedcheck": DEBUG,
}
compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]
if platform.machine().lower() in ("x86_64", "amd64") and sys.platform != "win32":
    # Bit counts are everywhere in the kernels; without this flag GCC and Clang turn
    # __builtin_popcountll into a library call.  Every x86-64 CPU since 2008 has POPCNT.
    compile_args.append("-mpopcnt")

modules = sorted(p.stem for p in Path("src/trickcore").glob("_*.pyx"))
if ONLY:
    modules = [m for m in modules if any(fnmatch.fnmatchcase(m, pattern) for pattern in ONLY)]

# The point kernel is _solve.pyx, built as it is and once per point game's shape
# (_solve_3x20x4.pyx etc. include it): the same flags for all of them.
POINT_KERNELS = {m for m in modules if re.fullmatch(r"_solve(_\d+x\d+x\d+)?", m)}
# Python's CFLAGS bring -fwrapv (signed overflow wraps, for CPython's own C).  The point
# kernel does its arithmetic where nothing overflows, and without the flag gcc may assume
# so: callgrind, 1% fewer instructions on every point game, same nodes and values.
point_args = [] if DEBUG else ["-fno-wrapv"]
# gcc's inliner stops at its unit-growth and single-function limits inside the point
# kernel (the search's small inline helpers then stay calls, their callers' locals on the
# stack): raised, callgrind -1% to -2% on every point game (Goathead 3p exact 68.15M ->
# 66.83M, Sheepshead jd 49.88M -> 49.08M), same nodes and values.  gcc only (clang has
# no such --param).
_cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or ""
if not DEBUG and "gcc" in _cc and "clang" not in _cc:
    point_args += ["--param=inline-unit-growth=200", "--param=max-inline-insns-single=400"]
module_args = {m: point_args for m in POINT_KERNELS}

extensions = [
    Extension(
        f"trickcore.{name}",
        [f"src/trickcore/{name}.pyx"],
        include_dirs=[np.get_include(), "src/trickcore"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=compile_args + module_args.get(name, []),
    )
    for name in modules
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        annotate=DEBUG,
        include_path=["src"],
        nthreads=int(os.environ.get("TRICKCORE_BUILD_JOBS", "0")) or os.cpu_count() or 1,
    ),
    # the C compiles in parallel too: seven builds of the point kernel take a while each
    options={"build_ext": {"parallel": os.cpu_count() or 1}},
)
