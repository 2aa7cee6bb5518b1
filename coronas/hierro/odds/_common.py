"""Small helpers shared by the odds modules: argument checks and wording."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from coronas.hierro.rules import Rules


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return _default_rules()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a coronas.hierro.rules.Rules, got {rules!r}")
    return rules


@functools.lru_cache(maxsize=1)
def _default_rules() -> Rules:
    return Rules()


def _count(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name}: expected a whole number >= {low}, got {value!r}")
    return value


def _battle_counts(
    attacker: Any, defender: Any, attacker_shields: Any, defender_shields: Any
) -> None:
    """Refuse a battle that is not pawns (1 or more) and shields (0 or more) on each side."""
    _count("attacker", attacker, 1)
    _count("defender", defender, 1)
    _count("attacker_shields", attacker_shields, 0)
    _count("defender_shields", defender_shields, 0)


def _ranges(values: Iterable[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``"1-3, 5"``."""
    vals = sorted(set(values))
    out: list[str] = []
    i = 0
    while i < len(vals):
        j = i
        while j + 1 < len(vals) and vals[j + 1] == vals[j] + 1:
            j += 1
        out.append(str(vals[i]) if i == j else f"{vals[i]}-{vals[j]}")
        i = j + 1
    return ", ".join(out)
