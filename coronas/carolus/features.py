"""What Carolus Magnus's learned models read: each player's value features and the features
of a (position, action) pair. Nothing is hidden in Carolus Magnus: both read the open position.

The value features are what the hand-set evaluation
(:func:`coronas.carolus.playout.hand_set_evaluate`) weighs, one weight each, and the castles
squared over the target (a lead counts for more near the end); the action features are the
light player's scores, whether the light player would play the action, and what the greedy
player weighs of a knight deployed (the castle lead it adds within reach, and whether it goes
to a close court race). :data:`LEARNING` declares them, and :func:`evaluate` is the value
model fitted on them, the evaluation of a cut playout.

>>> from coronas.carolus import Game
>>> state = Game(players=2, seed=1).new_initial_state()
>>> len(features(state)) == 2 and len(features(state)[0]) == len(FEATURES)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from coronas.carolus.actions import AssignJoker, ChooseDisc, Deploy, MoveEmperor
from coronas.carolus.effects import family_controller
from coronas.carolus.playout import (
    COURT,
    SCALE,
    _knight_values,
    _reach,
    _stop_leads,
    court_lead,
    hand_set_evaluate,
    lead,
    parts,
    settled,
)
from coronas.engine.learning import Learning

if TYPE_CHECKING:
    from coronas.carolus.state import CarolusState

__all__ = [
    "ACTION_FEATURES",
    "FEATURES",
    "LEARNING",
    "RACE",
    "action_features",
    "evaluate",
    "features",
]

FEATURES = ("castles", "projected", "court", "families", "to_move", "castles_sq", "hand_set")
"""What the value model reads of each player: castles on the board, castles it would hold if
the emperor stopped in every region now, its court margin (knights of lead, at most two a
family either way), families it controls, 1 for the player to move, its castles squared
over the castle target, and the hand-set evaluation's strength over its scale (so that the
fitted model can do no worse than the hand-set one on the positions it is fitted to)."""


def features(state: CarolusState) -> list[tuple[float, ...]]:
    """Each player's :data:`FEATURES`, read from the open position."""
    totals, projected, margin = parts(state)
    n = state.num_players
    target = state.rules.castle_target(n)
    control = state.control
    mover = state.current_player
    left = max(target - max(totals), 1) / target
    scale = SCALE * left + 0.25
    return [
        (
            totals[p],
            projected[p],
            margin[p],
            sum(1 for c in control if c == p),
            int(mover == p),
            totals[p] * totals[p] / target,
            ((totals[p] + projected[p]) / 2 + COURT * margin[p]) / scale,
        )
        for p in range(n)
    ]


ACTION_FEATURES = (
    "light",
    "lead",
    "disc",
    "steps",
    "knight",
    "court",
    "region",
    "gain",
    "race",
)
"""What the move prior reads of an action: 1 where the light player's score is the best on
offer; the castle lead the light player sees in it (the best stop within a disc's reach, or
at the emperor's stop); the disc's size; the emperor's steps; the light player's value of a
knight (or joker) placed; 1 for a knight to the own court, 1 for a knight to a region; how
much a knight deployed raises the best castle lead within the disc's reach; and 1 for a
knight to the own court of a family whose race is close (the court from two knights behind
the best rival's to one ahead, so the knight moves its lead within two either way).

The last two are what the greedy player weighs when it deploys. Without them the prior saw
no difference between a knight that wins a region and one that does nothing, nor between a
court knight that matters and one that does not: it sent every knight to the court, and two
policy players froze the board, the emperor stopping where nothing could change, until the
courts happened to shift control (about 13,000 actions a game; docs/performance.md)."""

RACE = (-2, 1)
"""The own court's lead over the best rival (before the knight) where a court knight counts
for ``race``: the greedy player counts court leads from -2 to 2 (:mod:`coronas.carolus.bots`)."""


