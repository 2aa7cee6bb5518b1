"""Luck-adjusted games: how much of a playout's variance the value model's view of the luck
of its rolls takes out, and what it costs.

Run from the repository root::

    python benchmarks/bench_luck.py            # about two minutes
    python benchmarks/bench_luck.py --quick    # a few seconds, to check that it runs

From a mid-game position of each game (a seeded game between light bots, stopped halfway
through its length; Corona de Hierro at 3 players), the rest of the game is played out
``GAMES`` times by the default bot on the same seeded games twice: plainly, and with the luck
of each game's rolls measured (``win_chances(..., luck=True)``: the sum over the game's chance
nodes of ``V(drawn child) - E[V(child)]``, ``V`` the game's value model, a control variate of
mean zero). Reported per game: seat 0's mean share plainly and adjusted, the variance of its
per-game share, the ratio of the adjusted variance to it (the games the adjusted estimate
needs for the same interval, as a share of the plain one's) with the luck taken off with
coefficient 1 and with the coefficient fitted from the games (the regression of the shares
on the luck, shared by the seats, ``intervals.luck_coefficient``), that coefficient, and the
milliseconds a game takes both ways (the adjustment values every outcome of every roll and
draw of at most 64 outcomes).

Beside them, the luck as backgammon programs measure it: each outcome valued once the light
player has answered it, up to the next chance node (at most ``REPLY`` decisions, its ties
broken by a fixed seed, so each outcome's value is a function of the game so far and the
mean stays zero; :class:`ReplyLuck`), with the fitted coefficient, on the same games. A roll
of Batalla's two dice is worth what the die chosen for the council makes of it, which the
position before the choice does not show.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import _machine

_machine.ensure_importable()

from coronas.engine import available_games  # noqa: E402
from coronas.engine.evaluation import win_shares  # noqa: E402
from coronas.manygames.estimator import Arm, FromPosition, Games, seat_bots  # noqa: E402
from coronas.manygames.runner import Match, play_task  # noqa: E402
from coronas.manygames.scoring import Luck  # noqa: E402

GAMES = 600
POSITIONS = [("batalla", 2, 1), ("carolus", 2, 1), ("hierro", 3, 1)]
REPLY = 8
"""The most decisions :class:`ReplyLuck` plays after an outcome before it values it."""


class ReplyLuck(Luck):
    """:class:`~coronas.manygames.scoring.Luck` with each outcome valued after the light
    player's reply: its decisions are played on (its rng seeded alike every time) until the
    next chance node, the end, or :data:`REPLY` of them, the position valued there, and the
    reply undone. The value stays a function of the game so far and the outcome, so each
    term keeps its mean of zero."""

    def __init__(self, evaluate, seats: int, player):
        super().__init__(evaluate, seats)
        self.player = player

    def value(self, state) -> list[float]:
        played = 0
        rng = random.Random(0)
        while played < REPLY and not state.is_terminal() and not state.is_chance_node():
            state.apply(self.player.choose(state, rng))
            played += 1
        try:
            return super().value(state)
        finally:
            for _ in range(played):
                state.undo()


def halfway(name: str, players: int, seed: int):
    """A position halfway through a seeded game between light bots."""
    game = available_games()[name]
    state = game(players=players, seed=seed).new_initial_state()
    rng, bot = random.Random(seed), game.bot("light")
    while not state.is_terminal():
        state.apply(state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng))
    for _ in range(len(state.history) // 2):
        state.undo()
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    return state


def measure(name: str, players: int, seed: int, games: int) -> dict[str, float]:
    state = halfway(name, players, seed)
    bots = seat_bots(state, None)
    out: dict[str, float] = {}
    arm = Arm(FromPosition(state), players, luck=True)
    for luck in (False, True):
        with Games(bots, 7, None, 1, 100_000) as runs:
            tasks = runs.draw(games)
            began = time.perf_counter()
            got = runs.play(FromPosition(state), tasks, luck)
            seconds = time.perf_counter() - began
        out["luck_ms" if luck else "plain_ms"] = 1000 * seconds / games
        if luck:  # the very games of the plain run, with their luck measured
            arm.add(got)
    ended = [(g, c) for g, c in zip(arm.per_game, arm.luck_terms, strict=True) if g is not None]
    plain = [float(g[0]) for g, _ in ended]
    out["plain_mean"] = statistics.fmean(plain)
    out["fitted_mean"] = float(arm.chance(0))
    out["plain_var"] = statistics.variance(plain)
    whole = [float(g[0]) - c[0] for g, c in ended]
    out["ratio_one"] = statistics.variance(whole) / out["plain_var"]
    out["coefficient"] = float(arm.coefficient() or 0)
    fitted = [v for v in arm.shares(0) if v is not None]
    out["ratio_fitted"] = statistics.variance(fitted) / out["plain_var"]
    # the same games again, the luck valued after the light player's reply
    game = type(state.game)
    match = Match(FromPosition(state), bots, 100_000)
    player, evaluate = game.bot("light"), game.spec().evaluate
    began = time.perf_counter()
    pairs = []
    for task in tasks:
        luck = ReplyLuck(evaluate, players, player)
        end, record = play_task(match, task, luck)
        if record.finished:
            pairs.append((float(win_shares(end)[0]), luck.total[0]))
    out["reply_ms"] = 1000 * (time.perf_counter() - began) / games
    ys, cs = zip(*pairs, strict=True)
    out["reply_coefficient"] = statistics.covariance(ys, cs) / statistics.variance(cs)
    left = [y - out["reply_coefficient"] * c for y, c in pairs]
    out["ratio_reply"] = statistics.variance(left) / statistics.variance(ys)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 games a position")
    args = parser.parse_args()
    games = 40 if args.quick else GAMES
    print(f"Luck-adjusted games, {games} a position ({_machine.machine_line()})")
    header = [
        "game",
        "mean, plain",
        "mean, adjusted",
        "variance, plain",
        "ratio, coefficient 1",
        "fitted coefficient",
        "ratio, fitted",
        "ms a game, plain",
        "ms a game, adjusted",
        "ratio, after the reply (fitted)",
        "its coefficient",
        "ms a game, after the reply",
    ]
    rows = []
    for name, players, seed in POSITIONS:
        r = measure(name, players, seed, games)
        rows.append(
            [
                f"{name} ({players} players)",
                f"{r['plain_mean']:.3f}",
                f"{r['fitted_mean']:.3f}",
                f"{r['plain_var']:.3f}",
                f"{r['ratio_one']:.2f}",
                f"{r['coefficient']:.2f}",
                f"{r['ratio_fitted']:.2f}",
                f"{r['plain_ms']:.1f}",
                f"{r['luck_ms']:.1f}",
                f"{r['ratio_reply']:.2f}",
                f"{r['reply_coefficient']:.2f}",
                f"{r['reply_ms']:.1f}",
            ]
        )
    print(_machine.table(header, rows))


if __name__ == "__main__":
    main()
