"""Carolus Magnus: the game state, its legal actions and how they change it.

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
"""

from __future__ import annotations

import dataclasses
import itertools
import operator
import random
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from coronas import engine
from coronas.carolus.board import neighbours, region_name, ring_graph, step
from coronas.carolus.rules import JOKER, Rules
from coronas.engine import CHANCE, TERMINAL, Action, register_game

if TYPE_CHECKING:
    import networkx as nx

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

NOBODY = -1
"""Owner / controller value for "no player"."""


# --------------------------------------------------------------------------------------------
# Actions and chance outcomes
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PlaceKnight(Action):
    """Set-up chance outcome: the shuffled knight that lands in ``region``."""

    region: int
    family: str

    def __str__(self) -> str:
        return f"a {self.family} knight starts in region {self.region}"


@dataclasses.dataclass(frozen=True)
class SetOrder(Action):
    """Set-up chance outcome: the random initial playing order."""

    order: tuple[int, ...]

    def __str__(self) -> str:
        return "initial order: " + ", ".join(f"player {p}" for p in self.order)


@dataclasses.dataclass(frozen=True)
class Draw(Action):
    """Chance outcome: one knight drawn into a reserve (a family or the joker)."""

    family: str

    def __str__(self) -> str:
        return "draw a joker" if self.family == JOKER else f"draw a {self.family} knight"


@dataclasses.dataclass(frozen=True)
class AssignJoker(Action):
    """The drawer turns the joker just drawn into a knight of ``family``."""

    family: str

    def __str__(self) -> str:
        return f"the joker becomes a {self.family} knight"


@dataclasses.dataclass(frozen=True)
class ChooseDisc(Action):
    """Choose this round's disc: turn order and the emperor's longest move."""

    disc: int

    def __str__(self) -> str:
        return f"choose disc {self.disc}"


@dataclasses.dataclass(frozen=True)
class Deploy(Action):
    """Deploy one reserve knight of ``family`` to the court (``region=None``) or a region."""

    family: str
    region: int | None = None

    def __str__(self) -> str:
        where = "the court" if self.region is None else f"region {self.region}"
        return f"deploy a {self.family} knight to {where}"


@dataclasses.dataclass(frozen=True)
class MoveEmperor(Action):
    """Move the emperor ``steps`` regions clockwise, to region ``region``."""

    steps: int
    region: int

    def __str__(self) -> str:
        s = "step" if self.steps == 1 else "steps"
        return f"move the emperor {self.steps} {s} to region {self.region}"


ACTION_TYPES = (PlaceKnight, SetOrder, Draw, AssignJoker, ChooseDisc, Deploy, MoveEmperor)


# --------------------------------------------------------------------------------------------
# Pure rule functions
# --------------------------------------------------------------------------------------------


def family_controller(counts: Sequence[int], holder: int = NOBODY) -> int:
    """Who controls a family, given each court's knights of it and the current holder.

    A court with more knights than every other court controls; at a tie the holder keeps
    control; with no holder a tie gives control to nobody (-1).

    >>> family_controller([2, 1]), family_controller([2, 2], holder=1), family_controller([2, 2])
    (0, 1, -1)
    """
    best = max(counts)
    leaders = [p for p, c in enumerate(counts) if c == best]
    if len(leaders) == 1 and best > 0:
        return leaders[0]
    return holder if holder in leaders else NOBODY


@dataclasses.dataclass(frozen=True)
class Resolution:
    """What happens when the emperor stops in a region (computed without changing the state).

    ``totals[p]`` is player p's strength there (knights of controlled families plus own
    castles); ``change`` is ``"build"`` (one castle in a region without castles),
    ``"replace"`` (the winner takes over every castle one for one), ``"keep"`` (the owner wins
    again: nothing added) or ``"none"`` (no unique highest total). ``merged`` lists the
    neighbouring regions that join it, ``members`` the merged region's numbers.
    """

    region: int
    totals: tuple[int, ...]
    winner: int | None
    change: str
    owner_before: int | None
    castles_before: int
    owner_after: int | None
    castles_after: int
    merged: tuple[int, ...]
    members: tuple[int, ...]
    castle_totals: tuple[int, ...]
    regions_left: int
    game_over: bool

    @property
    def new_region(self) -> int:
        """The id of the region the emperor stands in afterwards."""
        return min(self.members)

    def describe(self) -> str:
        """One line in the game's words, e.g. "player 1 builds a castle; merges with 4"."""
        if self.change == "build":
            text = f"player {self.winner} builds a castle"
        elif self.change == "replace":
            text = (
                f"player {self.winner} replaces {self.castles_before} castle(s) "
                f"of player {self.owner_before}"
            )
        elif self.change == "keep":
            text = f"player {self.winner} keeps control"
        else:
            text = "no change (no unique highest total)"
        if self.merged:
            text += "; merges with " + " and ".join(f"region {m}" for m in self.merged)
            text += f" into {region_name(self.members)}"
        if self.game_over:
            text += "; the game ends"
        return text


