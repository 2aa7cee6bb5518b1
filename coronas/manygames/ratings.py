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

**A whitewash bounds a rating on one side only.** If a bot never lost to the anchor's side
(nothing beat it, directly or through a chain of wins from the anchor), no rating is too high
for the data: the prior alone keeps its point finite, and every bootstrap resample is the same
whitewash, so a bootstrap interval would only measure the prior. Such a bot's interval is
one-sided: ``high`` is infinite, and ``low`` is the smallest Elo gap its ``n`` wins in ``n``
games against a bot bounded on both sides still leave plausible (one-sided, 97.5%:
``400 log10(p / (1 - p))`` with ``p = 0.025^(1/n)``) added to that bot's own lower bound, the
largest over such opponents: 12 wins of 12 against the anchor say "at least +178". A bot that
never beat the anchor's side is bounded the same way from above; a bot with no chain of games
to the anchor is not bounded at all. The same holds inside the bootstrap: a resample in which
a bot won every game bounds nothing above it, so it counts as no limit, not as the prior's
number, and if more than 2.5% of the resamples are such, the interval is open on that side
(9 wins and 1 loss: a resample is 10 of 10 with chance 0.9^10 = 35%, so "at least ..."). The
printed table says "at least", "at most" or "not bounded", and marks with ``*`` the points that
only the prior holds.
The anchor's row reads "anchor": 0 by definition, not a measurement.

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
import textwrap
from collections.abc import Sequence
from typing import Any

__all__ = ["Ratings", "bradley_terry", "pairwise", "whitewash_gap"]

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


def whitewash_gap(n: int, level: float = 0.975) -> float:
    """The smallest Elo gap that ``n`` wins in ``n`` games leave plausible: the one-sided
    ``level`` lower bound of the win chance, ``p = (1 - level)^(1/n)`` (Clopper-Pearson),
    on the Elo scale. Without a loss the data set no upper limit, so this is all they say.

    >>> round(whitewash_gap(12)), round(whitewash_gap(20))
    (178, 277)
    """
    if n < 1:
        raise ValueError(f"a whitewash needs at least one game, got {n}")
    p = (1 - level) ** (1 / n)
    return 400 * math.log10(p / (1 - p))


