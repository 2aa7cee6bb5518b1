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

from coronas.hierro.actions import SpyDiscard
from coronas.hierro.rules import MILITARY_KINDS, card_kind

if TYPE_CHECKING:
    from coronas.hierro.state import HierroState

__all__ = ["deck_of", "resample", "seen_by_spy"]


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
    kept are chosen unseen), and the draw keeps the kinds of the real hands there. A hand
    ``player`` has looked at with Spy keeps, for good, the cards seen there that it has not
    given up since (:func:`seen_by_spy`); the rest of it is drawn.

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
    known = _seen_by_spy_memo(state, player)
    piles = {(name, q): getattr(t, name)[q] for q in others for name in ("hands", "looking")}
    drawn: dict[tuple[str, int], list[str]] = {where: [] for where in piles}
    fixed: dict[tuple[str, int], Counter] = {("hands", q): k for q, k in known.items()}
    for deck_name, deck in t.decks.items():
        places = []
        pool = list(Counter(deck).elements())
        for where, cards in piles.items():
            mine = Counter(c for c in cards if deck_of(c) == deck_name)
            sure = Counter(
                {c: k for c, k in fixed.get(where, {}).items() if deck_of(c) == deck_name}
            )
            drawn[where] += sure.elements()
            free = mine - sure
            pool += free.elements()
            places.append((where, free.total()))
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


_last_walk: list[tuple] = []
"""The last :func:`seen_by_spy` answer, with its state, seat and history: a search resamples
one position thousands of times, and the walk back through its history costs a playout."""


def _seen_by_spy_memo(state: HierroState, player: int) -> dict[int, Counter]:
    if _last_walk:
        ref, seat, history, known = _last_walk[0]
        if ref is state and seat == player and history == state.history:
            return known
    known = seen_by_spy(state, player)
    _last_walk[:] = [(state, player, list(state.history), known)]
    return known


def seen_by_spy(state: HierroState, player: int) -> dict[int, Counter]:
    """The cards ``player`` knows to be in another player's hand: those it saw there with
    Spy, less every card that hand has given up since (played or discarded, in the open);
    by player. A card that left a hand may have been the one seen or one drawn since: the
    seat cannot tell, so only what remains for certain is known."""
    history = state.history
    first = next((i for i, a in enumerate(history) if type(a) is SpyDiscard), None)
    if first is None:
        return {}
    n = state.num_players
    walk = state.clone()
    removed = [Counter() for _ in range(n)]
    known: dict[int, Counter] = {}
    while len(walk.history) > first:
        after = list(walk.hands)
        action = walk.undo()
        for q in range(n):
            removed[q] += Counter(walk.hands[q]) - Counter(after[q])
        if type(action) is SpyDiscard and walk.player == player:
            q = walk.spied
            sure = Counter(walk.hands[q]) - removed[q]
            known[q] = known.get(q, Counter()) | sure
    return {q: k for q, k in known.items() if k}
