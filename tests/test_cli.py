"""The ``coronas`` command line, run in-process (``main(argv)``) and once as a real command."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tests.toygame  # registers the "toy" game
from coronas.cli import bots_for, find_game, main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status, err, *words, code=2):
    """One line on stderr naming ``words``, no traceback, exit status ``code`` (2 for a usage
    mistake, 1 for any other failure)."""
    assert status == code, (status, err)
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
    assert "winner(s): player 1 (random)" in out
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
        "    2. player 1: spend a shield and reroll",
        "last roll 2, 1 shields left",
        "    3. chance: roll 5",
        "last roll 5, 1 shields left",
    ]
    assert "score: player 1 1" in out  # the toy game names its score "score"


def test_quiet_play_prints_only_the_end(capsys):
    status, out, _ = run(capsys, "play", "toy", "--seed", "1", "--quiet")
    assert status == 0 and "chance:" not in out and "score:" in out


def test_max_steps_stops_the_game_and_prints_the_position(capsys, tmp_path):
    path = tmp_path / "cut.json"
    argv = ["play", "toy", "--seed", "1", "--max-steps", "1", "--save", str(path)]
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    assert "    1. chance: roll " in out and "    2." not in out
    assert "the game is not over: player 1 to move" in out
    assert "stopped after 1 step (--max-steps)" in out
    assert len(json.loads(path.read_text())["actions"]) == 1
    # seed 0 ends the game on its first roll: one step is then the whole game
    status, out, _ = run(capsys, "play", "toy", "--seed", "0", "--max-steps", "1")
    assert status == 0 and "winner(s): player 1" in out and "stopped" not in out


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


def test_simulate_names_its_mean_column_as_the_game_counts_a_result(capsys):
    argv = ["--games", "2", "--seed", "1", "--no-progress"]
    # Batalla's returns are wins, 1 or 0: their mean would repeat the win rate
    for game, label in (("batalla", "95% interval"), ("carolus", "mean castles")):
        status, out, err = run(capsys, "simulate", game, *argv)
        assert status == 0, err
        header = next(line for line in out.splitlines() if line.startswith("bot "))
        assert header.endswith(f" {label}"), header
        assert "mean wins" not in out


def test_simulate_csv_names_each_bot_and_its_seat_apart(capsys, tmp_path):
    pytest.importorskip("pandas")
    table = tmp_path / "games.csv"
    argv = ["--bots", "greedy", "--games", "3", "--no-progress", "--csv", str(table)]
    status, out, err = run(capsys, "simulate", "carolus", *argv)
    assert status == 0, err
    assert "greedy 2" in out  # the summary tells the two greedy bots apart
    rows = table.read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    bots = {row.split(",")[header.index("bot")] for row in rows[1:]}
    seats = [row.split(",")[header.index("seat")] for row in rows[1:]]
    assert bots == {"greedy"} and seats == ["0", "1"] * 3


def test_simulate_shows_a_progress_bar(capsys):
    status, _, err = run(capsys, "simulate", "toy", "--games", "50")
    assert status == 0 and "50/50" in err


def start_at_a_terminal(command: list[str], group: bool = False) -> subprocess.Popen:
    """``command`` started as a terminal would start it: Ctrl-C at its defaults (a test run
    before in the same worker may leave it ignored, which a child inherits and Python keeps),
    this checkout importable, text pipes for its output; with ``group`` in a process group
    of its own, as a terminal's job, so that a Ctrl-C can reach it and its workers."""
    import os
    import signal

    def as_at_a_terminal() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=as_at_a_terminal,
        start_new_session=group,
    )


