"""Chance outcomes typed as text, and actions grouped by kind, for the stepper.

>>> parse_outcome("5", ["roll 4", "roll 5"])
'roll 5'
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["action_group", "group_actions", "parse_outcome"]

_MAX_SHOWN = 12


def action_group(action: Any) -> str:
    """The readable name of an action's type: ``MoveArmy`` -> ``"Move army"``."""
    name = getattr(action, "group", None)
    if isinstance(name, str) and name:
        return name
    words = re.findall(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|\d+", type(action).__name__)
    if not words:
        return type(action).__name__
    text = " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in words)
    return text[0].upper() + text[1:]


def group_actions(actions: Iterable[Any]) -> dict[str, list[Any]]:
    """``actions`` grouped by kind (``"Move army"``: [...]), groups and actions in the order
    given (the game's order)."""
    groups: dict[str, list[Any]] = {}
    for action in actions:
        groups.setdefault(action_group(action), []).append(action)
    return groups


def _ints(outcome: Any) -> list[int]:
    """The whole numbers in an outcome's fields, in order (tuples flattened)."""
    found: list[int] = []

    def walk(value: Any) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            found.append(value)
        elif isinstance(value, tuple):
            for v in value:
                walk(v)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name))

    walk(outcome)
    return found


def _norm(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").split())


def parse_outcome(text: str, outcomes: Sequence[Any]) -> Any:
    """The chance outcome a person means by ``text`` (what they really rolled or drew).

    Accepted, in this order: the outcome's own wording (``"roll 5"``); the numbers it holds
    (``"5"``, or ``"3 5"`` / ``"3,5"`` for two dice, in either order when only one outcome
    fits); a piece of its wording that fits one outcome only (``"joker"``).
    Raises ``ValueError`` with the possible outcomes if nothing (or more than one) fits.
    """
    wanted = _norm(text)
    if not wanted:
        raise ValueError("type what was rolled or drawn, e.g. " + _listing(outcomes, 3))
    exact = [o for o in outcomes if _norm(str(o)) == wanted]
    if len(exact) == 1:
        return exact[0]
    candidates: list[Any] = []
    if re.fullmatch(r"[-\d\s]+", wanted):
        numbers = [int(n) for n in wanted.split()]
        candidates = [o for o in outcomes if _ints(o) == numbers]
        if not candidates:
            candidates = [o for o in outcomes if sorted(_ints(o)) == sorted(numbers)]
        if not candidates:  # the numbers as the outcome writes them
            candidates = [
                o for o in outcomes if [int(n) for n in re.findall(r"-?\d+", str(o))] == numbers
            ]
    else:
        candidates = [o for o in outcomes if wanted in _norm(str(o))]
    if len(candidates) == 1:
        return candidates[0]
    if len(candidates) > 1:
        raise ValueError(
            f"{text.strip()!r} fits more than one outcome: {_listing(candidates)}; "
            "type it as written in the list"
        )
    raise ValueError(
        f"{text.strip()!r} is not a possible outcome here; the possible outcomes are: "
        + _listing(outcomes)
    )


def _listing(items: Sequence[Any], limit: int = _MAX_SHOWN) -> str:
    shown = ", ".join(str(o) for o in items[:limit])
    more = len(items) - limit
    return shown + (f" and {more} more" if more > 0 else "")
