"""Listing the legal actions of a turn, fast: the generator behind ``legal_actions()``.

:class:`TurnListing` is a part of :class:`~coronas.hierro.state.HierroState`. The rules of
each action live in :mod:`coronas.hierro.legality` (one rule function per action, which also
says why an action is refused); this module lists the actions those rules allow without
trying every candidate, since listing is most of the work of a random playout. It hands out
action instances built once per board (:class:`~coronas.hierro.tables.BoardInfo`) or once per
hand of cards. The tests hold the list equal to the rules: the same actions as
``legal_by_rules()`` and as every candidate whose ``_reason`` is None, and seeded games list
the same actions in the same order as recorded. Each block below names the rule functions it
follows: a change to a rule is made there first, then here.
"""

from __future__ import annotations

import functools
from typing import Any

from coronas.hierro import actions
from coronas.hierro.actions import DECKS, MAGYARS, ROME, SARACENS
from coronas.hierro.rules import card_kind, card_shields

__all__ = ["TurnListing"]

_INVASIONS = ("magyar_invasion", "saracen_invasion")
_NO_CARDS: tuple[frozenset[str], tuple] = (frozenset(), ())


class TurnListing:
    """The fast listing of the legal actions of a turn (a part of ``HierroState``)."""

    def _legal_turn(self, p: int) -> list[Any]:
        """The legal turn actions of ``p``, built directly (fast path of legal_actions)."""
        game = self.game
        info = game.info
        r = game.rules
        n = game.num_players
        owner = self.owner
        troops = self.troops
        armies = self.armies
        tiles = self.tiles
        hand = self.hands[p]
        kinds, cards = _hand(hand) if hand else _NO_CARDS
        banner = self.banners[p] > 0
        out: list[Any] = []
        add = out.append
        extend = out.extend
        # Armies: moves, battles, assaults, Forced march (rules: _r_move, _r_attack_army,
        # _castle_assault_reason, _r_forced_march with _blocked and _march_reach).
        if armies:
            cavalry = "cavalry_charge" in kinds
            fortune = "good_fortune" in kinds
            march = "forced_march" in kinds
            gates = info.gate
            for city, here in armies.items():
                size = here.get(p)
                if not size:
                    continue
                alone = len(here) == 1
                free = alone or self._blocked(city, p) is None
                if free:
                    upto = info.moves_upto[city]
                    extend(upto[size] if size < len(upto) else upto[-1])
                if not alone:
                    attack = info.attack_army[city]
                    charge = info.cavalry[city]
                    for q in here:
                        if q != p:
                            add(attack[q])
                            if cavalry:
                                add(charge[q])
                gate = gates.get(city)
                if gate is not None:
                    o = owner.get(city)
                    if o is None:
                        open_ = banner
                    elif o == p or o in here:
                        open_ = False
                    else:
                        open_ = banner or troops[city]
                    if open_:
                        add(gate[0])
                        if fortune:
                            add(gate[1])
                if free and march:
                    reach: dict[str, list[str]] = {}  # by army colour: the reach is the same
                    for k in range(1, size + 1):
                        colour = r.army_colour(k)
                        dests = reach.get(colour)
                        if dests is None:
                            dests = reach[colour] = self._march_reach(city, p, k)
                        for dest in dests:
                            add(_act(actions.PlayForcedMarch, city, dest, k))
        # Own castles: recruits, Resistance (_r_recruit, _r_resistance).
        resist = "resistance" in kinds
        recruits = self.pawns[p] > 0
        for c, o in owner.items() if recruits or resist else ():
            if o != p:
                continue
            if recruits and troops[c]:
                add(info.recruit[c])
            if resist:
                here = armies.get(c)
                if here:
                    for q in here:
                        if q != p:
                            add(info.resistance[c][q])
        # Emissaries sent out, alliances asked (_r_send, _r_request_alliance).
        at_castle = self.at_castle
        zone = self.zone
        if self.hand_em[p]:
            send = info.send
            cap = r.castle_emissaries
            if tiles:
                sendable = [c for c in info.neutral if self.emissary_target(c) is not None]
            else:
                sendable = info.sendable
            if at_castle:
                extend(
                    [
                        send[c]
                        for c in sendable
                        if c not in owner and len(at_castle.get(c, ())) < cap
                    ]
                )
            else:
                extend([send[c] for c in sendable if c not in owner])
            if len(self.rome) < r.rome_capacity(n):
                add(send[ROME])
            bcap = r.barbarian_capacity(n)
            if len(self.saracens) < bcap:
                add(send[SARACENS])
            if len(self.magyars) < bcap:
                add(send[MAGYARS])
            ask = info.request_alliance
            for q in range(n):
                if q != p and (p, q) not in zone and (q, p) not in zone:
                    add(ask[q])
        # Emissaries in castles: retrieve, ask for support, take hostages (_r_retrieve,
        # _diplomacy_reason, _r_take_hostage); then the other emissaries called back, alliances
        # accepted, hostages returned (_r_retrieve, _r_accept, _r_return_hostage).
        if at_castle:
            turn = self.turn
            fortune = "good_fortune" in kinds
            for c, ems in at_castle.items():
                since = None  # the turn p's first emissary here arrived
                for q, t in ems:
                    if q == p and (since is None or t < since):
                        since = t
                if since is not None:
                    add(info.retrieve[c])
                    if banner and since < turn and c not in owner:
                        support = info.support[c]
                        add(support[0])
                        if fortune:
                            add(support[1])
                if owner.get(c) == p:
                    take = info.take_hostage[c]
                    for q in sorted({q for q, _ in ems if q != p}):
                        add(take[q])
        retrieve = info.retrieve
        if p in self.rome:
            add(retrieve[ROME])
        if p in self.saracens:
            add(retrieve[SARACENS])
        if p in self.magyars:
            add(retrieve[MAGYARS])
        for (a, b), accepted in zone.items():
            if not accepted:
                if b == p:
                    add(info.accept_alliance[a])
                if a == p:
                    add(info.retrieve_zone[b])
        if self.hostages:
            back = info.return_hostage
            for o in sorted({o for h, o in self.hostages if h == p}):
                add(back[o])
        # Cards: take, draw, discard, play (_r_take_card, _r_discard, and each card's rule in
        # legality._REASONS).
        if len(hand) < r.hand_limit:
            decks = self.decks
            many = self.shields[p] >= r.draw_many_cost
            for deck in DECKS:
                if decks[deck]:
                    add(info.take_card[deck])
                    if many:
                        add(info.draw_cards[deck])
        if not cards:
            return out
        first = self.left == r.actions_per_turn
        shield = info.shield
        castles = None
        for card, kind, discard, play, shields in cards:
            add(discard)
            if kind == "loyal_vassal":
                if self.pawns[p]:
                    for c, o in owner.items():
                        if o == p and troops[c] and shield[tiles.get(c, c)] in shields:
                            add(_act(actions.PlayLoyalVassal, card, c))
            elif kind == "bishop" or kind == "secret_pact":
                if castles is None:
                    castles = {shield[tiles.get(c, c)] for c, o in owner.items() if o == p}
                if kind == "bishop":
                    if any(sh in castles for sh in shields):
                        add(play)
                elif all(sh in castles for sh in shields):
                    add(play)
            elif kind == "pope" or kind in _INVASIONS:
                if first:
                    add(play)
            elif kind == "king_is_dead":
                add(play)
            elif kind == "spy":
                hands = self.hands
                spy = info.spy
                for q in range(n):
                    if q != p and hands[q]:
                        add(spy[q])
            elif kind == "hostage" and self.hand_em[p]:
                hostage = info.hostage
                for place, ems in at_castle.items():
                    if place not in owner:  # no emissary goes to a conquered castle
                        take = hostage[place]
                        for q in sorted({q for q, _ in ems if q != p}):
                            add(take[q])
                for place, ems in (
                    (ROME, self.rome),
                    (SARACENS, self.saracens),
                    (MAGYARS, self.magyars),
                ):
                    if ems:
                        take = hostage[place]
                        for q in sorted(set(ems)):
                            if q != p:
                                add(take[q])
        return out


