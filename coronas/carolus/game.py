"""The Carolus Magnus match: players, seed, rule set, and positions set up by hand.

>>> game = Game(players=2, position=Position(phase="disc", reserves=({"red": 2}, {"blue": 1})))
>>> state = game.new_initial_state()
>>> state.current_player, [str(a) for a in state.legal_actions()][:2]
(0, ['choose disc 1', 'choose disc 2'])

A :class:`Position` lists what is on the table; :func:`set_position` checks it field by field
and puts it into a new state, :func:`position_of` reads one back from a state. The state class
is imported when a first state is made: :mod:`coronas.carolus.state` imports this module, and
importing it is what registers the game with the engine.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from coronas import engine
from coronas.carolus.actions import ACTION_TYPES, Deploy, Draw
from coronas.carolus.effects import NOBODY, family_controller
from coronas.carolus.legality import whole
from coronas.carolus.rules import Rules
from coronas.engine import register_game
from coronas.engine.game import lazy_state_class
from coronas.engine.schema import short
from coronas.formatting import listing

if TYPE_CHECKING:
    from coronas.carolus.state import CarolusState

__all__ = ["Game", "Position", "position_of", "set_position"]

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
            raise ValueError(f"position: unknown field(s) {listing(sorted(unknown), 'and')}")
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


def set_position(state: CarolusState, pos: Position) -> None:
    """Replace the set-up of ``state`` by a position given by hand, checking every field:
    a wrong one is a ``ValueError`` that names it and says what was expected."""
    rules: Rules = state.rules
    n, nr = state.num_players, rules.regions

    def fam(name: Any, where: str) -> int:
        if name not in state._fam:
            raise ValueError(
                f"position: {where}: unknown family {name!r}; "
                f"the families are {listing(rules.families, 'and')}"
            )
        return state._fam[name]

    def counts(spec: Mapping[str, int], where: str) -> list[int]:
        out = [0] * len(rules.families)
        for f, c in dict(spec).items():
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= MAX_COUNT:
                raise ValueError(
                    f"position: {where}: count of {f} must be a whole number from 0 to "
                    f"{MAX_COUNT}, got {short(c)}"
                )
            out[fam(f, where)] += c
        return out

    def per_player(seq: Sequence[Any], name: str, default: Any) -> list[Any]:
        if not seq:
            return [default() for _ in range(n)]
        if len(seq) != n:
            raise ValueError(f"position: {name} needs one entry per player ({n}), got {len(seq)}")
        return list(seq)

    state.bag = [0] * len(rules.families)
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
            state.members[r] = None
            knights[r] = None
        state.members[rid] = arc
        knights[rid] = [0] * len(rules.families)
    state.ring = [r for r in range(1, nr + 1) if state.members[r] is not None]
    for r, spec in pos.knights.items():
        rid = _region_id(state, r, "knights")
        for i, c in enumerate(counts(spec, f"knights of region {r}")):
            knights[rid][i] += c
    state.knights = [None if k is None else tuple(k) for k in knights]
    for r, oc in pos.castles.items():
        rid = _region_id(state, r, "castles")
        if len(tuple(oc)) != 2:
            raise ValueError(f"position: castles of region {r} must be (owner, count)")
        o, c = oc
        if not (whole(o) and 0 <= o < n) or not whole(c) or not 0 <= c <= MAX_COUNT:
            raise ValueError(
                f"position: castles of region {r}: owner must be a player "
                f"0-{n - 1} and count >= 0, got {oc!r}"
            )
        state.owner[rid], state.castles[rid] = (o, c) if c > 0 else (NOBODY, 0)
    state.emperor = _region_id(state, pos.emperor, "emperor")
    state.court = [
        tuple(counts(c, f"court of player {p}"))
        for p, c in enumerate(per_player(pos.courts, "courts", dict))
    ]
    state.reserve = [
        tuple(counts(c, f"reserve of player {p}"))
        for p, c in enumerate(per_player(pos.reserves, "reserves", dict))
    ]
    for i in range(len(rules.families)):
        state.control[i] = family_controller([c[i] for c in state.court])
    for f, p in pos.control.items():
        i = fam(f, "control")
        counts_f = [c[i] for c in state.court]
        if not (whole(p) and 0 <= p < n) or counts_f[p] < max(counts_f) or not counts_f[p]:
            raise ValueError(
                f"position: control of {f}: player {p} cannot hold it with "
                f"courts {counts_f} (a holder has at least as many as "
                f"every other court)"
            )
        state.control[i] = p
    state.drawn = [sum(state.court[p]) + sum(state.reserve[p]) for p in range(n)]
    state.order = list(pos.order) if pos.order else list(range(n))
    if sorted(state.order) != list(range(n)):
        raise ValueError(f"position: order must list each player 0-{n - 1} once")
    state.used = [tuple(u) for u in per_player(pos.used, "used", tuple)]
    for p, u in enumerate(state.used):
        if any(d not in rules.discs for d in u) or len(set(u)) != len(u):
            raise ValueError(
                f"position: used discs of player {p} must be distinct discs "
                f"from {rules.discs}, got {u}"
            )
    if pos.phase not in _PHASES_BY_HAND:
        raise ValueError(
            f"position: phase must be one of {listing(_PHASES_BY_HAND)}, got {pos.phase!r}"
        )
    if not whole(pos.turn) or not 0 <= pos.turn < n:
        raise ValueError(f"position: turn must be an index into the order (0-{n - 1})")
    if not whole(pos.round) or not 1 <= pos.round <= MAX_ROUND:
        raise ValueError(f"position: round must be a whole number from 1 to {MAX_ROUND}")
    state.round = pos.round
    state.cursor = pos.turn
    state.phase = pos.phase
    if pos.phase == "disc":
        state.chosen = [0] * n
        for p in state.order[: pos.turn]:
            state.chosen[p] = (list(pos.chosen) or [0] * n)[p]
        if any(state.chosen[p] not in rules.discs for p in state.order[: pos.turn]):
            raise ValueError("position: chosen must give the discs of players who chose")
        return
    state.chosen = list(pos.chosen)
    if len(state.chosen) != n or any(d not in rules.discs for d in state.chosen):
        raise ValueError(
            f"position: phase {pos.phase!r} needs chosen: one disc of "
            f"{listing(rules.discs)} per player"
        )
    p = state.order[state.cursor]
    full = {
        "deploy": min(rules.deploy_count(n), sum(state.reserve[p])),
        "move": 0,
        "replenish": rules.draw_count(n),
    }[pos.phase]
    state.left = full if pos.left is None else pos.left
    state.drawer = p
    if pos.phase == "replenish" and (not whole(state.left) or not 1 <= state.left <= full):
        raise ValueError(
            f"position: left must be 1 or more knights to draw (at most {full}), "
            f"got {short(state.left)}"
        )
    if pos.phase == "deploy" and not 0 < state.left <= sum(state.reserve[p]):
        raise ValueError(
            f"position: player {p} cannot deploy {state.left} knights "
            f"from a reserve of {sum(state.reserve[p])}"
        )


MAX_COUNT = 1000
"""The most knights of one family, or castles, one entry of a hand-set position may hold."""
MAX_ROUND = 100_000
"""The highest round number a hand-set position may show."""


def _region_id(state: CarolusState, r: Any, where: str) -> int:
    nr = state.rules.regions
    if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= nr:
        raise ValueError(f"position: {where}: there is no region {r!r} (regions 1-{nr})")
    return state.region_of(r)


def position_of(state: CarolusState) -> Position:
    """The position of ``state`` as a :class:`Position` (what ``state.to_position()`` gives)."""
    if state.phase not in _PHASES_BY_HAND or state.joker:
        raise ValueError(
            "a position can be taken between the set-up and the end of the game, "
            "not while a joker waits to be assigned"
        )
    fams = state.rules.families

    def counts(row: Sequence[int]) -> dict[str, int]:
        return {f: c for f, c in zip(fams, row, strict=True) if c}

    return Position(
        knights={r: counts(state.knights[r]) for r in state.ring if any(state.knights[r])},
        merged=tuple(state.members[r] for r in state.ring if len(state.members[r]) > 1),
        castles={r: (state.owner[r], state.castles[r]) for r in state.ring if state.castles[r]},
        emperor=state.emperor,
        courts=tuple(counts(c) for c in state.court),
        reserves=tuple(counts(c) for c in state.reserve),
        control={f: p for f, p in zip(fams, state.control, strict=True) if p >= 0},
        order=tuple(state.order),
        used=tuple(state.used),
        phase=state.phase,
        chosen=tuple(state.chosen),
        turn=state.cursor,
        left=None if state.phase == "disc" else state.left,
        round=state.round,
    )


@register_game
class Game(engine.Game):
    """A Carolus Magnus match: 2 or 3 players, a rule set, a seed, optionally a position.

    >>> Game(players=3).new_initial_state().chance_outcomes()[0]
    (PlaceKnight(region=1, family='red'), Fraction(1, 5))
    """

    name = "carolus"
    score_name = return_name = "castles"
    state_class = lazy_state_class("coronas.carolus.state", "CarolusState")
    rules_class = Rules
    action_types = ACTION_TYPES
    min_players = 2
    max_players = 3
    extra_params = ("position",)

    @classmethod
    def declare(cls) -> Any:
        """Carolus's plug-in surface: its bots, the light playout, the fitted evaluation
        scored where no draw is pending, moves compared on games of their own, and rankings
        that play out the value model's five best moves, halved (within 2 points of a
        reference's best at 43 of 50 fresh held-out decisions, against 42 for the learned
        player's likeliest)."""
        from coronas.carolus import bots, features, playout
        from coronas.engine.surface import GameSpec
        from coronas.manygames.judgement import EVERY_MOVE

        return GameSpec(
            bots=bots.BOTS,
            playout=playout.LightBot(),
            evaluate=features.evaluate,
            settled=playout.settled,
            search=playout.SEARCH,
            common_random_numbers=playout.COMMON_RANDOM_NUMBERS,
            learning=features.LEARNING,
            drawing=(_drawing, {}),
            ranking={**EVERY_MOVE, "quick_kept": 5},  # the value model's five best, halved
        )

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
            self.new_initial_state()

    def params(self) -> dict[str, Any]:
        out = super().params()
        if self.position is not None:
            out["position"] = self.position.to_dict()
        return out

    def new_initial_state(self) -> CarolusState:
        """The start of the match: the set-up's first shuffle, or the position given."""
        return self.state_class(self)


def _drawing() -> Any:
    from coronas.plotting.carolus import draw_ring

    return draw_ring
