"""The answer key of the notebooks' exercises, looked up by exercise id (``"04.1"``: notebook
04, exercise 1; ``"02.1a"`` and ``"02.1b"`` for the two parts of one exercise).

The answers live here, not in the notebooks, so a reader sees only the question, the answer
cell and (folded away) the worked answer. Each answer was worked out by hand in the
notebook's worked answer; ``tests/test_widgets_notebooks.py`` checks each against the library.
An exact probability is written as a fraction string.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

__all__ = ["ANSWERS", "expected"]

# id -> the answer: a fraction "a/b", an int, a bool or a name (str, compared without case)
ANSWERS: dict[str, Any] = {
    "01.1": Fraction("91/216"),  # at least one 6 in three rolls
    "01.2": Fraction("5/9"),  # two d6 differ by 2 or more
    "01.3": Fraction("8/9"),  # faces 1,1,2,2,3,4 make a 2+ with one reroll
    "02.1a": 6,  # move actions Friuli -> Pavia
    "02.1b": 4,  # turns to reach Pavia and attack it
    "02.2": "Lucca",  # the start castle with the highest betweenness
    "03.1": Fraction("211/243"),  # 5+ on the green die, up to 4 shields
    "03.2": 12,  # mean actions for a 6+ castle with troops inside
    "03.3": Fraction("1/3"),  # the second emissary's chance at 4+, one roll a turn
    "04.1": Fraction("119/144"),  # 2 pawns attack 1
    "04.2": Fraction("95/144"),  # 2 pawns attack 1, ties to the defender
    "04.3": Fraction("17/12"),  # mean rounds of 2 v 1
    "05.1": Fraction("3/4"),  # Brescia's castle, 4+ on the yellow die, one shield
    "05.2": Fraction("119/144"),  # 2 pawns against 1, no shields
    "06.1": Fraction("91/216"),  # at least one joker in three draws
    "06.2": Fraction("4/3"),  # mean knights for one family in four draws
    "07.1": Fraction("55/108"),  # 1 sword, 1 shield, one gold
    "07.2": Fraction("5/12"),  # 5 swords against 0 shields
    "07.3": Fraction("671/1296"),  # chair 6 at least once in two turns
    "08.1": 5336,  # rolls for a +-0.01 interval on P(six)
    "08.2": False,  # 220 wins in 400: does the interval hold 1/2?
    "08.3": Fraction("7/12"),  # 1 pawn against 1
    "09.1": Fraction("2/3"),  # regret of 4 pulls of the 1/3 machine and 8 of the 1/2 one
    "09.2": "B",  # UCB1's choice: A 3 of 4, B 1 of 2, 6 pulls in all
    "09.3": 400,  # Elo points between a bot that wins 10 games to 1 and its opponent
    "10.1": 1600,  # games for an interval half as wide as 400 games give
    "10.2": 5,  # misses expected among 100 intervals of 95%
    "10.3": Fraction("5/11"),  # the second player's chance in the race to a six
    "11.1": Fraction("4/5"),  # two seats, weight ln 2 a castle, 2 castles to none
    "11.2": Fraction("3/8"),  # three seats, scores e^s of 4, 3 and 1
    "11.3": Fraction("1/2"),  # one Newton step from w = 0 for 5 wins in 8
    "11.4": 2,  # e^w at the maximum likelihood: feature 2, 4 wins in 5
}


def expected(exercise: str) -> Any:
    """The answer to ``exercise`` (its id, ``"04.1"``); KeyError naming the known ids."""
    try:
        return ANSWERS[exercise]
    except KeyError:
        raise KeyError(
            f"no exercise {exercise!r}; the exercises are {', '.join(ANSWERS)}"
        ) from None
