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
from typing import TYPE_CHECKING, NamedTuple

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
    plan = _plan(state, player)
    t = state._copy_position()
    if plan.loyalty is not None:
        dealt, pool = plan.loyalty
        pool = pool.copy()
        rng.shuffle(pool)
        for q, card in zip(dealt, pool, strict=False):
            t.loyalty[q] = card
    drawn: dict[tuple[str, int], list[str]] = {where: list(s) for where, s in plan.sure.items()}
    for deck_name, sorted_pool, places in plan.decks:
        pool = sorted_pool.copy()
        rng.shuffle(pool)
        i = 0
        for where, k in places:
            drawn[where] += pool[i : i + k]
            i += k
        deck = t.decks[deck_name]
        for card in list(deck):
            del deck[card]
        for card, k in sorted(Counter(pool[i:]).items()):
            deck[card] = k
    for (name, q), cards in drawn.items():
        getattr(t, name)[q] = tuple(sorted(cards))
    return t


class _Plan(NamedTuple):
    """What every resample of one position from one seat's view shares: the seats whose
    loyalty card is drawn and the cards they are drawn from (None once the game is over), the
    cards sure to be in each hidden pile (seen by Spy), and for each deck the cards drawn from
    it, sorted, with how many each hidden pile receives."""

    loyalty: tuple[list[int], list[str]] | None
    sure: dict[tuple[str, int], list[str]]
    decks: list[tuple[str, list[str], list[tuple[tuple[str, int], int]]]]


_last_plan: list[tuple] = []
"""The last :func:`_plan`, with the state, seat and facts it was made from: a search
resamples one position thousands of times."""


def _plan(state: HierroState, player: int) -> _Plan:
    known = _seen_by_spy_memo(state, player)
    facts = (
        player,
        state.step,
        state.player,
        state.spied,
        tuple(state.loyalty),
        tuple(state.hands),
        tuple(state.looking),
        tuple(tuple(sorted(deck.items())) for deck in state.decks.values()),
    )
    if _last_plan:
        ref, ref_known, ref_facts, plan = _last_plan[0]
        if ref is state and ref_known is known and ref_facts == facts:
            return plan
    n = state.num_players
    spied = state.spied if state.step == "spy" and state.player == player else None
    others = [q for q in range(n) if q != player and q != spied]
    # Every pool is sorted before it is shuffled, so that two positions alike to ``player``
    # give the same draws for the same rng.
    loyalty = None
    if state.step != "over":
        dealt = [q for q in range(n) if q != player and state.loyalty[q] is not None]
        loyalty = (dealt, sorted([state.loyalty[q] for q in dealt] + state._loyalty_left()))
    piles = {(name, q): getattr(state, name)[q] for q in others for name in ("hands", "looking")}
    fixed: dict[tuple[str, int], Counter] = {("hands", q): k for q, k in known.items()}
    sure: dict[tuple[str, int], list[str]] = {where: [] for where in piles}
    decks = []
    for deck_name, deck in state.decks.items():
        places = []
        pool = list(Counter(deck).elements())
        for where, cards in piles.items():
            mine = Counter(c for c in cards if deck_of(c) == deck_name)
            held = Counter(
                {c: k for c, k in fixed.get(where, {}).items() if deck_of(c) == deck_name}
            )
            sure[where] += held.elements()
            free = mine - held
            pool += free.elements()
            places.append((where, free.total()))
        pool.sort()
        decks.append((deck_name, pool, places))
    plan = _Plan(loyalty, sure, decks)
    _last_plan[:] = [(state, known, facts, plan)]
    return plan


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
