"""Advice a player can act on: what a ranking of the moves gives within a time budget, and how
much worse its pick is than a ranking with twenty times the games.

Run from the repository root::

    python benchmarks/bench_advice.py                  # 50 decisions a game, both phases
    python benchmarks/bench_advice.py --decisions 10 --factor 5 --game hierro
    python benchmarks/bench_advice.py --quick          # a minute, to check that it runs
    python benchmarks/bench_advice.py --results advice.jsonl --phase advice     # quiet cores
    python benchmarks/bench_advice.py --results advice.jsonl --phase reference  # any time
    # stop either with Ctrl-C and run it again: it goes on where it stopped
    python benchmarks/bench_advice.py --command        # the README's advise, as typed
    python benchmarks/bench_advice.py --results advice.jsonl --rules  # moves left out, judged

The positions: Corona de Hierro at the README's position (its ``coronas play hierro --players
4 --seed 1 --bots greedy,random,random,random --max-steps 40``: 29 moves), then
``--decisions`` held-out decisions a game: seeded games of light play (seeds from 90,000,
none of them among the games the models were fitted on), each stopped at the first decision
with a choice after a seeded number of steps. ``--skip N`` leaves out the first ``N`` of them
and the README's position: new decisions, for judging afresh a rule chosen on the first.

Two phases. *The advice*: at each decision ``rank_actions`` with the default options,
``time=T`` (10 s) and ``jobs`` worker processes (2: the two cores). It is timed, so it wants
the machine to itself. *The reference*: every move played (no move left out by the value
model or the move prior, only the racing on paired intervals), with another seed and a
budget in games, not seconds: ``factor`` (20) times the games the advice played there, as a
cap on each move's games, the advice's total over the moves (:func:`reference_games`). In
games, the reference is the same whatever else runs beside it, so it can share the cores
with other long runs and be made over several sittings. With ``--results`` each phase writes
each decision to the file as it ends; ``--phase`` runs one of them.

``--every-move`` gives the advice every move to play out (none left out by the value model or
the move prior), halved (``EVERY_MOVE``), ``--likeliest`` only the learned player's likeliest
(``LIKELIEST_MOVES``), whatever the game's own rankings do, ``--last-part SHARE`` gives the
moves left after halving's last cut that share of the time, ``--last-kept N`` has that cut
keep N moves (3), ``--quick-kept N`` plays out only the quick estimate's N best moves (a tie
broken by the move prior, then by the listing's order), ``--common`` plays every move on the
same seeded games (common random numbers) whatever the game declares, ``--by-turns`` has
those games draw by the game's turns, and ``--references
FILE`` judges an advice on the references of another results file (made at the same
decisions) instead of playing its own: a rule for the advice is then judged in the advice's
half hour, not the references' hours. The references' budget was set by that file's
advice, so they are as strong as they were there, not twenty times this advice's games.

Reported per decision and per game: the seconds to the quick ranking, the moves, how many
ended with a half-width of at most 5 points or dropped with a reason (the target: all), the
shortlist's size (target: at most 3) and the regret of the pick: the reference's chance of
its best move minus its chance of the move picked, in points (target: within 2 points in at
least 90% of the decisions). The reference is itself a noisy ranking: its widest half-width
is printed beside it, each regret has its 95% interval (:func:`regret_interval`), and the
summary counts the decisions where the reference shows the pick within 2 points (the
interval's upper end at most 2) and those where it shows it more than 2 points behind (the
lower end above 2); the rest it cannot tell.

``--command`` times instead what a player waits for at the table: the README's ``coronas
advise game.json --win-chances`` on the game its ``coronas play`` command saves, with the
default time and with the README's ``--time 3``, each the whole command as typed (the
interpreter's start-up, the imports, the exact odds of every move, who wins and the ranking),
wall time, against the time it was given (:data:`ADVISE_COMMANDS`). It wants quiet cores.

``--rules`` judges, on the references of a ``--results`` file, the rule that picks the moves
the advice plays out (:func:`~coronas.manygames.judgement.left_out`) and others beside it
(:data:`RULES`): at each decision with a reference, the moves each rule would play, and how
far the best of them is behind the reference's best, by the reference's own figures (the
loss of leaving moves out, before any game). Fewer moves give each more games, and so a
shorter shortlist; the loss says what that costs. ``--prior GAME=FILE`` judges them with
another move prior of that game (a file ``coronas train`` wrote) in place of the shipped one.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
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
ADVISE_COMMANDS = (
    ("advise game.json --win-chances", 10.0),
    ("advise game.json --win-chances --time 3", 3.0),
)
"""The README's advice at the table, as typed, with the seconds each is given (``--time``, the
default 10 unless named)."""
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


def command_times(
    repeat: int, commands: tuple[tuple[str, float], ...] = ADVISE_COMMANDS
) -> list[list[str]]:
    """Each of ``commands`` run ``repeat`` times as a user types it, in a folder holding the
    README's saved game: a table row each (the command, the seconds given, the wall times,
    whether every run ended within them). A run that fails, or prints no ranking of the
    moves, stops the benchmark with its output."""
    env = {**os.environ, "PYTHONPATH": str(_machine.repo_root())}
    python = [sys.executable, "-m", "coronas.cli"]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        play = [*python, *README_PLAY.split(), "--save", "game.json"]
        subprocess.run(play, cwd=folder, env=env, check=True, capture_output=True)
        for command, given in commands:
            walls = []
            for _ in range(repeat):
                began = time.perf_counter()
                out = subprocess.run(
                    [*python, *command.split()], cwd=folder, env=env, capture_output=True, text=True
                )
                walls.append(time.perf_counter() - began)
                if out.returncode or "moves by the chance of winning" not in out.stdout:
                    raise SystemExit(f"coronas {command}: exit {out.returncode}\n{out.stderr}")
            rows.append(
                [
                    f"coronas {command}",
                    f"{given:g}",
                    ", ".join(f"{w:.1f}" for w in walls),
                    "yes" if max(walls) <= given else "no",
                ]
            )
    return rows


RULES = (
    ("as shipped: 95% of the prior, at least 3, and the quick estimate's best; 3 at most", {}),
    ("95%, at least 3, and the quick estimate's best; no most", {"most": None}),
    ("95%, at least 2, and the quick estimate's best; 2 at most", {"least": 2, "most": 2}),
    ("95%, at least 1, and the quick estimate's best; 3 at most", {"least": 1}),
    ("95%, at least 3, without the quick estimate's best; 3 at most", {"quick_best": False}),
    ("the value model alone (25 points behind)", {"prior_mass": None}),
    (
        "the quick estimate's five best, a tie broken by the prior, then the listing",
        {"prior_mass": None, "drop_behind": None, "quick_kept": 5},
    ),
)
"""The rules ``--rules`` judges: a name and :func:`~coronas.manygames.judgement.left_out`'s
options (the rest as shipped)."""
DECISION = re.compile(r"(\w+) (\d+)p seed (\d+) after (\d+)")
"""A decision's name in a results file: the game, its players, its seed and its steps."""


