"""What the actions of a turn do: movement, recruits, attacks, emissaries, alliances, cards.

:class:`TurnEffects` is a part of :class:`~coronas.hierro.state.HierroState`; one handler
(``_do_<action>``) per action type, called once the action has been checked. An attack or an
emissary's roll goes on with the dice: each roll is a chance step, each reroll a decision,
until the battle, the assault or the negotiation is decided (``_start_fight`` ... ``_succeed``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from coronas.engine.journal import LoggedDict
from coronas.hierro import actions
from coronas.hierro.actions import CARD_ACTIONS, MAGYARS, ROME, SARACENS, ZONE
from coronas.hierro.legality import played_card

__all__ = ["TurnEffects"]


class TurnEffects:
    """The effects of the actions of a turn (a part of ``HierroState``)."""

    # -- applying the actions of a turn ------------------------------------------------------------
    def _play(self, a: Any) -> None:
        p = self.player
        handler = _HANDLERS[type(a)]
        if type(a) in CARD_ACTIONS:
            self._discard(p, played_card(a))
        handler(self, p, a)

    def _discard(self, p: int, card: str) -> None:
        hand = list(self.hands[p])
        hand.remove(card)
        self.hands[p] = tuple(hand)
        self.discards[card] = self.discards.get(card, 0) + 1

    def _do_move(self, p: int, a: actions.Move | actions.PlayForcedMarch) -> None:
        self._remove_pawns(a.frm, p, a.count, back=False)
        self._add_pawns(a.to, p, a.count, out=False)
        self._finish_action()

    def _do_recruit(self, p: int, a: actions.Recruit) -> None:
        n = min(self.rules.recruit_size(self.legit[p]), self.pawns[p])
        self._recruit(p, a.castle, n)

    def _recruit(self, p: int, castle: str, n: int) -> None:
        self.troops[castle] = False
        self._add_pawns(castle, p, min(n, self.pawns[p]))
        self._finish_action()

    def _do_attack_army(self, p: int, a: actions.AttackArmy) -> None:
        self._break_alliance(p, a.defender)
        self._start_fight("battle", p, a.city, defender=a.defender)

    def _do_cavalry(self, p: int, a: actions.PlayCavalryCharge) -> None:
        self._break_alliance(p, a.defender)
        self._start_fight(
            "battle", p, a.city, defender=a.defender, colour=self.rules.cavalry_die, cavalry=True
        )

    def _do_attack_castle(self, p: int, a: actions.AttackCastle) -> None:
        owner = self.owner.get(a.castle)
        if owner is not None:
            self._break_alliance(p, owner)
        self._start_fight("castle", p, a.castle)

    def _do_good_fortune(self, p: int, a: actions.PlayGoodFortune) -> None:
        colour = self.rules.good_fortune_die
        if a.means == "army":
            owner = self.owner.get(a.castle)
            if owner is not None:
                self._break_alliance(p, owner)
            self._start_fight("castle", p, a.castle, colour=colour)
        else:
            self._start_fight("diplomacy", p, a.castle, colour=colour)

    def _do_support(self, p: int, a: actions.RequestSupport) -> None:
        self._start_fight("diplomacy", p, a.castle)

    def _do_send(self, p: int, a: actions.SendEmissary) -> None:
        self.hand_em[p] -= 1
        if a.to == ROME:
            self.rome = (*self.rome, p)
            self._gain(p, self.rules.rome_gain)
        elif a.to == SARACENS:
            self.saracens = (*self.saracens, p)
        elif a.to == MAGYARS:
            self.magyars = (*self.magyars, p)
        else:
            self.at_castle[a.to] = (*self.at_castle.get(a.to, ()), (p, self.turn))
        self._finish_action()

    def _remove_emissary(self, owner: int, place: str) -> None:
        """Take one of ``owner``'s emissaries off ``place`` (the oldest)."""
        if place in (ROME, SARACENS, MAGYARS):
            attr = {ROME: "rome", SARACENS: "saracens", MAGYARS: "magyars"}[place]
            seq = list(getattr(self, attr))
            seq.remove(owner)
            setattr(self, attr, tuple(seq))
            return
        ems = list(self.at_castle[place])
        for i, (q, _) in enumerate(ems):
            if q == owner:
                del ems[i]
                break
        if ems:
            self.at_castle[place] = tuple(ems)
        else:
            del self.at_castle[place]

    def _do_retrieve(self, p: int, a: actions.Retrieve) -> None:
        if a.frm == ZONE:
            del self.zone[(p, a.target)]
        else:
            self._remove_emissary(p, a.frm)
            if a.frm == ROME:
                self._gain(p, -self.rules.rome_loss)
        self.hand_em[p] += 1
        self._finish_action()

    def _do_request_alliance(self, p: int, a: actions.RequestAlliance) -> None:
        self.hand_em[p] -= 1
        self.zone[(p, a.target)] = False
        self._finish_action()

    def _do_accept(self, p: int, a: actions.AcceptAlliance) -> None:
        self.zone[(a.requester, p)] = True
        self._gain(p, self.rules.alliance_accept_gain)
        self._finish_action()

    def _hold(self, holder: int, owner: int) -> None:
        self.hostages = tuple(sorted((*self.hostages, (holder, owner))))

    def _do_take_hostage(self, p: int, a: actions.TakeHostage) -> None:
        self._break_alliance(p, a.owner)
        self._remove_emissary(a.owner, a.castle)
        self._hold(p, a.owner)
        self._finish_action()

    def _do_return_hostage(self, p: int, a: actions.ReturnHostage) -> None:
        hs = list(self.hostages)
        hs.remove((p, a.owner))
        self.hostages = tuple(hs)
        self.hand_em[a.owner] += 1
        # Free: not an action of the turn, so the turn goes on.

    def _do_take_card(self, p: int, a: actions.TakeCard) -> None:
        self._start_draws(((p, a.deck),), "hand", "action")

    def _do_draw_cards(self, p: int, a: actions.DrawCards) -> None:
        cost = self.rules.draw_many_cost
        self.shields[p] -= cost
        self.supply += cost
        self._start_draws(((p, a.deck),) * self.rules.draw_many_count, "looking", "keep")

    def _do_discard(self, p: int, a: actions.DiscardCard) -> None:
        self._discard(p, a.card)
        self._finish_action()

    def _do_resistance(self, p: int, a: actions.PlayResistance) -> None:
        self._break_alliance(p, a.enemy)
        n = min(self.rules.resistance_pawns, self.army(a.castle, a.enemy))
        self._remove_pawns(a.castle, a.enemy, n)
        self._finish_action()

    def _do_loyal_vassal(self, p: int, a: actions.PlayLoyalVassal) -> None:
        self._recruit(p, a.castle, self.rules.loyal_vassal_size)

    def _do_bishop(self, p: int, a: actions.PlayBishop) -> None:
        self._gain(p, self.rules.bishop_gain)
        self._finish_action()

    def _do_pope(self, p: int, a: actions.PlayPope) -> None:
        counts = Counter(self.rome)
        if counts or not self.rules.pope_needs_emissaries:
            top = max((counts.get(q, 0) for q in range(self.num_players)), default=0)
            for q in range(self.num_players):
                if counts.get(q, 0) == top:
                    self._gain(q, self.rules.pope_gain)
        self._finish_action()

    def _do_king_is_dead(self, p: int, a: actions.PlayKingIsDead) -> None:
        top = max(self.legit)
        for q in range(self.num_players):
            if self.legit[q] == top:
                self._gain(q, self.rules.king_is_dead_gain)
        self._finish_action()

    def _do_spy(self, p: int, a: actions.PlaySpy) -> None:
        # The player now sees the target's hand and chooses the card to discard (step "spy").
        self.spied = a.target
        self.step = "spy"

    def _on_spy_discard(self, card: str) -> None:
        self._discard(self.spied, card)
        self.spied = None
        self._finish_action()

    def _do_invasion(self, p: int, a: actions.PlayInvasion) -> None:
        people = self.magyars if a.card == "magyar_invasion" else self.saracens
        for q in range(self.num_players):
            if q not in people:
                self._gain(q, -self.rules.invasion_loss)
        self._finish_action()

    def _do_secret_pact(self, p: int, a: actions.PlaySecretPact) -> None:
        self.vp[p] += self.rules.secret_pact_vp
        self._finish_action()

    def _do_hostage(self, p: int, a: actions.PlayHostage) -> None:
        self._break_alliance(p, a.owner)
        self._remove_emissary(a.owner, a.place)
        self._hold(p, a.owner)
        self.hand_em[p] -= 1
        if a.place == ROME:
            self.rome = (*self.rome, p)
            swing = self.rules.hostage_rome_swing
            self._gain(p, swing)
            self._gain(a.owner, -swing)
        elif a.place == SARACENS:
            self.saracens = (*self.saracens, p)
        elif a.place == MAGYARS:
            self.magyars = (*self.magyars, p)
        else:
            self.at_castle[a.place] = (*self.at_castle.get(a.place, ()), (p, self.turn))
        self._finish_action()

    # -- dice: battles, assaults and emissaries' rolls ---------------------------------------------
    def _roll_colour(self) -> str:
        f = self.fight
        if f["kind"] == "battle":
            if f["stage"] == "att":
                return f["colour"] or self.rules.army_colour(self.army(f["where"], f["att"]))
            return self.rules.army_colour(self.army(f["where"], f["dfn"]))
        if f["colour"]:
            return f["colour"]
        if f["kind"] == "castle":
            return self.rules.army_colour(self.army(f["where"], f["att"]))
        return self.rules.band(self.legit[f["att"]])

    def roll_die(self):
        """The die being rolled now (at a ``"roll"`` or ``"reroll"`` step), else None."""
        if self.fight is None:
            return None
        return self.rules.die(self._roll_colour())

    def _start_fight(
        self,
        kind: str,
        player: int,
        where: str,
        *,
        defender: int | None = None,
        colour: str | None = None,
        cavalry: bool = False,
    ) -> None:
        target = 0
        if kind == "castle":
            target = self.army_target(where)
        elif kind == "diplomacy":
            target = self.emissary_target(where) or 0
        self.fight = LoggedDict(
            {
                "kind": kind,
                "att": player,
                "dfn": defender,
                "where": where,
                "colour": colour,
                "stage": "att",
                "a": None,
                "d": None,
                "target": target,
                "cavalry": cavalry,
                "roller": player,
            }
        )
        self.step = "roll"

    def _on_roll(self, value: int) -> None:
        f = self.fight
        faces = self.rules.faces(self._roll_colour())
        roller = f["roller"]
        if f["kind"] == "battle":
            if f["stage"] == "att":
                f["a"] = value
                if self.shields[roller] > 0 and value < max(faces):
                    self.step = "reroll"
                else:
                    self._defender_rolls()
            else:
                f["d"] = value
                losing = value <= f["a"]  # ties go to the attacker
                if losing and self.shields[roller] > 0 and max(faces) > f["a"]:
                    self.step = "reroll"
                else:
                    self._exchange()
            return
        f["a"] = value
        if value >= f["target"]:
            self._succeed()
        elif self.shields[roller] > 0 and max(faces) >= f["target"]:
            self.step = "reroll"
        else:
            self._finish_action()

    def _on_reroll(self, again: bool) -> None:
        f = self.fight
        if again:
            p = f["roller"]
            self.shields[p] -= 1
            self.supply += 1
            self.step = "roll"
            return
        if f["kind"] == "battle":
            if f["stage"] == "att":
                self._defender_rolls()
            else:
                self._exchange()
        else:
            self._finish_action()

    def _defender_rolls(self) -> None:
        f = self.fight
        f["stage"] = "dfn"
        f["roller"] = f["dfn"]
        self.step = "roll"

    def _exchange(self) -> None:
        f = self.fight
        att, dfn, city = f["att"], f["dfn"], f["where"]
        loser = att if f["d"] > f["a"] else dfn
        self._remove_pawns(city, loser, 1)
        if self.army(city, loser) == 0:
            winner = dfn if loser == att else att
            r = self.rules
            self._gain(winner, r.battle_win)
            self._gain(loser, -r.battle_loss)
            self._add_shield(loser)
            if f["cavalry"] and winner == att:
                self.vp[att] += r.cavalry_vp
            self._finish_action()
            return
        f.update(stage="att", roller=att, a=None, d=None)
        self.step = "roll"

    def _succeed(self) -> None:
        f = self.fight
        p, castle = f["att"], f["where"]
        if f["kind"] == "diplomacy":
            self._take_castle(castle, p, self.rules.diplomacy_gain)
        else:
            owner = self.owner.get(castle)
            if owner is not None and self.troops[castle]:
                self.troops[castle] = False  # the troops inside are wiped out (case C)
            else:
                royal = castle in self.info.royal
                gain = self.rules.royal_gain if royal else self.rules.conquest_gain
                self._take_castle(castle, p, gain)
        self._finish_action()

    def _take_castle(self, castle: str, player: int, gain: int) -> None:
        r = self.rules
        old = self.owner.get(castle)
        if old is not None:
            self.banners[old] += 1
            royal = castle in self.info.royal
            self._gain(old, -(r.royal_loss if royal else r.conquest_loss))
            self._add_shield(old)
            if sum(1 for o in self.owner.values() if o == old) == 1:
                self.castle_lost = True  # this was its last castle
        self.owner[castle] = player
        self.troops[castle] = True
        self.banners[player] -= 1
        self._gain(player, gain)
        # The new owner's own emissaries there go back to hand (H9).
        here = self.at_castle.get(castle, ())
        mine = sum(1 for q, _ in here if q == player)
        if mine:
            self.hand_em[player] += mine
            rest = tuple(e for e in here if e[0] != player)
            if rest:
                self.at_castle[castle] = rest
            else:
                del self.at_castle[castle]


