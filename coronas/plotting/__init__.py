"""matplotlib drawings: maps, rings, kingdom boards, odds tables and Markov chains.

The only part of the library (with :mod:`coronas.widgets`) that imports matplotlib, and it
does so lazily, so ``import coronas`` stays light and headless use needs no display.
Each game keeps its drawings in a submodule here; :func:`write_figures` regenerates
``figures/`` (the ``coronas figures`` command).
"""

from __future__ import annotations

import importlib
from pathlib import Path

__all__ = ["FIGURE_MODULES", "write_figures"]

FIGURE_MODULES = (
    "coronas.plotting.hierro",
    "coronas.plotting.carolus",
    "coronas.plotting.batalla",
    "coronas.plotting.odds",
)
"""Submodules that contribute a ``write_figures(outdir) -> list[Path]`` function."""


def write_figures(outdir: str | Path = "figures") -> list[Path]:
    """Draw every figure of the project into ``outdir`` and return the files written."""
    import matplotlib

    matplotlib.use("Agg")
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name in FIGURE_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        writer = getattr(module, "write_figures", None)
        if writer is not None:
            written.extend(writer(outdir))
    return written
