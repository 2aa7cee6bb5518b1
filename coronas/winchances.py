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

from coronas.engine.state import State
from coronas.simulate import wilson_interval

__all__ = ["WinChances", "win_shares"]


def win_shares(state: State) -> tuple[Fraction, ...]:
    """Each seat's share of the win at a finished game: 1/k to each of k winners, else 0."""
    winners = state.winners()
    share = Fraction(1, len(winners))
    return tuple(share if p in winners else Fraction(0) for p in range(state.num_players))


@dataclasses.dataclass(frozen=True)
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
) -> WinChances:
    """An estimate from ``totals[p]`` (seat ``p``'s wins, shared ones counted 1/k) in
    ``games`` finished games."""
    chances = tuple(Fraction(t) / games for t in totals)
    intervals = [wilson_interval(float(t), games) for t in totals]  # shares: a proportion
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
        dist = exact_distribution(state, table, win_shares, max_nodes=max_nodes)
    except UnfinishedWalk as exc:
        if not exc.cycle:
            return None
        try:
            dist = absorption_distribution(state, table, win_shares, max_states=max_states)
        except UnfinishedWalk:
            return None
    except RuntimeError:  # more than max_nodes nodes
        return None
    return tuple(
        sum((p * shares[seat] for shares, p in dist.items()), Fraction(0))
        for seat in range(state.num_players)
    )


def _describe_bots(names: Sequence[str], labels: Sequence[str]) -> str:
    """``every seat plays like greedy`` or ``red plays like mcts, green like greedy...``."""
    if len(set(labels)) == 1:
        return f"every seat plays like {labels[0]}"
    return ", ".join(
        f"{n} plays like {b}" if i == 0 else f"{n} like {b}"
        for i, (n, b) in enumerate(zip(names, labels, strict=True))
    )


def _bot_label(bot: Any) -> str:
    name = getattr(bot, "name", None)
    if isinstance(name, str):
        return name
    return getattr(bot, "__name__", type(bot).__name__)


def win_chances(
    state: State,
    bots: Any,
    *,
    games: int | None = None,
    precision: float | None = None,
    time: float | None = None,
    seed: int | None = 0,
    exact: bool = True,
    viewer: int | None = None,
    max_steps: int = 100_000,
    batch: int = 20,
    on_update: Any = None,
    progress: bool = False,
) -> WinChances:
    """Each seat's chance of winning from ``state`` when ``bots`` play the rest of the game.

    ``bots`` is one bot for every seat or one per seat. With ``exact`` (the default) the
    exact answer is returned where it can be had (:func:`exact_win_chances`); otherwise the
    games are played out, ``batch`` at a time, until ``games`` have been played, every
    interval's half-width is at most ``precision``, or ``time`` seconds have passed, whichever
    comes first (with none of the three: 0.02 or 30 s). ``on_update(chances)`` is called
    after each batch with the figures so far. ``seed`` fixes the games: the same seed plays
    the same games in the same order, so a run stopped by time equals the first games of a
    longer one.

    ``viewer=p`` starts each game from ``state.resample(p, rng)``, a position drawn from what
    seat ``p`` has seen; without a viewer the true position is used (the figure an analyst may
    see, labelled "full information").
    """
    import random
    import time as clock

    n = state.num_players
    seated = list(bots) if isinstance(bots, (list, tuple)) else [bots] * n
    if len(seated) != n:
        raise ValueError(f"{len(seated)} bots for {n} seats: give one bot, or one per seat")
    names = [state.player_name(p) for p in range(n)]
    assumption = _describe_bots(names, [_bot_label(b) for b in seated])
    if viewer is None:
        view = "full information (every hidden card seen)"
    else:
        if not 0 <= viewer < n:
            raise ValueError(f"viewer must be a seat from 0 to {n - 1}, got {viewer!r}")
        view = f"from {names[viewer]}'s view"
    if state.is_terminal():
        return exact_chances(names, win_shares(state), assumption, view)
    secrets = type(state).resample is not State.resample
    if exact and (viewer is None or not secrets):  # an exact walk sees the true position
        chances = exact_win_chances(state, seated)
        if chances is not None:
            return exact_chances(names, chances, assumption, view)
    if games is None and precision is None and time is None:
        precision, time = 0.02, 30.0
    if games is not None and (isinstance(games, bool) or not isinstance(games, int) or games < 1):
        raise ValueError(f"games must be a whole number of at least 1, got {games!r}")

    master = random.Random(seed)
    totals = [Fraction(0)] * n
    played = unfinished = 0
    started = clock.monotonic()
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=games, desc="games from here", unit="game")
    from coronas.engine.search import play

    result: WinChances | None = None
    try:
        while True:
            size = batch if games is None else min(batch, games - played - unfinished)
            for _ in range(size):
                rng = random.Random(master.getrandbits(63))
                start = state.resample(viewer, rng) if viewer is not None else state.clone()
                try:
                    play(start, seated, rng, max_steps=max_steps)
                except RuntimeError:
                    unfinished += 1
                    continue
                for p, share in enumerate(win_shares(start)):
                    totals[p] += share
                played += 1
            if bar is not None:
                bar.update(size)
            if played:
                result = from_counts(names, totals, played, assumption, view, unfinished)
                if on_update is not None:
                    on_update(result)
            done = games is not None and played + unfinished >= games
            if precision is not None and result is not None:
                done = done or result.half_width <= precision
            if time is not None:
                done = done or clock.monotonic() - started >= time
            if done:
                break
    finally:
        if bar is not None:
            bar.close()
    if result is None:
        raise RuntimeError(f"none of the {unfinished} games ended within {max_steps} steps")
    return result
