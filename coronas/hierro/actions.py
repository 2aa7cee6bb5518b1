"""The actions and chance outcomes of Corona de Hierro, as small frozen dataclasses.

Players are seat numbers (0 is the youngest player, who starts); places are city or castle
names of the board, or the off-map areas ``"Rome"``, ``"Saracens"`` and ``"Magyars"``.
``str(action)`` is a short plain label; ``state.label(action)`` adds the player's colour and
what the state knows (army size, die, target number).
"""

from __future__ import annotations

import dataclasses

from coronas.engine import Action

__all__ = [
    "ACTION_TYPES",
    "BARBARIANS",
    "CARD_ACTIONS",
    "DECKS",
    "MAGYARS",
    "ROME",
    "SARACENS",
    "ZONE",
    "AcceptAlliance",
    "AcceptRoll",
    "AttackArmy",
    "AttackCastle",
    "ChooseCastle",
    "DealLoyalty",
    "DiscardCard",
    "Draw",
    "DrawCards",
    "Keep",
    "Move",
    "PlaceTile",
    "PlayBishop",
    "PlayCavalryCharge",
    "PlayForcedMarch",
    "PlayGoodFortune",
    "PlayHostage",
    "PlayInvasion",
    "PlayKingIsDead",
    "PlayLoyalVassal",
    "PlayPope",
    "PlayResistance",
    "PlaySecretPact",
    "PlaySpy",
    "Recruit",
    "RequestAlliance",
    "RequestSupport",
    "Reroll",
    "Retrieve",
    "ReturnHostage",
    "Roll",
    "SendEmissary",
    "SpyDiscard",
    "TakeCard",
    "TakeHostage",
]

ROME = "Rome"
SARACENS = "Saracens"
MAGYARS = "Magyars"
ZONE = "Alliance Zone"
BARBARIANS = (SARACENS, MAGYARS)
"""The off-map places emissaries go to (by these names in actions)."""
DECKS = ("military", "political")
"""The two initiative decks."""

_frozen = dataclasses.dataclass(frozen=True)


# -- set-up ---------------------------------------------------------------------------------
@_frozen
class ChooseCastle(Action):
    """Set-up decision: take this grey castle as the main castle."""

    castle: str

    def __str__(self) -> str:
        return f"choose {self.castle} as main castle"


@_frozen
class PlaceTile(Action):
    """Chance (advanced rules): the castle tile ``tile`` lands on the castle ``castle``."""

    castle: str
    tile: str

    def __str__(self) -> str:
        return f"tile {self.tile} on {self.castle}"


@_frozen
class DealLoyalty(Action):
    """Chance: the next player is dealt this loyalty card (``crown:<colour>`` or ``self``)."""

    card: str

    def __str__(self) -> str:
        return f"deal loyalty card {self.card}"


@_frozen
class Draw(Action):
    """Chance: this initiative card is drawn from its deck."""

    card: str

    def __str__(self) -> str:
        return f"draw {self.card}"


@_frozen
class Keep(Action):
    """Decision after looking at several cards: keep this one (the rest go back)."""

    card: str

    def __str__(self) -> str:
        return f"keep {self.card}"


# -- dice ---------------------------------------------------------------------------------------
@_frozen
class Roll(Action):
    """Chance: the die shows ``value``."""

    value: int

    def __str__(self) -> str:
        return f"roll {self.value}"


@_frozen
class Reroll(Action):
    """Spend an experience shield and roll the same die again (not an action of the turn)."""

    def __str__(self) -> str:
        return "spend a shield and reroll"


@_frozen
class AcceptRoll(Action):
    """Keep the roll as it is."""

    def __str__(self) -> str:
        return "accept the roll"


# -- the actions of a turn ---------------------------------------------------------------------
@_frozen
class Move(Action):
    """Move ``count`` pawns of the army in ``frm`` one road to ``to`` (all or a split)."""

    frm: str
    to: str
    count: int

    def __str__(self) -> str:
        return f"move {self.count} {_armies(self.count)} {self.frm} -> {self.to}"


@_frozen
class Recruit(Action):
    """Take the troops out of an own castle into its city."""

    castle: str

    def __str__(self) -> str:
        return f"recruit at {self.castle}"


@_frozen
class AttackArmy(Action):
    """Attack ``defender``'s army in ``city``; the battle is fought to the end."""

    city: str
    defender: int

    def __str__(self) -> str:
        return f"attack player {self.defender}'s army in {self.city}"


@_frozen
class AttackCastle(Action):
    """Attack a castle with the own army at its gate."""

    castle: str

    def __str__(self) -> str:
        return f"attack castle {self.castle}"


@_frozen
class SendEmissary(Action):
    """Place an emissary in a neutral castle, in Rome, with the Saracens or the Magyars."""

    to: str

    def __str__(self) -> str:
        return f"send an emissary to {self.to}"


@_frozen
class RequestSupport(Action):
    """Roll for a castle's support with an emissary placed there on an earlier turn."""

    castle: str

    def __str__(self) -> str:
        return f"request support of {self.castle}"


@_frozen
class RequestAlliance(Action):
    """Place an emissary in the Alliance Zone on ``target``'s banner."""

    target: int

    def __str__(self) -> str:
        return f"request an alliance with player {self.target}"


@_frozen
class AcceptAlliance(Action):
    """Accept the alliance ``requester`` offered."""

    requester: int

    def __str__(self) -> str:
        return f"accept the alliance of player {self.requester}"


@_frozen
class Retrieve(Action):
    """Bring an emissary back to hand from a castle, Rome, a barbarian people, or the
    Alliance Zone (``frm="Alliance Zone"``, ``target`` the player it was offered to)."""

    frm: str
    target: int | None = None

    def __str__(self) -> str:
        if self.target is not None:
            return f"retrieve the alliance emissary offered to player {self.target}"
        return f"retrieve an emissary from {self.frm}"


