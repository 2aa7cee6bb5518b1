"""The companion for the table (coronas.widgets.companion) and ``coronas app``, without a
browser: every answer against a number worked out by hand and against the library's own odds
functions, the advice, the inverse questions, the view's wiring and the command's checks."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from coronas.cli import app as app_command
from coronas.cli import main
from coronas.dice import exact_fractions
from coronas.widgets.companion import (
    GAMES,
    SITUATIONS,
    Companion,
    CompanionModel,
    dice_html,
    form_class,
)

ROOT = Path(__file__).resolve().parent.parent


def answer(game, key, **values):
    model = CompanionModel()
    model.choose(game, key)
    model.set(**values)
    return model.answer()


# -- Corona de Hierro -------------------------------------------------------------------------


def test_castle_one_pawn_no_reroll_is_one_half():
    # the red die needs 4 or more: faces 4, 5, 6 of six
    a = answer("hierro", "castle", target=4, army=1, shields=0)
    assert a.values["chance"] == Fraction(1, 2)
    assert not a.error
    assert "1/2 (50.00%)" in a.html


def test_castle_with_a_reroll_and_the_inverse_question():
    # 5 or more with one reroll: 1 - (4/6)**2 = 5/9
    a = answer("hierro", "castle", target=5, army=2, shields=1)
    assert a.values["chance"] == Fraction(5, 9)
    assert any("spend a shield and roll again" in line for line in a.values["advice"])
    # 4+ for 80%: 1 - (1/2)**(k + 1) >= 4/5 first at k = 2, 7/8
    a = answer("hierro", "castle", target=4, shields=0, goal=80)
    assert a.values["inverse"][0] == "For 80%: spend up to 2 shields (7/8 (87.50%))."
    # with the default dice a bigger army rolls the same faces
    assert "change nothing" in a.values["inverse"][1]


def test_castle_matches_the_library_with_troops_inside_and_good_fortune():
    from coronas.hierro.odds import castle_assault

    with exact_fractions():
        want = castle_assault(3, army=3, shields=2, troops_inside=True, good_fortune=True)
    a = answer(
        "hierro", "castle", target=3, army=3, shields=2, troops_inside=True, good_fortune=True
    )
    assert a.values["chance"] == want.probability
    assert a.text.startswith("to clear the troops inside")


def test_diplomacy_alone_is_the_rulebook_example():
    # 2 or more on the red die: 5/6
    a = answer("hierro", "diplomacy", target=2, legitimacy=2, shields=0, rival=False)
    assert a.values["chance"] == Fraction(5, 6)


def test_the_emissary_race_from_either_seat():
    # 2+ each, two rolls a turn: a turn fails with g = (1/6)**2 = 1/36, so the first to roll
    # wins with 1 / (1 + g) = 36/37 and the second with 1/37
    model = CompanionModel()
    model.choose("hierro", "diplomacy")
    model.set(target=2, rival=True, you_first=True)
    assert model.answer().values["chance"] == Fraction(36, 37)
    model.set(you_first=False)
    assert model.answer().values["chance"] == Fraction(1, 37)
    assert model.situation.shown("rival_shields")
    model.set(rival=False)
    assert not model.situation.shown("rival_shields")


def test_race_matches_the_library_with_shields():
    from coronas.hierro.odds import emissary_race

    with exact_fractions():
        race = emissary_race(4, legitimacy=(9, 2), shields=(1, 3))
    a = answer(
        "hierro",
        "diplomacy",
        target=4,
        legitimacy=2,
        shields=3,
        rival=True,
        rival_legitimacy=9,
        rival_shields=1,
        you_first=False,
    )
    assert a.values["chance"] == race.second_wins


def test_battle_odds_advice_and_the_pawns_needed():
    # the attacker rerolls 1-3 once: 15/36 + 1/2 * 7/12 = 17/24
    a = answer("hierro", "battle", attacker=1, defender=1, attacker_shields=1, defender_shields=0)
    assert a.values["chance"] == Fraction(17, 24)
    assert a.values["advice"][0] == "Attacker, first roll: reroll 1-3."
    assert a.values["advice"][1] == "Defender: no shield to spend."
    # 2 v 2: (7/12)**2 (1 + 2 * 5/12) = 539/864, below 80%; 3 v 2 is the first above
    a = answer("hierro", "battle", attacker=2, defender=2, attacker_shields=0, defender_shields=0)
    assert a.values["chance"] == Fraction(539, 864)
    from coronas.hierro.odds import battle

    with exact_fractions():
        three = battle(3, 2).attacker_wins
    assert three >= Fraction(4, 5) > Fraction(539, 864)
    assert a.values["inverse"] == [
        f"For 80% against 2 pawns: attack with 3 pawns ({three} ({float(three):.2%}))."
    ]


def test_battle_defender_with_a_shield():
    # the defender rerolls any losing die: the sum over x of (x/6)**2 / 6 = 91/216
    a = answer("hierro", "battle", attacker=1, defender=1, attacker_shields=0, defender_shields=1)
    assert a.values["chance"] == Fraction(91, 216)
    assert a.values["the defender wins"] == Fraction(125, 216)


# -- Batalla de Coronas and Carolus Magnus -----------------------------------------------------


def test_batalla_attack_with_and_without_gold():
    from coronas.batalla.odds import battle

    # 3 swords against 1 shield: any win takes the last shield, 15/36
    a = answer("batalla", "attack", swords=3, shields=1, attacker_gold=0, defender_gold=0)
    assert a.values["chance"] == Fraction(5, 12)
    assert a.values["advice"][0] == "You: no gold to pay for a reroll."
    a = answer("batalla", "attack", swords=3, shields=1, attacker_gold=1, defender_gold=0)
    with exact_fractions():
        assert a.values["chance"] == battle(3, 1, attacker_gold=1).gem > Fraction(5, 12)
    assert a.values["if nobody rerolls"] == Fraction(5, 12)
    assert a.values["advice"][0].startswith("You: pay 1 gold and reroll at ")


def test_batalla_inverse_questions_search_the_library():
    from coronas.batalla.odds import battle

    a = answer("batalla", "attack", swords=2, shields=1, attacker_gold=0, defender_gold=0, goal=40)
    with exact_fractions():
        gems = [battle(2, 1, g, 0).gem for g in range(8)]
    first = next(g for g, p in enumerate(gems) if p >= Fraction(2, 5))
    assert a.values["inverse"][0].startswith(f"For 40%: {first} gold")


def test_carolus_draws_and_the_draws_needed():
    # one draw goes to a family with 2/6: three draws give one with 1 - (2/3)**3 = 19/27
    a = answer("carolus", "draws", draws=3, at_least=1, goal=80)
    assert a.values["chance"] == Fraction(19, 27)
    # 1 - (2/3)**n >= 4/5 first at n = 4: 65/81
    assert a.values["inverse"] == ["For 80%: draw 4 knights (65/81 (80.25%))."]


def test_carolus_control_is_the_library_example():
    # player 0 has 1 knight, the rival holds the family with 2 and could add 1: 2 needed
    # (control_need's example), none in reserve, 3 drawn with two players: at least 2 of 3
    # at 1/3 each is 3 (1/3)**2 (2/3) + (1/3)**3 = 7/27
    a = answer(
        "carolus",
        "control",
        players=2,
        court=1,
        rival_court=2,
        holder="rival",
        reserve=0,
        rival_gain=1,
    )
    assert a.values["chance"] == Fraction(7, 27)
    assert a.values["advice"][0].startswith("Deploy 2 knights of the family to your court")
    a = answer("carolus", "control", court=0, rival_court=0, holder="rival")
    assert a.error and "rival who controls" in a.text


# -- the model as a whole ----------------------------------------------------------------------


def test_every_situation_answers_at_every_limit():
    for cls in SITUATIONS:
        for f in cls.fields:
            for value in (f.low, f.high) if f.kind == "int" else (f.default,):
                s = cls()
                s.set(**{f.name: value})
                a = s.answer()
                if a.error:  # only a position the rules forbid, refused in words
                    assert cls.__name__ == "CarolusControl", (f.name, value, a.text)
                    assert "hold" in a.text or "controls the family" in a.text
                    continue
                assert isinstance(a.values["chance"], Fraction)
                assert 0 <= a.values["chance"] <= 1
                assert s.picture()


def test_choosing_and_bad_input():
    model = CompanionModel()
    assert [model.keys(g) for g in GAMES] == [
        ["castle", "diplomacy", "battle"],
        ["attack"],
        ["draws", "control"],
    ]
    model.choose("carolus")
    assert model.key == "draws"
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        model.choose("chess")
    with pytest.raises(ValueError, match="Carolus Magnus has no situation 'castle'"):
        model.choose("carolus", "castle")
    assert (model.game, model.key) == ("carolus", "draws")  # unchanged by the refusals
    with pytest.raises(KeyError, match="no input 'pawns'"):
        model.set(pawns=3)


def test_a_long_fraction_is_shown_as_a_percentage_with_the_fraction_kept():
    a = answer("hierro", "battle", attacker=8, defender=8, attacker_shields=5, defender_shields=5)
    p = a.values["chance"]
    assert f"data-fraction='{p}'" in a.html
    assert f"= {p}" in a.html  # the exact fraction under the percentage


def test_the_dice_picture_lights_the_faces_that_succeed():
    html = dice_html(range(1, 7), "red", lambda f: f >= 5)
    assert html.count("opacity:1") == 2 and html.count("opacity:0.28") == 4


def test_no_heavy_import_for_any_answer():
    code = (
        "import sys\n"
        "from coronas.widgets.companion import CompanionModel, SITUATIONS\n"
        "for cls in SITUATIONS: cls().answer()\n"
        "print([m for m in ('sympy', 'networkx', 'matplotlib') if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"


# -- the view ----------------------------------------------------------------------------------


def test_the_view_recomputes_on_every_change():
    pytest.importorskip("ipywidgets")
    app = Companion()
    assert app.answer.values["chance"] == Fraction(1, 2)  # the castle, 4+, one pawn
    plus = app.rows["target"].children[3]
    plus.click()  # 5+: 1/3
    assert app.inputs["target"].value == 5
    assert app.answer.values["chance"] == Fraction(1, 3)
    app.inputs["shields"].value = 1  # 1 - (2/3)**2
    assert app.answer.values["chance"] == Fraction(5, 9)
    assert "5/9 (55.56%)" in app.output.value
    app.situations.value = "diplomacy"
    assert set(app.inputs) >= {"legitimacy", "rival"}
    assert app.rows["rival_shields"].layout.display == "none"
    app.inputs["rival"].value = True
    assert app.rows["rival_shields"].layout.display is None
    app.games.value = "carolus"
    assert app.situations.value == "draws"
    assert (
        app.answer.values["chance"]
        == CompanionModel().situations[("carolus", "draws")].answer().values["chance"]
    )
    app.games.value = "hierro"  # the castle's inputs are as they were left
    app.situations.value = "castle"
    assert app.answer.values["chance"] == Fraction(5, 9)
    assert "run this cell" in repr(app)


def test_every_input_names_its_situation():
    """Hierro's castle and diplomacy both ask for a target: each form's inputs carry their
    situation's class, so a page can tell the new form's target from the one it replaces."""
    pytest.importorskip("ipywidgets")
    app = Companion()
    castle_target = app.inputs["target"]
    assert form_class("hierro", "castle") in castle_target._dom_classes
    app.situations.value = "diplomacy"
    assert app.inputs["target"] is not castle_target
    for box in app.inputs.values():
        assert form_class("hierro", "diplomacy") in box._dom_classes
        assert form_class("hierro", "castle") not in box._dom_classes


# -- the notebook and ``coronas app`` ----------------------------------------------------------


def test_the_app_notebook_is_in_the_package_and_linked_for_binder():
    notebook = app_command.notebook_path()
    assert notebook == ROOT / "coronas" / "apps" / "companion.ipynb"
    assert (ROOT / "apps" / "companion.ipynb").resolve() == notebook
    cells = json.loads(notebook.read_text())["cells"]
    assert "Companion()" in "".join(cells[-1]["source"])
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'coronas = ["apps/*.ipynb"]' in pyproject


def test_app_without_voila_says_how_to_install_it(monkeypatch, capsys):
    real = app_command.importlib.util.find_spec
    monkeypatch.setattr(
        app_command.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "voila" else real(name, *a),
    )
    assert main(["app", "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'coronas[app]'" in err
    assert "Traceback" not in err


def test_app_starts_voila_on_the_port_asked(monkeypatch, capsys):
    started = []
    monkeypatch.setattr(app_command.importlib.util, "find_spec", lambda name, *a: object())
    monkeypatch.setattr(app_command.os, "execve", lambda *a: started.append(a))
    monkeypatch.setattr(app_command.os, "chdir", lambda path: None)
    assert main(["app", "--port", "8899", "--no-browser"]) == 0
    assert "http://127.0.0.1:8899/" in capsys.readouterr().out
    (program, command, env) = started[0]
    assert program == sys.executable
    assert command[1:4] == ["-m", "voila", str(app_command.notebook_path())]
    assert {"--port=8899", "--Voila.ip=127.0.0.1", "--no-browser"} <= set(command)
    # a kernel that has already run the app waits for the next player (a quicker first answer)
    assert "--VoilaConfiguration.preheat_kernel=True" in command
    assert "MPLBACKEND" not in env


@pytest.mark.parametrize("port", ["80", "70000", "x"])
def test_app_refuses_a_bad_port(port, capsys):
    assert main(["app", "--port", port]) == 2
    assert "1024 to 65535" in capsys.readouterr().err
