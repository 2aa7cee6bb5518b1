"""The odds of the move at hand in a Corona de Hierro position: what ``state.odds()`` answers.

:func:`position_odds` reads the position (army sizes, shields, legitimacy, the castle's
banners, the roll in progress) and asks the odds modules: :func:`~.rolls.castle_assault`
and :func:`~.rolls.diplomacy` for a roll for a target, :func:`~.battles.battle` and its
policy for a battle. Nothing is computed twice: the numbers are theirs.

The aim of each dice action, and the chance ``success`` gives (every reroll played
optimally by both sides, as the odds modules do):

======================================  ==================================================
action                                  aim
======================================  ==================================================
attack a castle, Good fortune by arms   this action takes the castle, or drives out the
                                        troops inside when the castle still has them
request support, Good fortune by an     this action wins the castle's support
emissary
attack an army, Cavalry charge          the attacker wins the battle (fought to the end)
======================================  ==================================================

Every other action rolls no die and has no odds (None): moving, recruiting, sending an
emissary (its roll comes on a later turn, with "request support"), Resistance (it removes a
pawn without a battle), taking or drawing cards (a draw, not a roll).

Without an action, at a roll (step ``"roll"``): ``roll`` is the chance that this one roll
succeeds, as it falls and without a reroll (it reaches the castle's banner; in a battle the
attacker's die meets or beats one roll of the defender's, or the defender's beats the
attacker's result), and ``success`` the chance of the aim from here with the shields left.
At a reroll decision (step ``"reroll"``), ``choices`` gives the chance of the aim after
``Reroll()`` and after ``AcceptRoll()``, and ``best`` the better one. Inside a battle the
odds are those of the player whose die it is: the attacker's aim is to win the battle, the
defender's to beat off the attack, so ``best`` is the right advice for either.

>>> from fractions import Fraction
>>> from coronas.dice import exact_fractions
>>> from coronas.hierro import AttackCastle, Game, Roll
>>> state = Game(players=3).position(armies={"Verona": {0: 3}}, shields=[2, 2, 2])
>>> with exact_fractions():
...     print(state.odds(AttackCastle("Verona")))   # green die, 5+, two rerolls: 1 - (2/3)**3
attack castle Verona with 3 armies (green die, needs 5): 19/27 (70.37%) to take the castle of Verona
>>> state.apply(AttackCastle("Verona"))
>>> state.apply(Roll(2))
>>> with exact_fractions():
...     advice = state.odds()
>>> advice.best, advice.success                    # reroll: 1 - (2/3)**2
(Reroll(), Fraction(5, 9))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coronas.dice import p_greater_equal, rational
from coronas.engine.advice import Odds
from coronas.engine.errors import IllegalAction
from coronas.hierro.actions import (
    AcceptRoll,
    AttackArmy,
    AttackCastle,
    PlayCavalryCharge,
    PlayGoodFortune,
    RequestSupport,
    Reroll,
)
from coronas.hierro.odds.battles import battle
from coronas.hierro.odds.results import BattlePolicy, BattleResult
from coronas.hierro.odds.rolls import RollOdds, castle_assault, diplomacy

if TYPE_CHECKING:
    from coronas.hierro.state import HierroState

__all__ = ["battle_choice", "position_odds"]


def position_odds(state: HierroState, action: Any = None) -> Odds | None:
    """The exact chance that ``action`` achieves its aim from ``state`` (None: no dice).

    ``action`` is legal here (``state.odds`` checks it). Without ``action``: the roll being
    made, or the reroll decision in front of the player (see the module docstring). At a
    reroll decision ``Reroll()`` and ``AcceptRoll()`` may be asked about one at a time.
    """
    if action is None:
        return _pending(state)
    if state.step == "reroll" and isinstance(action, Reroll | AcceptRoll):
        advice = _pending(state)
        if advice is None:  # pragma: no cover - a reroll step always has a roll in progress
            return None
        return Odds(
            aim=advice.aim,
            success=dict(advice.choices)[action],
            subject=state.describe(action),
            detail=advice.detail,
        )
    if state.step != "play":
        return None
    p = state.player
    shields = state.shields[p]
    subject = state.describe(action)
    if isinstance(action, AttackCastle) or (
        isinstance(action, PlayGoodFortune) and action.means == "army"
    ):
        castle = action.castle
        gf = isinstance(action, PlayGoodFortune)
        detail = _castle(state, castle, p, state.army_target(castle), shields, gf)
        return Odds(_castle_aim(state, castle), detail.probability, subject, detail=detail)
    if isinstance(action, RequestSupport | PlayGoodFortune):
        castle = action.castle
        gf = isinstance(action, PlayGoodFortune)
        detail = _diplomacy(state, p, state.emissary_target(castle) or 0, shields, gf)
        return Odds(_diplomacy_aim(castle), detail.probability, subject, detail=detail)
    if isinstance(action, AttackArmy | PlayCavalryCharge):
        detail = battle(
            state.army(action.city, p),
            state.army(action.city, action.defender),
            shields,
            state.shields[action.defender],
            state.rules,
            cavalry_charge=isinstance(action, PlayCavalryCharge),
        )
        return Odds(_battle_aim(action.city), detail.attacker_wins, subject, detail=detail)
    return None


# -- the aims, in words ----------------------------------------------------------------------
def _castle_aim(state: HierroState, castle: str) -> str:
    if state.owner.get(castle) is not None and state.troops.get(castle):
        return f"drive the troops out of {castle}"
    return f"take the castle of {castle}"


def _diplomacy_aim(castle: str) -> str:
    return f"win the support of {castle}"


def _battle_aim(city: str) -> str:
    return f"win the battle in {city}"


def _defence_aim(state: HierroState, attacker: int, city: str) -> str:
    return f"beat off {state.colour(attacker)}'s attack in {city}"


# -- the odds modules' questions, from the position ----------------------------------------
def _actions_left(state: HierroState) -> int | None:
    """Actions left in the turn, this one included (None: a whole turn)."""
    left = state.left
    return left if 1 <= left <= state.rules.actions_per_turn else None


def _castle(
    state: HierroState, castle: str, player: int, target: int, shields: int, gf: bool
) -> RollOdds:
    return castle_assault(
        target,
        army=max(state.army(castle, player), 1),
        shields=shields,
        rules=state.rules,
        troops_inside=state.owner.get(castle) is not None and bool(state.troops.get(castle)),
        good_fortune=gf,
        actions_left=_actions_left(state),
    )


def _diplomacy(state: HierroState, player: int, target: int, shields: int, gf: bool) -> RollOdds:
    return diplomacy(
        target,
        legitimacy=max(state.legit[player], 0),
        shields=shields,
        rules=state.rules,
        good_fortune=gf,
        actions_left=_actions_left(state),
    )


# -- a roll in progress ------------------------------------------------------------------------
def _pending(state: HierroState) -> Odds | None:
    """The roll being made (step "roll") or the reroll decision (step "reroll")."""
    f = state.fight
    if f is None or state.step not in ("roll", "reroll"):
        return None
    if f["kind"] == "battle":
        return _battle_pending(state, f)
    att, castle, target = f["att"], f["where"], f["target"]
    gf = f["colour"] is not None

    def rolls(shields: int) -> RollOdds:
        if f["kind"] == "castle":
            return _castle(state, castle, att, target, shields, gf)
        return _diplomacy(state, att, target, shields, gf)

    aim = _castle_aim(state, castle) if f["kind"] == "castle" else _diplomacy_aim(castle)
    subject = state._fight_text()
    shields = state.shields[att]
    if state.step == "roll":
        detail = rolls(shields)
        return Odds(aim, detail.probability, subject, roll=detail.single_roll, detail=detail)
    # The roll failed (a reroll is offered only then): keeping it fails the action.
    again = rolls(shields - 1)
    return Odds(
        aim,
        again.probability,
        subject,
        choices=((Reroll(), again.probability), (AcceptRoll(), rational(0))),
        detail=again,
    )


def _battle_pending(state: HierroState, f: dict[str, Any]) -> Odds:
    """A battle's roll or reroll decision, for the player whose die it is.

    With the battle solver's values (P(attacker wins)): V at the start of a round and after
    a reroll of the attacker's; D once the attacker has kept x, before and after each
    reroll of the defender's; and V with one pawn less for a defender keeping a losing die.
    """
    r = state.rules
    att, dfn, city = f["att"], f["dfn"], f["where"]
    a, d = state.army(city, att), state.army(city, dfn)
    s, t = state.shields[att], state.shields[dfn]
    detail: BattleResult = battle(a, d, s, t, r, cavalry_charge=f["cavalry"])
    policy = detail.policy
    subject = state._fight_text()
    x = f["a"]
    if f["stage"] == "att":
        aim = _battle_aim(city)
        if state.step == "roll":
            att_die = r.die(f["colour"] or r.army_colour(a))
            roll = p_greater_equal(att_die, r.die(r.army_colour(d)))
            return Odds(aim, detail.attacker_wins, subject, roll=rational(roll), detail=detail)
        choices = (
            (Reroll(), policy.value(a, d, s - 1, t)),
            (AcceptRoll(), policy.value_after_attacker(a, d, s, t, x)),
        )
    else:
        aim = _defence_aim(state, att, city)
        if state.step == "roll":
            roll = r.die(r.army_colour(d)).prob(lambda y: y > x)
            hold = 1 - policy.value_after_attacker(a, d, s, t, x)
            return Odds(aim, rational(hold), subject, roll=rational(roll), detail=detail)
        # The defender's die lost the roll (a reroll is offered only then).
        choices = (
            (Reroll(), 1 - policy.value_after_attacker(a, d, s, t - 1, x)),
            (AcceptRoll(), 1 - policy.value(a, d - 1, s, t)),
        )
    choices = tuple((c, rational(p)) for c, p in choices)
    return Odds(aim, max(p for _, p in choices), subject, choices=choices, detail=detail)


def battle_choice(state: HierroState, policy: BattlePolicy | None = None) -> Reroll | AcceptRoll:
    """The optimal choice at a battle's reroll decision: ``Reroll()`` (spend a shield) or
    ``AcceptRoll()``, for whichever side's die it is (for bots, and for walking the engine's
    game tree with both sides playing as :func:`~.battles.battle` says).

    ``policy`` is the policy of a battle already solved that covers this position (a
    :class:`~.results.BattlePolicy` of at least these army sizes and shields); without it the
    battle is solved from here.
    """
    f = state.fight
    if state.step != "reroll" or f is None or f["kind"] != "battle":
        raise IllegalAction("not a battle's reroll decision: nobody is deciding on a reroll")
    city, att, dfn = f["where"], f["att"], f["dfn"]
    a, d = state.army(city, att), state.army(city, dfn)
    sa, sd = state.shields[att], state.shields[dfn]
    if policy is None:
        policy = battle(a, d, sa, sd, state.rules, cavalry_charge=f["cavalry"]).policy
    if f["stage"] == "att":
        again = policy.attacker_should_reroll(a, d, sa, sd, f["a"])
    else:
        again = policy.defender_should_reroll(a, d, sa, sd, f["a"], f["d"])
    return Reroll() if again else AcceptRoll()
