"""The ranking of the moves as HTML (what the stepper's "Rank the moves" shows): every column
headed, rows kept on one line, a dice move's own odds as a percentage with the exact fraction
and its aim in the tooltip. The browser test at 1280 px measures that a ranking fits
(``tests/browser/test_stepper_seats_in_browser.py``)."""

from __future__ import annotations

import re
from fractions import Fraction
from types import SimpleNamespace

from coronas.manygames.moves import ActionRanking


def _row(label, chance, best, too_close, odds=None):
    return {
        "action": label,
        "label": label,
        "chance": chance,
        "low": chance,
        "high": chance,
        "games": 0,
        "best": best,
        "too_close": too_close,
        "versus_best": None,
        "odds": odds,
    }


def test_the_ranking_table_heads_every_column_and_keeps_rows_on_one_line():
    castle = SimpleNamespace(success=Fraction(19, 27), aim="take the castle of Verona")
    ranking = ActionRanking(
        "red",
        (
            _row("attack castle Verona", Fraction(3, 5), True, False, castle),
            _row("send an emissary to Rome", Fraction(1, 2), False, True),
            _row("recruit", Fraction(1, 4), False, False),
        ),
        exact=True,
        assumption="every seat plays like light",
        view="open position",
        games=0,
    )
    html = ranking._repr_html_()
    heads = re.findall(r"<th>(.*?)</th>", html)
    assert heads == ["move", "chance", "95% interval", "verdict", "roll's odds"]
    assert html.startswith("<table style='white-space:nowrap")
    rows = re.findall(r"<tr><td>(.*?)</tr>", html)
    assert len(rows) == 3
    assert "<td>best</td>" in rows[0] and "<td>shortlist</td>" in rows[1]
    assert len(re.findall("coronas-move-bar", html)) == 3  # a bar a move, in its chance cell
    # 19/27 = 70.37%: the percentage shown, the exact fraction and its aim in the tooltip
    assert "<span title='19/27 to take the castle of Verona'>70.37%</span>" in rows[0]
    assert rows[2].endswith("<td></td><td></td>")  # neither a verdict nor dice
