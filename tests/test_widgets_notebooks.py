"""The teaching notebooks are committed executed (outputs show on GitHub), stripped of widget
state (model ids change at every run), and each says first what it teaches.
``scripts/execute_notebooks.py`` saves an edited notebook that way.

Before a run a widget shows only its ``text/plain`` fallback: it must be a sentence for a
person, not the Python repr of the widget. Exercises are checked against the answer key in
:mod:`coronas.widgets.answers`, so the notebook code never holds an answer; the key is
checked here against the library."""

import json
import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from coronas.widgets.answers import ANSWERS
from coronas.widgets.exercises import check, verdict

NOTEBOOKS = sorted(
    (Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9][0-9]-*.ipynb")
)
WIDGET = "application/vnd.jupyter.widget-view+json"
NBVAL_TAGS = {"nbval-check-output", "nbval-ignore-output", "nbval-skip"}


def cells(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def test_the_notebooks_are_numbered_from_00_without_gaps():
    assert [p.name[:2] for p in NOTEBOOKS] == [f"{i:02d}" for i in range(12)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_executed_stripped_and_introduced(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert "widgets" not in nb["metadata"], "widget state must be stripped before committing"
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    counts = [c["execution_count"] for c in code]
    assert all(counts), f"cells never run: {[i for i, n in enumerate(counts) if not n]}"
    assert counts == sorted(counts), "cells must have run top to bottom in one kernel"
    errors = [o for c in code for o in c["outputs"] if o["output_type"] == "error"]
    assert not errors, errors[0].get("ename") if errors else ""
    first = "".join(nb["cells"][0]["source"])
    assert nb["cells"][0]["cell_type"] == "markdown" and "minute" in first


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_nbval_is_told_by_cell_tags_not_comments(path):
    code = [c for c in cells(path) if c["cell_type"] == "code"]
    assert not [c for c in code if "NBVAL_" in "".join(c["source"])]
    tags = [set(c.get("metadata", {}).get("tags", [])) for c in code]
    assert any("nbval-check-output" in t for t in tags), "pin some exact fractions"
    unknown = {t for ts in tags for t in ts if t.startswith("nbval") and t not in NBVAL_TAGS}
    assert not unknown


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_widget_shows_its_python_repr_before_a_run(path):
    for cell in cells(path):
        for out in cell.get("outputs", []):
            text = "".join(out.get("data", {}).get("text/plain", ""))
            if WIDGET in out.get("data", {}):
                assert "run this cell" in text, text
            assert not re.match(r"(VBox|HBox|HTML|Output|IntSlider|Dropdown)\(", text), text


@pytest.mark.parametrize("path", NOTEBOOKS[1:], ids=lambda p: p.stem)  # 00 is a tour
def test_exercises_look_their_answers_up_and_hide_the_worked_answer(path):
    number = path.name[:2]
    source = [("".join(c["source"]), c["cell_type"]) for c in cells(path)]
    checks = [s for s, kind in source if kind == "code" and s.startswith("check(")]
    assert checks, "every notebook ends with exercises"
    for text in checks:
        assert re.fullmatch(r'(check\("\d\d\.\d\w?", answer_\w+\)\n?)+', text), text
        assert "assert" not in text and "Fraction(" not in text
    ids = re.findall(r'check\("(\d\d\.\d\w?)"', "\n".join(checks))
    assert ids == sorted(i for i in ANSWERS if i.startswith(number + "."))
    worked = [s for s, kind in source if kind == "markdown" and "Worked answer" in s]
    assert len(worked) == len({i[:4] for i in ids})
    assert all(s.lstrip().startswith("<details>") for s in worked)


# The exercises that a calculator of the same notebook can be set to answer, and its model.
CALCULATOR_EXERCISES = {
    "01.3": "DiceModel",
    "03.1": "CastleAssaultModel",
    "03.2": "CastleAssaultModel",  # "actions until taken (mean)" with troops inside
    "03.3": "EmissaryRaceModel",
    "04.1": "HierroBattleModel",
    "06.1": "CarolusDrawsModel",
    "07.1": "BatallaBattleModel",
    "07.2": "BatallaBattleModel",
}


def shows(answer, text):
    """Whether ``text`` shows ``answer`` as a number of its own: "211/243" in "= 211/243 (",
    12 in "(mean): 12 (12.000)", but not 12 in "1/12" or "0.12"."""
    return re.search(rf"(?<![\d/.]){re.escape(str(answer))}(?![\d/])", text) is not None


def test_shows_finds_an_answer_only_as_a_number_of_its_own():
    assert shows(Fraction(211, 243), "P = 211/243 (86.83%)")
    assert shows(12, "actions until taken (mean): 12 (12.000)")
    assert not shows(12, "P = 1/12, 0.12, 120 and 12/13")


@pytest.mark.parametrize(("exercise", "model"), CALCULATOR_EXERCISES.items())
def test_no_calculator_answers_an_exercise_with_its_defaults(exercise, model):
    import coronas.widgets.calculators as calculators

    path = next(p for p in NOTEBOOKS if p.name.startswith(exercise[:2]))
    source = "\n".join("".join(c["source"]) for c in cells(path) if c["cell_type"] == "code")
    calls = re.findall(rf"^Calculator\(({model}\(.*\))\)$", source, re.M)
    assert calls, f"{path.name} has no {model} calculator"
    for call in calls:
        # the notebook's own call, as written: what the calculator shows when its cell runs
        answer = eval(call, vars(calculators)).answer()
        shown = [v for v in answer.values.values() if isinstance(v, Fraction)]
        assert ANSWERS[exercise] not in shown, (call, exercise)
        assert not shows(ANSWERS[exercise], answer.text), (call, exercise, answer.text)
        assert not shows(ANSWERS[exercise], answer.html), (call, exercise)


@pytest.mark.parametrize(("exercise", "model"), CALCULATOR_EXERCISES.items())
def test_a_calculator_that_can_answer_an_exercise_comes_after_it(exercise, model):
    # Set to an exercise's numbers a calculator answers it: it belongs after the exercise,
    # to check an answer worked out by hand, not above it.
    path = next(p for p in NOTEBOOKS if p.name.startswith(exercise[:2]))
    code = ["".join(c["source"]) for c in cells(path) if c["cell_type"] == "code"]
    where = next(i for i, s in enumerate(code) if s.startswith(f'check("{exercise}"'))
    above = [s for s in code[:where] if re.search(rf"^Calculator\({model}\(", s, re.M)]
    assert not above, f"{path.name}: a {model} calculator above exercise {exercise}"


def test_the_answer_key_agrees_with_the_library():
    from coronas.attrition import AttritionRules, solve
    from coronas.batalla.odds import battle as duel
    from coronas.batalla.odds import p_chair
    from coronas.carolus import Rules
    from coronas.carolus.odds import family_draw_distribution
    from coronas.dice import D6, Die
    from coronas.engine import RandomBot
    from coronas.engine.learning import fit_choice, softmax
    from coronas.hierro.board import betweenness, load_board, move_actions
    from coronas.hierro.odds import battle, castle_assault, emissary_race
    from coronas.manygames.ratings import bradley_terry
    from coronas.manygames.simulate import wilson_interval
    from coronas.manygames.winchances import exact_win_chances
    from tests.test_winchances import RaceGame

    def exact(value):
        return Fraction(value).limit_denominator(1000)

    def won(x):  # a choice between a seat with feature x and one with 0: the first won
        return ([[float(x)], [0.0]], [1, 0])

    def lost(x):
        return ([[float(x)], [0.0]], [0, 1])

    board = load_board()
    G = board.graph()
    between = betweenness(G)
    draw = Die(Rules().draw_faces)
    lo, hi = wilson_interval(220, 400)
    library = {
        "01.1": D6.p_at_least(6, rerolls=2),
        "01.2": (D6 - D6).prob(lambda d: abs(d) >= 2),
        "01.3": Die([1, 1, 2, 2, 3, 4]).p_at_least(2, rerolls=1),
        "02.1a": move_actions(G, "Friuli", "Pavia"),
        "02.1b": -(-(move_actions(G, "Friuli", "Pavia") + 1) // 2),
        "02.2": max(board.start_castles(), key=between.get),
        "03.1": castle_assault(5, army=3, shields=4).probability,
        "03.2": castle_assault(6, troops_inside=True).actions.mean,
        "03.3": emissary_race(4, attempts_per_turn=1).second_wins,
        "04.1": battle(2, 1).attacker_wins,
        "04.2": solve(AttritionRules(D6, D6, ties="defender"), 2, 1).attacker_wins,
        "04.3": battle(2, 1).expected_rounds,
        "05.1": castle_assault(4, army=2, shields=1).probability,
        "05.2": battle(2, 1).attacker_wins,
        "06.1": 1 - draw.prob(lambda f: f != "joker") ** 3,
        "06.2": family_draw_distribution(4, "pink").mean(),
        "07.1": duel(1, 1, attacker_gold=1).gem,
        "07.2": duel(5, 0).gem,
        "07.3": 1 - (1 - p_chair(6)) ** 2,
        "08.1": 5336,
        "08.2": lo <= 0.5 <= hi,
        "08.3": battle(1, 1).attacker_wins,
        "09.1": 4 * (Fraction(1, 2) - Fraction(1, 3)),
        "09.2": max(
            ("A", "B"),
            key=lambda arm: (
                {"A": 3 / 4, "B": 1 / 2}[arm]
                + math.sqrt(2) * math.sqrt(math.log(6) / {"A": 4, "B": 2}[arm])
            ),
        ),
        "09.3": round(
            bradley_terry(
                [((0, 1), (1, 0))] * 10 + [((0, 0), (1, 1))], "XY", "Y", prior=0, resamples=0
            ).elo[0]
        ),
        "10.1": 400 * 2**2,
        "10.2": round(100 * (1 - 0.95)),
        "10.3": exact_win_chances(RaceGame().new_initial_state(), [RandomBot()] * 2)[1],
        # the conditional logit of coronas.engine.learning, its floats read as fractions
        "11.1": exact(softmax([2 * math.log(2), 0])[0]),
        "11.2": exact(softmax([2 * math.log(2), math.log(3), 0])[1]),
        "11.3": exact(
            fit_choice([won(1)] * 5 + [lost(1)] * 3, l2=0, iterations=1)[0]
        ),  # one Newton step from 0
        "11.4": round(math.exp(fit_choice([won(2)] * 4 + [lost(2)], l2=0)[0])),
    }
    assert library.keys() == ANSWERS.keys()
    for exercise, value in library.items():
        assert verdict(exercise, value)[0] is True, (exercise, value, ANSWERS[exercise])
    # worked out by hand in the notebooks' worked answers
    assert ANSWERS["01.1"] == 1 - Fraction(5, 6) ** 3 and ANSWERS["03.1"] == 1 - Fraction(2, 3) ** 5
    assert ANSWERS["07.1"] == Fraction(15, 36) + Fraction(20, 216)
    assert ANSWERS["01.2"] == Fraction(8 + 6 + 4 + 2, 36)
    assert ANSWERS["04.2"] == Fraction(5, 12) + Fraction(7, 12) * Fraction(5, 12)
    assert ANSWERS["07.3"] == 1 - Fraction(5, 6) ** 4
    assert ANSWERS["11.1"] == Fraction(4, 4 + 1) and ANSWERS["11.2"] == Fraction(3, 4 + 3 + 1)


def test_a_wrong_answer_is_a_friendly_line_not_a_traceback(capsys):
    check("04.1", Fraction(7, 12))
    check("04.1", 0.8264)
    check("04.1", None)
    check("02.2", 3)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("not quite: you have 7/12 (58.33%)")
    assert "give the exact answer as a fraction" in lines[1]
    assert lines[2].startswith("no answer yet")
    assert "is not a name" in lines[3]


@pytest.mark.parametrize(
    "answer", [Fraction(119, 144), sympy.Rational(238, 288), "119/144", " 119 / 144 "]
)
def test_an_exact_answer_in_any_exact_form_is_accepted(answer):
    assert verdict("04.1", answer) == (True, "correct: 119/144 (82.64%)")


def test_whole_number_and_yes_no_answers():
    assert verdict("03.2", 12)[0] and verdict("03.2", sympy.Integer(12))[0]
    assert verdict("08.1", 5335.6)[0] is None  # a hint to round, not "wrong"
    assert verdict("08.2", False)[0] and verdict("08.2", 0)[0] is None
    with pytest.raises(KeyError, match=r"no exercise '99\.1'"):
        verdict("99.1", 1)


@pytest.mark.parametrize("answer", [400.0, "400.0", " 400.00 ", sympy.Float(400), 400])
def test_a_whole_number_written_with_a_decimal_point_is_accepted(answer):
    assert verdict("09.3", answer) == (True, "correct: 400")


@pytest.mark.parametrize("answer", [400.5, "400.5", sympy.Float(400.5)])
def test_a_whole_number_answer_with_a_fraction_part_gets_a_hint(answer):
    ok, message = verdict("09.3", answer)
    assert ok is None
    assert message == "400.5 is not a whole number; give a whole number (round it as asked)"


def test_a_wrong_whole_number_with_a_decimal_point_is_wrong_not_a_hint():
    assert verdict("09.3", 401.0) == (
        False,
        "not quite: you have 401; try again, or open the worked answer above",
    )
    # a decimal for a fraction is still a hint, and exact decimal text still counts
    assert verdict("04.1", 1.0)[0] is None and verdict("03.3", "0.5")[0] is False


@pytest.mark.parametrize("number", ["09", "10", "11"])
def test_seeded_printed_results_are_checked_against_a_fresh_run(number):
    # nbval (--nbval-lax) reruns every cell and compares the outputs of the cells tagged
    # nbval-check-output with the committed ones: a stale output fails the notebook's test.
    path = next(p for p in NOTEBOOKS if p.name.startswith(number))
    unchecked = []
    for cell in cells(path):
        source = "".join(cell["source"])
        if cell["cell_type"] != "code" or source.startswith("check("):
            continue
        texts = [
            o
            for o in cell["outputs"]
            if o["output_type"] == "stream"
            or (o.get("data") and WIDGET not in o["data"] and "image/png" not in o["data"])
        ]
        tags = cell.get("metadata", {}).get("tags", [])
        if texts and "nbval-check-output" not in tags:
            unchecked.append(source.splitlines()[0])
    assert not unchecked, unchecked
