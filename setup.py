"""Build the optional compiled loops, each beside the Python it twins
(``detourage._csegment``, ``detourage.victor._cvictor``, ``detourage.learned._cfeatures``,
``detourage.learned._cforest``, ``detourage.learned.rules._csteps``).

Everything else lives in pyproject.toml.  The extension is optional: where Cython or a C
compiler is missing, or the build fails, the install goes on without it and
:mod:`detourage.segment` uses its pure-Python loop.
"""

from setuptools import setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """A failed build of the extension is a warning, not an error."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - no compiler, no Python headers...
            self.warn(f"detourage extensions not built ({exc}); the pure-Python loops are used")

    def build_extension(self, ext) -> None:  # type: ignore[no-untyped-def]
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self.warn(f"{ext.name} not built ({exc}); its pure-Python twin is used")


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
