"""What one seat cannot see, drawn again: the determinisations a search plays on.

:func:`resample` is Corona de Hierro's :meth:`State.resample <coronas.engine.State.resample>`
(information-set search, :mod:`coronas.engine.mcts`). The secrets are the other players'
loyalty cards, their initiative cards (in hand, or looked at while choosing one to keep),
which cards are still in each deck (a deck is kept as counts, so its order is always random
and never a secret of its own) and, in the advanced game, how many cards of each deck the
other hands hold (:func:`mix_bounds`).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from math import comb
from typing import TYPE_CHECKING, NamedTuple

from coronas.hierro.actions import CARD_ACTIONS, DiscardCard, Draw, Keep, SpyDiscard
from coronas.hierro.legality import played_card
from coronas.hierro.rules import MILITARY_KINDS, card_kind

if TYPE_CHECKING:
    from coronas.hierro.state import HierroState

__all__ = ["deck_of", "mix_bounds", "resample", "seen_by_spy"]


def deck_of(card: str) -> str:
    """The deck an initiative card belongs to: ``"military"`` or ``"political"``."""
    return "military" if card_kind(card) in MILITARY_KINDS else "political"


def resample(state: HierroState, player: int, rng: random.Random) -> HierroState:
    """A position equal to ``state`` in all that ``player`` has seen, its secrets drawn anew.

    Kept: the whole board and every count (cards in each hand, in each deck, looked at), the
    discards, ``player``'s own loyalty card, hand and looked-at cards, the hand ``player`` is
    looking at with Spy (step ``"spy"``), and every loyalty card once the game is over. Drawn:
    the other players' loyalty cards, shuffled with the cards not dealt yet; and the cards
    ``player`` cannot see (in the decks, the other hands and looked-at piles), dealt at random
    into the same places, each place keeping its size and each deck its size. Every
    arrangement of those cards that agrees with what ``player`` has seen is equally likely,
    so a hand gets a card with the chance the seat would give it from what it sees.

    How many cards of each deck a hidden pile holds is kept where ``player`` knows it and
    drawn where it does not (:func:`mix_bounds`). In the basic game every card comes from a
    named deck and leaves in the open, so each hand's mix is public and kept. In the advanced
    game the two cards each player keeps in the opening draft are chosen unseen: the number
    of military cards each other hand holds is drawn, among the numbers its history allows,
    with the chance of the arrangements that give it (see :func:`_mix_choices`). A hand
    ``player`` has looked at with Spy keeps, for good, the cards seen there that it has not
    given up since (:func:`seen_by_spy`); the rest of it is drawn.

    The result starts at this position: its history is empty and undo goes back to it, no
    further (a determinisation is for play from here, not to be saved as the game).
    """
    plan = _plan(state, player)
    t = state.copy_position()
    if plan.loyalty is not None:
        dealt, pool = plan.loyalty
        pool = pool.copy()
        rng.shuffle(pool)
        for q, card in zip(dealt, pool, strict=False):
            t.loyalty[q] = card
    # One choice needs no draw: the basic game draws exactly what it drew before the mix
    # could be secret.
    if len(plan.mixes) == 1:
        military = plan.mixes[0][0]
    else:
        pick = rng.randrange(plan.mixes[-1][1])
        military = next(m for m, upto in plan.mixes if pick < upto)
    sizes = dict(zip(plan.places, plan.sizes, strict=True))
    drawn: dict[tuple[str, int], list[str]] = {where: list(s) for where, s in plan.sure.items()}
    for deck_name, sorted_pool in plan.decks:
        pool = sorted_pool.copy()
        rng.shuffle(pool)
        i = 0
        for where, m in zip(plan.places, military, strict=True):
            k = m if deck_name == "military" else sizes[where] - m
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
    loyalty card is drawn and the cards they are drawn from (None once the game is over); the
    cards sure to be in each hidden pile (seen by Spy); the hidden piles (``places``) with how
    many cards each draws (``sizes``, less the sure ones); the ways to split those between the
    decks (``mixes``: the military cards each place draws, with the running total of the
    weights); and each deck's cards to draw, sorted."""

    loyalty: tuple[list[int], list[str]] | None
    sure: dict[tuple[str, int], list[str]]
    places: list[tuple[str, int]]
    sizes: list[int]
    mixes: list[tuple[tuple[int, ...], int]]
    decks: list[tuple[str, list[str]]]


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
    # Every pool is sorted before it is shuffled, so that two positions alike to ``player``
    # give the same draws for the same rng.
    loyalty = None
    if state.step != "over":
        dealt = [q for q in range(n) if q != player and state.loyalty[q] is not None]
        loyalty = (dealt, sorted([state.loyalty[q] for q in dealt] + state._loyalty_left()))
    piles = {
        (name, q): getattr(state, name)[q]
        for q in _others(state, player)
        for name in ("hands", "looking")
    }
    sure: dict[tuple[str, int], list[str]] = {}
    pools: dict[str, list[str]] = {
        name: list(Counter(deck).elements()) for name, deck in state.decks.items()
    }
    sizes = []
    for where, cards in piles.items():
        held = known.get(where[1], Counter()) if where[0] == "hands" else Counter()
        sure[where] = sorted(held.elements())
        free = Counter(cards) - held
        for card in free.elements():
            pools[deck_of(card)].append(card)
        sizes.append(free.total())
    mixes = _mix_choices(state, player, piles, sure)
    decks = [(name, sorted(pool)) for name, pool in pools.items()]
    plan = _Plan(loyalty, sure, list(piles), sizes, mixes, decks)
    _last_plan[:] = [(state, known, facts, plan)]
    return plan