# --------------------------------------------------------------------------------------------
# Positions set by hand
# --------------------------------------------------------------------------------------------

_PHASES_BY_HAND = ("disc", "deploy", "move", "replenish")


@dataclasses.dataclass(frozen=True)
class Position:
    """A position set up by hand, for puzzles, teaching and tests.

    Pass it to ``Game(players=..., position=...)``; ``new_initial_state()`` then starts from it
    (saved games record it, so save/load and replay still work). Every field has a plain
    default, so only what matters needs saying:

    * ``knights``: region number -> {family: count} (a number inside a merged region means
      that region);
    * ``merged``: arcs of region numbers (clockwise) already merged, e.g. ``((14, 15, 1),)``;
    * ``castles``: region number -> ``(owner, count)``;
    * ``emperor``: the region the emperor stands in;
    * ``courts``, ``reserves``: one {family: count} per player;
    * ``control``: family -> player; families left out go to a court with more knights than
      every other, or to nobody;
    * ``order``: the playing order (players in turn order), default ``0, 1, ...``;
    * ``used``: per player, the discs used since the set was last complete;
    * ``phase``: ``"disc"`` (players choose discs), ``"deploy"``, ``"move"`` or
      ``"replenish"`` (the player ``order[turn]`` is in that step of the action turn);
    * ``chosen``: per player, the disc chosen this round (for the action phases);
    * ``turn``: index in ``order`` of the player to choose or act;
    * ``left``: knights still to deploy or draw in this step (default: the full count);
    * ``round``: the round number shown.

    >>> pos = Position(knights={3: {"red": 2}}, courts=({"red": 1}, {}), chosen=(2, 4),
    ...                phase="move")
    >>> s = Game(players=2, position=pos).new_initial_state()
    >>> s.current_player, [str(a) for a in s.legal_actions()]
    (0, ['move the emperor 1 step to region 2', 'move the emperor 2 steps to region 3'])
    """

    knights: Mapping[int, Mapping[str, int]] = dataclasses.field(default_factory=dict)
    merged: tuple[tuple[int, ...], ...] = ()
    castles: Mapping[int, tuple[int, int]] = dataclasses.field(default_factory=dict)
    emperor: int = 1
    courts: tuple[Mapping[str, int], ...] = ()
    reserves: tuple[Mapping[str, int], ...] = ()
    control: Mapping[str, int] = dataclasses.field(default_factory=dict)
    order: tuple[int, ...] = ()
    used: tuple[tuple[int, ...], ...] = ()
    phase: str = "disc"
    chosen: tuple[int, ...] = ()
    turn: int = 0
    left: int | None = None
    round: int = 1

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (integer keys become strings)."""
        return {
            "knights": {str(k): dict(v) for k, v in self.knights.items()},
            "merged": [list(m) for m in self.merged],
            "castles": {str(k): list(v) for k, v in self.castles.items()},
            "emperor": self.emperor,
            "courts": [dict(c) for c in self.courts],
            "reserves": [dict(r) for r in self.reserves],
            "control": dict(self.control),
            "order": list(self.order),
            "used": [list(u) for u in self.used],
            "phase": self.phase,
            "chosen": list(self.chosen),
            "turn": self.turn,
            "left": self.left,
            "round": self.round,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Position:
        """Read :meth:`to_dict` output back; a malformed entry raises ``ValueError``."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a position must be an object, got {data!r}")
        unknown = set(data) - {f.name for f in dataclasses.fields(cls)}
        if unknown:
            raise ValueError(f"position: unknown field(s) {sorted(unknown)}")
        d = dict(data)
        try:
            if "knights" in d:
                d["knights"] = {int(k): dict(v) for k, v in d["knights"].items()}
            if "castles" in d:
                d["castles"] = {int(k): tuple(v) for k, v in d["castles"].items()}
            for name in ("merged", "used"):
                if name in d:
                    d[name] = tuple(tuple(x) for x in d[name])
            for name in ("courts", "reserves"):
                if name in d:
                    d[name] = tuple(dict(x) for x in d[name])
            for name in ("order", "chosen"):
                if name in d:
                    d[name] = tuple(d[name])
        except (AttributeError, TypeError, ValueError) as exc:
            raise ValueError(f"position: malformed entry ({exc})") from None
        return cls(**d)


