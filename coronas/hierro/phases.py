"""The steps around the turns of Corona de Hierro: the set-up, card draws, the end and the score.

:class:`GamePhases` is a part of :class:`~coronas.hierro.state.HierroState`. It holds the
set-up (main castles in seat order, castle tiles, loyalty cards, the first deal or the draft),
drawing and keeping cards (H12: never more than a deck holds), what ends the game and how it
is scored (the winner and its tie-breaks).
"""

from __future__ import annotations

from collections import Counter

from coronas.hierro.actions import ChooseCastle
from coronas.hierro.rules import MILITARY_KINDS, card_kind

__all__ = ["GamePhases"]


class GamePhases:
    """Set-up, card draws, the end of the game and its scoring (a part of ``HierroState``)."""

    # -- set-up steps ------------------------------------------------------------------------------
    def _reason_choose(self, a: ChooseCastle) -> str | None:
        info = self.info
        if a.castle not in info.castle_set or info.kind[a.castle] != "start":
            return f"{a.castle} is not a grey starting castle"
        if a.castle in info.five_only and self.num_players < 5:
            return f"{a.castle} may only be chosen in a 5-player game"
        if a.castle in self.owner:
            return f"{a.castle} was already chosen by {self.colour(self.owner[a.castle])}"
        return None

    def _on_choose(self, castle: str) -> None:
        p = self.seat
        self.owner[castle] = p
        self.troops[castle] = True
        self.banners[p] -= 1
        self._add_pawns(castle, p, 1)
        self.seat += 1
        if self.seat < self.num_players:
            return
        self.seat = 0
        if self.rules.advanced and self.info.neutral:
            self.step = "tile"
        else:
            self._begin_loyalty()

    def _tiles_left(self) -> list[str]:
        used = set(self.tiles.values())
        return [t for t in self.info.neutral if t not in used]

    def _loyalty_left(self) -> list[str]:
        dealt = Counter(c for c in self.loyalty if c is not None)
        left = Counter(self.rules.loyalty_cards(self.num_players)) - dealt
        return sorted(left.elements())

    def _begin_loyalty(self) -> None:
        self.step = "loyalty"

    def _begin_deal(self) -> None:
        n = self.num_players
        r = self.rules
        if r.advanced:
            queue = []
            for p in range(n):
                queue += [(p, "political")] * r.draft_draw + [(p, "military")] * r.draft_draw
            self._start_draws(tuple(queue), "looking", "draft")
        else:
            queue = [(p, "political") for p in range(n)] + [(p, "military") for p in range(n)]
            self._start_draws(tuple(queue), "hand", "start")

    def _start_play(self) -> None:
        self.step = "play"
        self.turn = 0
        self.player = 0
        self.left = self.rules.actions_per_turn

    # -- drawing cards -----------------------------------------------------------------------------
    def _start_draws(self, queue: tuple[tuple[int, str], ...], into: str, after: str) -> None:
        # Never draw more than the deck holds (H12).
        counts = Counter(d for _, d in queue)
        for deck, k in counts.items():
            have = sum(self.decks[deck].values())
            if k > have:
                drop = k - have
                kept = []
                for item in reversed(queue):
                    if item[1] == deck and drop:
                        drop -= 1
                        continue
                    kept.append(item)
                queue = tuple(reversed(kept))
        self.queue = queue
        self.into = into
        self.after = after
        if queue:
            self.step = "draw"
        else:
            self._after_draws()

    def _on_draw(self, card: str) -> None:
        (p, deck), self.queue = self.queue[0], self.queue[1:]
        pile = self.decks[deck]
        pile[card] -= 1
        if not pile[card]:
            del pile[card]
            if not pile and self.step == "draw" and self.after not in ("start", "draft"):
                self.exhausted = True
        if self.into == "hand":
            self.hands[p] = tuple(sorted((*self.hands[p], card)))
        else:
            self._look(p, tuple(sorted((*self.looking[p], card))))
        if not self.queue:
            self._after_draws()

    def _after_draws(self) -> None:
        after = self.after
        if after == "start":
            self._start_play()
        elif after == "draft":
            self.step = "keep"
            self.keeper = 0
            self.keep_left = min(self.rules.draft_keep, len(self.looking[0]))
            self._skip_empty_keeps()
        elif after == "keep":
            self.step = "keep"
            self.keeper = self.player
            self.keep_left = min(1, len(self.looking[self.player]))
            self._skip_empty_keeps()
        else:  # a card taken with an action
            self._finish_action()

    def _skip_empty_keeps(self) -> None:
        while self.step == "keep" and self.keep_left == 0:
            self._next_keeper()

    def _look(self, p: int, cards: tuple[str, ...]) -> None:
        self.looking[p] = cards

    def _on_keep(self, card: str) -> None:
        p = self.keeper
        look = list(self.looking[p])
        look.remove(card)
        self._look(p, tuple(look))
        self.hands[p] = tuple(sorted((*self.hands[p], card)))
        self.keep_left -= 1
        if self.keep_left == 0:
            self._next_keeper()
            self._skip_empty_keeps()

    def _next_keeper(self) -> None:
        if self.after == "draft" and self.keeper + 1 < self.num_players:
            self.keeper += 1
            self.keep_left = min(self.rules.draft_keep, len(self.looking[self.keeper]))
            return
        # Everyone has chosen: the rest go back to their decks (which are then shuffled:
        # a deck is held as counts, so its order is always random).
        for p in range(self.num_players):
            if not self.looking[p]:
                continue
            for card in self.looking[p]:
                deck = self.decks["military" if card_kind(card) in MILITARY_KINDS else "political"]
                deck[card] = deck.get(card, 0) + 1
            self._look(p, ())
        if self.after == "draft":
            self._start_play()
        else:
            self._finish_action()

    # -- the end of an action, the turn order and the end of the game ------------------------------
    def _game_over(self) -> str:
        if max(self.legit) >= self.game.rules.crown:
            return "a player reached the crown"
        if self.exhausted:
            return "the last card of a deck was drawn"
        if self.castle_lost:
            return "a player lost its last castle"
        return ""

    def _finish_action(self) -> None:
        self.fight = None
        reason = self._game_over()
        if reason:
            self.end_reason = reason
            self.step = "over"
            return
        self.step = "play"
        self.left -= 1
        if self.left <= 0:
            self.turn += 1
            self.player = self.turn % self.game.num_players
            self.left = self.game.rules.actions_per_turn

    # -- scoring -----------------------------------------------------------------------------------
    def scores(self) -> list[dict[str, int]]:
        """Each player's score by category: ``loyalty``, ``castles``, ``legitimacy``,
        ``emissaries``, ``cards`` and ``total``. Works at any time (the score if the game
        ended now); ``returns()`` gives the totals once the game is over."""
        r = self.rules
        kings = set(self.kings())
        # H14: who scores as "crowned King": whoever reached the crown or ended alone highest;
        # kings tied at the end score the area they are in (and, with king_scores_band, all do).
        crowned = set() if r.king_scores_band or len(kings) > 1 else kings
        out = []
        for p in range(self.num_players):
            card = self.loyalty[p]
            loyalty = 0
            if card == "self":
                loyalty = r.self_declaration_vp if p in kings else 0
            elif card is not None:
                colour = card.split(":", 1)[1]
                if colour in r.colours and r.colours.index(colour) in kings:
                    loyalty = r.loyalty_vp
            by_shield = Counter(self.shield_of(c) for c in self.castles_of(p))
            by_shield.pop(None, None)
            castles = sum(r.castles_vp(k) for k in by_shield.values())
            legitimacy = r.band_vp[r.band(self.legit[p])]
            if p in crowned:
                legitimacy = max(legitimacy, r.band_vp["green"])
            free = not any(o == p and h != p for h, o in self.hostages)
            emissaries = r.free_emissaries_vp if free else 0
            row = {
                "loyalty": loyalty,
                "castles": castles,
                "legitimacy": legitimacy,
                "emissaries": emissaries,
                "cards": self.vp[p],
            }
            row["total"] = sum(row.values())
            out.append(row)
        return out

    def public_scores(self) -> list[dict[str, int]]:
        """:meth:`scores` as every player may see them before the end: without the loyalty
        points, which come from the secret loyalty cards (``loyalty`` 0, ``total`` without
        it); at the end the loyalty cards are shown and :meth:`scores` is public."""
        return [
            {**row, "loyalty": 0, "total": row["total"] - row["loyalty"]} for row in self.scores()
        ]

    def _returns(self) -> list[int]:
        return [s["total"] for s in self.scores()]

    def winners(self) -> list[int]:
        """The winner(s): most VP, then higher legitimacy, then more castles; else shared."""
        totals = self.returns()

        def key(p: int) -> tuple[int, int, int]:
            return (totals[p], self.legit[p], len(self.castles_of(p)))

        best = max(key(p) for p in range(self.num_players))
        return [p for p in range(self.num_players) if key(p) == best]
