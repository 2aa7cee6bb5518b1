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

Where each rule lives: this module holds the set-up, the turn order, dice, card draws, the end
and the scoring; :mod:`coronas.hierro.legality` says when an action of a turn is legal and why
not; :mod:`coronas.hierro.effects` what each action and card does; :mod:`coronas.hierro.views`
the labels, text, HTML and graph of a state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from coronas.engine import CHANCE, TERMINAL, IllegalAction, State
from coronas.hierro.actions import (
    BARBARIANS,
    DECKS,
    MAGYARS,
    ROME,
    SARACENS,
    ZONE,
    AcceptRoll,
    ChooseCastle,
    DealLoyalty,
    Draw,
    Keep,
    Move,
    PlaceTile,
    Reroll,
    Roll,
)
from coronas.hierro.effects import TurnEffects
from coronas.hierro.legality import TurnRules
from coronas.hierro.rules import MILITARY_KINDS, card_kind
from coronas.hierro.views import StateViews

if TYPE_CHECKING:
    from coronas.hierro.board import Board

__all__ = ["BARBARIANS", "DECKS", "ROME", "ZONE", "BoardInfo", "HierroState"]


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


class HierroState(TurnRules, TurnEffects, StateViews, State):
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

    def _odds(self, action: Any) -> Any:
        """See :mod:`coronas.hierro.odds.position`."""
        from coronas.hierro.odds.position import position_odds

        return position_odds(self, action)

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

    # -- players and pieces ------------------------------------------------------------------------
    def colour(self, player: int) -> str:
        """The colour of seat ``player`` (red, green, blue, yellow, black by default)."""
        return self.game.colours[player]

    def player_name(self, player: int) -> str:
        """Players are called by their colours."""
        return self.colour(player)

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

        >>> from coronas.hierro import AttackCastle, Game
        >>> s = Game(players=3).position(castles={"Verona": 1}, armies={"Verona": {0: 3}})
        >>> s.label(AttackCastle("Verona"))  # doctest: +NORMALIZE_WHITESPACE
        'red: attack castle Verona with 3 armies
        (green die, needs 5 to drive out the troops inside)'

        :meth:`Game.position <coronas.hierro.Game.position>` is the usual way in: its game
        records the position, so such a state saves and loads like a game from the start.
        """
        state = cls.__new__(cls)
        state.game = game
        state.history = []
        state._undo = []
        state._setup()
        n = game.num_players
        r = game.rules
        info = game.info
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


def _check_player(q: Any, n: int, where: str) -> None:
    if isinstance(q, bool) or not isinstance(q, int) or not 0 <= q < n:
        raise ValueError(f"{where}: expected a player 0-{n - 1}, got {q!r}")
