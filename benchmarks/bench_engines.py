"""Engine speed: random playouts of each game against python-chess random playouts.

Run from the repository root::

    python benchmarks/bench_engines.py            # about 30 s
    python benchmarks/bench_engines.py --quick    # a few seconds, to check that it runs

Each engine plays whole games with uniformly random decisions (``coronas.engine.RandomBot``)
and seeded dice and draws (``state.sample_chance``), through the public protocol
(``legal_actions``, ``apply`` with its legality check and undo record, ``chance_outcomes``).
An *action* is every ``apply``: a player's decision or a chance outcome. python-chess plays
random games the usual way (``while not board.is_game_over(): board.push(random.choice(
list(board.legal_moves)))``); a *move* is one ``push``.

The games and chess take turns in short slices, several rounds over, so a machine that is
busy with something else slows them all alike: the ratios hold even when the absolute
figures do not. The targets, each a ratio against python-chess in the same run:

* every engine makes at least 1.5x as many *decisions* per second as python-chess makes
  moves in random playouts;
* the memory an applied action keeps (its undo record and history entry, measured with
  tracemalloc over 200 actions) is at most 1 KB;
* ``undo`` is no slower than ``apply``;
* ``State.from_json`` costs at most 2x per saved action what python-chess takes to replay
  a game's moves with ``push_uci``.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import random
import time
import tracemalloc

import _machine

_machine.ensure_importable()

import chess  # noqa: E402

from coronas.engine import RandomBot, State, available_games, play  # noqa: E402

GAMES = (("hierro", 4), ("carolus", 2), ("batalla", 2))
"""The games measured, with their number of players."""


def chess_playouts(seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Random chess games for about ``seconds``: (moves, games, time)."""
    moves = games = 0
    start = time.perf_counter()
    while True:
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            moves += 1
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return moves, games, elapsed


def game_playouts(
    game_cls: type, players: int, seconds: float, rng: random.Random
) -> tuple[int, int, int, float]:
    """Random games for about ``seconds``: (actions, decisions, games, time)."""
    actions = decisions = games = 0
    bot = RandomBot()
    start = time.perf_counter()
    while True:
        state = game_cls(players=players, seed=rng.getrandbits(32)).new_initial_state()
        counter = [0]

        def count(s, a, counter=counter):
            if s.current_player >= 0:
                counter[0] += 1

        play(state, bot, rng, callback=count)
        actions += len(state.history)
        decisions += counter[0]
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return actions, decisions, games, elapsed


def random_actions(game_cls: type, players: int, count: int, seed: int) -> list:
    """The first ``count`` actions of a seeded random game (fewer if it ends first)."""
    rng = random.Random(seed)
    state = game_cls(players=players, seed=seed).new_initial_state()
    bot = RandomBot()
    out = []
    while len(out) < count and not state.is_terminal():
        action = state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng)
        state.apply(action)
        out.append(action)
    return out


def chess_moves(count: int, seed: int) -> list[chess.Move]:
    """The first ``count`` moves of a seeded random chess game (fewer if it ends first)."""
    rng = random.Random(seed)
    board = chess.Board()
    while len(board.move_stack) < count and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return list(board.move_stack)


def kept_bytes(setup, step, items) -> float:
    """Bytes that stay allocated per item after ``step(obj, item)`` for each of ``items``."""
    obj = setup()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for item in items:
        step(obj, item)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / len(items)


def apply_undo_seconds(game_cls: type, players: int, actions: list, seed: int):
    """Seconds per action to apply ``actions`` and to undo them all again."""
    state = game_cls(players=players, seed=seed).new_initial_state()
    start = time.perf_counter()
    for action in actions:
        state.apply(action)
    middle = time.perf_counter()
    while state.history:
        state.undo()
    end = time.perf_counter()
    return (middle - start) / len(actions), (end - middle) / len(actions)


def push_pop_seconds(moves: list[chess.Move]):
    """Seconds per move for python-chess to push ``moves`` and to pop them all again."""
    board = chess.Board()
    start = time.perf_counter()
    for move in moves:
        board.push(move)
    middle = time.perf_counter()
    while board.move_stack:
        board.pop()
    end = time.perf_counter()
    return (middle - start) / len(moves), (end - middle) / len(moves)


def load_seconds(text: str, count: int) -> float:
    """Seconds per saved action for ``State.from_json``."""
    start = time.perf_counter()
    State.from_json(text)
    return (time.perf_counter() - start) / count


def uci_replay_seconds(ucis: list[str]) -> float:
    """Seconds per move for python-chess to replay a game from its UCI moves."""
    start = time.perf_counter()
    board = chess.Board()
    for uci in ucis:
        board.push_uci(uci)
    return (time.perf_counter() - start) / len(ucis)


