"""Which move? Every legal action of the seat to move, ranked by its chance of winning the
whole game after that action, at once from the game's value model, then from games.

**At once.** Every move is first scored by the game's fitted value model
(``Game.spec().evaluate``) on the position after it, from the mover's view: at a roll or draw
that follows the move, the exact expectation over its outcomes; in a game with secrets, the
average over a few positions resampled for the viewer. That takes under a second on one core
and is shown as what it is: a quick estimate, not yet games.

**Then games, where they matter.** The games after each move are played by
:mod:`~coronas.manygames.estimator` (the runner, any executor, a seat's view from resampled
positions) on **common random numbers**: game ``i`` after one move and game ``i`` after
another start from the same seeds, so the difference between two moves is measured more
sharply than either figure alone. The games go to the moves that could still be best (racing
on the paired intervals): a move the quick estimate puts far behind the best, or one the
game's learned player would hardly ever choose (its move prior), is not played at all, and
one whose paired difference from the best is clearly below zero (at a level corrected for the
number of moves compared and for every batch at which they were compared) is dropped from
later games; each says why.

**Read in order.** The moves whose paired difference from the best reaches zero form the
shortlist, shown together at the top: the games cannot tell them apart. The best move's own
figure runs high when it is picked as the best of many noisy ones, so it is also given from
the games not used to pick it (picked on the even games, measured on the odd ones). Where the
rest of the game can be walked, every figure is exact. A dice action shows its own exact odds
beside the game's (:meth:`State.odds <coronas.engine.State.odds>`): a roll likely to succeed
is not always the move most likely to win.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time as clock
from collections.abc import Sequence
from fractions import Fraction
from statistics import NormalDist
from typing import Any

from coronas.engine.evaluation import win_shares
from coronas.engine.state import State
from coronas.manygames.budget import STOPPED
from coronas.manygames.estimator import (
    Arm,
    FromPosition,
    exact_answers,
    play_out,
    prepare,
)
from coronas.manygames.intervals import (
    independent_difference,
    normal_interval,
    paired_difference,
    share_interval,
)
from coronas.manygames.runner import DEFAULT_MAX_STEPS

__all__ = [
    "DROP_BEHIND",
    "PRIOR_MASS",
    "QUICK_SECONDS",
    "ActionRanking",
    "prior_values",
    "quick_values",
    "rank_actions",
]

QUICK_SECONDS = 1.0
"""The most the quick estimate of every move may take (a tenth of a ``time`` budget when that
is less): one pass over the moves is always made, more resamples while time is left."""
QUICK_RESAMPLES = 8
"""The most positions resampled for the viewer in a game with secrets."""
MAX_QUICK_OUTCOMES = 64
"""A roll or draw right after a move with at most this many outcomes is averaged exactly;
one with more is scored where it stands."""
DROP_BEHIND = 0.25
"""A move the quick estimate puts this far (in chance of winning) behind the best is not
played out: 25 points is beyond what the value models get wrong on held-out positions."""
PRIOR_MASS = 0.95
"""The moves played out are the learned player's likeliest, taken in order of the game's move
prior until together they hold this much of its probability (and at least
:data:`MIN_PRIOR_KEPT` of them, and the quick estimate's best); the rest are left out of the
games, each with its prior. Moves as likely as the last one kept are kept with it, so a flat
prior leaves nothing out."""
MIN_PRIOR_KEPT = 3
"""The fewest moves the move prior keeps in the games."""
MIN_DROP_GAMES = 40
"""A move is dropped by its paired interval only after this many games: fewer pairs make a
normal interval unreliable."""


@dataclasses.dataclass(frozen=True, repr=False)
class ActionRanking:
    """Every legal action of the seat to move with its chance of winning the game after it.

    ``rows`` are dicts in reading order: the shortlist first (the best, then every move the
    games cannot tell from it, by chance), then the other moves played out, by chance, then
    the dropped ones. Each row has ``action``, ``label`` (in the game's words), ``chance`` (a
    Fraction: exact, the share of the games won after the action, or with ``quick`` the value
    model's figure), ``low``/``high`` (its 95% interval; the point itself when exact or
    quick), ``games`` (the move's own), ``best``, ``shortlist`` (the best, or the 95%
    interval of its difference from the best, measured on the same games, reaches 0),
    ``too_close`` (on the shortlist but not the best, kept for older readers),
    ``versus_best`` (that difference and its interval, ``(mean, low, high)``; None when exact
    or quick), ``quick`` (the value model's figure, or None), ``prior`` (the learned player's
    probability of choosing it, by the game's move prior, or None), ``dropped`` (why the move was
    left out of the games; "" if not) and ``odds`` (the action's own exact dice odds, for a
    dice action; else None).

    ``quick`` says the whole ranking is the value model's, before any game; ``common``
    whether the moves were played on the same games; ``held_out`` the best move's figure
    and 95% interval on the games not used to pick it, ``(chance, low, high)`` (None when
    exact, quick, or too few games); ``stopped`` why the games stopped (``games``,
    ``precision``, ``time``; "" while they go on); ``luck`` whether each game's shares were
    adjusted by the luck of its rolls; ``horizon`` the actions after which each game was cut
    and scored by the value model (None: games played to the end). A cut game's figure is the
    value model's chance at the cut, so the figures and intervals are those of that score, a
    biased estimate of the chance of winning by as much as the model errs there.
    """

    player: str
    rows: tuple[dict[str, Any], ...]
    exact: bool
    assumption: str
    view: str
    games: int
    common: bool = True
    quick: bool = False
    held_out: tuple[float, float, float] | None = None
    stopped: str = dataclasses.field(default="", compare=False)
    luck: bool = False
    horizon: int | None = None

    def basis(self) -> str:
        """What the figures rest on, in words."""
        if self.quick:
            return f"quick estimate by the value model, not yet games; {self.view}"
        how = "exact" if self.exact else f"{self.games} games a move still in the running"
        if not self.exact:
            how += ", adjusted for the luck of their rolls" if self.luck else ""
            if self.horizon:
                how += (
                    f", games cut after {self.horizon} actions and scored by the value model "
                    "(its figure there, not the games' result)"
                )
            how += ", 95% intervals"
            how += ", the same games for every move" if self.common else ", games of its own"
        return f"{how}; {self.assumption}; {self.view}"

    def stop_note(self) -> str:
        """Why the figures stopped changing, in words ("" while they may still change)."""
        return STOPPED.get("exact" if self.exact else self.stopped, "")

    def held_out_text(self) -> str:
        """The best move's figure on the games not used to pick it, in words ("" if none)."""
        if self.held_out is None:
            return ""
        chance, low, high = self.held_out
        return f"the best move on games not used to pick it: {chance:.1%} ({low:.1%}-{high:.1%})"

    def _cells(self, row: dict[str, Any]) -> tuple[str, str, str]:
        chance = float(row["chance"])
        if self.exact:
            figure, interval = f"{row['chance']} ({chance:.1%})", "exact"
        elif self.quick or row["games"] == 0:
            figure, interval = f"{chance:.1%}", "quick estimate"
        else:
            figure, interval = f"{chance:.1%}", f"{row['low']:.1%} - {row['high']:.1%}"
        if row["best"]:
            mark = "best"
        elif row.get("shortlist", row.get("too_close")):
            mark = "shortlist"
        elif row.get("dropped"):
            mark = "dropped"
        else:
            mark = ""
        return figure, interval, mark

    def __str__(self) -> str:
        lines = [f"{self.player}'s moves by the chance of winning the game [{self.basis()}]"]
        for row in self.rows:
            figure, interval, mark = self._cells(row)
            odds = f"; roll: {row['odds'].success}" if row["odds"] is not None else ""
            why = f" ({row['dropped']})" if row.get("dropped") else ""
            lines.append(f"{figure:>16}  {interval:>15}  {mark:<10}{row['label']}{odds}{why}")
        extra = [t for t in (self.held_out_text(), self.stop_note()) if t]
        if extra:
            lines.append("; ".join(extra))
        return "\n".join(lines)

    def __repr__(self) -> str:
        best = self.rows[0]
        return (
            f"<ActionRanking {self.player}: {len(self.rows)} moves, best {best['label']!r} "
            f"{float(best['chance']):.1%} [{self.basis()}]>"
        )

    def _repr_html_(self) -> str:
        from html import escape

        from coronas.formatting import percent

        body = []
        for row in self.rows:
            figure, interval, mark = self._cells(row)
            odds = row["odds"]
            # the roll's odds as a percentage, its exact fraction and aim in the tooltip: a
            # row stays on one line in a notebook at 1280 px with its file browser open
            tip = "" if odds is None else escape(f"{odds.success} to {odds.aim}", quote=True)
            dice = "" if odds is None else f"<span title='{tip}'>{percent(odds.success)}</span>"
            verdict = escape(mark)
            if row.get("dropped"):
                verdict = f"<span title='{escape(row['dropped'], quote=True)}'>dropped</span>"
            cells = (escape(row["label"]), figure, interval, verdict, dice)
            attributes = ("", " " + _bar(row), "", "", "")
            body.append(
                "<tr>"
                + "".join(f"<td{a}>{c}</td>" for a, c in zip(attributes, cells, strict=True))
                + "</tr>"
            )
        heads = ("move", "chance", "95% interval", "verdict", "roll's odds")
        notes = [self.basis(), self.held_out_text(), self.stop_note()]
        return (
            "<table style='white-space:nowrap;border-collapse:collapse'><caption>"
            f"{escape(self.player)}'s moves by the chance of winning the game</caption><tr>"
            + "".join(f"<th>{h}</th>" for h in heads)
            + f"</tr>{''.join(body)}</table>"
            + "".join(f"<p>{escape(n)}</p>" for n in notes if n)
        )

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame (needs pandas, the ``analysis`` extra)."""
        import pandas as pd

        return pd.DataFrame(
            [{**r, "action": str(r["action"]), "chance": float(r["chance"])} for r in self.rows]
        )


def _bar(row: dict[str, Any]) -> str:
    """A move's chance as a bar behind its figure: the cell's background filled to the
    chance, light blue (grey for a dropped move), its 95% interval a darker band along the
    bottom. A background adds no element and no width, so a row stays on one line."""
    chance = float(row["chance"]) * 100
    colour = "#d9d9d9" if row.get("dropped") else "#c9d7ee"
    layers = [f"linear-gradient(to right, {colour} {chance:.1f}%, transparent {chance:.1f}%)"]
    if row["games"] and row["high"] > row["low"]:
        low, high = row["low"] * 100, row["high"] * 100
        layers.insert(
            0,
            f"linear-gradient(to right, transparent {low:.1f}%, #4c72b0 {low:.1f}%, "
            f"#4c72b0 {high:.1f}%, transparent {high:.1f}%) bottom / 100% 3px no-repeat",
        )
    return f"class='coronas-move-bar' style='background:{', '.join(layers)}'"


def _dice_odds(state: State, action: Any) -> Any:
    try:
        return state.odds(action)
    except Exception:  # a game without odds for this position: no dice figure to show
        return None


def _value(state: State, evaluate: Any, seat: int) -> float:
    """Seat ``seat``'s chance of winning at ``state`` by the value model: exact at the end;
    at a roll or draw with few outcomes, their exact expectation (one level)."""
    if state.is_terminal():
        return float(win_shares(state)[seat])
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        if len(outcomes) <= MAX_QUICK_OUTCOMES:
            total = 0.0
            for outcome, p in outcomes:
                state.apply(outcome)
                try:
                    end = state.is_terminal()
                    total += float(p) * (
                        float(win_shares(state)[seat]) if end else float(evaluate(state)[seat])
                    )
                finally:
                    state.undo()
            return total
    return float(evaluate(state)[seat])


def quick_values(
    state: State,
    viewer: int | None = None,
    seconds: float = QUICK_SECONDS,
    seed: int | None = 0,
) -> list[float] | None:
    """Every legal action's chance of winning for the seat to move by the game's value model
    (``Game.spec().evaluate``) on the position after it, in ``state.legal_actions()`` order;
    None if the game declares no value model.

    At a roll or draw right after the move, the exact expectation over its outcomes (at most
    :data:`MAX_QUICK_OUTCOMES`); with a ``viewer`` in a game with secrets, the average over
    positions resampled for the viewer (up to :data:`QUICK_RESAMPLES`, while ``seconds`` last;
    one pass is always made). Cheap: a few thousand evaluations at most."""
    evaluate = state.game.spec().evaluate
    mover = state.current_player
    if evaluate is None or mover < 0:
        return None
    actions = list(state.legal_actions())
    deadline = clock.monotonic() + seconds
    secrets = viewer is not None and state.game.has_secrets
    rng = random.Random(seed)
    sums = [0.0] * len(actions)
    counts = [0] * len(actions)
    for k in range(QUICK_RESAMPLES if secrets else 1):
        if k and clock.monotonic() > deadline:
            break
        start = state.resample(viewer, rng) if secrets else state.clone()
        listed = start.legal_actions() if secrets else actions
        for i, action in enumerate(actions):
            mine = listed[i] if secrets and i < len(listed) and listed[i] == action else action
            try:
                start.apply(mine)
            except Exception:  # not legal in this resample: this one does not count
                continue
            try:
                sums[i] += _value(start, evaluate, mover)
                counts[i] += 1
            finally:
                start.undo()
    if not all(counts):  # a move no resample allowed: score it on the position itself
        base = state.clone()
        for i, action in enumerate(actions):
            if not counts[i]:
                base.apply(action)
                sums[i], counts[i] = _value(base, evaluate, mover), 1
                base.undo()
    return [s / c for s, c in zip(sums, counts, strict=True)]


def prior_values(
    state: State, viewer: int | None = None, seed: int | None = 0
) -> list[float] | None:
    """Every legal action's probability under the game's move prior (how likely the learned
    player is to choose it), in ``state.legal_actions()`` order; None if the game ships no
    move prior. With a ``viewer`` in a game with secrets, the average over positions
    resampled for the viewer (up to :data:`QUICK_RESAMPLES`), so that no hidden card counts;
    None if no resample lists the same moves."""
    learning = state.game.spec().learning
    if learning is None or state.current_player < 0:
        return None
    prior = learning.move_prior()
    actions = list(state.legal_actions())
    if not (viewer is not None and state.game.has_secrets):
        return prior.probabilities(state, actions)
    rng = random.Random(seed)
    sums, counted = [0.0] * len(actions), 0
    for _ in range(QUICK_RESAMPLES):
        start = state.resample(viewer, rng)
        if list(start.legal_actions()) != actions:
            continue
        for i, p in enumerate(prior.probabilities(start, actions)):
            sums[i] += p
        counted += 1
    return [s / counted for s in sums] if counted else None


def prior_kept(prior: Sequence[float], mass: float, also: int | None = None) -> set[int]:
    """The moves the prior keeps: its likeliest, in order, until together they hold ``mass``
    of its probability, at least :data:`MIN_PRIOR_KEPT` of them, with every move as likely as
    the last one kept; and ``also`` (a move's index, such as the quick estimate's best)."""
    order = sorted(range(len(prior)), key=lambda i: -prior[i])
    kept: set[int] = set()
    total, last = 0.0, math.inf
    for i in order:
        # moves as likely as the last one kept stay with it: a flat prior leaves nothing out
        if total >= mass and len(kept) >= MIN_PRIOR_KEPT and prior[i] < last * (1 - 1e-9):
            break
        kept.add(i)
        total += prior[i]
        last = prior[i]
    if also is not None:
        kept.add(also)
    return kept


def _held_out(arms: Sequence[Arm], mover: int) -> tuple[float, float, float] | None:
    """The best move picked on the even games, its chance on the odd ones, with its 95%
    interval; None with fewer than ten odd games."""
    live = [a for a in arms if a.live]

    def mean_even(a: Arm) -> float:
        even = [float(s) for s in a.shares(mover)[::2] if s is not None]
        return sum(even) / len(even) if even else 0.0

    picked = max(live, key=mean_even)
    odd = [float(s) for s in picked.shares(mover)[1::2] if s is not None]
    if len(odd) < 10:
        return None
    total = sum(odd)
    if picked.scored:
        low, high = normal_interval(odd)
    else:
        low, high = share_interval(total, sum(s * s for s in odd), len(odd))
    return total / len(odd), low, high


def rank_actions(
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
    common: bool | None = None,
    drop_behind: float | None = DROP_BEHIND,
    prior_mass: float | None = PRIOR_MASS,
    race: bool = True,
    luck: bool = False,
    horizon: int | None = None,
) -> ActionRanking:
    """Every legal action of the seat to move, ranked by the mover's chance of winning the
    game after it: at once by the value model (:func:`quick_values`, passed to
    ``on_update`` as a ranking marked ``quick``), then from games, with 95% intervals, the
    best marked and the shortlist of moves the games cannot tell from it
    (:func:`~coronas.manygames.intervals.paired_difference`) shown together at the top.

    The arguments are :func:`~coronas.manygames.winchances.win_chances`' (``games`` and
    ``precision`` per move still in the running: the moves are played out batch by batch,
    every move on the same seeded games, until each has ``games`` games, every live move's
    half-width is at most ``precision`` or ``time`` is up). ``viewer`` defaults to the seat
    to move in a game with secrets: a player asks from their own view.
    ``on_update(ranking)`` is called with the quick ranking, then after each batch. Exact
    where every move's rest of the game can be walked or solved.

    ``drop_behind`` leaves out of the games every move the quick estimate puts that far
    behind the best (None: none); ``race`` drops from later games a move whose paired
    difference from the best is below zero at 95% corrected for the number of moves and for
    every batch at which they are compared (Bonferroni, look ``t`` given ``1/(t(t+1))`` of
    the 5%), after :data:`MIN_DROP_GAMES` games. ``prior_mass`` plays out only the
    learned player's likeliest moves, by the game's move prior (:func:`prior_values`), until
    together they hold that much of its probability (at least :data:`MIN_PRIOR_KEPT`, and the
    quick estimate's best; None: every move): where the prior is sure, the games go to the
    few moves worth them. A dropped move keeps its figures and says why.

    ``time`` bounds the whole call, as for ``win_chances``: the quick estimate takes at most
    a tenth of it (:data:`QUICK_SECONDS` at most), the exact attempts share
    :data:`~coronas.manygames.exact.EXACT_SHARE` of it, and the games get the rest. At
    least one game a live move is played.

    ``luck`` adjusts each game's shares by the luck of its rolls as the value model sees it
    (:class:`~coronas.manygames.scoring.Luck`), as for ``win_chances``.

    ``horizon`` cuts each game after that many actions (chance outcomes included), at the
    next position the game calls settled, as the search cuts its playouts, and scores it by
    the value model: the mover's share is the model's chance there, not a 0/1 win
    (:func:`~coronas.manygames.scoring.play_cut`). Cut games are quicker and less noisy,
    but their figures estimate the model's view ``horizon`` actions on: biased by the model's
    error there, and their intervals are for that quantity. None or 0 plays every game to
    its end; a game without a value model, or ``luck`` with it, is refused.

    ``common`` plays every move on the same seeded games (common random numbers); without it
    each move gets games of its own and the two estimates' variances add up. By default the
    game decides (``Game.spec().common_random_numbers``).
    """
    if state.current_player < 0:
        raise ValueError("rank_actions needs a decision: this state is a chance node or over")
    if drop_behind is not None and not 0 < drop_behind <= 1:
        raise ValueError(f"drop_behind is a chance between 0 and 1, or None; got {drop_behind!r}")
    if prior_mass is not None and not 0 < prior_mass <= 1:
        raise ValueError(
            f"prior_mass is a probability between 0 and 1, or None; got {prior_mass!r}"
        )
    mover = state.current_player
    if viewer is None and state.game.has_secrets:
        viewer = mover
    if state.game.has_secrets and viewer != mover:
        # the other seats' legal moves hang on cards the viewer cannot see
        raise ValueError(
            f"the moves are {state.player_name(mover)}'s: in a game with hidden cards they are "
            f"ranked from {state.player_name(mover)}'s view (viewer={mover} or None), not from "
            "another seat's"
        )
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
        horizon=horizon,
    )
    horizon = setup.horizon
    player, view, assumption = setup.names[mover], setup.view, setup.assumption
    actions = list(state.legal_actions())
    if common is None:
        common = state.game.spec().common_random_numbers
    odds = [_dice_odds(state, a) for a in actions]
    budget = setup.budget
    quick_time = QUICK_SECONDS if budget.time is None else min(QUICK_SECONDS, budget.time / 10)
    quick = quick_values(state, viewer, quick_time, seed)
    prior = None if prior_mass is None else prior_values(state, viewer, seed)

    def row(i: int, chance: Fraction, low: float, high: float, n: int) -> dict[str, Any]:
        return {
            "action": actions[i],
            "label": state.describe(actions[i]),
            "chance": chance,
            "low": low,
            "high": high,
            "games": n,
            "best": False,
            "shortlist": False,
            "too_close": False,
            "versus_best": None,
            "quick": None if quick is None else quick[i],
            "prior": None if prior is None else prior[i],
            "dropped": "",
            "odds": odds[i],
        }

    def ordered(rows: list[dict[str, Any]], top: int) -> tuple[dict[str, Any], ...]:
        rows[top]["best"] = rows[top]["shortlist"] = True
        for r in rows:
            r["too_close"] = r["shortlist"] and not r["best"]
        return tuple(
            sorted(
                rows,
                key=lambda r: (
                    not r["best"],
                    not r["shortlist"],
                    bool(r["dropped"]),
                    -float(r["chance"]),
                ),
            )
        )

    if quick is not None and on_update is not None:
        rows = [row(i, Fraction(v), v, v, 0) for i, v in enumerate(quick)]
        top = max(range(len(actions)), key=lambda i: quick[i])
        on_update(
            ActionRanking(player, ordered(rows, top), False, assumption, view, 0, common, True)
        )

    found = exact_answers(setup, [state.child(a) for a in actions])
    if found is not None:
        chances = [c[mover] for c in found]
        rows = [row(i, c, float(c), float(c), 0) for i, c in enumerate(chances)]
        top = max(range(len(actions)), key=lambda i: chances[i])
        for r in rows:
            r["shortlist"] = r["chance"] == chances[top]
        return ActionRanking(player, ordered(rows, top), True, assumption, view, 0, common)

    arms = [Arm(FromPosition(state, viewer, a), state.num_players) for a in actions]
    if quick is not None and drop_behind is not None:
        best_quick = max(quick)
        for arm, v in zip(arms, quick, strict=True):
            if v < best_quick - drop_behind:
                arm.dropped = (
                    f"left out of the games: the value model puts it "
                    f"{(best_quick - v) * 100:.0f} points behind the best move"
                )
    if prior is not None and prior_mass is not None:
        best = None if quick is None else max(range(len(actions)), key=lambda i: quick[i])
        kept = prior_kept(prior, prior_mass, best)
        for i, arm in enumerate(arms):
            if i not in kept and not arm.dropped:
                often = f"{prior[i]:.1%}" if prior[i] >= 0.001 else "less than 0.1%"
                arm.dropped = (
                    f"left out of the games: the learned player would choose it {often} of "
                    f"the time (the moves played hold {prior_mass:.0%} of its choices)"
                )
    looks = 0  # how many times the moves were compared for dropping
    versus: list[tuple[float, float, float] | None] = [None] * len(actions)

    def difference(i: int, top: int, z: float) -> tuple[float, float, float]:
        a, b = arms[i], arms[top]
        if common:
            return paired_difference(a.shares(mover), b.shares(mover), z)
        return independent_difference(a.moments(mover), b.moments(mover), z)

    def best_live() -> int:
        live = [i for i, a in enumerate(arms) if a.live]
        return max(live, key=lambda i: arms[i].chance(mover))

    def summarise(_: Sequence[Arm]) -> tuple[ActionRanking, float]:
        top = best_live()
        rows = []
        for i, arm in enumerate(arms):
            if arm.ended:
                low, high = arm.interval(mover)
                r = row(i, arm.chance(mover), low, high, arm.ended)
            else:  # never played: its quick figure
                v = quick[i] if quick is not None else 0.0
                r = row(i, Fraction(v), v, v, 0)
            r["dropped"] = arm.dropped
            if arm.live and i != top:
                versus[i] = difference(i, top, NormalDist().inv_cdf(0.975))
                r["shortlist"] = versus[i][2] >= 0
            r["versus_best"] = versus[i]
            rows.append(r)
        widest = max((r["high"] - r["low"]) / 2 for r, a in zip(rows, arms, strict=True) if a.live)
        played = min(a.ended for a in arms if a.live)
        held = _held_out(arms, mover) if common else None
        ranking = ActionRanking(
            player,
            ordered(rows, top),
            False,
            assumption,
            view,
            played,
            common,
            held_out=held,
            luck=luck,
            horizon=horizon,
        )
        return ranking, widest

    def prune(_: Sequence[Arm]) -> None:
        nonlocal looks
        if not race or all(a.ended < MIN_DROP_GAMES for a in arms if a.live):
            return
        looks += 1
        # 5% shared out over the moves compared and over every look (look t gets
        # 1/(t(t+1)) of it, summing to 1): the chance of ever dropping a move as good as
        # the best stays under 5% however long the games go on
        share = 0.05 / (max(1, len(actions) - 1) * looks * (looks + 1))
        race_z = NormalDist().inv_cdf(1 - share / 2)
        top = best_live()
        for i, arm in enumerate(arms):
            if arm.live and i != top and arm.ended >= MIN_DROP_GAMES:
                mean, low, high = difference(i, top, race_z)
                if high < 0:
                    arm.dropped = (
                        f"dropped after {arm.ended} games: clearly worse than the best move "
                        f"({mean * 100:+.1f} points, {low * 100:+.1f} to {high * 100:+.1f})"
                    )

    result, why = play_out(setup, arms, summarise, common=common, prune=prune)
    return dataclasses.replace(result, stopped=why)