def judge_rules(
    done: dict[tuple[str, str], dict[str, Any]],
    rules: tuple[tuple[str, dict[str, Any]], ...],
    priors: dict[str, Any] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Each rule's moves played and loss at every decision of ``done`` whose reference keeps
    its ranking, by game: a dict a rule and decision (``rule``, ``moves``, ``played``,
    ``loss``: the reference's best chance less the best chance among the moves played, in
    points). ``priors`` maps a game's name to the move prior read in place of its shipped
    one."""
    from coronas.manygames.judgement import QUICK_SECONDS, left_out, prior_values, quick_values
    from coronas.manygames.moves import ranking_view

    by_game: dict[str, list[dict[str, Any]]] = {}
    for (key, phase), ref in done.items():
        if phase != "reference" or "ranking" not in ref:
            continue
        name, players, seed, steps = DECISION.fullmatch(key).groups()
        group = ref["group"]
        if group == "README":
            state = readme_position()
        else:
            state = position(name, int(players), int(seed), int(steps))
        viewer = ranking_view(state)
        quick = quick_values(state, viewer, QUICK_SECONDS, 0)
        prior = prior_values(state, viewer, 0, (priors or {}).get(name))
        labels = [state.describe(a) for a in state.legal_actions()]
        chance = {m["label"]: m["chance"] for m in ref["ranking"]}
        best = max(chance.values())
        for rule, options in rules:
            out = left_out(quick, prior, **options)
            played = [label for i, label in enumerate(labels) if i not in out]
            loss = 100 * (best - max(chance[label] for label in played))
            by_game.setdefault(group, []).append(
                {"rule": rule, "moves": len(labels), "played": len(played), "loss": loss}
            )
    return by_game


def read_priors(parser: argparse.ArgumentParser, pairs: list[str]) -> dict[str, Any]:
    """The move priors ``--prior GAME=FILE`` names, by game, each file validated as the
    game's move prior (a bad pair or file ends the run with what is wrong)."""
    from coronas.engine.game import available_games
    from coronas.engine.learning import ModelFileError

    games, priors = available_games(), {}
    for pair in pairs:
        name, sep, path = pair.partition("=")
        if not sep or name not in games or games[name].spec().learning is None:
            parser.error(f"--prior {pair}: expected GAME=FILE, GAME one of {sorted(PLAYERS)}")
        try:
            priors[name] = games[name].spec().learning.move_prior(path)
        except (OSError, ModelFileError) as error:
            parser.error(f"--prior {pair}: {error}")
    return priors


def rules_table(by_game: dict[str, list[dict[str, Any]]]) -> list[list[str]]:
    """:func:`judge_rules`' rows, a game and rule a row: the decisions, the moves played of
    the moves there (means over the decisions), the decisions where the best move played is
    within 2 points of the reference's best, and the mean loss in points."""
    rows = []
    for group, judged in by_game.items():
        for rule in dict.fromkeys(j["rule"] for j in judged):
            mine = [j for j in judged if j["rule"] == rule]
            n = len(mine)
            rows.append(
                [
                    group,
                    rule,
                    f"{n}",
                    f"{statistics.fmean(j['played'] for j in mine):.1f} of "
                    f"{statistics.fmean(j['moves'] for j in mine):.1f}",
                    f"{sum(j['loss'] <= 2 for j in mine)} of {n}",
                    f"{statistics.fmean(j['loss'] for j in mine):.2f}",
                ]
            )
    return rows


MIN_REFERENCE = 100
"""The fewest games a move the reference gives (an advice that was exact played none)."""


def advise(state: Any, budget: dict[str, Any]) -> dict[str, Any]:
    """The advice's figures at one decision: ``budget`` is ``rank_actions`` options (``time=10,
    jobs=2`` or ``games=40``, a seed)."""
    began = time.monotonic()
    first: list[float] = []

    def seen(ranking: Any) -> None:
        if not first:
            first.append(time.monotonic() - began)

    ranking = state.rank_actions(on_update=seen, **budget)
    spent = time.monotonic() - began
    widths = [(r["high"] - r["low"]) / 2 for r in ranking.rows if not r["dropped"]]
    return {
        "moves": len(ranking.rows),
        "quick": first[0] if first else spent,
        "seconds": spent,
        "settled": len(ranking.rows) - sum(w > 0.05 for w in widths),
        "shortlist": sum(1 for r in ranking.rows if r["shortlist"]),
        "games": ranking.games,
        "total_games": sum(r["games"] for r in ranking.rows),
        "picked": ranking.rows[0]["label"],
    }


def reference_games(advice: dict[str, Any], factor: float) -> int:
    """The reference's games a move: ``factor`` times the games the advice played at the
    decision, spread over every move (at least :data:`MIN_REFERENCE`). The racing drops moves
    from them, so the reference plays at most that total."""
    return max(MIN_REFERENCE, math.ceil(factor * advice["total_games"] / advice["moves"]))


def refer(state: Any, advice: dict[str, Any], budget: dict[str, Any]) -> dict[str, Any]:
    """The reference ranking at the decision of ``advice`` (every move played: nothing left
    out by the value model or the move prior) and the regret of the advice's pick on it
    (:func:`verdict`). ``ranking`` keeps every move's figures in the reference's order
    (:func:`row`), so that other rules for the moves the advice plays out, and other advice,
    can be judged on the same references later. Never halved: every move keeps its games,
    whatever the game's own rankings do."""
    from coronas.manygames.moves import EVERY_MOVE

    ref = state.rank_actions(**{**EVERY_MOVE, "halving": False}, **budget)
    ranking = [row(r) for r in ref.rows]
    return {**verdict(ranking, advice["picked"]), "ranking": ranking}


def verdict(ranking: list[dict[str, Any]], picked: str) -> dict[str, Any]:
    """The regret of the move labelled ``picked`` on a reference ``ranking`` (its moves as
    :func:`row` keeps them, best first): the reference's best, the regret in points and its
    95% interval, and the reference's widest half-width, shortlist and games.

    The reference is itself an estimate, so the regret comes with its 95% interval: the
    reference's interval of its best move's chance minus the pick's (paired on the same games
    where the game plays moves on common random numbers), 0 to 0 when the pick is its best;
    and whether the pick is on the reference's shortlist (the moves it cannot tell from its
    best)."""
    rows = {r["label"]: r for r in ranking}
    best, pick = ranking[0], rows[picked]
    widths = [(r["high"] - r["low"]) / 2 for r in ranking if not r["dropped"]]
    return {
        "best": best["label"],
        "regret": 100 * (best["chance"] - pick["chance"]),
        "regret_interval": [100 * x for x in regret_interval(best, pick)],
        "picked_on_shortlist": bool(pick["shortlist"]),
        "reference_width": 100 * max(widths, default=0.0),
        "reference_shortlist": sum(1 for r in ranking if r["shortlist"]),
        "reference_games": sum(r["games"] for r in ranking),
    }


def row(move: dict[str, Any]) -> dict[str, Any]:
    """A move of a ranking as a results file keeps it: its label, chance and 95% interval
    (floats), games, whether it is on the shortlist, why it was dropped ("" if not) and its
    difference from the best with that difference's interval (None for the best)."""
    versus = move["versus_best"]
    return {
        "label": move["label"],
        "chance": float(move["chance"]),
        "low": float(move["low"]),
        "high": float(move["high"]),
        "games": move["games"],
        "shortlist": bool(move["shortlist"]),
        "dropped": move["dropped"],
        "versus_best": None if versus is None else [float(x) for x in versus],
    }


def regret_interval(best: dict[str, Any], pick: dict[str, Any]) -> tuple[float, float]:
    """The 95% interval of ``best``'s chance minus ``pick``'s, two rows of one ranking: the
    pick's own comparison with the best where the ranking made it at its end
    (``versus_best``: pick minus best, paired or not as the ranking played them), else (a
    move dropped part way, compared with the best of then) the two rows' intervals taken as
    independent, which is wider than a paired one."""
    if pick is best:
        return 0.0, 0.0
    if pick["versus_best"] is not None and not pick["dropped"]:
        _, low, high = pick["versus_best"]
        return -high, -low
    gap = float(best["chance"] - pick["chance"])
    half = math.hypot((best["high"] - best["low"]) / 2, (pick["high"] - pick["low"]) / 2)
    return gap - half, gap + half


VERIFY_GAMES = 4000
"""Fresh games a move when the reference's best and the advice's pick are measured again
(:func:`verify`), fixed before any was played."""
VERIFY_SEED = 2
"""The seed of those games: neither the advice's (0) nor the reference's (1)."""
DECISION = re.compile(r"(\w+) (\d+)p seed (\d+) after (\d+)")


def decision_position(key: str, group: str) -> Any:
    """The position of a decision named as a results file names it (``hierro 4p seed 90000
    after 86``; the README's position by its group)."""
    if group == "README":
        return readme_position()
    found = DECISION.fullmatch(key)
    if found is None:
        raise SystemExit(f"a decision named {key!r}: expected 'GAME Np seed S after K'")
    name, players, seed, steps = found.groups()
    return position(name, int(players), int(seed), int(steps))


def verify(state: Any, picked: str, best: str, games: int, jobs: int) -> dict[str, Any]:
    """The advice's pick and the reference's best measured again on ``games`` fresh games each
    (:data:`VERIFY_SEED`, every move played to the end, none dropped): the regret of the pick
    on games that chose neither move, so free of the lift that the best of many noisy
    figures gets for having been picked. In points, with its 95% interval (paired where the
    game plays its moves on common random numbers)."""
    by_label = {state.describe(a): a for a in state.legal_actions()}
    ranking = state.rank_actions(
        moves=[by_label[best], by_label[picked]],
        games=games,
        seed=VERIFY_SEED,
        jobs=jobs,
        race=False,
        halving=False,
        drop_behind=None,
        prior_mass=None,
        quick_kept=None,
    )
    rows = {r["label"]: row(r) for r in ranking.rows}
    gap = rows[best]["chance"] - rows[picked]["chance"]
    low, high = gap, gap  # exact figures: no interval
    if rows[picked]["versus_best"] is not None:  # pick minus best, compared at the end
        _, low, high = rows[picked]["versus_best"]
        low, high = -high, -low
    elif rows[best]["versus_best"] is not None:  # the pick came out on top: best minus pick
        _, low, high = rows[best]["versus_best"]
    return {
        "best": best,
        "picked": picked,
        "regret": 100 * gap,
        "regret_interval": [100 * low, 100 * high],
        "games": games,
        "exact": ranking.exact,
        "ranking": list(rows.values()),
    }


def verify_run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """``--verify FILE``: at each decision of FILE's advice where its pick is not the
    reference's best, both measured again on fresh games (:func:`verify`), each decision
    written to ``--results`` as it ends; then, per game, the regrets on the reference's own
    figures beside those on the fresh games (a pick that is the reference's best counts 0 in
    both)."""
    if args.results is None:
        parser.error("--verify writes each decision's fresh games to a --results file")
    _, advice = read_file(args.verify)
    references = read_references(args.references) if args.references else {}
    if not references:
        references = {k: r for (k, phase), r in advice.items() if phase == "reference"}
    settings = {
        "verify": args.verify.name,
        "references": (args.references or args.verify).name,
        "games": args.verify_games,
        "jobs": args.jobs,
    }
    done = read_results(args.results, settings)
    commit = git_commit()
    print(f"The advice's picks measured again ({_machine.machine_line()})")
    print()
    print(
        f"The picks of {args.verify.name} and the best moves of the references of "
        f"{settings['references']}, where they differ, on {args.verify_games} fresh games "
        f"each (seed {VERIFY_SEED}), {args.jobs} worker processes"
        + (f"; {len(done)} records read from {args.results}" if done else "")
    )
    print()
    print(
        "| decision | pick | reference's best | regret on the reference (points) "
        "| regret on fresh games (points, 95% interval) |"
    )
    print("|---|---|---|---|---|")
    by_game: dict[str, list[dict[str, Any]]] = {}
    for (key, phase), adv in advice.items():
        if phase != "advice" or key not in references or "ranking" not in references[key]:
            continue
        group = adv["group"]
        if args.game and key.split()[0] not in args.game:
            continue
        judged = verdict(references[key]["ranking"], adv["picked"])
        if judged["best"] == adv["picked"]:
            by_game.setdefault(group, []).append(
                {"same": True, "on_reference": 0.0, "fresh": 0.0, "low": 0.0}
            )
            continue
        again = done.get((key, "verify"))
        if again is None:
            state = decision_position(key, group)
            again = verify(state, adv["picked"], judged["best"], args.verify_games, args.jobs)
            again.update(
                decision=key, group=group, phase="verify", settings=settings, commit=commit
            )
            with args.results.open("a") as out:
                out.write(json.dumps(again) + "\n")
        low, high = again["regret_interval"]
        by_game.setdefault(group, []).append(
            {"same": False, "on_reference": judged["regret"], "fresh": again["regret"], "low": low}
        )
        print(
            f"| {key} | {adv['picked']} | {judged['best']} | {judged['regret']:.1f} "
            f"| {again['regret']:.1f} ({low:.1f} to {high:.1f}) |",
            flush=True,
        )
    print()
    print(
        "| game | decisions | pick the reference's best | within 2 points on the reference "
        "| within 2 points on fresh games | shown more than 2 points behind on fresh games "
        "| mean regret on fresh games (points, 95% interval) |"
    )
    print("|---|---|---|---|---|---|---|")
    for group, rows in by_game.items():
        n = len(rows)
        fresh = [r["fresh"] for r in rows]
        print(
            f"| {group} | {n} | {sum(r['same'] for r in rows)} of {n} "
            f"| {sum(r['on_reference'] <= 2 for r in rows)} of {n} "
            f"| {sum(x <= 2 for x in fresh)} of {n} | {sum(r['low'] > 2 for r in rows)} of {n} "
            f"| {mean_interval(fresh)} |"
        )


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


def read_results(path: Path, settings: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """The decisions already measured in ``path`` (JSON lines), by their name and phase
    (``advice`` or ``reference``); refused if they were measured with other settings, since
    the figures would not be comparable, or if a line is not such a record. A last line cut
    short by a stop mid-write is cut off the file, and its decision measured again."""
    done: dict[tuple[str, str], dict[str, Any]] = {}
    if not path.exists():
        return done
    data = path.read_bytes()
    whole = data.rfind(b"\n") + 1
    if whole < len(data):  # the last line was not written whole
        with path.open("r+b") as f:
            f.truncate(whole)
    for number, line in enumerate(data[:whole].decode("utf-8", "replace").splitlines(), 1):
        try:
            record = json.loads(line)
            key = record["decision"], record["phase"]
        except (ValueError, KeyError, TypeError):
            raise SystemExit(
                f"{path}, line {number}: expected a JSON object with a decision and a phase"
            ) from None
        if record.get("settings") != settings:
            raise SystemExit(
                f"{path}, line {number}: measured with {record.get('settings')}, not with "
                f"{settings}; give another --results file"
            )
        done[key] = record
    return done


def read_file(path: Path) -> tuple[dict[str, Any], dict[tuple[str, str], dict[str, Any]]]:
    """The settings and records of the results file ``path``, by decision and phase (its
    records checked as :func:`read_results` checks them, against the settings of its first
    line)."""
    try:
        with path.open() as lines:
            first = json.loads(next(lines, "{}"))
    except (OSError, ValueError) as error:
        raise SystemExit(f"{path}: {error}") from None
    settings = first.get("settings") if isinstance(first, dict) else None
    if not isinstance(settings, dict):
        raise SystemExit(f"{path}: expected a results file of this benchmark")
    return settings, read_results(path, settings)


def read_references(path: Path) -> dict[str, dict[str, Any]]:
    """The reference records of the results file ``path``, by decision (:func:`read_file`)."""
    try:
        _, done = read_file(path)
    except SystemExit as error:
        raise SystemExit(f"--references {error}") from None
    return {key: record for (key, phase), record in done.items() if phase == "reference"}


PHASES = ("advice", "reference")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="1 s a ranking, one decision a game, the reference twice the games",
    )
    parser.add_argument("--game", choices=sorted(PLAYERS), action="append")
    parser.add_argument("--decisions", type=int, default=50, help="held-out decisions a game")
    parser.add_argument(
        "--skip",
        type=int,
        default=0,
        help="leave out the first SKIP held-out decisions of each game, and the README's "
        "position (decisions measured before: new ones for a rule chosen on those)",
    )
    parser.add_argument("--time", type=float, default=10.0, help="seconds a ranking (10)")
    parser.add_argument(
        "--factor", type=float, default=20.0, help="the reference's games over the advice's (20)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument(
        "--phase",
        choices=PHASES,
        help="run only the timed advice (it wants quiet cores) or only the reference (it "
        "reads the advice from --results); both by default",
    )
    parser.add_argument(
        "--results",
        type=Path,
        help="a JSON-lines file: each decision's advice and reference are written to it as "
        "they end, and a run given the same file and settings goes on from what it holds",
    )
    parser.add_argument(
        "--rules",
        action="store_true",
        help="judge the rules for the moves left out of the games on the references of the "
        "--results file, instead",
    )
    parser.add_argument(
        "--every-move",
        action="store_true",
        help="the advice plays every move out, none left out by the value model or the prior, "
        "and halves them",
    )
    parser.add_argument(
        "--likeliest",
        action="store_true",
        help="the advice plays out only the learned player's likeliest moves, whatever the "
        "game's own rankings do",
    )
    parser.add_argument(
        "--last-part",
        type=float,
        metavar="SHARE",
        help="with halving, the share of the time the moves left after the last cut get "
        "(rank_actions' last_part; the parts before it equal)",
    )
    parser.add_argument(
        "--last-kept",
        type=int,
        metavar="N",
        help="with halving, how many moves the last cut keeps (rank_actions' last_kept; 3)",
    )
    parser.add_argument(
        "--quick-kept",
        type=int,
        metavar="N",
        help="the advice plays out only the quick estimate's N best moves (rank_actions' "
        "quick_kept, a tie broken by the move prior, then the listing); with --every-move, "
        "halved",
    )
    parser.add_argument(
        "--common",
        action="store_true",
        help="the advice plays every move on the same seeded games (rank_actions' common=True), "
        "whatever the game declares",
    )
    parser.add_argument(
        "--by-turns",
        action="store_true",
        help="the advice's games draw by the game's turns (rank_actions' by_turns=True)",
    )
    parser.add_argument(
        "--references",
        type=Path,
        metavar="FILE",
        help="judge the advice on the references of this results file instead of its own",
    )
    parser.add_argument(
        "--prior",
        action="append",
        default=[],
        metavar="GAME=FILE",
        help="with --rules: read this move prior file for GAME instead of its shipped one",
    )
    parser.add_argument(
        "--verify",
        type=Path,
        metavar="FILE",
        help="measure again, on fresh games, the pick of FILE's advice and the reference's "
        "best wherever they differ (the references of --references, else FILE's own), "
        "writing to --results, instead",
    )
    parser.add_argument(
        "--verify-games",
        type=int,
        default=VERIFY_GAMES,
        metavar="N",
        help=f"with --verify: fresh games a move ({VERIFY_GAMES})",
    )
    parser.add_argument(
        "--command",
        action="store_true",
        help="time the README's coronas advise --win-chances commands as typed, instead",
    )
    args = parser.parse_args()
    if args.command:
        print(f"The README's advice, whole commands ({_machine.machine_line()})")
        print()
        header = ["command", "seconds given", "wall time of each run (s)", "within them"]
        print(_machine.table(header, command_times(1 if args.quick else 3)))
        return
    if args.verify is not None:
        _machine.ensure_importable()
        verify_run(args, parser)
        return
    if args.prior and not args.rules:
        parser.error("--prior goes with --rules")
    if args.references is not None and args.phase == "reference":
        parser.error("--references gives the references: no reference phase to run")
    if args.phase == "reference" and args.results is None:
        parser.error("--phase reference reads the advice from a --results file")
    _machine.ensure_importable()
    from coronas.manygames.moves import EVERY_MOVE, LIKELIEST_MOVES

    seconds = 1.0 if args.quick else args.time
    decisions = 1 if args.quick else args.decisions
    factor = 2.0 if args.quick else args.factor
    games = args.game or sorted(PLAYERS)
    phases = ("advice",) if args.references else (args.phase,) if args.phase else PHASES
    settings = {
        "time": seconds,
        "factor": factor,
        "jobs": args.jobs,
        "decisions": decisions,
        "reference": "games",
    }
    if args.skip:
        settings["skip"] = args.skip
    if args.every_move and args.likeliest:
        parser.error("--every-move and --likeliest are two rules: give one")
    if args.every_move:
        settings["every_move"] = True
    if args.likeliest:
        settings["likeliest"] = True
    # rank_actions options asked for by name, kept in the settings and given to each ranking
    asked = {
        name: value
        for name, value in (
            ("last_part", args.last_part),
            ("last_kept", args.last_kept),
            ("common", True if args.common else None),
            ("quick_kept", args.quick_kept),
            ("by_turns", True if args.by_turns else None),
        )
        if value is not None
    }
    settings.update(asked)
    borrowed = read_references(args.references) if args.references else {}
    done = read_results(args.results, settings) if args.results else {}
    if args.rules:
        if not args.results:
            parser.error("--rules reads the references of a --results file")
        priors = read_priors(parser, args.prior)
        print(f"The moves left out of the games, judged on the references ({args.results})")
        print()
        header = [
            "game",
            "rule",
            "decisions",
            "moves played (mean)",
            "within 2 points",
            "mean loss (points)",
        ]
        print(_machine.table(header, rules_table(judge_rules(done, RULES, priors))))
        return
    print(f"Advice ({_machine.machine_line()})")
    references = (
        f"the references of {args.references}"
        if args.references
        else f"the reference {factor:g} times its games on every move"
    )
    print(
        f"{seconds:g} s a ranking"
        + (", every move played out, halved" if args.every_move else "")
        + (", the learned player's likeliest moves" if args.likeliest else "")
        + (f", the last part {args.last_part:g} of the time" if args.last_part else "")
        + (f", {args.last_kept} moves kept for the last part" if args.last_kept else "")
        + (", every move on the same seeded games" if args.common else "")
        + (f", the quick estimate's {args.quick_kept} best moves" if args.quick_kept else "")
        + (", the games drawn by turns" if args.by_turns else "")
        + f", {references}, {args.jobs} worker processes, {decisions} held-out decisions a game"
        + (f"; {len(done)} records read from {args.results}" if done else "")
        + ("" if args.phase is None or args.references else f"; the {args.phase} only")
    )
    print()
    print(
        "| decision | moves | first ranking (s) | ranking (s) | games a live move "
        "| within 5 points or dropped | shortlist | pick | reference's best "
        "| regret (points) | reference: games, widest half-width, shortlist |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    # the games take turns, so that a run stopped part way has measured each of them
    per_game = [
        [
            (name, (name, PLAYERS[name], s, n))
            for s, n, _ in held_out(name, args.skip + decisions)[args.skip :]
        ]
        for name in games
    ]
    todo = [("README", README_POSITION)] if "hierro" in games and not args.skip else []
    todo += [d for turn in itertools.zip_longest(*per_game) for d in turn if d]
    by_game: dict[str, list[dict[str, Any]]] = {}
    commit = git_commit()

    def keep(record: dict[str, Any], key: str, group: str, phase: str) -> dict[str, Any]:
        record.update(decision=key, group=group, phase=phase, settings=settings, commit=commit)
        if args.results:
            with args.results.open("a") as out:
                out.write(json.dumps(record) + "\n")
        return record

    for group, (name, players, seed, steps) in todo:
        key = f"{name} {players}p seed {seed} after {steps}"
        adv, ref = done.get((key, "advice")), done.get((key, "reference"))
        if (adv is None and "advice" in phases) or (ref is None and "reference" in phases):
            state = readme_position() if group == "README" else position(name, players, seed, steps)
            if adv is None and "advice" in phases:
                budget = {"time": seconds, "seed": 0, "jobs": args.jobs}
                if args.every_move:
                    budget.update(EVERY_MOVE)
                if args.likeliest:
                    budget.update(LIKELIEST_MOVES)
                budget.update(asked)
                adv = keep(advise(state, budget), key, group, "advice")
            if ref is None and adv is not None and "reference" in phases:
                budget = {"games": reference_games(adv, factor), "seed": 1, "jobs": args.jobs}
                ref = keep(refer(state, adv, budget), key, group, "reference")
        if adv is None:
            continue
        if ref is None and "ranking" in borrowed.get(key, {}):
            ref = verdict(borrowed[key]["ranking"], adv["picked"])
        by_game.setdefault(group, []).append({**adv, **(ref or {})})
        judged = (
            "| - | - | - |"
            if ref is None
            else f"| {ref['best']} | {ref['regret']:.1f}{interval_text(ref)} "
            f"| {ref['reference_games']}, {ref['reference_width']:.1f}, "
            f"{ref['reference_shortlist']} |"
        )
        print(
            f"| {key} | {adv['moves']} | {adv['quick']:.2f} "
            f"| {adv['seconds']:.1f} | {adv['games']} | {adv['settled']} of {adv['moves']} "
            f"| {adv['shortlist']} | {adv['picked']} " + judged,
            flush=True,
        )
    print()
    print(
        "| game | decisions | all within 5 points or dropped | shortlist at most 3 "
        "| longest ranking (s) | with a reference | regret at most 2 points "
        "| shown within 2 points | shown more than 2 points behind "
        "| mean regret (points, 95% interval) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for group, rows in by_game.items():
        n = len(rows)
        print(
            f"| {group} | {n} | {sum(r['settled'] == r['moves'] for r in rows)} of {n} "
            f"| {sum(r['shortlist'] <= 3 for r in rows)} of {n} "
            f"| {max(r['seconds'] for r in rows):.1f} | " + " | ".join(regrets(rows)) + " |"
        )


def interval_text(ref: dict[str, Any]) -> str:
    """A regret's 95% interval as printed beside it ("" in a record made without one)."""
    if "regret_interval" not in ref:
        return ""
    low, high = ref["regret_interval"]
    return f" ({low:.1f} to {high:.1f})"


def regrets(rows: list[dict[str, Any]]) -> list[str]:
    """The regret columns of a game's summary over its decisions with a reference: how many
    there are; how many regrets are at most 2 points; how many the reference shows within 2
    points (its interval's upper end at most 2) and more than 2 points behind (the lower end
    above 2); the mean regret with the 95% normal interval of a mean over the decisions."""
    judged = [r for r in rows if "regret" in r]
    m = len(judged)
    if not m:
        return ["0", "-", "-", "-", "-"]
    values = [r["regret"] for r in judged]
    shown = [r["regret_interval"] for r in judged if "regret_interval" in r]
    return [
        f"{m}",
        f"{sum(x <= 2 for x in values)} of {m}",
        f"{sum(high <= 2 for _, high in shown)} of {len(shown)}",
        f"{sum(low > 2 for low, _ in shown)} of {len(shown)}",
        mean_interval(values),
    ]


def mean_interval(values: list[float]) -> str:
    """The mean of regrets over decisions with the 95% normal interval of a mean."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:.2f} (one decision)"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:.2f} ({mean - half:.2f} to {mean + half:.2f})"


if __name__ == "__main__":
    main()
