"""The odds of the move in front of the player: what :meth:`State.odds` returns.

Every game answers ``state.odds(action)`` with an :class:`Odds` for a dice action (None for an
action that rolls no dice), built on its ``odds`` module: the exact chance that the action
achieves its aim from this very position, with every choice inside the action (rerolls paid
with shields, gold or the Crown) played optimally by both sides. At a chance node
``state.odds()`` describes the roll being made; at a reroll decision it gives the chance of
success of each choice and which one is best.

>>> from fractions import Fraction
>>> o = Odds(aim="take the castle", success=Fraction(19, 27), subject="attack Verona")
>>> print(o)
attack Verona: 19/27 (70.37%) to take the castle
>>> choice = Odds(
...     aim="win the battle", success=Fraction(7, 12), subject="reroll or keep",
...     choices=(("reroll", Fraction(7, 12)), ("keep", Fraction(1, 3))),
... )
>>> choice.best
'reroll'
>>> print(choice)
reroll or keep: reroll: 7/12 (58.33%) to win the battle; keep: 1/3 (33.33%)
"""

from __future__ import annotations

import dataclasses
from html import escape
from typing import Any

from coronas.formatting import probability_text

__all__ = ["Odds"]


@dataclasses.dataclass(frozen=True)
class Odds:
    """The exact chance that a dice action (or the roll being made) achieves its aim.

    * ``aim``: what the player does it for, in words ("take the castle of Verona");
    * ``success``: the exact chance of that aim, every choice inside the action played
      optimally (sympy ``Rational``, or ``Fraction`` under
      :func:`coronas.dice.exact_fractions`);
    * ``subject``: what is being judged ("attack castle Verona with 3 armies");
    * ``roll``: at a chance node, the chance that this one roll succeeds (None otherwise);
    * ``choices``: at a decision inside an action (reroll or keep), ``(choice, chance of the
      aim)`` for each choice, best first or in the game's order; ``best`` is the optimal one;
    * ``detail``: the odds module's full result (survivors, shields or gold spent, policy).
    """

    aim: str
    success: Any
    subject: str = ""
    roll: Any = None
    choices: tuple[tuple[Any, Any], ...] = ()
    detail: Any = dataclasses.field(default=None, compare=False)

    @property
    def best(self) -> Any:
        """The choice with the highest chance of the aim (the first of equals), or None."""
        if not self.choices:
            return None
        top = max(p for _, p in self.choices)
        return next(c for c, p in self.choices if p == top)

    def __str__(self) -> str:
        head = f"{self.subject}: " if self.subject else ""
        if self.choices:
            parts = [f"{c}: {probability_text(p)}" for c, p in self.choices]
            parts[0] += f" to {self.aim}"
            return head + "; ".join(parts)
        text = f"{head}{probability_text(self.success)} to {self.aim}"
        if self.roll is not None:
            text += f" (this roll: {probability_text(self.roll)})"
        return text

    def _repr_html_(self) -> str:
        head = f"<b>{escape(self.subject)}</b>: " if self.subject else ""
        if self.choices:
            best = self.best
            rows = "".join(
                f"<tr><td>{'&#9733; ' if c == best else ''}{escape(str(c))}</td>"
                f"<td>{escape(probability_text(p))}</td></tr>"
                for c, p in self.choices
            )
            return f"<div>{head}chance to {escape(self.aim)} by choice<table>{rows}</table></div>"
        roll = (
            f"; this roll: {escape(probability_text(self.roll))}" if self.roll is not None else ""
        )
        return (
            f"<div>{head}<b>{escape(probability_text(self.success))}</b> to "
            f"{escape(self.aim)}{roll}</div>"
        )
