"""``coronas odds``: one grammar for every question, answers worked out by hand."""

from __future__ import annotations

import json
import re

import pytest

from coronas.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def answer_lines(out):
    return [line for line in out.splitlines() if line.startswith("P")]


# -- the grammar of the brief, by hand -------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        # 3 pawns roll the green die, a d6: 5+ is 1/3; two rerolls while failing:
        # 1 - (2/3)**3 = 19/27
        (
            ["hierro-castle", "5", "--army", "3", "--shields", "2"],
            "P(one action succeeds, up to 2 rerolls): 19/27 (70.37%)",
        ),
        # one d6 each; a gem needs the attacker ahead by 2 or more (2 shields, 3 swords):
        # 4+3+2+1 = 10 of 36. With 1 gold the attacker, when behind (its die lower, B7), pays
        # and rerolls once: sum over the defender's d = 2..4 of 1/6 * (d-1)/6 * (5-d)/6
        # = (3 + 4 + 3) / 216 more, so 60/216 + 10/216 = 70/216 = 35/108
        (
            ["batalla-battle", "3", "2", "--gold", "1", "0"],
            "P(gem) with optimal rerolls: 35/108 (32.41%)",
        ),
        (["batalla-battle", "3", "2", "--gold", "1", "0"], "P(gem) without rerolls: 5/18 (27.78%)"),
        # a draw goes to a family 2 times in 6 (the family or the joker): 1 - (2/3)**3
        (["carolus-draws", "3", "--at-least", "1"], "P: 19/27 (70.37%)"),
        # at least 2 of 3: 3 * (1/3)**2 * (2/3) + (1/3)**3 = 6/27 + 1/27
        (["carolus-draws", "3", "--at-least", "2"], "P: 7/27 (25.93%)"),
        # classic Risk, 1 against 1: the attacker needs a strictly higher die, 15/36
        (["risk", "1", "1"], "P(attacker wins): 5/12 (41.67%)"),
        # 2 against 1: 2 dice against 1 win the round with 125/216; after a lost round,
        # 1 against 1 wins 5/12: 125/216 + 91/216 * 5/12 = (1500 + 455) / 2592
        (["risk", "2", "1"], "P(attacker wins): 1955/2592 (75.42%)"),
        # red die (1 pawn), 6+: 1/6
        (["hierro-castle", "6"], "P(one action succeeds, no reroll): 1/6 (16.67%)"),
        # legitimacy 2 is in the red band: 2+ on a d6 is 5/6; with a reroll 1 - (1/6)**2
        (
            ["hierro-diplomacy", "2", "--shields", "1"],
            "P(one action succeeds, up to 1 reroll): 35/36 (97.22%)",
        ),
        # legitimacy 2 is in the red band (yellow from 5), whose die is a d6: 4+ is 1/2
        (
            ["hierro-diplomacy", "4", "--legitimacy", "2"],
            "P(one roll succeeds, no reroll): 1/2 (50.00%)",
        ),
        # 2 pawns against 1, no shields: 7/12 + 5/12 * 7/12 = 119/144 (ties to the attacker)
        (["hierro-battle", "2", "1"], "P(attacker wins): 119/144 (82.64%)"),
        # 1 against 1, the attacker rerolls 1-3 once: 15/36 + 1/2 * 7/12 = 17/24
        (["hierro-battle", "1", "1", "--shields", "1", "0"], "P(attacker wins): 17/24 (70.83%)"),
        # 1 against 1, the defender rerolls a losing die once: it loses when both its dice
        # are at most the attacker's x, sum of (x/6)**2 / 6 = 91/216
        (["hierro-battle", "1", "1", "--shields", "0", "1"], "P(attacker wins): 91/216 (42.13%)"),
        # 3 swords against 1 shield: any win (15 of 36 rolls) takes the last shield
        (["batalla-battle", "3", "1"], "P(gem) without rerolls: 5/12 (41.67%)"),
        # 1 against 1 with only the Crown's 3 gold: rerolls for 1 and then 2 while behind,
        # (15 * 36 + 170) / 1296 (worked out in tests/batalla/test_odds.py)
        (["batalla-battle", "1", "1", "--crown"], "P(gem) with optimal rerolls: 355/648 (54.78%)"),
        # with the Cross read as a free reroll (a rule file), the defender's Cross: behind by
        # a > d it rerolls and still loses with (a - 1)/6: (1 + 4 + 9 + 16 + 25)/216
        (
            ["batalla-battle", "1", "1", "--defender-cross", "--rules", "CROSS_REROLL"],
            "P(gem) with optimal rerolls: 55/216 (25.46%)",
        ),
        # the defender's 1 gold would buy a reroll, but the Cross sends it to -1 first: 15/36
        (
            ["batalla-battle", "1", "1", "--gold", "0", "1", "--cross"],
            "P(gem) with optimal rerolls: 5/12 (41.67%)",
        ),
    ],
)
def test_odds_print_the_exact_fraction_and_the_percentage(capsys, tmp_path, argv, expected):
    if "CROSS_REROLL" in argv:  # a rule file reading the Cross as a free reroll (B11)
        rules = tmp_path / "cross-reroll.json"
        rules.write_text('{"cross_effect": "reroll"}')
        argv = [str(rules) if a == "CROSS_REROLL" else a for a in argv]
    status, out, err = run(capsys, "odds", *argv)
    assert status == 0, err
    assert expected in answer_lines(out)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (["hierro-castle", "--target", "5", "--army", "3"], ["hierro-castle", "5", "--army", "3"]),
        (["hierro-diplomacy", "--target", "3"], ["hierro-diplomacy", "3"]),
        (
            ["batalla-battle", "--swords", "3", "--shields", "2", "--gold", "1", "0"],
            ["batalla-battle", "3", "2", "--gold", "1", "0"],
        ),
        (
            ["carolus-draws", "--draws", "3", "--at-least", "2"],
            ["carolus-draws", "3", "--at-least", "2"],
        ),
    ],
)
def test_the_old_spellings_still_work_and_are_not_advertised(capsys, old, new):
    assert run(capsys, "odds", *old)[:2] == run(capsys, "odds", *new)[:2]
    status, usage, _ = run(capsys, "odds", new[0], "--help")
    assert status == 0 and "--target" not in usage and "--swords" not in usage
    assert "--draws" not in usage
    first = {"hierro-castle": "TARGET", "hierro-diplomacy": "TARGET"}.get(new[0])
    first = first or {"batalla-battle": "SWORDS SHIELDS", "carolus-draws": "DRAWS"}[new[0]]
    assert usage.startswith(f"usage: coronas odds {new[0]} {first} [")


