"""Many games at once: win rates by bot and by seat with confidence intervals, on any executor.

:func:`simulate` plays ``n_games`` games of one game with a list of bots and summarises them in a
:class:`SimulationResult`. It is the analyst's face of :mod:`~coronas.manygames.runner`, and what it
promises is what an analyst needs to trust and repeat a run:

* **Reproducible.** Every game gets its own seeds, drawn in order from ``random.Random(seed)``,
  and the results are gathered back in game order. The same ``seed`` gives the same games and
  the same summary whether the games run in this process, on two worker processes or on a
  cluster, in one go or resumed.
* **Fair seating.** With ``rotate=True`` (the default) the bots change seats from one game to
  the next (game ``i`` seats bot ``j`` at seat ``(i + j) % players``), so a bot that moves
  first is not favoured in every game; the summary shows the win rate by seat beside the win
  rate by bot, so a first-player advantage shows at a glance.
* **Every game counted, none fatal.** A game that has not ended after ``max_steps`` actions
  (:data:`~coronas.manygames.runner.DEFAULT_MAX_STEPS`, 100,000) or whose bot raises is recorded as
  unfinished with its seeds and the message, counted apart ("3 of 400 games did not end
  ...; replay one with result.replay(17)"), and is nobody's win; the run goes on.
  ``strict=True`` stops at the first one instead.
* **Kept as it comes.** ``out="run.jsonl"`` writes a first line that describes the run
  (game, players, rules, bots, seed, number of games, step cap), then one line per game as it
  finishes (seeds, seats, bots, winners, returns, length, how it ended), flushed each time.
  After Ctrl-C, a closed laptop or a killed process, ``resume=True`` with the same arguments
  plays only the missing games, with the same seeds: the summary is the uninterrupted run's.
  A file from another run is refused, naming the field that differs; a damaged last line
  (a write cut short) is dropped and its game played again.
* **Any executor.** Games are sent in chunks to a :class:`concurrent.futures.Executor`: a
  :class:`~concurrent.futures.ProcessPoolExecutor` (``jobs=2``), or a dask.distributed
  client's ``client.get_executor()`` for a cluster. A chunk lost with its worker is sent
  again. The game factory and the bots travel to the workers, so they must be importable
  objects (a game class, a :func:`functools.partial` of one, bot instances of module-level
  classes), not lambdas.
* **A table.** :meth:`SimulationResult.to_pandas` gives one row per game and seat (pandas is
  the ``analysis`` extra). A tqdm progress bar shows the run: text in a terminal, a widget in
  Jupyter.

Win rates are exact fractions of the games that ended; their 95% Wilson score intervals,
being estimates of an unknown probability, are floats.

    from functools import partial
    from coronas.manygames.simulate import simulate
    from coronas.engine import RandomBot

    result = simulate(partial(SomeGame, players=2), [RandomBot(), GreedyBot()], 1000, seed=1,
                      out="run.jsonl")             # resume=True continues it after Ctrl-C
    print(result)          # win rates by bot and by seat, 95% intervals, game lengths
    result.to_pandas().groupby(["bot", "seat"]).won.agg(["sum", "count"])
    result.plot()
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import math
import os
import statistics
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from coronas.engine import Game, State
from coronas.engine.seats import seat_names
from coronas.formatting import plural
from coronas.manygames.intervals import Z95, wilson_interval
from coronas.manygames.runner import (
    DEFAULT_MAX_STEPS,
    GameRecord,
    Interrupted,
    Match,
    NewGame,
    draw_tasks,
    play_task,
    rotated_seats,
    run_games,
)

__all__ = [
    "TABLE_COLUMNS",
    "GameRecord",
    "Interrupted",
    "SimulationResult",
    "simulate",
    "wilson_interval",
]


def _bot_name(bot: Any) -> str:
    name = getattr(bot, "name", None)
    if isinstance(name, str):
        return name
    return getattr(bot, "__name__", type(bot).__name__)


def _labels(bots: Sequence[Any]) -> list[str]:
    """Readable, unique names: ``random``, ``greedy``, ``random 2``..."""
    seen: dict[str, int] = {}
    out = []
    for bot in bots:
        name = _bot_name(bot)
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} {seen[name]}")
    return out


@dataclasses.dataclass
class SimulationResult:
    """The summary of a :func:`simulate` run.

    ``labels[j]`` names ``bots[j]``; ``records`` holds every game in order, finished or not
    (:class:`~.runner.GameRecord`). Win rates count only the games that ended by the
    rules (``finished``); the others (``unfinished``: the step cap, a bot's error) are counted
    apart and are nobody's win. ``wins[j]`` counts the games bot ``j`` won (a shared victory
    counts for every winner, so win rates can add up to more than 1); ``seat_wins[s]`` the
    games won from seat ``s``.
    """

    game: str
    n_games: int
    seed: int
    labels: list[str]
    num_players: int
    records: list[GameRecord]
    game_factory: Callable[..., Game] = dataclasses.field(repr=False, compare=False)
    bots: Sequence[Any] = dataclasses.field(repr=False, compare=False)
    max_steps: int = dataclasses.field(default=DEFAULT_MAX_STEPS, repr=False, compare=False)

    # -- what was played ---------------------------------------------------------------------
    @property
    def finished(self) -> list[GameRecord]:
        """The games that ended by the rules, in game order."""
        return [r for r in self.records if r.finished]

    @property
    def unfinished(self) -> list[GameRecord]:
        """The games stopped at the step cap or by a bot's error, in game order."""
        return [r for r in self.records if not r.finished]

    @property
    def wins(self) -> list[int]:
        counts = [0] * len(self.labels)
        for record in self.finished:
            for b in set(record.winning_bots):
                counts[b] += 1
        return counts

    @property
    def seat_wins(self) -> list[int]:
        """Games won from each seat, by 0-based index (the first seat moves first)."""
        counts = [0] * self.num_players
        for record in self.finished:
            for s in record.winners:
                counts[s] += 1
        return counts

    @property
    def shared(self) -> int:
        """How many games ended in a shared victory."""
        return sum(1 for r in self.finished if len(r.winners) > 1)

    def _ended(self) -> int:
        n = len(self.finished)
        if not n:
            raise ValueError("no game ended by the rules: there is no win rate to give")
        return n

    def win_rate(self, bot: int | str) -> Fraction:
        """The exact fraction of the finished games that bot (index or label) won."""
        return Fraction(self.wins[self._index(bot)], self._ended())

    def confidence_interval(self, bot: int | str, z: float = Z95) -> tuple[float, float]:
        """The 95% Wilson interval (or another ``z``) for that bot's winning probability."""
        return wilson_interval(self.wins[self._index(bot)], self._ended(), z)

    def seat_win_rate(self, seat: int) -> Fraction:
        """The exact fraction of the finished games won from ``seat``."""
        return Fraction(self.seat_wins[seat], self._ended())

    def seat_confidence_interval(self, seat: int, z: float = Z95) -> tuple[float, float]:
        """The 95% Wilson interval for the chance of winning from ``seat``."""
        return wilson_interval(self.seat_wins[seat], self._ended(), z)

    def _index(self, bot: int | str) -> int:
        if isinstance(bot, str):
            if bot not in self.labels:
                raise KeyError(f"no bot called {bot!r}; the bots are {self.labels}")
            return self.labels.index(bot)
        return bot

    @property
    def lengths(self) -> list[int]:
        """Number of player decisions in each finished game, in game order."""
        return [r.decisions for r in self.finished]

    def length_summary(self) -> dict[str, float]:
        """Mean, median, minimum and maximum length of the finished games (player
        decisions), and their mean number of all actions including dice rolls and draws."""
        lengths = self.lengths
        if not lengths:
            return {"mean": math.nan, "median": math.nan, "min": 0, "max": 0, "mean_actions": 0}
        return {
            "mean": statistics.fmean(lengths),
            "median": statistics.median(lengths),
            "min": min(lengths),
            "max": max(lengths),
            "mean_actions": statistics.fmean(r.actions for r in self.finished),
        }

    def mean_returns(self) -> list[float]:
        """Each bot's mean final score over the finished games (where scores are numbers)."""
        totals = [0.0] * len(self.labels)
        played = [0] * len(self.labels)
        for record in self.finished:
            for seat, bot in enumerate(record.seats):
                totals[bot] += float(record.returns[seat])
                played[bot] += 1
        return [t / n if n else math.nan for t, n in zip(totals, played, strict=True)]

    def rows(self) -> list[dict[str, Any]]:
        """One dict per bot: label, wins, exact win rate, interval, mean score."""
        try:
            means: list[float | None] = list(self.mean_returns())
        except (TypeError, ValueError):
            means = [None] * len(self.labels)
        return [
            {"bot": label, **self._rate(self.wins[j]), "mean_score": means[j]}
            for j, label in enumerate(self.labels)
        ]

    def seat_rows(self) -> list[dict[str, Any]]:
        """One dict per seat: seat (the 0-based index), name (as the game prints it: "red",
        "player 1"), wins, exact win rate, interval (first-player advantage)."""
        names = self._seat_names()
        return [
            {"seat": s, "name": names[s], **self._rate(w)} for s, w in enumerate(self.seat_wins)
        ]

    def _seat_names(self) -> list[str]:
        """The seats' names as the game prints them, from a game the run's factory makes."""
        try:
            return seat_names(self.game_factory(seed=0))
        except Exception:  # a factory that cannot make a game alone: number from one
            return [f"seat {s + 1}" for s in range(self.num_players)]

    def _rate(self, wins: int) -> dict[str, Any]:
        n = self._ended()
        lo, hi = wilson_interval(wins, n)
        return {"wins": wins, "win_rate": Fraction(wins, n), "ci_low": lo, "ci_high": hi}

    def replay(self, index: int) -> State:
        """Play game ``index`` again from its seeds and return its final (or stopped) state,
        to look at what happened in it (``state.history``, ``print(state)``)."""
        record = self.records[index]
        match = Match(NewGame(self.game_factory), tuple(self.bots), self.max_steps)
        state, again = play_task(match, record.task)
        if again != record:
            raise RuntimeError(f"game {index} did not replay the same: a bot is not seeded")
        return state

    def to_pandas(self) -> Any:
        """The games as a pandas DataFrame, one row per game and seat (needs pandas:
        ``pip install 'coronas[analysis]'``).

        Columns: ``game`` (index in the run), ``game_seed``, ``play_seed``, ``seat`` (0 moves
        first), ``bot`` (the bot's name: ``greedy`` for each of several greedy bots), ``won``
        (nullable boolean; missing for an unfinished game), ``shared`` (the win was shared),
        ``score`` (the game's return for that seat; missing
        when unfinished), ``decisions``, ``actions`` (with dice and draws), ``outcome``
        (``ended``, ``cap`` or ``error``) and ``message``.
        For example ``df.groupby("seat").won.agg(["sum", "count"])`` counts the games won
        from each seat (:meth:`seat_rows` gives their rates with 95% intervals).
        """
        try:
            import pandas as pd
        except ModuleNotFoundError:
            raise ModuleNotFoundError(
                "to_pandas needs pandas, which is the 'analysis' extra: "
                "pip install 'coronas[analysis]'"
            ) from None
        rows = []
        for r in self.records:
            for seat, bot in enumerate(r.seats):
                ended = r.finished
                rows.append(
                    {
                        "game": r.index,
                        "game_seed": r.game_seed,
                        "play_seed": r.play_seed,
                        "seat": seat,
                        "bot": _bot_name(self.bots[bot]),
                        "won": (seat in r.winners) if ended else None,
                        "shared": ended and seat in r.winners and len(r.winners) > 1,
                        "score": r.returns[seat] if ended else None,
                        "decisions": r.decisions,
                        "actions": r.actions,
                        "outcome": r.outcome,
                        "message": r.message,
                    }
                )
        df = pd.DataFrame(rows, columns=TABLE_COLUMNS)
        df["won"] = df["won"].astype("boolean")
        return df

    # -- display -----------------------------------------------------------------------------
    def _unfinished_line(self) -> str | None:
        lost = self.unfinished
        if not lost:
            return None
        caps = sum(1 for r in lost if r.outcome == "cap")
        within = f"within {self.max_steps:,} step" + ("s" if self.max_steps != 1 else "")
        if caps == len(lost):
            why = within
        elif not caps:
            why = "(stopped by a bot's error)"
        else:
            why = f"({caps} {within}, {len(lost) - caps} stopped by a bot's error)"
        first = lost[0]
        error = f": {first.message}" if first.outcome == "error" else ""
        return (
            f"{len(lost)} of {self.n_games} games did not end {why} and are counted apart; "
            f"replay one with result.replay({first.index}) (game seed {first.game_seed}, "
            f"play seed {first.play_seed}{error})"
        )

    @property
    def _mean_label(self) -> str | None:
        """The mean column's heading, in the game's words (``mean VP``), or None where the
        returns are wins (1 or 0): their mean is the win rate, shown already."""
        from coronas.engine import available_games

        name = getattr(available_games().get(self.game), "return_name", "score")
        return None if name == "wins" else "mean " + name

    def __str__(self) -> str:
        n = len(self.finished)
        lines = [
            f"{self.game}: {self.n_games} games, {self.num_players} player"
            + ("s" if self.num_players != 1 else "")
            + f", seed {self.seed}"
            + (f"; {n} ended" if n != self.n_games else "")
        ]
        mean = self._mean_label
        if n:
            lines.append(
                f"{'bot':<14}{'wins':>8}{'win rate':>10}{'95% interval':>18}"
                + (f"{mean:>13}" if mean else "")
            )
            for row in self.rows():
                score = "" if row["mean_score"] is None else f"{row['mean_score']:.2f}"
                interval = f"{row['ci_low']:.1%} - {row['ci_high']:.1%}"
                lines.append(
                    f"{row['bot']:<14}{row['wins']:>8}{float(row['win_rate']):>10.1%}"
                    f"{interval:>18}" + (f"{score:>13}" if mean else "")
                )
            lines.append(f"{'seat':<14}{'wins':>8}{'win rate':>10}{'95% interval':>18}")
            for row in self.seat_rows():
                interval = f"{row['ci_low']:.1%} - {row['ci_high']:.1%}"
                name = row["name"] + (" (first)" if row["seat"] == 0 else "")
                lines.append(
                    f"{name:<14}{row['wins']:>8}{float(row['win_rate']):>10.1%}{interval:>18}"
                )
            s = self.length_summary()
            lines.append(
                f"game length (decisions): mean {s['mean']:.1f}, median {s['median']:g}, "
                f"min {s['min']}, max {s['max']}; {s['mean_actions']:.1f} actions a game with "
                "dice and draws"
            )
        if self.shared:
            lines.append(f"{plural(self.shared, 'game')} ended in a shared victory")
        unfinished = self._unfinished_line()
        if unfinished:
            lines.append(unfinished)
        return "\n".join(lines)

    def __repr__(self) -> str:
        if not self.finished:
            return f"<SimulationResult {self.game}: {self.n_games} games, none ended>"
        rates = ", ".join(
            f"{label} {float(self.win_rate(j)):.1%}" for j, label in enumerate(self.labels)
        )
        lost = len(self.unfinished)
        apart = f", {lost} unfinished" if lost else ""
        return (
            f"<SimulationResult {self.game}: {self.n_games} games{apart}, seed {self.seed}: "
            f"{rates}>"
        )

    def _repr_html_(self) -> str:
        from html import escape

        caption = (
            f"{escape(self.game)}: {self.n_games} games, {self.num_players} players, "
            f"seed {self.seed}"
        )
        if not self.finished:
            return f"<p>{caption}: no game ended.</p><p>{escape(self._unfinished_line())}</p>"

        def cells(row: dict[str, Any]) -> str:
            rate = row["win_rate"]
            return (
                f"<td>{row['wins']}</td><td>{rate} ({float(rate):.1%})</td>"
                f"<td>{row['ci_low']:.1%} – {row['ci_high']:.1%}</td>"
            )

        heads = "<th>wins</th><th>win rate</th><th>95% interval</th>"
        bots = "".join(
            f"<tr><td>{escape(row['bot'])}</td>{cells(row)}"
            + (
                ""
                if not self._mean_label
                else "<td>"
                + ("" if row["mean_score"] is None else f"{row['mean_score']:.2f}")
                + "</td>"
            )
            + "</tr>"
            for row in self.rows()
        )
        seats = "".join(
            f"<tr><td>{escape(row['name'])}</td>{cells(row)}</tr>" for row in self.seat_rows()
        )
        s = self.length_summary()
        foot = (
            f"<p>Game length: mean {s['mean']:.1f} decisions (median {s['median']:g}, "
            f"{s['min']}–{s['max']}).</p>"
        )
        unfinished = self._unfinished_line()
        if unfinished:
            foot += f"<p>{escape(unfinished)}</p>"
        return (
            f"<table><caption>{caption}</caption><tr><th>bot</th>{heads}"
            + (f"<th>{self._mean_label}</th>" if self._mean_label else "")
            + "</tr>"
            f"{bots}</table><table><caption>by seat (the first seat moves first)</caption>"
            f"<tr><th>seat</th>{heads}</tr>{seats}</table>{foot}"
        )

    def plot(self, ax: Any = None) -> Any:
        """Win rates by bot and by seat with their 95% intervals, and the histogram of game
        lengths. ``ax`` is three axes, or None for a new figure.

        Returns the matplotlib figure (matplotlib is imported only here).
        """
        import matplotlib.pyplot as plt

        if ax is None:
            fig, (ax_win, ax_seat, ax_len) = plt.subplots(1, 3, figsize=(12, 3.5))
        else:
            ax_win, ax_seat, ax_len = ax
            fig = ax_win.figure
        n = len(self.finished)
        for axis, rows, names, colour, what in (
            (ax_win, self.rows(), self.labels, "#4c72b0", "bot"),
            (
                ax_seat,
                self.seat_rows(),
                [row["name"] for row in self.seat_rows()],
                "#55a868",
                "seat",
            ),
        ):
            rates = [float(r["win_rate"]) for r in rows]
            errors = [
                [max(0.0, rate - r["ci_low"]) for rate, r in zip(rates, rows, strict=True)],
                [max(0.0, r["ci_high"] - rate) for rate, r in zip(rates, rows, strict=True)],
            ]
            axis.bar(names, rates, yerr=errors, capsize=6, color=colour)
            axis.set_ylabel("win rate (95% Wilson interval)")
            axis.set_ylim(0, 1)
            axis.set_title(f"by {what}: {n} games")
        ax_win.set_title(f"{self.game}: {n} games")
        ax_len.hist(self.lengths, bins=min(30, max(5, len(set(self.lengths)))), color="#dd8452")
        ax_len.set_xlabel("player decisions in the game")
        ax_len.set_ylabel("games")
        ax_len.set_title("game length")
        fig.tight_layout()
        return fig


