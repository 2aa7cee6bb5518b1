"""The quick judgements of every move, made before any game is played: its chance of winning
by the game's value model (:func:`quick_values`) and how likely the game's learned player is to
choose it, by its move prior (:func:`prior_values`), with the rule that keeps the likeliest
moves (:func:`prior_kept`) and the limits all of them keep to.

They take under a second and need neither bots nor games, so they live apart from the games:
:func:`~.moves.rank_actions` shows the quick estimate at once and uses both judgements to leave
out of the games the moves not worth them (:data:`DROP_BEHIND`, :data:`PRIOR_MASS`).
"""

from __future__ import annotations

import math
import random
import time as clock
from collections.abc import Sequence
from typing import Any

from coronas.engine.evaluation import win_shares
from coronas.engine.learning import MovePrior
from coronas.engine.state import State

__all__ = [
    "DROP_BEHIND",
    "EVERY_MOVE",
    "LEFT_BY_PRIOR",
    "LEFT_BY_QUICK",
    "LIKELIEST_MOVES",
    "MAX_KEPT",
    "MAX_QUICK_OUTCOMES",
    "MIN_PRIOR_KEPT",
    "PRIOR_MASS",
    "QUICK_RESAMPLES",
    "QUICK_SECONDS",
    "left_out",
    "prior_kept",
    "prior_values",
    "quick_values",
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
MAX_KEPT = 3
"""The most moves a ranking plays out when the move prior leaves some out: the quick
estimate's best, then the prior's likeliest (the quick estimate's better on a tie). Where more
moves are worth about the same, the games cannot tell them apart in seconds, and a shortlist
of four or more tells a player nothing; three with more games each can be told apart."""
EVERY_MOVE = {"prior_mass": None, "drop_behind": None, "quick_kept": None, "halving": True}
"""``rank_actions``' options that play every legal move out, none left out by the move prior
or by the value model (:func:`left_out`'s options), and halve them (sequential halving:
the worse half dropped at the end of each part of the games, down to ``last_kept``,
:data:`MAX_KEPT` unless the game declares fewer),
so that the games go to the moves that could be best without the two judgements choosing
them (Corona de Hierro's own rankings, ``advise --every-move``, the stepper's "every move"
box). The advice benchmark's reference plays every move without halving."""
LIKELIEST_MOVES = {
    "prior_mass": PRIOR_MASS,
    "drop_behind": DROP_BEHIND,
    "halving": False,
    "last_part": None,
    "last_kept": MAX_KEPT,
    "quick_kept": None,
}
"""``rank_actions``' options that play out only the learned player's likeliest moves and the
quick estimate's best (:func:`left_out` as by default, :data:`MAX_KEPT` at most): the generic
default, and the stepper's "every move" box unticked in a game whose own rankings play every
move."""
LEFT_BY_PRIOR = "left out: the learned player would choose it"
"""How the reason of a move the move prior left out of the games begins."""
LEFT_BY_QUICK = "left out: not among the value model's"
"""How the reason of a move left outside the quick estimate's best few begins."""


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
    state: State,
    viewer: int | None = None,
    seed: int | None = 0,
    prior: MovePrior | None = None,
) -> list[float] | None:
    """Every legal action's probability under the game's move prior (how likely the learned
    player is to choose it), in ``state.legal_actions()`` order; None if the game ships no
    move prior. With a ``viewer`` in a game with secrets, the average over positions
    resampled for the viewer (up to :data:`QUICK_RESAMPLES`), so that no hidden card counts;
    None if no resample lists the same moves. ``prior`` reads another move prior of the
    game (one refitted into a file, to compare it with the shipped one)."""
    learning = state.game.spec().learning
    if learning is None or state.current_player < 0:
        return None
    if prior is None:
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


