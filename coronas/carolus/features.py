"""What Carolus Magnus's learned models read: each player's value features and the features
of a (position, action) pair. Nothing is hidden in Carolus Magnus: both read the open position.

The value features are what the hand-set evaluation (:func:`coronas.carolus.playout.evaluate`)
weighs, one weight each, and the castles squared over the target (a lead counts for more near
the end); the action features are the light player's scores and whether the light player
would play the action. :data:`LEARNING` declares them.

>>> from coronas.carolus import Game
>>> state = Game(players=2, seed=1).new_initial_state()
>>> len(features(state)) == 2 and len(features(state)[0]) == len(FEATURES)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from coronas.carolus.actions import AssignJoker, ChooseDisc, Deploy, MoveEmperor
from coronas.carolus.playout import (
    COURT,
    SCALE,
    _knight_value,
    _reach,
    _stop_leads,
    hand_set_evaluate,
    parts,
    settled,
)
from coronas.engine.learning import Learning

if TYPE_CHECKING:
    from coronas.carolus.state import CarolusState

__all__ = ["ACTION_FEATURES", "FEATURES", "LEARNING", "action_features", "features"]

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


ACTION_FEATURES = ("light", "lead", "disc", "steps", "knight", "court", "region")
"""What the move prior reads of an action: 1 where the light player's score is the best on
offer; the castle lead the light player sees in it (the best stop within a disc's reach, or
at the emperor's stop); the disc's size; the emperor's steps; the light player's value of a
knight (or joker) placed; 1 for a knight to the own court, 1 for a knight to a region."""


def action_features(state: CarolusState, legal: Sequence[Any]) -> list[tuple[float, ...]]:
    """Each of ``legal``'s :data:`ACTION_FEATURES` in ``state`` (the light player's look-ups,
    no placement tried)."""
    p = state.current_player
    first = legal[0]
    rows: list[list[float]] = []
    if isinstance(first, ChooseDisc):
        leads = _stop_leads(state, p, max(a.disc for a in legal))
        for a in legal:
            best = max(leads[: a.disc])
            rows.append([best * 10 - 0.1 * a.disc, best, a.disc, 0, 0, 0, 0])
    elif isinstance(first, MoveEmperor):
        leads = _stop_leads(state, p, len(legal))
        for a in legal:
            here = leads[a.steps - 1]
            rows.append([here * 10 - 0.01 * a.steps, here, 0, a.steps, 0, 0, 0])
    elif isinstance(first, Deploy | AssignJoker):
        reach = _reach(state, state.chosen[p] or 5)
        families = state.rules.families
        for a in legal:
            value = _knight_value(state, p, families.index(a.family), a, reach)
            region = getattr(a, "region", None) is not None
            rows.append([value, 0, 0, 0, value, float(not region), float(region)])
    else:
        return [(0.0,) * len(ACTION_FEATURES) for _ in legal]
    top = max(row[0] for row in rows)
    for row in rows:
        row[0] = float(row[0] == top)
    return [tuple(row) for row in rows]


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
