"""A ladder of bots: every pairing or seating played with seats rotated, win rates with their
95% intervals, and Bradley-Terry ratings on the Elo scale.

:func:`tournament` takes a pool of bots and plays, for a game of two players, every pairing of two
different bots; for three to five players, every *line-up*: every choice of bots for the seats, with
repeats, that holds at least two different bots (one mcts against two greedy, two mcts against one
greedy...). Each line-up plays ``games`` games, its seats rotated one place a game, so that every
bot sits at every seat equally often and the first player's advantage favours no one. The games run
on the runner that :func:`~.simulate.simulate` uses: seeded, on any executor (``jobs=2``, a dask
client's ``get_executor()``), kept in a results file as they finish and resumed from it, an
unfinished game counted apart and never fatal.

The :class:`Ladder` it returns shows

* **the table**: for each line-up and each bot in it, the bot's share of the wins (a shared
  victory counts 1/k to each of its k winners) with its 95% interval, beside its fair
  share (the share of the seats it holds: 1/2 in a pairing, 1/3 for one seat of three);
* **the ratings**: Bradley-Terry maximum likelihood on the Elo scale with 95% bootstrap
  intervals (:func:`coronas.manygames.ratings.bradley_terry`), the anchor (0 Elo) stated;
* a picture of the ratings with their error bars (:meth:`Ladder.plot`) and a table of games
  for pandas (:meth:`Ladder.to_pandas`).

>>> from coronas.manygames.tournament import tournament
>>> ladder = tournament("batalla", ["random", "greedy"], games=4, progress=False)
>>> [(row["line_up"], row["bot"], row["games"]) for row in ladder.rows()]
[('random vs greedy', 'random', 4), ('random vs greedy', 'greedy', 4)]
>>> ladder.ratings.anchor
'random'
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import itertools
import math
import os
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from coronas.engine import Game, available_games
from coronas.manygames.intervals import share_interval
from coronas.manygames.ratings import Ratings, bradley_terry
from coronas.manygames.results import GameRecord
from coronas.manygames.runner import DEFAULT_MAX_STEPS, Match, NewGame, draw_tasks, run_games
from coronas.manygames.simulate import _labels

__all__ = ["MAX_GAMES", "Ladder", "count_line_ups", "line_ups", "tournament"]

MAX_GAMES = 10**6
"""The most games a tournament may play in all."""


def line_ups(bots: int, players: int) -> list[tuple[int, ...]]:
    """The line-ups of a tournament of ``bots`` bots at a game of ``players`` seats: every
    multiset of bots with at least two different bots, as sorted tuples of bot indices.

    >>> line_ups(3, 2)
    [(0, 1), (0, 2), (1, 2)]
    >>> line_ups(2, 3)
    [(0, 0, 1), (0, 1, 1)]
    """
    return [
        c for c in itertools.combinations_with_replacement(range(bots), players) if len(set(c)) > 1
    ]


def count_line_ups(bots: int, players: int) -> int:
    """How many line-ups :func:`line_ups` gives, worked out without listing them (every
    multiset of ``players`` bots, less the ``bots`` line-ups of one bot alone), so that a
    tournament too large is refused before anything is built.

    >>> count_line_ups(3, 2), count_line_ups(2, 3), count_line_ups(10, 5)
    (3, 2, 1992)
    """
    return math.comb(bots + players - 1, players) - bots


def _seating(index: int, line_ups: Sequence[tuple[int, ...]], games: int) -> tuple[int, ...]:
    """Game ``index``'s seats: its line-up, turned one seat further each game."""
    line_up = line_ups[index // games]
    turn = index % games
    n = len(line_up)
    return tuple(line_up[(seat - turn) % n] for seat in range(n))


def _share(record: GameRecord, seat: int) -> Fraction:
    """The seat's share of the win: 1/k to each of k winners."""
    return Fraction(1, len(record.winners)) if seat in record.winners else Fraction(0)


@dataclasses.dataclass
class Ladder:
    """What a :func:`tournament` played and what it says.

    ``labels[j]`` names bot ``j`` of the pool; ``line_ups[k]`` is line-up ``k`` (bot indices,
    sorted), played in games ``k * games`` to ``(k + 1) * games - 1``; ``records`` holds
    every game in order, finished or not. ``ratings`` are fitted to the finished games.
    """

    game: str
    num_players: int
    labels: tuple[str, ...]
    line_ups: tuple[tuple[int, ...], ...]
    games: int
    seed: int
    records: list[GameRecord]
    ratings: Ratings | None

    @property
    def finished(self) -> list[GameRecord]:
        """The games that ended by the rules."""
        return [r for r in self.records if r.finished]

    @property
    def unfinished(self) -> list[GameRecord]:
        """The games stopped at the step cap or by a bot's error (nobody's win)."""
        return [r for r in self.records if not r.finished]

    def line_up_name(self, line_up: Sequence[int]) -> str:
        """``greedy vs mcts``, or ``mcts vs greedy x2`` for a bot at two seats."""
        counts = {b: line_up.count(b) for b in sorted(set(line_up))}
        return " vs ".join(self.labels[b] + (f" x{k}" if k > 1 else "") for b, k in counts.items())

    def rows(self) -> list[dict[str, Any]]:
        """One dict per line-up and bot in it: ``line_up``, ``bot``, ``seats`` (how many it
        holds), ``fair`` (its share of the seats), ``games`` (finished), ``wins`` (its share
        of the wins, a Fraction), ``win_rate`` (wins / games), ``ci_low``/``ci_high`` (its
        95% interval: Wilson's, on the effective games where wins were shared,
        :func:`~coronas.manygames.intervals.share_interval`)."""
        rows = []
        for k, line_up in enumerate(self.line_ups):
            played = [r for r in self.finished if r.index // self.games == k]
            for bot in sorted(set(line_up)):
                # the bot's share of each game: the shares of the seats it holds
                each = [
                    sum((_share(r, s) for s, b in enumerate(r.seats) if b == bot), Fraction(0))
                    for r in played
                ]
                wins = sum(each, Fraction(0))
                row: dict[str, Any] = {
                    "line_up": self.line_up_name(line_up),
                    "bot": self.labels[bot],
                    "seats": line_up.count(bot),
                    "fair": Fraction(line_up.count(bot), self.num_players),
                    "games": len(played),
                    "wins": wins,
                    "win_rate": wins / len(played) if played else None,
                    "ci_low": None,
                    "ci_high": None,
                }
                if played:
                    squares = float(sum(x * x for x in each))
                    row["ci_low"], row["ci_high"] = share_interval(
                        float(wins), squares, len(played)
                    )
                rows.append(row)
        return rows

    def _row_text(self, row: dict[str, Any]) -> tuple[str, str, str]:
        if row["win_rate"] is None:
            return "-", "-", f"{float(row['fair']):.0%}"
        rate = f"{float(row['win_rate']):.1%}"
        interval = f"{row['ci_low']:.1%} - {row['ci_high']:.1%}"
        return rate, interval, f"{float(row['fair']):.0%}"

    def _unfinished_line(self) -> str | None:
        lost = self.unfinished
        if not lost:
            return None
        first = lost[0]
        return (
            f"{len(lost)} of {len(self.records)} games did not end and are counted apart "
            f"(first: game {first.index}, {first.outcome}: {first.message or 'step cap'})"
        )

    def __str__(self) -> str:
        n = len(self.line_ups)
        what = "pairing" if self.num_players == 2 else "line-up"
        lines = [
            f"{self.game} tournament: {len(self.labels)} bots, {n} {what}"
            + ("s" if n != 1 else "")
            + f" of {self.games} games, seats rotated, seed {self.seed}",
            f"{what:<28}{'bot':<14}{'games':>6}{'wins':>8}{'win rate':>10}"
            f"{'95% interval':>18}{'fair':>6}",
        ]
        for row in self.rows():
            rate, interval, fair = self._row_text(row)
            lines.append(
                f"{row['line_up']:<28}{row['bot']:<14}{row['games']:>6}"
                f"{float(row['wins']):>8.4g}{rate:>10}{interval:>18}{fair:>6}"
            )
        unfinished = self._unfinished_line()
        if unfinished:
            lines.append(unfinished)
        ratings = str(self.ratings) if self.ratings else "no ratings: no game compared two bots"
        return "\n".join(lines) + "\n\n" + ratings

    def __repr__(self) -> str:
        rows = self.ratings.rows() if self.ratings else []
        ratings = ", ".join(f"{r['bot']} {r['elo']:+.0f}" for r in rows) or "no ratings"
        return (
            f"<Ladder {self.game}: {len(self.labels)} bots, {len(self.records)} games, "
            f"seed {self.seed}: {ratings}>"
        )

    def _repr_html_(self) -> str:
        from html import escape

        what = "pairing" if self.num_players == 2 else "line-up"
        body = []
        for row in self.rows():
            rate, interval, fair = self._row_text(row)
            body.append(
                f"<tr><td>{escape(row['line_up'])}</td><td>{escape(row['bot'])}</td>"
                f"<td>{row['games']}</td><td>{float(row['wins']):.4g}</td><td>{rate}</td>"
                f"<td>{interval}</td><td>{fair}</td></tr>"
            )
        foot = self._unfinished_line()
        return (
            f"<table><caption>{escape(self.game)} tournament: {self.games} games a {what}, "
            f"seats rotated, seed {self.seed}</caption><tr><th>{what}</th><th>bot</th>"
            "<th>games</th><th>wins</th><th>win rate</th><th>95% interval</th>"
            f"<th>fair share</th></tr>{''.join(body)}</table>"
            + (f"<p>{escape(foot)}</p>" if foot else "")
            + (self.ratings._repr_html_() if self.ratings else "")
        )

    def plot(self, ax: Any = None) -> Any:
        """The ratings with their 95% intervals (:meth:`coronas.manygames.ratings.Ratings.plot`)."""
        if self.ratings is None:
            raise ValueError("no game compared two bots: there are no ratings to draw")
        return self.ratings.plot(ax)

    def to_pandas(self) -> Any:
        """The games as a pandas DataFrame, one row per game and seat: ``game``,
        ``line_up``, ``seat``, ``bot``, ``share`` (of the win; missing when unfinished),
        ``decisions``, ``outcome`` (needs pandas, the ``analysis`` extra)."""
        try:
            import pandas as pd
        except ModuleNotFoundError:
            raise ModuleNotFoundError(
                "to_pandas needs pandas, which is the 'analysis' extra: "
                "pip install 'coronas[analysis]'"
            ) from None
        rows = [
            {
                "game": r.index,
                "line_up": self.line_up_name(self.line_ups[r.index // self.games]),
                "seat": s,
                "bot": self.labels[b],
                "share": float(_share(r, s)) if r.finished else None,
                "decisions": r.decisions,
                "outcome": r.outcome,
            }
            for r in self.records
            for s, b in enumerate(r.seats)
        ]
        return pd.DataFrame(rows)


def _game_class(game: str | type[Game]) -> type[Game]:
    if isinstance(game, str):
        table = available_games()
        if game not in table:
            raise ValueError(f"unknown game {game!r}; the games are {', '.join(table)}")
        return table[game]
    return game


def tournament(
    game: str | type[Game] | Callable[..., Game],
    bots: Sequence[Any],
    *,
    games: int = 100,
    players: int | None = None,
    rules: Any = None,
    seed: int = 0,
    jobs: int = 1,
    executor: concurrent.futures.Executor | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
    progress: bool = True,
    anchor: str | None = None,
) -> Ladder:
    """Play every pairing (or line-up) of ``bots``, ``games`` games each with seats rotated,
    and rank the bots.

    ``game`` is a game's name (``"batalla"``), its class or a factory (a
    :func:`functools.partial` of a class with its players and rules). ``bots`` are names the
    game knows (``"random"``, ``"greedy"``, ``"mcts:500"``: :meth:`coronas.engine.Game.bot`)
    or bot objects; at least two. ``players`` (default: the game's smallest table) and
    ``rules`` apply to a name or a class. ``seed`` fixes every game; ``jobs``, ``executor``,
    ``out``, ``resume``, ``max_steps`` and ``progress`` work as in
    :func:`~coronas.manygames.simulate.simulate`. ``anchor`` names the bot rated 0 Elo (default:
    ``random`` if it plays, else the first).
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number of at least 1, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"the seed must be a whole number, got {seed!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number of at least 1, got {jobs!r}")
    if resume and out is None:
        raise ValueError("resume=True needs the results file to continue: give out=")
    if isinstance(game, (type, str)):
        game_cls = _game_class(game)
        factory: Callable[..., Game] = functools.partial(game_cls, players=players, rules=rules)
    else:
        if players is not None or rules is not None:
            raise ValueError("players and rules go into the factory: give a game name or class")
        factory = game
        game_cls = type(factory(seed=0))
    probe = factory(seed=seed)
    bots = list(bots)
    if len(bots) < 2:
        raise ValueError(f"a tournament needs at least two bots, got {len(bots)}")
    pool = [game_cls.bot(b) if isinstance(b, str) else b for b in bots]
    names = [b if isinstance(b, str) else None for b in bots]
    labels = _labels(pool)
    labels = [
        n if n is not None and names.count(n) == 1 else lab
        for n, lab in zip(names, labels, strict=True)
    ]
    if anchor is not None and anchor not in labels:
        raise ValueError(f"the anchor {anchor!r} is not one of the bots: {', '.join(labels)}")
    n_ups = count_line_ups(len(pool), probe.num_players)
    total = n_ups * games
    if total > MAX_GAMES:
        raise ValueError(
            f"{n_ups} line-ups of {games} games make {total} games, more than the limit of "
            f"{MAX_GAMES} games a tournament"
        )
    ups = line_ups(len(pool), probe.num_players)
    match = Match(NewGame(factory), tuple(pool), max_steps)
    # drawn afresh when called: the bar times the first game of each line-up apart
    tasks = functools.partial(
        draw_tasks, seed, total, functools.partial(_seating, line_ups=ups, games=games)
    )
    header = None
    if out is not None:
        params = {k: v for k, v in probe.params().items() if k != "seed"}
        header = {"run": "tournament", "game": probe.name, **params, "bots": labels}
        header.update(seed=seed, games=total, per_line_up=games, max_steps=max_steps)
    records = run_games(
        match,
        tasks,
        total,
        out=out,
        header=header,
        resume=resume,
        progress=f"{probe.name} tournament" if progress else None,
        executor=executor,
        jobs=jobs,
        groups=[range(g * games, (g + 1) * games) for g in range(len(ups))],
    )
    finished = [r for r in records if r.finished]
    results = [[(b, float(_share(r, s))) for s, b in enumerate(r.seats)] for r in finished]
    compared = any(len({r.seats[s] for s in range(len(r.seats))}) > 1 for r in finished)
    return Ladder(
        game=probe.name,
        num_players=probe.num_players,
        labels=tuple(labels),
        line_ups=tuple(ups),
        games=games,
        seed=seed,
        records=records,
        ratings=bradley_terry(results, labels, anchor, seed=seed) if compared else None,
    )
