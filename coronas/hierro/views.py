"""How a Corona de Hierro state shows itself: action labels, text, HTML and its graph.

:class:`StateViews` is a part of :class:`~coronas.hierro.state.HierroState`.
"""

from __future__ import annotations

from collections import Counter
from html import escape
from typing import Any

import networkx as nx

from coronas.formatting import plural
from coronas.hierro.actions import (
    BARBARIANS,
    MAGYARS,
    ROME,
    SARACENS,
    ZONE,
    AttackArmy,
    AttackCastle,
    DealLoyalty,
    Draw,
    Keep,
    PlayCavalryCharge,
    PlayGoodFortune,
    PlaySpy,
    Recruit,
    RequestSupport,
    Roll,
    SpyDiscard,
)

__all__ = ["StateViews"]


class StateViews:
    """Labels, summaries and the graph of a state (a part of ``HierroState``)."""

    # -- display -----------------------------------------------------------------------------------
    def label(self, action: Any) -> str:
        """:meth:`describe` with the colour of the player to move in front: ``"red: attack
        castle Verona with 3 armies (green die, needs 5)"``."""
        p = self._current_player()
        text = self.describe(action)
        return f"{self.colour(p)}: {text}" if p >= 0 else text

    def describe(self, action: Any) -> str:
        """``action`` in words here, with the army sizes, the die and the number needed:
        ``"attack castle Verona with 3 armies (green die, needs 5)"``; players by colour."""
        p = self._current_player()
        r = self.rules
        if (
            isinstance(action, AttackCastle | PlayGoodFortune)
            and getattr(action, "means", "army") == "army"
        ):
            castle = action.castle
            n = self.army(castle, p) if p >= 0 else 0
            colour = (
                r.good_fortune_die
                if isinstance(action, PlayGoodFortune)
                else r.army_colour(max(n, 1))
            )
            owner = self.owner.get(castle)
            what = (
                " to drive out the troops inside"
                if owner is not None and self.troops.get(castle)
                else ""
            )
            head = "play Good fortune: attack" if isinstance(action, PlayGoodFortune) else "attack"
            return (
                f"{head} castle {castle} with {n} {'army' if n == 1 else 'armies'} "
                f"({colour} die, needs {self.army_target(castle)}{what})"
            )
        if isinstance(action, RequestSupport | PlayGoodFortune):
            colour = (
                r.good_fortune_die if isinstance(action, PlayGoodFortune) else r.band(self.legit[p])
            )
            head = (
                "play Good fortune: request" if isinstance(action, PlayGoodFortune) else "request"
            )
            return (
                f"{head} support of {action.castle} ({colour} die, needs "
                f"{self.emissary_target(action.castle)})"
            )
        if isinstance(action, AttackArmy | PlayCavalryCharge):
            mine, theirs = self.army(action.city, p), self.army(action.city, action.defender)
            mc = (
                r.cavalry_die
                if isinstance(action, PlayCavalryCharge)
                else r.army_colour(max(mine, 1))
            )
            tc = r.army_colour(max(theirs, 1))
            head = (
                "play Cavalry charge: attack" if isinstance(action, PlayCavalryCharge) else "attack"
            )
            return (
                f"{head} {self.colour(action.defender)}'s army in {action.city}, "
                f"{mine} against {theirs} ({mc} die against {tc} die)"
            )
        if isinstance(action, SpyDiscard) and self.spied is not None:
            return f"discard {action.card} from {self.colour(self.spied)}'s hand"
        if isinstance(action, Roll) and self.fight is not None:
            roller = self.colour(self.fight["roller"])
            return f"{roller} rolls {action.value} on the {self._roll_colour()} die"
        if isinstance(action, Recruit) and p >= 0:
            n = min(r.recruit_size(self.legit[p]), self.pawns[p])
            return f"recruit {n} {'army' if n == 1 else 'armies'} at {action.castle}"
        text = str(action)
        for q in range(self.num_players):
            text = text.replace(f"player {q}", self.colour(q))
        return text

    def describe_for(self, action: Any, viewer: int | None) -> str:
        """:meth:`describe` as seat ``viewer`` sees ``action`` played here (None: an onlooker
        who holds no seat): a card drawn, a loyalty card dealt or a card kept by another
        player is not named (``"green draws a political card"``, ``"green is dealt a loyalty
        card"``, ``"keep a card"``); the drawer sees its card (``"green draws spy"``).
        Everything else every player sees as :meth:`describe` words it."""
        step = self.step
        if isinstance(action, Draw) and step == "draw" and self.queue:
            p, deck = self.queue[0]
            where = "" if self.into == "hand" else " to look at"
            if viewer != p:
                return f"{self.colour(p)} draws a {deck} card{where}"
            return f"{self.colour(p)} draws {action.card}{where}"
        if isinstance(action, DealLoyalty) and step == "loyalty" and None in self.loyalty:
            p = self.loyalty.index(None)
            if viewer != p:
                return f"{self.colour(p)} is dealt a loyalty card"
            return f"{self.colour(p)} is dealt loyalty card {action.card}"
        if isinstance(action, Keep) and step == "keep" and viewer != self.keeper:
            return "keep a card"
        return self.describe(action)

    def reveals(self, action: Any) -> list[int]:
        """The seats to which playing ``action`` here shows a secret: Spy shows the target's
        cards to the player who plays it (ruling H17). Draws and deals are chance, worded by
        :meth:`describe_for`; no other decision shows a hidden card."""
        if isinstance(action, PlaySpy) and self.step == "play":
            return [self._current_player()]
        return []

    def _turn_text(self) -> str:
        return f"Turn {self.turn + 1} (round {self.turn // self.num_players + 1})"

    def _fight_text(self) -> str:
        """What is being rolled for, by whom, and what it needs: "red attacks the castle of
        Verona: red rolls the green die, needs 5+"."""
        f = self.fight
        att, roller = self.colour(f["att"]), self.colour(f["roller"])
        if f["kind"] == "battle":
            what = f"{att} attacks {self.colour(f['dfn'])} at {f['where']}"
            need = f", needs more than {f['a']}" if f["stage"] == "dfn" else ""
        else:
            what = (
                f"{att} attacks the castle of {f['where']}"
                if f["kind"] == "castle"
                else f"{att} seeks the support of {f['where']}"
            )
            need = f", needs {f['target']}+"
        if self.step == "roll":
            return f"{what}: {roller} rolls the {self._roll_colour()} die{need}"
        rolled = f["d"] if f["kind"] == "battle" and f["stage"] == "dfn" else f["a"]
        return f"{what}: {roller} rolled {rolled}{need}; reroll with a shield or keep it"

    def summary(self) -> list[str]:
        """The position as lines of text (also ``str(state)``)."""
        r = self.rules
        lines = []
        if self.step == "over":
            lines.append(f"Game over: {self.end_reason}.")
        elif self.step == "play":
            lines.append(
                f"{self._turn_text()}: {self.colour(self.player)} to play, "
                f"{plural(self.left, 'action')} left."
            )
        elif self.step in ("roll", "reroll") and self.fight is not None:
            lines.append(f"{self._turn_text()}: {self._fight_text()}.")
        elif self.step == "spy":
            lines.append(
                f"{self._turn_text()}: {self.colour(self.player)} plays Spy on "
                f"{self.colour(self.spied)} and chooses one of their cards to discard."
            )
        else:
            cp = self._current_player()
            who = "chance" if cp < 0 else self.colour(cp)
            lines.append(f"Step {self.step}: {who} to move.")
        for p in range(self.num_players):
            castles = (
                ", ".join(c + ("*" if self.troops.get(c) else "") for c in self.castles_of(p))
                or "none"
            )
            armies = ", ".join(f"{c} {a[p]}" for c, a in sorted(self.armies.items()) if p in a)
            lines.append(
                f"{self.colour(p)}: legitimacy {self.legit[p]} ({self.band(p)}), "
                f"{plural(self.shields[p], 'shield')}, {plural(len(self.hands[p]), 'card')}, "
                f"VP {self.vp[p]}; castles {castles}; armies {armies or 'none'}; "
                f"{plural(self.hand_em[p], 'emissary', 'emissaries')} in hand"
            )
        ems = [
            f"{c}: {', '.join(self.colour(q) for q, _ in e)}"
            for c, e in sorted(self.at_castle.items())
        ]
        for place in (ROME, *BARBARIANS):
            here = self.emissaries_at(place)
            if here:
                ems.append(f"{place}: {', '.join(self.colour(q) for q in here)}")
        if ems:
            lines.append("Emissaries: " + "; ".join(ems))
        if self.zone:
            lines.append(
                "Alliances: "
                + "; ".join(
                    f"{self.colour(a)} -> {self.colour(b)} ({'allied' if ok else 'offered'})"
                    for (a, b), ok in sorted(self.zone.items())
                )
            )
        if self.hostages:
            lines.append(
                "Hostages: "
                + "; ".join(
                    f"{self.colour(h)} holds {self.colour(o)}'s emissary" for h, o in self.hostages
                )
            )
        lines.append(
            f"Decks: military {sum(self.decks['military'].values())}, political "
            f"{sum(self.decks['political'].values())}; shields in supply {self.supply}; "
            f"crown at {r.crown}."
        )
        if self.fight is not None and self.fight["a"] is not None:
            f = self.fight
            lines.append(
                f"Roll in progress: {f['kind']} at {f['where']}, rolled {f['a']}"
                + (f" against {f['d']}" if f["d"] is not None else "")
            )
        return lines

    def __str__(self) -> str:
        return "\n".join(self.summary())

    # -- what one player sees (H17) ----------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-ready data (ruling H17).

        Its own loyalty card, hand and the cards it is looking at (``loyalty``, ``hand``,
        ``looking``); of the others only how many cards they hold or look at
        (``hand_sizes``, ``looking_sizes``), their loyalty cards only once the game is over
        (``loyalty_cards``: None where hidden); of the decks only their sizes (``decks``), and
        ``unseen``: the cards it cannot see, in the decks and the other hands together (the
        deck lists less its own cards and the open discards). Everything on the board is
        open: ``castles`` (owner, troops inside, banners, shield, emissaries with the turn
        each was placed), ``armies`` (city -> pawns by seat), the off-map areas,
        ``alliances``, ``hostages``, the track, the pieces, a roll in progress (``fight``)
        and who draws next (``draws``). Seats are numbers; ``to_move`` is the player to move,
        -1 at a chance node, -4 once the game is over; ``observer`` is ``player``,
        ``turn_of`` the player whose turn it is. After Spy (step ``"spy"``) ``spied`` is the
        player whose cards are being looked at, and ``spied_hand`` those cards for the player
        who played Spy (None for everyone else, and at every other step). Two states that
        differ only in what ``player`` cannot see give equal observations.

        >>> from coronas.hierro import Game
        >>> s = Game(players=3).position(hands=[("spy",), ("pope", "hostage"), ()],
        ...                              loyalty=["crown:green", "crown:red", "crown:blue"])
        >>> obs = s.observation(0)
        >>> obs["hand"], obs["loyalty"], obs["hand_sizes"], obs["loyalty_cards"]
        (['spy'], 'crown:green', [1, 2, 0], ['crown:green', None, None])
        """
        n = self.num_players
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            raise ValueError(f"there is no player {player!r}: the seats are 0 to {n - 1}")
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

    def observation_text(self, player: int) -> str:
        """:meth:`observation` in words: the open position (the lines of ``str(state)``, which
        shows only what every player sees) and then what ``player`` alone sees."""
        obs = self.observation(player)
        me = self.colour(player)
        lines = list(self.summary())
        lines.append(f"You are {me}. Loyalty card: {obs['loyalty'] or 'not dealt yet'}.")
        lines.append(f"Your initiative cards: {', '.join(obs['hand']) or 'none'}.")
        if obs["looking"]:
            lines.append(f"Cards you are looking at: {', '.join(obs['looking'])}.")
        if obs["spied_hand"] is not None:
            lines.append(
                f"With Spy you see {self.colour(obs['spied'])}'s cards: "
                f"{', '.join(obs['spied_hand'])}."
            )
        others = [
            f"{self.colour(q)} {k}" for q, k in enumerate(obs["looking_sizes"]) if k and q != player
        ]
        if others:
            lines.append("Others looking at cards: " + ", ".join(others) + ".")
        if obs["discards"]:
            lines.append(
                "Played or discarded: "
                + ", ".join(f"{c} x{k}" for c, k in obs["discards"].items())
                + "."
            )
        lines.append(
            f"Cards you cannot see (decks and other hands): {sum(obs['unseen'].values())}."
        )
        if self.step == "over":
            lines.append(
                "Loyalty cards: "
                + ", ".join(
                    f"{self.colour(q)} {card}" for q, card in enumerate(obs["loyalty_cards"])
                )
                + "."
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """A table of the players (Jupyter); ``draw_board(state=...)`` draws the map."""
        head = escape(self.summary()[0])
        cells = (
            "player",
            "legitimacy",
            "shields",
            "cards",
            "VP",
            "castles",
            "armies",
            "emissaries",
        )
        rows = []
        for p in range(self.num_players):
            castles = ", ".join(c + ("*" if self.troops.get(c) else "") for c in self.castles_of(p))
            armies = ", ".join(f"{c} {a[p]}" for c, a in sorted(self.armies.items()) if p in a)
            marker = " &#9654;" if p == self._current_player() else ""
            values = (
                f"<b>{escape(self.colour(p))}</b>{marker}",
                f"{self.legit[p]} ({self.band(p)})",
                self.shields[p],
                len(self.hands[p]),
                self.vp[p],
                escape(castles or "-"),
                escape(armies or "-"),
                f"{self.hand_em[p]} in hand",
            )
            rows.append("<tr>" + "".join(f"<td>{v}</td>" for v in values) + "</tr>")
        extra = "".join(
            f"<li>{escape(line)}</li>" for line in self.summary()[1 + self.num_players :]
        )
        return (
            f"<div><b>Corona de Hierro</b>: {head}<table><tr>"
            + "".join(f"<th>{c}</th>" for c in cells)
            + "</tr>"
            + "".join(rows)
            + f"</table><ul>{extra}</ul><small>* troops inside; "
            "coronas.plotting.hierro.draw_board(state=...) draws the map</small></div>"
        )

    def graph(self) -> nx.Graph:
        """The board graph with the game on it.

        City nodes keep the board's attributes (``pos``, ``castle``, ``kind``, ``shield``...,
        with castle tiles applied) and gain ``armies`` ({player: pawns}), ``owner`` (player or
        None), ``troops`` (a recruitable army inside) and ``emissaries`` (list of players).
        Off-map nodes ``Rome``, ``Saracens``, ``Magyars`` and ``Alliance Zone`` (attribute
        ``offmap=True``) carry ``emissaries``; the Alliance Zone also ``alliances``, a list of
        ``(requester, target, accepted)``. Graph attributes: ``players``, ``colours``,
        ``legitimacy``, ``shields``, ``vp``, ``turn``, ``to_move``, ``hostages``.
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
            vp=list(self.vp),
            turn=self.turn,
            to_move=self._current_player(),
            hostages=list(self.hostages),
        )
        return G
