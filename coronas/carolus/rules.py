"""The Carolus Magnus rule set: every number of the rulebook (and of its rulings) as data.

The defaults follow ``rules/carolus-magnus.txt`` (2-3 players, 15 regions, knights drawn one
at a time from six equally likely outcomes) and the rulings documented in ``docs/rulings.md``.
A group that plays differently changes a field:

>>> Rules().castle_target(2), Rules().castle_target(3)
(10, 8)
>>> Rules(castle_target_2p=12).castle_target(2)
12
"""

from __future__ import annotations

import dataclasses

from coronas.engine import RulesError, RuleSet
from coronas.engine.rules import bounded
from coronas.formatting import listing

__all__ = ["JOKER", "Rules"]

JOKER = "joker"
"""The draw outcome that its drawer must assign to a family at once."""


@dataclasses.dataclass(frozen=True)
class Rules(RuleSet):
    """Numbers and options of Carolus Magnus.

    Counts that depend on the number of players have a ``_2p`` and a ``_3p`` field; the
    methods :meth:`reserve_size`, :meth:`deploy_count`, :meth:`draw_count` and
    :meth:`castle_target` pick the right one.
    """

    families: tuple[str, ...] = bounded(("red", "yellow", "green", "blue", "pink"), length=(1, 10))
    """The noble families (knight colours)."""
    knights_per_family: int = bounded(3, 1, 20)
    """Knights of each family shuffled onto the board at the start (3 x 5 = 15)."""
    regions: int = bounded(15, 1, 60)
    """Regions around the ring, numbered 1.. clockwise (ruling C1)."""
    emperor_start: int = bounded(1, 1, 60)
    """The region where the emperor starts (ruling C1)."""
    discs: tuple[int, ...] = bounded((1, 2, 3, 4, 5), 1, 60, length=(1, 20))
    """Each player's numbered discs: the turn order and the emperor's longest move."""
    draw_faces: tuple[str, ...] = bounded(
        ("red", "yellow", "green", "blue", "pink", JOKER), length=(1, 60)
    )
    """The equally likely outcomes of one knight draw (a face may repeat to weight it)."""
    reserve_2p: int = bounded(7, 1, 50)
    reserve_3p: int = bounded(9, 1, 50)
    """Knights drawn into each reserve at the start."""
    deploy_2p: int = bounded(3, 1, 50)
    deploy_3p: int = bounded(4, 1, 50)
    """Knights each player deploys per turn (all of the reserve if it holds fewer: C2)."""
    draw_2p: int = bounded(3, 1, 10)
    draw_3p: int = bounded(4, 1, 10)
    """Knights drawn to replenish the reserve at the end of a turn."""
    castle_target_2p: int = bounded(10, 1, 60)
    castle_target_3p: int = bounded(8, 1, 60)
    """Castles that end the game at once."""
    min_regions: int = bounded(4, 1, 60)
    """The game ends when fewer regions than this remain."""

    def __post_init__(self) -> None:
        if len(set(self.families)) != len(self.families) or not self.families:
            raise RulesError(
                f"families must be distinct names, got {listing(self.families, 'and') or 'none'}"
            )
        if JOKER in self.families:
            raise RulesError(f"{JOKER!r} is the joker, not a family name")
        unknown = [f for f in self.draw_faces if f != JOKER and f not in self.families]
        if unknown or not self.draw_faces:
            raise RulesError(
                f"draw_faces must name families or {JOKER!r}; "
                f"unknown: {listing(unknown, 'and') or 'no faces'}"
            )
        if self.knights_per_family * len(self.families) != self.regions:
            raise RulesError(
                f"the board needs one knight per region: knights_per_family "
                f"({self.knights_per_family}) x families ({len(self.families)}) must equal "
                f"regions ({self.regions})"
            )
        if not 1 <= self.emperor_start <= self.regions:
            raise RulesError(f"emperor_start must be a region 1-{self.regions}")
        if (
            not self.discs
            or any(d < 1 for d in self.discs)
            or len(set(self.discs)) != len(self.discs)
        ):
            raise RulesError(
                "discs must be distinct positive numbers, "
                f"got {listing(self.discs, 'and') or 'none'}"
            )
        for name in ("reserve", "deploy", "draw", "castle_target"):
            for n in (2, 3):
                if getattr(self, f"{name}_{n}p") < 1:
                    raise RulesError(f"{name}_{n}p must be at least 1")
        if self.min_regions < 1:
            raise RulesError("min_regions must be at least 1")

    def _pick(self, name: str, players: int) -> int:
        if players not in (2, 3):
            raise ValueError(f"Carolus Magnus is for 2 or 3 players, got {players}")
        return getattr(self, f"{name}_{players}p")

    def reserve_size(self, players: int) -> int:
        """Knights in each starting reserve (7 with two players, 9 with three)."""
        return self._pick("reserve", players)

    def deploy_count(self, players: int) -> int:
        """Knights deployed per turn (3 with two players, 4 with three)."""
        return self._pick("deploy", players)

    def draw_count(self, players: int) -> int:
        """Knights drawn per replenish (3 with two players, 4 with three)."""
        return self._pick("draw", players)

    def castle_target(self, players: int) -> int:
        """Castles that win at once (10 with two players, 8 with three)."""
        return self._pick("castle_target", players)
