"""Strength: the search bot against the greedy and the random players, game by game.

Run from the repository root (each match-up of 100 games takes 5 to 30 minutes on two
cores; run it in the background)::

    python benchmarks/bench_strength.py                       # every game, 100 games a match-up
    python benchmarks/bench_strength.py --game batalla --games 200
    python benchmarks/bench_strength.py --quick               # a few seconds, to check that it runs
    python benchmarks/bench_strength.py --game hierro --games 200 --out runs/
                                  # stop with Ctrl-C, run the same command again to go on
    python benchmarks/bench_strength.py --game hierro --search halving=8 --search mix=0
                                  # the search with other settings than the game's

Each match-up plays seat-rotated games (``manygames.simulate``: game ``i`` moves every bot one
seat on, so the search bot sits in every seat equally often) on two worker processes, every
game seeded. With ``--out DIR`` each match-up keeps its games in a file of ``DIR`` as they
end, and the same command run again plays only the games its files lack: a run of several
hours can be made over several sittings, and its figures are those of one uninterrupted run
(the games are the seeds', whenever they are played). A progress bar on stderr shows the
games played of the match-up and the time left; no result until the match-up ends. The
search bot is the game's own ``mcts`` (``Game.bot("mcts")``: its tuned settings,
``playout.SEARCH``); before the games, its time per decision is measured on one core from
seeded positions of the game, since the budget must stay within half a second a decision;
``--search KEY=VALUE`` tries other settings of that search (``coronas.engine.mctsbot.SETTINGS``)
before they become the game's. Two-player games set mcts against one opponent; Corona de
Hierro at 3 players sets one mcts seat against two of the opponent.

Conditions (``TARGETS``: a win rate and the value the lower end of its 95% Wilson interval
must clear): mcts against greedy at least 80%, lower end above 72%, in Batalla de Coronas and
Carolus Magnus; at least 50%, lower end above 43%, in Corona de Hierro at 3 players; mcts
against mcts-classic above a seat's share by the lower end; any other pairing a seat's fair
share on the rate; against random at least 95% in every game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

import _machine

GAMES = (("batalla", 2), ("carolus", 2), ("hierro", 3))
"""The games measured, with their number of players."""
FAIR = {2: 0.5, 3: 1 / 3}
"""A seat's fair share of the wins, by the number of players: what the greedy target beats."""
TARGETS = {
    ("mcts", "greedy", 2): (0.8, 0.72),
    ("mcts", "greedy", 3): (0.5, 0.43),
    ("mcts", "mcts-classic", 2): (0.5, 0.5),
    ("mcts", "mcts-classic", 3): (1 / 3, 1 / 3),
}
"""The product's targets for a pairing (bot, opponent, players): the win rate to reach and
the value the lower end of its 95% interval must clear; a pairing not named here aims at a
seat's fair share, on the rate."""


def decision_times(game: Any, players: int, bot: Any, positions: int) -> list[float]:
    """Seconds the search takes for one decision, at ``positions`` seeded positions of games
    between light bots: this process's CPU time, so one core's time even on a machine shared
    with other work."""
    light = game.bot("light")
    times = []
    for seed in range(positions):
        rng = random.Random(seed)
        state = game(players=players, seed=seed).new_initial_state()
        for _ in range(20 + 10 * seed):
            if state.is_terminal():
                break
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else light.choose(state, rng)
            )
        while not state.is_terminal() and (
            state.is_chance_node() or len(state.legal_actions()) < 2
        ):
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else light.choose(state, rng)
            )
        if state.is_terminal():
            continue
        start = time.process_time()  # this process's CPU time: one core, whoever else runs
        bot.choose(state, random.Random(seed))
        times.append(time.process_time() - start)
    return times


def match(
    game: Any,
    players: int,
    bot: Any,
    opponent: str,
    games: int,
    jobs: int,
    seed: int = 2026,
    out: Path | None = None,
) -> Any:
    """Seat-rotated games of ``bot`` against ``players - 1`` seats of ``opponent``; with
    ``out``, kept in that file as they end, and the games it already holds not played again
    (the file's run must be this one: same game, bots, seed and number of games)."""
    from coronas.manygames.simulate import simulate

    bots = [bot] + [game.bot(opponent) for _ in range(players - 1)]
    factory = partial(game, players=players)
    resume = out is not None and out.exists()
    return simulate(
        factory, bots, games, seed=seed, jobs=jobs, progress=True, out=out, resume=resume
    )


def games_file(folder: Path, game: str, bot: str, opponent: str, games: int, seed: int) -> Path:
    """Where a match-up's games are kept under ``--out``: one file a match-up, named by it."""
    name = f"{game}-{bot}-vs-{opponent}-{games}-games-seed-{seed}.jsonl"
    return folder / "".join(c if c.isalnum() or c in "-._" else "_" for c in name)


def search_settings(pairs: list[str]) -> dict[str, Any]:
    """``--search KEY=VALUE`` options as settings of the search bot: each key one of
    ``SETTINGS``, each value a JSON number or true/false, but ``playout``'s: the name of one
    of the game's bots (``playout=policy``), and ``evaluate``'s: ``baseline``."""
    import json

    from coronas.engine.mcts import EVALUATIONS
    from coronas.engine.mctsbot import SETTINGS

    settings: dict[str, Any] = {}
    for pair in pairs:
        key, equals, text = pair.partition("=")
        if not equals or key not in SETTINGS:
            raise SystemExit(
                f"--search {pair!r}: expected KEY=VALUE, KEY one of {', '.join(SETTINGS)}"
            )
        if key == "playout":
            if not text.replace("-", "").isalnum():
                raise SystemExit(f"--search {pair!r}: expected the name of one of the game's bots")
            settings[key] = text
            continue
        if key == "evaluate":
            if text not in EVALUATIONS:
                raise SystemExit(f"--search {pair!r}: expected one of {', '.join(EVALUATIONS)}")
            settings[key] = text
            continue
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        if not isinstance(value, int | float):  # true and false are ints too
            raise SystemExit(f"--search {pair!r}: expected a number or true/false")
        settings[key] = value
    return settings


