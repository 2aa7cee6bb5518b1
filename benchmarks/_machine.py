"""What the benchmark scripts print about the machine they ran on."""

from __future__ import annotations

import datetime
import os
import platform
import sys
from pathlib import Path


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def machine_line() -> str:
    """``2026-12-01 08:30 UTC, Intel(R) Xeon(R) ..., 2 cores, Python 3.11.2, Linux``."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"{now}, {cpu_name()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {platform.system()}"
    )


def table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table, columns padded so it also reads well in a terminal."""
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), rule, *(line(r) for r in rows)])


def repo_root() -> Path:
    return Path(__file__).resolve().parent.parent


def ensure_importable() -> None:
    """Let ``python benchmarks/NAME.py`` import coronas from the checkout."""
    root = str(repo_root())
    if root not in sys.path:
        sys.path.insert(0, root)
