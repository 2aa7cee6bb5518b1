"""What every situation of the companion shares: its description as data, the answer's layout,
the inverse question's search and the dice drawn in HTML.

A situation (:mod:`coronas.widgets.situations` holds them) states its fields as a table of
:class:`~coronas.widgets.calculators.Field` (name, label, kind, range, default), which the
companion's one form builder turns into inputs and :class:`OddsModel` checks by name; then
its answer, a :class:`Reply` written out the same way for every situation.

>>> print(Reply("a 4 or more", Fraction(1, 2)).answer().text)
a 4 or more: 1/2 (50.00%)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from html import escape
from typing import Any, ClassVar

from coronas.dice import exact_fractions, to_fraction
from coronas.formatting import is_long, percent, readable_probability
from coronas.widgets.calculators import Answer, Field, OddsModel

__all__ = ["DIE_COLOURS", "GOAL", "Reply", "Situation", "dice_html", "die_face_html", "fewest"]

GOAL = Field("goal", "Goal for the question below (%)", 80, low=5, high=95, step=5)
"""The chance the inverse question aims at ("how many shields for 80%?"), in percent."""

DIE_COLOURS = {"red": "#c62828", "yellow": "#f9a825", "green": "#2e7d32", "white": "#fafafa"}

# where the pips of each face sit on a 3 x 3 grid (row, column)
_PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (0, 2), (2, 0), (2, 2)],
    5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
    6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)],
}


def die_face_html(face: int, colour: str = "white", lit: bool = True) -> str:
    """One die face drawn in HTML (pips on a grid; a face beyond 6 is written as a number).
    ``lit`` False greys the face out: it is a face that does not give what is wanted."""
    back = DIE_COLOURS.get(colour, colour)
    pip = "#fff" if colour in ("red", "green") else "#222"
    style = (
        f"display:inline-grid;grid-template:repeat(3,1fr)/repeat(3,1fr);width:34px;height:34px;"
        f"padding:4px;margin:2px;border-radius:7px;border:1px solid #555;background:{back};"
        f"box-sizing:border-box;vertical-align:middle;opacity:{1 if lit else 0.28}"
    )
    if face not in _PIPS:
        return (
            f"<span title='{face}' style='{style};display:inline-flex;align-items:center;"
            f"justify-content:center;color:{pip};font-weight:bold'>{face}</span>"
        )
    dots = "".join(
        f"<span style='grid-area:{r + 1}/{c + 1};width:7px;height:7px;margin:auto;"
        f"border-radius:50%;background:{pip}'></span>"
        for r, c in _PIPS[face]
    )
    return f"<span title='{face}' style='{style}'>{dots}</span>"


def dice_html(
    faces: Sequence[int], colour: str = "white", lit: Callable[[int], bool] = bool
) -> str:
    """A die's faces side by side, those for which ``lit(face)`` is false greyed out."""
    return "".join(die_face_html(f, colour, bool(lit(f))) for f in faces)


@dataclasses.dataclass
class Reply:
    """What a situation answers, before it is written out as an :class:`Answer`: the chance
    asked for, more chances beside it, the advice and the inverse questions' answers."""

    question: str
    chance: Fraction
    more: list[tuple[str, Fraction]] = dataclasses.field(default_factory=list)
    advice: list[str] = dataclasses.field(default_factory=list)
    inverse: list[str] = dataclasses.field(default_factory=list)

    def answer(self) -> Answer:
        """The answer as text and HTML; ``values`` holds the chances and the lines."""
        p = self.chance
        exact = "" if not is_long(p) else f"<div class='coronas-exact'>= {p}</div>"
        head = f"{p} ({percent(p)})" if not is_long(p) else percent(p)
        html = [
            f"<div class='coronas-chance' data-fraction='{p}'>{escape(head)}</div>",
            f"<div class='coronas-question'>{escape(self.question)}</div>{exact}",
        ]
        text = [f"{self.question}: {readable_probability(p)}"]
        if self.more:
            rows = "".join(
                f"<tr><td>{escape(label)}</td><td><b>{escape(readable_probability(q))}</b></td></tr>"
                for label, q in self.more
            )
            html.append(f"<table class='coronas-more'>{rows}</table>")
            text += [f"{label}: {readable_probability(q)}" for label, q in self.more]
        for kind, lines in (("advice", self.advice), ("inverse", self.inverse)):
            if lines:
                items = "".join(f"<li>{escape(line)}</li>" for line in lines)
                html.append(f"<ul class='coronas-{kind}'>{items}</ul>")
                text += lines
        values: dict[str, Any] = {"chance": p, "advice": self.advice, "inverse": self.inverse}
        values.update(dict(self.more))
        return Answer(text="\n".join(text), html="".join(html), values=values)


def fewest(
    candidates: Sequence[int], chance: Callable[[int], Any], goal: Fraction
) -> tuple[int, Fraction] | None:
    """The first candidate whose chance (from an odds function) reaches ``goal``, with it."""
    for n in candidates:
        p = to_fraction(chance(n))
        if p >= goal:
            return n, p
    return None


class Situation(OddsModel):
    """One question of the companion: its fields, the rulebook's words and a picture.

    A subclass states its description as data (``game``, ``key``, ``label``, ``title``,
    ``rule``, the ``fields`` table and ``shown_when``) and its answer: ``compute`` asks the
    game's ``odds`` module (in plain Fractions, so no sympy is imported) and returns a
    :class:`Reply` written out; ``picture()`` draws the dice involved.
    """

    game: ClassVar[str] = ""
    key: ClassVar[str] = ""
    label: ClassVar[str] = ""
    rule: ClassVar[str] = ""
    shown_when: ClassVar[Mapping[str, str]] = {}
    """Inputs that matter only while a yes/no input is on: input name -> that input's name."""

    def answer(self) -> Answer:
        with exact_fractions():
            return super().answer()

    def shown(self, name: str) -> bool:
        """Whether the input ``name`` matters for the current values (the view hides the
        others): all do, but those of ``shown_when`` whose yes/no input is off."""
        self.field(name)
        switch = self.shown_when.get(name)
        return switch is None or bool(self.values[switch])

    def picture(self) -> str:
        """HTML of the dice involved, the faces that succeed lit (default: none)."""
        return ""

    def goal(self) -> Fraction:
        """The inverse question's aim, as a probability."""
        return Fraction(int(self.values["goal"]), 100)

    def ask(
        self,
        reply: Reply,
        candidates: Sequence[int],
        chance: Callable[[int], Any],
        found: Callable[[int, str], str],
        missing: str,
        about: str = "",
    ) -> None:
        """Answer an inverse question in ``reply``: "For 80%{about}: " then ``found(n, the
        chance in words)`` for the first candidate ``n`` whose ``chance`` reaches the goal,
        or ``missing`` if none does."""
        goal = self.goal()
        hit = fewest(candidates, chance, goal)
        words = found(hit[0], readable_probability(hit[1])) if hit else missing
        reply.inverse.append(f"For {percent(goal, 0)}{about}: {words}")
