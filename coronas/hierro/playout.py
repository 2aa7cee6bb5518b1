"""Fast playouts of Corona de Hierro: a light policy, and when a cut playout may be scored.

A tree search plays thousands of games to their end (or to a depth) for every decision, so
its playout policy must cost little more than a random choice, and play well enough that the
results mean something. :class:`LightBot` is that policy: the greedy player's instincts
(take a castle when one roll is likely to, win supporters, recruit, march on the nearest
castle), scored from memoised tables instead of an observation and exact odds rebuilt at
every step. :func:`settled` says where a cut playout may be scored (by the value model,
:func:`coronas.hierro.features.evaluate`).

The policy reads only what every seat may see (ruling H17): the board, the castles, armies,
emissaries, legitimacy, shields and played cards' VP, and the cards of the seat to move;
never another seat's hand or loyalty card, nor the order of a deck.

>>> import random
>>> from coronas.engine import play
>>> from coronas.hierro import Game
>>> state = play(Game(players=3, seed=4).new_initial_state(), LightBot(), random.Random(4))
>>> state.is_terminal() and len(state.winners()) >= 1
True
"""

from __future__ import annotations

import functools
import random
from typing import Any

import networkx as nx

from coronas.dice import exact_fractions
from coronas.hierro import actions, odds
from coronas.hierro.rules import DIE_COLOURS, Rules, card_kind
from coronas.hierro.state import MAGYARS, ROME, SARACENS, BoardInfo, HierroState

__all__ = [
    "CONSTANT_SCORES",
    "PLAYOUT",
    "SEARCH",
    "SEARCH_CLASSIC",
    "LightBot",
    "battle_odds",
    "card_value",
    "distances",
    "light_scores",
    "settled",
    "turn_of",
]

SEARCH = {"c": 0.5, "depth": 10, "halving": 8, "prior": True, "simulations": 600}
"""The search bot's settings in this game (``mcts`` in ``BOTS``): PUCT, the tree focused by
the game's move prior (``prior``: each action's share of ``c`` times the square root of its
parent's visits, over its own visits plus one), and at the root sequential halving over the
prior's eight likeliest actions (``halving``: it keeps the prior's move, which copies
greedy's, unless its games find a better one). The playouts and their cut are as in
:data:`SEARCH_CLASSIC`, scored by :func:`~coronas.hierro.features.evaluate` (the value model),
and the simulations as many as fit within half a second a decision on one core. How they
were chosen and what they won (one search seat against two greedy seats: 113 of 200) is in
docs/performance.md."""

SEARCH_CLASSIC = {"c": 0.3, "depth": 10, "evaluate": "baseline", "simulations": 600}
"""The search bot's settings in this game (``mcts-classic`` in ``BOTS``, the plain UCT search
as it was before the value model and the move prior, kept beside :data:`SEARCH`): playouts by
:data:`PLAYOUT` cut after 10 actions, at the next :func:`settled` position (no dice or cards
pending), and scored by :func:`~coronas.hierro.features.earlier_evaluate` (``evaluate:
"baseline"``); a small
exploration constant; 600 simulations a decision, within half a second on one core (played
to the end, 200 simulations took 1.5 s). How each was chosen, match by match, is in
docs/performance.md."""


def settled(state: HierroState) -> bool:
    """Whether a cut playout may be scored here: at a seat's turn or at the end, not while an
    assault, a battle or a draw waits for its dice or its cards (the evaluations count
    castles and VP, and would score an assault as if it had failed)."""
    return state.step in ("play", "over")


def turn_of(state: HierroState) -> tuple[int]:
    """Which turn a position is in (the seat to play follows from it): moves compared on
    common random numbers by turns roll the n-th die and make the n-th choice of each turn
    alike (``GameSpec.turn``, ``rank_actions(by_turns=True)``), whatever the turns before
    them did."""
    return (state.turn,)


class _RuleTables:
    """What the policy looks up under one rule set: P(one roll of each colour's die >=
    target), floats for its comparisons, and the battle odds (shared by equal rule sets)."""

    __slots__ = ("battles", "odds", "rules")

    def __init__(self, rules: Rules):
        self.rules = rules
        self.odds: dict[str, tuple[float, ...]] = {}
        for colour in DIE_COLOURS:
            faces = rules.faces(colour)
            self.odds[colour] = tuple(
                sum(f >= t for f in faces) / len(faces) for t in range(max(faces) + 2)
            )
        self.battles = _BATTLES.setdefault(rules, {})


_BATTLES: dict[Rules, dict[tuple[int, int, bool], float]] = {}
"""Battle odds by rule set, equal rule sets sharing one table."""
_TABLES: dict[int, _RuleTables] = {}
"""The tables by the rule set's ``id``: every game has its own ``Rules``, and comparing two
equal ones field by field at every look-up would cost more than the look-up. An entry holds
its rule set, so the ``id`` is not reused while it is here."""


def _tables(rules: Rules) -> _RuleTables:
    hit = _TABLES.get(id(rules))
    if hit is None:
        if len(_TABLES) > 256:
            _TABLES.clear()
        hit = _TABLES[id(rules)] = _RuleTables(rules)
    return hit


