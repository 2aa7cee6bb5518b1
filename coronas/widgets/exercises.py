"""Checking a reader's answer to a notebook exercise, with a friendly message.

``check("04.1", answer_1)`` looks the answer up in :mod:`coronas.widgets.answers` and prints
one line: correct, not yet answered, a hint, or "not quite". It never raises, so a wrong
answer reads as advice in the cell, not as a traceback. An exact answer is accepted in any
exact form (``Fraction(119, 144)``, ``sympy.Rational(119, 144)``, the string ``"119/144"``);
a float gets a hint to give the fraction. A whole number may be written ``400``, ``400.0``
or ``"400.00"``; ``400.5`` gets a hint that a whole number is asked.

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
>>> check("09.3", 400.0)
correct: 400
>>> check("09.3", 400.5)
400.5 is not a whole number; give a whole number (round it as asked)
>>> check("02.2", " lucca")
correct: Lucca
"""

from __future__ import annotations

import decimal
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


def _decimal(value: Any) -> Fraction | None:
    """The value of a decimal answer (a float, a sympy Float, a Decimal, or text with a
    decimal point such as ``"400.0"``) as a Fraction; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip().replace(" ", "")
        if "." not in text:
            return None
        try:
            return Fraction(text)
        except (ValueError, ZeroDivisionError):
            return None
    if isinstance(value, (float, decimal.Decimal)) or type(value).__name__ == "Float":
        try:
            return Fraction(str(value))
        except (ValueError, ZeroDivisionError):  # inf or nan
            return None
    return None


def _stripped(value: Any) -> str:
    """A decimal answer as the reader wrote it (a sympy Float without its 15 digits)."""
    if isinstance(value, str):
        return value.strip()
    return repr(float(value)) if type(value).__name__ == "Float" else str(value)


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
    decimal = _decimal(answer)
    if decimal is not None:
        if isinstance(want, int):
            if decimal.denominator == 1:  # 400.0 is the whole number 400
                return _judge(decimal == want, want, int(decimal))
            return None, (
                f"{_stripped(answer)} is not a whole number; give a whole number "
                "(round it as asked)"
            )
        if not isinstance(answer, str):  # "0.5" as text is exact; 0.5 as a float is not
            return None, (
                f"{_stripped(answer)} is a decimal; give the exact answer as a fraction, "
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