_HANDLERS = {
    actions.Move: TurnEffects._do_move,
    actions.Recruit: TurnEffects._do_recruit,
    actions.AttackArmy: TurnEffects._do_attack_army,
    actions.AttackCastle: TurnEffects._do_attack_castle,
    actions.SendEmissary: TurnEffects._do_send,
    actions.RequestSupport: TurnEffects._do_support,
    actions.RequestAlliance: TurnEffects._do_request_alliance,
    actions.AcceptAlliance: TurnEffects._do_accept,
    actions.Retrieve: TurnEffects._do_retrieve,
    actions.TakeHostage: TurnEffects._do_take_hostage,
    actions.ReturnHostage: TurnEffects._do_return_hostage,
    actions.TakeCard: TurnEffects._do_take_card,
    actions.DrawCards: TurnEffects._do_draw_cards,
    actions.DiscardCard: TurnEffects._do_discard,
    actions.PlayGoodFortune: TurnEffects._do_good_fortune,
    actions.PlayCavalryCharge: TurnEffects._do_cavalry,
    actions.PlayForcedMarch: TurnEffects._do_move,
    actions.PlayResistance: TurnEffects._do_resistance,
    actions.PlayLoyalVassal: TurnEffects._do_loyal_vassal,
    actions.PlayBishop: TurnEffects._do_bishop,
    actions.PlayPope: TurnEffects._do_pope,
    actions.PlayKingIsDead: TurnEffects._do_king_is_dead,
    actions.PlaySpy: TurnEffects._do_spy,
    actions.PlayInvasion: TurnEffects._do_invasion,
    actions.PlaySecretPact: TurnEffects._do_secret_pact,
    actions.PlayHostage: TurnEffects._do_hostage,
}
