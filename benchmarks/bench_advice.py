"""Advice a player can act on: what a ranking of the moves gives within a time budget, and how
much worse its pick is than a ranking with twenty times the budget.

Run from the repository root::

    python benchmarks/bench_advice.py                  # 50 decisions a game: about 9 hours
    python benchmarks/bench_advice.py --decisions 10 --factor 5 --game hierro
    python benchmarks/bench_advice.py --quick          # a minute, to check that it runs
    python benchmarks/bench_advice.py --results advice.jsonl   # stop with Ctrl-C, run again
                                                               # to go on where it stopped

The positions: Corona de Hierro at the README's position (its ``coronas play hierro --players
4 --seed 1 --bots greedy,random,random,random --max-steps 40``: 29 moves), then
``--decisions`` held-out decisions a game: seeded games of light play (seeds from 90,000,
none of them among the games the models were fitted on), each stopped at the first decision
with a choice after a seeded number of steps. At each, ``rank_actions``
with the default options, ``time=T`` (10 s) and ``jobs`` worker processes (2: the two cores);
then the reference: every move played (no move left out by the value model or the move
prior, only the racing on paired intervals), ``factor * T`` seconds (20 times) and another
seed. Reported per decision and per game: the seconds to the quick ranking, the moves, how
many ended with a half-width of at most 5 points or dropped with a reason (the target: all),
the shortlist's size (target: at most 3) and the regret of the pick: the reference's chance of
its best move minus its chance of the move picked, in points (target: within 2 points in at
least 90% of the decisions). The reference is itself a noisy ranking: its half-widths are
printed beside it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

import _machine

README_POSITION = ("hierro", 4, 1, 40)
"""The README's game: ``coronas play hierro --players 4 --seed 1 --bots
greedy,random,random,random --max-steps 40 --save game.json`` (:func:`readme_position`)."""
README_PLAY = (
    "play hierro --players 4 --seed 1 --bots greedy,random,random,random --max-steps 40 --quiet"
)
PLAYERS = {"batalla": 2, "carolus": 2, "hierro": 4}
"""The seats at the held-out decisions: Corona de Hierro at the README's four."""
STEPS = {"batalla": (10, 60), "carolus": (10, 120), "hierro": (20, 200)}
"""The range of steps of light play before a held-out decision, by game."""
FIRST_SEED = 90_000


def position(name: str, players: int, seed: int, steps: int) -> Any:
    """The first decision with a choice after ``steps`` steps of seeded light play; None if the
    game ends first."""
    from coronas.engine import available_games

    game = available_games()[name]
    state = game(players=players, seed=seed).new_initial_state()
    rng, bot = random.Random(seed), game.bot("light")
    while len(state.history) < steps or state.current_player < 0 or len(state.legal_actions()) < 2:
        if state.is_terminal():
            return None
        state.apply(state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng))
    return state


def readme_position() -> Any:
    """The position the README's ``coronas advise game.json`` reads: its ``coronas play``
    command run as written, the game saved and loaded."""
    import contextlib
    import io
    import tempfile

    from coronas.cli import main as coronas
    from coronas.engine import load_game

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        with contextlib.redirect_stdout(io.StringIO()):
            status = coronas([*README_PLAY.split(), "--save", str(path)])
        if status:
            raise SystemExit(f"coronas {README_PLAY}: exit status {status}")
        return load_game(path)


def held_out(name: str, count: int) -> list[tuple[int, int, Any]]:
    """``count`` held-out decisions of game ``name``: (seed, steps, state)."""
    found = []
    seed = FIRST_SEED
    while len(found) < count:
        steps = random.Random(seed).randint(*STEPS[name])
        state = position(name, PLAYERS[name], seed, steps)
        if state is not None:
            found.append((seed, steps, state))
        seed += 1
    return found


def advise(state: Any, budget: dict[str, Any], reference: dict[str, Any]) -> dict[str, Any]:
    """One decision's figures: ``budget`` and ``reference`` are ``rank_actions`` options
    (``time=10, jobs=2`` or ``games=40``, a seed); the reference plays every move (nothing
    left out by the value model or the move prior), and the regret is measured on it."""
    began = time.monotonic()
    first: list[float] = []

    def seen(ranking: Any) -> None:
        if not first:
            first.append(time.monotonic() - began)

    ranking = state.rank_actions(on_update=seen, **budget)
    spent = time.monotonic() - began
    ref = state.rank_actions(prior_mass=None, drop_behind=None, **reference)
    chance = {r["label"]: float(r["chance"]) for r in ref.rows}
    best, picked = ref.rows[0]["label"], ranking.rows[0]["label"]
    widths = [(r["high"] - r["low"]) / 2 for r in ranking.rows if not r["dropped"]]
    ref_widths = [(r["high"] - r["low"]) / 2 for r in ref.rows if not r["dropped"]]
    return {
        "moves": len(ranking.rows),
        "quick": first[0] if first else spent,
        "seconds": spent,
        "settled": len(ranking.rows) - sum(w > 0.05 for w in widths),
        "shortlist": sum(1 for r in ranking.rows if r["shortlist"]),
        "games": ranking.games,
        "regret": 100 * (chance[best] - chance[picked]),
        "reference_width": 100 * max(ref_widths, default=0.0),
        "reference_shortlist": sum(1 for r in ref.rows if r["shortlist"]),
        "picked": picked,
        "best": best,
    }