def _p_ge(table: tuple[float, ...], target: int | None) -> float:
    if target is None:
        return 0.0
    return table[min(max(target, 0), len(table) - 1)]


class LightBot:
    """A fast playout policy: each legal action gets a score from a few table look-ups, the
    best is played (ties at random).

    Rolls are taken when one roll is likely to succeed (a castle assault at ``4 x P``, a
    supporter at ``4 x P``, where P is the chance of one roll from :func:`_odds`); battles at
    their exact odds without shields (memoised); recruits, Rome and cards that pay at once
    come next; an army otherwise marches towards the nearest castle its seat does not own.
    Rerolls are always taken; kept or discarded cards go by their worth.

    A share ``epsilon`` of the decisions is a uniformly random legal action: scores alone can
    send a seat round in circles (an emissary sent and called back, an army marched to and
    fro while every seat's hand is full), and a playout must end.
    """

    name = "light"

    def __init__(self, epsilon: float = 0.1):
        if not 0 <= epsilon <= 1:
            raise ValueError(f"epsilon is a probability, from 0 to 1, got {epsilon!r}")
        self.epsilon = epsilon

    def choose(self, state: HierroState, rng: random.Random) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if rng.random() < self.epsilon:
            return rng.choice(legal)
        step = state.step
        if step == "reroll":
            return next((a for a in legal if isinstance(a, actions.Reroll)), legal[0])
        if step in ("keep", "spy"):
            return max(legal, key=lambda a: card_value(a.card))
        if step != "play":
            return rng.choice(legal)
        view = _View(state)
        best: list[Any] = []
        best_score = float("-inf")
        for a in legal:
            s = _SCORES.get(type(a), _zero)(view, a)
            if s > best_score:
                best, best_score = [a], s
            elif s == best_score:
                best.append(a)
        return best[0] if len(best) == 1 else rng.choice(best)

    def __repr__(self) -> str:
        return f"LightBot(epsilon={self.epsilon})"


def light_scores(state: HierroState, legal: list[Any] | tuple[Any, ...]) -> list[float]:
    """The light player's score of each of ``legal`` (the move prior's first feature): at a
    turn, :data:`_SCORES`; a reroll 1; a card kept or spied on, its :func:`card_value`;
    anything else 0."""
    step = state.step
    if step == "play":
        view = _View(state)
        return [_SCORES.get(type(a), _zero)(view, a) for a in legal]
    if step == "reroll":
        return [1.0 if isinstance(a, actions.Reroll) else 0.0 for a in legal]
    if step in ("keep", "spy"):
        return [card_value(a.card) if hasattr(a, "card") else 0.0 for a in legal]
    return [0.0] * len(legal)


class _View:
    """The public facts one decision of the policy reads, fetched once."""

    __slots__ = ("odds", "p", "rules", "state", "targets")

    def __init__(self, state: HierroState):
        self.state = state
        self.p = state.player
        self.rules = state.rules
        self.odds = _tables(self.rules).odds
        self.targets: dict[str, int] | None = None

    def nearest(self) -> dict[str, int]:
        """Roads from each city of the board to the nearest castle the seat to move does not
        own (99 where none is reached)."""
        if self.targets is None:
            s, p = self.state, self.p
            owned = frozenset(c for c, o in s.owner.items() if o == p)
            self.targets = _nearest(s.info, owned)
        return self.targets


@functools.lru_cache(maxsize=4096)
def _nearest(info: BoardInfo, owned: frozenset[str]) -> dict[str, int]:
    """Roads from each city to the nearest castle not in ``owned`` (0 where every castle is
    owned; memoised: castles change hands far less often than armies move)."""
    near = {}
    for city, by_distance in _castles_by_distance(info).items():
        near[city] = next((d for d, castle in by_distance if castle not in owned), 0)
    return near


@functools.lru_cache(maxsize=16)
def _castles_by_distance(info: BoardInfo) -> dict[str, tuple[tuple[int, str], ...]]:
    """For each city, every castle with its roads from there (99 where no road leads),
    nearest first."""
    dist = distances(info.board)
    return {c: tuple(sorted((dist[c].get(t, 99), t) for t in info.castles)) for c in info.cities}


def _assault(v: _View, a: Any) -> float:
    s = v.state
    value = 5.0 if a.castle in s.info.royal else 4.0
    if isinstance(a, actions.PlayGoodFortune):
        if a.means == "emissary":
            return 4.0 * _p_ge(v.odds[v.rules.good_fortune_die], s.emissary_target(a.castle)) - 0.5
        return value * _p_ge(v.odds[v.rules.good_fortune_die], s.army_target(a.castle)) - 0.5
    colour = v.rules.army_colour(s.army(a.castle, v.p))
    return value * _p_ge(v.odds[colour], s.army_target(a.castle))


def _support(v: _View, a: Any) -> float:
    s = v.state
    colour = v.rules.band(s.legit[v.p])
    return 4.0 * _p_ge(v.odds[colour], s.emissary_target(a.castle))


