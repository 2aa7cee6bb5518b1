"""How a Corona de Hierro state shows itself: action labels, text and HTML.

:class:`StateViews` is a part of :class:`~coronas.hierro.state.HierroState`; what a state is
as data (a seat's observation, the board graph) is in :mod:`coronas.hierro.observation`.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from coronas.formatting import plural
from coronas.hierro.actions import (
    BARBARIANS,
    ROME,
    AttackArmy,
    AttackCastle,
    DealLoyalty,
    Draw,
    Keep,
    PlayBishop,
    PlayCavalryCharge,
    PlayGoodFortune,
    PlayLoyalVassal,
    PlaySecretPact,
    PlaySpy,
    Recruit,
    RequestSupport,
    Roll,
    SpyDiscard,
)
from coronas.hierro.rules import card_kind

__all__ = ["StateViews", "card_name"]

# The cards as the rulebook prints them (a numbered card adds its shields: "Bishop 2-3").
_CARD_NAMES = {
    "good_fortune": "Good fortune",
    "cavalry_charge": "Cavalry charge",
    "forced_march": "Forced march",
    "resistance": "Resistance",
    "loyal_vassal": "Loyal vassal",
    "bishop": "Bishop",
    "pope": "Pope",
    "king_is_dead": "The King is dead",
    "spy": "Spy",
    "magyar_invasion": "Magyar invasion",
    "saracen_invasion": "Saracen invasion",
    "secret_pact": "Secret pact",
    "hostage": "Hostage",
    "self": "Sole legitimate King",
}
_CARD_ID = re.compile(r"\bcrown:[a-z]+\b|\b(?:" + "|".join(_CARD_NAMES) + r")(?::[0-9-]+)?\b")

# The steps before and between turns, as the rulebook's set-up names them.
_STEP_NAMES = {
    "choose_castle": "Choosing main castles",
    "tile": "Placing the castle tiles",
    "loyalty": "Dealing the loyalty cards",
    "draw": "Drawing initiative cards",
    "keep": "Keeping initiative cards",
}


_FIGHTS = {"castle": "assault", "diplomacy": "request for support", "battle": "battle"}


_CELL = "style='padding:1px 6px;text-align:left'"
# A cell whose contents stay on one line (a swatch beside its name, a band beside its level).
_ONE_LINE = "style='padding:1px 6px;text-align:left;white-space:nowrap'"

# What a VP figure before the end means, said once under the players' table.
_NOW_NOTE = (
    "VP now: what each would score if the game ended here, the secret loyalty cards not counted"
)
_HAND_SET = "a position set up by hand"


def _swatch(colour: str) -> str:
    """A small square of ``colour`` (a CSS colour name: the players' and the bands')."""
    return (
        f"<span style='display:inline-block;width:0.8em;height:0.8em;background:{colour};"
        "border:1px solid #444;vertical-align:middle'></span>"
    )


def card_name(card: str | None) -> str:
    """A card id by its printed name: ``"crown:green"`` is ``"Crown of green"``,
    ``"bishop:2-3"`` ``"Bishop 2-3"``, ``"loyal_vassal:1"`` ``"Loyal vassal 1"``, the
    self-declaration card ``"Sole legitimate King"``; None (no card) is ``"none"``."""
    if card is None:
        return "none"
    if card.startswith("crown:"):
        return f"Crown of {card.split(':', 1)[1]}"
    name = _CARD_NAMES.get(card_kind(card), card)
    _, _, shields = card.partition(":")
    return f"{name} {shields}" if shields else name


def _names(cards: list[str]) -> str:
    return ", ".join(card_name(c) for c in cards) or "none"


def _named(text: str) -> str:
    """``text`` with every card id in it by its printed name."""
    return _CARD_ID.sub(lambda m: card_name(m.group(0)), text)


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
            return f"discard {card_name(action.card)} from {self.colour(self.spied)}'s hand"
        if isinstance(action, PlayLoyalVassal):
            return f"play {card_name(action.card)} at {action.castle}"
        if isinstance(action, PlayBishop | PlaySecretPact):
            return f"play {card_name(action.card)}"
        if isinstance(action, Roll) and self.fight is not None:
            roller = self.colour(self.fight["roller"])
            return f"{roller} rolls {action.value} on the {self._roll_colour()} die"
        if isinstance(action, Recruit) and p >= 0:
            n = min(r.recruit_size(self.legit[p]), self.pawns[p])
            return f"recruit {n} {'army' if n == 1 else 'armies'} at {action.castle}"
        text = _named(str(action))
        for q in range(self.num_players):
            text = text.replace(f"player {q}", self.colour(q))
        return text

    def describe_for(self, action: Any, viewer: int | None) -> str:
        """:meth:`describe` as seat ``viewer`` sees ``action`` played here (None: an onlooker
        who holds no seat): a card drawn, a loyalty card dealt or a card kept by another
        player is not named (``"green draws a political card"``, ``"green is dealt a loyalty
        card"``, ``"keep a card"``); the drawer sees its card (``"green draws Spy"``).
        Everything else every player sees as :meth:`describe` words it."""
        step = self.step
        if isinstance(action, Draw) and step == "draw" and self.queue:
            p, deck = self.queue[0]
            where = "" if self.into == "hand" else " to look at"
            if viewer != p:
                return f"{self.colour(p)} draws a {deck} card{where}"
            return f"{self.colour(p)} draws {card_name(action.card)}{where}"
        if isinstance(action, DealLoyalty) and step == "loyalty" and None in self.loyalty:
            p = self.loyalty.index(None)
            if viewer != p:
                return f"{self.colour(p)} is dealt a loyalty card"
            return f"{self.colour(p)} is dealt the loyalty card {card_name(action.card)}"
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

    def phase_text(self) -> str:
        """The set-up step under way and who acts in it, as the rulebook words it:
        ``"Choosing main castles: blue chooses"``, ``"Drawing initiative cards: green draws
        a political card"``; a draw in a turn is named by the turn (``"Turn 5 (round 2)"``)."""
        name = _STEP_NAMES.get(self.step, self.step)
        if self.step in ("draw", "keep") and self.after not in ("start", "draft"):
            name = self._turn_text()
        cp = self._current_player()
        who = self.colour(cp) if cp >= 0 else ""
        if self.step == "choose_castle":
            return f"{name}: {who} chooses"
        if self.step == "tile":
            return f"{name}: {who} places a tile"
        if self.step == "keep":
            return f"{name}: {who} chooses {plural(self.keep_left, 'card')} to keep"
        return f"{name}: {self.chance_text()}"

    def chance_text(self) -> str:
        """What the chance node being resolved decides, as an onlooker sees it: ``"Roll the
        red die for red's assault on Parma: needs 5"``, ``"green draws a political card"``,
        ``"blue is dealt a loyalty card"``; ``""`` when nothing is being rolled or drawn."""
        if self._current_player() != -1:
            return ""
        if self.step == "draw" and self.queue:
            p, deck = self.queue[0]
            return f"{self.colour(p)} draws a {deck} card"
        if self.step == "loyalty" and None in self.loyalty:
            return f"{self.colour(self.loyalty.index(None))} is dealt a loyalty card"
        f = self.fight
        if f is None:
            return ""
        att, roller, where = self.colour(f["att"]), self.colour(f["roller"]), f["where"]
        if f["kind"] == "battle":
            what = f"{roller} in the battle of {att} against {self.colour(f['dfn'])} at {where}"
            need = f": needs more than {f['a']}" if f["stage"] == "dfn" else ""
        else:
            kind = "assault on" if f["kind"] == "castle" else "request for the support of"
            what, need = f"{att}'s {kind} {where}", f": needs {f['target']}"
        return f"Roll the {self._roll_colour()} die for {what}{need}"

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
            lines.append(f"{self.phase_text()}.")
        over = self.step == "over"
        totals = self.vp_shown()
        for p in range(self.num_players):
            castles = (
                ", ".join(c + ("*" if self.troops.get(c) else "") for c in self.castles_of(p))
                or "none"
            )
            armies = ", ".join(f"{c} {a[p]}" for c, a in sorted(self.armies.items()) if p in a)
            vp = f"score {totals[p]}" if over else f"{totals[p]} VP if the game ended now"
            lines.append(
                f"{self.colour(p)}: legitimacy {self.legit[p]} ({self.band(p)} band), "
                f"{plural(self.shields[p], 'shield')}, {plural(len(self.hands[p]), 'card')}, "
                f"{vp}; castles {castles}; armies {armies or 'none'}; "
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
        if over:
            lines.append(self.loyalty_text() + ".")
        if self.fight is not None and self.fight["a"] is not None:
            f = self.fight
            lines.append(
                f"Roll in progress: {_FIGHTS[f['kind']]} at {f['where']}, rolled {f['a']}"
                + (f" against {f['d']}" if f["d"] is not None else "")
            )
        return lines

    def standing(self) -> list[dict[str, int]]:
        """The scores as every player may see them at this moment, by category: once the game
        is over :meth:`scores` (the loyalty cards are then shown); before,
        :meth:`public_scores`, what each would score if the game ended now without the
        secret loyalty points. Every VP figure shown (the players' table and lines, the map's
        inset, the stepper's scores) reads it, so no two figures of one moment disagree."""
        return self.scores() if self.step == "over" else self.public_scores()

    def vp_shown(self) -> list[int]:
        """Each player's total in :meth:`standing`: the VP figure every view prints."""
        return [row["total"] for row in self.standing()]

    def hand_set(self) -> bool:
        """Whether this game started from a position set up by hand, whose loyalty cards
        were never dealt: a card not given there is not known (and scores nothing)."""
        return getattr(self.game, "start_position", None) is not None

    def _loyalty_name(self, card: str | None) -> str:
        if card is None and self.hand_set():
            return "not known"
        return card_name(card)

    def loyalty_text(self) -> str:
        """Every loyalty card by name (shown once the game is over): ``"Loyalty cards: red
        Crown of green, green Crown of red, blue Sole legitimate King"``. A position set up by
        hand without them says so: ``"Loyalty cards: not known (a position set up by hand:
        no loyalty points are scored)"``."""
        if self.hand_set() and all(card is None for card in self.loyalty):
            return f"Loyalty cards: not known ({_HAND_SET}: no loyalty points are scored)"
        text = "Loyalty cards: " + ", ".join(
            f"{self.colour(q)} {self._loyalty_name(card)}" for q, card in enumerate(self.loyalty)
        )
        if self.hand_set() and None in self.loyalty:
            text += f" ({_HAND_SET}: a card not given scores nothing)"
        return text

    def __str__(self) -> str:
        return "\n".join(self.summary())

    def observation_text(self, player: int) -> str:
        """:meth:`observation` in words: the open position (the lines of ``str(state)``, which
        shows only what every player sees) and then what ``player`` alone sees."""
        obs = self.observation(player)
        me = self.colour(player)
        lines = list(self.summary())
        over = self.step == "over"
        if obs["loyalty"] is not None:
            dealt = card_name(obs["loyalty"])
        elif self.hand_set():
            dealt = f"not known ({_HAND_SET})"
        else:
            dealt = "none" if over else "not dealt yet"
        lines.append(f"You are {me}. Loyalty card: {dealt}.")
        lines.append(f"Your initiative cards: {_names(obs['hand'])}.")
        if obs["looking"]:
            lines.append(f"Cards you are looking at: {_names(obs['looking'])}.")
        if obs["spied_hand"] is not None:
            lines.append(
                f"With Spy you see {self.colour(obs['spied'])}'s cards: "
                f"{_names(obs['spied_hand'])}."
            )
        others = [
            f"{self.colour(q)} {k}" for q, k in enumerate(obs["looking_sizes"]) if k and q != player
        ]
        if others:
            lines.append("Others looking at cards: " + ", ".join(others) + ".")
        if obs["discards"]:
            lines.append(
                "Played or discarded: "
                + ", ".join(f"{card_name(c)} x{k}" for c, k in obs["discards"].items())
                + "."
            )
        lines.append(
            f"Cards you cannot see (decks and other hands): {sum(obs['unseen'].values())}."
        )
        return "\n".join(lines)

    def players_html(self) -> str:
        """The players as a small HTML table, one row each with a swatch of its colour:
        legitimacy and its band, shields, cards held, VP (:meth:`vp_shown`: what each would
        score if the game ended now, said under the table; the score once the game is over),
        castles, armies and emissaries in hand; what every player sees. A swatch stays on
        the line of its name."""
        over = self.step == "over"
        totals = self.vp_shown()
        cells = ("player", "legitimacy", "shields", "cards", "score" if over else "VP now")
        cells += ("castles", "armies", "emissaries")
        rows = []
        for p in range(self.num_players):
            castles = ", ".join(c + ("*" if self.troops.get(c) else "") for c in self.castles_of(p))
            armies = ", ".join(f"{c} {a[p]}" for c, a in sorted(self.armies.items()) if p in a)
            marker = " &#9654;" if p == self._current_player() else ""
            values = (
                f"{_swatch(self.colour(p))} <b>{escape(self.colour(p))}</b>{marker}",
                f"{self.legit[p]} {_swatch(self.band(p))} {self.band(p)} band",
                self.shields[p],
                len(self.hands[p]),
                f"<b>{totals[p]}</b>" if over else totals[p],
                escape(castles or "-"),
                escape(armies or "-"),
                f"{self.hand_em[p]} in hand",
            )
            rows.append(
                "<tr>"
                + "".join(
                    f"<td {_ONE_LINE if i < 2 else _CELL}>{v}</td>" for i, v in enumerate(values)
                )
                + "</tr>"
            )
        note = "" if over else f"<small style='color:#555'>{_NOW_NOTE}</small>"
        return (
            "<table style='border-collapse:collapse'><tr>"
            + "".join(f"<th {_ONE_LINE}>{c}</th>" for c in cells)
            + "</tr>"
            + "".join(rows)
            + "</table>"
            + note
        )

    def observation_html(self, player: int) -> str:
        """:meth:`observation_text` as HTML: the players' table, the open lines, then what
        ``player`` alone sees (its loyalty card and hand) in bold."""
        public = self.summary()
        private = self.observation_text(player).splitlines()[len(public) :]
        rest = "".join(f"<li>{escape(line)}</li>" for line in public[1 + self.num_players :])
        mine = "".join(f"<li><b>{escape(line)}</b></li>" for line in private)
        return (
            f"<div><b>{escape(public[0])}</b>{self.players_html()}"
            f"<ul style='margin:0.3em 0'>{rest}</ul><ul style='margin:0.3em 0'>{mine}</ul></div>"
        )

    def _repr_html_(self) -> str:
        """A table of the players (Jupyter); ``coronas.plotting.hierro.draw_board(state=...)``
        draws the map."""
        head = escape(self.summary()[0])
        extra = "".join(
            f"<li>{escape(line)}</li>" for line in self.summary()[1 + self.num_players :]
        )
        return (
            f"<div><b>Corona de Hierro</b>: {head}{self.players_html()}<ul>{extra}</ul>"
            "<small>* troops inside</small></div>"
        )