def test_simulate_interrupted_by_sigint_resumes_to_the_uninterrupted_summary(capsys, tmp_path):
    import signal
    import time

    path = tmp_path / "run.jsonl"
    games = 150
    args = ["simulate", "batalla", "--bots", "greedy,random", "--games", str(games)]
    args += ["--seed", "9"]
    args += ["--no-progress", "--out", str(path)]
    proc = start_at_a_terminal([sys.executable, "-m", "coronas.cli", *args])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and len(path.read_bytes().splitlines()) > 10:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err
    assert "interrupted after" in err and f"--out {path} --resume" in err
    kept = len(path.read_text().splitlines()) - 1
    assert 10 <= kept < games
    # the command it prints continues the run; the summary is the uninterrupted one's
    again = err.strip().splitlines()[-1].split()[2:]  # after "coronas simulate"
    status, resumed, _ = run(capsys, "simulate", *again, "--no-progress")
    assert status == 0 and len(path.read_text().splitlines()) == games + 1
    whole_path = tmp_path / "whole.jsonl"
    status, whole, _ = run(capsys, *args[:-1], str(whole_path))
    assert status == 0
    assert resumed.replace(str(path), "FILE") == whole.replace(str(whole_path), "FILE")


SLOW_GREEDY = """
import sys, time
import coronas.batalla.bots as bots
from coronas.cli import main

choose = bots.GreedyBot.choose

def slow(self, state, rng):  # thinks 0.02 s a decision in Python, as a timed search does
    end = time.perf_counter() + 0.02
    while time.perf_counter() < end:
        pass
    return choose(self, state, rng)

bots.GreedyBot.choose = slow
sys.exit(main(sys.argv[1:]))
"""


def _group_members(pgid: int) -> list[int]:
    """The live processes of process group ``pgid``."""
    import os

    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(name))
    return found


def kill_group(proc: subprocess.Popen) -> None:
    """Kill ``proc``'s process group, whatever is left of it."""
    import os
    import signal

    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    for pid in _group_members(proc.pid):
        os.kill(pid, signal.SIGKILL)


def ctrl_c_to_group(proc: subprocess.Popen) -> str:
    """Ctrl-C at a terminal to ``proc``'s process group (the command and its workers), and
    the promise checked: it ends within 2 s with exit 130, no traceback, no process of the
    group left. Returns what it wrote to stderr."""
    import os
    import signal
    import time

    try:
        os.killpg(proc.pid, signal.SIGINT)
        sent = time.monotonic()
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - sent
        left = _group_members(proc.pid)
    finally:
        kill_group(proc)
    assert proc.returncode == 130, (out, err)
    assert took < 2, took
    assert left == [], left  # no worker runs on
    assert "Traceback" not in err, err
    return err


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table in /proc")
@pytest.mark.parametrize(("command", "jobs"), [("simulate", 1), ("simulate", 2), ("tournament", 2)])
def test_one_ctrl_c_stops_a_run_at_once_keeping_every_game_played(tmp_path, command, jobs):
    # Ctrl-C at a terminal: SIGINT to the whole process group (the command and its workers)
    # while games are in play (about a second a game). The run ends within 2 s, exit 130, no
    # traceback, no process of the group left, every game that ended kept, the way on said.
    import time

    path = tmp_path / "run.jsonl"
    args = [command, "batalla", "--bots", "greedy", "random", "--games", "40"]
    args += ["--jobs", str(jobs), "--no-progress", "--out", str(path)]
    proc = start_at_a_terminal([sys.executable, "-c", SLOW_GREEDY, *args], group=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if path.exists() and len(path.read_bytes().splitlines()) >= 3:
                break
            time.sleep(0.02)
        time.sleep(0.3)  # into the next games
        assert proc.poll() is None
        before = len(path.read_bytes().splitlines()) - 1
    except BaseException:
        kill_group(proc)
        raise
    err = ctrl_c_to_group(proc)
    assert "Exception" not in err, err
    kept = len(path.read_text().splitlines()) - 1
    assert 2 <= before <= kept < 40
    assert f"interrupted after {kept} of 40 games" in err
    assert f"--out {path} --resume" in err


def test_simulate_refuses_a_results_file_of_another_run(capsys, tmp_path):
    path = tmp_path / "run.jsonl"
    args = ["simulate", "toy", "--games", "20", "--no-progress", "--out", str(path)]
    assert run(capsys, *args)[0] == 0
    status, _, err = run(capsys, *args)
    assert_one_line_error(status, err, "exists", "--resume")
    status, _, err = run(capsys, *args, "--seed", "2", "--resume")
    assert_one_line_error(status, err, "line 1", "'seed' is 0 there and 2 here")
    status, _, err = run(capsys, "simulate", "toy", "--resume", "--no-progress")
    assert_one_line_error(status, err, "--resume needs --out")


def test_resume_refuses_a_line_no_game_could_leave(capsys, tmp_path):
    # A winner counted twice would turn the summary's wins from 15 to 16: refused instead,
    # naming the line and the field, as a usage mistake about a file is (status 2).
    path = tmp_path / "run.jsonl"
    args = ["simulate", "batalla", "--bots", "greedy,random", "--games", "6", "--no-progress"]
    args += ["--out", str(path)]
    assert run(capsys, *args)[0] == 0
    lines = path.read_text().splitlines()
    for field, value in (("winners", [1, 1]), ("decisions", 999_999_999)):
        game = json.loads(lines[3])
        game[field] = value
        path.write_text("\n".join([*lines[:3], json.dumps(game), *lines[4:]]) + "\n")
        status, out, err = run(capsys, *args, "--resume")
        assert_one_line_error(status, err, f"{path}, line 4: '{field}': expected")
        assert out == ""
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "nowhere.jsonl")
    status, _, err = run(capsys, *args[:-1], str(link), "--resume")
    assert_one_line_error(
        status, err, "is a symbolic link to", "nowhere.jsonl, which does not exist"
    )


