"""Carolus Magnus: the game state, whose turn it is, chance outcomes and how actions apply.

One round: every player chooses a disc (in the current order, a number nobody else chose this
round if they still have one), the discs set the turn order, then each player in turn deploys
knights, moves the emperor (control of the destination is resolved and neighbours with the
same castle owner merge) and replenishes the reserve. Set-up and every knight drawn are chance
nodes with exact probabilities; a joker is assigned by its drawer right after it is drawn.

>>> from coronas.engine import play, RandomBot
>>> state = play(Game(players=2).new_initial_state(), RandomBot(), rng=7)
>>> state.is_terminal() and len(state.winners()) >= 1
True

Players are numbered from 0. A region is known by its smallest number: after 14, 15 and 1
merge, "region 1" is the arc 14+15+1 (see :mod:`coronas.carolus.board`).

Where each rule lives: this module holds the set-up, whose turn it is and the chance nodes;
:mod:`coronas.carolus.legality` says when an action is legal and why not;
:mod:`coronas.carolus.effects` what each action does and what a stop of the emperor would do;
:mod:`coronas.carolus.views` the text, HTML, graph and observation of a state;
:mod:`coronas.carolus.advice` the odds of a move (``state.odds``); :mod:`coronas.carolus.game`
the match and the positions set up by hand; :mod:`coronas.carolus.actions` the actions.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any, ClassVar

from coronas import engine
from coronas.carolus.actions import (
    AssignJoker,
    ChooseDisc,
    Deploy,
    Draw,
    MoveEmperor,
    PlaceKnight,
    SetOrder,
)
from coronas.carolus.advice import StateAdvice
from coronas.carolus.effects import EFFECTS, NOBODY, Resolution, StateEffects, family_controller
from coronas.carolus.game import Game, Position, position_of, set_position
from coronas.carolus.legality import StateLegality
from coronas.carolus.rules import Rules
from coronas.carolus.views import StateViews
from coronas.engine import CHANCE, TERMINAL, Action, IllegalAction
from coronas.manygames.questions import Questions

__all__ = [
    "AssignJoker",
    "CarolusState",
    "ChooseDisc",
    "Deploy",
    "Draw",
    "Game",
    "MoveEmperor",
    "PlaceKnight",
    "Position",
    "Resolution",
    "SetOrder",
    "family_controller",
]


class CarolusState(StateLegality, StateEffects, StateViews, StateAdvice, Questions, engine.State):
    """A Carolus Magnus position. See the module docstring for the flow of a round.

    Region data is kept in lists indexed by region id (index 0 unused): ``knights[r]`` counts
    per family (in ``rules.families`` order), ``castles[r]``, ``owner[r]`` (-1 for none),
    ``members[r]`` (None once merged into another region); ``ring`` lists the ids clockwise.
    Per player: ``court[p]`` and ``reserve[p]`` (counts per family), ``used[p]`` (discs used
    since the set was last complete), ``chosen[p]`` (this round's disc, 0 before choosing).
    ``control[f]`` is the player controlling family f, or -1.
    """

    # the game data: values replaced whole (ints, strings, tuples, None) and flat lists whose
    # items are immutable (knights, courts and reserves hold one tuple per region or player)
    _SCALARS: ClassVar[tuple[str, ...]] = (
        "phase",
        "round",
        "cursor",
        "left",
        "drawer",
        "joker",
        "emperor",
        "next_region",
        "end_reason",
        "last",
    )
    _LISTS: ClassVar[tuple[str, ...]] = (
        "knights",
        "members",
        "castles",
        "owner",
        "ring",
        "court",
        "reserve",
        "control",
        "drawn",
        "placed",
        "used",
        "chosen",
        "order",
        "bag",
    )

    game: Game

    # -- set-up ------------------------------------------------------------------------------
    def _setup(self) -> None:
        rules: Rules = self.rules
        n, nf, nr = self.num_players, len(rules.families), rules.regions
        self._fam = {f: i for i, f in enumerate(rules.families)}
        self.phase = "board"
        self.round = 0
        self.cursor = 0
        self.left = 0
        self.drawer = 0
        self.joker = False
        self.emperor = rules.emperor_start
        self.next_region = 1
        self.end_reason: str | None = None
        self.last: Resolution | None = None
        self.knights: list[tuple[int, ...] | None] = [None] + [(0,) * nf for _ in range(nr)]
        self.members: list[tuple[int, ...] | None] = [None] + [(r,) for r in range(1, nr + 1)]
        self.castles = [0] * (nr + 1)
        self.owner = [NOBODY] * (nr + 1)
        self.ring = list(range(1, nr + 1))
        self.court = [(0,) * nf for _ in range(n)]
        self.reserve = [(0,) * nf for _ in range(n)]
        self.control = [NOBODY] * nf
        self.drawn = [0] * n
        self.placed = [0] * n
        self.used: list[tuple[int, ...]] = [() for _ in range(n)]
        self.chosen = [0] * n
        self.order = list(range(n))
        self.bag = [rules.knights_per_family] * nf
        position = self.game.position
        if position is not None:
            set_position(self, position)

    def _data(self) -> dict[str, Any]:
        d = self.__dict__
        return {name: d[name] for name in (*self._SCALARS, *self._LISTS)}

    # -- whose move --------------------------------------------------------------------------
    def _current_player(self) -> int:
        phase = self.phase
        if phase == "over":
            return TERMINAL
        if phase in ("board", "order"):
            return CHANCE
        if phase in ("reserve", "replenish"):
            return self.drawer if self.joker else CHANCE
        return self.order[self.cursor]

    @property
    def acting_player(self) -> int | None:
        """The player whose action turn (or disc choice, or draw) it is, None if none."""
        if self.phase in ("board", "order", "over"):
            return None
        if self.phase in ("reserve", "replenish"):
            return self.drawer
        return self.order[self.cursor]

    # -- chance ------------------------------------------------------------------------------
    def _chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        rules: Rules = self.rules
        if self.phase == "board":
            total = sum(self.bag)
            return [
                (PlaceKnight(self.next_region, f), Fraction(c, total))
                for f, c in zip(rules.families, self.bag, strict=True)
                if c
            ]
        if self.phase == "order":
            perms = list(itertools.permutations(range(self.num_players)))
            return [(SetOrder(p), Fraction(1, len(perms))) for p in perms]
        return self.game._draws

    def sample_chance(self, rng: Any = None) -> Action:
        """Pick a chance outcome with its exact probability (as the engine does, faster:
        a knight draw is one uniform pick among the rule set's faces, a shuffled knight a
        pick weighted by the knights left)."""
        if self.phase in ("reserve", "replenish") and not self.joker:
            if not isinstance(rng, random.Random):
                rng = random.Random(rng)
            return self.game._draw_by_face[rng.choice(self.rules.draw_faces)]
        if self.phase == "board":
            if not isinstance(rng, random.Random):
                rng = random.Random(rng)
            family = rng.choices(self.rules.families, weights=self.bag)[0]
            return PlaceKnight(self.next_region, family)
        return super().sample_chance(rng)

    # -- checking and applying -----------------------------------------------------------------
    def _check(self, action: Any) -> None:
        # one rule function checks the action (legality.py), with the reason if it fails;
        # the legal actions are not listed
        reason = self._reason(action)
        if reason is not None:
            raise IllegalAction(reason)

    def _apply(self, action: Any) -> None:
        EFFECTS[type(action)](self, action)

    # -- queries -------------------------------------------------------------------------------
    def region_of(self, number: int) -> int:
        """The id of the (possibly merged) region that contains region ``number``."""
        if self.members[number] is not None:
            return number
        for r in self.ring:
            if number in self.members[r]:
                return r
        raise ValueError(f"there is no region {number}")

    def controller(self, family: str) -> int | None:
        """The player controlling ``family``, or None."""
        holder = self.control[self._fam[family]]
        return None if holder < 0 else holder

    def to_position(self) -> Position:
        """This position as a :class:`Position`, to start a new game from it (a puzzle, a
        lesson, a what-if). Possible between set-up and the end, with no joker pending."""
        return position_of(self)

    def _returns(self) -> list[int]:
        return self.castle_totals()
