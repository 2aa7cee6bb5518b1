"""The Corona de Hierro game state: set-up, the two actions of a turn, dice, cards and scoring.

A :class:`HierroState` follows the shared protocol (:mod:`coronas.engine`): ``apply`` an action
or a chance outcome, ``legal_actions()``, ``chance_outcomes()`` with exact probabilities,
``undo()``, ``to_json()``. What happens next is held in ``state.step``:

``"choose_castle"``  set-up: the player ``seat`` chooses a grey castle (seat order)
``"tile"``           chance (advanced rules): the next castle tile is placed
``"loyalty"``        chance: the next player is dealt a loyalty card
``"draw"``           chance: the next card of a deal or a draw comes off a deck
``"keep"``           a player keeps one of the cards it looks at (draft, or 3 shields)
``"play"``           the player to move chooses an action of its turn
``"roll"``           chance: a die is rolled (battle, castle assault, emissary)
``"reroll"``         the player who rolled may spend an experience shield to roll again
``"over"``           the game has ended

Every roll is its own chance node and every reroll is a decision, so the exact odds of a
battle or an assault can be read off the game tree (:func:`coronas.engine.exact_distribution`).

Positions for analysis are built with :meth:`HierroState.from_position` (see its docstring).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING, Any

import networkx as nx

from coronas.engine import CHANCE, TERMINAL, IllegalAction, State
from coronas.hierro.actions import (
    AcceptAlliance,
    AcceptRoll,
    AttackArmy,
    AttackCastle,
    ChooseCastle,
    DealLoyalty,
    DiscardCard,
    Draw,
    DrawCards,
    Keep,
    Move,
    PlaceTile,
    PlayBishop,
    PlayCavalryCharge,
    PlayForcedMarch,
    PlayGoodFortune,
    PlayHostage,
    PlayInvasion,
    PlayKingIsDead,
    PlayLoyalVassal,
    PlayPope,
    PlayResistance,
    PlaySecretPact,
    PlaySpy,
    Recruit,
    RequestAlliance,
    RequestSupport,
    Reroll,
    Retrieve,
    ReturnHostage,
    Roll,
    SendEmissary,
    TakeCard,
    TakeHostage,
)
from coronas.hierro.rules import MILITARY_KINDS, card_kind, card_shields

if TYPE_CHECKING:
    from coronas.hierro.board import Board
    from coronas.hierro.rules import Rules

__all__ = ["BARBARIANS", "DECKS", "ROME", "ZONE", "BoardInfo", "HierroState"]

ROME = "Rome"
SARACENS = "Saracens"
MAGYARS = "Magyars"
ZONE = "Alliance Zone"
BARBARIANS = (SARACENS, MAGYARS)
DECKS = ("military", "political")

# Fields of the state that are mutable containers (copied on snapshot/restore).
# ``decks``, ``discards``, ``tiles``, ``looking`` and ``loyalty`` change rarely: they are
# replaced, never changed in place (copy on write), so snapshots share them.
_LISTS = ("legit", "vp", "shields", "pawns", "banners", "hand_em", "hands")
_DICTS = ("owner", "troops", "at_castle", "zone")


class BoardInfo:
    """The board as flat lookup tables for the rules (built once per game)."""

    def __init__(self, board: Board, pawns: int = 8):
        self.board = board
        self.cities = tuple(sorted(board.cities))
        self.adj: dict[str, tuple[str, ...]] = {c: tuple(board.neighbors(c)) for c in self.cities}
        self.castles = tuple(sorted(board.castles))
        self.kind = {c: board.castles[c].kind for c in self.castles}
        self.army_target = {c: board.castles[c].army_target for c in self.castles}
        self.emissary_target = {c: board.castles[c].emissary_target for c in self.castles}
        self.shield = {c: board.castles[c].shield for c in self.castles}
        self.five_only = frozenset(c for c in self.castles if board.castles[c].five_players_only)
        self.start = tuple(c for c in self.castles if self.kind[c] == "start")
        self.neutral = tuple(c for c in self.castles if self.kind[c] == "neutral")
        self.royal = frozenset(c for c in self.castles if self.kind[c] == "royal")
        # A castle stands in the city of the same name.
        self.castle_set = frozenset(self.castles)
        # The Move actions out of each city, by number of pawns (built once: actions are
        # immutable, and building them is most of the cost of listing legal actions).
        self.moves = {
            c: [()] + [tuple(Move(c, nb, k) for nb in self.adj[c]) for k in range(1, pawns + 1)]
            for c in self.cities
        }


class HierroState(State):
    """A position of Corona de Hierro (see the module docstring for the steps)."""

    # -- set-up ------------------------------------------------------------------------------------
    def _setup(self) -> None:
        n = self.num_players
        r = self.rules
        self.step = "choose_castle"
        self.seat = 0
        self.turn = 0
        self.player = 0
        self.left = r.actions_per_turn
        self.legit = [r.legitimacy_start] * n
        self.vp = [0] * n
        self.shields = [r.shields_start] * n
        self.supply = r.shields_total - r.shields_start * n
        if self.supply < 0:
            raise ValueError(
                f"{r.shields_total} experience shields cannot give "
                f"{r.shields_start} to each of {n} players"
            )
        self.pawns = [r.army_pawns] * n
        self.banners = [r.banners] * n
        self.hand_em = [r.emissaries] * n
        self.loyalty: list[str | None] = [None] * n
        self.hands: list[tuple[str, ...]] = [()] * n
        self.looking: list[tuple[str, ...]] = [()] * n
        self.owner: dict[str, int] = {}
        self.troops: dict[str, bool] = {}
        self.armies: dict[str, dict[int, int]] = {}
        self.at_castle: dict[str, tuple[tuple[int, int], ...]] = {}
        self.rome: tuple[int, ...] = ()
        self.saracens: tuple[int, ...] = ()
        self.magyars: tuple[int, ...] = ()
        self.zone: dict[tuple[int, int], bool] = {}
        self.hostages: tuple[tuple[int, int], ...] = ()
        self.decks = {"military": dict(r.military_deck), "political": dict(r.political_deck)}
        self.discards: dict[str, int] = {}
        self.tiles: dict[str, str] = {}
        self.queue: tuple[tuple[int, str], ...] = ()
        self.into = "hand"
        self.after = ""
        self.keeper = 0
        self.keep_left = 0
        self.fight: dict[str, Any] | None = None
        self.exhausted = False
        self.castle_lost = False
        self.end_reason = ""
        self.custom = False

    @property
    def info(self) -> BoardInfo:
        return self.game.info

    @property
    def board(self) -> Board:
        return self.game.board

    # -- fast snapshots ----------------------------------------------------------------------------
    def _snapshot(self) -> Any:
        d = dict(self.__dict__)
        for k in self._BASE_FIELDS:
            d.pop(k, None)
        return self._copied(d)

    @staticmethod
    def _copied(d: dict[str, Any]) -> dict[str, Any]:
        d = dict(d)
        for k in _LISTS:
            d[k] = list(d[k])
        for k in _DICTS:
            d[k] = dict(d[k])
        d["armies"] = {c: dict(a) for c, a in d["armies"].items()}
        if d["fight"] is not None:
            d["fight"] = dict(d["fight"])
        return d

    def _restore(self, snap: Any) -> None:
        base = {k: self.__dict__[k] for k in self._BASE_FIELDS if k in self.__dict__}
        self.__dict__.clear()
        self.__dict__.update(base)
        self.__dict__.update(self._copied(snap))

    # -- the protocol ------------------------------------------------------------------------------
    def _current_player(self) -> int:
        step = self.step
        if step == "play":
            return self.player
        if step in ("roll", "draw", "tile", "loyalty"):
            return CHANCE
        if step == "reroll":
            return self.fight["roller"]
        if step == "keep":
            return self.keeper
        if step == "choose_castle":
            return self.seat
        return TERMINAL

    def _check(self, action: Any) -> None:
        # Turn actions are checked by the same rule functions that build legal_actions, so
        # the reason is specific and the check does not list every legal action.
        step = self.step
        if step == "play":
            reason = self._reason(action)
            if reason is not None:
                raise IllegalAction(reason)
            return
        # Fast paths for the commonest chance outcomes (the general check lists them all).
        if step == "roll" and type(action) is Roll:
            ok = action.value in self.rules.faces(self._roll_colour())
        elif step == "draw" and type(action) is Draw:
            ok = self.decks[self.queue[0][1]].get(action.card, 0) > 0
        else:
            ok = False
        if not ok:
            super()._check(action)

    def _why_illegal(self, action: Any) -> str | None:
        if self.step == "play":
            return self._reason(action)
        who = self.colour(self._current_player()) if self._current_player() >= 0 else ""
        if self.step == "choose_castle":
            if isinstance(action, ChooseCastle):
                return self._reason_choose(action)
            return f"{who} must first choose a main castle"
        if self.step == "keep":
            if isinstance(action, Keep):
                return f"{who} is not looking at a {action.card} card"
            return f"{who} must first choose which card to keep"
        if self.step == "reroll":
            return f"{who} must first decide whether to spend a shield and reroll"
        return None

    def _legal_actions(self) -> list[Any]:
        step = self.step
        if step == "play":
            return self._legal_turn(self.player)
        if step == "reroll":
            return [Reroll(), AcceptRoll()]
        if step == "keep":
            return [Keep(c) for c in sorted(set(self.looking[self.keeper]))]
        if step == "choose_castle":
            return [
                ChooseCastle(c)
                for c in self.info.start
                if self._reason_choose(ChooseCastle(c)) is None
            ]
        return []

    def _chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        step = self.step
        if step == "roll":
            return list(self.game.roll_outcomes[self._roll_colour()])
        if step == "draw":
            deck = self.decks[self.queue[0][1]]
            total = sum(deck.values())
            return [(Draw(c), Fraction(k, total)) for c, k in sorted(deck.items()) if k]
        if step == "tile":
            left = self._tiles_left()
            pos = self.info.neutral[len(self.tiles)]
            return [(PlaceTile(pos, t), Fraction(1, len(left))) for t in left]
        if step == "loyalty":
            left = self._loyalty_left()
            return [(DealLoyalty(c), Fraction(1, len(left))) for c in left]
        return []

    def _apply(self, action: Any) -> None:
        step = self.step
        if step == "play":
            self._play(action)
        elif step == "roll":
            self._on_roll(action.value)
        elif step == "reroll":
            self._on_reroll(isinstance(action, Reroll))
        elif step == "draw":
            self._on_draw(action.card)
        elif step == "keep":
            self._on_keep(action.card)
        elif step == "tile":
            self.tiles = {**self.tiles, action.castle: action.tile}
            if len(self.tiles) == len(self.info.neutral):
                self._begin_loyalty()
        elif step == "loyalty":
            i = self.loyalty.index(None)
            self.loyalty = [*self.loyalty[:i], action.card, *self.loyalty[i + 1 :]]
            if None not in self.loyalty:
                self._begin_deal()
        elif step == "choose_castle":
            self._on_choose(action.castle)
        else:  # pragma: no cover - _check refuses actions at terminal states
            raise IllegalAction("the game is over")

    def sample_chance(self, rng: random.Random | int | None = None) -> Any:
        """Pick a chance outcome with its exact probability (integer weights, no Fractions)."""
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        step = self.step
        if step == "roll":
            return Roll(rng.choice(self.rules.faces(self._roll_colour())))
        if step == "draw":
            deck = self.decks[self.queue[0][1]]
            k = rng.randrange(sum(deck.values()))
            for card in sorted(deck):
                k -= deck[card]
                if k < 0:
                    return Draw(card)
        return super().sample_chance(rng)

    def legal_by_rules(self) -> list[Any]:
        """The legal turn actions found the slow way: every candidate checked by the rule
        functions that also explain refusals. Equal (as a set) to ``legal_actions()``; the
        tests hold the fast generator to it."""
        if self.step != "play":
            return self.legal_actions()
        return [a for a in self._candidates(self.player) if self._reason(a) is None]

    def _legal_turn(self, p: int) -> list[Any]:
        """The legal turn actions of ``p``, built directly (fast path of legal_actions)."""
        info = self.info
        r = self.rules
        n = self.num_players
        owner = self.owner
        troops = self.troops
        hand = self.hands[p]
        kinds = {card_kind(c) for c in hand}
        banner = self.banners[p] > 0
        out: list[Any] = []
        add = out.append
        for city, here in self.armies.items():
            size = here.get(p, 0)
            if not size:
                continue
            free = self._blocked(city, p) is None
            if free:
                moves = info.moves[city]  # moves[k]: every Move of k pawns out of city
                for k in range(1, min(size, len(moves) - 1) + 1):
                    out.extend(moves[k])
            for q in here:
                if q != p:
                    add(_act(AttackArmy, city, q))
                    if "cavalry_charge" in kinds:
                        add(_act(PlayCavalryCharge, city, q))
            if city in info.castle_set:
                o = owner.get(city)
                if (o != p and not (o is not None and o in here)) and (
                    banner or (o is not None and troops[city])
                ):
                    add(_act(AttackCastle, city))
                    if "good_fortune" in kinds:
                        add(_act(PlayGoodFortune, city, "army"))
            if free and "forced_march" in kinds:
                for k in range(1, size + 1):
                    for dest in self._march_reach(city, p, k):
                        add(_act(PlayForcedMarch, city, dest, k))
        for c, o in owner.items():
            if o != p:
                continue
            if troops[c] and self.pawns[p]:
                add(_act(Recruit, c))
            here = self.armies.get(c)
            if here and "resistance" in kinds:
                for q in here:
                    if q != p:
                        add(_act(PlayResistance, c, q))
        if self.hand_em[p]:
            cap = r.castle_emissaries
            for c in info.neutral:
                if (
                    c not in owner
                    and len(self.at_castle.get(c, ())) < cap
                    and (self.emissary_target(c) is not None)
                ):
                    add(_act(SendEmissary, c))
            if len(self.rome) < r.rome_capacity(n):
                add(_act(SendEmissary, ROME))
            bcap = r.barbarian_capacity(n)
            if len(self.saracens) < bcap:
                add(_act(SendEmissary, SARACENS))
            if len(self.magyars) < bcap:
                add(_act(SendEmissary, MAGYARS))
            for q in range(n):
                if q != p and (p, q) not in self.zone and (q, p) not in self.zone:
                    add(_act(RequestAlliance, q))
        for c, ems in self.at_castle.items():
            mine = [t for q, t in ems if q == p]
            if mine:
                add(_act(Retrieve, c))
                if c not in owner and min(mine) < self.turn and banner:
                    add(_act(RequestSupport, c))
                    if "good_fortune" in kinds:
                        add(_act(PlayGoodFortune, c, "emissary"))
            if owner.get(c) == p:
                for q in sorted({q for q, _ in ems if q != p}):
                    add(_act(TakeHostage, c, q))
        if p in self.rome:
            add(_act(Retrieve, ROME))
        if p in self.saracens:
            add(_act(Retrieve, SARACENS))
        if p in self.magyars:
            add(_act(Retrieve, MAGYARS))
        for (a, b), accepted in self.zone.items():
            if not accepted:
                if b == p:
                    add(_act(AcceptAlliance, a))
                if a == p:
                    add(_act(Retrieve, ZONE, b))
        for o in sorted({o for h, o in self.hostages if h == p}):
            add(_act(ReturnHostage, o))
        if len(hand) < r.hand_limit:
            for deck in DECKS:
                if self.decks[deck]:
                    add(_act(TakeCard, deck))
                    if self.shields[p] >= r.draw_many_cost:
                        add(_act(DrawCards, deck))
        first = self.left == r.actions_per_turn
        castles = None
        for card in sorted(set(hand)):
            add(_act(DiscardCard, card))
            kind = card_kind(card)
            if kind == "loyal_vassal":
                shields = card_shields(card)
                if self.pawns[p]:
                    for c, o in owner.items():
                        if o == p and troops[c] and self.shield_of(c) in shields:
                            add(_act(PlayLoyalVassal, card, c))
            elif kind in ("bishop", "secret_pact"):
                if castles is None:
                    castles = {self.shield_of(c) for c, o in owner.items() if o == p}
                shields = card_shields(card)
                if kind == "bishop" and any(sh in castles for sh in shields):
                    add(_act(PlayBishop, card))
                elif kind == "secret_pact" and all(sh in castles for sh in shields):
                    add(_act(PlaySecretPact, card))
            elif kind == "pope":
                if first:
                    add(_act(PlayPope))
            elif kind == "king_is_dead":
                add(_act(PlayKingIsDead))
            elif kind in ("magyar_invasion", "saracen_invasion"):
                if first:
                    add(_act(PlayInvasion, card))
            elif kind == "spy":
                for q in range(n):
                    if q != p:
                        for c in sorted(set(self.hands[q])):
                            add(_act(PlaySpy, q, c))
            elif kind == "hostage" and self.hand_em[p]:
                for place in (*self.at_castle, ROME, SARACENS, MAGYARS):
                    if owner.get(place) == p:
                        continue
                    for q in sorted(set(self.emissaries_at(place))):
                        if q != p:
                            add(_act(PlayHostage, q, place))
        return out

    # -- players and pieces ------------------------------------------------------------------------
    def colour(self, player: int) -> str:
        """The colour of seat ``player`` (red, green, blue, yellow, black by default)."""
        return self.game.colours[player]

    def band(self, player: int) -> str:
        """The legitimacy band (red, yellow, green) of ``player``."""
        return self.rules.band(self.legit[player])

    def army(self, city: str, player: int) -> int:
        """Pawns of ``player`` in ``city`` (0 if none)."""
        return self.armies.get(city, {}).get(player, 0)

    def castles_of(self, player: int) -> tuple[str, ...]:
        """The castles ``player`` controls, sorted."""
        return tuple(sorted(c for c, o in self.owner.items() if o == player))

    def allied(self, a: int, b: int) -> bool:
        """Whether players ``a`` and ``b`` have an accepted alliance."""
        return self.zone.get((a, b), False) or self.zone.get((b, a), False)

    def shield_of(self, castle: str) -> int | None:
        """The noble shield the castle shows now (castle tiles may have moved it)."""
        return self.info.shield[self.tiles.get(castle, castle)]

    def army_target(self, castle: str) -> int:
        """The left banner: least roll to take the castle by arms."""
        return self.info.army_target[self.tiles.get(castle, castle)]

    def emissary_target(self, castle: str) -> int | None:
        """The right banner: least roll to win the castle's support (None: no emissaries)."""
        return self.info.emissary_target[self.tiles.get(castle, castle)]

    def emissaries_at(self, place: str) -> tuple[int, ...]:
        """The owners of the emissaries at a castle or an off-map area."""
        if place == ROME:
            return self.rome
        if place == SARACENS:
            return self.saracens
        if place == MAGYARS:
            return self.magyars
        return tuple(p for p, _ in self.at_castle.get(place, ()))

    def hostages_held(self, holder: int) -> tuple[int, ...]:
        """The owners of the emissaries ``holder`` keeps as hostages."""
        return tuple(o for h, o in self.hostages if h == holder)

    def is_king(self, player: int) -> bool:
        return player in self.kings()

    def kings(self) -> tuple[int, ...]:
        """The King(s): whoever reached the crown, else the highest legitimacy (ties: all)."""
        crowned = tuple(p for p, lv in enumerate(self.legit) if lv >= self.rules.crown)
        if crowned:
            return crowned
        top = max(self.legit)
        return tuple(p for p, lv in enumerate(self.legit) if lv == top)

    def first_action(self) -> bool:
        """Whether the player to move has not yet used an action this turn."""
        return self.left == self.rules.actions_per_turn

    # -- small mutations ---------------------------------------------------------------------------
    def _gain(self, player: int, levels: int) -> None:
        self.legit[player] = self.rules.clamp(self.legit[player] + levels)

    def _add_shield(self, player: int) -> None:
        if self.supply > 0:
            self.supply -= 1
            self.shields[player] += 1

    def _add_pawns(self, city: str, player: int, n: int) -> None:
        here = self.armies.setdefault(city, {})
        here[player] = here.get(player, 0) + n
        self.pawns[player] -= n

    def _remove_pawns(self, city: str, player: int, n: int) -> None:
        here = self.armies[city]
        left = here[player] - n
        self.pawns[player] += n
        if left > 0:
            here[player] = left
        else:
            del here[player]
            if not here:
                del self.armies[city]

    def _blocked(self, city: str, player: int) -> int | None:
        """Another player whose army keeps ``player``'s army in ``city`` (H6), or None."""
        for q in self.armies.get(city, ()):
            if q != player and not (self.rules.allies_may_pass and self.allied(player, q)):
                return q
        return None

    def _break_alliance(self, player: int, other: int) -> None:
        """``player`` acts against its ally ``other``: alliance broken, breaker loses (H11)."""
        for key in ((player, other), (other, player)):
            if self.zone.get(key):
                del self.zone[key]
                self.hand_em[key[0]] += 1
                self._gain(player, -self.rules.alliance_break_loss)

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
        pile = dict(self.decks[deck])  # copy on write: snapshots share the decks
        self.decks = {**self.decks, deck: pile}
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
        looking = list(self.looking)  # copy on write
        looking[p] = cards
        self.looking = looking

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
            decks = {k: dict(v) for k, v in self.decks.items()}
            for card in self.looking[p]:
                deck = decks["military" if card_kind(card) in MILITARY_KINDS else "political"]
                deck[card] = deck.get(card, 0) + 1
            self.decks = decks
            self._look(p, ())
        if self.after == "draft":
            self._start_play()
        else:
            self._finish_action()

    # -- turns -------------------------------------------------------------------------------------
    def _game_over(self) -> str:
        if any(lv >= self.rules.crown for lv in self.legit):
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
            self.player = self.turn % self.num_players
            self.left = self.rules.actions_per_turn

    # -- dice --------------------------------------------------------------------------------------
    def _roll_colour(self) -> str:
        f = self.fight
        if f["kind"] == "battle":
            if f["stage"] == "att":
                return f["colour"] or self.rules.army_colour(self.army(f["where"], f["att"]))
            return self.rules.army_colour(self.army(f["where"], f["dfn"]))
        if f["colour"]:
            return f["colour"]
        if f["kind"] == "castle":
            return self.rules.army_colour(self.army(f["where"], f["att"]))
        return self.rules.band(self.legit[f["att"]])

    def roll_die(self):
        """The die being rolled now (at a ``"roll"`` or ``"reroll"`` step), else None."""
        if self.fight is None:
            return None
        return self.rules.die(self._roll_colour())

    def _start_fight(
        self,
        kind: str,
        player: int,
        where: str,
        *,
        defender: int | None = None,
        colour: str | None = None,
        cavalry: bool = False,
    ) -> None:
        target = 0
        if kind == "castle":
            target = self.army_target(where)
        elif kind == "diplomacy":
            target = self.emissary_target(where) or 0
        self.fight = {
            "kind": kind,
            "att": player,
            "dfn": defender,
            "where": where,
            "colour": colour,
            "stage": "att",
            "a": None,
            "d": None,
            "target": target,
            "cavalry": cavalry,
            "roller": player,
        }
        self.step = "roll"

    def _on_roll(self, value: int) -> None:
        f = self.fight
        faces = self.rules.faces(self._roll_colour())
        roller = f["roller"]
        if f["kind"] == "battle":
            if f["stage"] == "att":
                f["a"] = value
                if self.shields[roller] > 0 and value < max(faces):
                    self.step = "reroll"
                else:
                    self._defender_rolls()
            else:
                f["d"] = value
                losing = value <= f["a"]  # ties go to the attacker
                if losing and self.shields[roller] > 0 and max(faces) > f["a"]:
                    self.step = "reroll"
                else:
                    self._exchange()
            return
        f["a"] = value
        if value >= f["target"]:
            self._succeed()
        elif self.shields[roller] > 0 and max(faces) >= f["target"]:
            self.step = "reroll"
        else:
            self._finish_action()

    def _on_reroll(self, again: bool) -> None:
        f = self.fight
        if again:
            p = f["roller"]
            self.shields[p] -= 1
            self.supply += 1
            self.step = "roll"
            return
        if f["kind"] == "battle":
            if f["stage"] == "att":
                self._defender_rolls()
            else:
                self._exchange()
        else:
            self._finish_action()

    def _defender_rolls(self) -> None:
        f = self.fight
        f["stage"] = "dfn"
        f["roller"] = f["dfn"]
        self.step = "roll"

    def _exchange(self) -> None:
        f = self.fight
        att, dfn, city = f["att"], f["dfn"], f["where"]
        loser = att if f["d"] > f["a"] else dfn
        self._remove_pawns(city, loser, 1)
        if self.army(city, loser) == 0:
            winner = dfn if loser == att else att
            r = self.rules
            self._gain(winner, r.battle_win)
            self._gain(loser, -r.battle_loss)
            self._add_shield(loser)
            if f["cavalry"] and winner == att:
                self.vp[att] += r.cavalry_vp
            self._finish_action()
            return
        f.update(stage="att", roller=att, a=None, d=None)
        self.step = "roll"

    def _succeed(self) -> None:
        f = self.fight
        p, castle = f["att"], f["where"]
        if f["kind"] == "diplomacy":
            self._take_castle(castle, p, self.rules.diplomacy_gain)
        else:
            owner = self.owner.get(castle)
            if owner is not None and self.troops[castle]:
                self.troops[castle] = False  # the troops inside are wiped out (case C)
            else:
                royal = castle in self.info.royal
                gain = self.rules.royal_gain if royal else self.rules.conquest_gain
                self._take_castle(castle, p, gain)
        self._finish_action()

    def _take_castle(self, castle: str, player: int, gain: int) -> None:
        r = self.rules
        old = self.owner.get(castle)
        if old is not None:
            self.banners[old] += 1
            royal = castle in self.info.royal
            self._gain(old, -(r.royal_loss if royal else r.conquest_loss))
            self._add_shield(old)
            if sum(1 for o in self.owner.values() if o == old) == 1:
                self.castle_lost = True  # this was its last castle
        self.owner[castle] = player
        self.troops[castle] = True
        self.banners[player] -= 1
        self._gain(player, gain)
        # The new owner's own emissaries there go back to hand (H9).
        here = self.at_castle.get(castle, ())
        mine = sum(1 for q, _ in here if q == player)
        if mine:
            self.hand_em[player] += mine
            rest = tuple(e for e in here if e[0] != player)
            if rest:
                self.at_castle[castle] = rest
            else:
                del self.at_castle[castle]

    # -- the actions of a turn: candidates and reasons ---------------------------------------------
    def _candidates(self, p: int) -> Iterator[Any]:
        """A superset of the legal turn actions of ``p`` (filtered by :meth:`_reason`)."""
        info = self.info
        r = self.rules
        hand = self.hands[p]
        for city, here in self.armies.items():
            size = here.get(p, 0)
            if not size:
                continue
            for nb in info.adj[city]:
                for k in range(1, size + 1):
                    yield Move(city, nb, k)
            for q in here:
                if q != p:
                    yield AttackArmy(city, q)
            if city in info.castle_set:
                yield AttackCastle(city)
        for c, o in self.owner.items():
            if o == p:
                yield Recruit(c)
        if self.hand_em[p]:
            for c in info.neutral:
                yield SendEmissary(c)
            yield SendEmissary(ROME)
            for b in BARBARIANS:
                yield SendEmissary(b)
            for q in range(self.num_players):
                yield RequestAlliance(q)
        for c, ems in self.at_castle.items():
            if any(q == p for q, _ in ems):
                yield RequestSupport(c)
                yield Retrieve(c)
            if self.owner.get(c) == p:
                for q in sorted({q for q, _ in ems}):
                    yield TakeHostage(c, q)
        if p in self.rome:
            yield Retrieve(ROME)
        for b in BARBARIANS:
            if p in self.emissaries_at(b):
                yield Retrieve(b)
        for (a, b), accepted in self.zone.items():
            if b == p and not accepted:
                yield AcceptAlliance(a)
            if a == p and not accepted:
                yield Retrieve(ZONE, b)
        for h, o in sorted(set(self.hostages)):
            if h == p:
                yield ReturnHostage(o)
        for deck in DECKS:
            yield TakeCard(deck)
            yield DrawCards(deck)
        for card in sorted(set(hand)):
            yield DiscardCard(card)
            yield from self._card_candidates(p, card, r)

    def _card_candidates(self, p: int, card: str, r: Rules) -> Iterator[Any]:
        kind = card_kind(card)
        info = self.info
        if kind == "good_fortune":
            for city, here in self.armies.items():
                if p in here and city in info.castle_set:
                    yield PlayGoodFortune(city, "army")
            for c, ems in self.at_castle.items():
                if any(q == p for q, _ in ems):
                    yield PlayGoodFortune(c, "emissary")
        elif kind == "cavalry_charge":
            for city, here in self.armies.items():
                if p in here:
                    for q in here:
                        if q != p:
                            yield PlayCavalryCharge(city, q)
        elif kind == "forced_march":
            for city, here in self.armies.items():
                size = here.get(p, 0)
                for k in range(1, size + 1):
                    for dest in self._march_reach(city, p, k):
                        yield PlayForcedMarch(city, dest, k)
        elif kind == "resistance":
            for c, o in self.owner.items():
                if o == p:
                    for q in self.armies.get(c, ()):
                        if q != p:
                            yield PlayResistance(c, q)
        elif kind == "loyal_vassal":
            for c, o in self.owner.items():
                if o == p:
                    yield PlayLoyalVassal(card, c)
        elif kind == "bishop":
            yield PlayBishop(card)
        elif kind == "pope":
            yield PlayPope()
        elif kind == "king_is_dead":
            yield PlayKingIsDead()
        elif kind == "spy":
            for q in range(self.num_players):
                if q != p:
                    for c in sorted(set(self.hands[q])):
                        yield PlaySpy(q, c)
        elif kind in ("magyar_invasion", "saracen_invasion"):
            yield PlayInvasion(card)
        elif kind == "secret_pact":
            yield PlaySecretPact(card)
        elif kind == "hostage":
            for place in (*self.at_castle, ROME, *BARBARIANS):
                for q in sorted(set(self.emissaries_at(place))):
                    if q != p:
                        yield PlayHostage(q, place)

    def _march_reach(self, city: str, p: int, count: int) -> list[str]:
        """Cities a Forced march of ``count`` pawns can reach from ``city`` (sorted)."""
        r = self.rules
        colour = r.army_colour(count)
        steps = {"red": r.forced_march_small, "yellow": r.forced_march_medium}.get(colour, 0)
        if not steps or self._blocked(city, p) is not None:
            return []
        seen = {city: 0}
        frontier = [city]
        for depth in range(1, steps + 1):
            nxt = []
            for c in frontier:
                if c != city and self._blocked(c, p) is not None:
                    continue  # an enemy army stops the march here
                for nb in self.info.adj[c]:
                    if nb not in seen:
                        seen[nb] = depth
                        nxt.append(nb)
            frontier = nxt
        return sorted(c for c in seen if c != city)

    # Reasons: None when legal, else why not, in the game's words.
    def _reason(self, a: Any) -> str | None:
        p = self.player
        who = self.colour(p)
        check = _REASONS.get(type(a))
        if check is None:
            return f"{a} is not an action of a turn ({who} is to play an action)"
        card_kind_needed = _CARD_OF.get(type(a))
        if card_kind_needed is not None:
            card = _played_card(a)
            if card_kind_needed == "invasion":
                if card not in ("magyar_invasion", "saracen_invasion"):
                    return f"{card} is not an invasion card"
            elif card_kind(card) != card_kind_needed:
                return f"{card} is not a {card_kind_needed.replace('_', ' ')} card"
            if card not in self.hands[p]:
                return f"{who} has no {card} card in hand"
        return check(self, p, who, a)

    def _r_move(self, p: int, who: str, a: Move) -> str | None:
        err = self._army_check(p, who, a.frm, a.count)
        if err:
            return err
        if a.to not in self.info.adj[a.frm]:
            return f"no road joins {a.frm} and {a.to}: an army moves one road per action"
        q = self._blocked(a.frm, p)
        if q is not None:
            return (
                f"{who}'s army in {a.frm} shares the city with {self.colour(q)}'s army "
                f"and cannot leave without an alliance"
            )
        return None

    def _army_check(self, p: int, who: str, city: str, count: int) -> str | None:
        if city not in self.info.adj:
            return f"there is no city called {city} on the map"
        have = self.army(city, p)
        if not have:
            return f"{who} has no army in {city}"
        if not isinstance(count, int) or count < 1:
            return "at least one pawn must move"
        if count > have:
            return f"{who} has only {have} pawn(s) in {city}"
        return None

    def _r_recruit(self, p: int, who: str, a: Recruit) -> str | None:
        if a.castle not in self.info.castle_set:
            return f"there is no castle called {a.castle}"
        if self.owner.get(a.castle) != p:
            return f"{a.castle} does not belong to {who}"
        if not self.troops[a.castle]:
            return f"the troops of {a.castle} were already recruited (or wiped out)"
        if self.pawns[p] == 0:
            return f"{who} has no pawn left to put on the map"
        return None

    def _r_attack_army(self, p: int, who: str, a: AttackArmy | PlayCavalryCharge) -> str | None:
        if a.city not in self.info.adj:
            return f"there is no city called {a.city} on the map"
        if not self.army(a.city, p):
            return f"{who} has no army in {a.city}"
        if not isinstance(a.defender, int) or not 0 <= a.defender < self.num_players:
            return f"there is no player {a.defender}"
        if a.defender == p:
            return f"{who} cannot attack its own army"
        if not self.army(a.city, a.defender):
            return f"{self.colour(a.defender)} has no army in {a.city}"
        return None

    def _r_attack_castle(self, p: int, who: str, a: AttackCastle) -> str | None:
        return self._castle_assault_reason(p, who, a.castle)

    def _castle_assault_reason(self, p: int, who: str, castle: str) -> str | None:
        if castle not in self.info.castle_set:
            return f"there is no castle called {castle}"
        if not self.army(castle, p):
            return f"{who} has no army at the gate of {castle}"
        owner = self.owner.get(castle)
        if owner == p:
            return f"{castle} already belongs to {who}"
        if owner is not None and self.army(castle, owner):
            return (
                f"{self.colour(owner)}'s army stands at the gate of its castle {castle}: "
                "it must be beaten before the castle can be attacked"
            )
        conquers = owner is None or not self.troops[castle]
        if conquers and self.banners[p] == 0:
            return f"{who} has no banner left to place on a conquered castle"
        return None

    def _r_send(self, p: int, who: str, a: SendEmissary) -> str | None:
        if self.hand_em[p] == 0:
            return f"{who} has no emissary in hand"
        n = self.num_players
        r = self.rules
        if a.to == ROME:
            if len(self.rome) >= r.rome_capacity(n):
                return f"Rome already holds {r.rome_capacity(n)} emissaries, the most allowed"
            return None
        if a.to in BARBARIANS:
            cap = r.barbarian_capacity(n)
            if len(self.emissaries_at(a.to)) >= cap:
                return f"the {a.to} already hold {cap} emissaries, the most allowed"
            return None
        if a.to not in self.info.castle_set:
            return f"there is no castle or area called {a.to}"
        if self.emissary_target(a.to) is None or self.info.kind[a.to] != "neutral":
            return f"{a.to} cannot receive emissaries (Pavia and starting castles cannot)"
        if a.to in self.owner:
            return f"{a.to} was taken by {self.colour(self.owner[a.to])}: it takes no emissaries"
        if len(self.at_castle.get(a.to, ())) >= r.castle_emissaries:
            return f"{a.to} already holds {r.castle_emissaries} emissaries"
        return None

    def _r_support(self, p: int, who: str, a: RequestSupport) -> str | None:
        return self._diplomacy_reason(p, who, a.castle)

    def _diplomacy_reason(self, p: int, who: str, castle: str) -> str | None:
        if castle not in self.info.castle_set:
            return f"there is no castle called {castle}"
        mine = [t for q, t in self.at_castle.get(castle, ()) if q == p]
        if not mine:
            return f"{who} has no emissary in {castle}"
        if castle in self.owner:
            return (
                f"{castle} belongs to {self.colour(self.owner[castle])}: it can no longer "
                "be won by diplomacy"
            )
        if min(mine) >= self.turn:
            return (
                f"{who}'s emissary arrived in {castle} this turn: negotiations take time, "
                "roll on the next turn"
            )
        if self.banners[p] == 0:
            return f"{who} has no banner left to place on {castle}"
        return None

    def _r_request_alliance(self, p: int, who: str, a: RequestAlliance) -> str | None:
        q = a.target
        if not isinstance(q, int) or not 0 <= q < self.num_players:
            return f"there is no player {q}"
        if q == p:
            return f"{who} cannot ally with itself"
        if self.hand_em[p] == 0:
            return f"{who} has no emissary in hand"
        if (p, q) in self.zone or (q, p) in self.zone:
            state = "allied" if self.allied(p, q) else "already negotiating an alliance"
            return f"{who} and {self.colour(q)} are {state}"
        return None

    def _r_accept(self, p: int, who: str, a: AcceptAlliance) -> str | None:
        if self.zone.get((a.requester, p)) is not False:
            if self.zone.get((a.requester, p)):
                return f"{who} already accepted that alliance"
            return f"no alliance of player {a.requester} awaits {who}'s answer"
        return None

    def _r_retrieve(self, p: int, who: str, a: Retrieve) -> str | None:
        if a.frm == ZONE:
            if a.target is None or self.zone.get((p, a.target)) is not False:
                if a.target is not None and self.zone.get((p, a.target)):
                    return (
                        "that alliance was accepted: the emissary returns only when the "
                        "alliance is broken"
                    )
                return f"{who} has no emissary waiting in the Alliance Zone for that player"
            return None
        if a.target is not None:
            return "only an emissary in the Alliance Zone is retrieved with a player named"
        if p not in self.emissaries_at(a.frm):
            return f"{who} has no emissary in {a.frm}"
        return None

    def _r_take_hostage(self, p: int, who: str, a: TakeHostage) -> str | None:
        if self.owner.get(a.castle) != p:
            return f"{a.castle} does not belong to {who}: hostages are taken in own castles"
        if a.owner == p:
            return f"{who} cannot take its own emissary hostage"
        if a.owner not in self.emissaries_at(a.castle):
            return f"no emissary of player {a.owner} is in {a.castle}"
        return None

    def _r_return_hostage(self, p: int, who: str, a: ReturnHostage) -> str | None:
        if (p, a.owner) not in self.hostages:
            return f"{who} holds no emissary of player {a.owner} hostage"
        return None

    def _r_take_card(self, p: int, who: str, a: TakeCard | DrawCards) -> str | None:
        if a.deck not in DECKS:
            return f"there is no {a.deck} deck; the decks are military and political"
        if len(self.hands[p]) >= self.rules.hand_limit:
            return (
                f"{who} already holds {self.rules.hand_limit} initiative cards: discard one first"
            )
        if not self.decks[a.deck]:
            return f"the {a.deck} deck is empty"
        if isinstance(a, DrawCards) and self.shields[p] < self.rules.draw_many_cost:
            return (
                f"{who} has {self.shields[p]} experience shields; drawing several cards "
                f"costs {self.rules.draw_many_cost}"
            )
        return None

    def _r_discard(self, p: int, who: str, a: DiscardCard) -> str | None:
        if a.card not in self.hands[p]:
            return f"{who} has no {a.card} card in hand"
        return None

    def _r_good_fortune(self, p: int, who: str, a: PlayGoodFortune) -> str | None:
        if a.means == "army":
            return self._castle_assault_reason(p, who, a.castle)
        if a.means == "emissary":
            return self._diplomacy_reason(p, who, a.castle)
        return f"Good fortune is played with an army or an emissary, not {a.means!r}"

    def _r_forced_march(self, p: int, who: str, a: PlayForcedMarch) -> str | None:
        err = self._army_check(p, who, a.frm, a.count)
        if err:
            return err
        if self.rules.army_colour(a.count) == "green":
            return "Forced march cannot move a large army (detach a small or medium one)"
        q = self._blocked(a.frm, p)
        if q is not None:
            return (
                f"{who}'s army in {a.frm} shares the city with {self.colour(q)}'s army "
                f"and cannot leave without an alliance"
            )
        if a.to not in self._march_reach(a.frm, p, a.count):
            r = self.rules
            steps = (
                r.forced_march_small if r.army_colour(a.count) == "red" else r.forced_march_medium
            )
            return f"{a.to} is not within {steps} roads of {a.frm} on a route free of enemy armies"
        return None

    def _r_resistance(self, p: int, who: str, a: PlayResistance) -> str | None:
        if self.owner.get(a.castle) != p:
            return f"{a.castle} is not {who}'s castle"
        if a.enemy == p or not self.army(a.castle, a.enemy):
            return f"no army of player {a.enemy} stands at the gate of {a.castle}"
        return None

    def _r_loyal_vassal(self, p: int, who: str, a: PlayLoyalVassal) -> str | None:
        err = self._r_recruit(p, who, Recruit(a.castle))
        if err:
            return err
        if self.shield_of(a.castle) not in card_shields(a.card):
            return f"{a.castle} does not bear the shield shown on {a.card}"
        return None

    def _r_bishop(self, p: int, who: str, a: PlayBishop) -> str | None:
        shields = card_shields(a.card)
        if not any(self.shield_of(c) in shields for c in self.castles_of(p)):
            return f"{who} controls no castle bearing shield {' or '.join(map(str, shields))}"
        return None

    def _r_first_only(self, p: int, who: str, a: Any) -> str | None:
        if not self.first_action():
            return f"{_card_title(a)} may only be played as the first action of the turn"
        return None

    def _r_always(self, p: int, who: str, a: Any) -> str | None:
        return None

    def _r_spy(self, p: int, who: str, a: PlaySpy) -> str | None:
        if not isinstance(a.target, int) or not 0 <= a.target < self.num_players or a.target == p:
            return "Spy is played on another player"
        if a.discard not in self.hands[a.target]:
            return f"{self.colour(a.target)} holds no {a.discard} card"
        return None

    def _r_secret_pact(self, p: int, who: str, a: PlaySecretPact) -> str | None:
        held = {self.shield_of(c) for c in self.castles_of(p)}
        missing = [s for s in card_shields(a.card) if s not in held]
        if missing:
            return f"{who} controls no castle bearing shield {', '.join(map(str, missing))}"
        return None

    def _r_hostage(self, p: int, who: str, a: PlayHostage) -> str | None:
        if self.hand_em[p] == 0:
            return f"{who} has no emissary in hand to put in its place"
        if a.place == ZONE:
            return "Hostage cannot replace an emissary in the Alliance Zone"
        if a.place not in (ROME, *BARBARIANS) and a.place not in self.info.castle_set:
            return f"there is no castle or area called {a.place}"
        if a.owner == p:
            return f"{who} cannot take its own emissary hostage"
        if a.owner not in self.emissaries_at(a.place):
            return f"no emissary of player {a.owner} is in {a.place}"
        if self.owner.get(a.place) == p:
            return f"{a.place} is {who}'s own castle: take the hostage there with an action"
        return None

    # -- applying the actions of a turn ------------------------------------------------------------
    def _play(self, a: Any) -> None:
        p = self.player
        handler = _HANDLERS[type(a)]
        if type(a) in _CARD_OF:
            self._discard(p, _played_card(a))
        handler(self, p, a)

    def _discard(self, p: int, card: str) -> None:
        hand = list(self.hands[p])
        hand.remove(card)
        self.hands[p] = tuple(hand)
        self.discards = {**self.discards, card: self.discards.get(card, 0) + 1}

    def _do_move(self, p: int, a: Move | PlayForcedMarch) -> None:
        self._remove_pawns(a.frm, p, a.count)
        self._add_pawns(a.to, p, a.count)
        self._finish_action()

    def _do_recruit(self, p: int, a: Recruit) -> None:
        n = min(self.rules.recruit_size(self.legit[p]), self.pawns[p])
        self._recruit(p, a.castle, n)

    def _recruit(self, p: int, castle: str, n: int) -> None:
        self.troops[castle] = False
        self._add_pawns(castle, p, min(n, self.pawns[p]))
        self._finish_action()

    def _do_attack_army(self, p: int, a: AttackArmy) -> None:
        self._break_alliance(p, a.defender)
        self._start_fight("battle", p, a.city, defender=a.defender)

    def _do_cavalry(self, p: int, a: PlayCavalryCharge) -> None:
        self._break_alliance(p, a.defender)
        self._start_fight(
            "battle", p, a.city, defender=a.defender, colour=self.rules.cavalry_die, cavalry=True
        )

    def _do_attack_castle(self, p: int, a: AttackCastle) -> None:
        owner = self.owner.get(a.castle)
        if owner is not None:
            self._break_alliance(p, owner)
        self._start_fight("castle", p, a.castle)

    def _do_good_fortune(self, p: int, a: PlayGoodFortune) -> None:
        colour = self.rules.good_fortune_die
        if a.means == "army":
            owner = self.owner.get(a.castle)
            if owner is not None:
                self._break_alliance(p, owner)
            self._start_fight("castle", p, a.castle, colour=colour)
        else:
            self._start_fight("diplomacy", p, a.castle, colour=colour)

    def _do_support(self, p: int, a: RequestSupport) -> None:
        self._start_fight("diplomacy", p, a.castle)

    def _do_send(self, p: int, a: SendEmissary) -> None:
        self.hand_em[p] -= 1
        if a.to == ROME:
            self.rome = (*self.rome, p)
            self._gain(p, self.rules.rome_gain)
        elif a.to == SARACENS:
            self.saracens = (*self.saracens, p)
        elif a.to == MAGYARS:
            self.magyars = (*self.magyars, p)
        else:
            self.at_castle[a.to] = (*self.at_castle.get(a.to, ()), (p, self.turn))
        self._finish_action()

    def _remove_emissary(self, owner: int, place: str) -> None:
        """Take one of ``owner``'s emissaries off ``place`` (the oldest)."""
        if place in (ROME, SARACENS, MAGYARS):
            attr = {ROME: "rome", SARACENS: "saracens", MAGYARS: "magyars"}[place]
            seq = list(getattr(self, attr))
            seq.remove(owner)
            setattr(self, attr, tuple(seq))
            return
        ems = list(self.at_castle[place])
        for i, (q, _) in enumerate(ems):
            if q == owner:
                del ems[i]
                break
        if ems:
            self.at_castle[place] = tuple(ems)
        else:
            del self.at_castle[place]

    def _do_retrieve(self, p: int, a: Retrieve) -> None:
        if a.frm == ZONE:
            del self.zone[(p, a.target)]
        else:
            self._remove_emissary(p, a.frm)
            if a.frm == ROME:
                self._gain(p, -self.rules.rome_loss)
        self.hand_em[p] += 1
        self._finish_action()

    def _do_request_alliance(self, p: int, a: RequestAlliance) -> None:
        self.hand_em[p] -= 1
        self.zone[(p, a.target)] = False
        self._finish_action()

    def _do_accept(self, p: int, a: AcceptAlliance) -> None:
        self.zone[(a.requester, p)] = True
        self._gain(p, self.rules.alliance_accept_gain)
        self._finish_action()

    def _hold(self, holder: int, owner: int) -> None:
        self.hostages = tuple(sorted((*self.hostages, (holder, owner))))

    def _do_take_hostage(self, p: int, a: TakeHostage) -> None:
        self._break_alliance(p, a.owner)
        self._remove_emissary(a.owner, a.castle)
        self._hold(p, a.owner)
        self._finish_action()

    def _do_return_hostage(self, p: int, a: ReturnHostage) -> None:
        hs = list(self.hostages)
        hs.remove((p, a.owner))
        self.hostages = tuple(hs)
        self.hand_em[a.owner] += 1
        # Free: not an action of the turn, so the turn goes on.

    def _do_take_card(self, p: int, a: TakeCard) -> None:
        self._start_draws(((p, a.deck),), "hand", "action")

    def _do_draw_cards(self, p: int, a: DrawCards) -> None:
        cost = self.rules.draw_many_cost
        self.shields[p] -= cost
        self.supply += cost
        self._start_draws(((p, a.deck),) * self.rules.draw_many_count, "looking", "keep")

    def _do_discard(self, p: int, a: DiscardCard) -> None:
        self._discard(p, a.card)
        self._finish_action()

    def _do_resistance(self, p: int, a: PlayResistance) -> None:
        self._break_alliance(p, a.enemy)
        n = min(self.rules.resistance_pawns, self.army(a.castle, a.enemy))
        self._remove_pawns(a.castle, a.enemy, n)
        self._finish_action()

    def _do_loyal_vassal(self, p: int, a: PlayLoyalVassal) -> None:
        self._recruit(p, a.castle, self.rules.loyal_vassal_size)

    def _do_bishop(self, p: int, a: PlayBishop) -> None:
        self._gain(p, self.rules.bishop_gain)
        self._finish_action()

    def _do_pope(self, p: int, a: PlayPope) -> None:
        counts = Counter(self.rome)
        if counts or not self.rules.pope_needs_emissaries:
            top = max((counts.get(q, 0) for q in range(self.num_players)), default=0)
            for q in range(self.num_players):
                if counts.get(q, 0) == top:
                    self._gain(q, self.rules.pope_gain)
        self._finish_action()

    def _do_king_is_dead(self, p: int, a: PlayKingIsDead) -> None:
        top = max(self.legit)
        for q in range(self.num_players):
            if self.legit[q] == top:
                self._gain(q, self.rules.king_is_dead_gain)
        self._finish_action()

    def _do_spy(self, p: int, a: PlaySpy) -> None:
        self._discard(a.target, a.discard)
        self._finish_action()

    def _do_invasion(self, p: int, a: PlayInvasion) -> None:
        people = self.magyars if a.card == "magyar_invasion" else self.saracens
        for q in range(self.num_players):
            if q not in people:
                self._gain(q, -self.rules.invasion_loss)
        self._finish_action()

    def _do_secret_pact(self, p: int, a: PlaySecretPact) -> None:
        self.vp[p] += self.rules.secret_pact_vp
        self._finish_action()

    def _do_hostage(self, p: int, a: PlayHostage) -> None:
        self._break_alliance(p, a.owner)
        self._remove_emissary(a.owner, a.place)
        self._hold(p, a.owner)
        self.hand_em[p] -= 1
        if a.place == ROME:
            self.rome = (*self.rome, p)
            swing = self.rules.hostage_rome_swing
            self._gain(p, swing)
            self._gain(a.owner, -swing)
        elif a.place == SARACENS:
            self.saracens = (*self.saracens, p)
        elif a.place == MAGYARS:
            self.magyars = (*self.magyars, p)
        else:
            self.at_castle[a.place] = (*self.at_castle.get(a.place, ()), (p, self.turn))
        self._finish_action()

    # -- scoring -----------------------------------------------------------------------------------
    def scores(self) -> list[dict[str, int]]:
        """Each player's score by category: ``loyalty``, ``castles``, ``legitimacy``,
        ``emissaries``, ``cards`` and ``total``. Works at any time (the score if the game
        ended now); ``returns()`` gives the totals once the game is over."""
        r = self.rules
        kings = set(self.kings())
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

    def _returns(self) -> list[int]:
        return [s["total"] for s in self.scores()]

    def winners(self) -> list[int]:
        """The winner(s): most VP, then higher legitimacy, then more castles; else shared."""
        totals = self.returns()

        def key(p: int) -> tuple[int, int, int]:
            return (totals[p], self.legit[p], len(self.castles_of(p)))

        best = max(key(p) for p in range(self.num_players))
        return [p for p in range(self.num_players) if key(p) == best]

    # -- display -----------------------------------------------------------------------------------
    def label(self, action: Any) -> str:
        """A readable label for ``action`` here, with the player's colour, the army size, the
        die and the number needed: ``"red: attack castle Verona with 3 armies (green die,
        needs 5)"``."""
        p = self._current_player()
        who = self.colour(p) if p >= 0 else "chance"
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
                f"{who}: {head} castle {castle} with {n} {'army' if n == 1 else 'armies'} "
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
                f"{who}: {head} support of {action.castle} ({colour} die, needs "
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
                f"{who}: {head} {self.colour(action.defender)}'s army in {action.city}, "
                f"{mine} against {theirs} ({mc} die against {tc} die)"
            )
        if isinstance(action, Roll) and self.fight is not None:
            roller = self.colour(self.fight["roller"])
            return f"{roller} rolls {action.value} on the {self._roll_colour()} die"
        if isinstance(action, Recruit) and p >= 0:
            n = min(r.recruit_size(self.legit[p]), self.pawns[p])
            return f"{who}: recruit {n} {'army' if n == 1 else 'armies'} at {action.castle}"
        text = str(action)
        for q in range(self.num_players):
            text = text.replace(f"player {q}", self.colour(q))
        return f"{who}: {text}" if p >= 0 else text

    def summary(self) -> list[str]:
        """The position as lines of text (also ``str(state)``)."""
        r = self.rules
        lines = []
        if self.step == "over":
            lines.append(f"Game over: {self.end_reason}.")
        elif self.step == "play":
            lines.append(
                f"Turn {self.turn + 1} (round {self.turn // self.num_players + 1}): "
                f"{self.colour(self.player)} to play, {self.left} action(s) left."
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

    # -- positions by hand -------------------------------------------------------------------------
    @classmethod
    def from_position(
        cls,
        game: Any,
        *,
        castles: Mapping[str, int | tuple[int, bool]] | None = None,
        armies: Mapping[str, Mapping[int, int]] | None = None,
        legitimacy: Iterable[int] | None = None,
        shields: Iterable[int] | None = None,
        hands: Iterable[Iterable[str]] | None = None,
        emissaries: Mapping[str, Iterable[int]] | None = None,
        alliances: Iterable[tuple[int, int, bool]] = (),
        hostages: Iterable[tuple[int, int]] = (),
        loyalty: Iterable[str] | None = None,
        vp: Iterable[int] | None = None,
        to_move: int = 0,
        actions_left: int | None = None,
        turn: int = 1,
    ) -> HierroState:
        """A position set up by hand, in the middle of a game, for analysis and tests.

        ``castles`` maps castle -> owner, or -> ``(owner, troops_inside)`` (default: troops
        inside); unnamed castles are neutral. ``armies`` maps city -> {player: pawns}.
        ``emissaries`` maps a neutral castle, ``"Rome"``, ``"Saracens"`` or ``"Magyars"`` to
        the players with an emissary there; those in castles count as placed on an earlier
        turn (they may roll now). ``alliances`` lists ``(requester, target, accepted)``;
        ``hostages`` lists ``(holder, owner)``. Legitimacy starts at the rule set's start,
        shields at the start count, hands empty (cards come out of their decks), unless given.
        ``to_move`` plays next with ``actions_left`` actions (default: a whole turn).

        >>> from coronas.hierro import Game
        >>> s = Game(players=3).position(castles={"Verona": 1}, armies={"Verona": {0: 3}})
        >>> s.label(AttackCastle("Verona"))  # doctest: +NORMALIZE_WHITESPACE
        'red: attack castle Verona with 3 armies
        (green die, needs 5 to drive out the troops inside)'

        Such a state has no history to replay, so it cannot be saved with ``to_json``.
        """
        state = cls.__new__(cls)
        state.game = game
        state.history = []
        state._undo = []
        state._setup()
        n = game.num_players
        r = game.rules
        info = game.info
        state.custom = True
        state.loyalty = list(loyalty) if loyalty is not None else [None] * n
        if len(state.loyalty) != n:
            raise ValueError(f"loyalty: expected {n} cards, got {len(state.loyalty)}")
        for c, spec in (castles or {}).items():
            if c not in info.castle_set:
                raise ValueError(f"castles: there is no castle called {c}")
            owner, inside = (spec, True) if isinstance(spec, int) else spec
            _check_player(owner, n, f"castles[{c!r}]")
            state.owner[c] = owner
            state.troops[c] = bool(inside)
            state.banners[owner] -= 1
        for city, here in (armies or {}).items():
            if city not in info.adj:
                raise ValueError(f"armies: there is no city called {city}")
            for q, k in here.items():
                _check_player(q, n, f"armies[{city!r}]")
                if k > 0:
                    state._add_pawns(city, q, k)
        if legitimacy is not None:
            state.legit = [r.clamp(v) for v in legitimacy]
        if shields is not None:
            state.shields = list(shields)
            state.supply = r.shields_total - sum(state.shields)
        if vp is not None:
            state.vp = list(vp)
        if hands is not None:
            state.hands = [tuple(sorted(h)) for h in hands]
            for h in state.hands:
                for card in h:
                    deck = state.decks[
                        "military" if card_kind(card) in MILITARY_KINDS else "political"
                    ]
                    if deck.get(card, 0) < 1:
                        raise ValueError(f"hands: no {card} card left in its deck")
                    deck[card] -= 1
                    if not deck[card]:
                        del deck[card]
        for place, players in (emissaries or {}).items():
            for q in players:
                _check_player(q, n, f"emissaries[{place!r}]")
                state.hand_em[q] -= 1
                if place == ROME:
                    state.rome = (*state.rome, q)
                elif place == SARACENS:
                    state.saracens = (*state.saracens, q)
                elif place == MAGYARS:
                    state.magyars = (*state.magyars, q)
                elif place in info.castle_set:
                    state.at_castle[place] = (*state.at_castle.get(place, ()), (q, -1))
                else:
                    raise ValueError(f"emissaries: there is no castle or area called {place}")
        for a, b, ok in alliances:
            state.hand_em[a] -= 1
            state.zone[(a, b)] = bool(ok)
        for h, o in hostages:
            state.hand_em[o] -= 1
            state._hold(h, o)
        for name, values in (
            ("pawns", state.pawns),
            ("banners", state.banners),
            ("emissaries", state.hand_em),
            ("shields", state.shields),
        ):
            if any(v < 0 for v in values):
                raise ValueError(f"{name}: a player would need more pieces than it has")
        if state.supply < 0:
            raise ValueError(f"shields: more than the {r.shields_total} experience shields")
        _check_player(to_move, n, "to_move")
        state.step = "play"
        state.turn = turn * n + to_move
        state.player = to_move
        state.left = r.actions_per_turn if actions_left is None else actions_left
        return state

    def to_dict(self) -> dict[str, Any]:
        if self.custom:
            raise ValueError(
                "a position set up by hand has no history to replay and cannot "
                "be saved; save a game played from the start"
            )
        return super().to_dict()


@functools.lru_cache(maxsize=65536)
def _act(cls: type, *args: Any) -> Any:
    """A shared instance of an action (actions are immutable; building them is slow)."""
    return cls(*args)


def _check_player(q: Any, n: int, where: str) -> None:
    if isinstance(q, bool) or not isinstance(q, int) or not 0 <= q < n:
        raise ValueError(f"{where}: expected a player 0-{n - 1}, got {q!r}")


def _played_card(a: Any) -> str:
    """The card a card-playing action takes from the hand."""
    if isinstance(a, PlayLoyalVassal | PlayBishop | PlayInvasion | PlaySecretPact):
        return a.card
    return _CARD_OF[type(a)]


def _card_title(a: Any) -> str:
    if isinstance(a, PlayPope):
        return "Support of the Pope"
    if isinstance(a, PlayInvasion):
        return "Magyar invasion" if a.card.startswith("magyar") else "Saracen invasion"
    return type(a).__name__


S = HierroState
_REASONS = {
    Move: S._r_move,
    Recruit: S._r_recruit,
    AttackArmy: S._r_attack_army,
    AttackCastle: S._r_attack_castle,
    SendEmissary: S._r_send,
    RequestSupport: S._r_support,
    RequestAlliance: S._r_request_alliance,
    AcceptAlliance: S._r_accept,
    Retrieve: S._r_retrieve,
    TakeHostage: S._r_take_hostage,
    ReturnHostage: S._r_return_hostage,
    TakeCard: S._r_take_card,
    DrawCards: S._r_take_card,
    DiscardCard: S._r_discard,
    PlayGoodFortune: S._r_good_fortune,
    PlayCavalryCharge: S._r_attack_army,
    PlayForcedMarch: S._r_forced_march,
    PlayResistance: S._r_resistance,
    PlayLoyalVassal: S._r_loyal_vassal,
    PlayBishop: S._r_bishop,
    PlayPope: S._r_first_only,
    PlayKingIsDead: S._r_always,
    PlaySpy: S._r_spy,
    PlayInvasion: S._r_first_only,
    PlaySecretPact: S._r_secret_pact,
    PlayHostage: S._r_hostage,
}
_HANDLERS = {
    Move: S._do_move,
    Recruit: S._do_recruit,
    AttackArmy: S._do_attack_army,
    AttackCastle: S._do_attack_castle,
    SendEmissary: S._do_send,
    RequestSupport: S._do_support,
    RequestAlliance: S._do_request_alliance,
    AcceptAlliance: S._do_accept,
    Retrieve: S._do_retrieve,
    TakeHostage: S._do_take_hostage,
    ReturnHostage: S._do_return_hostage,
    TakeCard: S._do_take_card,
    DrawCards: S._do_draw_cards,
    DiscardCard: S._do_discard,
    PlayGoodFortune: S._do_good_fortune,
    PlayCavalryCharge: S._do_cavalry,
    PlayForcedMarch: S._do_move,
    PlayResistance: S._do_resistance,
    PlayLoyalVassal: S._do_loyal_vassal,
    PlayBishop: S._do_bishop,
    PlayPope: S._do_pope,
    PlayKingIsDead: S._do_king_is_dead,
    PlaySpy: S._do_spy,
    PlayInvasion: S._do_invasion,
    PlaySecretPact: S._do_secret_pact,
    PlayHostage: S._do_hostage,
}
_CARD_OF = {
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
del S