def test_simulate_csv_is_the_table_of_games(capsys, tmp_path):
    import csv

    from coronas.manygames.simulate import TABLE_COLUMNS

    path = tmp_path / "games.csv"
    args = ["simulate", "batalla", "--bots", "greedy,random", "--games", "12", "--seed", "1"]
    status, out, _ = run(capsys, *args, "--no-progress", "--csv", str(path))
    assert status == 0 and f"table of games saved to {path}" in out
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 24 and tuple(rows[0]) == TABLE_COLUMNS
    # Batalla has one winner a game: one row of each game says True
    for game in range(12):
        won = [r["won"] for r in rows if r["game"] == str(game)]
        assert sorted(won) == ["False", "True"]
    assert {r["bot"] for r in rows} == {"greedy", "random"}


def test_simulate_prints_how_to_replay_an_unfinished_game(capsys):
    args = ["simulate", "toy", "--games", "30", "--seed", "1", "--max-steps", "1"]
    status, out, _ = run(capsys, *args, "--no-progress")
    assert status == 0
    lines = out.splitlines()
    assert any("of 30 games did not end within 1 step and" in line for line in lines)
    command = next(line for line in lines if "coronas play toy" in line).split()
    seed = command[command.index("--seed") + 1]
    assert command[command.index("--max-steps") + 1] == "1" and "--play-seed" in command
    status, _, err = run(capsys, *args, "--no-progress", "--strict")
    assert_one_line_error(status, err, "game ", "play seed", "did not end within 1 step", code=1)
    # the command replays that very game: it stops after its one step too
    play_args = command[1:]  # after "coronas"
    status, replayed, _ = run(capsys, *play_args, "--quiet")
    assert status == 0 and "stopped after 1 step" in replayed and seed in replayed


# -- figures ---------------------------------------------------------------------------------


@pytest.fixture
def drawn(monkeypatch, tmp_path):
    """``coronas.plotting.write_figures`` replaced by one that writes a single empty file."""
    import coronas.plotting

    calls = []

    def fake_write_figures(outdir):
        calls.append(outdir)
        path = tmp_path / "x.png"
        path.write_bytes(b"")
        return [path]

    monkeypatch.setattr(coronas.plotting, "write_figures", fake_write_figures)
    return calls


def test_figures_writes_into_the_folder_given(capsys, tmp_path, drawn):
    status, out, err = run(capsys, "figures", "--out", str(tmp_path), "--no-browser")
    assert status == 0 and drawn == [str(tmp_path)] and err == ""
    assert f"1 figures written to {tmp_path}" in out


