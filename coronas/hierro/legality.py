"""When an action of a turn is legal, and why not: the rules of every action and card.

:class:`TurnRules` is a part of :class:`~coronas.hierro.state.HierroState`. Each action type
has one rule function (``_r_<action>``) that returns ``None`` when the action is legal and
otherwise the reason, in the game's words; ``legal_by_rules()`` lists the legal actions by
checking candidates with them. ``legal_actions()`` uses the fast generator ``_legal_turn``
(:mod:`coronas.hierro.listing`), which the tests hold equal to ``legal_by_rules()``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from coronas.formatting import plural
from coronas.hierro import actions
from coronas.hierro.actions import BARBARIANS, CARD_ACTIONS, DECKS, ROME, ZONE
from coronas.hierro.rules import card_kind, card_shields
from coronas.hierro.views import card_name

if TYPE_CHECKING:
    from coronas.hierro.rules import Rules

__all__ = ["TurnRules"]


class TurnRules:
    """The legality of the actions of a turn (a part of ``HierroState``)."""

    def legal_by_rules(self) -> list[Any]:
        """The legal turn actions found the slow way: every candidate checked by the rule
        functions that also explain refusals. Equal (as a set) to ``legal_actions()``; the
        tests hold the fast generator to it."""
        if self.step != "play":
            return self.legal_actions()
        return [a for a in self._candidates(self.player) if self._reason(a) is None]

    # -- the actions of a turn: candidates and reasons ---------------------------------------------
    def _candidates(self, p: int) -> Iterator[Any]:
        """A superset of the legal turn actions of ``p`` (filtered by :meth:`_reason`)."""
        info = self.info
        r = self.rules
        hand = self.hands[p]
        for city, here in self.armies.items():
            size = here.get(p, 0)
            if not size:
                continue
            for nb in info.adj[city]:
                for k in range(1, size + 1):
                    yield actions.Move(city, nb, k)
            for q in here:
                if q != p:
                    yield actions.AttackArmy(city, q)
            if city in info.castle_set:
                yield actions.AttackCastle(city)
        for c, o in self.owner.items():
            if o == p:
                yield actions.Recruit(c)
        if self.hand_em[p]:
            for c in info.neutral:
                yield actions.SendEmissary(c)
            yield actions.SendEmissary(ROME)
            for b in BARBARIANS:
                yield actions.SendEmissary(b)
            for q in range(self.num_players):
                yield actions.RequestAlliance(q)
        for c, ems in self.at_castle.items():
            if any(q == p for q, _ in ems):
                yield actions.RequestSupport(c)
                yield actions.Retrieve(c)
            if self.owner.get(c) == p:
                for q in sorted({q for q, _ in ems}):
                    yield actions.TakeHostage(c, q)
        if p in self.rome:
            yield actions.Retrieve(ROME)
        for b in BARBARIANS:
            if p in self.emissaries_at(b):
                yield actions.Retrieve(b)
        for (a, b), accepted in self.zone.items():
            if b == p and not accepted:
                yield actions.AcceptAlliance(a)
            if a == p and not accepted:
                yield actions.Retrieve(ZONE, b)
        for h, o in sorted(set(self.hostages)):
            if h == p:
                yield actions.ReturnHostage(o)
        for deck in DECKS:
            yield actions.TakeCard(deck)
            yield actions.DrawCards(deck)
        for card in sorted(set(hand)):
            yield actions.DiscardCard(card)
            yield from self._card_candidates(p, card, r)

    def _card_candidates(self, p: int, card: str, r: Rules) -> Iterator[Any]:
        kind = card_kind(card)
        info = self.info
        if kind == "good_fortune":
            for city, here in self.armies.items():
                if p in here and city in info.castle_set:
                    yield actions.PlayGoodFortune(city, "army")
            for c, ems in self.at_castle.items():
                if any(q == p for q, _ in ems):
                    yield actions.PlayGoodFortune(c, "emissary")
        elif kind == "cavalry_charge":
            for city, here in self.armies.items():
                if p in here:
                    for q in here:
                        if q != p:
                            yield actions.PlayCavalryCharge(city, q)
        elif kind == "forced_march":
            for city, here in self.armies.items():
                size = here.get(p, 0)
                for k in range(1, size + 1):
                    for dest in self._march_reach(city, p, k):
                        yield actions.PlayForcedMarch(city, dest, k)
        elif kind == "resistance":
            for c, o in self.owner.items():
                if o == p:
                    for q in self.armies.get(c, ()):
                        if q != p:
                            yield actions.PlayResistance(c, q)
        elif kind == "loyal_vassal":
            for c, o in self.owner.items():
                if o == p:
                    yield actions.PlayLoyalVassal(card, c)
        elif kind == "bishop":
            yield actions.PlayBishop(card)
        elif kind == "pope":
            yield actions.PlayPope()
        elif kind == "king_is_dead":
            yield actions.PlayKingIsDead()
        elif kind == "spy":
            for q in range(self.num_players):
                if q != p and self.hands[q]:
                    yield actions.PlaySpy(q)
        elif kind in ("magyar_invasion", "saracen_invasion"):
            yield actions.PlayInvasion(card)
        elif kind == "secret_pact":
            yield actions.PlaySecretPact(card)
        elif kind == "hostage":
            for place in (*self.at_castle, ROME, *BARBARIANS):
                for q in sorted(set(self.emissaries_at(place))):
                    if q != p:
                        yield actions.PlayHostage(q, place)

    def _march_reach(self, city: str, p: int, count: int) -> list[str]:
        """Cities a Forced march of ``count`` pawns can reach from ``city`` (sorted)."""
        r = self.rules
        colour = r.army_colour(count)
        steps = {"red": r.forced_march_small, "yellow": r.forced_march_medium}.get(colour, 0)
        if not steps or self._blocked(city, p) is not None:
            return []
        seen = {city: 0}
        frontier = [city]
        for depth in range(1, steps + 1):
            nxt = []
            for c in frontier:
                if c != city and self._blocked(c, p) is not None:
                    continue  # an enemy army stops the march here
                for nb in self.info.adj[c]:
                    if nb not in seen:
                        seen[nb] = depth
                        nxt.append(nb)
            frontier = nxt
        return sorted(c for c in seen if c != city)

    # Reasons: None when legal, else why not, in the game's words.
    def _reason(self, a: Any) -> str | None:
        p = self.player
        who = self.colour(p)
        check = _REASONS.get(type(a))
        if check is None:
            return f"{a} is not an action of a turn ({who} is to play an action)"
        card_kind_needed = CARD_ACTIONS.get(type(a))
        if card_kind_needed is not None:
            card = played_card(a)
            if card_kind_needed == "invasion":
                if card not in ("magyar_invasion", "saracen_invasion"):
                    return f'"{card_name(card)}" is not an invasion card'
            elif card_kind(card) != card_kind_needed:
                return f'"{card_name(card)}" is not a {card_kind_needed.replace("_", " ")} card'
            if card not in self.hands[p]:
                return f'{who} has no "{card_name(card)}" card in hand'
        return check(self, p, who, a)

    def _r_move(self, p: int, who: str, a: actions.Move) -> str | None:
        err = self._army_check(p, who, a.frm, a.count)
        if err:
            return err
        if a.to not in self.info.adj[a.frm]:
            return f"no road joins {a.frm} and {a.to}: an army moves one road per action"
        q = self._blocked(a.frm, p)
        if q is not None:
            return (
                f"{who}'s army in {a.frm} shares the city with {self.colour(q)}'s army "
                f"and cannot leave without an alliance"
            )
        return None

    def _army_check(self, p: int, who: str, city: str, count: int) -> str | None:
        if city not in self.info.adj:
            return f"there is no city called {city} on the map"
        have = self.army(city, p)
        if not have:
            return f"{who} has no army in {city}"
        if not isinstance(count, int) or count < 1:
            return "at least one pawn must move"
        if count > have:
            return f"{who} has only {have} pawn(s) in {city}"
        return None

    def _r_recruit(self, p: int, who: str, a: actions.Recruit) -> str | None:
        if a.castle not in self.info.castle_set:
            return f"there is no castle called {a.castle}"
        if self.owner.get(a.castle) != p:
            return f"{a.castle} does not belong to {who}"
        if not self.troops[a.castle]:
            return f"the troops of {a.castle} were already recruited (or wiped out)"
        if self.pawns[p] == 0:
            return f"{who} has no pawn left to put on the map"
        return None

    def _r_attack_army(
        self, p: int, who: str, a: actions.AttackArmy | actions.PlayCavalryCharge
    ) -> str | None:
        if a.city not in self.info.adj:
            return f"there is no city called {a.city} on the map"
        if not self.army(a.city, p):
            return f"{who} has no army in {a.city}"
        if not isinstance(a.defender, int) or not 0 <= a.defender < self.num_players:
            return f"there is no player {a.defender}"
        if a.defender == p:
            return f"{who} cannot attack its own army"
        if not self.army(a.city, a.defender):
            return f"{self.colour(a.defender)} has no army in {a.city}"
        return None

    def _r_attack_castle(self, p: int, who: str, a: actions.AttackCastle) -> str | None:
        return self._castle_assault_reason(p, who, a.castle)

    def _castle_assault_reason(self, p: int, who: str, castle: str) -> str | None:
        if castle not in self.info.castle_set:
            return f"there is no castle called {castle}"
        if not self.army(castle, p):
            return f"{who} has no army at the gate of {castle}"
        owner = self.owner.get(castle)
        if owner == p:
            return f"{castle} already belongs to {who}"
        if owner is not None and self.army(castle, owner):
            return (
                f"{self.colour(owner)}'s army stands at the gate of its castle {castle}: "
                "it must be beaten before the castle can be attacked"
            )
        conquers = owner is None or not self.troops[castle]
        if conquers and self.banners[p] == 0:
            return f"{who} has no banner left to place on a conquered castle"
        return None

    def _r_send(self, p: int, who: str, a: actions.SendEmissary) -> str | None:
        if self.hand_em[p] == 0:
            return f"{who} has no emissary in hand"
        n = self.num_players
        r = self.rules
        if a.to == ROME:
            if len(self.rome) >= r.rome_capacity(n):
                return f"Rome already holds {_emissaries(r.rome_capacity(n))}, the most allowed"
            return None
        if a.to in BARBARIANS:
            cap = r.barbarian_capacity(n)
            if len(self.emissaries_at(a.to)) >= cap:
                return f"the {a.to} already hold {_emissaries(cap)}, the most allowed"
            return None
        if a.to not in self.info.castle_set:
            return f"there is no castle or area called {a.to}"
        if self.emissary_target(a.to) is None or self.info.kind[a.to] != "neutral":
            return f"{a.to} cannot receive emissaries (Pavia and starting castles cannot)"
        if a.to in self.owner:
            return f"{a.to} was taken by {self.colour(self.owner[a.to])}: it takes no emissaries"
        if len(self.at_castle.get(a.to, ())) >= r.castle_emissaries:
            return f"{a.to} already holds {_emissaries(r.castle_emissaries)}"
        return None

    def _r_support(self, p: int, who: str, a: actions.RequestSupport) -> str | None:
        return self._diplomacy_reason(p, who, a.castle)

    def _diplomacy_reason(self, p: int, who: str, castle: str) -> str | None:
        if castle not in self.info.castle_set:
            return f"there is no castle called {castle}"
        mine = [t for q, t in self.at_castle.get(castle, ()) if q == p]
        if not mine:
            return f"{who} has no emissary in {castle}"
        if castle in self.owner:
            return (
                f"{castle} belongs to {self.colour(self.owner[castle])}: it can no longer "
                "be won by diplomacy"
            )
        if min(mine) >= self.turn:
            return (
                f"{who}'s emissary arrived in {castle} this turn: negotiations take time, "
                "roll on the next turn"
            )
        if self.banners[p] == 0:
            return f"{who} has no banner left to place on {castle}"
        return None

    def _r_request_alliance(self, p: int, who: str, a: actions.RequestAlliance) -> str | None:
        q = a.target
        if not isinstance(q, int) or not 0 <= q < self.num_players:
            return f"there is no player {q}"
        if q == p:
            return f"{who} cannot ally with itself"
        if self.hand_em[p] == 0:
            return f"{who} has no emissary in hand"
        if (p, q) in self.zone or (q, p) in self.zone:
            state = "allied" if self.allied(p, q) else "already negotiating an alliance"
            return f"{who} and {self.colour(q)} are {state}"
        return None

    def _r_accept(self, p: int, who: str, a: actions.AcceptAlliance) -> str | None:
        if self.zone.get((a.requester, p)) is not False:
            if self.zone.get((a.requester, p)):
                return f"{who} already accepted that alliance"
            return f"no alliance of player {a.requester} awaits {who}'s answer"
        return None

    def _r_retrieve(self, p: int, who: str, a: actions.Retrieve) -> str | None:
        if a.frm == ZONE:
            if a.target is None or self.zone.get((p, a.target)) is not False:
                if a.target is not None and self.zone.get((p, a.target)):
                    return (
                        "that alliance was accepted: the emissary returns only when the "
                        "alliance is broken"
                    )
                return f"{who} has no emissary waiting in the Alliance Zone for that player"
            return None
        if a.target is not None:
            return "only an emissary in the Alliance Zone is retrieved with a player named"
        if p not in self.emissaries_at(a.frm):
            return f"{who} has no emissary in {a.frm}"
        return None

    def _r_take_hostage(self, p: int, who: str, a: actions.TakeHostage) -> str | None:
        if self.owner.get(a.castle) != p:
            return f"{a.castle} does not belong to {who}: hostages are taken in own castles"
        if a.owner == p:
            return f"{who} cannot take its own emissary hostage"
        if a.owner not in self.emissaries_at(a.castle):
            return f"no emissary of player {a.owner} is in {a.castle}"
        return None

    def _r_return_hostage(self, p: int, who: str, a: actions.ReturnHostage) -> str | None:
        if (p, a.owner) not in self.hostages:
            return f"{who} holds no emissary of player {a.owner} hostage"
        return None

    def _r_take_card(self, p: int, who: str, a: actions.TakeCard | actions.DrawCards) -> str | None:
        if a.deck not in DECKS:
            return f"there is no {a.deck} deck; the decks are military and political"
        if len(self.hands[p]) >= self.rules.hand_limit:
            return (
                f"{who} already holds {self.rules.hand_limit} initiative cards: discard one first"
            )
        if not self.decks[a.deck]:
            return f"the {a.deck} deck is empty"
        if isinstance(a, actions.DrawCards) and self.shields[p] < self.rules.draw_many_cost:
            return (
                f"{who} has {self.shields[p]} experience shields; drawing several cards "
                f"costs {self.rules.draw_many_cost}"
            )
        return None

    def _r_discard(self, p: int, who: str, a: actions.DiscardCard) -> str | None:
        if a.card not in self.hands[p]:
            return f'{who} has no "{card_name(a.card)}" card in hand'
        return None

    def _r_good_fortune(self, p: int, who: str, a: actions.PlayGoodFortune) -> str | None:
        if a.means == "army":
            return self._castle_assault_reason(p, who, a.castle)
        if a.means == "emissary":
            return self._diplomacy_reason(p, who, a.castle)
        return f"Good fortune is played with an army or an emissary, not {a.means!r}"

    def _r_forced_march(self, p: int, who: str, a: actions.PlayForcedMarch) -> str | None:
        err = self._army_check(p, who, a.frm, a.count)
        if err:
            return err
        if self.rules.army_colour(a.count) == "green":
            return "Forced march cannot move a large army (detach a small or medium one)"
        q = self._blocked(a.frm, p)
        if q is not None:
            return (
                f"{who}'s army in {a.frm} shares the city with {self.colour(q)}'s army "
                f"and cannot leave without an alliance"
            )
        if a.to not in self._march_reach(a.frm, p, a.count):
            r = self.rules
            steps = (
                r.forced_march_small if r.army_colour(a.count) == "red" else r.forced_march_medium
            )
            return f"{a.to} is not within {steps} roads of {a.frm} on a route free of enemy armies"
        return None

    def _r_resistance(self, p: int, who: str, a: actions.PlayResistance) -> str | None:
        if self.owner.get(a.castle) != p:
            return f"{a.castle} is not {who}'s castle"
        if a.enemy == p or not self.army(a.castle, a.enemy):
            return f"no army of player {a.enemy} stands at the gate of {a.castle}"
        return None

    def _r_loyal_vassal(self, p: int, who: str, a: actions.PlayLoyalVassal) -> str | None:
        err = self._r_recruit(p, who, actions.Recruit(a.castle))
        if err:
            return err
        if self.shield_of(a.castle) not in card_shields(a.card):
            return f'{a.castle} does not bear the shield shown on "{card_name(a.card)}"'
        return None

    def _r_bishop(self, p: int, who: str, a: actions.PlayBishop) -> str | None:
        shields = card_shields(a.card)
        if not any(self.shield_of(c) in shields for c in self.castles_of(p)):
            return f"{who} controls no castle bearing shield {' or '.join(map(str, shields))}"
        return None

    def _r_first_only(self, p: int, who: str, a: Any) -> str | None:
        if not self.first_action():
            return f"{_card_title(a)} may only be played as the first action of the turn"
        return None

    def _r_always(self, p: int, who: str, a: Any) -> str | None:
        return None

    def _r_spy(self, p: int, who: str, a: actions.PlaySpy) -> str | None:
        if not isinstance(a.target, int) or not 0 <= a.target < self.num_players or a.target == p:
            return "Spy is played on another player"
        if not self.hands[a.target]:
            return f"{self.colour(a.target)} holds no initiative card to discard"
        return None

    def _r_secret_pact(self, p: int, who: str, a: actions.PlaySecretPact) -> str | None:
        held = {self.shield_of(c) for c in self.castles_of(p)}
        missing = [s for s in card_shields(a.card) if s not in held]
        if missing:
            return f"{who} controls no castle bearing shield {', '.join(map(str, missing))}"
        return None

    def _r_hostage(self, p: int, who: str, a: actions.PlayHostage) -> str | None:
        if self.hand_em[p] == 0:
            return f"{who} has no emissary in hand to put in its place"
        if a.place == ZONE:
            return "Hostage cannot replace an emissary in the Alliance Zone"
        if a.place not in (ROME, *BARBARIANS) and a.place not in self.info.castle_set:
            return f"there is no castle or area called {a.place}"
        if a.owner == p:
            return f"{who} cannot take its own emissary hostage"
        if a.owner not in self.emissaries_at(a.place):
            return f"no emissary of player {a.owner} is in {a.place}"
        owner = self.owner.get(a.place)
        if owner == p:
            return f"{a.place} is {who}'s own castle: take the hostage there with an action"
        if owner is not None:
            # The card puts an emissary of ours in the castle, and "emissaries also cannot be
            # sent to castles that have been conquered by other players".
            return (
                f"{a.place} belongs to {self.colour(owner)}: Hostage would put {who}'s "
                "emissary there, and emissaries cannot be sent to castles conquered by other "
                "players"
            )
        return None


def played_card(a: Any) -> str:
    """The card a card-playing action takes from the hand."""
    if isinstance(
        a,
        actions.PlayLoyalVassal
        | actions.PlayBishop
        | actions.PlayInvasion
        | actions.PlaySecretPact,
    ):
        return a.card
    return CARD_ACTIONS[type(a)]


def _card_title(a: Any) -> str:
    if isinstance(a, actions.PlayPope):
        return "Support of the Pope"
    if isinstance(a, actions.PlayInvasion):
        return "Magyar invasion" if a.card.startswith("magyar") else "Saracen invasion"
    return type(a).__name__


_REASONS = {
    actions.Move: TurnRules._r_move,
    actions.Recruit: TurnRules._r_recruit,
    actions.AttackArmy: TurnRules._r_attack_army,
    actions.AttackCastle: TurnRules._r_attack_castle,
    actions.SendEmissary: TurnRules._r_send,
    actions.RequestSupport: TurnRules._r_support,
    actions.RequestAlliance: TurnRules._r_request_alliance,
    actions.AcceptAlliance: TurnRules._r_accept,
    actions.Retrieve: TurnRules._r_retrieve,
    actions.TakeHostage: TurnRules._r_take_hostage,
    actions.ReturnHostage: TurnRules._r_return_hostage,
    actions.TakeCard: TurnRules._r_take_card,
    actions.DrawCards: TurnRules._r_take_card,
    actions.DiscardCard: TurnRules._r_discard,
    actions.PlayGoodFortune: TurnRules._r_good_fortune,
    actions.PlayCavalryCharge: TurnRules._r_attack_army,
    actions.PlayForcedMarch: TurnRules._r_forced_march,
    actions.PlayResistance: TurnRules._r_resistance,
    actions.PlayLoyalVassal: TurnRules._r_loyal_vassal,
    actions.PlayBishop: TurnRules._r_bishop,
    actions.PlayPope: TurnRules._r_first_only,
    actions.PlayKingIsDead: TurnRules._r_always,
    actions.PlaySpy: TurnRules._r_spy,
    actions.PlayInvasion: TurnRules._r_first_only,
    actions.PlaySecretPact: TurnRules._r_secret_pact,
    actions.PlayHostage: TurnRules._r_hostage,
}


def _emissaries(n: int) -> str:
    return plural(n, "emissary", "emissaries")
