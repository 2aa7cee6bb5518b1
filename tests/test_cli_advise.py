"""``coronas advise FILE``: a saved position, its legal actions by kind and their exact odds.

The toy game with odds (tests/test_widgets_odds.py): a die (1, 1, 2, 3, 4, 6), success on 4
or more, 1/3 a roll; 2 shields buy rerolls after a failure.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from coronas.cli import advise, main
from coronas.dice import exact_fractions
from coronas.engine import RandomBot, available_games
from coronas.formatting import probability_text
from tests.test_widgets_odds import first_odds, odds_state
from tests.toygame import Roll


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def saved(tmp_path, state, name="game.json"):
    path = tmp_path / name
    state.save(path)
    return str(path)


def advise_json(capsys, path):
    status, out, err = run(capsys, "advise", path, "--json")
    assert status == 0, err
    return json.loads(out)


# -- the toy game ----------------------------------------------------------------------------


def test_advise_at_a_chance_node_gives_the_roll_and_its_outcomes(capsys, tmp_path):
    status, out, _ = run(capsys, "advise", saved(tmp_path, odds_state()))
    assert status == 0
    paragraph, odds, outcomes = out.split("\n\n")
    assert " ".join(paragraph.split()) == (
        "toy-odds, 1 player, 0 steps played. last roll None, 2 shields left. "
        "A roll or draw is being made; its 5 outcomes are listed below."
    )
    # this roll 2/6; three rolls in all: 1 - (2/3)**3 = 19/27
    assert odds == (
        "odds: the roll: this roll: 1/3 (33.33%); in all: 19/27 (70.37%) to roll 4 or more"
    )
    assert outcomes.splitlines() == [
        "outcomes:",
        "  roll 1  1/3 (33.33%)",  # two faces of six
        "  roll 2  1/6 (16.67%)",
        "  roll 3  1/6 (16.67%)",
        "  roll 4  1/6 (16.67%)",
        "  roll 6  1/6 (16.67%)",
    ]


def test_advise_at_a_reroll_decision_lists_actions_by_kind_with_odds(capsys, tmp_path):
    state = odds_state()
    state.apply(Roll(2))
    status, out, _ = run(capsys, "advise", saved(tmp_path, state))
    assert status == 0
    blocks = out.split("\n\n")
    assert "Player 1 is to move: 2 legal actions of 2 kinds, 1 with dice." in " ".join(
        blocks[0].split()
    )
    # two rolls left: 1 - (2/3)**2 = 5/9; giving up never succeeds
    assert blocks[1] == (
        "advice: reroll or give up: reroll: 5/9 (55.56%) to roll 4 or more (best); "
        "give up: 0 (0.00%)"
    )
    assert blocks[2:] == [
        "Reroll (1):\n  spend a shield and reroll: 5/9 (55.56%) to roll 4 or more",
        "Give up (1):\n  give up\n",
    ]


def test_advise_json_has_exact_fractions_and_floats(capsys, tmp_path):
    state = odds_state()
    state.apply(Roll(2))
    data = advise_json(capsys, saved(tmp_path, state))
    assert data["game"] == "toy-odds" and data["steps"] == 1 and data["player"] == 0
    assert not data["chance"] and not data["terminal"]
    assert data["odds"]["best"] == "reroll"
    assert data["odds"]["choices"] == [
        {"choice": "reroll", "success": {"fraction": "5/9", "float": 5 / 9}},
        {"choice": "give up", "success": {"fraction": "0", "float": 0.0}},
    ]
    kinds = {g["kind"]: g["actions"] for g in data["groups"]}
    assert kinds["Reroll"][0]["odds"]["success"] == {"fraction": "5/9", "float": 5 / 9}
    assert kinds["Give up"] == [{"action": "give up", "odds": None}]
    assert data["outcomes"] == [] and data["scores"] is None

    at_roll = advise_json(capsys, saved(tmp_path, odds_state(), "start.json"))
    assert at_roll["chance"] and at_roll["player"] is None and at_roll["groups"] == []
    assert at_roll["odds"]["roll"] == {"fraction": "1/3", "float": 1 / 3}
    assert at_roll["outcomes"][0] == {
        "outcome": "roll 1",
        "probability": {"fraction": "1/3", "float": 1 / 3},
        "text": "1/3 (33.33%)",
    }


def test_advise_at_the_end_gives_the_scores(capsys, tmp_path):
    state = odds_state()
    state.apply(Roll(6))
    path = saved(tmp_path, state)
    status, out, _ = run(capsys, "advise", path)
    assert status == 0
    assert "The game is over after 1 step." in " ".join(out.split())
    assert out.rstrip().endswith("score: player 1 1\nwinner(s): player 1")
    data = advise_json(capsys, path)
    assert data["terminal"] and data["odds"] is None
    assert data["scores"] == [{"player": "player 1", "score": "1"}]


def test_advise_board_prints_the_whole_position(capsys, tmp_path):
    state = odds_state()
    state.apply(Roll(2))
    _, out, _ = run(capsys, "advise", saved(tmp_path, state), "--board")
    assert "\n\nlast roll 2, 2 shields left\n\n" in out


# -- errors ----------------------------------------------------------------------------------


def one_line_error(status, err, code, *words):
    assert status == code, (status, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in lines[0], (word, lines[0])


def test_advise_refuses_a_bad_file_on_one_line(capsys, tmp_path):
    status, _, err = run(capsys, "advise", str(tmp_path / "missing.json"))
    one_line_error(status, err, 2, "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    status, _, err = run(capsys, "advise", str(broken))
    one_line_error(status, err, 2, "broken.json")
    other = tmp_path / "other.json"
    other.write_text('{"format": "something else"}')
    status, _, err = run(capsys, "advise", str(other))
    one_line_error(status, err, 2, "other.json", "not a coronas saved game")
    cheat = json.loads(odds_state().to_json())
    cheat["actions"] = [{"type": "Roll", "value": 5}]  # no 5 on this die
    bad = tmp_path / "cheat.json"
    bad.write_text(json.dumps(cheat))
    status, _, err = run(capsys, "advise", str(bad))
    assert status == 2 and len(err.strip().splitlines()) == 1, err


def test_advise_usage_mistakes_exit_2(capsys):
    status, _, err = run(capsys, "advise")
    one_line_error(status, err, 2, "file")
    status, _, err = run(capsys, "advise", "game.json", "--jsn")
    one_line_error(status, err, 2, "--json")


# -- the real games --------------------------------------------------------------------------


def played(name, steps, seed=1, chance=False):
    """A seeded random game of ``name`` after about ``steps`` steps, stopped at a chance node
    (``chance``) or at a decision with a choice."""
    state = available_games()[name](seed=seed).new_initial_state()
    rng, bot = random.Random(seed), RandomBot()
    for done in range(100_000):
        at_choice = not state.is_chance_node() and len(state.legal_actions()) > 1
        if done >= steps and (state.is_chance_node() if chance else at_choice):
            return state
        assert not state.is_terminal()
        state.apply(state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng))
    raise AssertionError("no such position")


GAMES = ["hierro", "carolus", "batalla"]


@pytest.mark.parametrize("name", GAMES)
def test_advise_lists_every_legal_action_of_a_saved_game(capsys, tmp_path, name):
    state = played(name, 60)
    path = saved(tmp_path, state)
    status, out, _ = run(capsys, "advise", path)
    assert status == 0
    listed = [line[2:].split(": ")[0] for line in out.splitlines() if line.startswith("  ")]
    described = [state.describe(a) for a in state.legal_actions()]
    assert sorted(listed) == sorted(d.split(": ")[0] for d in described)
    data = advise_json(capsys, path)
    assert data["game"] == name and data["steps"] == len(state.history)
    assert data["to_move"] == state.player_name(state.current_player)
    assert sum(len(g["actions"]) for g in data["groups"]) == len(described)
    assert data["situation"] == str(state).strip().splitlines()[0]


@pytest.mark.parametrize("name", GAMES)
def test_advise_at_a_chance_node_of_a_saved_game(capsys, tmp_path, name):
    state = played(name, 30, chance=True)
    data = advise_json(capsys, saved(tmp_path, state))
    assert data["chance"] and data["groups"] == []
    outcomes = state.chance_outcomes()
    assert [o["probability"]["fraction"] for o in data["outcomes"]] == [str(p) for _, p in outcomes]
    assert sum(float(p) for _, p in outcomes) == pytest.approx(1)


@pytest.mark.parametrize("name", GAMES)
def test_advise_prints_each_games_odds(capsys, tmp_path, name):
    state, action, odds = first_odds(name)
    data = advise_json(capsys, saved(tmp_path, state))
    with exact_fractions():
        if action is None:
            assert data["odds"]["success"]["fraction"] == str(odds.success)
        else:
            records = [a for g in data["groups"] for a in g["actions"]]
            found = next(r for r in records if r["action"] == state.describe(action))
            assert found["odds"]["success"]["fraction"] == str(odds.success)
    _, out, _ = run(capsys, "advise", saved(tmp_path, state, "again.json"))
    assert probability_text(odds.success) in out


def test_the_readme_pair_of_play_and_advise_shows_moves_with_odds(capsys, tmp_path, monkeypatch):
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    lines = [line.split("#")[0].split() for line in readme.splitlines()]
    play = next(words for words in lines if words[:2] == ["coronas", "play"])
    advise = next(words for words in lines if words[:2] == ["coronas", "advise"])
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, *play[1:])
    assert status == 0, err
    status, out, err = run(capsys, *advise[1:])
    assert status == 0, err
    assert "Game over" not in out
    # an action with dice, and its exact chance: "...: 19/27 (70.37%) to win the support of ..."
    assert any(line.startswith("  ") and "%) to " in line for line in out.splitlines()), out


# -- who wins from here ----------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_win_chances_give_every_seat_an_interval_and_rank_the_moves(capsys, tmp_path, name):
    state = played(name, 40, seed=2)
    path = saved(tmp_path, state)
    options = ["--win-chances", "--games", "10", "--seed", "3", "--time", "600"]
    status, out, err = run(capsys, "advise", path, *options)
    assert status == 0, err
    chances = out.split("who wins from here: ")[1].splitlines()[0]
    for p in range(state.num_players):
        assert f"{state.player_name(p)} " in chances and "%-" in chances, chances
    assert "10 games, 95% intervals; if every seat plays like the quick playout" in chances
    assert "moves by the chance of winning the game [" in out
    marks = [line[35:45] for line in out.splitlines()]  # a ranking row's mark column
    assert marks.count("best      ") == 1
    data = json.loads(run(capsys, "advise", path, *options, "--json")[1])
    seats = data["win_chances"]["seats"]
    assert len(seats) == state.num_players
    # the shares of the games won add up to 1, each inside its own interval
    assert sum(Fraction(s["chance"]["fraction"]) for s in seats) == 1
    assert all(s["low"] <= s["chance"]["float"] <= s["high"] for s in seats)
    moves = data["ranking"]["actions"]
    assert len(moves) == len(state.legal_actions())
    assert [m["best"] for m in moves].count(True) == 1 and moves[0]["best"]


def test_win_chances_from_a_seat_say_whose_view(capsys, tmp_path):
    # a seat is named as the game calls it, or by its number from one: 2 is green, the second
    path = saved(tmp_path, played("hierro", 60, seed=4))
    options = ["--win-chances", "--games", "8", "--time", "60"]
    status, out, err = run(capsys, "advise", path, *options, "--viewer", "2")
    assert status == 0, err
    assert "from green's view" in out
    status, by_name, err = run(capsys, "advise", path, *options, "--viewer", "Green")
    assert status == 0, err
    assert by_name == out  # the same seat, the same seeded games
    # without a seat, the chances at a decision are from the mover's view, as its moves'
    # ranking must be: both answers rest on the same information, and say whose
    state = played("hierro", 60, seed=4)
    mover = state.player_name(state.current_player)
    status, out, err = run(capsys, "advise", path, "--win-chances", "--games", "8")
    assert status == 0, err
    chances, moves = out.split("who wins from here: ")[1].split("\n\n")[:2]
    assert f"from {mover}'s view" in chances and f"from {mover}'s view" in moves
    # where nobody chooses (a roll to come), no ranking, and the whole position: an analyst's
    path = saved(tmp_path, played("hierro", 60, seed=4, chance=True), "roll.json")
    status, out, err = run(capsys, "advise", path, "--win-chances", "--games", "8")
    assert status == 0, err
    assert "full information (every hidden card seen)" in out


def test_a_seat_that_is_not_to_move_gets_its_chances_and_the_movers_ranking(capsys, tmp_path):
    # Corona de Hierro hides hands: the moves of the seat to move hang on cards another seat
    # cannot see, so the chances are from the asked seat's view and the moves from the mover's.
    state = played("hierro", 60, seed=4)
    mover = state.player_name(state.current_player)
    other = next(
        state.player_name(p) for p in range(state.num_players) if p != state.current_player
    )
    with pytest.raises(ValueError, match=f"ranked from {mover}'s view"):
        state.rank_actions(games=4, viewer=(state.current_player + 1) % state.num_players)
    path = saved(tmp_path, state)
    options = ["--win-chances", "--games", "8", "--time", "60", "--viewer", other]
    status, out, err = run(capsys, "advise", path, *options)
    assert status == 0, err
    chances, ranking = out.split("who wins from here: ")[1].split("moves by the chance", 1)
    assert f"from {other}'s view" in chances and f"from {mover}'s view" in ranking


def test_win_chances_at_the_end_are_exact(capsys, tmp_path):
    state = played("batalla", 10, seed=1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(
            state.sample_chance(rng) if state.is_chance_node() else RandomBot().choose(state, rng)
        )
    data = json.loads(run(capsys, "advise", saved(tmp_path, state), "--win-chances", "--json")[1])
    assert data["win_chances"]["exact"] and data["ranking"] is None
    winner = state.winners()[0]
    assert [s["chance"]["fraction"] for s in data["win_chances"]["seats"]] == [
        "1" if p == winner else "0" for p in range(2)
    ]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--games", "10"], "--games goes with --win-chances"),
        (["--jobs", "1", "--time", "1"], "--time and --jobs go with --win-chances"),
        (
            ["--win-chances", "--viewer", "0"],
            "--viewer: no seat '0': the seats are player 1, player 2 (or 1 to 2)",
        ),
        (["--win-chances", "--viewer", "red"], "--viewer: no seat 'red': the seats are player 1"),
        (["--win-chances", "--bots", "gredy"], "did you mean 'greedy'"),
        (["--win-chances", "--time", "0"], "--time: expected seconds above 0"),
        (["--win-chances", "--precision", "0.7"], "--precision: expected a half-width"),
        (["--win-chances", "--games", "0"], "--games"),
    ],
)
def test_win_chances_refuse_bad_options_on_one_line(capsys, tmp_path, argv, words):
    path = saved(tmp_path, played("batalla", 20))
    status, _, err = run(capsys, "advise", path, *argv)
    one_line_error(status, err, 2, words)


@pytest.mark.parametrize("argv", [["--time", "1"], ["--jobs", "1"], ["--seed", "3"]])
def test_every_option_of_the_games_needs_win_chances(capsys, tmp_path, argv):
    # they used to be ignored without --win-chances
    path = saved(tmp_path, played("batalla", 20))
    status, _, err = run(capsys, "advise", path, *argv)
    one_line_error(status, err, 2, f"{argv[0]} goes with --win-chances")


@pytest.mark.parametrize("value", ["1_0", "\u0665", "inf", "1e1"])
def test_time_is_read_in_plain_digits(capsys, tmp_path, value):
    path = saved(tmp_path, played("batalla", 20))
    status, _, err = run(capsys, "advise", path, "--win-chances", "--time", value)
    one_line_error(status, err, 2, "--time", "expected a decimal number")


def test_win_chances_end_within_their_time(capsys, tmp_path):
    # Batalla at 2 gems each under the random bot: the exact attempts (one for the seats,
    # one for each move) used to build a 5,000-position chain each, 10 to 80 s apiece, before
    # any clock started. --time 1 must now end within about a second after start-up; 8 s
    # leaves room for a loaded machine.
    import time

    from tests.test_winchances import batalla_endgame

    path = saved(tmp_path, batalla_endgame())
    began = time.monotonic()
    status, out, err = run(
        capsys, "advise", path, "--win-chances", "--bots", "random", "--time", "1"
    )
    assert status == 0, err
    assert time.monotonic() - began < 8
    assert "games, 95% intervals; if every seat plays like a player choosing at random" in out
    assert "games a move still in the running" in out


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="reads /proc")
def test_one_ctrl_c_stops_advise_and_its_workers(tmp_path):
    # Ctrl-C at a terminal reaches the command and its workers (one process group), each
    # worker deep in a 20-second decision: advise ends within 2 s, exit 130, saying only
    # that it was interrupted, no process of the group left.
    import sys
    import time

    from tests.test_cli import _group_members, ctrl_c_to_group, kill_group, start_at_a_terminal

    path = saved(tmp_path, played("batalla", 20))
    argv = ["advise", path, "--win-chances", "--jobs", "2", "--time", "120", "--bots", "mcts:20s"]
    proc = start_at_a_terminal([sys.executable, "-m", "coronas.cli", *argv], group=True)
    try:
        deadline = time.monotonic() + 60
        while len(_group_members(proc.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)  # until the two workers are up
        assert len(_group_members(proc.pid)) >= 3, "the workers never started"
        time.sleep(1)  # games in play
        assert proc.poll() is None
    except BaseException:
        kill_group(proc)
        raise
    err = ctrl_c_to_group(proc)
    assert err.strip() == "coronas: interrupted", err  # from no process a traceback


def test_every_move_plays_out_the_moves_carolus_s_value_model_would_leave_out(capsys, tmp_path):
    # A Carolus decision among many placements: by default only the value model's five best
    # moves are played out (a tie broken by the learned player), the rest left out saying
    # so; --every-move plays them all (here 2 games each: too few to halve).
    state = played("carolus", 42, seed=4)  # 48 placements
    assert len(state.legal_actions()) > 5
    path = saved(tmp_path, state)
    options = ["--win-chances", "--games", "2", "--time", "120", "--json"]
    ranking = json.loads(run(capsys, "advise", path, *options)[1])["ranking"]
    moves = ranking["actions"]
    left_out = [m for m in moves if m["dropped"].startswith("left out")]
    assert len(moves) - len(left_out) == 5
    assert all(m["games"] == 0 for m in left_out)
    assert all("not among the value model's 5 best moves" in m["dropped"] for m in left_out)
    assert ranking["text"].count("the value model's 5 best moves were played out") == 1
    every = json.loads(run(capsys, "advise", path, *options, "--every-move")[1])
    assert all(m["games"] == 2 and not m["dropped"] for m in every["ranking"]["actions"])
    status, _, err = run(capsys, "advise", path, "--every-move")
    one_line_error(status, err, 2, "--every-move goes with --win-chances")


def test_corona_de_hierro_s_advice_plays_every_move_and_halves_them(capsys, tmp_path):
    # Corona de Hierro declares its rankings: every move played out, none left out by its
    # move prior, the worse half dropped at each fifth of the games down to two (29 moves:
    # 15, 8, 4, 2); too few games for the racing to drop any (40 at least)
    path = saved(tmp_path, played("hierro", 60, seed=4))
    options = ["--win-chances", "--games", "10", "--time", "120", "--json"]
    ranking = json.loads(run(capsys, "advise", path, *options)[1])["ranking"]
    moves = ranking["actions"]
    assert not any("the learned player would choose it" in m["dropped"] for m in moves)
    assert all(m["games"] >= 2 for m in moves)
    halved = [m for m in moves if "outside the top" in m["dropped"]]
    assert len(moves) > 4 and len(moves) - len(halved) == 2
    assert "the moves halved" in ranking["text"] and "2 played to the end" in ranking["text"]


def test_win_chances_count_the_time_from_the_command_s_start(monkeypatch, capsys, tmp_path):
    # "--time S bounds all of it ... the command ends about S seconds after it starts": typed
    # at a prompt (no argv), the command began when coronas.cli was imported, so what went
    # before the games is taken off their time; called from Python, it begins at the call.
    # Each estimate's time is recorded, then it is played with a hundredth of a second.
    import time

    import coronas.cli
    from coronas.manygames import moves, winchances

    asked = []
    for module, name in ((winchances, "win_chances"), (moves, "rank_actions")):
        original = getattr(module, name)

        def recorded(state, *args, _original=original, **options):
            asked.append(options["time"])
            return _original(state, *args, **{**options, "time": 0.01})

        monkeypatch.setattr(module, name, recorded)
    path = saved(tmp_path, played("batalla", 20))
    run(capsys, "advise", path, "--win-chances", "--time", "5")
    # from Python: half of 5 s less the margin kept for the end (FINISH) and what went before
    assert len(asked) == 2 and 1.0 < asked[0] <= (5 - advise.FINISH) / 2
    asked.clear()
    monkeypatch.setattr(coronas.cli, "STARTED", time.monotonic() - 4.6)  # typed 4.6 s ago
    typed = ["coronas", "advise", str(path), "--win-chances", "--time", "5"]
    monkeypatch.setattr("sys.argv", typed)
    assert main() == 0
    assert asked == [0.05, 0.05]  # nothing left of the 5 s but the least an estimate is given
