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

import contextlib
import dataclasses
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from coronas.engine.evaluation import shares, win_shares
from coronas.engine.state import State
from coronas.manygames.intervals import share_interval
from coronas.manygames.runner import DEFAULT_MAX_STEPS, Match, Task, draw_tasks, run

__all__ = [
    "DEFAULT_BOT",
    "EXACT_SECONDS",
    "EXACT_SHARE",
    "MAX_BATCH",
    "BotError",
    "FromPosition",
    "WinChances",
    "exact_win_chances",
    "win_chances",
]

EXACT_SHARE = 0.25
"""The share of a ``time`` budget an exact attempt may use before it gives up and leaves the
rest to the games: an attempt that succeeds is usually quick (small games, a few last
actions), one that fails would otherwise hold the estimate up for minutes."""
EXACT_SECONDS = 10.0
"""How long an exact attempt may take when no ``time`` is given."""
EXACT_MAX_STATES = 5_000
"""The most positions an exact attempt solves as a Markov chain: one that reaches more fails
as soon as it finds the 5,001st (under a second in the three games)."""
MAX_BATCH = 10_000
"""The most games a batch (per worker) may have."""
MAX_GAMES = 10**9
MAX_JOBS = 1024
MAX_STEPS = 10**9
MAX_SEED = 2**63 - 1


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
    state: State,
    bots: Sequence[Any],
    max_nodes: int = 100_000,
    max_states: int = EXACT_MAX_STATES,
    deadline: float | None = None,
) -> tuple[Fraction, ...] | None:
    """Each seat's exact chance of winning when ``bots[p]`` plays seat ``p`` from ``state``,
    or None when it cannot be had: a bot that states no mixed strategy, a game tree larger
    than ``max_nodes`` nodes, play with cycles over more than ``max_states`` positions, or
    a walk still going at ``deadline`` (a :func:`time.monotonic` reading): an attempt that
    fails costs at most the time it was given.

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
        dist = exact_distribution(
            state, table, _exact_shares, max_nodes=max_nodes, deadline=deadline
        )
    except UnfinishedWalk as exc:
        if not exc.cycle:
            return None
        try:
            dist = absorption_distribution(
                state, table, _exact_shares, max_states=max_states, deadline=deadline
            )
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
    (``"greedy"``, ``"mcts:200"``) or a bot for every seat, or a list of them, one per seat.
    Anything else is refused here, before a game is played: a :class:`TypeError` naming it
    (a bot is a name, an object with ``choose(state, rng)`` or a function ``f(state, rng)``)
    or the :class:`ValueError` of an unknown name."""
    n = state.num_players
    if bots is None:
        bots = DEFAULT_BOT if DEFAULT_BOT in state.game.bots() else "random"
    seated = list(bots) if isinstance(bots, (list, tuple)) else [bots] * n
    if len(seated) != n:
        raise ValueError(f"{len(seated)} bots for {n} seats: give one bot, or one per seat")
    for bot in seated:
        if not (isinstance(bot, str) or hasattr(bot, "choose") or callable(bot)):
            raise TypeError(
                "bots: a bot is a name such as 'greedy', an object with a "
                f"choose(state, rng) method or a function f(state, rng), got {bot!r}"
            )
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


