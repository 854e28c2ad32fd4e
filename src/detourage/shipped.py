"""The trained models shipped in the package's ``data/`` folder, read with a clear error
when a checkout lacks one (each names the script that rebuilds it)."""

from __future__ import annotations

from importlib import resources


def model_bytes(name: str, what: str, rebuild: str, error: type[Exception]) -> bytes:
    """The bytes of ``data/<name>``; ``error`` saying how to rebuild it when it is missing."""
    try:
        return resources.files("detourage").joinpath("data", name).read_bytes()
    except FileNotFoundError:
        raise error(f"the shipped {what} {name} is missing: rebuild it with {rebuild}") from None