def _battle(v: _View, a: Any) -> float:
    s, p = v.state, v.p
    cavalry = isinstance(a, actions.PlayCavalryCharge)
    win = battle_odds(v.rules, s.army(a.city, p), s.army(a.city, a.defender), cavalry)
    allied = 4.0 if s.allied(p, a.defender) else 0.0
    return 4.0 * win - 2.5 * (1 - win) + (v.rules.cavalry_vp * win if cavalry else 0) - allied


def _send(v: _View, a: Any) -> float:
    if a.to == ROME:
        return 2.2
    if a.to in (SARACENS, MAGYARS):
        return 0.3  # insurance against an invasion
    return 2.0 * _p_ge(v.odds[v.rules.band(v.state.legit[v.p])], v.state.emissary_target(a.to))


def _move(v: _View, a: Any) -> float:
    near = v.targets or v.nearest()  # every city of the board has its entry
    return 0.4 + (near[a.frm] - near[a.to]) * (0.6 + a.count / 4)


def _king_is_dead(v: _View, a: Any) -> float:
    legit = v.state.legit
    return 3.0 if legit[v.p] == max(legit) else -1.0


def _pope(v: _View, a: Any) -> float:
    rome = v.state.rome
    counts = [rome.count(q) for q in range(v.state.num_players)]
    return 3.0 if counts[v.p] == max(counts) and counts[v.p] > 0 else -1.0


def _invasion(v: _View, a: Any) -> float:
    people = v.state.magyars if a.card.startswith("magyar") else v.state.saracens
    return 2.0 if v.p in people else -1.0


def _constant(value: float) -> Any:
    return lambda v, a: value


_zero = _constant(0.0)

CONSTANT_SCORES: dict[type, float] = {
    actions.Recruit: 2.5,
    actions.PlayLoyalVassal: 2.5,
    actions.PlayBishop: 3.5,
    actions.PlaySecretPact: 3.5,
    actions.PlayResistance: 2.0,
    actions.PlaySpy: 0.8,
    actions.PlayHostage: 0.8,
    actions.TakeHostage: 0.8,
    actions.AcceptAlliance: 1.8,
    actions.TakeCard: 1.0,
    actions.DrawCards: 1.3,
    actions.ReturnHostage: -0.5,
}
"""The score of each kind of turn action whose worth does not depend on the position: the
greedy player's values (:meth:`coronas.hierro.bots.GreedyBot.score` reads them here), kept
once for both players and the move prior's features."""

_SCORES: dict[type, Any] = {
    **{kind: _constant(value) for kind, value in CONSTANT_SCORES.items()},
    actions.AttackCastle: _assault,
    actions.PlayGoodFortune: _assault,
    actions.RequestSupport: _support,
    actions.AttackArmy: _battle,
    actions.PlayCavalryCharge: _battle,
    actions.SendEmissary: _send,
    actions.PlayKingIsDead: _king_is_dead,
    actions.PlayPope: _pope,
    actions.PlayInvasion: _invasion,
    actions.Move: _move,
    actions.PlayForcedMarch: _move,
    actions.DiscardCard: lambda v, a: 0.1 - card_value(a.card) / 10,
}
"""The policy's score of each kind of turn action (the greedy player's values)."""


PLAYOUT = LightBot(epsilon=0.0)
"""The search's playout policy (:func:`coronas.engine.mcts.game_defaults`): :class:`LightBot`
without random moves. A cut playout ends at its depth, so it needs none to end, and without
them its only chance is the dice and the hidden cards: less noise in the values the search
compares, and play closer to the greedy player's. Win chances, which play to the end, keep
``LightBot()``."""


def battle_odds(rules: Any, attacker: int, defender: int, cavalry: bool) -> float:
    """P(the attacker wins), no shields: exact, computed in Fractions (no sympy) once."""
    table = _tables(rules).battles
    key = (attacker, defender, cavalry)
    value = table.get(key)
    if value is None:
        with exact_fractions():
            result = odds.battle(attacker, defender, rules=rules, cavalry_charge=cavalry)
            value = table[key] = float(result.attacker_wins)
    return value


_CARD_VALUES = {
    "secret_pact": 3.0,
    "bishop": 2.5,
    "good_fortune": 2.0,
    "loyal_vassal": 1.5,
    "king_is_dead": 1.5,
    "cavalry_charge": 1.2,
    "forced_march": 1.0,
}


@functools.lru_cache(maxsize=256)
def card_value(card: str) -> float:
    """What a card in hand is worth to the light and greedy players (0.5 for a kind not
    named in :data:`_CARD_VALUES`)."""
    return _CARD_VALUES.get(card_kind(card), 0.5)


# Road distances between cities, by board (boards are unhashable: keyed by id).
_DISTANCES: dict[int, dict[str, dict[str, int]]] = {}


def distances(board: Any) -> dict[str, dict[str, int]]:
    """Roads between every two cities of ``board`` (worked out once per board)."""
    key = id(board)
    if key not in _DISTANCES:
        _DISTANCES[key] = dict(nx.all_pairs_shortest_path_length(board.graph()))
    return _DISTANCES[key]
