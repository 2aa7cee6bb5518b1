"""How a Corona de Hierro state shows itself: action labels, text, HTML and its graph.

:class:`StateViews` is a part of :class:`~coronas.hierro.state.HierroState`.
"""

from __future__ import annotations

from html import escape
from typing import Any

import networkx as nx

from coronas.hierro.actions import (
    BARBARIANS,
    MAGYARS,
    ROME,
    SARACENS,
    ZONE,
    AttackArmy,
    AttackCastle,
    PlayCavalryCharge,
    PlayGoodFortune,
    Recruit,
    RequestSupport,
    Roll,
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
                f"{self.left} action(s) left."
            )
        elif self.step in ("roll", "reroll") and self.fight is not None:
            lines.append(f"{self._turn_text()}: {self._fight_text()}.")
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
                f"{self.shields[p]} shields, {len(self.hands[p])} cards, VP {self.vp[p]}; "
                f"castles {castles}; armies {armies or 'none'}; "
                f"{self.hand_em[p]} emissaries in hand"
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
