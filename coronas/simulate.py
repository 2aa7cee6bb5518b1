"""Many games at once: win rates with confidence intervals, game lengths, on any executor.

:func:`simulate` plays ``n_games`` games of one game with a list of bots and summarises them
in a :class:`SimulationResult`. It is built so that an analyst can trust and repeat a run:

* **Reproducible.** Every game gets its own seeds, drawn in order from ``random.Random(seed)``
  before any game is played, and the results are gathered back in game order. The same
  ``seed`` gives the same games and the same summary whether the games run in this process,
  on two worker processes or on a cluster.
* **Fair seating.** With ``rotate=True`` (the default) the bots change seats from one game to
  the next (game ``i`` seats bot ``j`` at seat ``(i + j) % players``), so a bot that moves
  first is not favoured in every game.
* **Any executor.** Games are sent in chunks to a :class:`concurrent.futures.Executor`: a
  :class:`~concurrent.futures.ProcessPoolExecutor` (``jobs=2``), or a dask.distributed
  client's ``client.get_executor()`` for a cluster. The game factory and the bots travel to
  the workers, so they must be importable objects (a game class, a
  :func:`functools.partial` of one, bot instances of module-level classes), not lambdas.
* **Progress.** A tqdm progress bar: text in a terminal, a widget in Jupyter.

Win rates are exact fractions of games won; their 95% Wilson score intervals, being
estimates of an unknown probability, are floats.

    from functools import partial
    from coronas.simulate import simulate
    from coronas.engine import RandomBot

    result = simulate(partial(SomeGame, players=2), [RandomBot(), GreedyBot()], 1000, seed=1)
    print(result)          # win rates, 95% intervals, game lengths
    result.plot()
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import math
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

from coronas.engine import CHANCE, Game, State, play

__all__ = ["GameRecord", "SimulationResult", "simulate", "wilson_interval"]

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: ``successes`` out of ``n`` trials.

    Unlike the textbook ``p ± z·sqrt(p(1-p)/n)`` it stays inside [0, 1] and is sensible for
    0 or ``n`` successes (Wilson, 1927).

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> wilson_interval(0, 10)[0]
    0.0
    """
    if n <= 0:
        raise ValueError(f"a confidence interval needs at least one trial, got n={n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n={n}, got {successes}")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """What one simulated game left behind (enough to replay it).

    ``seats[s]`` is the index (in the ``bots`` list) of the bot at seat ``s``; ``winners``
    and ``returns`` are by seat, as the game reports them; ``actions`` counts every applied
    action including chance outcomes, ``decisions`` only the players' choices.
    """

    index: int
    game_seed: int
    play_seed: int
    seats: tuple[int, ...]
    winners: tuple[int, ...]
    returns: tuple[Any, ...]
    actions: int
    decisions: int

    @property
    def winning_bots(self) -> tuple[int, ...]:
        """Indices (in the ``bots`` list) of the bots that won this game."""
        return tuple(sorted(self.seats[s] for s in self.winners))


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


def _play_one(
    game_factory: Callable[..., Game],
    bots: Sequence[Any],
    index: int,
    game_seed: int,
    play_seed: int,
    seats: tuple[int, ...],
    max_steps: int,
) -> tuple[State, GameRecord]:
    game = game_factory(seed=game_seed)
    state = game.new_initial_state()
    seated = [bots[b] for b in seats]
    decisions = 0

    def count(s: State, action: Any) -> None:
        nonlocal decisions
        if s.current_player != CHANCE:
            decisions += 1

    try:
        play(state, seated, random.Random(play_seed), max_steps=max_steps, callback=count)
    except RuntimeError as exc:
        raise RuntimeError(
            f"game {index} (game seed {game_seed}, play seed {play_seed}): {exc}"
        ) from None
    record = GameRecord(
        index=index,
        game_seed=game_seed,
        play_seed=play_seed,
        seats=seats,
        winners=tuple(state.winners()),
        returns=tuple(state.returns()),
        actions=len(state.history),
        decisions=decisions,
    )
    return state, record