def action_features(state: CarolusState, legal: Sequence[Any]) -> list[tuple[float, ...]]:
    """Each of ``legal``'s :data:`ACTION_FEATURES` in ``state``: the light player's look-ups,
    and for a knight deployed the stops in reach as they would be with it (no action tried:
    :func:`_deploy_gain`)."""
    p = state.current_player
    first = legal[0]
    rows: list[list[float]] = []
    if isinstance(first, ChooseDisc):
        leads = _stop_leads(state, p, max(a.disc for a in legal))
        for a in legal:
            best = max(leads[: a.disc])
            rows.append([best * 10 - 0.1 * a.disc, best, a.disc, 0, 0, 0, 0, 0, 0])
    elif isinstance(first, MoveEmperor):
        leads = _stop_leads(state, p, len(legal))
        for a in legal:
            here = leads[a.steps - 1]
            rows.append([here * 10 - 0.01 * a.steps, here, 0, a.steps, 0, 0, 0, 0, 0])
    elif isinstance(first, Deploy | AssignJoker):
        reach = _reach(state, state.chosen[p] or 5)
        families = state.rules.families
        gain = _deploy_gain(state, p, reach) if isinstance(first, Deploy) else None
        control = state.control
        low, high = RACE
        for a, value in zip(legal, _knight_values(state, p, legal, reach), strict=True):
            f = families.index(a.family)
            region = getattr(a, "region", None)
            row = [value, 0, 0, 0, value, float(region is None), float(region is not None)]
            if gain is None:  # a joker assigned: it goes to the reserve
                row += [0, 0]
            elif region is None:
                row += [gain(f, None), float(low <= court_lead(state, p, f) <= high)]
            else:  # only a family someone controls counts, and only at a stop in reach
                row += [gain(f, region) if control[f] >= 0 and region in reach else 0, 0]
            rows.append(row)
    else:
        return [(0.0,) * len(ACTION_FEATURES) for _ in legal]
    top = max(row[0] for row in rows)
    for row in rows:
        row[0] = float(row[0] == top)
    return [tuple(row) for row in rows]


def _deploy_gain(
    state: CarolusState, p: int, reach: frozenset[int]
) -> Callable[[int, int | None], int]:
    """``gain(f, region)``: how much one knight of family ``f`` deployed to ``region`` (None:
    ``p``'s court) raises ``p``'s best castle lead at the stops in ``reach`` (a region in
    reach, of a family someone controls). A knight in a region adds one to its family's
    controller's total there; one in the court may move the family, and its knights at every
    stop, to ``p``. Each stop is scored by the rules (``state.stop_totals``) with those
    totals."""
    control, court, knights = state.control, state.court, state.knights
    now = state.castle_totals()
    strengths = {r: state.strengths(r) for r in reach}
    leads = {r: lead(state.stop_totals(r, strengths[r], now), p) for r in reach}
    best = max(leads.values())

    def best_with(changed: dict[int, list[int]]) -> int:
        return max(
            lead(state.stop_totals(r, changed[r], now), p) if r in changed else here
            for r, here in leads.items()
        )

    def gain(f: int, region: int | None) -> int:
        holder = control[f]
        if region is not None:
            totals = list(strengths[region])
            totals[holder] += 1
            return best_with({region: totals}) - best
        if family_controller([c[f] + (q == p) for q, c in enumerate(court)], holder) == holder:
            return 0
        changed = {}  # p takes the family: its knights count for p, no longer for the holder
        for r in reach:
            if knights[r][f]:
                totals = changed[r] = list(strengths[r])
                totals[p] += knights[r][f]
                if holder >= 0:
                    totals[holder] -= knights[r][f]
        return best_with(changed) - best

    return gain


LEARNING = Learning(
    game="carolus",
    value_names=FEATURES,
    value_features=features,
    action_names=ACTION_FEATURES,
    action_features=action_features,
    baseline=hand_set_evaluate,
    baseline_name="the hand-set evaluation (playout.hand_set_evaluate)",
    package="coronas.carolus",
    players=2,
    settled=settled,
)
"""Carolus Magnus's declaration for learned judgement (:mod:`coronas.engine.learning`)."""


def evaluate(state: CarolusState) -> tuple[float, ...]:
    """Each player's estimated chance of winning, from the open position: the shipped value
    model (``data/value_model.json``, fitted by ``coronas train carolus``) where its held-out
    log-loss beat the hand-set evaluation's, else
    :func:`~coronas.carolus.playout.hand_set_evaluate` (:meth:`Learning.evaluate
    <coronas.engine.learning.Learning.evaluate>`). The evaluation of a cut playout."""
    return LEARNING.evaluate(state)