def test_the_legitimacy_band_chooses_the_emissarys_die(capsys):
    status, out, _ = run(capsys, "odds", "hierro-diplomacy", "4", "--legitimacy", "5")
    assert status == 0 and out.startswith("diplomatic roll: 4+ with the yellow die (legitimacy 5)")


def test_a_number_given_both_ways_or_not_at_all_is_a_usage_error(capsys):
    status, _, err = run(capsys, "odds", "hierro-castle", "5", "--target", "4")
    assert status == 2 and "TARGET given twice" in err
    status, _, err = run(capsys, "odds", "hierro-castle")
    assert status == 2 and "required: TARGET" in err
    status, _, err = run(capsys, "odds", "batalla-battle", "3")
    assert status == 2 and "required: SHIELDS" in err


def test_hierro_battle_advises_the_first_roll(capsys):
    # 1 against 1: an attacker's face x wins with x/6 against the defender's d6 (ties to the
    # attacker); a reroll is worth 7/12, so 1-3 are rerolled. The defender, losing with
    # y <= x, can still win by rerolling unless x is 6.
    status, out, _ = run(capsys, "odds", "hierro-battle", "1", "1", "--shields", "1", "1")
    assert status == 0
    assert "first roll, attacker (1 shield): reroll 1-3" in out.splitlines()
    assert (
        "first roll, defender (1 shield): by the attacker's die, after 1-5: reroll a losing "
        "die; after 6: never reroll"
    ) in out.splitlines()
    status, out, _ = run(capsys, "odds", "hierro-battle", "2", "1")
    assert "first roll, attacker (0 shields): nothing to spend" in out
    assert "first roll, defender (0 shields): nothing to spend" in out


# -- tables: every probability as 7/12 (58.33%) ----------------------------------------------

PROBABILITY = re.compile(r"(\S+) \((\d+\.\d\d)%\)")


def assert_probabilities_are_written_one_way(out):
    assert "  (" not in out, out  # a fraction and its percentage, one space apart
    for fraction, percent in PROBABILITY.findall(out):
        assert re.fullmatch(r"\d+(/\d+)?", fraction), fraction
        num, _, den = fraction.partition("/")
        assert abs(int(num) / int(den or 1) * 100 - float(percent)) < 0.006