def _play_chunk(
    game_factory: Callable[..., Game],
    bots: Sequence[Any],
    tasks: Sequence[tuple[int, int, int, tuple[int, ...]]],
    max_steps: int,
) -> list[GameRecord]:
    """Worker entry point: play a chunk of games (module level so processes can import it)."""
    return [_play_one(game_factory, bots, *task, max_steps)[1] for task in tasks]


@dataclasses.dataclass
class SimulationResult:
    """The summary of a :func:`simulate` run.

    ``labels[j]`` names ``bots[j]``; ``wins[j]`` counts the games bot ``j`` won (a shared
    victory counts for every winner, so win rates can add up to more than 1);
    ``records`` holds every game in order.
    """

    game: str
    n_games: int
    seed: int
    labels: list[str]
    num_players: int
    records: list[GameRecord]
    game_factory: Callable[..., Game] = dataclasses.field(repr=False, compare=False)
    bots: Sequence[Any] = dataclasses.field(repr=False, compare=False)
    max_steps: int = dataclasses.field(default=100_000, repr=False, compare=False)

    @property
    def wins(self) -> list[int]:
        counts = [0] * len(self.labels)
        for record in self.records:
            for b in set(record.winning_bots):
                counts[b] += 1
        return counts

    @property
    def shared(self) -> int:
        """How many games ended in a shared victory."""
        return sum(1 for r in self.records if len(r.winners) > 1)

    def win_rate(self, bot: int | str) -> Fraction:
        """The exact fraction of games that bot (index or label) won."""
        return Fraction(self.wins[self._index(bot)], self.n_games)

    def confidence_interval(self, bot: int | str, z: float = Z95) -> tuple[float, float]:
        """The 95% Wilson interval (or another ``z``) for that bot's winning probability."""
        return wilson_interval(self.wins[self._index(bot)], self.n_games, z)

    def _index(self, bot: int | str) -> int:
        if isinstance(bot, str):
            if bot not in self.labels:
                raise KeyError(f"no bot called {bot!r}; the bots are {', '.join(self.labels)}")
            return self.labels.index(bot)
        return bot

    @property
    def lengths(self) -> list[int]:
        """Number of player decisions in each game, in game order."""
        return [r.decisions for r in self.records]

    def length_summary(self) -> dict[str, float]:
        """Mean, median, minimum and maximum game length (player decisions), and the mean
        number of all actions including dice rolls and draws."""
        lengths = self.lengths
        return {
            "mean": statistics.fmean(lengths),
            "median": statistics.median(lengths),
            "min": min(lengths),
            "max": max(lengths),
            "mean_actions": statistics.fmean(r.actions for r in self.records),
        }

    def mean_returns(self) -> list[float]:
        """Each bot's mean final score over the games (where the game's scores are numbers)."""
        totals = [0.0] * len(self.labels)
        for record in self.records:
            for seat, bot in enumerate(record.seats):
                totals[bot] += float(record.returns[seat])
        return [t / self.n_games for t in totals]

    def rows(self) -> list[dict[str, Any]]:
        """One dict per bot: label, wins, exact win rate, interval, mean score."""
        try:
            means: list[float | None] = list(self.mean_returns())
        except (TypeError, ValueError):
            means = [None] * len(self.labels)
        out = []
        for j, label in enumerate(self.labels):
            lo, hi = self.confidence_interval(j)
            out.append(
                {
                    "bot": label,
                    "wins": self.wins[j],
                    "win_rate": self.win_rate(j),
                    "ci_low": lo,
                    "ci_high": hi,
                    "mean_score": means[j],
                }
            )
        return out

    def replay(self, index: int) -> State:
        """Play game ``index`` again from its seeds and return its final state, to look at
        what happened in it (``state.history``, ``print(state)``)."""
        record = self.records[index]
        state, again = _play_one(
            self.game_factory,
            self.bots,
            record.index,
            record.game_seed,
            record.play_seed,
            record.seats,
            self.max_steps,
        )
        if again != record:
            raise RuntimeError(f"game {index} did not replay the same: a bot is not seeded")
        return state

    @property
    def _mean_label(self) -> str:
        """The mean column's heading, in the game's words: ``mean VP``, ``mean wins``."""
        from coronas.engine import available_games

        return "mean " + getattr(available_games().get(self.game), "return_name", "score")

    def __str__(self) -> str:
        lines = [
            f"{self.game}: {self.n_games} games, {self.num_players} player"
            + ("s" if self.num_players != 1 else "")
            + f", seed {self.seed}",
            f"{'bot':<14}{'wins':>8}{'win rate':>10}{'95% interval':>18}{self._mean_label:>13}",
        ]
        for row in self.rows():
            score = "" if row["mean_score"] is None else f"{row['mean_score']:.2f}"
            interval = f"{row['ci_low']:.1%} - {row['ci_high']:.1%}"
            lines.append(
                f"{row['bot']:<14}{row['wins']:>8}{float(row['win_rate']):>10.1%}"
                f"{interval:>18}{score:>13}"
            )
        s = self.length_summary()
        lines.append(
            f"game length (decisions): mean {s['mean']:.1f}, median {s['median']:g}, "
            f"min {s['min']}, max {s['max']}; {s['mean_actions']:.1f} actions a game with "
            "dice and draws"
        )
        if self.shared:
            lines.append(f"{self.shared} games ended in a shared victory")
        return "\n".join(lines)

    def __repr__(self) -> str:
        rates = ", ".join(
            f"{label} {float(self.win_rate(j)):.1%}" for j, label in enumerate(self.labels)
        )
        return f"<SimulationResult {self.game}: {self.n_games} games, seed {self.seed}: {rates}>"

    def _repr_html_(self) -> str:
        from html import escape

        head = (
            "<tr><th>bot</th><th>wins</th><th>win rate</th><th>95% interval</th>"
            f"<th>{self._mean_label}</th></tr>"
        )
        body = []
        for row in self.rows():
            score = "" if row["mean_score"] is None else f"{row['mean_score']:.2f}"
            body.append(
                f"<tr><td>{escape(row['bot'])}</td><td>{row['wins']}</td>"
                f"<td>{row['win_rate']} ({float(row['win_rate']):.1%})</td>"
                f"<td>{row['ci_low']:.1%} – {row['ci_high']:.1%}</td><td>{score}</td></tr>"
            )
        s = self.length_summary()
        caption = (
            f"{escape(self.game)}: {self.n_games} games, {self.num_players} players, "
            f"seed {self.seed}"
        )
        foot = (
            f"<p>Game length: mean {s['mean']:.1f} decisions (median {s['median']:g}, "
            f"{s['min']}–{s['max']}).</p>"
        )
        return f"<table><caption>{caption}</caption>{head}{''.join(body)}</table>{foot}"

    def plot(self, ax: Any = None) -> Any:
        """Win rates with their 95% intervals, and the histogram of game lengths.

        Returns the matplotlib figure (matplotlib is imported only here).
        """
        import matplotlib.pyplot as plt

        if ax is None:
            fig, (ax_win, ax_len) = plt.subplots(1, 2, figsize=(9, 3.5))
        else:
            ax_win, ax_len = ax
            fig = ax_win.figure
        rows = self.rows()
        rates = [float(r["win_rate"]) for r in rows]
        errors = [
            [max(0.0, rate - r["ci_low"]) for rate, r in zip(rates, rows, strict=True)],
            [max(0.0, r["ci_high"] - rate) for rate, r in zip(rates, rows, strict=True)],
        ]
        ax_win.bar(self.labels, rates, yerr=errors, capsize=6, color="#4c72b0")
        ax_win.set_ylabel("win rate (95% Wilson interval)")
        ax_win.set_ylim(0, 1)
        ax_win.set_title(f"{self.game}: {self.n_games} games")
        ax_len.hist(self.lengths, bins=min(30, max(5, len(set(self.lengths)))), color="#dd8452")
        ax_len.set_xlabel("player decisions in the game")
        ax_len.set_ylabel("games")
        ax_len.set_title("game length")
        fig.tight_layout()
        return fig


