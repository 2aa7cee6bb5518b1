"""Simple players of Corona de Hierro, for simulation.

Every bot has a ``name`` and ``choose(state, rng) -> action`` (the shared :class:`Bot`
protocol), so :func:`coronas.engine.play` can seat any mix of them. A bot decides on what its
player may see: ``state.observation(player)`` (ruling H17), the legal actions, and the game's
rule set and board, never on the other players' cards or loyalty. The legal actions show no
more than the table does: Spy names only its target, and the target's cards are listed (as
``SpyDiscard``) once Spy has been played and its player looks at them.

>>> import random
>>> from coronas.engine import play
>>> from coronas.hierro import Game
>>> state = play(Game(players=3, seed=2).new_initial_state(),
...              [GreedyBot(), RandomBot(), RandomBot()], random.Random(2))
>>> state.is_terminal()
True
"""

from __future__ import annotations

import random
from typing import Any

import networkx as nx

from coronas.dice import exact_fractions
from coronas.engine import MCTSBot, RandomBot
from coronas.hierro import actions, odds
from coronas.hierro.rules import card_kind
from coronas.hierro.state import ROME, HierroState

__all__ = ["BOTS", "GreedyBot", "MCTSBot", "RandomBot", "Seen"]


class Seen:
    """What the player to move sees, read the way the bots need it: its observation, with
    the game's rule set, board and board tables (which every player knows)."""

    def __init__(self, state: HierroState):
        self.player = state.current_player
        self.obs = state.observation(self.player)
        self.rules = state.rules
        self.board = state.board
        self.info = state.info

    def army(self, city: str, player: int) -> int:
        here = self.obs["armies"].get(city)
        return here[player] if here else 0

    def owner(self, castle: str) -> int | None:
        return self.obs["castles"][castle]["owner"]

    def army_target(self, castle: str) -> int:
        return self.obs["castles"][castle]["army_target"]

    def emissary_target(self, castle: str) -> int | None:
        return self.obs["castles"][castle]["emissary_target"]

    def allied(self, a: int, b: int) -> bool:
        return any(ok and {x, y} == {a, b} for x, y, ok in self.obs["alliances"])