def undo_log_rows(registry: dict, rounds: int) -> list[list[str]]:
    """Memory per action, apply/undo and loading, each game next to python-chess."""
    moves = chess_moves(200, seed=7)
    ucis = [m.uci() for m in moves]
    chess_mem = kept_bytes(chess.Board, lambda b, m: b.push(m), moves)
    per_game = {}
    for name, players in GAMES:
        game_cls = registry[name]
        actions = random_actions(game_cls, players, 200, seed=7)
        state = game_cls(players=players, seed=7).new_initial_state()
        for action in actions:
            state.apply(action)
        per_game[name] = (game_cls, players, actions, state.to_json())
    times: dict[str, list[list[float]]] = {n: [] for n in ["chess", *per_game]}
    for _ in range(rounds):
        push, pop = push_pop_seconds(moves)
        times["chess"].append([push, pop, uci_replay_seconds(ucis)])
        for name, (game_cls, players, actions, text) in per_game.items():
            apply_s, undo_s = apply_undo_seconds(game_cls, players, actions, seed=7)
            times[name].append([apply_s, undo_s, load_seconds(text, len(actions))])

    def best(name: str, i: int) -> float:
        return min(t[i] for t in times[name])

    rows = [
        [
            "python-chess (200 moves)",
            f"{chess_mem:.0f} B",
            f"{best('chess', 0) * 1e6:.1f} us",
            f"{best('chess', 1) * 1e6:.1f} us",
            "",
            f"{best('chess', 2) * 1e6:.1f} us",
            "",
        ]
    ]
    for name, (game_cls, players, actions, _) in per_game.items():
        mem = kept_bytes(
            lambda gc_=game_cls, p=players: gc_(players=p, seed=7).new_initial_state(),
            lambda s, a: s.apply(a),
            actions,
        )
        rows.append(
            [
                f"{name} ({len(actions)} actions)",
                f"{mem:.0f} B",
                f"{best(name, 0) * 1e6:.1f} us",
                f"{best(name, 1) * 1e6:.1f} us",
                f"{best(name, 1) / best(name, 0):.2f}",
                f"{best(name, 2) * 1e6:.1f} us",
                f"{best(name, 2) / best('chess', 2):.2f}",
            ]
        )
    return rows


def profile_game(game_cls: type, players: int, games: int = 3) -> str:
    """The ten functions with the most own time in a few random games."""
    profiler = cProfile.Profile()
    rng = random.Random(1)
    profiler.enable()
    for _ in range(games):
        state = game_cls(players=players, seed=rng.getrandbits(32)).new_initial_state()
        play(state, RandomBot(), rng)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(10)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run, to check it works")
    parser.add_argument(
        "--profile", action="store_true", help="profile the engines slower than chess"
    )
    args = parser.parse_args(argv)
    rounds, slice_s = (1, 0.3) if args.quick else (6, 1.0)
    registry = available_games()
    rng = random.Random(2026)

    totals: dict[str, list[float]] = {"chess": [0, 0, 0, 0.0]}
    for name, _ in GAMES:
        totals[name] = [0, 0, 0, 0.0]
    for _ in range(rounds):
        moves, games, elapsed = chess_playouts(slice_s, rng)
        t = totals["chess"]
        t[0] += moves
        t[1] += moves
        t[2] += games
        t[3] += elapsed
        for name, players in GAMES:
            actions, decisions, games, elapsed = game_playouts(
                registry[name], players, slice_s, rng
            )
            t = totals[name]
            t[0] += actions
            t[1] += decisions
            t[2] += games
            t[3] += elapsed

    chess_rate = totals["chess"][0] / totals["chess"][3]
    log_rows = undo_log_rows(registry, rounds=2 if args.quick else 5)
    rows = [
        [
            f"python-chess {chess.__version__} (random games)",
            f"{totals['chess'][2]}",
            f"{totals['chess'][0] / totals['chess'][2]:.0f} moves",
            f"{chess_rate:,.0f} moves/s",
            "",
            "1.00",
            "1.00",
        ]
    ]
    slow: list[tuple[str, int]] = []
    for name, players in GAMES:
        actions, decisions, games, elapsed = totals[name]
        rate = actions / elapsed
        ratio = rate / chess_rate
        per_decision = decisions / elapsed / chess_rate
        if per_decision < 1.5:
            slow.append((name, players))
        rows.append(
            [
                f"{name} ({players} players)",
                f"{games}",
                f"{actions / games:.0f} actions ({decisions / games:.0f} decisions)",
                f"{rate:,.0f} actions/s",
                f"{decisions / elapsed:,.0f}",
                f"{ratio:.2f}",
                f"{per_decision:.2f}",
            ]
        )
    print(f"Engine speed: random playouts ({_machine.machine_line()})")
    print()
    print(
        _machine.table(
            [
                "engine",
                "games",
                "per game",
                "speed",
                "decisions/s",
                "actions / chess moves",
                "decisions / chess moves",
            ],
            rows,
        )
    )
    print()
    if slow:
        print("Below 1.5x python-chess per decision: " + ", ".join(n for n, _ in slow))
    else:
        print("Every engine makes at least 1.5x as many decisions per second as chess moves.")
    print()
    print("The undo log: memory kept per applied action, apply, undo and loading a saved game")
    print()
    print(
        _machine.table(
            [
                "engine",
                "memory / action",
                "apply",
                "undo",
                "undo / apply",
                "load per action",
                "load / chess push_uci",
            ],
            log_rows,
        )
    )
    if args.profile:
        for name, players in slow:
            print(f"\nWhere {name} spends its time:\n")
            print(profile_game(registry[name], players))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