def test_odds_tables(capsys):
    status, out, _ = run(capsys, "odds", "carolus-draws", "2", "--table")
    # exactly 0, 1, 2 of 2 draws at 1/3 each: 4/9, 4/9, 1/9
    assert status == 0 and "4/9 (44.44%)" in out and "1/9 (11.11%)" in out
    assert_probabilities_are_written_one_way(out)
    status, out, _ = run(capsys, "odds", "hierro-battle", "2", "2", "--table")
    # 2 against 2 without shields: (7/12)**2 * (1 + 2 * 5/12) = 49/144 * 22/12 = 539/864
    assert status == 0 and "539/864 (62.38%)" in out and "defender left" in out
    assert_probabilities_are_written_one_way(out)
    status, out, _ = run(capsys, "odds", "risk", "3", "2", "--table")
    # 3 dice against 2, the defender loses both: 2890/7776 = 1445/3888
    assert status == 0 and "1445/3888 (37.17%)" in out
    assert_probabilities_are_written_one_way(out)
    status, out, _ = run(capsys, "odds", "hierro-castle", "4", "--table")
    assert status == 0 and "turns needed to take the castle:" in out
    assert_probabilities_are_written_one_way(out)
    status, out, _ = run(capsys, "odds", "hierro-diplomacy", "4", "--table")
    assert status == 0 and "turns needed to win the castle's support:" in out
    assert_probabilities_are_written_one_way(out)
    status, out, _ = run(capsys, "odds", "batalla-battle", "3", "2", "--gold", "4", "2", "--table")
    assert status == 0 and "reroll decisions" in out and "gem taken" in out
    assert_probabilities_are_written_one_way(out)


def test_odds_with_a_rule_file(capsys, tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"draw_faces": ["red", "red", "blue", "green", "pink", "joker"]}))
    status, out, err = run(
        capsys, "odds", "carolus-draws", "1", "--family", "red", "--rules", str(rules)
    )
    # red on 2 faces and the joker on 1: 3/6
    assert status == 0, err
    assert "P: 1/2 (50.00%)" in answer_lines(out)


# -- long fractions: the percentage at the table, the fraction behind --exact -----------------


def test_a_fraction_too_long_to_read_is_shown_as_its_percentage(capsys):
    # a draw goes to a family 1 time in 3 (its face or the joker), so at least 1 of 30 draws
    # is 1 - (2/3)**30 = (3**30 - 2**30) / 3**30 = 205890058352825/205891132094649: 15 digits,
    # and 99.9995%, which two places would round up to 100.00%
    status, out, _ = run(capsys, "odds", "carolus-draws", "30")
    assert status == 0
    assert "P: >99.99%" in answer_lines(out)
    assert "205891132094649" not in out
    assert "Fractions of more than 12 digits are shown as percentages: --exact prints them." in out
    status, out, _ = run(capsys, "odds", "carolus-draws", "30", "--exact")
    assert status == 0
    assert "P: 205890058352825/205891132094649 (>99.99%)" in answer_lines(out)
    assert "--exact prints them" not in out


def test_twelve_digits_are_still_shown_exactly(capsys):
    # all 25 of 25 draws for the family: (1/3)**25 = 1/847288609443, 12 digits below the line
    status, out, _ = run(capsys, "odds", "carolus-draws", "25", "--at-least", "25")
    assert status == 0 and "P: 1/847288609443 (<0.01%)" in answer_lines(out)
    assert "--exact" not in out
    # 26 of 26: 1/2541865828329 has 13
    status, out, _ = run(capsys, "odds", "carolus-draws", "26", "--at-least", "26")
    assert status == 0 and "P: <0.01%" in answer_lines(out)


def test_long_fractions_in_a_table_and_an_expected_count(capsys):
    status, out, _ = run(capsys, "odds", "hierro-battle", "8", "8", "--shields", "7", "8")
    assert status == 0
    assert all(len(line) < 40 for line in answer_lines(out)), out
    assert "--exact prints them" in out
    status, out, _ = run(capsys, "odds", "risk", "30", "30", "--table")
    assert status == 0 and re.search(r"^expected rounds: \d+\.\d\d$", out, re.M), out
    assert all(len(re.findall(r"\d+", line)) < 8 for line in out.splitlines()), out
