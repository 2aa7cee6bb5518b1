"""What a Carolus Magnus action does: deployments, draws, discs, the emperor's stop.

:class:`StateEffects` is a part of :class:`~coronas.carolus.state.CarolusState`: one handler
per action type (:data:`EFFECTS`), called once the action has been checked, and the pure
queries that say what a stop of the emperor would do (:meth:`StateEffects.resolution`).
:func:`family_controller` is the rule of family control on its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from coronas.carolus import actions
from coronas.carolus.actions import player_name
from coronas.carolus.board import neighbours, region_name
from coronas.carolus.rules import JOKER
from coronas.formatting import plural

__all__ = ["EFFECTS", "NOBODY", "Resolution", "StateEffects", "family_controller"]

NOBODY = -1
"""Owner / controller value for "no player"."""


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
            text = f"{player_name(self.winner)} builds a castle"
        elif self.change == "replace":
            text = (
                f"{player_name(self.winner)} replaces {plural(self.castles_before, 'castle')} "
                f"of {player_name(self.owner_before)}"
            )
        elif self.change == "keep":
            text = f"{player_name(self.winner)} keeps control"
        else:
            text = "no change (no unique highest total)"
        if self.merged:
            text += "; merges with " + " and ".join(f"region {m}" for m in self.merged)
            text += f" into {region_name(self.members)}"
        if self.game_over:
            text += "; the game ends"
        return text


def _bump(counts: tuple[int, ...], i: int, by: int) -> tuple[int, ...]:
    """``counts`` with entry ``i`` changed by ``by`` (counts are immutable tuples)."""
    out = list(counts)
    out[i] += by
    return tuple(out)


class StateEffects:
    """The effects of actions and outcomes (a part of ``CarolusState``)."""

    # -- one handler per action type -----------------------------------------------------------
    def _do_deploy(self, a: actions.Deploy) -> None:
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

    def _do_draw(self, a: actions.Draw) -> None:
        if a.family == JOKER:
            self.joker = True
        else:
            self._receive(a.family)

    def _do_assign_joker(self, a: actions.AssignJoker) -> None:
        self.joker = False
        self._receive(a.family)

    def _do_move_emperor(self, a: actions.MoveEmperor) -> None:
        self._move(a.region)

    def _do_choose_disc(self, a: actions.ChooseDisc) -> None:
        p = self.order[self.cursor]
        self.chosen[p] = a.disc
        used = (*self.used[p], a.disc)
        # after the whole set has been used it is available again
        self.used[p] = () if len(used) >= len(self.rules.discs) else used
        self.cursor += 1
        if self.cursor == self.num_players:
            chosen = self.chosen
            # lowest disc first; equal discs keep the previous round's relative order
            self.order = sorted(self.order, key=lambda q: chosen[q])
            self.cursor = 0
            self._start_turn()

    def _do_place_knight(self, a: actions.PlaceKnight) -> None:
        i = self._fam[a.family]
        self.knights[a.region] = _bump(self.knights[a.region], i, 1)
        self.bag[i] -= 1
        self.next_region += 1
        if self.next_region > self.rules.regions:
            self.phase = "reserve"
            self.drawer = 0
            self.left = self.rules.reserve_size(self.num_players)

    def _do_set_order(self, a: actions.SetOrder) -> None:
        self.order = list(a.order)
        self._new_round()

    # -- the steps of a round ------------------------------------------------------------------
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

    # -- the rules of control, as pure queries -------------------------------------------------
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
        change, new_owner, new_castles, totals_after = self._stop(
            region, totals, self.castle_totals()
        )
        winner = None if change == "none" else new_owner
        owner = self.owner[region]
        castles = self.castles[region]
        ccw, cw = neighbours(self.ring, region)
        take_ccw = new_owner >= 0 and ccw != region and self.owner[ccw] == new_owner
        take_cw = new_owner >= 0 and cw not in (region, ccw) and self.owner[cw] == new_owner
        merged = [r for r, take in ((ccw, take_ccw), (cw, take_cw)) if take]
        members = (
            (self.members[ccw] if take_ccw else ())
            + self.members[region]
            + (self.members[cw] if take_cw else ())
        )
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

    def stop_totals(
        self,
        region: int,
        totals: Sequence[int] | None = None,
        before: Sequence[int] | None = None,
    ) -> list[int]:
        """Castles on the board each player would own after a stop in ``region`` (a merger
        changes no count), where the players' totals are ``totals`` (default: as they stand,
        :meth:`strengths`) and the castles ``before`` (default: :meth:`castle_totals`): a
        what-if, such as one more knight there, without building a :class:`Resolution`."""
        if totals is None:
            totals = self.strengths(region)
        after = self.castle_totals() if before is None else list(before)
        return self._stop(region, totals, after)[3]

    def _stop(
        self, region: int, totals: Sequence[int], after: list[int]
    ) -> tuple[str, int, int, list[int]]:
        """What a stop in ``region`` does where the players' totals are ``totals``: the
        change (see :class:`Resolution`), the owner and the castles of the region after it,
        and ``after``, the castles each player owns, changed in place to what they own after
        it. A unique highest total above zero wins; at a tie nothing changes."""
        owner, castles = self.owner[region], self.castles[region]
        best = max(totals)
        if best <= 0 or totals.count(best) > 1:
            return "none", owner, castles, after
        winner = totals.index(best)
        if winner == owner:
            return "keep", owner, castles, after
        after[winner] += castles or 1
        if owner >= 0:
            after[owner] -= castles
        return ("replace", winner, castles, after) if castles else ("build", winner, 1, after)

    def castle_totals(self) -> list[int]:
        """Castles on the board owned by each player."""
        totals = [0] * self.num_players
        for r in self.ring:
            if self.owner[r] >= 0:
                totals[self.owner[r]] += self.castles[r]
        return totals


EFFECTS: dict[type, Callable[[Any, Any], None]] = {
    actions.Deploy: StateEffects._do_deploy,
    actions.Draw: StateEffects._do_draw,
    actions.AssignJoker: StateEffects._do_assign_joker,
    actions.MoveEmperor: StateEffects._do_move_emperor,
    actions.ChooseDisc: StateEffects._do_choose_disc,
    actions.PlaceKnight: StateEffects._do_place_knight,
    actions.SetOrder: StateEffects._do_set_order,
}
"""The handler of each action type: ``EFFECTS[type(a)](state, a)`` plays a checked action."""
