"""How coronas writes a probability and a count, the same way everywhere.

A probability is shown as its exact fraction and its percentage, ``7/12 (58.33%)``: in the
command line, the widgets, the notebooks and every result's ``str``. Floats appear only in
plots.

>>> from fractions import Fraction
>>> probability_text(Fraction(7, 12))
'7/12 (58.33%)'
>>> probability_text(1)
'1 (100.00%)'
>>> plural(1, "reroll"), plural(2, "reroll")
('1 reroll', '2 rerolls')
"""

from __future__ import annotations

from typing import Any

__all__ = ["percent", "plural", "probability_text"]


def percent(p: Any, digits: int = 2) -> str:
    """``p`` (an exact probability) as a percentage: ``58.33%``."""
    return f"{float(p) * 100:.{digits}f}%"


def probability_text(p: Any) -> str:
    """An exact probability and its percentage: ``7/12 (58.33%)``."""
    return f"{p} ({percent(p)})"


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``1 reroll``, ``2 rerolls`` (``many`` for an irregular plural)."""
    return f"{n} {noun if n == 1 else (many or noun + 's')}"
