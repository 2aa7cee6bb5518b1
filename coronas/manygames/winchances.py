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

The games and views are :mod:`~coronas.manygames.estimator`'s, the budgets
:mod:`~coronas.manygames.budget`'s and the exact attempts :mod:`~coronas.manygames.exact`'s,
shared with the ranking of the moves (:mod:`~coronas.manygames.moves`): this module says only
what a seat's chances are and how they read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from coronas.engine.evaluation import win_shares
from coronas.engine.state import State
from coronas.manygames.budget import MAX_BATCH, STOPPED
from coronas.manygames.estimator import (
    DEFAULT_BOT,
    Arm,
    BotError,
    FromPosition,
    exact_answers,
    play_out,
    prepare,
)
from coronas.manygames.exact import EXACT_SECONDS, EXACT_SHARE, exact_win_chances
from coronas.manygames.intervals import share_interval
from coronas.manygames.runner import DEFAULT_MAX_STEPS

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


@dataclasses.dataclass(frozen=True, repr=False)
class WinChances:
    """Each seat's chance of winning from one position, with what the figure rests on.

    ``chances[p]`` is seat ``p``'s chance: an exact :class:`~fractions.Fraction` when ``exact``,
    else the estimate (wins, a shared win counted 1/k, over ``games``) as a Fraction too, with
    ``low[p]``/``high[p]`` its 95% Wilson interval. ``assumption`` says how the rest of the game was
    played; ``view`` whose information the games started from. ``unfinished`` counts games that
    reached the step cap (left out of the figures); ``luck``: each game's shares were adjusted by
    the luck of its rolls as the value model sees it (:class:`~coronas.manygames.scoring.Luck`);
    ``stopped`` why the games stopped (``games``, ``precision``, ``time``; empty while they go on,
    or for an exact answer).
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
    stopped: str = dataclasses.field(default="", compare=False)
    luck: bool = False

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
            if self.luck:
                how = f"{self.games} games adjusted for the luck of their rolls, 95% intervals"
            if self.unfinished:
                how += f"; {self.unfinished} unfinished games left out"
        return f"{how}; {self.assumption}; {self.view}"

    def stop_note(self) -> str:
        """Why the figures stopped changing, in words ("" while the games go on)."""
        return STOPPED.get("exact" if self.exact else self.stopped, "")

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
            + (f"<p>{escape(self.stop_note())}</p>" if self.stop_note() else "")
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
    luck: bool = False,
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
    measuring what a game costs, each later one planned to take at most half the time left,
    and the last hundredth of the time kept for what follows the games
    (:meth:`~.budget.Budget.piece`), so the last batch may be cut short (fewer games, wider
    intervals). The batches' ends, where ``precision`` is checked, do not depend on the
    clock. At least one game is played, so a bot slower than the whole budget overruns it.

    The games go through :func:`coronas.manygames.runner.run`: on ``executor`` (any
    :class:`concurrent.futures.Executor`, a dask client's included) or a process pool of
    ``jobs`` workers, stopped at once by Ctrl-C. ``seed`` fixes them: each game has its own
    seeds, drawn in order, so the same seed gives the same figures on any executor, and a run
    stopped by time equals the first games of a longer one (None: a seed from the operating
    system).

    ``viewer=p`` starts each game from ``state.resample(p, ...)``, a position drawn from what
    seat ``p`` has seen; without a viewer the true position is used (the figure an analyst may
    see, labelled "full information" in a game with hidden cards).

    ``luck`` adjusts each game's shares by the luck of its rolls and draws as the game's value
    model sees it (:class:`~coronas.manygames.scoring.Luck`: a control variate of mean zero),
    taken off with the coefficient fitted from the games, the regression of the shares on the
    luck (:func:`~coronas.manygames.intervals.luck_coefficient`; none taken off before
    :data:`~coronas.manygames.intervals.MIN_FIT_GAMES` games): the estimate stays unbiased
    but for a bias of order ``1/n``, and its interval, the normal interval from the residual
    variance, narrows by what the model explains (``benchmarks/bench_luck.py`` measures it).

    Bad options raise :class:`ValueError` (a bot that is not one: :class:`TypeError`) before
    anything is played; a bot that raises during a game stops the estimate with a
    :class:`BotError` carrying its message.
    """
    setup = prepare(
        state,
        bots,
        games=games,
        precision=precision,
        time=time,
        seed=seed,
        exact=exact,
        viewer=viewer,
        executor=executor,
        jobs=jobs,
        max_steps=max_steps,
        batch=batch,
        on_update=on_update,
        luck=luck,
    )
    names, assumption, view = setup.names, setup.assumption, setup.view
    if state.is_terminal():
        return exact_chances(names, win_shares(state, exact=True), assumption, view)
    found = exact_answers(setup, [state])
    if found is not None:
        return exact_chances(names, found[0], assumption, view)
    arm = Arm(FromPosition(state, viewer), state.num_players)

    def summarise(arms: Sequence[Arm]) -> tuple[WinChances, float]:
        if luck:
            intervals = [arm.interval(p) for p in range(len(names))]
            got = WinChances(
                names=tuple(names),
                chances=tuple(arm.chance(p) for p in range(len(names))),
                low=tuple(lo for lo, _ in intervals),
                high=tuple(hi for _, hi in intervals),
                games=arm.ended,
                exact=False,
                assumption=assumption,
                view=view,
                unfinished=arm.unfinished,
                luck=True,
            )
        else:
            got = from_counts(
                names, arm.totals, arm.ended, assumption, view, arm.unfinished, arm.squares
            )
        return got, got.half_width

    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=games, desc="games from here", unit="game")
    try:
        result, why = play_out(
            setup, [arm], summarise, progress=None if bar is None else bar.update
        )
    finally:
        if bar is not None:
            bar.close()
    return dataclasses.replace(result, stopped=why)