def _others(state: HierroState, player: int) -> list[int]:
    """The seats whose cards ``player`` cannot see (not the hand it looks at with Spy)."""
    spied = state.spied if state.step == "spy" and state.player == player else None
    return [q for q in range(state.num_players) if q != player and q != spied]


def _mix_choices(
    state: HierroState,
    player: int,
    piles: dict[tuple[str, int], tuple[str, ...]],
    sure: dict[tuple[str, int], list[str]],
) -> list[tuple[tuple[int, ...], int]]:
    """The ways the hidden piles may split between the decks, weighted: for each, the
    military cards each pile draws (the sure cards apart) and the running total of weights.

    A way's weight is the number of arrangements of the unseen cards that give it: with
    ``h`` cards to draw into a pile and ``m`` of them military, ``comb(h, m)`` (which of the
    pile's places hold military cards; the cards themselves are then dealt alike in every
    way). The military cards drawn into all the piles together are fixed, since each deck's
    size is public. In the basic game there is one way, the true one."""
    bounds = _mix_facts(state, player)
    places = list(piles)
    sure_m = [sum(deck_of(c) == "military" for c in sure[w]) for w in places]
    sizes = [len(piles[w]) - len(sure[w]) for w in places]
    truth = [
        sum(deck_of(c) == "military" for c in piles[w]) - sm
        for w, sm in zip(places, sure_m, strict=True)
    ]
    options: list[list[tuple[int, int]]] = []  # per seat: (military in hand, in looking)
    for q in sorted({w[1] for w in places}):
        ih, il = places.index(("hands", q)), places.index(("looking", q))
        fact = bounds.get(q)
        if fact is None:  # its mix is known
            options.append([(truth[ih], truth[il])])
            continue
        lo, hi, offset, look_military = fact
        row = []
        for free in range(lo, hi + 1):
            hand = free + offset - sure_m[ih]
            look = truth[il] if look_military is None else look_military - free
            if 0 <= hand <= sizes[ih] and 0 <= look <= sizes[il]:
                row.append((hand, look))
        options.append(row or [(truth[ih], truth[il])])
    total = sum(truth)
    out: list[tuple[tuple[int, ...], int]] = []
    upto = 0
    for combo in itertools.product(*options):
        military = tuple(m for pair in combo for m in pair)
        if sum(military) != total:
            continue
        weight = 1
        for m, h in zip(military, sizes, strict=True):
            weight *= comb(h, m)
        upto += weight
        out.append((military, upto))
    return out


def mix_bounds(state: HierroState, player: int) -> dict[int, tuple[int, int]]:
    """The fewest and the most military cards each other hand can hold, from what
    ``player`` has seen: by seat, for the seats whose cards ``player`` cannot see.

    In the basic game both are the true number: every card is dealt or taken from a named
    deck and every card that leaves a hand is shown. In the advanced game (ruling H15) each
    player keeps 2 of the 4 political and 4 military cards it looks at, unseen, and the rest
    go back together, so the table sees only how many of each deck all the players kept
    together (the decks' sizes). A hand's military cards are then its draft cards' plus those
    taken since from the military deck, less the military cards it has played or discarded;
    every card it played had to be in it, which bounds what its draft cards may have been
    (two military cards played before any was taken: both draft cards were military). Spy
    shows its player the whole hand, and so the mix for good. A position set up by hand in
    the advanced game counts its hands' cards as unseen draft cards."""
    facts = _mix_facts(state, player)
    out = {}
    for q in _others(state, player):
        fact = facts.get(q)
        if fact is None:
            m = sum(deck_of(c) == "military" for c in state.hands[q])
            out[q] = (m, m)
        else:
            lo, hi, offset, _look = fact
            out[q] = (max(lo + offset, 0), min(hi + offset, len(state.hands[q])))
    return out


