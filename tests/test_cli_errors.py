"""The command line never shows a traceback: a usage mistake or a bad input file is one line
and exit status 2, any other failure one line and exit status 1; the nearest command or option
is suggested; every number is checked against its documented limit at parse time."""

from __future__ import annotations

import subprocess
import sys

import pytest

import coronas.attrition
import tests.toygame  # noqa: F401  (registers the "toy" game)
from coronas.cli import main
from coronas.cli._base import MAX_ERROR, cpu_count


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and len(lines[0]) <= MAX_ERROR
    return lines[0]


# -- suggestions -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "suggestion"),
    [
        (["plya", "toy"], "did you mean 'play'?"),
        (["odds", "hiero-castle", "5"], "did you mean 'hierro-castle'?"),
        (["odds", "carolus-draw", "3"], "did you mean 'carolus-draws'?"),
        (["odds", "hierro-castle", "5", "--sheilds", "2"], "did you mean --shields?"),
        (["odds", "hierro-castle", "5", "--armey=3"], "did you mean --army?"),
        (["odds", "batalla-battle", "3", "2", "--glod", "1", "0"], "did you mean --gold?"),
        (["simulate", "toy", "--game", "10", "--jobz", "1"], "did you mean --jobs?"),
        (["play", "toi"], "did you mean 'toy'?"),
        (["play", "toy", "--bots", "randon"], "did you mean 'random'?"),
    ],
)
def test_a_mistyped_command_or_option_suggests_the_nearest(capsys, argv, suggestion):
    status, _, err = run(capsys, *argv)
    assert status == 2 and suggestion in one_line(err)


def test_hidden_spellings_are_never_suggested(capsys):
    # --targ is closest to the old --target, which is not advertised any more
    status, _, err = run(capsys, "odds", "hierro-castle", "5", "--targt", "4")
    assert status == 2 and "--target" not in one_line(err)


# -- limits ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["odds", "hierro-castle", "21"], ["TARGET", "from 1 to 20, got 21"]),
        (["odds", "hierro-castle", "0"], ["TARGET", "from 1 to 20, got 0"]),
        (["odds", "hierro-castle", "5", "--army", "101"], ["--army", "from 1 to 100"]),
        (["odds", "hierro-castle", "5", "--shields", "16"], ["--shields", "from 0 to 15"]),
        (["odds", "hierro-diplomacy", "5", "--legitimacy", "16"], ["--legitimacy", "0 to 15"]),
        (["odds", "hierro-battle", "101", "1"], ["ATTACKER", "from 1 to 100, got 101"]),
        (["odds", "hierro-battle", "2", "1", "--shields", "8", "8"], ["15 in all"]),
        (
            ["odds", "hierro-battle", "20", "20", "--shields", "3", "3"],
            ["ATTACKER x DEFENDER x (S+1) x (T+1) = 6400", "the limit is 5000"],
        ),
        (["odds", "risk", "50", "21"], ["ATTACKER x DEFENDER = 1050", "the limit is 1000"]),
        (["odds", "risk", "3", "two"], ["DEFENDER", "whole number from 1 to 100, got 'two'"]),
        (["odds", "batalla-battle", "6", "1"], ["SWORDS", "from 1 to 5, got 6"]),
        (["odds", "batalla-battle", "3", "6"], ["SHIELDS", "from 0 to 5, got 6"]),
        (["odds", "batalla-battle", "3", "2", "--gold", "8", "0"], ["--gold", "-1 to 7"]),
        (["odds", "batalla-battle", "3", "2", "--gems-won", "10"], ["--gems-won", "0 to 9"]),
        # B1: each gem won covers the top square of the gold track; a castle holds 3 gems
        (
            ["odds", "batalla-battle", "3", "2", "--gold", "6", "0", "--gems-won", "2"],
            ["--gold", "attacker's gold runs from -1 to 5 with 2 gems won, got 6"],
        ),
        (["odds", "batalla-battle", "3", "2", "--gems-won", "3"], ["--gems-won", "at most 2"]),
        (
            ["odds", "batalla-battle", "3", "2", "--cross", "--defender-cross"],
            ["--defender-cross", "not allowed with argument --cross"],
        ),
        (["odds", "carolus-draws", "301"], ["DRAWS", "from 0 to 300"]),
        (["odds", "carolus-draws", "3", "--at-least", "-1"], ["--at-least", "0 to 300"]),
        (["odds", "carolus-draws", "2", "--family", "purple"], ["purple"]),
        (["odds", "hierro-battle", "2", "1", "--shields", "1"], ["--shields", "2 arguments"]),
        (["play", "toy", "--players", "11"], ["--players", "from 1 to 10"]),
        (["play", "hierro", "--players", "2"], ["hierro is for 3-5 players, got 2"]),
        (["play", "toy", "--seed", "-1"], ["--seed", "from 0 to 9223372036854775807"]),
        (["play", "toy", "--max-steps", "0"], ["--max-steps", "from 1 to 10000000"]),
        (["simulate", "toy", "--games", "1000001"], ["--games", "from 1 to 1000000"]),
        (["simulate", "toy", "--jobs", str(cpu_count() + 1)], ["--jobs", f"to {cpu_count()}"]),
        (["odds", "risk", "1" * 5000, "1"], ["ATTACKER", "whole number from 1 to 100"]),
    ],
)
def test_every_number_is_checked_against_its_limit(capsys, argv, words):
    status, _, err = run(capsys, *argv)
    line = one_line(err)
    assert status == 2, line
    for word in words:
        assert word in line, (word, line)


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "hierro-castle", "20", "--army", "100", "--shields", "15"],
        ["odds", "hierro-battle", "100", "50"],
        ["odds", "hierro-battle", "8", "8", "--shields", "8", "7"],
        ["odds", "risk", "100", "10"],
        ["odds", "batalla-battle", "5", "5", "--gold", "7", "7"],
        ["odds", "batalla-battle", "5", "5", "--gold", "5", "7", "--crown", "--gems-won", "2"],
        ["odds", "batalla-battle", "5", "5", "--gold", "7", "7", "--crown", "--cross"],
        ["odds", "batalla-battle", "1", "0", "--gold", "-1", "-1"],
        ["odds", "carolus-draws", "300", "--at-least", "300"],
    ],
)
def test_the_largest_questions_allowed_are_answered(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    assert "P" in out


# -- failures: one line, status 1 ------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "status", "words"),
    [
        (MemoryError(), 1, "out of memory"),
        (RecursionError("maximum recursion depth exceeded"), 1, "recursion limit"),
        (KeyboardInterrupt(), 130, "interrupted"),
        (ZeroDivisionError("division by zero"), 1, "ZeroDivisionError: division by zero"),
        (RuntimeError("x" * 5000), 1, "xxx..."),
        (ValueError("y" * 5000), 2, "yyy..."),  # a number the odds function refuses
    ],
)
def test_any_failure_is_one_line(capsys, monkeypatch, error, status, words):
    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr(coronas.attrition, "solve", fail)
    got, _, err = run(capsys, "odds", "risk", "2", "1")
    line = one_line(err)
    assert got == status and words in line, line


