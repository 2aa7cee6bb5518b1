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

from coronas.engine import MCTSBot, RandomBot
from coronas.engine.mctsbot import tuned
from coronas.engine.policybot import PolicyBot
from coronas.hierro import actions
from coronas.hierro.playout import (
    CONSTANT_SCORES,
    SEARCH,
    SEARCH_CLASSIC,
    LightBot,
    battle_odds,
    card_value,
    distances,
)
from coronas.hierro.state import ROME, HierroState

__all__ = ["BOTS", "GreedyBot", "LightBot", "MCTSBot", "RandomBot", "Seen"]


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
    help it at once, and otherwise marches its largest army towards the nearest castle it
    could still win. A battle's odds are exact (:func:`coronas.hierro.odds.battle`), a
    castle's or an emissary's those of one roll of the die.

    **It never plays for ever.** The rulebook ends the game only when a player reaches the
    crown, a deck's last card is drawn or a player loses its last castle, so players who never
    draw and never attack could play on for ever: once the good moves are gone, the best-scored
    ones are quiet moves that undo each other (send an emissary to Rome and retrieve it, march
    an army out and back, offer an alliance and withdraw it). A stretch with no die rolled and
    no card drawn has no chance in it, and all it can change for good are a few finite things
    (troops recruited, cards played or discarded, alliances accepted); past a few rounds its
    quiet moves can only go round positions already seen. So the bot reads the public record
    (``state.history``, only the kind of each action, which every player sees) back to the
    last roll or draw:

    * after ``QUIET_ROUNDS`` rounds with neither, it plays only moves that make progress
      towards an ending the book defines: a card drawn (discarding one first when the hand
      is full), an assault, a battle or an emissary's roll with a chance to succeed, or a
      step towards the crown (a card or an alliance that raises its legitimacy);
    * if ``DRAWLESS_ROUNDS`` rounds pass with no card drawn even so (assaults that keep
      failing, castles won and lost back), it only draws, from the smaller deck.

    Each draw brings a deck's end one card closer, so a game of these bots always ends by the
    book. The bot still decides on what its player sees (the record says only which kind of
    action was taken). Normal play is left alone: in greedy self-play measured without the
    rule (60 games at each of 3, 4 and 5 players), a roll or a draw came at least every three
    rounds in every game but one, which went round for 12.
    """

    name = "greedy"

    def choose(self, state: HierroState, rng: random.Random) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seen = Seen(state)
        pool = legal
        if seen.obs["step"] == "play":
            stage = _stall(state)
            if stage:
                pool = [a for a in legal if _makes_progress(seen, a, stage)] or legal
        best, best_score = [], float("-inf")
        for a in pool:
            s = self.score(seen, a)
            if pool is not legal and isinstance(a, actions.TakeCard | actions.DrawCards):
                s -= seen.obs["decks"][a.deck] / 1000  # the smaller deck ends the game sooner
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
            return card_value(a.card)
        if isinstance(a, actions.AttackCastle | actions.PlayGoodFortune):
            fortune = 0.5 if isinstance(a, actions.PlayGoodFortune) else 0.0
            if fortune and a.means == "emissary":
                return 4.0 * _success(seen, a) - fortune
            value = 5.0 if a.castle in seen.info.royal else 4.0
            return value * _success(seen, a) - fortune
        if isinstance(a, actions.RequestSupport):
            return 4.0 * _success(seen, a)
        if isinstance(a, actions.AttackArmy | actions.PlayCavalryCharge):
            mine, theirs = seen.army(a.city, p), seen.army(a.city, a.defender)
            cavalry = isinstance(a, actions.PlayCavalryCharge)
            win = battle_odds(r, mine, theirs, cavalry)
            allied = 4.0 if seen.allied(p, a.defender) else 0.0
            return 4.0 * win - 2.5 * (1 - win) + (r.cavalry_vp * win if cavalry else 0) - allied
        constant = CONSTANT_SCORES.get(type(a))
        if constant is not None:  # the same values as the light player's
            return constant
        if isinstance(a, actions.SendEmissary):
            if a.to == ROME:
                return 2.2
            target = seen.emissary_target(a.to) if a.to in seen.info.castle_set else None
            if target is None:
                return 0.3  # barbarian insurance
            return 2.0 * _p_ge(r.diplomacy_die(legit[p]), target)
        if isinstance(a, actions.PlayKingIsDead):
            return 3.0 if legit[p] == max(legit) else -1.0
        if isinstance(a, actions.PlayPope):
            counts = [obs["rome"].count(q) for q in range(obs["players"])]
            return 3.0 if counts[p] == max(counts) and counts[p] > 0 else -1.0
        if isinstance(a, actions.PlayInvasion):
            people = obs["magyars"] if a.card.startswith("magyar") else obs["saracens"]
            return 2.0 if p in people else -1.0
        if isinstance(a, actions.Move | actions.PlayForcedMarch):
            return _move_value(seen, p, a)
        if isinstance(a, actions.DiscardCard):
            return 0.1 - card_value(a.card) / 10
        if isinstance(a, actions.SpyDiscard):  # the rival's card worth most goes
            return card_value(a.card)
        if isinstance(a, actions.RequestAlliance | actions.Retrieve):
            return 0.0
        return 0.0


def _p_ge(die: Any, target: int) -> float:
    return float(die.p_ge(target))


QUIET_ROUNDS = 4
"""Rounds with no die rolled and no card drawn after which :class:`GreedyBot` plays only moves
that make progress towards the end of the game."""
DRAWLESS_ROUNDS = 12
"""Rounds with no card drawn, while making progress, after which it only draws."""

_CHANCE_TYPES = (actions.Roll, actions.Draw, actions.DealLoyalty, actions.PlaceTile)
_PROGRESS, _DRAW = 1, 2


def _stall(state: HierroState) -> int:
    """0 in normal play; ``_PROGRESS`` after ``QUIET_ROUNDS`` rounds of the record with no
    roll or draw; ``_DRAW`` when, besides, ``DRAWLESS_ROUNDS`` rounds passed with no draw.
    Rounds are counted in player decisions (a round is ``players x actions`` of them)."""
    per_round = state.num_players * state.rules.actions_per_turn
    quiet, drawless = QUIET_ROUNDS * per_round, DRAWLESS_ROUNDS * per_round
    decisions = 0
    for a in reversed(state.history):
        if isinstance(a, _CHANCE_TYPES):
            if decisions < quiet:
                return 0
            if isinstance(a, actions.Draw):
                return _PROGRESS
            continue
        decisions += 1
        if decisions >= drawless:
            return _DRAW
    return 0


def _makes_progress(seen: Seen, a: Any, stage: int) -> bool:
    """Whether ``a`` brings an ending of the book nearer: a card off a deck (or a discard
    that makes room for one); unless only draws will do (``_DRAW``), also a battle, an
    assault or an emissary's roll with a chance to succeed, or legitimacy towards the crown.
    """
    if isinstance(a, actions.TakeCard | actions.DrawCards):
        return True
    if isinstance(a, actions.DiscardCard):
        return len(seen.obs["hand"]) >= seen.rules.hand_limit
    if stage == _DRAW:
        return False
    if isinstance(a, actions.AttackArmy | actions.PlayCavalryCharge | actions.PlayResistance):
        return True
    if isinstance(a, actions.AttackCastle | actions.PlayGoodFortune | actions.RequestSupport):
        return _success(seen, a) > 0
    if isinstance(a, actions.PlayBishop | actions.AcceptAlliance):
        return True
    if isinstance(a, actions.PlayKingIsDead | actions.PlayPope):
        return GreedyBot().score(seen, a) > 0
    return False


def _success(seen: Seen, a: Any) -> float:
    """The chance that one roll of an assault or an emissary's request succeeds."""
    r = seen.rules
    if isinstance(a, actions.RequestSupport) or getattr(a, "means", None) == "emissary":
        die = (
            r.die(r.good_fortune_die)
            if isinstance(a, actions.PlayGoodFortune)
            else r.diplomacy_die(seen.obs["legitimacy"][seen.player])
        )
        return _p_ge(die, seen.emissary_target(a.castle) or 7)
    die = (
        r.die(r.good_fortune_die)
        if isinstance(a, actions.PlayGoodFortune)
        else r.army_die(seen.army(a.castle, seen.player))
    )
    return _p_ge(die, seen.army_target(a.castle))


def _nearby_castles(board: Any, castle: str) -> list[str]:
    dist = distances(board)[castle]
    return [c for c in board.castles if c != castle and dist.get(c, 99) <= 2]


def _move_value(seen: Seen, p: int, a: Any) -> float:
    dist = distances(seen.board)
    targets = [c for c in seen.info.castles if seen.owner(c) != p]
    if not targets or not seen.obs["banners_in_hand"][p]:  # no castle it could still win
        return 0.0
    before = min(dist[a.frm].get(c, 99) for c in targets)
    after = min(dist[a.to].get(c, 99) for c in targets)
    size_bonus = a.count / 4
    return 0.4 + (before - after) * (0.6 + size_bonus)


BOTS = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "light": LightBot,
    "mcts": tuned(SEARCH),
    "mcts-classic": tuned(SEARCH_CLASSIC, "mcts-classic"),
    "policy": PolicyBot,
}
"""The bots by name (used by ``coronas play`` and ``coronas simulate``)."""