def prior_kept(
    prior: Sequence[float], mass: float, also: int | None = None, least: int = MIN_PRIOR_KEPT
) -> set[int]:
    """The moves the prior keeps: its likeliest, in order, until together they hold ``mass``
    of its probability, at least ``least`` of them, with every move as likely as the last one
    kept; and ``also`` (a move's index, such as the quick estimate's best)."""
    order = sorted(range(len(prior)), key=lambda i: -prior[i])
    kept: set[int] = set()
    total, last = 0.0, math.inf
    for i in order:
        # moves as likely as the last one kept stay with it: a flat prior leaves nothing out
        if total >= mass and len(kept) >= least and prior[i] < last * (1 - 1e-9):
            break
        kept.add(i)
        total += prior[i]
        last = prior[i]
    if also is not None:
        kept.add(also)
    return kept


def left_out(
    quick: Sequence[float] | None,
    prior: Sequence[float] | None,
    drop_behind: float | None = DROP_BEHIND,
    prior_mass: float | None = PRIOR_MASS,
    least: int = MIN_PRIOR_KEPT,
    quick_best: bool = True,
    most: int | None = MAX_KEPT,
    quick_kept: int | None = None,
) -> dict[int, str]:
    """The moves a ranking leaves out of its games, by index, each with why, in a player's
    words: the ones the quick estimate puts more than ``drop_behind`` behind its best, then
    the ones the move prior does not keep (:func:`prior_kept` with ``prior_mass`` and
    ``least``, the quick estimate's best kept too when ``quick_best``), at most ``most`` of
    them kept: the quick estimate's best first, then by the prior, a tie by the quick
    estimate; and with ``quick_kept``, every move outside the quick estimate's ``quick_kept``
    best, a tie broken by the prior, then by the order the moves are listed in (that many
    are kept). None for an option, or no ``quick`` or ``prior``, leaves its rule out."""
    out: dict[int, str] = {}
    if quick is not None and drop_behind is not None:
        best_quick = max(quick)
        for i, v in enumerate(quick):
            if v < best_quick - drop_behind:
                out[i] = (
                    f"left out: the value model puts it "
                    f"{(best_quick - v) * 100:.0f} points behind the best move"
                )
    if quick is not None and quick_kept is not None and len(quick) > quick_kept:
        best_quick = max(quick)
        # that many, by the quick estimate, a tie by the prior, then in the listing's order
        # (the value model and the prior often value many moves alike)
        ties = prior if prior is not None else [0.0] * len(quick)
        order = sorted(range(len(quick)), key=lambda i: (-quick[i], -ties[i], i))
        last = order[quick_kept - 1]
        for i in order[quick_kept:]:
            if i in out:
                continue
            if quick[i] < quick[last]:
                behind = f"{(best_quick - quick[i]) * 100:.0f} points behind the best"
            elif ties[i] < ties[last]:
                behind = "as good as the last of them, but the learned player would choose it "
                behind += "less often"
            else:
                behind = "as good as the last of them, listed after it"
            out[i] = f"{LEFT_BY_QUICK} {quick_kept} best moves, {behind}"
    if prior is not None and prior_mass is not None:
        best = None
        if quick is not None and quick_best:
            best = max(range(len(quick)), key=lambda i: quick[i])
        kept = prior_kept(prior, prior_mass, best, least)
        alive = [i for i in sorted(kept) if i not in out]  # not left out by the value model
        capped: set[int] = set()  # kept by the prior, but beyond the most played out
        if most is not None and len(alive) > most:
            ties = quick if quick is not None else [0.0] * len(prior)
            kept = set(sorted(alive, key=lambda i: (i != best, -prior[i], -ties[i]))[:most])
            capped = set(alive) - kept
        for i, p in enumerate(prior):
            if i not in kept and i not in out:
                often = f"{p:.1%}" if p >= 0.001 else "less than 0.1%"
                out[i] = f"{LEFT_BY_PRIOR} {often} of the time"
                if i in capped:
                    out[i] += f", beyond the {most} moves played out"
    return out
