"""Small helpers shared by the odds modules: argument checks and wording."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from coronas.bounds import at_most, whole
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


MAX_COUNT = 1000
"""The largest army, legitimacy level, attempt count or sample size unless said otherwise."""
MAX_PAWNS = 100
"""The most pawns one side of an exact battle may have."""
MAX_SHIELDS = 100
"""The most experience shields one side may hold in an exact question."""
MAX_BATTLE = 20_000
"""The most ``attacker * defender * (attacker_shields + 1) * (defender_shields + 1)`` an exact
battle may cover: 8 pawns against 8 with 15 shields each (16,384) takes a few seconds."""


def _count(name: str, value: Any, low: int, high: int = MAX_COUNT) -> int:
    return whole(name, value, low, high)


def _battle_counts(
    attacker: Any, defender: Any, attacker_shields: Any, defender_shields: Any
) -> None:
    """Refuse a battle that is not pawns (1 to :data:`MAX_PAWNS`) and shields (0 to
    :data:`MAX_SHIELDS`) on each side, or is larger than :data:`MAX_BATTLE` in all."""
    _count("attacker", attacker, 1, MAX_PAWNS)
    _count("defender", defender, 1, MAX_PAWNS)
    _count("attacker_shields", attacker_shields, 0, MAX_SHIELDS)
    _count("defender_shields", defender_shields, 0, MAX_SHIELDS)
    at_most(
        "attacker x defender x (attacker_shields + 1) x (defender_shields + 1)",
        attacker * defender * (attacker_shields + 1) * (defender_shields + 1),
        MAX_BATTLE,
    )


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
