"""What Corona de Hierro's learned models read: each seat's value features and the features
of a (position, action) pair, all from public information and the hand of the seat to move.

The value features are the six the earlier evaluation read (:data:`FEATURES`), the size of the
hand and the lead in public VP (:data:`VALUE_FEATURES`); the action
features are the light player's score of the action (the greedy player's values, from
:data:`coronas.hierro.playout.SCORES`), whether that score is the best on offer, and the
kind of the action. :data:`LEARNING` declares them, with the earlier fitted evaluation
(:func:`earlier_evaluate`, :data:`WEIGHTS` over :data:`FEATURES`) as the value model's
baseline; :func:`evaluate` is the value model, the evaluation of a cut playout.

>>> from coronas.hierro import Game
>>> state = Game(players=3, seed=1).new_initial_state()
>>> len(features(state)), len(features(state)[0]) == len(FEATURES)
(3, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from coronas.engine.evaluation import logistic_shares, win_shares
from coronas.engine.learning import Learning
from coronas.hierro import actions
from coronas.hierro.playout import light_scores, settled

if TYPE_CHECKING:
    from coronas.hierro.state import HierroState

__all__ = [
    "ACTION_FEATURES",
    "FEATURES",
    "LEARNING",
    "VALUE_FEATURES",
    "WEIGHTS",
    "action_features",
    "earlier_evaluate",
    "evaluate",
    "features",
    "value_features",
]

FEATURES = ("castles", "cards", "emissaries", "legitimacy", "pawns", "to_move")
"""What the earlier evaluation read of each seat, all public (:func:`features`), the first of
the value model's :data:`VALUE_FEATURES`."""


def features(state: HierroState) -> list[tuple[int, ...]]:
    """Each seat's :data:`FEATURES`, from public information only: VP of its castles by noble
    family, VP of the cards it has played, VP of its free emissaries (1 unless one is held
    hostage), its level of legitimacy, its pawns on the board, and 1 for the seat to move."""
    pawns = state.rules.army_pawns
    return [
        (
            row["castles"],
            row["cards"],
            row["emissaries"],
            state.legit[p],
            pawns - state.pawns[p],
            int(p == state.player),
        )
        for p, row in enumerate(state.public_scores())
    ]


WEIGHTS = (0.116, 0.202, 0.176, 0.147, 0.149, 0.070)
"""The earlier fitted weight of each of :data:`FEATURES` in a seat's strength, in nats of odds
of winning: the maximum-likelihood fit (:func:`~coronas.engine.learning.fit_choice`) to
positions of 4000 seeded games between greedy and light players (a script since replaced by
``coronas train hierro``). The shipped value model (``data/value_model.json``) took its
place in :func:`evaluate`; these weights are its baseline (:func:`earlier_evaluate`)."""


def earlier_evaluate(state: HierroState) -> tuple[float, ...]:
    """The evaluation before the shipped value model: :data:`WEIGHTS` times
    :func:`features`, through :func:`~coronas.engine.evaluation.logistic_shares` with a scale
    of 1 (the value model's baseline)."""
    if state.is_terminal():
        return win_shares(state)
    strengths = [sum(w * x for w, x in zip(WEIGHTS, row, strict=True)) for row in features(state)]
    return logistic_shares(strengths, 1.0)


VALUE_FEATURES = (*FEATURES, "hand", "lead")
"""What the value model reads of each seat: :data:`FEATURES`, the cards in its hand (their
number is public), and its lead in public VP over the best rival (negative when behind; the
VP of loyalty cards stay secret)."""


def value_features(state: HierroState) -> list[tuple[int, ...]]:
    """Each seat's :data:`VALUE_FEATURES`, from public information only."""
    pawns = state.rules.army_pawns
    public = state.public_scores()
    totals = [row["total"] for row in public]
    rows = []
    for p, row in enumerate(public):
        rival = max(t for q, t in enumerate(totals) if q != p)
        rows.append(
            (
                row["castles"],
                row["cards"],
                row["emissaries"],
                state.legit[p],
                pawns - state.pawns[p],
                int(p == state.player),
                len(state.hands[p]),
                totals[p] - rival,
            )
        )
    return rows


_KINDS: dict[type, str] = {
    actions.AttackCastle: "assault",
    actions.PlayGoodFortune: "assault",
    actions.RequestSupport: "support",
    actions.AttackArmy: "battle",
    actions.PlayCavalryCharge: "battle",
    actions.Recruit: "recruit",
    actions.PlayLoyalVassal: "recruit",
    actions.SendEmissary: "emissary",
    actions.TakeCard: "draw",
    actions.DrawCards: "draw",
    actions.Move: "move",
    actions.PlayForcedMarch: "move",
    actions.Reroll: "reroll",
}
_KIND_NAMES = ("assault", "support", "battle", "recruit", "emissary", "draw", "move", "reroll")
_CARD = "card"

ACTION_FEATURES = ("score", "best", *_KIND_NAMES, _CARD)
"""What the move prior reads of an action: the light player's score, 1 where that score is
the best on offer, the kind of action (one-hot; a card played that is none of them counts as
``card``; anything else has none)."""

_ONE_HOT = {
    kind: tuple(int(k == kind) for k in (*_KIND_NAMES, _CARD)) for kind in (*_KIND_NAMES, _CARD)
}
_NONE = (0,) * (len(_KIND_NAMES) + 1)


def action_features(state: HierroState, legal: Sequence[Any]) -> list[tuple[float, ...]]:
    """Each of ``legal``'s :data:`ACTION_FEATURES` in ``state`` (a decision of the seat to
    move): what the light player reads, table look-ups and no exact odds."""
    scores = light_scores(state, legal)
    best = max(scores)
    rows = []
    for a, s in zip(legal, scores, strict=True):
        kind = _KINDS.get(type(a))
        if kind is None and type(a).__name__.startswith("Play"):
            kind = _CARD
        rows.append((s, float(s == best), *(_ONE_HOT[kind] if kind else _NONE)))
    return rows


LEARNING = Learning(
    game="hierro",
    value_names=VALUE_FEATURES,
    value_features=value_features,
    action_names=ACTION_FEATURES,
    action_features=action_features,
    baseline=earlier_evaluate,
    baseline_name="the earlier fit (features.WEIGHTS)",
    package="coronas.hierro",
    players=3,
    settled=settled,
)
"""Corona de Hierro's declaration for learned judgement (:mod:`coronas.engine.learning`)."""


def evaluate(state: HierroState) -> tuple[float, ...]:
    """Each seat's estimated chance of winning, from public information only: the shipped
    value model (``data/value_model.json``, fitted by ``coronas train hierro``), the softmax
    over seats of its weights times :func:`value_features`, the chance each seat would win if
    the players of its training games played on from here (:meth:`Learning.evaluate
    <coronas.engine.learning.Learning.evaluate>`, which falls back on :func:`earlier_evaluate`
    if the model did not beat it). At the end of the game: the exact shares of the winners.
    The evaluation of a cut playout."""
    return LEARNING.evaluate(state)
