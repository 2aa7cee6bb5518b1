"""Ratings from game results: Bradley-Terry strengths on the Elo scale, with 95% intervals.

A ladder asks "how much stronger is this bot?" and wants one number per bot that the results
of every pairing agree with. The Bradley-Terry model gives each bot a strength ``g`` so that
bot ``i`` beats bot ``j`` with probability ``g_i / (g_i + g_j)``; on the Elo scale a rating is
``400 * log10(g)``, so 400 points more means winning ten games for every one lost. The
strengths are the maximum-likelihood fit, found by Hunter's MM iteration (Hunter 2004,
"MM algorithms for generalized Bradley-Terry models"), which climbs the likelihood at every
step.

Games of three to five players count as pairwise results between the bots at the table: a
winner beats every seat that did not win, winners who share a victory draw with each other,
and two seats that both lost tell nothing about each other (the approach of the TAG
framework's skill ladders). Two seats of one bot are not compared.

Two choices keep the numbers honest:

* **A prior of one drawn game between every pair of bots that met.** Without it a bot that
  won every game would get an infinite rating; with it, 20 wins out of 20 give a large but
  finite one. Its pull fades as games accumulate.
* **Intervals by the bootstrap over games.** Whole games are resampled (a game of four
  players stays one unit, since its six pairwise results are not independent), the model is
  fitted again on each resample, and the 2.5% and 97.5% quantiles of a bot's rating are its
  interval. The resampling is seeded, so the same results give the same intervals.

One bot is the **anchor**, fixed at 0 Elo (by default ``random`` when it plays, else the first
bot): ratings say how far above or below the anchor each bot stands.

>>> games = [((0, 1), (1, 0))] * 3 + [((0, 0), (1, 1))]   # bot 0 won 3 of 4 against bot 1
>>> r = bradley_terry(games, labels=["greedy", "random"], seed=1)
>>> r.anchor, round(r.elo[1])
('random', 0)
>>> round(r.elo[0])       # 3.5 wins to 1.5 with the prior: 400 * log10(3.5 / 1.5)
147
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from typing import Any

__all__ = ["Ratings", "bradley_terry", "pairwise"]

Seating = Sequence[tuple[int, Any]]
"""One game: ``(bot, win share)`` for each seat; the share is 1/k for each of k winners."""

_ELO = 400 / math.log(10)


def pairwise(game: Seating) -> list[tuple[int, int, float]]:
    """The pairwise results one game stands for: ``(bot a, bot b, a's score)``, the score 1 for
    a win, 1/2 for a draw (a shared victory). Seats that both lost, and two seats of the same
    bot, give nothing.

    >>> pairwise([(0, 1), (1, 0), (2, 0)])
    [(0, 1, 1.0), (0, 2, 1.0)]
    >>> pairwise([(0, 0.5), (1, 0.5), (2, 0)])
    [(0, 1, 0.5), (0, 2, 1.0), (1, 2, 1.0)]
    """
    out = []
    seats = [(bot, float(share)) for bot, share in game]
    for i, (a, sa) in enumerate(seats):
        for b, sb in seats[i + 1 :]:
            if a == b or (sa == 0 and sb == 0):
                continue
            out.append((a, b, 1.0 if sa > sb else 0.0 if sa < sb else 0.5))
    return out


def _fit(n_bots: int, results: list[tuple[int, int, float]], prior: float) -> list[float]:
    """Maximum-likelihood log-strengths (natural log, mean 0) by Hunter's MM iteration."""
    wins = [0.0] * n_bots
    games: dict[tuple[int, int], float] = {}
    for a, b, score in results:
        wins[a] += score
        wins[b] += 1 - score
        pair = (a, b) if a < b else (b, a)
        games[pair] = games.get(pair, 0.0) + 1
    for pair in games:  # one drawn game between every pair that met
        games[pair] += 2 * prior
        wins[pair[0]] += prior
        wins[pair[1]] += prior
    g = [1.0] * n_bots
    for _ in range(10_000):
        denom = [0.0] * n_bots
        for (a, b), n in games.items():
            d = n / (g[a] + g[b])
            denom[a] += d
            denom[b] += d
        new = [wins[i] / denom[i] if denom[i] else g[i] for i in range(n_bots)]
        scale = math.exp(sum(math.log(x) for x in new) / n_bots)
        new = [x / scale for x in new]
        done = max(abs(math.log(x / y)) for x, y in zip(new, g, strict=True)) < 1e-10
        g = new
        if done:
            break
    return [math.log(x) for x in g]


@dataclasses.dataclass(frozen=True)
class Ratings:
    """Bradley-Terry ratings on the Elo scale, each with its 95% bootstrap interval.

    ``elo[i]`` rates ``labels[i]``; the anchor's rating is 0. ``games`` counts the games behind
    the fit, ``pairs`` the pairwise results they stand for.
    """

    labels: tuple[str, ...]
    elo: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    anchor: str
    games: int
    pairs: int
    resamples: int

    def rows(self) -> list[dict[str, Any]]:
        """One dict per bot, strongest first: bot, Elo, interval."""
        order = sorted(range(len(self.labels)), key=lambda i: -self.elo[i])
        return [
            {"bot": self.labels[i], "elo": self.elo[i], "low": self.low[i], "high": self.high[i]}
            for i in order
        ]

    def __str__(self) -> str:
        lines = [
            f"Bradley-Terry ratings (Elo points, {self.anchor} = 0), from {self.games} games; "
            f"95% intervals from {self.resamples} bootstrap resamples",
            f"{'bot':<18}{'Elo':>8}{'95% interval':>20}",
        ]
        for row in self.rows():
            interval = f"{row['low']:+.0f} to {row['high']:+.0f}"
            lines.append(f"{row['bot']:<18}{row['elo']:>+8.0f}{interval:>20}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from html import escape

        body = "".join(
            f"<tr><td>{escape(r['bot'])}</td><td>{r['elo']:+.0f}</td>"
            f"<td>{r['low']:+.0f} to {r['high']:+.0f}</td></tr>"
            for r in self.rows()
        )
        return (
            f"<table><caption>Ratings (Elo, {escape(self.anchor)} = 0), {self.games} games"
            "</caption><tr><th>bot</th><th>Elo</th><th>95% interval</th></tr>"
            f"{body}</table>"
        )

    def plot(self, ax: Any = None) -> Any:
        """The ratings as points with their 95% intervals as error bars, strongest on top."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 0.5 + 0.5 * len(self.labels)))
        rows = self.rows()[::-1]
        y = range(len(rows))
        ax.errorbar(
            [r["elo"] for r in rows],
            list(y),
            xerr=[[r["elo"] - r["low"] for r in rows], [r["high"] - r["elo"] for r in rows]],
            fmt="o",
            capsize=5,
            color="#4c72b0",
        )
        ax.axvline(0, color="grey", lw=0.8, ls="--")
        ax.set_yticks(list(y), [r["bot"] for r in rows])
        ax.set_xlabel(f"Elo points ({self.anchor} = 0), 95% bootstrap intervals")
        ax.set_title(f"Ratings from {self.games} games")
        ax.figure.tight_layout()
        return ax.figure


def bradley_terry(
    games: Sequence[Seating],
    labels: Sequence[str],
    anchor: str | None = None,
    *,
    prior: float = 0.5,
    resamples: int = 500,
    seed: int = 0,
) -> Ratings:
    """Fit Bradley-Terry ratings to ``games`` (each a list of ``(bot, win share)`` per seat,
    bots numbered as in ``labels``) and bootstrap their 95% intervals.

    ``anchor`` names the bot fixed at 0 Elo (default: ``"random"`` if it is a label, else the
    first). ``prior`` is the number of virtual wins each side of every pair that met is given
    (0.5: one drawn game). ``resamples`` bootstrap fits, seeded by ``seed``.
    """
    labels = tuple(labels)
    n = len(labels)
    if n < 2:
        raise ValueError(f"ratings need at least two bots, got {n}")
    if anchor is None:
        anchor = "random" if "random" in labels else labels[0]
    if anchor not in labels:
        raise ValueError(f"the anchor {anchor!r} is not one of the bots: {', '.join(labels)}")
    for game in games:
        for bot, _ in game:
            if not 0 <= bot < n:
                raise ValueError(f"a game names bot {bot}, but there are {n} bots")
    a = labels.index(anchor)
    per_game = [pairwise(game) for game in games]
    flat = [r for rs in per_game for r in rs]
    if not flat:
        raise ValueError("no game compares two different bots: there is nothing to rate")

    def elo(results: list[tuple[int, int, float]]) -> list[float]:
        theta = _fit(n, results, prior)
        return [_ELO * (t - theta[a]) for t in theta]

    point = elo(flat)
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(n)]
    for _ in range(resamples):
        drawn = [r for _ in per_game for r in per_game[rng.randrange(len(per_game))]]
        for i, value in enumerate(elo(drawn)):
            samples[i].append(value)

    def quantile(values: list[float], q: float) -> float:
        values = sorted(values)
        pos = q * (len(values) - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, len(values) - 1)
        return values[lo] + (values[hi] - values[lo]) * (pos - lo)

    low = [quantile(s, 0.025) if s else p for s, p in zip(samples, point, strict=True)]
    high = [quantile(s, 0.975) if s else p for s, p in zip(samples, point, strict=True)]
    return Ratings(
        labels=labels,
        elo=tuple(point),
        low=tuple(low),
        high=tuple(high),
        anchor=anchor,
        games=len(games),
        pairs=len(flat),
        resamples=resamples,
    )
