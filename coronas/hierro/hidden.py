"""What one seat cannot see, drawn again: the determinisations a search plays on.

:func:`resample` is Corona de Hierro's :meth:`State.resample <coronas.engine.State.resample>`
(information-set search, :mod:`coronas.engine.mcts`). The secrets are the other players'
loyalty cards, their initiative cards (in hand, or looked at while choosing one to keep) and
which cards are still in each deck; a deck is kept as counts, so its order is always random
and never a secret of its own.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from coronas.hierro.rules import MILITARY_KINDS, card_kind

if TYPE_CHECKING:
    from coronas.hierro.state import HierroState

__all__ = ["deck_of", "resample"]


def deck_of(card: str) -> str:
    """The deck an initiative card belongs to: ``"military"`` or ``"political"``."""
    return "military" if card_kind(card) in MILITARY_KINDS else "political"


def resample(state: HierroState, player: int, rng: random.Random) -> HierroState:
    """A position equal to ``state`` in all that ``player`` has seen, its secrets drawn anew.

    Kept: the whole board and every count (cards in each hand, in each deck, looked at), the
    discards, ``player``'s own loyalty card, hand and looked-at cards, the hand ``player`` is
    looking at with Spy (step ``"spy"``), and every loyalty card once the game is over. Drawn:
    the other players' loyalty cards, shuffled with the cards not dealt yet; and for each deck,
    the cards ``player`` cannot see of that deck (in the deck, in the other hands and looked-at
    piles) dealt at random into the same places, each place keeping how many cards of that deck
    it holds. Every arrangement of those cards is equally likely, so a hand gets a card with
    the chance the seat would give it from what it sees.

    The kind of a hidden card (military or political) stays in its place: every draw names its
    deck and every card played or discarded is shown, so in the basic game the number of each
    kind in a hand is public. After the advanced game's opening draft it is not (the cards
    kept are chosen unseen), and the draw keeps the kinds of the real hands there. Cards seen
    with Spy are kept while they are on view (step ``"spy"``), not remembered afterwards.

    The result starts at this position: its history is empty and undo goes back to it, no
    further (a determinisation is for play from here, not to be saved as the game).
    """
    t = state._copy_position()
    n = t.num_players
    spied = t.spied if t.step == "spy" and t.player == player else None
    others = [q for q in range(n) if q != player and q != spied]
    # Every pool is sorted before it is shuffled, so that two positions alike to ``player``
    # give the same draws for the same rng.
    if t.step != "over":
        dealt = [q for q in range(n) if q != player and t.loyalty[q] is not None]
        pool = sorted([t.loyalty[q] for q in dealt] + t._loyalty_left())
        rng.shuffle(pool)
        for q, card in zip(dealt, pool, strict=False):
            t.loyalty[q] = card
    piles = {(name, q): getattr(t, name)[q] for q in others for name in ("hands", "looking")}
    drawn: dict[tuple[str, int], list[str]] = {where: [] for where in piles}
    for deck_name, deck in t.decks.items():
        places = [
            (where, sum(deck_of(c) == deck_name for c in cards)) for where, cards in piles.items()
        ]
        pool = [c for cards in piles.values() for c in cards if deck_of(c) == deck_name]
        pool += Counter(deck).elements()
        pool.sort()
        rng.shuffle(pool)
        i = 0
        for where, k in places:
            drawn[where] += pool[i : i + k]
            i += k
        for card in list(deck):
            del deck[card]
        for card, k in sorted(Counter(pool[i:]).items()):
            deck[card] = k
    for (name, q), cards in drawn.items():
        getattr(t, name)[q] = tuple(sorted(cards))
    return t
