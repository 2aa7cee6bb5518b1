"""Checking a reader's answer to a notebook exercise, with a friendly message.

``check("04.1", answer_1)`` looks the answer up in :mod:`coronas.widgets.answers` and prints
one line: correct, not yet answered, a hint, or "not quite". It never raises, so a wrong
answer reads as advice in the cell, not as a traceback. An exact answer is accepted in any
exact form (``Fraction(119, 144)``, ``sympy.Rational(119, 144)``, the string ``"119/144"``);
a float gets a hint to give the fraction.

>>> from fractions import Fraction
>>> check("04.1", None)
no answer yet: put yours in the cell above and run this cell again
>>> check("04.1", Fraction(238, 288))
correct: 119/144 (82.64%)
>>> check("04.1", "119/144")
correct: 119/144 (82.64%)
>>> check("04.1", 0.826)
0.826 is a decimal; give the exact answer as a fraction, e.g. Fraction(1, 3) or "1/3"
>>> check("04.1", Fraction(7, 12))
not quite: you have 7/12 (58.33%); try again, or open the worked answer above
>>> check("02.2", " lucca")
correct: Lucca
"""

from __future__ import annotations

import numbers
from fractions import Fraction
from typing import Any

from coronas.formatting import probability_text
from coronas.widgets.answers import expected

__all__ = ["check", "verdict"]

_NOT_YET = "no answer yet: put yours in the cell above and run this cell again"


def _exact(value: Any) -> Fraction | None:
    """``value`` as an exact Fraction if it is an exact number in some form, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return Fraction(value.strip().replace(" ", ""))
        except (ValueError, ZeroDivisionError):
            return None
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    p, q = getattr(value, "p", None), getattr(value, "q", None)  # sympy Rational / Integer
    if isinstance(p, int) and isinstance(q, int) and getattr(value, "is_Rational", False):
        return Fraction(p, q)
    return None


def _shown(value: Any) -> str:
    if isinstance(value, Fraction) and value.denominator != 1:
        return probability_text(value) if 0 <= value <= 1 else str(value)
    return str(value)


def verdict(exercise: str, answer: Any) -> tuple[bool | None, str]:
    """``(correct, message)`` for ``answer`` to ``exercise``: True, False, or None when
    there is no answer yet (or it needs another form)."""
    want = expected(exercise)
    if answer is None:
        return None, _NOT_YET
    if isinstance(want, bool):
        if not isinstance(answer, bool):
            return None, f"{answer!r} is not True or False; answer True or False"
        return _judge(answer == want, want, answer)
    if isinstance(want, str):
        if not isinstance(answer, str):
            return None, f'{answer!r} is not a name; give it as text in quotes, e.g. "Milan"'
        return _judge(answer.strip().casefold() == want.casefold(), want, answer)
    if isinstance(answer, float) or type(answer).__name__ == "Float":  # sympy Float too
        if isinstance(want, int):
            return None, f"{answer} is a decimal; give a whole number (round it as asked)"
        return None, (
            f"{answer} is a decimal; give the exact answer as a fraction, "
            'e.g. Fraction(1, 3) or "1/3"'
        )
    got = _exact(answer)
    if got is None:
        return None, (
            f'{answer!r} is not a number; give it as a fraction, e.g. Fraction(1, 3) or "1/3"'
        )
    return _judge(got == want, Fraction(want), got)


def _judge(right: bool, want: Any, got: Any) -> tuple[bool, str]:
    if right:
        return True, f"correct: {_shown(want)}"
    return False, (f"not quite: you have {_shown(got)}; try again, or open the worked answer above")


def check(exercise: str, answer: Any) -> None:
    """Print whether ``answer`` is the answer to ``exercise`` (an id such as ``"04.1"``).

    ``None`` means "not answered yet": the notebook still runs top to bottom before the
    reader has tried the exercise. Nothing is raised for a wrong answer.
    """
    print(verdict(exercise, answer)[1])