def test_figures_without_a_browser_says_what_it_skipped_and_how_to_get_it(
    capsys, tmp_path, drawn, monkeypatch
):
    from coronas.widgets import browser

    monkeypatch.setattr(browser, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setitem(sys.modules, "playwright", None)  # as if it were not installed
    status, out, err = run(capsys, "figures", "--out", str(tmp_path))
    assert status == 0 and drawn == [str(tmp_path)]
    assert f"1 figures written to {tmp_path}" in out
    (line,) = err.splitlines()
    for words in [
        f"skipped {tmp_path / 'stepper.png'}",
        f"no Chromium at {tmp_path / 'no-chromium'} (apt-get install chromium)",
        'playwright not installed (pip install "coronas[browser]")',
    ]:
        assert words in line, line


def test_figures_takes_the_screenshot_and_reports_a_failure_on_one_line(
    capsys, tmp_path, drawn, monkeypatch
):
    from coronas.widgets import browser

    def fake_screenshot(path, progress):
        progress("starting JupyterLab...")
        path.write_bytes(b"")
        return path

    monkeypatch.setattr(browser, "unavailable", lambda: None)
    monkeypatch.setattr(browser, "stepper_screenshot", fake_screenshot)
    status, out, _ = run(capsys, "figures", "--out", str(tmp_path))
    shot = tmp_path / "stepper.png"
    assert status == 0 and shot.exists()
    assert out.splitlines()[1:] == [
        "starting JupyterLab...",
        str(shot),
        f"2 figures written to {tmp_path}",
    ]

    def failing(path, progress):
        raise browser.BrowserError("starting JupyterLab: it did not answer within 90 s", "log")

    monkeypatch.setattr(browser, "stepper_screenshot", failing)
    status, out, err = run(capsys, "figures", "--out", str(tmp_path))
    assert_one_line_error(
        status, err, f"{shot} not written", "did not answer within 90 s", "other figures", code=1
    )
    assert drawn == [str(tmp_path)] * 2 and (tmp_path / "x.png").exists()


# -- registry --------------------------------------------------------------------------------


def test_games_and_bots_are_found_by_name():
    assert find_game("toy") is tests.toygame.ToyGame
    assert list(bots_for(tests.toygame.ToyGame)) == ["random"]


# -- errors: one line, exit status 2 for a usage mistake, 1 for a failure ---------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "chess"], ["unknown game 'chess'", "toy"]),
        (["play", "toy", "--players", "3"], ["toy is for 1-1 players, got 3"]),
        (["play", "toy", "--bots", "genius"], ["unknown bot 'genius'", "random"]),
        (["play", "toy", "--bots", "random,random"], ["toy is for 1-1 players, got 2"]),
        (["play", "toy", "--seed", "x"], ["--seed", "whole number from 0 to"]),
        (["simulate", "toy", "--games", "0"], ["--games", "from 1 to 1000000, got 0"]),
        (["simulate", "toy", "--jobs", "0", "--no-progress"], ["--jobs", "from 1 to"]),
        (["frobnicate"], ["invalid choice"]),
    ],
)
def test_bad_arguments_give_one_line_and_status_2(capsys, argv, words):
    status, _, err = run(capsys, *argv)
    assert_one_line_error(status, err, *words)


def test_bad_files_give_one_line_and_status_1(capsys, tmp_path):
    status, _, err = run(capsys, "replay", "/nonexistent/game.json")
    assert_one_line_error(status, err, "/nonexistent/game.json", "cannot read", code=2)

    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{not json")
    status, _, err = run(capsys, "replay", str(bad_json))
    assert_one_line_error(status, err, "bad.json", "not valid JSON", "line 1", code=2)

    state = tests.toygame.ToyGame().new_initial_state()
    state.apply(tests.toygame.Roll(1))
    data = json.loads(state.to_json())
    data["actions"].append({"type": "Roll", "value": 9})
    cheat = tmp_path / "cheat.json"
    cheat.write_text(json.dumps(data))
    status, _, err = run(capsys, "replay", str(cheat))
    assert_one_line_error(
        status, err, "cheat.json", "actions[1] (roll 9) cannot be replayed", code=2
    )

    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"shields": "two"}))
    status, _, err = run(capsys, "play", "toy", "--rules", str(rules))
    assert_one_line_error(status, err, "rules.json", "'shields'", "whole number", code=2)

    status, _, err = run(capsys, "play", "toy", "--save", str(tmp_path / "no" / "g.json"))
    assert_one_line_error(status, err, "cannot write", code=1)


