"""Build the optional compiled segmentation (``detourage._csegment``).

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
            self.warn(f"detourage._csegment not built ({exc}); the pure-Python segmentation is used")

    def build_extension(self, ext) -> None:  # type: ignore[no-untyped-def]
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self.warn(f"detourage._csegment not built ({exc}); the pure-Python segmentation is used")


def extensions() -> list:
    try:
        import lxml
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError:
        return []
    ext = Extension("detourage._csegment", ["src/detourage/_csegment.pyx"],
                    include_dirs=lxml.get_include(), optional=True)
    try:
        return cythonize([ext], language_level=3, quiet=True)
    except Exception:  # noqa: BLE001 - a Cython error must not stop the install
        return []


setup(
    ext_modules=extensions(),
    cmdclass={"build_ext": OptionalBuildExt},
    # the generated C file and the Cython source are build inputs, not package data
    exclude_package_data={"detourage": ["*.c", "*.pyx"]},
)