def git_commit() -> str:
    """The checkout's commit, to tell which code measured a record ("" outside git)."""
    import subprocess

    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10
        )
    except OSError:
        return ""
    return out.stdout.strip()


def read_results(path: Path, settings: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The decisions already measured in ``path`` (JSON lines), by their name; refused if
    they were measured with other settings, since the figures would not be comparable."""
    done: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return done
    for number, line in enumerate(path.read_text().splitlines(), 1):
        record = json.loads(line)
        if record.get("settings") != settings:
            raise SystemExit(
                f"{path}, line {number}: measured with {record.get('settings')}, not with "
                f"{settings}; give another --results file"
            )
        done[record["decision"]] = record
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="1 s a ranking, one decision a game, the reference 2 s"
    )
    parser.add_argument("--game", choices=sorted(PLAYERS), action="append")
    parser.add_argument("--decisions", type=int, default=50, help="held-out decisions a game")
    parser.add_argument("--time", type=float, default=10.0, help="seconds a ranking (10)")
    parser.add_argument("--factor", type=float, default=20.0, help="the reference's budget")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument(
        "--results",
        type=Path,
        help="a JSON-lines file: each decision is written to it as it ends, and a run given "
        "the same file and settings goes on from the decisions it holds",
    )
    args = parser.parse_args()
    _machine.ensure_importable()
    seconds = 1.0 if args.quick else args.time
    decisions = 1 if args.quick else args.decisions
    factor = 2.0 if args.quick else args.factor
    games = args.game or sorted(PLAYERS)
    settings = {"time": seconds, "factor": factor, "jobs": args.jobs, "decisions": decisions}
    done = read_results(args.results, settings) if args.results else {}
    print(f"Advice ({_machine.machine_line()})")
    print(
        f"{seconds:g} s a ranking, reference {factor:g} times as long on every move, "
        f"{args.jobs} worker processes, {decisions} held-out decisions a game"
        + (f"; {len(done)} decisions read from {args.results}" if done else "")
    )
    print()
    print(
        "| decision | moves | first ranking (s) | ranking (s) | games a live move "
        "| within 5 points or dropped | shortlist | pick | reference's best "
        "| regret (points) | reference: widest half-width, shortlist |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    # the games take turns, so that a run stopped part way has measured each of them
    per_game = [
        [(name, (name, PLAYERS[name], s, n)) for s, n, _ in held_out(name, decisions)]
        for name in games
    ]
    todo = [("README", README_POSITION)] if "hierro" in games else []
    todo += [d for turn in itertools.zip_longest(*per_game) for d in turn if d]
    by_game: dict[str, list[dict[str, Any]]] = {}
    commit = git_commit()
    for group, (name, players, seed, steps) in todo:
        key = f"{name} {players}p seed {seed} after {steps}"
        r = done.get(key)
        if r is None:
            state = readme_position() if group == "README" else position(name, players, seed, steps)
            budget = {"time": seconds, "seed": 0, "jobs": args.jobs}
            r = advise(state, budget, {**budget, "time": factor * seconds, "seed": 1})
            r.update(decision=key, group=group, settings=settings, commit=commit)
            if args.results:
                with args.results.open("a") as out:
                    out.write(json.dumps(r) + "\n")
        by_game.setdefault(group, []).append(r)
        print(
            f"| {key} | {r['moves']} | {r['quick']:.2f} "
            f"| {r['seconds']:.1f} | {r['games']} | {r['settled']} of {r['moves']} "
            f"| {r['shortlist']} | {r['picked']} | {r['best']} | {r['regret']:.1f} "
            f"| {r['reference_width']:.1f}, {r['reference_shortlist']} |",
            flush=True,
        )
    print()
    print(
        "| game | decisions | all within 5 points or dropped | shortlist at most 3 "
        "| regret at most 2 points | mean regret (points) | longest ranking (s) |"
    )
    print("|---|---|---|---|---|---|---|")
    for group, rows in by_game.items():
        n = len(rows)
        print(
            f"| {group} | {n} | {sum(r['settled'] == r['moves'] for r in rows)} of {n} "
            f"| {sum(r['shortlist'] <= 3 for r in rows)} of {n} "
            f"| {sum(r['regret'] <= 2 for r in rows)} of {n} "
            f"| {statistics.fmean(r['regret'] for r in rows):.2f} "
            f"| {max(r['seconds'] for r in rows):.1f} |"
        )


if __name__ == "__main__":
    main()
