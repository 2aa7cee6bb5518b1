"""Who wins from here: each seat's chance of winning the game from a position.

One roll's odds are exact; the rest of a game is not small enough to walk, so the chance of
winning it is an estimate: the games are played out from the position many times, with every
seat played by a named bot, and each seat's share of the wins is counted. As gnubg does for
backgammon rollouts, the figure is never shown without what it rests on: its 95% interval,
the number of games, and the assumption about how the rest of the game is played ("every seat
plays like greedy"). Where the rest of the game *is* small enough under those bots, the answer
is the exact fraction, labelled exact.

A tie is shared: a game won by k seats together gives each of them 1/k of a win, so the
chances of the seats add up to 1.

From a seat's view (``viewer=p``) each game starts from a position resampled from what seat
``p`` has seen (the game's ``resample``), never from the true hidden cards: that is the figure
a player at the table may be shown. Without a viewer the games start from the true position,
which only an analyst who sees every card may ask for; the result says which it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from coronas.engine.evaluation import shares, win_shares
from coronas.engine.state import State
from coronas.intervals import share_interval
from coronas.runner import DEFAULT_MAX_STEPS, Match, Task, draw_tasks, run

__all__ = ["DEFAULT_BOT", "FromPosition", "WinChances", "exact_win_chances", "win_chances"]


@dataclasses.dataclass(frozen=True, repr=False)
class WinChances:
    """Each seat's chance of winning from one position, with what the figure rests on.

    ``chances[p]`` is seat ``p``'s chance: an exact :class:`~fractions.Fraction` when
    ``exact``, else the estimate (wins, a shared win counted 1/k, over ``games``) as a
    Fraction too, with ``low[p]``/``high[p]`` its 95% Wilson interval. ``assumption`` says how
    the rest of the game was played; ``view`` whose information the games started from.
    ``unfinished`` counts games that reached the step cap (left out of the figures).
    """

    names: tuple[str, ...]
    chances: tuple[Fraction, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    games: int
    exact: bool
    assumption: str
    view: str
    unfinished: int = 0

    @property
    def half_width(self) -> float:
        """The widest interval's half-width (0 for an exact answer)."""
        return max((h - lo) / 2 for lo, h in zip(self.low, self.high, strict=True))

    def _seat_text(self, p: int) -> str:
        chance = float(self.chances[p])
        if self.exact:
            return f"{self.names[p]} {self.chances[p]} ({chance:.1%})"
        return f"{self.names[p]} {chance:.1%} ({self.low[p]:.1%}-{self.high[p]:.1%})"

    def basis(self) -> str:
        """What the figures rest on, in words."""
        if self.exact:
            how = "exact"
        else:
            how = f"{self.games} games, 95% intervals"
            if self.unfinished:
                how += f"; {self.unfinished} unfinished games left out"
        return f"{how}; {self.assumption}; {self.view}"

    def __str__(self) -> str:
        seats = ", ".join(self._seat_text(p) for p in range(len(self.names)))
        return f"{seats} [{self.basis()}]"

    def __repr__(self) -> str:
        return f"<WinChances {self}>"

    def _repr_html_(self) -> str:
        from html import escape

        rows = []
        for p, name in enumerate(self.names):
            chance = float(self.chances[p])
            interval = "exact" if self.exact else f"{self.low[p]:.1%} – {self.high[p]:.1%}"
            figure = f"{self.chances[p]} ({chance:.1%})" if self.exact else f"{chance:.1%}"
            band = (
                ""
                if self.exact
                else f'<div class="coronas-win-interval" title="95% interval: {interval}" '
                f'style="position:absolute;top:-2px;bottom:-2px;left:{self.low[p] * 100:.1f}%;'
                f"width:{(self.high[p] - self.low[p]) * 100:.1f}%;border:2px solid #222;"
                'box-sizing:border-box"></div>'
            )
            bar = (
                '<div class="coronas-win-bar" style="background:#ddd;width:12em;height:0.9em;'
                'position:relative">'
                f'<div style="background:#4c72b0;width:{chance * 100:.1f}%;height:100%"></div>'
                f"{band}</div>"
            )
            rows.append(
                f"<tr><td>{escape(name)}</td><td>{figure}</td><td>{interval}</td>"
                f"<td>{bar}</td></tr>"
            )
        return (
            "<table><caption>Who wins from here</caption>"
            "<tr><th>seat</th><th>chance</th><th>95% interval</th><th></th></tr>"
            f"{''.join(rows)}</table><p>{escape(self.basis())}</p>"
        )

    def plot(self, ax: Any = None) -> Any:
        """A bar per seat with its 95% interval as an error bar; returns the figure."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(1.5 + 1.2 * len(self.names), 3.2))
        values = [float(c) for c in self.chances]
        errors = [
            [max(0.0, v - lo) for v, lo in zip(values, self.low, strict=True)],
            [max(0.0, hi - v) for v, hi in zip(values, self.high, strict=True)],
        ]
        ax.bar(self.names, values, yerr=None if self.exact else errors, capsize=6, color="#4c72b0")
        ax.set_ylim(0, 1)
        ax.set_ylabel("chance of winning" + ("" if self.exact else " (95% interval)"))
        ax.set_title(self.basis(), fontsize=9)
        ax.figure.tight_layout()
        return ax.figure


def from_counts(
    names: Sequence[str],
    totals: Sequence[Fraction],
    games: int,
    assumption: str,
    view: str,
    unfinished: int = 0,
    squares: Sequence[Fraction] | None = None,
) -> WinChances:
    """An estimate from ``totals[p]`` (seat ``p``'s wins, shared ones counted 1/k) in
    ``games`` finished games; ``squares[p]`` sums the squares of its shares (by default
    ``totals``: no game shared), for the interval (:func:`share_interval`)."""
    chances = tuple(Fraction(t) / games for t in totals)
    squares = totals if squares is None else squares
    intervals = [
        share_interval(float(t), float(q), games) for t, q in zip(totals, squares, strict=True)
    ]
    return WinChances(
        names=tuple(names),
        chances=chances,
        low=tuple(lo for lo, _ in intervals),
        high=tuple(hi for _, hi in intervals),
        games=games,
        exact=False,
        assumption=assumption,
        view=view,
        unfinished=unfinished,
    )


def exact_chances(
    names: Sequence[str], chances: Sequence[Fraction], assumption: str, view: str
) -> WinChances:
    """An exact answer: every interval is the point itself."""
    values = tuple(Fraction(c) for c in chances)
    return WinChances(
        names=tuple(names),
        chances=values,
        low=tuple(float(c) for c in values),
        high=tuple(float(c) for c in values),
        games=0,
        exact=True,
        assumption=assumption,
        view=view,
    )


def policy_of(bot: Any) -> Any:
    """The bot's mixed strategy ``policy(state) -> [(action, probability), ...]`` if it states
    one (the random bot: the uniform mix over the legal actions), else None: only such bots
    can be followed by an exact walk."""
    policy = getattr(bot, "policy", None)
    return policy if callable(policy) else None


def exact_win_chances(
    state: State, bots: Sequence[Any], max_nodes: int = 100_000, max_states: int = 5_000
) -> tuple[Fraction, ...] | None:
    """Each seat's exact chance of winning when ``bots[p]`` plays seat ``p`` from ``state``,
    or None when it cannot be had: a bot that states no mixed strategy, a game tree larger
    than ``max_nodes`` nodes, or play with cycles over more than ``max_states`` positions.

    The tree is walked by :func:`~coronas.engine.exact_distribution`; where play can return
    to a position, the positions are solved as a Markov chain
    (:func:`~coronas.engine.chains.absorption_distribution`).
    """
    from coronas.engine.chains import absorption_distribution
    from coronas.engine.search import UnfinishedWalk, exact_distribution

    policies = [policy_of(b) for b in bots]
    if any(p is None for p in policies):
        return None
    table = dict(enumerate(policies))
    try:
        dist = exact_distribution(state, table, _exact_shares, max_nodes=max_nodes)
    except UnfinishedWalk as exc:
        if not exc.cycle:
            return None
        try:
            dist = absorption_distribution(state, table, _exact_shares, max_states=max_states)
        except UnfinishedWalk:
            return None
    except RuntimeError:  # more than max_nodes nodes
        return None
    return tuple(
        sum((p * shares[seat] for shares, p in dist.items()), Fraction(0))
        for seat in range(state.num_players)
    )


def describe_bots(names: Sequence[str], labels: Sequence[str]) -> str:
    """``every seat plays like greedy`` or ``red plays like mcts, green like greedy...``."""
    if len(set(labels)) == 1:
        return f"every seat plays like {labels[0]}"
    return ", ".join(
        f"{n} plays like {b}" if i == 0 else f"{n} like {b}"
        for i, (n, b) in enumerate(zip(names, labels, strict=True))
    )


def _exact_shares(state: State) -> tuple[Fraction, ...]:
    return win_shares(state, exact=True)


def bot_label(bot: Any) -> str:
    name = getattr(bot, "name", None)
    if isinstance(name, str):
        return name
    return getattr(bot, "__name__", type(bot).__name__)


DEFAULT_BOT = "light"
"""Who plays the rest of the game by default: each game's light playout policy (its
``playout.LightBot``), the fastest bot that plays sensibly (about 100 to 200 games a second on
one core, where a greedy bot plays 5 to 35 and a search bot one game in tens of seconds), so a
first figure comes within a second and a narrow one within a minute."""


def seat_bots(state: State, bots: Any) -> list[Any]:
    """One bot per seat from ``bots``: None (the game's :data:`DEFAULT_BOT`), a name
    (``"greedy"``, ``"mcts:200"``) or a bot for every seat, or a list of them, one per seat."""
    n = state.num_players
    if bots is None:
        bots = DEFAULT_BOT if DEFAULT_BOT in state.game.bots() else "random"
    seated = list(bots) if isinstance(bots, (list, tuple)) else [bots] * n
    if len(seated) != n:
        raise ValueError(f"{len(seated)} bots for {n} seats: give one bot, or one per seat")
    return [state.game.bot(b) if isinstance(b, str) else b for b in seated]


class FromPosition:
    """The start of every game of an estimate: ``start(game_seed)`` is ``state`` drawn again
    for ``viewer`` (:meth:`~coronas.engine.State.resample` with ``random.Random(game_seed)``),
    or a copy without a viewer, with ``action`` applied if one is given. A module-level class,
    so that worker processes can receive it."""

    def __init__(self, state: State, viewer: int | None = None, action: Any = None):
        self.state, self.viewer, self.action = state, viewer, action

    def __call__(self, game_seed: int) -> State:
        import random

        if self.viewer is None:
            start = self.state.clone()
        else:
            start = self.state.resample(self.viewer, random.Random(game_seed))
        if self.action is not None:
            start.apply(self.action)
        return start


class Budget:
    """When to stop: ``games`` played, every half-width at most ``precision``, or ``time``
    seconds gone (with none of them: 0.02 or 30 s)."""

    def __init__(self, games: int | None, precision: float | None, time: float | None):
        import time as clock

        if games is not None and (
            isinstance(games, bool) or not isinstance(games, int) or games < 1
        ):
            raise ValueError(f"games must be a whole number of at least 1, got {games!r}")
        if precision is not None and not 0 < precision < 1:
            raise ValueError(f"precision is a half-width between 0 and 1, got {precision!r}")
        if time is not None and not time > 0:
            raise ValueError(f"time is a number of seconds above 0, got {time!r}")
        if games is None and precision is None and time is None:
            precision, time = 0.02, 30.0
        self.games, self.precision, self.time = games, precision, time
        self.clock = clock.monotonic
        self.started = clock.monotonic()

    def next_batch(self, played: int, batch: int) -> int:
        return batch if self.games is None else min(batch, self.games - played)

    def done(self, played: int, half_width: float | None) -> bool:
        if self.games is not None and played >= self.games:
            return True
        if self.precision is not None and half_width is not None and half_width <= self.precision:
            return True
        return self.time is not None and self.clock() - self.started >= self.time


class Games:
    """Seeded games from a position, in batches, on any executor: the tasks are drawn once
    from ``seed`` and every start (one per action compared) plays the same tasks, so that
    actions are compared on common random numbers."""

    def __init__(
        self,
        bots: Sequence[Any],
        seed: int | None,
        executor: Any,
        jobs: int,
        max_steps: int,
    ):
        import random

        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
            raise ValueError(f"jobs must be a whole number of at least 1, got {jobs!r}")
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        seats = tuple(range(len(bots)))
        self.tasks = draw_tasks(seed, 10**12, lambda i: seats)
        self.bots = tuple(bots)
        self.max_steps = max_steps
        self.executor = executor
        self.jobs = jobs
        self._pool: Any = None

    def __enter__(self) -> Games:
        if self.executor is None and self.jobs > 1:
            import concurrent.futures

            from coronas.runner import _quiet_worker

            self._pool = self.executor = concurrent.futures.ProcessPoolExecutor(
                self.jobs, initializer=_quiet_worker
            )
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

    def draw(self, n: int) -> list[Task]:
        return [next(self.tasks) for _ in range(n)]

    def play(self, start: FromPosition, tasks: list[Task]) -> Played:
        """The games of ``tasks`` from ``start``, summed up (:class:`Played`)."""
        match = Match(start, self.bots, self.max_steps)
        chunk = max(1, len(tasks) // (2 * self.jobs)) if self.executor is not None else 16
        records = run(match, tasks, executor=self.executor, chunk_size=chunk)
        n = len(self.bots)
        got = Played([Fraction(0)] * n, [Fraction(0)] * n, 0, 0, [])
        for r in records:
            if not r.finished:
                got.unfinished += 1
                got.per_game.append(None)
                continue
            got.ended += 1
            won = shares(r.winners, n, exact=True)
            got.per_game.append(won)
            for p, share in enumerate(won):
                got.totals[p] += share
                got.squares[p] += share * share
        return got


@dataclasses.dataclass
class Played:
    """A batch of games: each seat's total share of the wins and the sum of its squared
    shares over the games that ended, how many ended and did not, and each game's shares in
    task order (None for a game that did not end)."""

    totals: list[Fraction]
    squares: list[Fraction]
    ended: int
    unfinished: int
    per_game: list[tuple[Fraction, ...] | None]


def view_of(state: State, viewer: int | None) -> str:
    names = [state.player_name(p) for p in range(state.num_players)]
    if viewer is None:
        secrets = type(state).resample is not State.resample
        return "full information (every hidden card seen)" if secrets else "open position"
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < len(names):
        raise ValueError(f"viewer must be a seat from 0 to {len(names) - 1}, got {viewer!r}")
    return f"from {names[viewer]}'s view"


def exact_allowed(state: State, viewer: int | None) -> bool:
    """An exact walk sees the true position: not for a viewer in a game with secrets."""
    return viewer is None or type(state).resample is State.resample


def win_chances(
    state: State,
    bots: Any = None,
    *,
    games: int | None = None,
    precision: float | None = None,
    time: float | None = None,
    seed: int | None = 0,
    exact: bool = True,
    viewer: int | None = None,
    executor: Any = None,
    jobs: int = 1,
    max_steps: int = DEFAULT_MAX_STEPS,
    batch: int = 20,
    on_update: Any = None,
    progress: bool = False,
) -> WinChances:
    """Each seat's chance of winning from ``state`` when ``bots`` play the rest of the game.

    ``bots`` is None (every seat played by the game's light playout policy,
    :data:`DEFAULT_BOT`), a bot or a bot's name for every seat (``"greedy"``), or one per
    seat. With ``exact`` (the default) the exact answer is returned where it can be had
    (:func:`exact_win_chances`: every bot states its mixed strategy and the rest of the game
    can be walked or solved as a chain). Otherwise the games are played out, ``batch`` at a
    time, until ``games`` have been played, every interval's half-width is at most
    ``precision``, or ``time`` seconds have passed, whichever comes first (with none of the
    three: 0.02 or 30 s). ``on_update(chances)`` is called after each batch with the figures
    so far; ``progress`` shows a tqdm bar.

    The games go through :func:`coronas.runner.run`: on ``executor`` (any
    :class:`concurrent.futures.Executor`, a dask client's included) or a process pool of
    ``jobs`` workers. ``seed`` fixes them: each game has its own seeds, drawn in order, so the
    same seed gives the same figures on any executor, and a run stopped by time equals the
    first games of a longer one (None: a seed from the operating system).

    ``viewer=p`` starts each game from ``state.resample(p, ...)``, a position drawn from what
    seat ``p`` has seen; without a viewer the true position is used (the figure an analyst may
    see, labelled "full information" in a game with hidden cards).
    """
    n = state.num_players
    seated = seat_bots(state, bots)
    names = [state.player_name(p) for p in range(n)]
    assumption = describe_bots(names, [bot_label(b) for b in seated])
    view = view_of(state, viewer)
    if state.is_terminal():
        return exact_chances(names, win_shares(state, exact=True), assumption, view)
    if exact and exact_allowed(state, viewer):
        chances = exact_win_chances(state, seated)
        if chances is not None:
            return exact_chances(names, chances, assumption, view)
    budget = Budget(games, precision, time)
    start = FromPosition(state, viewer)
    totals = [Fraction(0)] * n
    squares = [Fraction(0)] * n
    played = unfinished = 0
    result: WinChances | None = None
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=games, desc="games from here", unit="game")
    try:
        with Games(seated, seed, executor, jobs, max_steps) as runs:
            size = batch * max(1, jobs)
            while True:
                tasks = runs.draw(budget.next_batch(played + unfinished, size))
                got = runs.play(start, tasks)
                totals = [t + g for t, g in zip(totals, got.totals, strict=True)]
                squares = [q + g for q, g in zip(squares, got.squares, strict=True)]
                played += got.ended
                unfinished += got.unfinished
                if bar is not None:
                    bar.update(len(tasks))
                if played:
                    result = from_counts(
                        names, totals, played, assumption, view, unfinished, squares
                    )
                    if on_update is not None:
                        on_update(result)
                if budget.done(played + unfinished, result.half_width if result else None):
                    break
    finally:
        if bar is not None:
            bar.close()
    if result is None:
        raise RuntimeError(f"none of the {unfinished} games ended within {max_steps} steps")
    return result