@dataclasses.dataclass(frozen=True)
class Ratings:
    """Bradley-Terry ratings on the Elo scale, each with its 95% interval.

    ``elo[i]`` rates ``labels[i]``; the anchor's rating is 0, and so are its ``low`` and
    ``high``. A bot whose results bound its rating on both sides gets a bootstrap interval;
    one that never lost to the anchor's side gets ``high = inf`` and a one-sided ``low``
    (never won against it: ``low = -inf``), and its ``elo`` is held finite by the prior (see
    the module's notes). ``games`` counts the games behind the fit, ``pairs`` the pairwise
    results they stand for, ``prior`` the virtual drawn games' weight.
    """

    labels: tuple[str, ...]
    elo: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    anchor: str
    games: int
    pairs: int
    resamples: int
    prior: float = 0.5
    prior_held: tuple[bool, ...] = ()

    def interval_text(self, i: int) -> str:
        """Bot ``i``'s interval in words: ``+120 to +310``, ``at least +178``, ``at most
        -178``, ``not bounded``, or ``anchor`` for the bot rated 0 by definition."""
        if self.labels[i] == self.anchor:
            return "anchor"
        low, high = self.low[i], self.high[i]
        if math.isinf(low) and math.isinf(high):
            return "not bounded"
        if math.isinf(high):
            return f"at least {low:+.0f}"
        if math.isinf(low):
            return f"at most {high:+.0f}"
        return f"{low:+.0f} to {high:+.0f}"

    def held_by_prior(self, i: int) -> bool:
        """Whether bot ``i``'s point rating is finite only because of the prior: the results
        bound it on one side or none (a whitewash)."""
        if self.prior_held:
            return self.prior_held[i]
        return math.isinf(self.low[i]) or math.isinf(self.high[i])

    def rows(self) -> list[dict[str, Any]]:
        """One dict per bot, strongest first: bot, Elo, interval (``low``, ``high`` and the
        words of :meth:`interval_text`), and whether the prior holds the point."""
        order = sorted(range(len(self.labels)), key=lambda i: -self.elo[i])
        return [
            {
                "bot": self.labels[i],
                "elo": self.elo[i],
                "low": self.low[i],
                "high": self.high[i],
                "interval": self.interval_text(i),
                "held_by_prior": self.held_by_prior(i),
            }
            for i in order
        ]

    def _elo_text(self, row: dict[str, Any]) -> str:
        if row["bot"] == self.anchor:
            return "0"
        return f"{row['elo']:+.0f}" + ("*" if row["held_by_prior"] else "")

    def _note(self) -> str:
        """The footnote to the points marked ``*``, or "" when no point needs one."""
        if not any(r["held_by_prior"] for r in self.rows()):
            return ""
        return (
            "* a whitewash: no game set a limit on this side, so the interval is one-sided and "
            f"the point is held finite only by the prior ({self._prior_words()})"
        )

    def _prior_words(self) -> str:
        if self.prior == 0.5:
            return "one drawn game added between every pair that met"
        return f"{2 * self.prior:g} drawn games added between every pair that met"

    def __str__(self) -> str:
        lines = [
            f"Bradley-Terry ratings (Elo points, {self.anchor} = 0), from {self.games} games; "
            f"95% intervals from {self.resamples} bootstrap resamples",
            f"{'bot':<18}{'Elo':>8}{'95% interval':>20}",
        ]
        for row in self.rows():
            lines.append(f"{row['bot']:<18}{self._elo_text(row):>8}{row['interval']:>20}")
        return "\n".join(lines + textwrap.wrap(self._note(), 92, subsequent_indent="  "))

    def _repr_html_(self) -> str:
        from html import escape

        body = "".join(
            f"<tr><td>{escape(r['bot'])}</td><td>{escape(self._elo_text(r))}</td>"
            f"<td>{escape(r['interval'])}</td></tr>"
            for r in self.rows()
        )
        notes = f"<p>{escape(self._note())}</p>" if self._note() else ""
        return (
            f"<table><caption>Ratings (Elo, {escape(self.anchor)} = 0), {self.games} games"
            "</caption><tr><th>bot</th><th>Elo</th><th>95% interval</th></tr>"
            f"{body}</table>{notes}"
        )

    def plot(self, ax: Any = None) -> Any:
        """The ratings as points with their 95% intervals as error bars, strongest on top; a
        one-sided interval is a bar to its bound with an arrow on the open side."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 0.5 + 0.5 * len(self.labels)))
        rows = self.rows()[::-1]
        y = list(range(len(rows)))
        finite = [v for r in rows for v in (r["low"], r["elo"], r["high"]) if math.isfinite(v)]
        span = (max(finite) - min(finite)) or 100.0
        reach = 0.25 * span  # how far an open side's arrow goes past the point
        ax.errorbar(
            [r["elo"] for r in rows],
            y,
            xerr=[
                [r["elo"] - r["low"] if math.isfinite(r["low"]) else 0 for r in rows],
                [r["high"] - r["elo"] if math.isfinite(r["high"]) else 0 for r in rows],
            ],
            fmt="o",
            capsize=5,
            color="#4c72b0",
        )
        for yi, r in zip(y, rows, strict=True):
            for side, sign in (("high", 1), ("low", -1)):
                if math.isinf(r[side]):
                    ax.annotate(
                        "",
                        xy=(r["elo"] + sign * reach, yi),
                        xytext=(r["elo"], yi),
                        arrowprops={"arrowstyle": "->", "color": "#4c72b0"},
                    )
        ax.set_xlim(min(finite) - reach * 1.2, max(finite) + reach * 1.2)
        ax.axvline(0, color="grey", lw=0.8, ls="--")
        ax.set_yticks(y, [r["bot"] for r in rows])
        ax.set_xlabel(f"Elo points ({self.anchor} = 0), 95% intervals (arrow: no bound)")
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
        capped, floored = _limits(n, a, drawn)
        for i, value in enumerate(elo(drawn)):
            if i in capped and i in floored:
                samples[i].append(value)
            elif i in floored:  # unbeaten in this resample: its rating has no upper limit
                samples[i].append(math.inf)
            elif i in capped:  # never won in it: no lower limit
                samples[i].append(-math.inf)
            # neither: the resample holds no chain of games to the anchor, so it says nothing

    def quantile(values: list[float], q: float) -> float:
        values = sorted(values)
        pos = q * (len(values) - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, len(values) - 1)
        if math.isinf(values[hi]) and values[hi] > 0 and pos > lo:
            return values[hi]  # between a number and no limit: no limit
        if math.isinf(values[lo]) or values[lo] == values[hi]:
            return values[lo]
        return values[lo] + (values[hi] - values[lo]) * (pos - lo)

    low = [quantile(s, 0.025) if s else p for s, p in zip(samples, point, strict=True)]
    high = [quantile(s, 0.975) if s else p for s, p in zip(samples, point, strict=True)]
    held = _one_sided(n, a, flat, low, high)
    return Ratings(
        labels=labels,
        elo=tuple(point),
        low=tuple(low),
        high=tuple(high),
        anchor=anchor,
        games=len(games),
        pairs=len(flat),
        resamples=resamples,
        prior=prior,
        prior_held=tuple(i in held for i in range(n)),
    )


def _limits(
    n: int, anchor: int, results: list[tuple[int, int, float]]
) -> tuple[set[int], set[int]]:
    """``(capped, floored)``: the bots whose rating ``results`` bound above, and below.

    A rating is bounded above only if a chain of wins leads from the anchor to the bot (the
    anchor beat x, ..., y beat the bot; a draw counts both ways), and below only if one leads
    from the bot to the anchor."""
    beat: list[set[int]] = [set() for _ in range(n)]
    beaten_by: list[set[int]] = [set() for _ in range(n)]
    for a, b, score in results:
        if score > 0:
            beat[a].add(b)
            beaten_by[b].add(a)
        if score < 1:
            beat[b].add(a)
            beaten_by[a].add(b)

    def reach(edges: list[set[int]]) -> set[int]:
        seen, todo = {anchor}, [anchor]
        while todo:
            for nxt in edges[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    return reach(beat), reach(beaten_by)


def _one_sided(
    n: int, anchor: int, results: list[tuple[int, int, float]], low: list[float], high: list[float]
) -> set[int]:
    """Replace, in place, the bounds the data do not set (see the module's notes), and return
    the bots whose point rating only the prior holds finite.

    An open side becomes infinite; the other side of a one-sided interval is the whitewash
    gap of the bot's games against a bot bounded on both sides, from that bot's bound."""
    capped, floored = _limits(n, anchor, results)
    both = capped & floored
    met: dict[tuple[int, int], int] = {}
    for a, b, _ in results:
        met[a, b] = met.get((a, b), 0) + 1
        met[b, a] = met.get((b, a), 0) + 1
    held = set(range(n)) - both
    for i in held:
        low[i], high[i] = -math.inf, math.inf
        gaps = [(j, met[i, j]) for j in both if (i, j) in met]
        if i in floored:  # unbeaten by the anchor's group: at least its gap above them
            low[i] = max((low[j] + whitewash_gap(k) for j, k in gaps), default=-math.inf)
        elif i in capped:  # never beat them: at most its gap below them
            high[i] = min((high[j] - whitewash_gap(k) for j, k in gaps), default=math.inf)
    return held