def test_the_installed_command_runs_without_a_traceback():
    out = subprocess.run(
        [sys.executable, "-m", "coronas.cli", "replay", "missing.json"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert out.stderr.startswith("coronas: error: missing.json") and "Traceback" not in out.stderr


# -- the real games --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "bots"),
    [
        ("hierro", "random,greedy,random"),
        ("batalla", "greedy,random"),
        ("carolus", "random,greedy"),
    ],
)
def test_play_and_replay_each_game(capsys, tmp_path, game, bots):
    path = tmp_path / f"{game}.json"
    status, played, err = run(
        capsys, "play", game, "--seed", "2", "--bots", bots, "--save", str(path)
    )
    assert status == 0, err
    assert "winner(s): " in played
    status, replayed, err = run(capsys, "replay", str(path))
    assert status == 0, err
    # the replay ends in the same position with the same scores (without the bot names)
    end = played.split("saved to")[0].rsplit("\n\n", 2)[-2:]
    for name in set(bots.split(",")):
        end = [part.replace(f" ({name})", "") for part in end]
    assert replayed.rstrip("\n").endswith("\n\n".join(end).rstrip("\n"))


def test_every_game_offers_random_and_greedy_bots():
    for game in ("hierro", "batalla", "carolus"):
        assert {"random", "greedy"} <= set(bots_for(find_game(game)))


def test_replay_step_waits_for_enter_in_a_terminal_and_q_stops(capsys, tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    state = tests.toygame.ToyGame().new_initial_state()
    for action in [tests.toygame.Roll(2), tests.toygame.Reroll(), tests.toygame.Roll(5)]:
        state.apply(action)
    state.save(path)

    class Terminal:
        def isatty(self):
            return True

    answers = iter(["", "q"])
    prompts = []

    def fake_input(prompt):
        prompts.append(prompt)
        return next(answers)

    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr("builtins.input", fake_input)
    status, out, _ = run(capsys, "replay", str(path), "--step")
    assert status == 0
    # Enter after the first action, q after the second: the third is never shown.
    assert len(prompts) == 2 and "Enter" in prompts[0]
    assert "2. player 1: spend a shield and reroll" in out and "3. chance" not in out


def test_the_log_calls_the_players_as_the_game_does(capsys):
    # Batalla counts its players from one, in its own texts and in the log alike; Corona de
    # Hierro calls them by their colours.
    status, out, err = run(capsys, "play", "batalla", "--seed", "1", "--bots", "greedy,random")
    assert status == 0, err
    movers = set(re.findall(r"^\s*\d+\. (player \d) \((?:greedy|random)\):", out, re.M))
    assert movers == {"player 1", "player 2"}
    assert "player 0" not in out
    # Batalla's score is the gems each player won, and says so
    assert re.search(r"^gems won: player 1 \(greedy\) \d; player 2 \(random\) \d$", out, re.M)
    status, out, err = run(capsys, "play", "hierro", "--players", "3", "--seed", "1", "--quiet")
    assert status == 0, err
    assert re.search(r"^VP: red \(random\) \d+.*; green \(random\) .*; blue \(random\) ", out, re.M)


def test_replay_of_a_game_stopped_at_a_roll_says_so(capsys, tmp_path):
    from tests.toygame import ToyGame

    path = tmp_path / "start.json"
    ToyGame(seed=1).new_initial_state().save(path)
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0 and "the game is not over: a roll or draw is being made" in out


def test_bots_are_named_with_spaces_or_commas(capsys):
    spaced = run(capsys, "play", "batalla", "--bots", "mcts:5", "greedy", "--seed", "3", "--quiet")
    commas = run(capsys, "play", "batalla", "--bots", "mcts:5,greedy", "--seed", "3", "--quiet")
    assert spaced == commas and spaced[0] == 0
    assert "player 1 (mcts:5)" in spaced[1] and "winner(s):" in spaced[1]
