"""The odds of the move at hand, for the stepper and ``coronas advise``: worded, as data, and
cached per position.

Everything comes from the engine's :meth:`State.odds <coronas.engine.State.odds>`, which
returns an :class:`~coronas.engine.advice.Odds` (or None for an action without dice); this
module only words it, turns it into JSON-ready data, and remembers it while the position
stays the same, so that showing odds never costs more than one computation per action and
position.

>>> from fractions import Fraction
>>> from coronas.engine.advice import Odds
>>> print(odds_phrase(Odds(aim="take the castle", success=Fraction(19, 27))))
19/27 (70.37%) to take the castle
>>> advice = Odds(
...     aim="win the battle", success=Fraction(7, 12),
...     choices=(("reroll", Fraction(7, 12)), ("keep", Fraction(1, 3))),
... )
>>> print(odds_phrase(advice))
reroll: 7/12 (58.33%) to win the battle (best); keep: 1/3 (33.33%)
>>> exact_record(Fraction(7, 12))
{'fraction': '7/12', 'float': 0.5833333333333334}
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from coronas.dice import exact_fractions
from coronas.engine import IllegalAction, State
from coronas.engine.advice import Odds
from coronas.formatting import readable_probability

__all__ = ["PositionOdds", "exact_record", "odds_phrase", "odds_record"]

_PENDING = object()  # the cache's key for state.odds() without an action


def odds_phrase(odds: Odds, subject: bool = False, exact: bool = False) -> str:
    """The odds in words: ``19/27 (70.37%) to take the castle``; at a chance node the roll
    being made comes first (``this roll: 1/2 (50.00%); in all: 7/8 (87.50%) to ...``); at a
    reroll decision every choice with its chance, the best marked (none when all are equal).
    Their subject (``attack Verona: ...``) only with ``subject``: next to an action it would
    say the action again. A fraction too long to read is given as its percentage
    (:func:`~coronas.formatting.readable_probability`), unless ``exact``."""
    head = f"{odds.subject}: " if subject and odds.subject else ""
    return head + _phrase(odds, exact)


def _phrase(odds: Odds, exact: bool) -> str:
    if odds.choices:
        chances = {p for _, p in odds.choices}
        best = odds.best if len(chances) > 1 else None
        parts = []
        for choice, p in odds.choices:
            part = f"{choice}: {readable_probability(p, exact)}"
            if not parts:
                part += f" to {odds.aim}"
            parts.append(part + (" (best)" if best is not None and choice == best else ""))
        text = "; ".join(parts)
        return text if best is not None else text + " (all the same)"
    text = f"{readable_probability(odds.success, exact)} to {odds.aim}"
    if odds.roll is not None and odds.roll != odds.success:
        return f"this roll: {readable_probability(odds.roll, exact)}; in all: {text}"
    return text


def exact_record(p: Any) -> dict[str, Any] | None:
    """An exact probability for JSON: ``{"fraction": "19/27", "float": 0.7037...}`` (None
    stays None)."""
    if p is None:
        return None
    return {"fraction": str(p), "float": float(p)}


def odds_record(odds: Odds | None) -> dict[str, Any] | None:
    """The odds as JSON-ready data: subject, aim, success, roll, choices, best and the
    phrase; every probability as :func:`exact_record` writes it. None for None."""
    if odds is None:
        return None
    return {
        "subject": odds.subject,
        "aim": odds.aim,
        "success": exact_record(odds.success),
        "roll": exact_record(odds.roll),
        "choices": [
            {"choice": str(choice), "success": exact_record(p)} for choice, p in odds.choices
        ],
        "best": None if odds.best is None else str(odds.best),
        "text": odds_phrase(odds),
    }


class PositionOdds:
    """``state.odds(action)`` remembered for the position it was asked in.

    The answers are computed in plain Fractions (:func:`~coronas.dice.exact_fractions`, fast
    and without sympy; the values are the same) the first time they are asked for, and kept
    until the position changes: another state, or a step played or taken back (the length of
    the history and its last step tell). :meth:`clear` forgets them at once.
    """

    def __init__(self) -> None:
        self._mark: Hashable = None
        self._known: dict[Any, Odds | None] = {}

    @staticmethod
    def _position(state: State) -> Hashable:
        history = state.history
        return (id(state), len(history), history[-1] if history else None)

    def clear(self) -> None:
        """Forget every answer (call it when the position changes)."""
        self._mark = None
        self._known.clear()

    def get(self, state: State, action: Any = None) -> Odds | None:
        """``state.odds(action)``, computed once per position; None for an action without
        dice, and for one that is not legal here (the odds of a move that cannot be made)."""
        mark = self._position(state)
        if mark != self._mark:
            self._known.clear()
            self._mark = mark
        key = _PENDING if action is None else action
        if key not in self._known:
            try:
                with exact_fractions():
                    self._known[key] = state.odds(action)
            except IllegalAction:
                self._known[key] = None
        return self._known[key]
