"""When a Carolus Magnus action is legal, and if not, why.

:class:`StateLegality` is a part of :class:`~coronas.carolus.state.CarolusState`. Each
decision has one rule function (``_r_<action>``) that returns ``None`` when the action is
legal and otherwise the reason, in the game's words; :meth:`StateLegality._reason` picks the
rule for the node at hand (decisions, chance outcomes, the end), so ``apply`` checks one
action without listing every legal one. ``_legal_actions`` lists them directly, and the tests
hold the two to each other.

An action object of the right type with a field of the wrong type (a list for a family, a
float for a region) is refused like any illegal action: the rules look at a field's type
before its value, and the reason shows a field with :func:`shown`, which never fails.
"""

from __future__ import annotations

from typing import Any

from coronas.carolus import actions
from coronas.carolus.actions import player_name
from coronas.carolus.board import region_name, step
from coronas.engine import Action
from coronas.formatting import plural

__all__ = ["StateLegality", "shown", "whole"]

_DOING = {"disc": "choosing a disc", "deploy": "deploying knights", "move": "moving the emperor"}


def whole(x: Any) -> bool:
    """Whether ``x`` is a whole number (an ``int``, not a ``bool``)."""
    return isinstance(x, int) and not isinstance(x, bool)


def _name(x: Any) -> bool:
    return type(x) is str


def shown(x: Any, quote: bool = False) -> str:
    """``str(x)`` (``repr(x)`` with ``quote``) for a message, whatever ``x`` is: an object
    whose ``str`` or ``repr`` fails is shown by its type."""
    try:
        return repr(x) if quote else str(x)
    except Exception:
        return f"<{type(x).__name__} object>"


class StateLegality:
    """The legality of actions and outcomes (a part of ``CarolusState``)."""

    # -- listing -------------------------------------------------------------------------------
    def allowed_discs(self, player: int | None = None) -> list[int]:
        """Discs ``player`` may choose now: unused ones nobody else chose this round if there
        are any, otherwise any unused one (a complete set used comes back whole)."""
        p = self.order[self.cursor] if player is None else player
        discs = self.rules.discs
        free = [d for d in discs if d not in self.used[p]] or list(discs)
        taken = {self.chosen[q] for q in range(self.num_players) if q != p}
        fresh = [d for d in free if d not in taken]
        return fresh or free

    def _legal_actions(self) -> list[Action]:
        if self.joker:
            return [actions.AssignJoker(f) for f in self.rules.families]
        phase = self.phase
        if phase == "disc":
            return [actions.ChooseDisc(d) for d in self.allowed_discs()]
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
            return [
                actions.MoveEmperor(s, ring[(i + s) % n])
                for s in range(1, min(self.chosen[p], n) + 1)
            ]
        return []

    # -- checking one action -------------------------------------------------------------------
    def _reason(self, a: Any) -> str | None:
        """None if ``a`` may be played (or taken as the chance outcome) now, else why not."""
        t = type(a)
        if self.joker:
            if t is actions.AssignJoker:
                return self._r_assign_joker(a)
            return f"{player_name(self.drawer)} must first assign the joker just drawn to a family"
        phase = self.phase
        if phase == "deploy":
            if t is actions.Deploy:
                return self._r_deploy(a)
        elif phase == "move":
            if t is actions.MoveEmperor:
                return self._r_move_emperor(a)
        elif phase == "disc":
            if t is actions.ChooseDisc:
                return self._r_choose_disc(a)
        elif phase == "over":
            return f"the game is over; {shown(a)} cannot be played"
        else:
            return self._r_outcome(a)
        who = player_name(self.order[self.cursor])
        return f"{who} is {_DOING[phase]} now; {shown(a)} is not possible"

    def _why_illegal(self, a: Any) -> str | None:
        return self._reason(a)

    def _no_family(self, family: Any) -> str:
        return (
            f"there is no family {shown(family, quote=True)}; the families are "
            f"{', '.join(self.rules.families)}"
        )

    def _r_assign_joker(self, a: actions.AssignJoker) -> str | None:
        if _name(a.family) and a.family in self._fam:
            return None
        return self._no_family(a.family)

    def _r_choose_disc(self, a: actions.ChooseDisc) -> str | None:
        d = a.disc
        discs = self.rules.discs
        if not whole(d) or d not in discs:
            return f"there is no disc {shown(d)}; the discs are {discs}"
        allowed = self.allowed_discs()
        if d in allowed:
            return None
        p = self.order[self.cursor]
        free = [x for x in discs if x not in self.used[p]]
        if free and d not in free:
            return (
                f"{player_name(p)} has already used disc {d}; the discs left until the set "
                f"is complete are {', '.join(map(str, free))}"
            )
        return (
            f"disc {d} was already chosen this round and {player_name(p)} still has a disc "
            f"nobody chose: {', '.join(map(str, allowed))}"
        )

    def _r_deploy(self, a: actions.Deploy) -> str | None:
        p = self.order[self.cursor]
        f = a.family
        i = self._fam.get(f) if _name(f) else None
        if i is None:
            return self._no_family(f)
        if not self.reserve[p][i]:
            return f"{player_name(p)} has no {f} knight in reserve"
        r = a.region
        if r is None:
            return None
        if whole(r) and 1 <= r <= self.rules.regions:
            if self.members[r] is not None:
                return None
            rid = self.region_of(r)
            return (
                f"region {r} is part of region {region_name(self.members[rid])}; "
                f"deploy there as region {rid}"
            )
        return (
            f"there is no region {shown(r, quote=True)}; the regions are {self.ring} or the court"
        )

    def _r_move_emperor(self, a: actions.MoveEmperor) -> str | None:
        disc = self.chosen[self.order[self.cursor]]
        ring = self.ring
        limit = min(disc, len(ring))
        s = a.steps
        if not whole(s) or not 1 <= s <= limit:
            extra = (
                "" if disc < len(ring) else f" ({len(ring)} is the full circuit back to the start)"
            )
            return (
                f"with disc {disc} the emperor moves 1 to {limit} steps clockwise"
                f"{extra}, not {shown(s)}"
            )
        dest = step(ring, self.emperor, s)
        if whole(a.region) and a.region == dest:
            return None
        return (
            f"{plural(s, 'step')} clockwise from region {self.emperor} lead to region "
            f"{dest}, not region {shown(a.region)}"
        )

    def _r_outcome(self, a: Any) -> str | None:
        """The check of a chance outcome: one of those :meth:`chance_outcomes` lists, with
        fields of the types it lists them with."""
        t = type(a)
        phase = self.phase
        if phase == "board":
            i = self._fam.get(a.family) if t is actions.PlaceKnight and _name(a.family) else None
            ok = (
                i is not None
                and self.bag[i] > 0
                and whole(a.region)
                and a.region == self.next_region
            )
        elif phase == "order":
            ok = (
                t is actions.SetOrder
                and type(a.order) is tuple
                and all(whole(p) for p in a.order)
                and sorted(a.order) == list(range(self.num_players))
            )
        else:
            ok = t is actions.Draw and _name(a.family) and a.family in self.game._draw_by_face
        if ok:
            return None
        allowed = [o for o, _ in self._chance_outcomes()]
        listed = ", ".join(str(o) for o in allowed[:12])
        more = "" if len(allowed) <= 12 else f" and {len(allowed) - 12} more"
        return (
            f"{shown(a)} is not a possible outcome here; the possible outcomes are {listed}{more}"
        )
