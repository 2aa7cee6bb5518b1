"""Argument checks for the odds functions: every number has a range, and beyond it a
``ValueError`` that names the argument, the range and the value given.

The ranges are wide enough for every question a game can ask (and many a lesson asks) and
narrow enough that each answer comes back in seconds with bounded memory: exact fractions
grow with the numbers, and a dynamic programme grows with the product of its sizes.
"""

from __future__ import annotations

from typing import Any

__all__ = ["at_most", "whole"]


def _show(value: Any) -> str:
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**30 else "a huge number"
    return text if len(text) <= 60 else text[:57] + "..."


def whole(name: str, value: Any, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``; else ValueError."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(
            f"{name}: expected a whole number from {low} to {high}, got {_show(value)}"
        )
    return value


def at_most(what: str, size: int, limit: int) -> None:
    """Refuse a question whose ``size`` (the work it takes, described by ``what``) is over
    ``limit``."""
    if size > limit:
        raise ValueError(f"{what} is {size:,}; the limit is {limit:,}")