class _Seat:
    """One seat's hand as ``player`` knows it, followed through the history: ``free`` cards
    of unseen deck, ``military`` of which lie in [lo, hi]; ``known`` the net count of cards
    of each deck taken in (+1) or shown leaving (-1) since; ``look`` the cards of each deck
    drawn into the pile it looks at, ``kept`` how many unseen ones it took from it."""

    def __init__(self, free: int, known: Counter, look: Counter):
        self.free, self.lo, self.hi = free, 0, free
        self.known = known
        self.look = look
        self.kept = 0

    def fits(self) -> None:
        """A hand never holds fewer than no cards of a deck."""
        self.lo = max(self.lo, -self.known["military"])
        self.hi = min(self.hi, self.free + self.known["political"])


_last_mix: list[tuple] = []
"""The last :func:`_mix_facts` answer, with its state, seat and history."""


def _mix_facts(state: HierroState, player: int) -> dict[int, tuple[int, int, int, int | None]]:
    """For each other seat whose hand's mix ``player`` does not know (advanced game only):
    (lo, hi) for the military cards among its unseen draft cards, the known change since
    (military taken less military shown leaving), and the military cards in the pile it
    looks at (the draft's pile while it is still open: those drawn less the unseen kept
    ones; None when that pile's mix is known). Only public facts are read: which deck each
    draw came from, which cards were played or discarded, the sizes of piles, and the hand
    ``player`` itself saw with Spy."""
    if not state.rules.advanced:
        return {}
    if _last_mix:
        ref, seat, history, facts = _last_mix[0]
        if ref is state and seat == player and history == state.history:
            return facts
    n = state.num_players
    walk = state.clone()
    steps = []
    while walk.history:
        action = walk.undo()
        seen = None
        if walk.step == "spy" and walk.player == player:
            seen = sum(deck_of(c) == "military" for c in walk.hands[walk.spied])
        steps.append(
            (
                action,
                walk.step,
                walk.player,
                walk.queue[:1],
                walk.into,
                walk.keeper,
                walk.spied,
                tuple(len(c) for c in walk.looking),
                seen,
            )
        )
    seats = []
    for q in range(n):
        look = Counter(deck_of(c) for c in walk.looking[q])
        if look:  # a record that starts with cards looked at: read as it stands
            seats.append(_Seat(0, Counter(deck_of(c) for c in walk.hands[q]), look))
        else:
            seats.append(_Seat(len(walk.hands[q]), Counter(), Counter()))
    for action, step, mover, queue, into, keeper, spied, looking, seen in reversed(steps):
        for q, size in enumerate(looking):
            if not size:
                seats[q].look, seats[q].kept = Counter(), 0
        kind = type(action)
        if seen is not None:
            seat = seats[spied]
            value = seen - seat.known["military"]
            seat.lo, seat.hi = max(seat.lo, value), min(seat.hi, value)
        if kind is Draw and step == "draw":
            q, deck = queue[0]
            if into == "hand":
                seats[q].known[deck] += 1
            else:
                seats[q].look[deck] += 1
        elif kind is Keep:
            seat = seats[keeper]
            if seat.look["military"] and seat.look["political"]:
                # Kept unseen from a pile of both decks: one more card of unseen deck,
                # no more military ones than the pile had, nor political ones.
                seat.free += 1
                seat.kept += 1
                seat.hi = min(seat.hi + 1, seat.free - seat.kept + seat.look["military"])
                seat.lo = max(seat.lo, seat.kept - seat.look["political"])
            else:
                deck = "military" if seat.look["military"] else "political"
                seat.known[deck] += 1
                seat.look[deck] -= 1
        else:
            card, who = None, mover
            if kind in CARD_ACTIONS:
                card = played_card(action)
            elif kind is DiscardCard:
                card = action.card
            elif kind is SpyDiscard:
                card, who = action.card, spied
            if card is not None:
                seats[who].known[deck_of(card)] -= 1
                seats[who].fits()
    facts = {}
    for q, seat in enumerate(seats):
        if seat.free and q != player:
            look = seat.look["military"] if seat.kept and state.looking[q] else None
            facts[q] = (seat.lo, seat.hi, seat.known["military"], look)
    _last_mix[:] = [(state, player, list(state.history), facts)]
    return facts


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