def test_the_real_command_never_shows_a_traceback(tmp_path):
    def coronas(*argv):
        out = subprocess.run(
            [sys.executable, "-m", "coronas.cli", *argv],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert "Traceback" not in out.stderr
        return out.returncode, out.stdout, out.stderr.strip().splitlines()

    status, out, err = coronas("odds", "hierro-castle", "5", "--army", "3", "--shields", "2")
    assert status == 0 and "19/27 (70.37%)" in out and err == []
    status, _, err = coronas("odds", "hierro-batle", "3", "2")
    assert status == 2 and len(err) == 1 and "did you mean 'hierro-battle'?" in err[0]
    status, _, err = coronas("odds", "risk", "100", "100")
    assert status == 2 and len(err) == 1 and "the limit is 1000" in err[0]
    status, _, err = coronas("replay", str(tmp_path / "missing.json"))
    assert status == 2 and len(err) == 1 and "missing.json" in err[0]
    bad = tmp_path / "rules.json"
    bad.write_text("[1, 2")
    status, _, err = coronas("odds", "risk", "2", "1")
    assert status == 0
    status, _, err = coronas("odds", "carolus-draws", "3", "--rules", str(bad))
    assert status == 2 and len(err) == 1 and "rules.json" in err[0]
    status, out, err = coronas("play", "hierro", "--max-steps", "1")
    assert status == 0 and "the game is not over" in out


# -- messages in words, never a Python list or tuple -----------------------------------------


def test_an_unknown_family_lists_the_families_in_words(capsys):
    status, _, err = run(capsys, "odds", "carolus-draws", "3", "--family", "purple")
    assert status == 2
    line = one_line(err)
    assert "the families are red, yellow, green, blue and pink" in line, line
    assert "(" not in line and "[" not in line, line


def test_a_bad_saved_game_names_what_was_expected_in_words(capsys, tmp_path):
    game = tmp_path / "game.json"
    game.write_text(
        '{"format": "coronas-game", "version": 2, "game": "chess", "params": {}, "actions": []}'
    )
    status, _, err = run(capsys, "advise", str(game))
    line = one_line(err)
    assert status == 2 and "unknown game 'chess'" in line, line
    assert "[" not in line and "', '" not in line, line


def test_rule_file_mistakes_list_the_fields_in_words(capsys, tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text('{"dice": 3}')
    status, _, err = run(capsys, "odds", "hierro-castle", "5", "--rules", str(rules))
    line = one_line(err)
    assert status == 2 and "unknown field(s) 'dice'; the fields are " in line, line
    assert "[" not in line, line