def _whole(value: Any, low: int, high: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def _positive(value: Any) -> bool:
    real = isinstance(value, (int, float, Fraction)) and not isinstance(value, bool)
    return real and math.isfinite(value) and value > 0


def check_options(
    *,
    jobs: Any,
    batch: Any,
    max_steps: Any,
    seed: Any,
    exact: Any,
    on_update: Any,
) -> None:
    """Refuse a bad option of :func:`win_chances` or :func:`~coronas.manygames.moves.rank_actions`
    with a :class:`ValueError` naming it, before anything is played or walked."""
    if not _whole(jobs, 1, MAX_JOBS):
        raise ValueError(f"jobs must be a whole number from 1 to {MAX_JOBS}, got {jobs!r}")
    if not _whole(batch, 1, MAX_BATCH):
        raise ValueError(f"batch must be a whole number from 1 to {MAX_BATCH}, got {batch!r}")
    if not _whole(max_steps, 1, MAX_STEPS):
        raise ValueError(
            f"max_steps must be a whole number from 1 to {MAX_STEPS}, got {max_steps!r}"
        )
    if seed is not None and not _whole(seed, 0, MAX_SEED):
        raise ValueError(f"seed must be None or a whole number from 0 to 2**63-1, got {seed!r}")
    if not isinstance(exact, bool):
        raise ValueError(f"exact must be True or False, got {exact!r}")
    if on_update is not None and not callable(on_update):
        raise ValueError(f"on_update must be a function of the figures, got {on_update!r}")


class Budget:
    """When to stop: ``games`` played, every half-width at most ``precision``, or ``time``
    seconds gone (with none of them: 0.02 or 30 s).

    The clock starts when the budget is made, before any exact attempt, so ``time`` bounds
    everything: an exact attempt may use :data:`EXACT_SHARE` of it (:meth:`exact_deadline`),
    and the games are sized to end within the rest (:meth:`next_batch`, :meth:`done`)."""

    def __init__(self, games: Any, precision: Any, time: Any):
        import time as clock

        if games is not None and not _whole(games, 1, MAX_GAMES):
            raise ValueError(f"games must be a whole number from 1 to {MAX_GAMES}, got {games!r}")
        if precision is not None and not (_positive(precision) and precision < 1):
            raise ValueError(f"precision is a half-width between 0 and 1, got {precision!r}")
        if time is not None and not _positive(time):
            raise ValueError(f"time is a number of seconds above 0, got {time!r}")
        if games is None and precision is None and time is None:
            precision, time = 0.02, 30.0
        self.games, self.precision = games, precision
        self.time = None if time is None else float(time)
        self.clock = clock.monotonic
        self.started = clock.monotonic()

    def remaining(self) -> float:
        """Seconds left of ``time`` (infinite without a time limit)."""
        if self.time is None:
            return math.inf
        return self.time - (self.clock() - self.started)

    def exact_deadline(self) -> float:
        """When an exact attempt gives up (a :func:`time.monotonic` reading):
        :data:`EXACT_SHARE` of ``time`` from the start, or :data:`EXACT_SECONDS` without a
        time limit. The games have the rest."""
        share = EXACT_SECONDS if self.time is None else EXACT_SHARE * self.time
        return self.started + share

    def next_batch(self, played: int, batch: int) -> int:
        """How many games to draw for the next batch (in a ranking, games an action):
        ``batch``, no more than ``games`` leaves. The batches' ends, where the figures are
        shown and ``precision`` is checked, do not depend on the clock, so a run stopped by
        precision is the same on any machine; the time is kept within a batch
        (:func:`play_batch`)."""
        return batch if self.games is None else max(1, min(batch, self.games - played))

    def piece(self, left: int, cost: float | None, parallel: int) -> int:
        """How many of a batch's ``left`` games to play now: all of them without a time
        limit; with one, as many as end in the time left at ``cost`` seconds each (a game,
        or a game for every action) on ``parallel`` workers, 0 when not one more does, and
        one a worker while the cost is unknown."""
        if self.time is None:
            return left
        if cost is None:
            return min(left, parallel)
        return min(left, int(max(0.0, self.remaining()) / cost) * parallel)

    def done(self, played: int, half_width: float | None, cost: float | None = None) -> bool:
        """Whether to stop after ``played`` games: ``games`` reached, ``precision`` met, the
        time up, or too little of it left for one more game (one more an action) at ``cost``
        seconds."""
        if self.games is not None and played >= self.games:
            return True
        if self.precision is not None and half_width is not None and half_width <= self.precision:
            return True
        if self.time is None:
            return False
        left = self.remaining()
        return left <= 0 or (played > 0 and cost is not None and cost > left)


def game_cost(seconds: float, games: int, parallel: int) -> float:
    """The seconds one game (in a ranking, one game an action) takes on one worker, from
    ``games`` of them that took ``seconds`` on ``parallel`` workers, at most ``parallel``
    at a time; never below a microsecond, so it always divides."""
    return max(1e-6, seconds * min(parallel, games) / max(1, games))


def play_batch(
    budget: Budget,
    size: int,
    parallel: int,
    cost: float | None,
    play: Callable[[int, int], None],
) -> tuple[int, float | None]:
    """Play a batch of ``size`` games (in a ranking, games an action) as ``play(lo, hi)``,
    its games ``lo`` to ``hi - 1``: at once without a time limit; with one, in pieces
    (:meth:`Budget.piece`), the first of one game a worker to measure what a game costs,
    and no piece started that would not end in time. Returns how many were played (fewer
    than ``size`` when time ran out: the run then stops) and the cost per game, as last
    measured. With nothing measured yet (``cost`` None) one piece is always played: an
    estimate needs a game."""
    done = 0
    while done < size:
        n = budget.piece(size - done, cost, parallel)
        if n <= 0:
            break
        began = budget.clock()
        play(done, done + n)
        cost = game_cost(budget.clock() - began, n, parallel)
        done += n
    return done, cost


class BotError(RuntimeError):
    """A game played out from the position failed: a bot (or the game) raised. The message
    is the game's seeds and the error's own words; the estimate stops at once rather than
    count such games as unfinished."""


class Games:
    """Seeded games from a position, in batches, on any executor: the tasks are drawn once
    from ``seed`` and every start (one per action compared) plays the same tasks, so that
    actions are compared on common random numbers. With ``jobs > 1`` and no executor the
    games run on a pool of worker processes that ignore Ctrl-C and are terminated when the
    run is left by an exception (:func:`~.runner.worker_pool`): one Ctrl-C stops it."""

    def __init__(
        self,
        bots: Sequence[Any],
        seed: int | None,
        executor: Any,
        jobs: int,
        max_steps: int,
    ):
        import random

        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        seats = tuple(range(len(bots)))
        self.tasks = draw_tasks(seed, 10**12, lambda i: seats)
        self.bots = tuple(bots)
        self.max_steps = max_steps
        self.executor = executor
        self.jobs = jobs
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> Games:
        if self.executor is None and self.jobs > 1:
            from coronas.manygames.runner import worker_pool

            self.executor = self._stack.enter_context(worker_pool(self.jobs))
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stack.__exit__(*exc)

    def draw(self, n: int) -> list[Task]:
        return [next(self.tasks) for _ in range(n)]

    def play(self, start: FromPosition, tasks: list[Task]) -> Played:
        """The games of ``tasks`` from ``start``, summed up (:class:`Played`). A game whose
        bot raised stops everything with a :class:`BotError` carrying the bot's message."""
        match = Match(start, self.bots, self.max_steps)
        chunk = max(1, len(tasks) // (2 * self.jobs)) if self.executor is not None else 16
        records = run(match, tasks, executor=self.executor, chunk_size=chunk)
        n = len(self.bots)
        got = Played([Fraction(0)] * n, [Fraction(0)] * n, 0, 0, [])
        for r in records:
            if r.outcome == "error":
                raise BotError(
                    f"a game played out from here failed (game seed {r.game_seed}, play seed "
                    f"{r.play_seed}): {r.message}"
                )
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
        secrets = state.game.has_secrets
        return "full information (every hidden card seen)" if secrets else "open position"
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < len(names):
        raise ValueError(f"viewer must be a seat from 0 to {len(names) - 1}, got {viewer!r}")
    return f"from {names[viewer]}'s view"


def exact_allowed(state: State, viewer: int | None) -> bool:
    """An exact walk sees the true position: not for a viewer in a game with secrets."""
    return viewer is None or not state.game.has_secrets


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
    time (1 to :data:`MAX_BATCH`), until ``games`` have been played, every interval's
    half-width is at most ``precision``, or ``time`` seconds have passed, whichever comes
    first (with none of the three: 0.02 or 30 s). ``on_update(chances)`` is called after each
    batch with the figures so far; ``progress`` shows a tqdm bar.

    ``time`` bounds the whole call: the clock starts before the exact attempt, which gives up
    after :data:`EXACT_SHARE` of it (:data:`EXACT_SECONDS` without a time limit), and the
    games then have the rest: a batch is played in pieces, the first of one game a worker
    measuring what a game costs, and no piece is started that would not end in time (the
    last batch is then cut short: fewer games, wider intervals). The batches' ends, where
    ``precision`` is checked, do not depend on the clock. At least one game is played, so a
    bot slower than the whole budget overruns it.

    The games go through :func:`coronas.manygames.runner.run`: on ``executor`` (any
    :class:`concurrent.futures.Executor`, a dask client's included) or a process pool of
    ``jobs`` workers, stopped at once by Ctrl-C. ``seed`` fixes them: each game has its own
    seeds, drawn in order, so the same seed gives the same figures on any executor, and a run
    stopped by time equals the first games of a longer one (None: a seed from the operating
    system).

    ``viewer=p`` starts each game from ``state.resample(p, ...)``, a position drawn from what
    seat ``p`` has seen; without a viewer the true position is used (the figure an analyst may
    see, labelled "full information" in a game with hidden cards).

    Bad options raise :class:`ValueError` (a bot that is not one: :class:`TypeError`) before
    anything is played; a bot that raises during a game stops the estimate with a
    :class:`BotError` carrying its message.
    """
    budget = Budget(games, precision, time)  # the clock starts here
    check_options(
        jobs=jobs, batch=batch, max_steps=max_steps, seed=seed, exact=exact, on_update=on_update
    )
    n = state.num_players
    seated = seat_bots(state, bots)
    names = [state.player_name(p) for p in range(n)]
    assumption = describe_bots(names, [bot_label(b) for b in seated])
    view = view_of(state, viewer)
    if state.is_terminal():
        return exact_chances(names, win_shares(state, exact=True), assumption, view)
    if exact and exact_allowed(state, viewer):
        chances = exact_win_chances(state, seated, deadline=budget.exact_deadline())
        if chances is not None:
            return exact_chances(names, chances, assumption, view)
    start = FromPosition(state, viewer)
    totals = [Fraction(0)] * n
    squares = [Fraction(0)] * n
    played = unfinished = 0
    result: WinChances | None = None
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=games, desc="games from here", unit="game")
    cost: float | None = None  # seconds a game takes on one worker, once measured
    tasks: list[Task] = []

    def play(lo: int, hi: int) -> None:
        nonlocal played, unfinished
        got = runs.play(start, tasks[lo:hi])
        for p in range(n):
            totals[p] += got.totals[p]
            squares[p] += got.squares[p]
        played += got.ended
        unfinished += got.unfinished
        if bar is not None:
            bar.update(hi - lo)

    try:
        with Games(seated, seed, executor, jobs, max_steps) as runs:
            size = batch * jobs
            while True:
                tasks = runs.draw(budget.next_batch(played + unfinished, size))
                done, cost = play_batch(budget, len(tasks), jobs, cost, play)
                if played:
                    result = from_counts(
                        names, totals, played, assumption, view, unfinished, squares
                    )
                    if on_update is not None:
                        on_update(result)
                width = result.half_width if result else None
                if done < len(tasks) or budget.done(played + unfinished, width, cost):
                    break
    finally:
        if bar is not None:
            bar.close()
    if result is None:
        raise RuntimeError(f"none of the {unfinished} games ended within {max_steps} steps")
    return result
