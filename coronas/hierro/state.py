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
``"spy"``            after Spy: the player looks at the ``spied`` player's cards and
                     chooses the one to discard
``"roll"``           chance: a die is rolled (battle, castle assault, emissary)
``"reroll"``         the player who rolled may spend an experience shield to roll again
``"over"``           the game has ended

Every roll is its own chance node and every reroll is a decision, so the exact odds of a
battle or an assault can be read off the game tree (:func:`coronas.engine.exact_distribution`).

Positions for analysis are built with :meth:`HierroState.from_position` (see its docstring).

Where each rule lives: this module holds the state's data, the steps of the protocol and the
small queries and changes every rule uses; :mod:`coronas.hierro.phases` the set-up, card
draws, the end of the game and the scoring; :mod:`coronas.hierro.legality` when an action of a
turn is legal and why not (:mod:`coronas.hierro.listing` lists the legal ones fast);
:mod:`coronas.hierro.effects` what each action and card does, with the dice of battles,
assaults and emissaries; :mod:`coronas.hierro.positions` positions set up by hand;
:mod:`coronas.hierro.views` the labels, text and HTML of a state, and
:mod:`coronas.hierro.observation` what a seat sees of it and its graph.
"""

from __future__ import annotations

import functools
import random
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from coronas.engine import CHANCE, TERMINAL, IllegalAction, State
from coronas.engine.journal import LoggedDict
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
    PlaceTile,
    Reroll,
    Roll,
    SpyDiscard,
)
from coronas.hierro.effects import TurnEffects
from coronas.hierro.legality import TurnRules
from coronas.hierro.listing import TurnListing
from coronas.hierro.observation import StateData
from coronas.hierro.phases import GamePhases
from coronas.hierro.positions import build_position
from coronas.hierro.tables import BoardInfo
from coronas.hierro.views import StateViews
from coronas.manygames.questions import Questions

if TYPE_CHECKING:
    from coronas.hierro.board import Board

__all__ = ["BARBARIANS", "DECKS", "ROME", "ZONE", "BoardInfo", "HierroState"]


class HierroState(
    TurnListing, TurnRules, TurnEffects, GamePhases, StateViews, StateData, Questions, State
):
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
        self.spied: int | None = None
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

    # -- the protocol ------------------------------------------------------------------------------
    def _current_player(self) -> int:
        step = self.step
        if step == "play" or step == "spy":
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
        if self.step == "spy":
            target = self.colour(self.spied)
            if isinstance(action, SpyDiscard):
                return f"{target} holds no {action.card} card"
            return f"{who} must first choose which of {target}'s cards to discard"
        return None

    def _legal_actions(self) -> list[Any]:
        step = self.step
        if step == "play":
            return self._legal_turn(self.player)
        if step == "reroll":
            return [Reroll(), AcceptRoll()]
        if step == "keep":
            return [Keep(c) for c in sorted(set(self.looking[self.keeper]))]
        if step == "spy":
            return [SpyDiscard(c) for c in sorted(set(self.hands[self.spied]))]
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
        elif step == "spy":
            self._on_spy_discard(action.card)
        elif step == "tile":
            self.tiles[action.castle] = action.tile
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
        """Pick a chance outcome with its exact probability (integer weights, no Fractions).

        A roll or a draw is handed out as a shared instance that the state remembers as
        listed, so that applying it needs no check (see ``legal_actions``)."""
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        step = self.step
        if step == "roll":
            outcome = _roll(rng.choice(self.rules.faces(self._roll_colour())))
            self.__dict__["_listed"] = (outcome,)
            return outcome
        if step == "draw":
            deck = self.decks[self.queue[0][1]]
            k = rng.randrange(sum(deck.values()))
            for card in sorted(deck):
                k -= deck[card]
                if k < 0:
                    outcome = _draw(card)
                    self.__dict__["_listed"] = (outcome,)
                    return outcome
        return super().sample_chance(rng)

    def resample(self, player: int, rng: random.Random) -> HierroState:
        """A position alike to this one for ``player``, the cards it cannot see drawn anew
        (:func:`coronas.hierro.hidden.resample`)."""
        from coronas.hierro.hidden import resample

        return resample(self, player, rng)

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

    def _add_pawns(self, city: str, player: int, n: int, out: bool = True) -> None:
        """``n`` of ``player``'s pawns into ``city``: from its supply, unless not ``out``
        (they come from another city)."""
        here = self.armies.get(city)
        if here is None:  # a logged dict at once: a plain one would need sealing after apply
            here = self.armies[city] = LoggedDict()
        here[player] = here.get(player, 0) + n
        if out:
            self.pawns[player] -= n

    def _remove_pawns(self, city: str, player: int, n: int, back: bool = True) -> None:
        """``n`` of ``player``'s pawns out of ``city``: back to its supply, unless not
        ``back`` (they go to another city)."""
        here = self.armies[city]
        left = here[player] - n
        if back:
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

    # -- positions by hand -------------------------------------------------------------------------
    @classmethod
    def from_position(cls, game: Any, **kwargs: Any) -> HierroState:
        """A position set up by hand, in the middle of a game, for analysis and tests.

        The keywords (all optional): ``castles``, ``armies``, ``legitimacy``, ``shields``,
        ``hands``, ``emissaries``, ``alliances``, ``hostages``, ``loyalty``, ``vp``,
        ``to_move``, ``actions_left``, ``turn``.

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
        return build_position(cls, game, **kwargs)


@functools.lru_cache(maxsize=64)
def _roll(value: int) -> Roll:
    """A shared instance of the roll of ``value`` (actions are immutable)."""
    return Roll(value)


@functools.lru_cache(maxsize=256)
def _draw(card: str) -> Draw:
    """A shared instance of the draw of ``card``."""
    return Draw(card)
