"""Checking a reader's answer to a notebook exercise, with a helpful message.

>>> from fractions import Fraction
>>> check(None, Fraction(1, 2))
no answer yet: put yours in the cell above and run this cell again
>>> check(Fraction(2, 4), Fraction(1, 2))
correct: 1/2
>>> check(0.5, Fraction(1, 2))
Traceback (most recent call last):
...
AssertionError: 0.5 is a float; give the exact answer as a Fraction (e.g. Fraction(1, 3))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

__all__ = ["check"]


def check(answer: Any, expected: Any) -> None:
    """Say whether ``answer`` equals ``expected``; raise ``AssertionError`` if it does not.

    ``None`` means "not answered yet" and only prints a reminder, so a notebook still runs
    top to bottom before the reader has tried the exercise.
    """
    if answer is None:
        print("no answer yet: put yours in the cell above and run this cell again")
        return
    if isinstance(answer, float) and isinstance(expected, Fraction):
        raise AssertionError(
            f"{answer} is a float; give the exact answer as a Fraction (e.g. Fraction(1, 3))"
        )
    if answer != expected:
        raise AssertionError(f"not quite: you have {answer}; look at the worked answer above")
    print(f"correct: {answer}")
