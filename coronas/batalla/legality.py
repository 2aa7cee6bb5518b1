"""When an action of Batalla de Coronas is legal, and why not.

:class:`Legality` is a part of :class:`~coronas.batalla.state.BatallaState`. Each action type
has one rule function (``_ok_<action>``) that says whether that very action is legal here, so
``apply`` checks an action without listing every legal one; ``_legal_actions`` builds the
list directly (the tests hold the two to agree). When an action is refused, ``_why_illegal``
gives the reason in the rulebook's words.

>>> from coronas.batalla import Attack, Game
>>> state = Game(position={"phase": "buy", "swords": [0, 2]}).new_initial_state()
>>> print(state._reason(Attack()))
to be able to attack you need at least 1 sword
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from coronas.batalla.actions import (
    _ACCEPT,
    _ATTACK,
    _BUY,
    _CROSS_REROLL,
    _CROWN,
    _END,
    _INVOKE,
    _MUSTER,
    _SEAT,
    _SPEND_CROSS,
    _VISIT,
    PHASES,
    Accept,
    Attack,
    Buy,
    ChooseDie,
    CrossReroll,
    EndTurn,
    Invoke,
    Muster,
    Reroll,
    Seat,
    SpendCross,
    SpendCrown,
    SpendSwords,
    Visit,
    _name,
)
from coronas.batalla.rules import CHURCH_SQUARES, COUNSELORS
from coronas.formatting import listing

__all__ = ["Legality"]

# The phases in which the player whose turn it is may spend a token (any time in their own
# turn: not at chance nodes, and in a battle only while the attacker decides: its reroll, its
# moment before the defender's reroll, its swords; ruling B11).
_TOKEN_PHASES = frozenset(
    {"choose", "seat", "muster", "invoke", "church", "buy", "battle_tokens", "spend"}
)
_BATTLE_PHASES = frozenset({"reroll_choice", "battle_tokens", "spend"})


class Legality:
    """The legality of actions at decision nodes (a part of ``BatallaState``)."""

    # -- the legal actions, listed -------------------------------------------------------------
    def _legal_actions(self) -> list[Any]:
        phase, p, r = self.phase, self.player, self.rules
        if phase == "choose":
            lo, hi = self.dice
            if lo == hi:
                return [ChooseDie(lo, lo), *self._token_actions()]
            return [ChooseDie(lo, hi), ChooseDie(hi, lo), *self._token_actions()]
        if phase == "seat":
            seated = self.chairs[p]
            return [_SEAT[c] for c in COUNSELORS if c not in seated] + self._token_actions()
        if phase == "muster":
            return [_MUSTER[u] for u in self._muster_options()] + self._token_actions()
        if phase == "invoke":
            return [_INVOKE[c] for c in self._noble_options()] + self._token_actions()
        if phase == "church":
            return [_VISIT[s] for s in self._church_options(p)] + self._token_actions()
        if phase == "buy":
            acts: list[Any] = []
            gold = self.gold[p]
            if gold >= r.militia_cost:
                holds_smith = self.smith == p
                if self.shields[p] < r.militia_max:
                    acts.append(_BUY[("shield", False)])
                    if holds_smith:
                        acts.append(_BUY[("shield", True)])
                if self.swords[p] < r.militia_max:
                    acts.append(_BUY[("sword", False)])
                    if holds_smith:
                        acts.append(_BUY[("sword", True)])
            level = self.dragon[p]
            if level < r.dragon_attack_level and gold >= r.dragon_costs[level]:
                acts.append(_BUY[("dragon", False)])
            acts.extend(self._token_actions())
            if self._attack_refusal() is None:
                acts.append(_ATTACK)
            acts.append(_END)
            return acts
        if phase == "reroll_choice":
            side = self.decider
            who = p if side == 0 else 1 - p
            acts = []
            cost = r.reroll_cost(self.rerolls[side])
            if self.gold[who] >= cost:
                acts.append(Reroll(cost))
            if r.cross_effect == "reroll" and self.cross == who:
                acts.append(_CROSS_REROLL)
            acts.append(_ACCEPT)
            if side == 0:
                acts.extend(self._token_actions())
            return acts
        if phase == "battle_tokens":
            return [_ACCEPT, *self._token_actions()]
        if phase == "spend":
            return [SpendSwords(n) for n in self._spend_options()] + self._token_actions()
        return []

    def _token_actions(self) -> list[Any]:
        """Tokens the player whose turn it is may spend now (any time in their own turn)."""
        p = self.player
        acts: list[Any] = []
        if self.crown == p and self._crown_time():
            acts.append(_CROWN)
        if self.cross == p and self.rules.cross_effect == "priest" and self._cross_ready(p):
            acts.extend(_SPEND_CROSS[s] for s in self._church_options(p))
        return acts

    def _crown_time(self) -> bool:
        """Whether the rules let the Crown be spent in this phase (B11: also in the battle)."""
        return self.rules.crown_in_battle or self.phase not in _BATTLE_PHASES

    def _cross_ready(self, p: int) -> bool:
        return not self.rules.cross_needs_priest or "priest" in self.chairs[p]

    # -- option lists ------------------------------------------------------------------------
    def _muster_options(self) -> list[str]:
        p, top = self.player, self.rules.militia_max
        return [u for u, v in (("shield", self.shields[p]), ("sword", self.swords[p])) if v < top]

    def _noble_options(self) -> list[str]:
        return [c for c in COUNSELORS if c != "noble" and c in self.chairs[self.player]]

    def _church_options(self, p: int) -> list[str]:
        if self.rules.church_revisit == "never":
            return [s for s in CHURCH_SQUARES if s not in self.visited[p]]
        return [s for s in CHURCH_SQUARES if s != self.clergy[p]]

    def _spend_options(self) -> range:
        p = self.player
        a, d = self.bdice
        most = min(a - d, self.swords[p], self.shields[1 - p])
        return range(min(self.rules.min_swords_spent, most), most + 1)

    def _attack_refusal(self) -> str | None:
        """Why the player to move may not attack now, or None if they may."""
        r, p = self.rules, self.player
        if self.opening and not r.first_turn_attack:
            return "whoever has the first turn of the game cannot declare an attack during it"
        if self.swords[p] < r.min_swords_to_attack:
            return f"to be able to attack you need at least {r.min_swords_to_attack} sword"
        return None

    # -- one action, checked by its rule -----------------------------------------------------
    def _reason(self, action: Any) -> str | None:
        """None if ``action`` (with well-formed fields) is legal at this decision node,
        otherwise why not. The same answer as looking it up in ``legal_actions()``, found by
        the rule of that action type alone."""
        rule = _RULES.get(type(action))
        if rule is not None and rule(self, action):
            return None
        reason = self._why_illegal(action)
        if reason is None:
            reason = f"{action} is not legal for {self.player_name(self._current_player())} now"
        return reason

    def _token_time(self) -> bool:
        return self.phase in _TOKEN_PHASES or (self.phase == "reroll_choice" and self.decider == 0)

    def _battle_tokens(self) -> bool:
        """Whether the attacker has a token it may spend in its battle (B11)."""
        p, r = self.player, self.rules
        if self.crown == p and r.crown_in_battle:
            return True
        return (
            self.cross == p
            and r.cross_effect == "priest"
            and self._cross_ready(p)
            and bool(self._church_options(p))
        )

    def _deciding(self) -> int:
        """The player who decides the reroll now (the attacker or the defender)."""
        return self.player if self.decider == 0 else 1 - self.player

    def _ok_choose(self, a: ChooseDie) -> bool:
        return self.phase == "choose" and (a.chair, a.gold) in (self.dice, self.dice[::-1])

    def _ok_seat(self, a: Seat) -> bool:
        c = a.counselor
        return self.phase == "seat" and c in COUNSELORS and c not in self.chairs[self.player]

    def _ok_muster(self, a: Muster) -> bool:
        return self.phase == "muster" and a.unit in self._muster_options()

    def _ok_invoke(self, a: Invoke) -> bool:
        return self.phase == "invoke" and a.counselor in self._noble_options()

    def _ok_visit(self, a: Visit) -> bool:
        return self.phase == "church" and a.square in self._church_options(self.player)

    def _ok_buy(self, a: Buy) -> bool:
        if self.phase != "buy":
            return False
        p, r = self.player, self.rules
        gold = self.gold[p]
        if a.item == "dragon":
            level = self.dragon[p]
            return not a.smith and level < r.dragon_attack_level and gold >= r.dragon_costs[level]
        if a.item == "shield":
            track = self.shields
        elif a.item == "sword":
            track = self.swords
        else:
            return False
        return (
            gold >= r.militia_cost and track[p] < r.militia_max and (not a.smith or self.smith == p)
        )

    def _ok_crown(self, a: SpendCrown) -> bool:
        return self.crown == self.player and self._token_time() and self._crown_time()

    def _ok_cross(self, a: SpendCross) -> bool:
        p = self.player
        return (
            self.cross == p
            and self.rules.cross_effect == "priest"
            and self._token_time()
            and self._cross_ready(p)
            and a.square in self._church_options(p)
        )

    def _ok_attack(self, a: Attack) -> bool:
        return self.phase == "buy" and self._attack_refusal() is None

    def _ok_end(self, a: EndTurn) -> bool:
        return self.phase == "buy"

    def _ok_reroll(self, a: Reroll) -> bool:
        if self.phase != "reroll_choice":
            return False
        cost = self.rules.reroll_cost(self.rerolls[self.decider])
        return a.cost == cost and self.gold[self._deciding()] >= cost

    def _ok_cross_reroll(self, a: CrossReroll) -> bool:
        return (
            self.phase == "reroll_choice"
            and self.rules.cross_effect == "reroll"
            and self.cross == self._deciding()
        )

    def _ok_accept(self, a: Accept) -> bool:
        return self.phase in ("reroll_choice", "battle_tokens")

    def _ok_spend(self, a: SpendSwords) -> bool:
        return self.phase == "spend" and a.n in self._spend_options()

    # -- why not -----------------------------------------------------------------------------
    def _why_illegal(self, action: Any) -> str | None:
        phase, p, r = self.phase, self.player, self.rules
        if phase == "over":
            return None
        kind = type(action)
        unknown = _unknown_name(action)
        if unknown:
            return unknown
        if kind is Attack and phase == "buy":
            return self._attack_refusal()
        if kind is Buy and phase == "buy":
            if action.item == "dragon":
                level = self.dragon[p]
                cost = r.dragon_costs[level] if level < r.dragon_attack_level else None
                return f"dragon level {level + 1} costs {cost} gold and you have {self.gold[p]}"
            track = self.shields if action.item == "shield" else self.swords
            if action.smith and self.smith != p:
                holder = "nobody" if self.smith is None else f"player {self.smith + 1}"
                return f"you do not have the Smith token ({holder} has it)"
            if track[p] >= r.militia_max:
                return f"your {action.item}s are already at {r.militia_max}, the top of the track"
            return f"a {action.item} costs {r.militia_cost} gold and you have {self.gold[p]}"
        if kind is SpendCrown:
            if self.crown != p:
                return "you do not have the Crown token"
            if not self._crown_time():
                return "with these rules the Crown token is not spent in a battle"
            return None
        if kind is SpendCross:
            if self.cross != p:
                return "you do not have the Cross token"
            if r.cross_effect != "priest":
                return "with these rules the Cross token buys a battle reroll, not a church visit"
            if not self._cross_ready(p):
                return "the Cross token moves the clergy only once the Priest sits on the council"
            return f"the clergy cannot visit the {action.square} square now"
        if kind is Visit and phase == "church":
            return f"the clergy cannot visit the {action.square} square now"
        if kind is Seat and phase == "seat":
            return f"the {_name(action.counselor)} already sits on your council"
        if kind is Muster and phase == "muster":
            return f"your {action.unit}s are already at {r.militia_max}, the top of the track"
        if kind is Invoke and phase == "invoke":
            return (
                f"the Noble can activate only another counselor of your council, not the "
                f"{_name(action.counselor)}"
            )
        if kind is ChooseDie and phase == "choose":
            return f"the dice show {self.dice[0]} and {self.dice[1]}"
        if kind is Reroll and phase == "reroll_choice":
            side = self.decider
            cost = r.reroll_cost(self.rerolls[side])
            who = p if side == 0 else 1 - p
            if action.cost != cost:
                return f"your next reroll in this battle costs {cost} gold, not {action.cost}"
            return f"this reroll costs {cost} gold and you have {self.gold[who]}"
        if kind is SpendSwords and phase == "spend":
            opts = self._spend_options()
            return f"you can spend from {opts.start} to {opts.stop - 1} swords"
        return f"{action} is not possible now: this is {PHASES[phase]}"


_RULES: dict[type, Callable[[Any, Any], bool]] = {
    ChooseDie: Legality._ok_choose,
    Seat: Legality._ok_seat,
    Muster: Legality._ok_muster,
    Invoke: Legality._ok_invoke,
    Visit: Legality._ok_visit,
    Buy: Legality._ok_buy,
    SpendCrown: Legality._ok_crown,
    SpendCross: Legality._ok_cross,
    Attack: Legality._ok_attack,
    EndTurn: Legality._ok_end,
    Reroll: Legality._ok_reroll,
    CrossReroll: Legality._ok_cross_reroll,
    Accept: Legality._ok_accept,
    SpendSwords: Legality._ok_spend,
}
"""The rule of each action type that a player takes (chance outcomes are checked by the
state against the die)."""


def _unknown_name(action: Any) -> str | None:
    """A message if ``action`` names a counselor, square, unit or item the game does not have."""
    kind = type(action)
    if kind in (Seat, Invoke) and action.counselor not in COUNSELORS:
        return (
            f"there is no counselor {action.counselor!r}; "
            f"the counselors are {listing(COUNSELORS, 'and')}"
        )
    if kind in (Visit, SpendCross) and action.square not in CHURCH_SQUARES:
        return (
            f"there is no church square {action.square!r}; "
            f"they are {listing(CHURCH_SQUARES, 'and')}"
        )
    if kind is Muster and action.unit not in ("shield", "sword"):
        return f"the Militia Commander gives a 'shield' or a 'sword', not {action.unit!r}"
    if kind is Buy:
        if action.item not in ("shield", "sword", "dragon"):
            return f"you can buy a 'shield', a 'sword' or a 'dragon' level, not {action.item!r}"
        if action.item == "dragon" and action.smith:
            return "the Smith token buys militia units (shields or swords), not dragon levels"
    return None