TABLE_COLUMNS = (
    "game",
    "game_seed",
    "play_seed",
    "seat",
    "bot",
    "won",
    "shared",
    "score",
    "decisions",
    "actions",
    "outcome",
    "message",
)
"""The columns of :meth:`SimulationResult.to_pandas` and of ``coronas simulate --csv``."""


def _game_name(game_factory: Callable[..., Game]) -> str:
    name = getattr(game_factory, "name", None)
    if isinstance(name, str):
        return name
    func = getattr(game_factory, "func", None)  # functools.partial
    name = getattr(func, "name", None)
    return name if isinstance(name, str) else getattr(game_factory, "__name__", "game")


def simulate(
    game_factory: Callable[..., Game],
    bots: Sequence[Any],
    n_games: int,
    seed: int = 0,
    executor: concurrent.futures.Executor | None = None,
    progress: bool = True,
    *,
    jobs: int = 1,
    rotate: bool = True,
    chunk_size: int | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    strict: bool = False,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
) -> SimulationResult:
    """Play ``n_games`` games and summarise them.

    ``game_factory(seed=...)`` makes one match: a game class (``HierroGame``) or a
    :func:`functools.partial` of one with its players and rules
    (``partial(HierroGame, players=4, rules=my_rules)``). ``bots`` lists one bot per seat
    (anything with ``choose(state, rng)``). ``seed`` fixes every game.

    The games run on ``executor`` if given (any :class:`concurrent.futures.Executor`; it is
    left open), else on a process pool of ``jobs`` workers when ``jobs > 1``, else here,
    ``chunk_size`` games at a time (None: chunks of about 0.2 s of play, so each game is kept
    soon after it ends). The results do not depend on where the games ran. ``progress``
    shows a tqdm bar.

    A game stopped after ``max_steps`` actions, or whose bot raises, is recorded unfinished
    and counted apart; ``strict=True`` raises :class:`RuntimeError` at the first one instead.
    ``out`` names a JSON Lines file that receives the run's description and then each game
    as it finishes; ``resume=True`` continues the run that file holds (the same arguments),
    playing only the games it lacks. Ctrl-C stops the run at once (a pool made here is
    stopped, its workers terminated); the file keeps every game that came back and the
    :class:`~coronas.manygames.runner.Interrupted` raised says how to continue.
    """
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 1:
        raise ValueError(
            f"the number of games must be a whole number of at least 1, got {n_games!r}"
        )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"the seed must be a whole number, got {seed!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number of at least 1, got {jobs!r}")
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be a whole number of at least 1, got {max_steps!r}")
    if resume and out is None:
        raise ValueError("resume=True needs the results file to continue: give out=")
    bots = list(bots)
    probe = game_factory(seed=seed)
    players = probe.num_players
    if len(bots) != players:
        raise ValueError(
            f"{probe.name} is set up for {players} players but {len(bots)} bots were given"
        )
    labels = _labels(bots)
    match = Match(NewGame(game_factory), tuple(bots), max_steps)
    # drawn afresh when called: the bar times the first game apart
    tasks = functools.partial(
        draw_tasks, seed, n_games, functools.partial(rotated_seats, players=players, rotate=rotate)
    )

    header = None
    if out is not None:
        params = {k: v for k, v in probe.params().items() if k != "seed"}
        header = {"run": "simulate", "game": probe.name, **params, "bots": labels, "seed": seed}
        header.update(games=n_games, rotate=rotate, max_steps=max_steps)
    records = run_games(
        match,
        tasks,
        n_games,
        out=out,
        header=header,
        resume=resume,
        progress=f"{probe.name} games" if progress else None,
        executor=executor,
        jobs=jobs,
        chunk_size=chunk_size,
        strict=strict,
    )
    return SimulationResult(
        game=_game_name(game_factory),
        n_games=n_games,
        seed=seed,
        labels=labels,
        num_players=players,
        records=records,
        game_factory=game_factory,
        bots=bots,
        max_steps=max_steps,
    )
