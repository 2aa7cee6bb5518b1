"""The rule set of Corona de Hierro: every number of the game as data.

The rulebook gives most numbers; where it is silent the defaults follow the project's rulings
(``docs/rulings.md``, Corona de Hierro section, H1-H15). A group that plays differently
changes a field::

    >>> from coronas.hierro.rules import Rules
    >>> Rules().band(7)
    'yellow'
    >>> Rules().army_die(2).p_ge(4)
    Fraction(1, 2)
    >>> Rules(green=(2, 3, 4, 5, 6, 6)).die("green")[6]
    Fraction(1, 3)

Dice faces (H1) are plain tuples, so a player can type in the faces of their own copy.
The legitimacy track (H2) runs from 0 to ``crown``; ``yellow_from`` and ``green_from`` start
the yellow and green bands (red is below ``yellow_from``).

Initiative cards are identified by short strings: ``"good_fortune"``, ``"cavalry_charge"``,
``"forced_march"``, ``"resistance"``, ``"loyal_vassal:3"`` (the shield shown),
``"bishop:1-2"`` (the two shields), ``"pope"``, ``"king_is_dead"``, ``"spy"``,
``"magyar_invasion"``, ``"saracen_invasion"``, ``"secret_pact:1-2-3"`` (the three shields) and
``"hostage"``. The decks (H12) map card to number of copies.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from coronas.dice import Die
from coronas.engine import RuleSet
from coronas.engine.rules import bounded
from coronas.formatting import listing

__all__ = [
    "CARD_KINDS",
    "DIE_COLOURS",
    "MILITARY_KINDS",
    "POLITICAL_KINDS",
    "Rules",
    "card_kind",
    "card_shields",
]

DIE_COLOURS = ("red", "yellow", "green")
"""The three dice, weakest to strongest; also the three bands of the legitimacy track."""

MILITARY_KINDS = ("good_fortune", "cavalry_charge", "forced_march", "resistance", "loyal_vassal")
POLITICAL_KINDS = (
    "bishop",
    "pope",
    "king_is_dead",
    "spy",
    "magyar_invasion",
    "saracen_invasion",
    "secret_pact",
    "hostage",
)
CARD_KINDS = MILITARY_KINDS + POLITICAL_KINDS

_D6 = (1, 2, 3, 4, 5, 6)


def card_kind(card: str) -> str:
    """The kind of a card id: ``card_kind("bishop:1-2") == "bishop"``."""
    return card.split(":", 1)[0]


def card_shields(card: str) -> tuple[int, ...]:
    """The noble shields printed on a card: ``card_shields("secret_pact:1-2-3") == (1, 2, 3)``."""
    _, _, rest = card.partition(":")
    return tuple(int(s) for s in rest.split("-")) if rest else ()


def _default_military() -> dict[str, int]:
    deck = {"good_fortune": 6, "cavalry_charge": 6, "forced_march": 6, "resistance": 6}
    deck.update({f"loyal_vassal:{s}": 1 for s in range(1, 6)})
    return deck


def _default_political() -> dict[str, int]:
    deck = {f"bishop:{s}-{s % 5 + 1}": 1 for s in range(1, 6)}
    deck.update(
        {"pope": 3, "king_is_dead": 2, "spy": 3, "magyar_invasion": 3, "saracen_invasion": 3}
    )
    deck.update({f"secret_pact:{s}-{s % 5 + 1}-{(s + 1) % 5 + 1}": 1 for s in range(1, 6)})
    deck["hostage"] = 5
    return deck


@dataclasses.dataclass(frozen=True)
class Rules(RuleSet):
    """Every number and variant of Corona de Hierro. Defaults: the rulebook, then H1-H15."""

    # -- dice (H1) -----------------------------------------------------------------------
    red: tuple[int, ...] = bounded(_D6, 0, 100, length=(1, 36))
    """Faces of the red die (small armies, red legitimacy band)."""
    yellow: tuple[int, ...] = bounded(_D6, 0, 100, length=(1, 36))
    """Faces of the yellow die (medium armies, yellow band)."""
    green: tuple[int, ...] = bounded(_D6, 0, 100, length=(1, 36))
    """Faces of the green die (large armies, green band, Good fortune)."""

    # -- players ---------------------------------------------------------------------------
    colours: tuple[str, ...] = bounded(("red", "green", "blue", "yellow", "black"), length=(5, 10))
    """Player colours in seat order; seat 0 is the youngest player, who starts."""
    actions_per_turn: int = bounded(2, 1, 10)

    # -- legitimacy track (H2) ------------------------------------------------------------
    legitimacy_start: int = bounded(2, 0, 100)
    yellow_from: int = bounded(5, 1, 100)
    """First level of the yellow band (levels below it are red)."""
    green_from: int = bounded(10, 2, 100)
    """First level of the green band."""
    crown: int = bounded(15, 3, 100)
    """The crown: reaching it makes a player King and ends the game at once."""

    # -- pieces (H4) ------------------------------------------------------------------------
    army_pawns: int = bounded(8, 1, 30)
    """Pawns a colour has for armies (two more mark VP and legitimacy)."""
    banners: int = bounded(8, 1, 50)
    emissaries: int = bounded(4, 1, 20)
    shields_total: int = bounded(15, 0, 100)
    shields_start: int = bounded(2, 0, 100)

    # -- armies ----------------------------------------------------------------------------
    medium_from: int = bounded(2, 1, 30)
    """Pawns of a medium army (yellow die); fewer is small (red die)."""
    large_from: int = bounded(3, 2, 30)
    """Pawns of a large army (green die)."""
    recruit_by_band: dict[str, int] = bounded(
        lambda: {"red": 1, "yellow": 1, "green": 2}, 0, 10, length=(3, 3)
    )
    """Pawns a recruit brings, by the recruiter's legitimacy band."""
    allies_may_pass: bool = True
    """H6: an army sharing a city with another player's army may leave it only if they are
    allied (the rulebook's "permission")."""

    # -- legitimacy changes ------------------------------------------------------------------
    battle_win: int = bounded(1, 0, 100)
    battle_loss: int = bounded(1, 0, 100)
    conquest_gain: int = bounded(1, 0, 100)
    conquest_loss: int = bounded(1, 0, 100)
    royal_gain: int = bounded(3, 0, 100)
    """Pavia (the royal castle): legitimacy gained by whoever takes it."""
    royal_loss: int = bounded(3, 0, 100)
    diplomacy_gain: int = bounded(1, 0, 100)
    rome_gain: int = bounded(1, 0, 100)
    rome_loss: int = bounded(1, 0, 100)
    alliance_accept_gain: int = bounded(2, 0, 100)
    alliance_break_loss: int = bounded(2, 0, 100)

    # -- emissaries (H9, H10) ------------------------------------------------------------------
    castle_emissaries: int = bounded(2, 1, 10)
    """Emissaries one castle can hold."""
    rome_extra: int = bounded(1, 0, 10)
    """Rome holds players + rome_extra emissaries in all."""
    barbarian_offset: int = bounded(-2, -10, 10)
    """Each of the Saracens and the Magyars holds players + barbarian_offset emissaries."""

    # -- cards (H12) ---------------------------------------------------------------------------
    military_deck: dict[str, int] = bounded(_default_military, 0, 20, length=(1, 50))
    political_deck: dict[str, int] = bounded(_default_political, 0, 20, length=(1, 50))
    hand_limit: int = bounded(5, 1, 20)
    draw_many_cost: int = bounded(3, 0, 100)
    """Experience shields spent to draw several cards and keep one."""
    draw_many_count: int = bounded(5, 1, 20)
    good_fortune_die: str = "green"
    cavalry_die: str = "yellow"
    cavalry_vp: int = bounded(1, 0, 100)
    forced_march_small: int = bounded(3, 0, 5)
    """Roads a small army may travel with Forced march."""
    forced_march_medium: int = bounded(2, 0, 5)
    resistance_pawns: int = bounded(1, 0, 10)
    loyal_vassal_size: int = bounded(2, 1, 30)
    bishop_gain: int = bounded(2, 0, 100)
    pope_gain: int = bounded(2, 0, 100)
    pope_needs_emissaries: bool = True
    """Support of the Pope with no emissary in Rome: nobody has "the most", nobody gains.
    False: every player (all tied at 0) gains."""
    king_is_dead_gain: int = bounded(3, 0, 100)
    invasion_loss: int = bounded(2, 0, 100)
    secret_pact_vp: int = bounded(3, 0, 100)
    hostage_rome_swing: int = bounded(1, 0, 100)

    # -- loyalty and scoring (H13, H14) -------------------------------------------------------
    loyalty_vp: int = bounded(4, 0, 100)
    """A 'see X crowned' loyalty card fulfilled."""
    self_declaration_vp: int = bounded(6, 0, 100)
    """'I declare myself the sole legitimate King of Italy' fulfilled."""
    self_declaration_min_players: int = bounded(4, 0, 10)
    castle_vp: tuple[int, ...] = bounded((0, 1, 4, 9), 0, 100, length=(1, 20))
    """VP for 0, 1, 2, 3 castles of one noble shield."""
    band_vp: dict[str, int] = bounded(
        lambda: {"red": 0, "yellow": 4, "green": 6}, 0, 100, length=(3, 3)
    )
    """VP by final legitimacy band; the crown counts as green."""
    king_scores_band: bool = False
    """H14: a King scores the high (green) area's VP whatever its band, as the rulebook's
    "in the high area (green area) or who have been crowned King, score 6" says; only kings
    tied at the end score "the area they are actually in". True: every King scores its band."""
    free_emissaries_vp: int = bounded(1, 0, 100)
    """VP for a player none of whose emissaries is held hostage at the end."""

    # -- advanced rules (H15) -------------------------------------------------------------------
    advanced: bool = False
    """Shuffle the castle tiles among the neutral castles and draft the opening cards."""
    draft_draw: int = bounded(4, 1, 20)
    """Advanced: cards of each deck each player looks at."""
    draft_keep: int = bounded(2, 1, 20)
    """Advanced: cards each player keeps of those."""

    def __post_init__(self) -> None:
        for colour in DIE_COLOURS:
            faces = getattr(self, colour)
            if not faces or not all(isinstance(f, int) and not isinstance(f, bool) for f in faces):
                raise ValueError(
                    f"{colour}: expected a non-empty list of whole-number faces, got {faces!r}"
                )
        if not 0 <= self.legitimacy_start < self.yellow_from < self.green_from < self.crown:
            raise ValueError(
                "expected 0 <= legitimacy_start < yellow_from < green_from < crown, "
                f"got {self.legitimacy_start}, {self.yellow_from}, "
                f"{self.green_from}, {self.crown}"
            )
        if not 1 <= self.medium_from < self.large_from:
            raise ValueError("expected 1 <= medium_from < large_from")
        if len(self.colours) < 5 or len(set(self.colours)) != len(self.colours):
            raise ValueError(
                f"colours: expected five different colours, got {listing(self.colours, 'and')}"
            )
        if sorted(self.recruit_by_band) != sorted(DIE_COLOURS):
            raise ValueError("recruit_by_band: expected the keys red, yellow and green")
        if sorted(self.band_vp) != sorted(DIE_COLOURS):
            raise ValueError("band_vp: expected the keys red, yellow and green")
        for name in ("good_fortune_die", "cavalry_die"):
            if getattr(self, name) not in DIE_COLOURS:
                raise ValueError(f"{name}: expected red, yellow or green")
        for name, kinds in (("military_deck", MILITARY_KINDS), ("political_deck", POLITICAL_KINDS)):
            deck = getattr(self, name)
            for card, count in deck.items():
                if card_kind(card) not in kinds:
                    raise ValueError(
                        f"{name}: unknown card {card!r}; the kinds are {listing(kinds, 'and')}"
                    )
                if not isinstance(count, int) or count < 0:
                    raise ValueError(f"{name}: card {card!r} needs a count of 0 or more")
            if sum(deck.values()) < 1:
                raise ValueError(f"{name}: the deck is empty")
        if not self.castle_vp:
            raise ValueError("castle_vp: expected at least one entry")
        for name in (
            "actions_per_turn",
            "army_pawns",
            "banners",
            "emissaries",
            "hand_limit",
            "draw_many_count",
            "draft_keep",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"{name}: expected 1 or more, got {getattr(self, name)}")
        if self.shields_total < 0 or self.shields_start < 0:
            raise ValueError("shields_total and shields_start must be 0 or more")
        if self.draft_draw < 1:
            raise ValueError("draft_draw: expected 1 or more")

    def __hash__(self) -> int:
        # The decks are dicts, so the generated hash would fail; hash the plain data once.
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(json.dumps(self.to_dict(), sort_keys=True))
            object.__setattr__(self, "_hash", cached)
        return cached

    # -- dice ---------------------------------------------------------------------------------
    def faces(self, colour: str) -> tuple[int, ...]:
        """The faces of the ``colour`` die."""
        if colour not in DIE_COLOURS:
            raise ValueError(f"no {colour!r} die; the dice are red, yellow and green")
        return getattr(self, colour)

    def die(self, colour: str) -> Die:
        """The ``colour`` die as an exact distribution."""
        return Die(self.faces(colour))

    def army_colour(self, size: int) -> str:
        """The die an army of ``size`` pawns rolls: red small, yellow medium, green large."""
        if size < 1:
            raise ValueError(f"an army has at least one pawn, got {size}")
        if size >= self.large_from:
            return "green"
        return "yellow" if size >= self.medium_from else "red"

    def army_die(self, size: int) -> Die:
        """The die an army of ``size`` pawns rolls in battle and against castles."""
        return self.die(self.army_colour(size))

    # -- legitimacy ------------------------------------------------------------------------------
    def band(self, legitimacy: int) -> str:
        """The band (red, yellow, green) of a legitimacy level; the crown counts as green."""
        if legitimacy >= self.green_from:
            return "green"
        return "yellow" if legitimacy >= self.yellow_from else "red"

    def diplomacy_die(self, legitimacy: int) -> Die:
        """The die an emissary rolls: the colour of the player's legitimacy band."""
        return self.die(self.band(legitimacy))

    def recruit_size(self, legitimacy: int) -> int:
        """Pawns one recruit brings out of a castle at this legitimacy."""
        return self.recruit_by_band[self.band(legitimacy)]

    def clamp(self, legitimacy: int) -> int:
        """Keep a level on the track: nothing below 0 or above the crown."""
        return max(0, min(self.crown, legitimacy))

    # -- capacities -----------------------------------------------------------------------------
    def rome_capacity(self, players: int) -> int:
        return players + self.rome_extra

    def barbarian_capacity(self, players: int) -> int:
        """Emissaries each barbarian people (Saracens, Magyars) may hold."""
        return max(0, players + self.barbarian_offset)

    def deck(self, kind: str) -> dict[str, int]:
        """The composition of the ``"military"`` or ``"political"`` deck."""
        if kind == "military":
            return dict(self.military_deck)
        if kind == "political":
            return dict(self.political_deck)
        raise ValueError(f"no {kind!r} deck; the decks are military and political")

    def castles_vp(self, n: int) -> int:
        """VP for ``n`` castles of one noble shield (1, 4, 9 by default)."""
        if n < len(self.castle_vp):
            return self.castle_vp[n]
        return self.castle_vp[-1]

    def loyalty_cards(self, players: int) -> tuple[str, ...]:
        """The loyalty cards in play: one per colour in use, plus the self-declaration card."""
        cards = tuple(f"crown:{c}" for c in self.colours[:players])
        if players >= self.self_declaration_min_players:
            cards += ("self",)
        return cards

    def describe(self) -> dict[str, Any]:
        """The rule set as plain data (same as ``to_dict``)."""
        return self.to_dict()
