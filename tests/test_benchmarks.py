"""Every benchmark script runs (``--quick``) and prints its table. Timings are not tested."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.test_notebooks_in_browser import _require_browser

BENCHMARKS = sorted((Path(__file__).resolve().parent.parent / "benchmarks").glob("bench_*.py"))


def test_there_are_benchmarks():
    names = {p.name for p in BENCHMARKS}
    assert {
        "bench_attrition.py",
        "bench_engines.py",
        "bench_exact_vs_montecarlo.py",
        "bench_startup.py",
    } <= names


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda p: p.stem)
def test_benchmark_runs_quickly_and_prints_a_table(script):
    if script.stem == "bench_companion":  # drives the app in Chromium, as tests/browser do
        _require_browser(app=True)
    out = subprocess.run(
        [sys.executable, str(script), "--quick"],
        capture_output=True,
        text=True,
        cwd=script.parent.parent,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    table_rows = [line for line in out.stdout.splitlines() if line.startswith("|")]
    assert len(table_rows) >= 3, out.stdout  # a header, a rule and at least one row
    assert set(table_rows[1]) <= set("|-: ")


def strength(*argv: str) -> subprocess.CompletedProcess:
    """``benchmarks/bench_strength.py`` run with ``argv`` from the repository root."""
    script = next(p for p in BENCHMARKS if p.name == "bench_strength.py")
    return subprocess.run(
        [sys.executable, str(script), *argv],
        capture_output=True,
        text=True,
        cwd=script.parent.parent,
        timeout=300,
    )


def test_the_strength_benchmark_plays_named_pairings():
    # A tiny seeded run of two pairings: the new search against the one before it, and the
    # policy bot against greedy; each prints its row, its interval and the condition it meets.
    argv = ["--quick", "--game", "batalla", "--jobs", "1", "--seed", "3"]
    argv += ["--bots", "mcts", "mcts-classic", "--bots", "policy", "greedy"]
    out = strength(*argv)
    assert out.returncode == 0, out.stderr[-3000:]
    rows = [line for line in out.stdout.splitlines() if line.startswith("| batalla")]
    assert any(
        "one mcts seat against mcts-classic" in r and "at least 50%, lower end above 50%" in r
        for r in rows
    )
    assert any("one policy seat against greedy" in r for r in rows), out.stdout
    assert any("| mcts " in r and "MCTSBot(" in r for r in rows)  # the search is timed


def test_a_strength_run_kept_in_files_goes_on_where_it_stopped(tmp_path):
    # With --out, each match-up's games are kept as they end; a run stopped after its first
    # game (the file cut back to it) plays only the game it lacks, and prints what the
    # uninterrupted run printed.
    argv = ["--quick", "--game", "batalla", "--jobs", "1", "--seed", "5"]
    argv += ["--bots", "policy", "greedy", "--out", str(tmp_path)]

    def rows() -> list[str]:
        out = strength(*argv)
        assert out.returncode == 0, out.stderr[-3000:]
        # the match-up's row without its wall time, which is this sitting's
        return [line.rsplit("|", 2)[0] for line in out.stdout.splitlines() if "| batalla" in line]

    whole = rows()
    (kept,) = tmp_path.iterdir()
    assert kept.name == "batalla-policy-vs-greedy-2-games-seed-5.jsonl"
    lines = kept.read_text().splitlines()
    assert len(lines) == 3  # the run's description, then its two games
    kept.write_text("\n".join(lines[:2]) + "\n")  # as if stopped after the first game
    assert rows() == whole and whole
    assert kept.read_text().splitlines()[:2] == lines[:2]
    assert len(kept.read_text().splitlines()) == 3


def test_the_strength_benchmark_tries_other_search_settings():
    # --search KEY=VALUE sets the first bot's search over the game's own settings: the row
    # names them and keeps the search's condition; a key that is no setting is refused.
    argv = ["--quick", "--game", "batalla", "--jobs", "1", "--bots", "mcts", "greedy"]

    def bench(*more: str) -> subprocess.CompletedProcess:
        return strength(*argv, *more)

    out = bench("--search", "prior=true", "--search", "halving=4")
    assert out.returncode == 0, out.stderr[-3000:]
    (row,) = [line for line in out.stdout.splitlines() if "seat against greedy" in line]
    assert "one mcts (prior=True, halving=4) seat" in row
    assert "at least 80%, lower end above 72%" in row
    assert "halving=4" in out.stdout  # the timed bot's settings
    policy = bench("--search", "playout=policy")
    assert policy.returncode == 0, policy.stderr[-3000:]
    assert "one mcts (playout=policy) seat" in policy.stdout
    assert "playout='policy'" in policy.stderr  # the timed bot plays out with the policy
    baseline = bench("--search", "evaluate=baseline")
    assert baseline.returncode == 0, baseline.stderr[-3000:]
    assert "one mcts (evaluate=baseline) seat" in baseline.stdout
    assert "evaluate='baseline'" in baseline.stderr  # the timed bot scores by the baseline
    wrong = bench("--search", "speed=2")
    assert wrong.returncode != 0 and "KEY one of c, depth, evaluate, halving" in wrong.stderr
    unknown = bench("--search", "evaluate=model")
    assert unknown.returncode != 0 and "expected one of baseline" in unknown.stderr


RESULTS = BENCHMARKS[0].parent / "results"


@pytest.mark.parametrize("path", sorted(RESULTS.glob("*.jsonl")), ids=lambda p: p.stem)
def test_a_kept_results_file_is_whole_and_listed(path, monkeypatch):
    """A long run goes on from its committed file in the next sitting: every line must parse,
    and the README must say which command and commit the file belongs to."""
    import importlib
    import json

    monkeypatch.syspath_prepend(str(RESULTS.parent))
    games_file = importlib.import_module("bench_strength").games_file

    assert f"`{path.name}`" in (RESULTS / "README.md").read_text()
    lines = path.read_text().splitlines()
    records = [json.loads(line) for line in lines]  # a cut last line fails here
    assert path.read_text().endswith("\n")
    if records[0].get("format") == "coronas-results":  # a strength run: header, then games
        header, games = records[0], records[1:]
        bot, opponent = header["bots"][:2]  # one name a seat; the seats after the first
        # play the opponent ("mcts-classic", "mcts-classic 2", ...)
        named = games_file(RESULTS, header["game"], bot, opponent, header["games"], header["seed"])
        assert path == named  # the file the benchmark's command goes on from
        indexes = [g["game"] for g in games]
        assert len(set(indexes)) == len(indexes)
        assert all(0 <= i < header["games"] for i in indexes)
    else:  # the advice benchmark: one record a decision and phase, all on one commit
        assert {r["phase"] for r in records} <= {"advice", "reference", "verify"}
        keys = [(r["decision"], r["phase"]) for r in records]
        assert len(set(keys)) == len(keys)
        # advice-COMMIT.jsonl, or advice-WHAT-COMMIT.jsonl
        assert {r["commit"] for r in records} == {path.stem.rsplit("-", 1)[-1]}


def test_the_script_that_goes_on_with_the_long_runs_names_the_readme_s_runs():
    """``scripts/continue_runs.sh --list`` shows each run it would go on with: every one must
    be a row of the results README, with the same commit and the same command."""
    script = RESULTS.parent.parent / "scripts" / "continue_runs.sh"
    out = subprocess.run(
        ["bash", str(script), "--list"], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    readme = (RESULTS / "README.md").read_text()
    rows = [r for r in readme.splitlines() if r.startswith("| `")]
    listed = out.stdout.splitlines()
    # every run of the README but the superseded ones and the timed advice phases, which
    # want quiet cores and are not run over sittings
    to_run = [r for r in rows if "superseded" not in r and "(timed: quiet cores)" not in r]
    assert len(listed) == len(to_run) > 0
    for line in listed:
        name, source, command = line.split(": ", 2)
        commit = source.removeprefix("from ")
        command = command.replace(str(RESULTS), "RESULTS")
        assert any(
            f"`{name.removesuffix('-reference')}" in r and commit in r and command in r
            for r in rows
        ), line


def test_the_common_seeds_measure_runs_at_held_out_decisions():
    # bench_winchances.py --decisions: a row a game, its ratio of variances and the decisions
    # where common seeds did worse; a count of decisions below one is refused
    script = next(p for p in BENCHMARKS if p.name == "bench_winchances.py")
    run = [sys.executable, str(script)]
    out = subprocess.run(
        [*run, "--decisions", "1", "--games", "3"],
        capture_output=True,
        text=True,
        cwd=script.parent.parent,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    rows = [line for line in out.stdout.splitlines() if line.startswith("| ")][1:]
    assert [r.split("|")[1].strip() for r in rows] == [
        "batalla (2 players)",
        "carolus (2 players)",
        "hierro (4 players)",
    ]
    assert all(r.split("|")[2].strip() == "1 x 3" for r in rows)
    refused = subprocess.run(
        [*run, "--decisions", "0"], capture_output=True, text=True, cwd=script.parent.parent
    )
    assert refused.returncode == 2 and "--decisions needs at least 1" in refused.stderr


def test_the_playouts_benchmark_times_a_light_player_against_a_checkout_in_turns():
    # one pair of fresh processes, this checkout against itself: the same seeded light games
    # (their histories compared), and a ratio printed for the pair
    script = next(p for p in BENCHMARKS if p.name == "bench_playouts.py")
    root = script.parent.parent
    argv = ["--pairs", str(root), "--rounds", "1", "--games", "2"]
    out = subprocess.run(
        [sys.executable, str(script), *argv, "--game", "carolus", "--policy", "light"],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert "carolus, 2 players, light playouts of 2 seeded games" in out.stdout
    assert "the same histories" in out.stdout
    rows = [line.split("|")[1:-1] for line in out.stdout.splitlines() if line.startswith("|")]
    assert rows[-1][0].strip() == "1", out.stdout  # the one pair's row
    assert float(rows[-1][-1]) > 0
    assert "ratio today / before: median" in out.stdout