class GreedyBot:
    """Scores each legal action by simple heuristics and plays the best one.

    It rolls when the odds of a castle or an emissary are good, fights only battles it is
    likely to win, recruits, sends emissaries to Rome while that is allowed, plays cards that
    help it at once, and otherwise marches its largest army towards the nearest castle it does
    not own. A battle's odds are exact (:func:`coronas.hierro.odds.battle`), a castle's or an
    emissary's those of one roll of the die.
    """

    name = "greedy"

    def choose(self, state: HierroState, rng: random.Random) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seen = Seen(state)
        best, best_score = [], float("-inf")
        for a in legal:
            s = self.score(seen, a)
            if s > best_score:
                best, best_score = [a], s
            elif s == best_score:
                best.append(a)
        return rng.choice(best)

    def __repr__(self) -> str:
        return "GreedyBot()"

    # The heuristic value of an action: about "expected VP-ish gain", floats only.
    def score(self, seen: Seen, a: Any) -> float:
        """The value of ``a`` for the player to move, from what it sees (:class:`Seen`)."""
        p = seen.player
        r = seen.rules
        obs = seen.obs
        legit = obs["legitimacy"]
        if isinstance(a, actions.Reroll):
            return 1.0
        if isinstance(a, actions.AcceptRoll):
            return 0.5 if obs["shields"][p] <= 1 else 0.0
        if isinstance(a, actions.ChooseCastle):
            return -len(_nearby_castles(seen.board, a.castle))
        if isinstance(a, actions.Keep):
            return _card_value(a.card)
        if isinstance(a, actions.AttackCastle | actions.PlayGoodFortune):
            if isinstance(a, actions.PlayGoodFortune) and a.means == "emissary":
                target = seen.emissary_target(a.castle) or 7
                return 4.0 * _p_ge(r.die(r.good_fortune_die), target) - 0.5
            n = seen.army(a.castle, p)
            die = (
                r.die(r.good_fortune_die)
                if isinstance(a, actions.PlayGoodFortune)
                else r.army_die(n)
            )
            value = 5.0 if a.castle in seen.info.royal else 4.0
            return value * _p_ge(die, seen.army_target(a.castle)) - (
                0.5 if isinstance(a, actions.PlayGoodFortune) else 0.0
            )
        if isinstance(a, actions.RequestSupport):
            target = seen.emissary_target(a.castle) or 7
            return 4.0 * _p_ge(r.diplomacy_die(legit[p]), target)
        if isinstance(a, actions.AttackArmy | actions.PlayCavalryCharge):
            mine, theirs = seen.army(a.city, p), seen.army(a.city, a.defender)
            cavalry = isinstance(a, actions.PlayCavalryCharge)
            win = _p_battle(r, mine, theirs, cavalry)
            allied = 4.0 if seen.allied(p, a.defender) else 0.0
            return 4.0 * win - 2.5 * (1 - win) + (r.cavalry_vp * win if cavalry else 0) - allied
        if isinstance(a, actions.Recruit | actions.PlayLoyalVassal):
            return 2.5
        if isinstance(a, actions.SendEmissary):
            if a.to == ROME:
                return 2.2
            target = seen.emissary_target(a.to) if a.to in seen.info.castle_set else None
            if target is None:
                return 0.3  # barbarian insurance
            return 2.0 * _p_ge(r.diplomacy_die(legit[p]), target)
        if isinstance(a, actions.PlayBishop | actions.PlaySecretPact):
            return 3.5
        if isinstance(a, actions.PlayKingIsDead):
            return 3.0 if legit[p] == max(legit) else -1.0
        if isinstance(a, actions.PlayPope):
            counts = [obs["rome"].count(q) for q in range(obs["players"])]
            return 3.0 if counts[p] == max(counts) and counts[p] > 0 else -1.0
        if isinstance(a, actions.PlayInvasion):
            people = obs["magyars"] if a.card.startswith("magyar") else obs["saracens"]
            return 2.0 if p in people else -1.0
        if isinstance(a, actions.PlayResistance):
            return 2.0
        if isinstance(a, actions.PlaySpy | actions.PlayHostage | actions.TakeHostage):
            return 0.8
        if isinstance(a, actions.AcceptAlliance):
            return 1.8
        if isinstance(a, actions.TakeCard | actions.DrawCards):
            return 1.0 + (0.3 if isinstance(a, actions.DrawCards) else 0)
        if isinstance(a, actions.Move | actions.PlayForcedMarch):
            return _move_value(seen, p, a)
        if isinstance(a, actions.ReturnHostage):
            return -0.5
        if isinstance(a, actions.DiscardCard):
            return 0.1 - _card_value(a.card) / 10
        if isinstance(a, actions.SpyDiscard):  # the rival's card worth most goes
            return _card_value(a.card)
        if isinstance(a, actions.RequestAlliance | actions.Retrieve):
            return 0.0
        return 0.0


def _p_ge(die: Any, target: int) -> float:
    return float(die.p_ge(target))


_BATTLES: dict[tuple[Any, int, int, bool], float] = {}


def _p_battle(rules: Any, attacker: int, defender: int, cavalry: bool) -> float:
    """P(the attacker wins), no shields: exact, computed in Fractions (no sympy) once."""
    key = (rules, attacker, defender, cavalry)
    if key not in _BATTLES:
        with exact_fractions():
            result = odds.battle(attacker, defender, rules=rules, cavalry_charge=cavalry)
            _BATTLES[key] = float(result.attacker_wins)
    return _BATTLES[key]


def _card_value(card: str) -> float:
    return {
        "secret_pact": 3.0,
        "bishop": 2.5,
        "good_fortune": 2.0,
        "loyal_vassal": 1.5,
        "king_is_dead": 1.5,
        "cavalry_charge": 1.2,
        "forced_march": 1.0,
    }.get(card_kind(card), 0.5)


def _nearby_castles(board: Any, castle: str) -> list[str]:
    dist = _distances(board)[castle]
    return [c for c in board.castles if c != castle and dist.get(c, 99) <= 2]


def _move_value(seen: Seen, p: int, a: Any) -> float:
    dist = _distances(seen.board)
    targets = [c for c in seen.info.castles if seen.owner(c) != p]
    if not targets:
        return 0.0
    before = min(dist[a.frm].get(c, 99) for c in targets)
    after = min(dist[a.to].get(c, 99) for c in targets)
    size_bonus = a.count / 4
    return 0.4 + (before - after) * (0.6 + size_bonus)


# Road distances between cities, by board (boards are unhashable: keyed by id).
_distances_cache: dict[int, dict[str, dict[str, int]]] = {}


def _distances(board: Any) -> dict[str, dict[str, int]]:
    key = id(board)
    if key not in _distances_cache:
        _distances_cache[key] = dict(nx.all_pairs_shortest_path_length(board.graph()))
    return _distances_cache[key]


BOTS = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}
"""The bots by name (used by ``coronas play`` and ``coronas simulate``)."""