def target(bot: str, opponent: str, players: int) -> tuple[float, float, str]:
    """The win rate a pairing must reach, the value its interval's lower end must clear, and
    how that reads: at least 95% against random; against another bot, the product's target
    (``TARGETS``), else a seat's fair share on the rate alone."""
    if opponent == "random":
        return 0.95, 0.0, "at least 95%"
    key = (bot.partition(":")[0], opponent.partition(":")[0], players)
    if key not in TARGETS:
        return FAIR[players], 0.0, f"at least {FAIR[players]:.0%}"
    goal, floor = TARGETS[key]
    return goal, floor, f"at least {goal:.0%}, lower end above {floor:.0%}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run, to check it works")
    parser.add_argument("--game", choices=[g for g, _ in GAMES], action="append")
    parser.add_argument("--games", type=int, default=100, help="games a match-up (100)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--seed", type=int, default=2026, help="the matches' seed (2026)")
    parser.add_argument(
        "--against", choices=["greedy", "random"], action="append", help="mcts's opponents (both)"
    )
    parser.add_argument(
        "--bots",
        nargs=2,
        metavar=("BOT", "OPPONENT"),
        action="append",
        help="a pairing by the game's bot names, such as: mcts mcts-classic; policy greedy",
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="keep each match-up's games in a file in DIR as they end; run the same command "
        "again to go on from the games kept",
    )
    parser.add_argument(
        "--search",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a setting of the first bot's search over the game's own (halving=8, mix=0, "
        "playout=policy)",
    )
    args = parser.parse_args(argv)
    overrides = search_settings(args.search)
    _machine.ensure_importable()
    from coronas.engine import available_games

    games = 2 if args.quick else args.games
    chosen = [(g, p) for g, p in GAMES if not args.game or g in args.game]
    pairings = (
        [tuple(b) for b in args.bots]
        if args.bots
        else [("mcts", opponent) for opponent in args.against or ["greedy", "random"]]
    )
    print(f"Strength ({_machine.machine_line()})")
    print()
    rows, timing = [], []
    for name, players in chosen:
        game = available_games()[name]
        for label, opponent in pairings:
            shown = label  # the bot as the tables name it
            if overrides:
                factory = game.bots().get(label)
                if not hasattr(factory, "from_spec") or not label.startswith("mcts"):
                    raise SystemExit(f"--search sets a search bot's settings; {label} is none")
                bot = factory(**overrides, **({"simulations": 5} if args.quick else {}))
                shown = f"{label} ({', '.join(f'{k}={v}' for k, v in overrides.items())})"
            elif args.quick and label.startswith("mcts"):
                bot = game.bot(f"{label}:5")
            else:
                bot = game.bot(label)
            if hasattr(bot, "simulations") and not any(
                t[1] == shown for t in timing if t[0].startswith(name)
            ):
                times = decision_times(game, players, bot, 2 if args.quick else 8)
                print(
                    f"{name}: {bot!r}, {statistics.fmean(times):.2f} s a decision", file=sys.stderr
                )
                timing.append(
                    [
                        f"{name} ({players} players)",
                        shown,
                        repr(bot),
                        f"{statistics.fmean(times):.2f} s",
                        f"{max(times):.2f} s",
                    ]
                )
            if args.quick and opponent.startswith("mcts"):
                opponent = f"{opponent}:5"
            start = time.perf_counter()
            kept = None
            if args.out is not None:
                args.out.mkdir(parents=True, exist_ok=True)
                kept = games_file(args.out, name, shown, opponent, games, args.seed)
            try:
                result = match(game, players, bot, opponent, games, args.jobs, args.seed, kept)
            except KeyboardInterrupt:
                again = "; run the same command again to go on" if kept else ""
                print(f"interrupted{again}", file=sys.stderr)
                return 130
            lo, hi = result.confidence_interval(0)
            rate = float(result.win_rate(0))
            goal, floor, condition = target(label, opponent, players)
            seats = f"one {shown} seat against " + ", ".join([opponent] * (players - 1))
            rows.append(
                [
                    f"{name} ({players} players)",
                    seats,
                    f"{len(result.finished)}",
                    f"{result.wins[0]:g}",
                    f"{rate:.1%}",
                    f"{lo:.1%} - {hi:.1%}",
                    condition,
                    "yes" if rate >= goal and lo > floor else "no",
                    f"{(time.perf_counter() - start) / 60:.0f} min",
                ]
            )
            # each match-up as it ends, so that a long run interrupted keeps what it measured
            print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    print("Time per decision of the search bots (one core, seeded positions):")
    print()
    print(_machine.table(["game", "name", "bot", "mean", "longest"], timing))
    print()
    print(f"Matches, seats rotated, {args.jobs} worker processes, seed {args.seed}:")
    print()
    print(
        _machine.table(
            [
                "game",
                "seats",
                "games",
                "first bot's wins",
                "win rate",
                "95% interval (Wilson)",
                "condition",
                "met",
                "wall time",
            ],
            rows,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