@functools.lru_cache(maxsize=65536)
def _act(cls: type, *args: Any) -> Any:
    """A shared instance of an action (actions are immutable; building them is slow)."""
    return cls(*args)


# What a card offers when listing: the card, its kind, its discard action, the action that
# plays it when that needs nothing but the card (Bishop, Secret pact, Pope, invasions, King
# is dead), and the shields it shows.
_PLAYS = {
    "bishop": actions.PlayBishop,
    "secret_pact": actions.PlaySecretPact,
    "magyar_invasion": actions.PlayInvasion,
    "saracen_invasion": actions.PlayInvasion,
}


@functools.lru_cache(maxsize=4096)
def _hand(hand: tuple[str, ...]) -> tuple[frozenset[str], tuple[tuple[Any, ...], ...]]:
    """The kinds of card in ``hand``, and what each different card offers (sorted by card)."""
    cards = []
    for card in sorted(set(hand)):
        kind = card_kind(card)
        if kind in _PLAYS:
            play = _PLAYS[kind](card)
        elif kind == "pope":
            play = actions.PlayPope()
        elif kind == "king_is_dead":
            play = actions.PlayKingIsDead()
        else:
            play = None
        cards.append((card, kind, actions.DiscardCard(card), play, card_shields(card)))
    return frozenset(k for _, k, *_ in cards), tuple(cards)
