"""The ``coronas`` command line, run in-process (``main(argv)``) and once as a real command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import tests.toygame  # registers the "toy" game
from coronas.cli import bots_for, find_game, main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status, err, *words):
    assert status == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in lines[0], (word, lines[0])


# -- play and replay -------------------------------------------------------------------------


def test_play_prints_a_log_and_saves_a_game_that_replays(capsys, tmp_path):
    path = tmp_path / "game.json"
    status, out, _ = run(capsys, "play", "toy", "--seed", "3", "--save", str(path))
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "toy: 1 player, seed 3, bots random"
    steps = [line for line in lines if line[:6].strip().rstrip(".").isdigit()]
    assert steps[0].split(". ", 1)[1].startswith("chance: roll ")
    assert "winner(s): player 0 (random)" in out
    saved = json.loads(path.read_text())
    assert saved["game"] == "toy" and len(saved["actions"]) == len(steps)

    status, replayed, _ = run(capsys, "replay", str(path))
    assert status == 0
    replay_steps = [
        line for line in replayed.splitlines() if line[:6].strip().rstrip(".").isdigit()
    ]
    # the same actions in the same order, without the bot names
    assert [s.replace(" (random)", "") for s in steps] == replay_steps


def test_play_is_reproducible_and_depends_on_the_seed(capsys):
    _, a, _ = run(capsys, "play", "toy", "--seed", "5")
    _, b, _ = run(capsys, "play", "toy", "--seed", "5")
    assert a == b
    outs = {run(capsys, "play", "toy", "--seed", str(s))[1].split("\n", 1)[1] for s in range(8)}
    assert len(outs) > 1


def test_replay_step_shows_the_position_after_each_action(capsys, tmp_path):
    path = tmp_path / "g.json"
    state = tests.toygame.ToyGame().new_initial_state()
    for action in [tests.toygame.Roll(2), tests.toygame.Reroll(), tests.toygame.Roll(5)]:
        state.apply(action)
    state.save(path)
    status, out, _ = run(capsys, "replay", str(path), "--step")
    assert status == 0
    assert out.splitlines()[1:7] == [
        "    1. chance: roll 2",
        "last roll 2, 2 shields left",
        "    2. player 0: spend a shield and reroll",
        "last roll 2, 1 shields left",
        "    3. chance: roll 5",
        "last roll 5, 1 shields left",
    ]
    assert "scores: player 0 1" in out


def test_quiet_play_prints_only_the_end(capsys):
    status, out, _ = run(capsys, "play", "toy", "--seed", "1", "--quiet")
    assert status == 0 and "chance:" not in out and "scores:" in out


# -- simulate --------------------------------------------------------------------------------


def test_simulate_prints_win_rates_and_is_the_same_on_two_workers(capsys, tmp_path):
    args = ["simulate", "toy", "--games", "300", "--seed", "4", "--no-progress"]
    status, one, _ = run(capsys, *args)
    assert status == 0
    status, two, _ = run(capsys, *args, "--jobs", "2")
    assert status == 0 and one == two
    assert "toy: 300 games, 1 player, seed 4" in one and "95% interval" in one
    plot = tmp_path / "sim.png"
    status, _, _ = run(capsys, *args, "--plot", str(plot))
    assert status == 0 and plot.read_bytes()[:4] == b"\x89PNG"


def test_simulate_shows_a_progress_bar(capsys):
    status, _, err = run(capsys, "simulate", "toy", "--games", "50")
    assert status == 0 and "50/50" in err


# -- figures ---------------------------------------------------------------------------------


def test_figures_writes_into_the_folder_given(capsys, tmp_path, monkeypatch):
    import coronas.plotting

    calls = []

    def fake_write_figures(outdir):
        calls.append(outdir)
        path = tmp_path / "x.png"
        path.write_bytes(b"")
        return [path]

    monkeypatch.setattr(coronas.plotting, "write_figures", fake_write_figures)
    status, out, _ = run(capsys, "figures", "--out", str(tmp_path))
    assert status == 0 and calls == [str(tmp_path)]
    assert f"1 figures written to {tmp_path}" in out


# -- registry --------------------------------------------------------------------------------


def test_games_and_bots_are_found_by_name():
    assert find_game("toy") is tests.toygame.ToyGame
    assert list(bots_for(tests.toygame.ToyGame)) == ["random"]


# -- errors: one line, exit status 2 ---------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "chess"], ["unknown game 'chess'", "toy"]),
        (["play", "toy", "--players", "3"], ["1-1 players, got 3"]),
        (["play", "toy", "--bots", "genius"], ["unknown bot 'genius'", "random"]),
        (["play", "toy", "--bots", "random,random"], ["toy is for 1-1 players, got 2"]),
        (["play", "toy", "--seed", "x"], ["--seed", "invalid int value"]),
        (["simulate", "toy", "--games", "0"], ["--games", "at least 1"]),
        (["simulate", "toy", "--jobs", "0", "--no-progress"], ["--jobs must be at least 1"]),
        (["replay", "/nonexistent/game.json"], ["/nonexistent/game.json", "cannot read"]),
        (["frobnicate"], ["invalid choice"]),
    ],
)
def test_bad_arguments_give_one_line_and_status_2(capsys, argv, words):
    status, _, err = run(capsys, *argv)
    assert_one_line_error(status, err, *words)


def test_bad_files_give_one_line_and_status_2(capsys, tmp_path):
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{not json")
    status, _, err = run(capsys, "replay", str(bad_json))
    assert_one_line_error(status, err, "bad.json", "not valid JSON", "line 1")

    state = tests.toygame.ToyGame().new_initial_state()
    state.apply(tests.toygame.Roll(1))
    data = json.loads(state.to_json())
    data["actions"].append({"type": "Roll", "value": 9})
    cheat = tmp_path / "cheat.json"
    cheat.write_text(json.dumps(data))
    status, _, err = run(capsys, "replay", str(cheat))
    assert_one_line_error(status, err, "cheat.json", "action 1 (roll 9) cannot be replayed")

    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"shields": "two"}))
    status, _, err = run(capsys, "play", "toy", "--rules", str(rules))
    assert_one_line_error(status, err, "rules.json", "'shields'", "whole number")

    status, _, err = run(capsys, "play", "toy", "--save", str(tmp_path / "no" / "g.json"))
    assert_one_line_error(status, err, "cannot write")


def test_the_installed_command_runs_without_a_traceback():
    out = subprocess.run(
        [sys.executable, "-m", "coronas.cli", "replay", "missing.json"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert out.stderr.startswith("coronas: error: missing.json") and "Traceback" not in out.stderr
