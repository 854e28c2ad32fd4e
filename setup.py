"""Build the optional compiled loops, each beside the Python it twins
(``detourage._csegment``, ``detourage.victor._cvictor``, ``detourage.learned._cfeatures``,
``detourage.learned._cforest``, ``detourage.learned.rules._csteps``).

Everything else lives in pyproject.toml.  The extension is optional: where Cython or a C
compiler is missing, or the build fails, the install goes on without it and
:mod:`detourage.segment` uses its pure-Python loop.
"""

import hashlib
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: built extensions kept by the digest of what went into them (see OptionalBuildExt)
CACHE = Path(__file__).resolve().parent / "build" / "ext-cache"


class OptionalBuildExt(build_ext):
    """A failed build of the extension is a warning, not an error."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - no compiler, no Python headers...
            self.warn(f"detourage extensions not built ({exc}); the pure-Python loops are used")

    def build_extension(self, ext) -> None:  # type: ignore[no-untyped-def]
        """Compile ``ext``, or copy the module built before from the same inputs.

        pip builds each install in a fresh environment, whose lxml and numpy headers are
        new files every time: setuptools' timestamp test then compiles every extension
        again (about 2.5 minutes), though nothing changed.  The cache key is the content
        of the sources and of every header they depend on, the compiler's flags and the
        Python build, so a new lxml or an edited ``.pyx`` still rebuilds.
        """
        target = Path(self.get_ext_fullpath(ext.name))
        cached = CACHE / f"{ext.name}-{_digest(ext)}{target.suffix}"
        if cached.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(cached, target)
            return
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self.warn(f"{ext.name} not built ({exc}); its pure-Python twin is used")
            return
        if target.is_file():
            CACHE.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(target, cached)


def _digest(ext) -> str:  # type: ignore[no-untyped-def]
    """What the compiled module is made of: its files' bytes (sources and the headers
    Cython found), the flags, and the interpreter it is built for."""
    h = hashlib.sha256()
    for name in sorted({*ext.sources, *ext.depends}):
        path = Path(name)
        h.update(path.name.encode())
        h.update(path.read_bytes() if path.is_file() else b"-")
    for part in (ext.define_macros, ext.extra_compile_args, ext.extra_link_args,
                 sys.version, sysconfig.get_config_var("CFLAGS"), sysconfig.get_platform()):
        h.update(repr(part).encode())
    return h.hexdigest()[:20]


def extensions() -> list:
    try:
        import lxml
        import numpy
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError:
        return []
    exts = [Extension(f"detourage.{name}", [f"src/detourage/{name.replace('.', '/')}.pyx"],
                      include_dirs=lxml.get_include(), optional=True)
            for name in ("_csegment", "victor._cvictor", "learned._cfeatures")]
    exts += [Extension(f"detourage.{name}", [f"src/detourage/{name.replace('.', '/')}.pyx"],
                       include_dirs=[numpy.get_include()], optional=True)
             for name in ("learned._cforest", "learned.rules._csteps")]
    try:
        return cythonize(exts, language_level=3, quiet=True)
    except Exception:  # noqa: BLE001 - a Cython error must not stop the install
        return []


setup(
    ext_modules=extensions(),
    cmdclass={"build_ext": OptionalBuildExt},
    # the generated C file and the Cython source are build inputs, not package data
    exclude_package_data={"": ["*.c", "*.pyx"]},
)