@_frozen
class TakeHostage(Action):
    """Take ``owner``'s emissary in an own castle as a hostage."""

    castle: str
    owner: int

    def __str__(self) -> str:
        return f"take player {self.owner}'s emissary in {self.castle} hostage"


@_frozen
class ReturnHostage(Action):
    """Give a hostage back to ``owner`` (free: not an action of the turn)."""

    owner: int

    def __str__(self) -> str:
        return f"give player {self.owner}'s emissary back"


@_frozen
class TakeCard(Action):
    """Take the top card of the ``"military"`` or ``"political"`` deck."""

    deck: str

    def __str__(self) -> str:
        return f"take a {self.deck} card"


@_frozen
class DrawCards(Action):
    """Spend experience shields to look at several cards of a deck and keep one."""

    deck: str

    def __str__(self) -> str:
        return f"spend shields to draw {self.deck} cards and keep one"


@_frozen
class DiscardCard(Action):
    """Discard a card from hand."""

    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


# -- initiative cards -------------------------------------------------------------------------
@_frozen
class PlayGoodFortune(Action):
    """Good fortune: roll the green die against ``castle``, by ``"army"`` or ``"emissary"``."""

    castle: str
    means: str

    def __str__(self) -> str:
        return f"play Good fortune on {self.castle} ({self.means})"


@_frozen
class PlayCavalryCharge(Action):
    """Cavalry charge: attack ``defender``'s army in ``city`` rolling the yellow die."""

    city: str
    defender: int

    def __str__(self) -> str:
        return f"play Cavalry charge against player {self.defender} in {self.city}"


@_frozen
class PlayForcedMarch(Action):
    """Forced march: move a small army up to 3 roads or a medium one up to 2."""

    frm: str
    to: str
    count: int

    def __str__(self) -> str:
        return f"play Forced march: {self.count} {_armies(self.count)} {self.frm} -> {self.to}"


@_frozen
class PlayResistance(Action):
    """Resistance: remove a pawn of ``enemy``'s army at the gate of the own ``castle``."""

    castle: str
    enemy: int

    def __str__(self) -> str:
        return f"play Resistance at {self.castle} against player {self.enemy}"


@_frozen
class PlayLoyalVassal(Action):
    """Loyal vassal: recruit a medium army from an own castle of the card's shield."""

    card: str
    castle: str

    def __str__(self) -> str:
        return f"play Loyal vassal ({self.card}) at {self.castle}"


@_frozen
class PlayBishop(Action):
    """Support of the Bishop (the card names its two shields)."""

    card: str

    def __str__(self) -> str:
        return f"play Support of the Bishop ({self.card})"


@_frozen
class PlayPope(Action):
    """Support of the Pope: most emissaries in Rome rise."""

    def __str__(self) -> str:
        return "play Support of the Pope"


@_frozen
class PlayKingIsDead(Action):
    """The King is dead: the highest legitimacy rises."""

    def __str__(self) -> str:
        return "play The King is dead"


@_frozen
class PlaySpy(Action):
    """Spy: look at all of ``target``'s initiative cards; :class:`SpyDiscard` then chooses the
    one to discard."""

    target: int

    def __str__(self) -> str:
        return f"play Spy on player {self.target}"


@_frozen
class SpyDiscard(Action):
    """After Spy: discard ``card`` from the hand being looked at."""

    card: str

    def __str__(self) -> str:
        return f"discard {self.card} from the spied hand"


@_frozen
class PlayInvasion(Action):
    """Magyar or Saracen invasion (``card`` is ``magyar_invasion`` or ``saracen_invasion``)."""

    card: str

    def __str__(self) -> str:
        people = "Magyar" if self.card.startswith("magyar") else "Saracen"
        return f"play {people} invasion"


@_frozen
class PlaySecretPact(Action):
    """Secret pact (the card names three shields)."""

    card: str

    def __str__(self) -> str:
        return f"play Secret pact ({self.card})"


@_frozen
class PlayHostage(Action):
    """Hostage: replace ``owner``'s emissary at ``place`` by an own one; keep it hostage."""

    owner: int
    place: str

    def __str__(self) -> str:
        return f"play Hostage on player {self.owner}'s emissary in {self.place}"


def _armies(n: int) -> str:
    return "army" if n == 1 else "armies"


CARD_ACTIONS: dict[type, str] = {
    PlayGoodFortune: "good_fortune",
    PlayCavalryCharge: "cavalry_charge",
    PlayForcedMarch: "forced_march",
    PlayResistance: "resistance",
    PlayLoyalVassal: "loyal_vassal",
    PlayBishop: "bishop",
    PlayPope: "pope",
    PlayKingIsDead: "king_is_dead",
    PlaySpy: "spy",
    PlayInvasion: "invasion",
    PlaySecretPact: "secret_pact",
    PlayHostage: "hostage",
}
"""Each card-playing action type and the kind of card it plays."""

ACTION_TYPES: tuple[type, ...] = (
    ChooseCastle,
    PlaceTile,
    DealLoyalty,
    Draw,
    Keep,
    Roll,
    Reroll,
    AcceptRoll,
    Move,
    Recruit,
    AttackArmy,
    AttackCastle,
    SendEmissary,
    RequestSupport,
    RequestAlliance,
    AcceptAlliance,
    Retrieve,
    TakeHostage,
    ReturnHostage,
    TakeCard,
    DrawCards,
    DiscardCard,
    SpyDiscard,
    *CARD_ACTIONS,
)
"""Every action and chance outcome type, for reading saved games."""
