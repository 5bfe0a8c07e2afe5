"""The one version number (contract §23): the package's (`pyproject.toml`), served by `GET /health` and as the
OpenAPI document's `info.version`."""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def package_version() -> str:
    """The version in the source tree's `pyproject.toml` when there is one (a checkout, whatever was installed
    from it last), else the installed package's."""
    try:
        return str(tomllib.loads(PYPROJECT.read_text())["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        pass
    try:
        return version("courtside")
    except PackageNotFoundError:
        return "0.0.0"
