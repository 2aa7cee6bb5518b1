"""What a Corona de Hierro state is as data: what one seat sees (ruling H17) and the board
graph with the game on it.

:class:`StateData` is a part of :class:`~coronas.hierro.state.HierroState`; the words and
pictures made from these are in :mod:`coronas.hierro.views`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import networkx as nx

from coronas.engine.seats import check_seat
from coronas.hierro.actions import MAGYARS, ROME, SARACENS, ZONE
from coronas.hierro.rules import MILITARY_KINDS, card_kind

__all__ = ["StateData"]


class StateData:
    """A seat's observation and the graph of a position (mixed into the state)."""

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-ready data (ruling H17).

        Its own loyalty card, hand and the cards it is looking at (``loyalty``, ``hand``,
        ``looking``); of the others only how many cards they hold or look at (``hand_sizes``,
        ``looking_sizes``) and, in the basic game, how many of each deck every hand holds
        (``hand_decks``: ``{"military": m, "political": p}`` a seat, since every card there is
        dealt or taken from a named deck and leaves in the open; None in the advanced game,
        whose draft picks are secret); their loyalty cards only once the game is over
        (``loyalty_cards``: None where hidden); of the decks only their sizes (``decks``), and
        ``unseen``: the cards it cannot see, in the decks and the other hands together (the deck
        lists less its own cards and the open discards). Everything on the board is open:
        ``castles`` (owner, troops inside, banners, shield, emissaries with the turn each was
        placed), ``armies`` (city -> pawns by seat), the off-map areas, ``alliances``,
        ``hostages``, the track, the pieces, a roll in progress (``fight``) and who draws next
        (``draws``). Seats are numbers; ``to_move`` is the player to move, -1 at a chance node,
        -4 once the game is over; ``observer`` is ``player``, ``turn_of`` the player whose turn
        it is. After Spy (step ``"spy"``) ``spied`` is the player whose cards are being looked
        at, and ``spied_hand`` those cards for the player who played Spy (None for everyone
        else, and at every other step). Two states that differ only in what ``player`` cannot
        see give equal observations.

        >>> from coronas.hierro import Game
        >>> s = Game(players=3).position(hands=[("spy",), ("pope", "hostage"), ()],
        ...                              loyalty=["crown:green", "crown:red", "crown:blue"])
        >>> obs = s.observation(0)
        >>> obs["hand"], obs["loyalty"], obs["hand_sizes"], obs["loyalty_cards"]
        (['spy'], 'crown:green', [1, 2, 0], ['crown:green', None, None])
        """
        check_seat(self, player)
        n = self.num_players
        over = self.step == "over"
        unseen = Counter()
        for deck in self.decks.values():
            unseen.update(deck)
        # Spy shows the target's hand to the player who played it, until a card is discarded.
        spying = self.step == "spy" and player == self.player
        for q in range(n):
            if q != player:
                if not (spying and q == self.spied):
                    unseen.update(self.hands[q])
                unseen.update(self.looking[q])
        castles = {}
        for c in self.info.castles:
            castles[c] = {
                "owner": self.owner.get(c),
                "troops": bool(self.troops.get(c, False)),
                "shield": self.shield_of(c),
                "army_target": self.army_target(c),
                "emissary_target": self.emissary_target(c),
                "emissaries": [[q, t] for q, t in self.at_castle.get(c, ())],
            }
        fight = None if self.fight is None else dict(self.fight)
        return {
            "game": "hierro",
            "observer": player,
            "players": n,
            "colours": [self.colour(q) for q in range(n)],
            "step": self.step,
            "to_move": self._current_player(),
            "turn": self.turn,
            "turn_of": self.player,
            "actions_left": self.left,
            "end_reason": self.end_reason,
            "legitimacy": list(self.legit),
            "vp": list(self.vp),
            "shields": list(self.shields),
            "shield_supply": self.supply,
            "pawns_in_reserve": list(self.pawns),
            "banners_in_hand": list(self.banners),
            "emissaries_in_hand": list(self.hand_em),
            "castles": castles,
            "tiles": dict(sorted(self.tiles.items())),
            "armies": {
                city: [here.get(q, 0) for q in range(n)]
                for city, here in sorted(self.armies.items())
            },
            "rome": list(self.rome),
            "saracens": list(self.saracens),
            "magyars": list(self.magyars),
            "alliances": [[a, b, ok] for (a, b), ok in sorted(self.zone.items())],
            "hostages": [[h, o] for h, o in self.hostages],
            "decks": {deck: sum(cards.values()) for deck, cards in self.decks.items()},
            "discards": dict(sorted(self.discards.items())),
            "unseen": dict(sorted(unseen.items())),
            "hand": list(self.hands[player]),
            "looking": list(self.looking[player]),
            "loyalty": self.loyalty[player],
            "hand_sizes": [len(h) for h in self.hands],
            "looking_sizes": [len(c) for c in self.looking],
            "hand_decks": None
            if self.rules.advanced
            else [
                {
                    "military": sum(card_kind(c) in MILITARY_KINDS for c in h),
                    "political": sum(card_kind(c) not in MILITARY_KINDS for c in h),
                }
                for h in self.hands
            ],
            "loyalty_cards": [
                card if q == player or over else None for q, card in enumerate(self.loyalty)
            ],
            "fight": fight,
            "draws": [[q, deck] for q, deck in self.queue],
            "draws_into": self.into if self.queue else None,
            "keeper": self.keeper if self.step == "keep" else None,
            "keep_left": self.keep_left if self.step == "keep" else 0,
            "seat": self.seat if self.step == "choose_castle" else None,
            "spied": self.spied if self.step == "spy" else None,
            "spied_hand": list(self.hands[self.spied]) if spying else None,
        }

    def graph(self) -> nx.Graph:
        """The board graph with the game on it.

        City nodes keep the board's attributes (``pos``, ``castle``, ``kind``, ``shield``...,
        with castle tiles applied) and gain ``armies`` ({player: pawns}), ``owner`` (player or
        None), ``troops`` (a recruitable army inside) and ``emissaries`` (list of players).
        Off-map nodes ``Rome``, ``Saracens``, ``Magyars`` and ``Alliance Zone`` (attribute
        ``offmap=True``) carry ``emissaries``; the Alliance Zone also ``alliances``, a list of
        ``(requester, target, accepted)``. Graph attributes: ``players``, ``colours``,
        ``legitimacy``, ``shields``, ``vp`` (the VP every view shows,
        :meth:`~coronas.hierro.views.StateViews.vp_shown`) and ``vp_label`` (what it is:
        ``"VP now"``, or ``"score"`` once the game is over), ``turn``, ``to_move``,
        ``hostages``.
        """
        G = self.board.graph()
        for city, data in G.nodes(data=True):
            data["armies"] = dict(self.armies.get(city, {}))
            if data.get("castle"):
                data["army_target"] = self.army_target(city)
                data["emissary_target"] = self.emissary_target(city)
                data["shield"] = self.shield_of(city)
                data["owner"] = self.owner.get(city)
                data["troops"] = bool(self.troops.get(city, False))
                data["emissaries"] = list(self.emissaries_at(city))
            else:
                data["owner"] = None
                data["troops"] = False
                data["emissaries"] = []
        for place in (ROME, SARACENS, MAGYARS, ZONE):
            G.add_node(
                place,
                name=place,
                offmap=True,
                castle=False,
                armies={},
                emissaries=[] if place == ZONE else list(self.emissaries_at(place)),
            )
        G.nodes[ZONE]["alliances"] = [(a, b, ok) for (a, b), ok in sorted(self.zone.items())]
        G.nodes[ZONE]["emissaries"] = [a for (a, _b) in sorted(self.zone)]
        G.graph.update(
            players=self.num_players,
            colours=list(self.rules.colours[: self.num_players]),
            legitimacy=list(self.legit),
            shields=list(self.shields),
            vp=self.vp_shown(),
            vp_label="score" if self.step == "over" else "VP now",
            turn=self.turn,
            to_move=self._current_player(),
            hostages=list(self.hostages),
        )
        return G
