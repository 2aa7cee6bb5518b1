"""The Batalla de Coronas game state on the shared protocol: whose turn, chance, apply.

A turn is: roll both dice (a chance node), the decision phase (which die goes to the council,
which counselor sits down, the choices the counselor's ability asks for), the buying phase, and
optionally an attack, whose battle dice and rerolls are chance nodes and decisions in turn.
The first player is found by a roll-off (a chance node). The player to take the enemy's last
gem wins.

Where each rule lives: this module holds the state's data, whose turn it is, the chance
outcomes with their exact probabilities and the check of an action before it is applied;
:mod:`coronas.batalla.legality` says when an action is legal and why not;
:mod:`coronas.batalla.effects` what it does; :mod:`coronas.batalla.views` the text, HTML and
graph of a state; :mod:`coronas.batalla.game` the match and positions set up by hand.

>>> from coronas.batalla import Game, Roll, ChooseDie, Seat, RollOff
>>> state = Game().new_initial_state()
>>> state.apply(RollOff(5, 2))           # player 1 rolled 5, player 2 rolled 2
>>> state.apply(Roll(1, 3))
>>> [str(a) for a in state.legal_actions()]
['use the 1 for the council (the 3 is gold)', 'use the 3 for the council (the 1 is gold)']
>>> state.apply(ChooseDie(3, 1)); state.apply(Seat("sorcerer"))
>>> state.dragon[0], state.gold[0]
(1, 1)
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

from coronas.batalla import actions
from coronas.batalla.actions import *  # noqa: F403 - the actions stay importable from here
from coronas.batalla.actions import BattleRoll, RerollDie, Roll, RollOff
from coronas.batalla.effects import Effects

# The state module imports the game module, not the other way round: loading this module
# registers the game with the engine (coronas.engine finds Batalla de Coronas through it).
from coronas.batalla.game import BatallaGame, place
from coronas.batalla.legality import Legality
from coronas.batalla.rules import Rules
from coronas.batalla.views import StateViews
from coronas.dice import Die
from coronas.engine import CHANCE, TERMINAL, Action, IllegalAction, State
from coronas.manygames.questions import Questions

__all__ = ["BatallaGame", "BatallaState", *actions.__all__]

_CHANCE_PHASES = frozenset({"rolloff", "roll", "battle", "reroll"})


class BatallaState(Legality, Effects, StateViews, Questions, State):
    """A position of Batalla de Coronas. Players are 0 and 1 ("player 1" and "player 2").

    Game data (compared by ``==``, restored by ``undo``):

    * ``phase``: a key of :data:`PHASES`; ``player``: whose turn it is; ``turn``: turns started
      so far (the first player's first turn is 1), for the display: the position is the same
      from one turn to the next, so :meth:`key` leaves ``turn`` out and keeps ``opening``
      (this is the first turn of the game, when the rules may forbid an attack) instead;
      ``last_battle`` is for the display too and left out of the key as well;
    * per player (lists of two): ``shields``, ``swords``, ``gold``, ``dragon``, ``gems_won``,
      ``chairs`` (a tuple of the counselor in chair 1..6, or None), ``clergy`` (church square,
      None at the golden door), ``visited`` (squares visited so far);
    * ``crown``, ``cross``, ``smith``: the holder of each token (0, 1) or None in the supply;
    * ``bonus_taken``: who got the council-completion Noble activation (None: nobody yet);
    * this turn: ``dice`` (the two decision dice), ``chair`` (chosen chair awaiting a seat),
      ``queue`` (counselor activations still to resolve);
    * the battle: ``bdice`` (attacker's, defender's die), ``rerolls`` (rerolls paid by each
      side), ``decider`` (0 attacker / 1 defender, who may reroll now), ``declined``
      (bit mask since the last die rolled: 1 the attacker kept it, 2 the defender kept it,
      4 the attacker let its moment to spend a token pass), ``rerolling`` (side whose die is
      being rerolled);
    * ``last_battle``: the final dice (attacker, defender) of the latest battle;
    * ``winner``: the player who took the last gem.
    """

    game: BatallaGame
    _UNKEYED = frozenset({"turn", "last_battle"})

    # -- setup -----------------------------------------------------------------------------
    def _setup(self) -> None:
        r: Rules = self.rules
        self.phase = "rolloff"
        self.player = 0
        self.turn = 0
        self.opening = False
        self.shields = [r.shields_start, r.shields_start]
        self.swords = [r.swords_start, r.swords_start]
        self.gold = [r.gold_start, r.gold_start]
        self.dragon = [0, 0]
        self.gems_won = [0, 0]
        self.chairs = [(None,) * r.chairs, (None,) * r.chairs]
        self.clergy = [None, None]
        self.visited = [(), ()]
        self.crown = None
        self.cross = None
        self.smith = None
        self.bonus_taken = None
        self.dice = None
        self.chair = None
        self.queue = ()
        self.bdice = None
        self.rerolls = (0, 0)
        self.decider = None
        self.declined = 0
        self.rerolling = None
        self.last_battle = None
        self.winner = None
        position = getattr(self.game, "position", None)
        if position is not None:
            place(self, position)

    # -- the protocol ------------------------------------------------------------------------
    def _current_player(self) -> int:
        phase = self.phase
        if phase in _CHANCE_PHASES:
            return CHANCE
        if phase == "over":
            return TERMINAL
        if phase == "reroll_choice":
            return self.player if self.decider == 0 else 1 - self.player
        return self.player

    def _check(self, action: Any) -> None:
        # One action is checked by its own rule (legality.py), not looked up in the list of
        # every legal action; the reasons are the same. (A field holding the wrong kind of
        # value was refused by the engine before any rule looks at it.)
        phase = self.phase
        if phase in _CHANCE_PHASES:
            if not self._possible(action):
                super()._check(action)  # the engine's message lists the possible outcomes
            return
        if phase == "over":
            super()._check(action)  # "the game is over"
        reason = self._reason(action)
        if reason is not None:
            raise IllegalAction(reason)

    def _possible(self, action: Any) -> bool:
        """Whether ``action`` is one of the chance outcomes now (without listing them)."""
        faces, kind, phase = self.rules.die_faces, type(action), self.phase
        if phase == "roll":
            return kind is Roll and action.low in faces and action.high in faces
        if phase == "battle":
            return kind is BattleRoll and action.attacker in faces and action.defender in faces
        if phase == "reroll":
            return kind is RerollDie and action.value in faces
        return (
            kind is RollOff
            and action.first != action.second
            and action.first in faces
            and action.second in faces
        )

    def _chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        faces = self.rules.die_faces
        phase = self.phase
        if phase == "roll":
            return _roll_outcomes(faces)
        if phase == "battle":
            return _battle_outcomes(faces)
        if phase == "reroll":
            return _reroll_outcomes(faces)
        return _rolloff_outcomes(faces)

    def sample_chance(self, rng: random.Random | int | None = None) -> Action:
        """Pick a chance outcome with its exact probability (the same draw as the engine's
        ``Die.sample`` on :meth:`chance_outcomes`, without rebuilding the distribution)."""
        if self._current_player() != CHANCE:
            return super().sample_chance(rng)
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        outcomes, weights = _sampler(self._chance_outcomes())
        return rng.choices(outcomes, weights)[0]

    def _odds(self, action: Any) -> Any:
        # The odds are built on the odds package, loaded when first asked for.
        from coronas.batalla.odds.position import position_odds

        return position_odds(self, action)

    # -- the position -----------------------------------------------------------------------
    def cap(self, p: int) -> int:
        """The most gold player ``p`` may hold now (7 minus the gems they have won)."""
        return self.rules.gold_cap(self.gems_won[p])

    def _returns(self) -> list[int]:
        return [1 if self.winner == i else 0 for i in range(2)]

    def scores(self) -> list[int]:
        """Gems each player has won."""
        return list(self.gems_won)


# Cached outcome lists -----------------------------------------------------------------------

_OUTCOMES: dict[tuple, list] = {}


def _counts(faces: tuple[int, ...]) -> dict[int, int]:
    out: dict[int, int] = {}
    for f in faces:
        out[f] = out.get(f, 0) + 1
    return out


def _roll_outcomes(faces: tuple[int, ...]) -> list[tuple[Action, Fraction]]:
    key = ("roll", faces)
    if key not in _OUTCOMES:
        c, n = _counts(faces), len(faces) ** 2
        acc: dict[tuple[int, int], int] = {}
        for a, ca in c.items():
            for b, cb in c.items():
                pair = (min(a, b), max(a, b))
                acc[pair] = acc.get(pair, 0) + ca * cb
        _OUTCOMES[key] = [(Roll(lo, hi), Fraction(w, n)) for (lo, hi), w in sorted(acc.items())]
    return _OUTCOMES[key]


def _battle_outcomes(faces: tuple[int, ...]) -> list[tuple[Action, Fraction]]:
    key = ("battle", faces)
    if key not in _OUTCOMES:
        c, n = _counts(faces), len(faces) ** 2
        _OUTCOMES[key] = [
            (BattleRoll(a, d), Fraction(ca * cd, n))
            for a, ca in sorted(c.items())
            for d, cd in sorted(c.items())
        ]
    return _OUTCOMES[key]


def _reroll_outcomes(faces: tuple[int, ...]) -> list[tuple[Action, Fraction]]:
    key = ("reroll", faces)
    if key not in _OUTCOMES:
        c, n = _counts(faces), len(faces)
        _OUTCOMES[key] = [(RerollDie(v), Fraction(w, n)) for v, w in sorted(c.items())]
    return _OUTCOMES[key]


def _rolloff_outcomes(faces: tuple[int, ...]) -> list[tuple[Action, Fraction]]:
    """Rolling again on ties until the dice differ: each untied pair with its conditional
    probability P(pair) / P(no tie)."""
    key = ("rolloff", faces)
    if key not in _OUTCOMES:
        c = _counts(faces)
        pairs = [
            (a, b, ca * cb) for a, ca in sorted(c.items()) for b, cb in sorted(c.items()) if a != b
        ]
        total = sum(w for *_, w in pairs)
        if total == 0:
            raise ValueError("the roll-off never ends: the die has a single face")
        _OUTCOMES[key] = [(RollOff(a, b), Fraction(w, total)) for a, b, w in pairs]
    return _OUTCOMES[key]


_SAMPLERS: dict[int, tuple[list[Action], list[int]]] = {}


def _sampler(outcomes: list[tuple[Action, Fraction]]) -> tuple[list[Action], list[int]]:
    """Outcomes and integer weights in the order ``Die.sample`` uses, cached per list."""
    key = id(outcomes)
    if key not in _SAMPLERS:
        items = Die.from_pmf(outcomes).items()
        den = math.lcm(*(p.denominator for _, p in items))
        _SAMPLERS[key] = ([o for o, _ in items], [int(p * den) for _, p in items])
    return _SAMPLERS[key]
