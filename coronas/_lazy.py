"""Lazy package attributes (PEP 562), so that a light module of a game loads alone.

``import coronas.hierro.rules`` runs ``coronas/hierro/__init__.py`` first. If that file
imported the engine, every odds question would pay for the engine and networkx. Instead
a game package names what it exports and where it lives; a name is imported the first time
it is used, and then kept in the package like an ordinary attribute.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of a package with lazy exports.

    ``exports`` maps each public name to the submodule that defines it, relative to the
    package (``"state"``), or to ``"submodule:attribute"`` when the name is an alias. The
    package's submodules are attributes too (``coronas.hierro.board`` after ``import
    coronas.hierro``), as they are once imported.
    """

    def __getattr__(name: str) -> Any:
        target = exports.get(name)
        if target is not None:
            module, _, attribute = target.partition(":")
            value = getattr(importlib.import_module(f"{package}.{module}"), attribute or name)
            setattr(sys.modules[package], name, value)  # later look-ups skip this function
            return value
        if not name.startswith("_") and importlib.util.find_spec(f"{package}.{name}"):
            return importlib.import_module(f"{package}.{name}")
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *exports})

    return __getattr__, __dir__