# --------------------------------------------------------------------------------------------
# The state
# --------------------------------------------------------------------------------------------


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _bump(counts: tuple[int, ...], i: int, by: int) -> tuple[int, ...]:
    """``counts`` with entry ``i`` changed by ``by`` (counts are immutable tuples)."""
    out = list(counts)
    out[i] += by
    return tuple(out)


class _LegalActions:
    """The legal actions, listed lazily; ``in`` is answered by the rules without listing."""

    __slots__ = ("_state",)

    def __init__(self, state: CarolusState):
        self._state = state

    def __contains__(self, action: object) -> bool:
        return self._state._is_legal(action)

    def __iter__(self) -> Iterator[Action]:
        return iter(self._state._list_legal())


class CarolusState(engine.State):
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
    _get_scalars = operator.itemgetter(*_SCALARS)
    _get_lists = operator.itemgetter(*_LISTS)

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
            self._set_position(position)

    def _set_position(self, pos: Position) -> None:
        """Replace the set-up by a position given by hand (validated, with clear errors)."""
        rules: Rules = self.rules
        n, nr = self.num_players, rules.regions

        def fam(name: Any, where: str) -> int:
            if name not in self._fam:
                raise ValueError(
                    f"position: {where}: unknown family {name!r}; "
                    f"the families are {', '.join(rules.families)}"
                )
            return self._fam[name]

        def counts(spec: Mapping[str, int], where: str) -> list[int]:
            out = [0] * len(rules.families)
            for f, c in dict(spec).items():
                if isinstance(c, bool) or not isinstance(c, int) or c < 0:
                    raise ValueError(
                        f"position: {where}: count of {f} must be a whole number >= 0, got {c!r}"
                    )
                out[fam(f, where)] += c
            return out

        def per_player(seq: Sequence[Any], name: str, default: Any) -> list[Any]:
            if not seq:
                return [default() for _ in range(n)]
            if len(seq) != n:
                raise ValueError(
                    f"position: {name} needs one entry per player ({n}), got {len(seq)}"
                )
            return list(seq)

        self.bag = [0] * len(rules.families)
        knights: list[list[int] | None] = [None] + [[0] * len(rules.families) for _ in range(nr)]
        seen: set[int] = set()
        for arc in pos.merged:
            arc = tuple(arc)
            if len(arc) < 2 or any(not 1 <= r <= nr for r in arc) or seen & set(arc):
                raise ValueError(
                    f"position: merged arc {arc} must list 2 or more regions "
                    f"1-{nr}, each in one arc only"
                )
            for a, b in itertools.pairwise(arc):
                if b != a % nr + 1:
                    raise ValueError(
                        f"position: merged arc {arc} must be consecutive regions in clockwise order"
                    )
            seen |= set(arc)
            rid = min(arc)
            for r in arc:
                self.members[r] = None
                knights[r] = None
            self.members[rid] = arc
            knights[rid] = [0] * len(rules.families)
        self.ring = [r for r in range(1, nr + 1) if self.members[r] is not None]
        for r, spec in pos.knights.items():
            rid = self._region_id(r, "knights")
            for i, c in enumerate(counts(spec, f"knights of region {r}")):
                knights[rid][i] += c
        self.knights = [None if k is None else tuple(k) for k in knights]
        for r, oc in pos.castles.items():
            rid = self._region_id(r, "castles")
            if len(tuple(oc)) != 2:
                raise ValueError(f"position: castles of region {r} must be (owner, count)")
            o, c = oc
            if not (_whole(o) and 0 <= o < n) or not _whole(c) or c < 0:
                raise ValueError(
                    f"position: castles of region {r}: owner must be a player "
                    f"0-{n - 1} and count >= 0, got {oc!r}"
                )
            self.owner[rid], self.castles[rid] = (o, c) if c > 0 else (NOBODY, 0)
        self.emperor = self._region_id(pos.emperor, "emperor")
        self.court = [
            tuple(counts(c, f"court of player {p}"))
            for p, c in enumerate(per_player(pos.courts, "courts", dict))
        ]
        self.reserve = [
            tuple(counts(c, f"reserve of player {p}"))
            for p, c in enumerate(per_player(pos.reserves, "reserves", dict))
        ]
        for i in range(len(rules.families)):
            self.control[i] = family_controller([c[i] for c in self.court])
        for f, p in pos.control.items():
            i = fam(f, "control")
            counts_f = [c[i] for c in self.court]
            if not (_whole(p) and 0 <= p < n) or counts_f[p] < max(counts_f) or not counts_f[p]:
                raise ValueError(
                    f"position: control of {f}: player {p} cannot hold it with "
                    f"courts {counts_f} (a holder has at least as many as "
                    f"every other court)"
                )
            self.control[i] = p
        self.drawn = [sum(self.court[p]) + sum(self.reserve[p]) for p in range(n)]
        self.order = list(pos.order) if pos.order else list(range(n))
        if sorted(self.order) != list(range(n)):
            raise ValueError(f"position: order must list each player 0-{n - 1} once")
        self.used = [tuple(u) for u in per_player(pos.used, "used", tuple)]
        for p, u in enumerate(self.used):
            if any(d not in rules.discs for d in u) or len(set(u)) != len(u):
                raise ValueError(
                    f"position: used discs of player {p} must be distinct discs "
                    f"from {rules.discs}, got {u}"
                )
        if pos.phase not in _PHASES_BY_HAND:
            raise ValueError(f"position: phase must be one of {_PHASES_BY_HAND}, got {pos.phase!r}")
        if not 0 <= pos.turn < n:
            raise ValueError(f"position: turn must be an index into the order (0-{n - 1})")
        self.round = pos.round
        self.cursor = pos.turn
        self.phase = pos.phase
        if pos.phase == "disc":
            self.chosen = [0] * n
            for p in self.order[: pos.turn]:
                self.chosen[p] = (list(pos.chosen) or [0] * n)[p]
            if any(self.chosen[p] not in rules.discs for p in self.order[: pos.turn]):
                raise ValueError("position: chosen must give the discs of players who chose")
            return
        self.chosen = list(pos.chosen)
        if len(self.chosen) != n or any(d not in rules.discs for d in self.chosen):
            raise ValueError(
                f"position: phase {pos.phase!r} needs chosen: one disc from "
                f"{rules.discs} per player"
            )
        p = self.order[self.cursor]
        full = {
            "deploy": min(rules.deploy_count(n), sum(self.reserve[p])),
            "move": 0,
            "replenish": rules.draw_count(n),
        }[pos.phase]
        self.left = full if pos.left is None else pos.left
        self.drawer = p
        if pos.phase == "replenish" and (not _whole(self.left) or self.left < 1):
            raise ValueError(f"position: left must be 1 or more knights to draw, got {self.left}")
        if pos.phase == "deploy" and not 0 < self.left <= sum(self.reserve[p]):
            raise ValueError(
                f"position: player {p} cannot deploy {self.left} knights "
                f"from a reserve of {sum(self.reserve[p])}"
            )

    def _region_id(self, r: Any, where: str) -> int:
        nr = self.rules.regions
        if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= nr:
            raise ValueError(f"position: {where}: there is no region {r!r} (regions 1-{nr})")
        return self.region_of(r)

    # -- snapshots (fast undo and clone) --------------------------------------------------------
    def _snapshot(self) -> tuple:
        d = self.__dict__
        return (
            CarolusState._get_scalars(d),
            tuple([v[:] for v in CarolusState._get_lists(d)]),
        )

    def _restore(self, snap: tuple) -> None:
        d = self.__dict__
        d.update(zip(self._SCALARS, snap[0], strict=True))
        d.update(zip(self._LISTS, [v[:] for v in snap[1]], strict=True))

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
        return self._draw_outcomes()

    def _draw_outcomes(self) -> list[tuple[Action, Fraction]]:
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

    # -- legality ----------------------------------------------------------------------------
    def _legal_actions(self) -> _LegalActions:
        return _LegalActions(self)

    def allowed_discs(self, player: int | None = None) -> list[int]:
        """Discs ``player`` may choose now: unused ones nobody else chose this round if there
        are any, otherwise any unused one (a complete set used comes back whole)."""
        p = self.order[self.cursor] if player is None else player
        discs = self.rules.discs
        free = [d for d in discs if d not in self.used[p]] or list(discs)
        taken = {self.chosen[q] for q in range(self.num_players) if q != p}
        fresh = [d for d in free if d not in taken]
        return fresh or free

    def _list_legal(self) -> list[Action]:
        phase = self.phase
        if self.joker:
            return [AssignJoker(f) for f in self.rules.families]
        if phase == "disc":
            return [ChooseDisc(d) for d in self.allowed_discs()]
        p = self.order[self.cursor]
        if phase == "deploy":
            out: list[Action] = []
            deploy = self.game._deploy  # the action objects, made once per game
            ring = self.ring
            for f, c in zip(self.rules.families, self.reserve[p], strict=True):
                if c:
                    row = deploy[f]
                    out.append(row[0])
                    out.extend([row[r] for r in ring])
            return out
        if phase == "move":
            ring, here = self.ring, self.emperor
            i, n = ring.index(here), len(ring)
            return [MoveEmperor(s, ring[(i + s) % n]) for s in range(1, min(self.chosen[p], n) + 1)]
        return []

    def _is_legal(self, a: object) -> bool:
        t = type(a)
        if self.joker:
            return t is AssignJoker and a.family in self._fam
        phase = self.phase
        if phase == "deploy":
            if t is not Deploy:
                return False
            i = self._fam.get(a.family)
            if i is None or not self.reserve[self.order[self.cursor]][i]:
                return False
            r = a.region
            return r is None or (
                type(r) is int and 0 < r < len(self.members) and self.members[r] is not None
            )
        if phase == "move":
            if t is not MoveEmperor or type(a.steps) is not int or type(a.region) is not int:
                return False
            limit = min(self.chosen[self.order[self.cursor]], len(self.ring))
            return 1 <= a.steps <= limit and a.region == step(self.ring, self.emperor, a.steps)
        if phase == "disc":
            return t is ChooseDisc and type(a.disc) is int and a.disc in self.allowed_discs()
        return False

    def _why_illegal(self, a: Any) -> str | None:
        p = self._current_player()
        who = f"player {p}"
        if self.joker:
            if isinstance(a, AssignJoker):
                return (
                    f"there is no family {a.family!r}; the families are "
                    f"{', '.join(self.rules.families)}"
                )
            return f"{who} must first assign the joker just drawn to a family"
        doing = {
            "disc": "choosing a disc",
            "deploy": "deploying knights",
            "move": "moving the emperor",
        }[self.phase]
        if isinstance(a, ChooseDisc) and self.phase == "disc":
            if a.disc not in self.rules.discs:
                return f"there is no disc {a.disc}; the discs are {self.rules.discs}"
            free = [d for d in self.rules.discs if d not in self.used[p]]
            if free and a.disc not in free:
                return (
                    f"{who} has already used disc {a.disc}; the discs left until the set "
                    f"is complete are {', '.join(map(str, free))}"
                )
            return (
                f"disc {a.disc} was already chosen this round and {who} still has a disc "
                f"nobody chose: {', '.join(map(str, self.allowed_discs()))}"
            )
        if isinstance(a, Deploy) and self.phase == "deploy":
            if a.family not in self._fam:
                return (
                    f"there is no family {a.family!r}; the families are "
                    f"{', '.join(self.rules.families)}"
                )
            if not self.reserve[p][self._fam[a.family]]:
                return f"{who} has no {a.family} knight in reserve"
            r = a.region
            if isinstance(r, int) and 1 <= r <= self.rules.regions:
                rid = self.region_of(r)
                return (
                    f"region {r} is part of region {region_name(self.members[rid])}; "
                    f"deploy there as region {rid}"
                )
            return f"there is no region {r!r}; the regions are {self.ring} or the court"
        if isinstance(a, MoveEmperor) and self.phase == "move":
            disc = self.chosen[p]
            limit = min(disc, len(self.ring))
            if not isinstance(a.steps, int) or not 1 <= a.steps <= limit:
                extra = (
                    ""
                    if disc < len(self.ring)
                    else f" ({len(self.ring)} is the full circuit back to the start)"
                )
                return (
                    f"with disc {disc} the emperor moves 1 to {limit} steps clockwise"
                    f"{extra}, not {a.steps}"
                )
            return (
                f"{a.steps} step(s) clockwise from region {self.emperor} lead to region "
                f"{step(self.ring, self.emperor, a.steps)}, not region {a.region}"
            )
        return f"{who} is {doing} now; {a} is not possible"

    # -- applying ------------------------------------------------------------------------------
    def _apply(self, a: Any) -> None:
        t = type(a)
        if t is Deploy:
            p = self.order[self.cursor]
            i = self._fam[a.family]
            self.reserve[p] = _bump(self.reserve[p], i, -1)
            if a.region is None:
                self.court[p] = _bump(self.court[p], i, 1)
                self.control[i] = family_controller([c[i] for c in self.court], self.control[i])
            else:
                self.knights[a.region] = _bump(self.knights[a.region], i, 1)
                self.placed[p] += 1
            self.left -= 1
            if self.left == 0:
                self.phase = "move"
        elif t is Draw:
            if a.family == JOKER:
                self.joker = True
            else:
                self._receive(a.family)
        elif t is AssignJoker:
            self.joker = False
            self._receive(a.family)
        elif t is MoveEmperor:
            self._move(a.region)
        elif t is ChooseDisc:
            self._choose(a.disc)
        elif t is PlaceKnight:
            i = self._fam[a.family]
            self.knights[a.region] = _bump(self.knights[a.region], i, 1)
            self.bag[i] -= 1
            self.next_region += 1
            if self.next_region > self.rules.regions:
                self.phase = "reserve"
                self.drawer = 0
                self.left = self.rules.reserve_size(self.num_players)
        elif t is SetOrder:
            self.order = list(a.order)
            self._new_round()
        else:  # pragma: no cover - _check lets only legal actions through
            raise TypeError(f"not a Carolus Magnus action: {a!r}")

    def _receive(self, family: str) -> None:
        """A drawn knight enters the drawer's reserve."""
        p = self.drawer
        self.reserve[p] = _bump(self.reserve[p], self._fam[family], 1)
        self.drawn[p] += 1
        self.left -= 1
        if self.left:
            return
        if self.phase == "reserve":
            self.drawer += 1
            if self.drawer == self.num_players:
                self.phase = "order"
            else:
                self.left = self.rules.reserve_size(self.num_players)
        else:
            self._next_turn()

    def _new_round(self) -> None:
        self.round += 1
        self.phase = "disc"
        self.cursor = 0
        self.chosen = [0] * self.num_players

    def _choose(self, disc: int) -> None:
        p = self.order[self.cursor]
        self.chosen[p] = disc
        used = (*self.used[p], disc)
        # after the whole set has been used it is available again
        self.used[p] = () if len(used) >= len(self.rules.discs) else used
        self.cursor += 1
        if self.cursor == self.num_players:
            chosen = self.chosen
            # lowest disc first; equal discs keep the previous round's relative order
            self.order = sorted(self.order, key=lambda q: chosen[q])
            self.cursor = 0
            self._start_turn()

    def _start_turn(self) -> None:
        p = self.order[self.cursor]
        self.left = min(self.rules.deploy_count(self.num_players), sum(self.reserve[p]))
        self.phase = "deploy" if self.left else "move"

    def _next_turn(self) -> None:
        self.cursor += 1
        if self.cursor == self.num_players:
            self._new_round()
        else:
            self._start_turn()

    def _move(self, dest: int) -> None:
        res = self.resolution(dest)
        self.last = res
        self.emperor = dest
        if res.owner_after is not None:
            self.owner[dest] = res.owner_after
            self.castles[dest] = res.castles_after
        if res.merged:
            new = res.new_region
            knights = (0,) * len(self.rules.families)
            castles = 0
            for r in (dest, *res.merged):
                knights = tuple(a + b for a, b in zip(knights, self.knights[r], strict=True))
                castles += self.castles[r]
                self.knights[r] = None
                self.members[r] = None
                self.castles[r] = 0
                self.owner[r] = NOBODY
            self.knights[new] = knights
            self.members[new] = res.members
            self.castles[new] = castles
            self.owner[new] = res.owner_after
            self.ring = [r for r in range(1, len(self.members)) if self.members[r] is not None]
            self.emperor = new
        if res.game_over:
            self.phase = "over"
            target = self.rules.castle_target(self.num_players)
            self.end_reason = (
                f"a player reached {target} castles"
                if max(res.castle_totals) >= target
                else f"fewer than {self.rules.min_regions} regions remain"
            )
        else:
            self.phase = "replenish"
            self.drawer = self.order[self.cursor]
            self.left = self.rules.draw_count(self.num_players)

    # -- the rules of control, as pure queries --------------------------------------------------
    def strengths(self, region: int) -> list[int]:
        """Each player's total in ``region``: knights of families they control plus their
        own castles there."""
        totals = [0] * self.num_players
        for c, holder in zip(self.knights[region], self.control, strict=True):
            if c and holder >= 0:
                totals[holder] += c
        if self.owner[region] >= 0:
            totals[self.owner[region]] += self.castles[region]
        return totals

    def resolution(self, region: int) -> Resolution:
        """What stopping the emperor in ``region`` would do now (nothing is changed)."""
        totals = self.strengths(region)
        best = max(totals)
        winner: int | None = totals.index(best) if best > 0 and totals.count(best) == 1 else None
        owner = self.owner[region]
        castles = self.castles[region]
        if winner is None:
            change, new_owner, new_castles = "none", owner, castles
        elif winner == owner:
            change, new_owner, new_castles = "keep", owner, castles
        elif castles == 0:
            change, new_owner, new_castles = "build", winner, 1
        else:
            change, new_owner, new_castles = "replace", winner, castles
        ccw, cw = neighbours(self.ring, region)
        take_ccw = new_owner >= 0 and ccw != region and self.owner[ccw] == new_owner
        take_cw = new_owner >= 0 and cw not in (region, ccw) and self.owner[cw] == new_owner
        merged = [r for r, take in ((ccw, take_ccw), (cw, take_cw)) if take]
        members = (
            (self.members[ccw] if take_ccw else ())
            + self.members[region]
            + (self.members[cw] if take_cw else ())
        )
        totals_after = self.castle_totals()
        if new_owner >= 0:
            totals_after[new_owner] += new_castles - (castles if owner == new_owner else 0)
        if owner >= 0 and owner != new_owner:
            totals_after[owner] -= castles
        regions_left = len(self.ring) - len(merged)
        over = (
            max(totals_after) >= self.rules.castle_target(self.num_players)
            or regions_left < self.rules.min_regions
        )
        return Resolution(
            region=region,
            totals=tuple(totals),
            winner=winner,
            change=change,
            owner_before=owner if owner >= 0 else None,
            castles_before=castles,
            owner_after=new_owner if new_owner >= 0 else None,
            castles_after=new_castles,
            merged=tuple(merged),
            members=members,
            castle_totals=tuple(totals_after),
            regions_left=regions_left,
            game_over=over,
        )

    def castle_totals(self) -> list[int]:
        """Castles on the board owned by each player."""
        totals = [0] * self.num_players
        for r in self.ring:
            if self.owner[r] >= 0:
                totals[self.owner[r]] += self.castles[r]
        return totals

    def region_of(self, number: int) -> int:
        """The id of the (possibly merged) region that contains region ``number``."""
        if self.members[number] is not None:
            return number
        for r in self.ring:
            if number in self.members[r]:
                return r
        raise ValueError(f"there is no region {number}")

    def to_position(self) -> Position:
        """This position as a :class:`Position`, to start a new game from it (a puzzle, a
        lesson, a what-if). Possible between set-up and the end, with no joker pending."""
        if self.phase not in _PHASES_BY_HAND or self.joker:
            raise ValueError(
                "a position can be taken between the set-up and the end of the game, "
                "not while a joker waits to be assigned"
            )
        fams = self.rules.families

        def counts(row: Sequence[int]) -> dict[str, int]:
            return {f: c for f, c in zip(fams, row, strict=True) if c}

        return Position(
            knights={r: counts(self.knights[r]) for r in self.ring if any(self.knights[r])},
            merged=tuple(self.members[r] for r in self.ring if len(self.members[r]) > 1),
            castles={r: (self.owner[r], self.castles[r]) for r in self.ring if self.castles[r]},
            emperor=self.emperor,
            courts=tuple(counts(c) for c in self.court),
            reserves=tuple(counts(c) for c in self.reserve),
            control={f: p for f, p in zip(fams, self.control, strict=True) if p >= 0},
            order=tuple(self.order),
            used=tuple(self.used),
            phase=self.phase,
            chosen=tuple(self.chosen),
            turn=self.cursor,
            left=None if self.phase == "disc" else self.left,
            round=self.round,
        )

    def controller(self, family: str) -> int | None:
        """The player controlling ``family``, or None."""
        holder = self.control[self._fam[family]]
        return None if holder < 0 else holder

    def _returns(self) -> list[int]:
        return self.castle_totals()

    # -- views ---------------------------------------------------------------------------------
    def region_data(self, region: int) -> dict[str, Any]:
        """The node attributes of ``region`` in :meth:`graph`."""
        owner = self.owner[region]
        return {
            "members": self.members[region],
            "name": region_name(self.members[region]),
            "knights": dict(zip(self.rules.families, self.knights[region], strict=True)),
            "castles": self.castles[region],
            "owner": owner if owner >= 0 else None,
            "emperor": region == self.emperor,
        }

    def graph(self) -> nx.Graph:
        """The ring as a networkx cycle graph, one node per current (possibly merged) region.

        Node attributes: ``members`` (region numbers, clockwise), ``name``, ``knights``
        ({family: count}), ``castles`` (count), ``owner`` (player or None), ``emperor`` (bool).
        Edges join clockwise neighbours (attribute ``clockwise``). Graph attributes:
        ``clockwise`` (ids in order), ``emperor``, ``courts`` and ``reserves`` (per player
        {family: count}), ``control`` ({family: player or None}), ``castle_totals``,
        ``order``, ``round``, ``phase``. A merge shows as nodes contracting into one.
        """
        fams = self.rules.families
        return ring_graph(
            self.ring,
            {r: self.region_data(r) for r in self.ring},
            emperor=self.emperor,
            courts=[dict(zip(fams, c, strict=True)) for c in self.court],
            reserves=[dict(zip(fams, c, strict=True)) for c in self.reserve],
            control={f: (p if p >= 0 else None) for f, p in zip(fams, self.control, strict=True)},
            castle_totals=self.castle_totals(),
            order=list(self.order),
            round=self.round,
            phase=self.phase,
        )

    def status(self) -> str:
        """One line: the round and what happens next."""
        if self.phase == "board":
            return f"set-up: shuffling knights onto the board (region {self.next_region} next)"
        if self.phase == "reserve":
            extra = ", assigning a joker" if self.joker else ""
            return f"set-up: player {self.drawer} draws the reserve ({self.left} to go{extra})"
        if self.phase == "order":
            return "set-up: drawing the initial playing order"
        if self.phase == "over":
            w = self.winners()
            who = " and ".join(f"player {p}" for p in w)
            return (
                f"game over after round {self.round} ({self.end_reason}): "
                f"{who} {'win' if len(w) > 1 else 'wins'} with {max(self.returns())} castles"
            )
        p = self.acting_player
        head = f"round {self.round}: "
        if self.phase == "disc":
            return head + f"player {p} chooses a disc"
        disc = f" (disc {self.chosen[p]})"
        if self.phase == "deploy":
            return head + f"player {p}{disc} deploys {self.left} more knight(s)"
        if self.phase == "move":
            return head + f"player {p}{disc} moves the emperor"
        extra = ", assigning a joker" if self.joker else ""
        return head + f"player {p} replenishes ({self.left} to draw{extra})"

    def __str__(self) -> str:
        fams = self.rules.families
        width = max(len(f) for f in fams)
        lines = [f"Carolus Magnus, {self.num_players} players. {self.status()}"]
        head = "region".ljust(12) + " ".join(f.rjust(width) for f in fams) + "  castles"
        lines.append(head)
        for r in self.ring:
            name = region_name(self.members[r]) + (" E" if r == self.emperor else "")
            row = name.ljust(12) + " ".join(str(c).rjust(width) for c in self.knights[r])
            if self.castles[r]:
                row += f"  {self.castles[r]} of player {self.owner[r]}"
            lines.append(row)
        lines.append(
            "court".ljust(12)
            + " ".join(f.rjust(width) for f in fams)
            + "  reserve; castles; discs used"
        )
        for p in range(self.num_players):
            cells = []
            for i, c in enumerate(self.court[p]):
                mark = "*" if self.control[i] == p else ""
                cells.append(f"{mark}{c}".rjust(width))
            reserve = (
                " ".join(f"{f[0]}{c}" for f, c in zip(fams, self.reserve[p], strict=True) if c)
                or "empty"
            )
            used = ",".join(map(str, self.used[p])) or "-"
            lines.append(
                f"player {p}".ljust(12)
                + " ".join(cells)
                + f"  {reserve}; {self.castle_totals()[p]}; {used}"
            )
        order = ", ".join(
            f"{p}" + (f" (disc {self.chosen[p]})" if self.chosen[p] else "") for p in self.order
        )
        lines.append(f"order: {order}   (E = emperor, * = controls the family)")
        if self.last is not None:
            lines.append(f"last stop: region {self.last.region}: {self.last.describe()}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from coronas.carolus.display import state_html

        return state_html(self)


# --------------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------------


@register_game
class Game(engine.Game):
    """A Carolus Magnus match: 2 or 3 players, a rule set, a seed, optionally a position.

    >>> Game(players=3).new_initial_state().chance_outcomes()[0]
    (PlaceKnight(region=1, family='red'), Fraction(1, 5))
    """

    name = "carolus"
    state_class = CarolusState
    rules_class = Rules
    action_types = ACTION_TYPES
    min_players = 2
    max_players = 3

    def __init__(
        self,
        players: int | None = None,
        seed: int | None = None,
        rules: Rules | Mapping[str, Any] | str | None = None,
        position: Position | Mapping[str, Any] | None = None,
    ):
        super().__init__(players=players, seed=seed, rules=rules)
        if isinstance(position, Mapping):
            position = Position.from_dict(position)
        if position is not None and not isinstance(position, Position):
            raise ValueError(f"position must be a Position or a dict, got {position!r}")
        self.position: Position | None = position
        # action objects made once: listing legal actions reuses them
        rules: Rules = self.rules
        self._deploy = {
            f: [Deploy(f, None)] + [Deploy(f, r) for r in range(1, rules.regions + 1)]
            for f in rules.families
        }
        counts: dict[str, int] = {}
        for f in rules.draw_faces:
            counts[f] = counts.get(f, 0) + 1
        self._draws = [(Draw(f), Fraction(c, len(rules.draw_faces))) for f, c in counts.items()]
        self._draw_by_face = {d.family: d for d, _ in self._draws}
        if position is not None:  # validate now, with the position's own messages
            CarolusState(self)

    def params(self) -> dict[str, Any]:
        out = super().params()
        if self.position is not None:
            out["position"] = self.position.to_dict()
        return out

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> Game:
        return cls(
            players=params.get("players"),
            seed=params.get("seed"),
            rules=params.get("rules"),
            position=params.get("position"),
        )

    def new_initial_state(self) -> CarolusState:
        return CarolusState(self)