def _game_name(game_factory: Callable[..., Game]) -> str:
    name = getattr(game_factory, "name", None)
    if isinstance(name, str):
        return name
    func = getattr(game_factory, "func", None)  # functools.partial
    name = getattr(func, "name", None)
    return name if isinstance(name, str) else getattr(game_factory, "__name__", "game")


_IN_FLIGHT = 256
"""Chunks sent to an executor ahead of the results: the games' seeds are drawn as the run
goes, so a million games never sit in memory as tasks all at once."""


def _chunks(
    seed: int, n_games: int, players: int, rotate: bool, chunk_size: int
) -> Iterator[list[tuple[int, int, int, tuple[int, ...]]]]:
    """The games' tasks ``(index, game seed, play seed, seats)``, ``chunk_size`` at a time,
    drawn in game order from ``random.Random(seed)`` (so the same for any chunk size)."""
    master = random.Random(seed)
    for start in range(0, n_games, chunk_size):
        chunk = []
        for i in range(start, min(n_games, start + chunk_size)):
            shift = i % players if rotate else 0
            seats = tuple((s - shift) % players for s in range(players))
            chunk.append((i, master.getrandbits(63), master.getrandbits(63), seats))
        yield chunk


def _run_on(
    executor: concurrent.futures.Executor,
    chunks: Iterator[list[tuple[int, int, int, tuple[int, ...]]]],
    results: list[list[GameRecord] | None],
    bar: Any,
    match: tuple[Callable[..., Game], Sequence[Any]],
    max_steps: int,
) -> None:
    """Play the chunks on ``executor``, at most ``_IN_FLIGHT`` at a time, into ``results``
    (by chunk number, so in game order whatever finishes first)."""
    pending: dict[concurrent.futures.Future, tuple[int, int]] = {}
    numbered = enumerate(chunks)

    def send() -> None:
        for k, chunk in numbered:
            pending[executor.submit(_play_chunk, *match, chunk, max_steps)] = (k, len(chunk))
            return

    try:
        for _ in range(_IN_FLIGHT):
            send()
        while pending:
            done, _ = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED
            )
            for future in done:
                k, n = pending.pop(future)
                results[k] = future.result()
                if bar is not None:
                    bar.update(n)
                send()
    except BaseException:
        for future in pending:
            future.cancel()
        raise


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
    max_steps: int = 100_000,
) -> SimulationResult:
    """Play ``n_games`` games and summarise them.

    ``game_factory(seed=...)`` makes one match: a game class (``HierroGame``) or a
    :func:`functools.partial` of one with its players and rules
    (``partial(HierroGame, players=4, rules=my_rules)``). ``bots`` lists one bot per seat
    (anything with ``choose(state, rng)``). ``seed`` fixes every game.

    The games run on ``executor`` if given (any :class:`concurrent.futures.Executor`; it is
    left open), else on a process pool of ``jobs`` workers when ``jobs > 1``, else here.
    The results do not depend on where the games ran. ``progress`` shows a tqdm bar.
    """
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 1:
        raise ValueError(
            f"the number of games must be a whole number of at least 1, got {n_games!r}"
        )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"the seed must be a whole number, got {seed!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number of at least 1, got {jobs!r}")
    bots = list(bots)
    probe = game_factory(seed=seed)
    players = probe.num_players
    if len(bots) != players:
        raise ValueError(
            f"{probe.name} is set up for {players} players but {len(bots)} bots were given"
        )

    if chunk_size is None:
        chunk_size = max(1, min(200, n_games // 64 or 1))
    n_chunks = -(-n_games // chunk_size)
    chunks = _chunks(seed, n_games, players, rotate, chunk_size)

    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n_games, desc=f"{probe.name} games", unit="game")

    results: list[list[GameRecord] | None] = [None] * n_chunks
    own_pool = None
    try:
        if executor is None and jobs > 1:
            own_pool = executor = concurrent.futures.ProcessPoolExecutor(jobs)
        if executor is None:
            for k, chunk in enumerate(chunks):
                results[k] = _play_chunk(game_factory, bots, chunk, max_steps)
                if bar is not None:
                    bar.update(len(chunk))
        else:
            _run_on(executor, chunks, results, bar, (game_factory, bots), max_steps)
    finally:
        if own_pool is not None:
            own_pool.shutdown(cancel_futures=True)
        if bar is not None:
            bar.close()

    records = [record for chunk in results if chunk is not None for record in chunk]
    return SimulationResult(
        game=_game_name(game_factory),
        n_games=n_games,
        seed=seed,
        labels=_labels(bots),
        num_players=players,
        records=records,
        game_factory=game_factory,
        bots=bots,
        max_steps=max_steps,
    )
