"""Exact odds for Carolus Magnus decisions.

* How many knights of one family a replenish brings (jokers count for any family):
  :func:`knights_for_family`, :func:`family_draw_distribution`,
  :func:`replenish_distribution`, :func:`replenish_table`.
* Where should the emperor stop? :func:`emperor_options` lists every reachable region with
  the winner, the castles built or replaced and the merges that follow.
* The chance of taking or keeping a family after the next replenish: :func:`control_chance`,
  :func:`control_table`, with :func:`rival_threat` for what a rival could add in their next
  turn.

With six equally likely outcomes, one draw can go to a chosen family with probability
2/6 = 1/3 (the family itself or the joker), so three draws give at least one with
probability 1 - (2/3)**3 = 19/27:

>>> knights_for_family(3, 1)
19/27

All probabilities are exact; every function is checked in the tests against the engine's own
game tree (``coronas.engine.exact_distribution``) and a seeded Monte Carlo run.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING

from coronas.bounds import at_most, whole
from coronas.carolus.actions import player_name
from coronas.carolus.board import region_name
from coronas.carolus.rules import JOKER, Rules
from coronas.dice import Die, ProbTable, rational
from coronas.formatting import listing

if TYPE_CHECKING:
    import sympy

    from coronas.carolus.effects import Resolution
    from coronas.carolus.state import CarolusState

__all__ = [
    "EmperorOption",
    "EmperorOptions",
    "control_chance",
    "control_need",
    "control_table",
    "draw_probability",
    "emperor_options",
    "family_draw_distribution",
    "knights_for_family",
    "replenish_distribution",
    "replenish_table",
    "rival_threat",
]


MAX_DRAWS = 1000
"""The most knights :func:`family_draw_distribution` and :func:`knights_for_family` draw."""
MAX_REPLENISH_OUTCOMES = 20_000
"""The most outcomes (count tuples) :func:`replenish_distribution` lists: 15 draws of the six
default kinds have 15,504."""


def _family(rules: Rules, family: str | None) -> str:
    if family is None:
        return rules.families[0]
    if family not in rules.families:
        raise ValueError(
            f"unknown family {family!r}; the families are {listing(rules.families, 'and')}"
        )
    return family


def draw_probability(family: str | None = None, rules: Rules | None = None) -> Fraction:
    """Probability that one draw can go to ``family``: the family itself or a joker.

    >>> draw_probability("red")
    Fraction(1, 3)
    """
    rules = rules or Rules()
    family = _family(rules, family)
    hits = sum(1 for f in rules.draw_faces if f in (family, JOKER))
    return Fraction(hits, len(rules.draw_faces))


def family_draw_distribution(
    draws: int, family: str | None = None, rules: Rules | None = None
) -> Die:
    """Distribution of how many of ``draws`` knights can go to ``family`` (jokers included):
    binomial with the single-draw probability of :func:`draw_probability`.

    ``draws`` is from 0 to :data:`MAX_DRAWS` (1000).

    >>> family_draw_distribution(2)[2]      # (1/3)**2
    Fraction(1, 9)
    """
    whole("draws", draws, 0, MAX_DRAWS)
    p = draw_probability(family, rules)
    return Die.from_pmf(
        {k: math.comb(draws, k) * p**k * (1 - p) ** (draws - k) for k in range(draws + 1)}
    )


def knights_for_family(
    draws: int, at_least: int, family: str | None = None, rules: Rules | None = None
) -> sympy.Rational | Fraction:
    """Probability that at least ``at_least`` of ``draws`` knights can go to one chosen
    family, jokers included (a sympy ``Rational``; a ``Fraction`` under
    :func:`~coronas.dice.exact_fractions`). ``draws`` is from 0 to 1000 and ``at_least``
    from -1000 to 1000.

    >>> knights_for_family(3, 2)           # 3*(1/3)**2*(2/3) + (1/3)**3 = 7/27
    7/27
    """
    whole("at_least", at_least, -MAX_DRAWS, MAX_DRAWS)
    whole("draws", draws, 0, MAX_DRAWS)
    if at_least <= 0:
        return rational(1)
    return rational(family_draw_distribution(draws, family, rules).p_ge(at_least))


def _kinds(rules: Rules) -> tuple[str, ...]:
    return (*rules.families, JOKER)


def replenish_distribution(draws: int, rules: Rules | None = None) -> Die:
    """The full distribution of a replenish by family: outcomes are tuples of counts, one
    per family in ``rules.families`` order and then the jokers (multinomial). The outcomes
    are at most :data:`MAX_REPLENISH_OUTCOMES` (15 draws of the default six kinds); beyond
    that a ValueError.

    >>> d = replenish_distribution(2)
    >>> d[(2, 0, 0, 0, 0, 0)], d[(1, 0, 0, 0, 0, 1)]   # 1/36 and 2 orders * 1/36
    (Fraction(1, 36), Fraction(1, 18))
    """
    rules = rules or Rules()
    kinds = _kinds(rules)
    whole("draws", draws, 0, MAX_DRAWS)
    at_most(
        f"the number of outcomes of {draws} draws of {len(kinds)} kinds",
        math.comb(draws + len(kinds) - 1, len(kinds) - 1),
        MAX_REPLENISH_OUTCOMES,
    )
    faces = rules.draw_faces
    p = [Fraction(sum(1 for f in faces if f == k), len(faces)) for k in kinds]
    pmf: dict[tuple[int, ...], Fraction] = {}

    def rec(i: int, left: int, counts: list[int], prob: Fraction, ways: int) -> None:
        if i == len(kinds) - 1:
            c = (*counts, left)
            pmf[c] = pmf.get(c, Fraction(0)) + ways * prob * p[i] ** left
            return
        for k in range(left + 1):
            if p[i] == 0 and k:
                break
            rec(i + 1, left - k, [*counts, k], prob * p[i] ** k, ways * math.comb(left, k))

    rec(0, draws, [], Fraction(1), 1)
    return Die.from_pmf({k: v for k, v in pmf.items() if v})


def replenish_table(draws: int, rules: Rules | None = None) -> ProbTable:
    """:func:`replenish_distribution` as a readable table ("2 red, 1 joker"), most likely
    first."""
    rules = rules or Rules()
    kinds = _kinds(rules)
    rows = []
    for counts, p in replenish_distribution(draws, rules).items():
        label = ", ".join(f"{c} {k}" for k, c in zip(kinds, counts, strict=True) if c)
        rows.append((label, p))
    rows.sort(key=lambda r: (-r[1], r[0]))
    return ProbTable(rows, header=(f"{draws} knights drawn", "P"))


# --------------------------------------------------------------------------------------------
# Where should the emperor stop?
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class EmperorOption:
    """One reachable stop: how many steps, which region, and what would happen there."""

    steps: int
    region: int
    name: str
    resolution: Resolution

    @property
    def winner(self) -> int | None:
        return self.resolution.winner

    @property
    def castle_totals(self) -> tuple[int, ...]:
        return self.resolution.castle_totals


class EmperorOptions:
    """The table of :func:`emperor_options`: one :class:`EmperorOption` per reachable stop.

    Iterate over it, index it, print it, or show it in Jupyter (``_repr_html_``).
    """

    def __init__(self, player: int, disc: int, here: str, options: list[EmperorOption]):
        self.player = player
        self.disc = disc
        self.here = here
        self.options = options

    def __iter__(self) -> Iterator[EmperorOption]:
        return iter(self.options)

    def __len__(self) -> int:
        return len(self.options)

    def __getitem__(self, i: int) -> EmperorOption:
        return self.options[i]

    def best(self, player: int | None = None) -> EmperorOption:
        """The stop that leaves ``player`` (default: the mover) the largest castle lead over
        the best rival; fewest steps among equals."""
        p = self.player if player is None else player

        def lead(o: EmperorOption) -> int:
            t = o.castle_totals
            return t[p] - max(c for q, c in enumerate(t) if q != p)

        return max(self.options, key=lambda o: (lead(o), -o.steps))

    def rows(self) -> list[tuple[str, ...]]:
        out = []
        for o in self.options:
            r = o.resolution
            out.append(
                (
                    str(o.steps),
                    o.name,
                    " / ".join(str(t) for t in r.totals),
                    "-" if r.winner is None else player_name(r.winner),
                    r.describe(),
                    " / ".join(str(t) for t in r.castle_totals),
                )
            )
        return out

    HEADER = ("steps", "region", "strength", "winner", "what happens", "castles after")

    def __str__(self) -> str:
        body = [self.HEADER, *self.rows()]
        widths = [max(len(r[i]) for r in body) for i in range(len(self.HEADER))]
        lines = [
            f"{player_name(self.player)}, disc {self.disc}, emperor in region {self.here} "
            f"(strength and castles listed player 1 / 2 / ...)"
        ]
        lines += [
            "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in body
        ]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{escape(h)}</th>" for h in self.HEADER)
        best = self.best() if self.options else None
        rows = []
        for o, r in zip(self.options, self.rows(), strict=True):
            style = " style='background:#fff3c4'" if o is best else ""
            rows.append(f"<tr{style}>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>")
        return (
            f"<div><b>Where should the emperor stop?</b> {player_name(self.player)}, disc "
            f"{self.disc}, emperor in region {escape(self.here)}. Strength and castles are "
            f"listed player 1 / 2 / ...; the highlighted row is best for the mover.</div>"
            f"<table><tr>{head}</tr>{''.join(rows)}</table>"
        )


def emperor_options(state: CarolusState, disc: int | None = None) -> EmperorOptions:
    """Every region the emperor can reach with ``disc`` (default: the acting player's disc
    this round), with who would win it, castles built or replaced and the merges that
    follow. Exact and deterministic: nothing is random once the emperor stops.

    Meant for the move (or the deploy) step: knights already deployed count; the state is
    not changed.
    """
    player = state.acting_player
    if player is None or state.phase == "over":
        raise ValueError("the emperor moves during a player's action turn; no one is acting")
    if disc is None:
        disc = state.chosen[player]
        if not disc:
            raise ValueError(f"player {player} has not chosen a disc yet; pass disc=")
    ring, here = state.ring, state.emperor
    options = []
    for s in range(1, min(disc, len(ring)) + 1):
        dest = ring[(ring.index(here) + s) % len(ring)]
        options.append(
            EmperorOption(s, dest, region_name(state.members[dest]), state.resolution(dest))
        )
    return EmperorOptions(player, disc, region_name(state.members[here]), options)


# --------------------------------------------------------------------------------------------
# Family control after the next replenish
# --------------------------------------------------------------------------------------------


def control_need(
    state: CarolusState,
    player: int,
    family: str,
    rival_gain: int = 0,
    rival_first: bool = False,
) -> int:
    """Knights of ``family`` the player must add to the court to hold control of it after
    the strongest rival court has grown by ``rival_gain`` knights.

    A court controls a family with more knights than every other court; at a tie the
    existing controller keeps control, and control changes as each knight arrives. So the
    order of the two deployments matters. By default the player deploys first and the rival
    adds ``rival_gain`` afterwards (the rival's next turn): a player who takes control (more
    than the rival now) keeps it on a later tie. With ``rival_first`` the rival's knights come
    first: a holder overtaken by them, like anyone else, then needs strictly more.

    Player 1 has 1 red knight, player 2 holds red with 2 and could add 1: player 1 needs 2
    (3 against 2 takes red, and the rival's 3 only ties), or 3 if the rival deploys first.
    """
    i = state.rules.families.index(family)
    own = state.court[player][i]
    rival = max(c[i] for q, c in enumerate(state.court) if q != player)
    holder = state.control[i] == player
    if rival_first:
        rival += rival_gain
        if holder and own >= rival:  # the rival only ties: the holder keeps control
            return 0
        return max(0, rival + 1 - own)
    # the player deploys first: hold control after it (the holder on a tie, anyone else
    # with more), then keep it against the rival's knights (a tie keeps it)
    now = rival if holder else rival + 1
    return max(0, now - own, rival + rival_gain - own)


def rival_threat(state: CarolusState, player: int, family: str) -> int:
    """The most knights of ``family`` one rival could add to their court in one deployment
    from the reserve they hold now (at most the rule's deploy count). Pass it as
    ``rival_gain`` to ask whether control survives the rival's next turn.
    """
    rules: Rules = state.rules
    i = rules.families.index(family)
    per_turn = rules.deploy_count(state.num_players)
    return max(min(per_turn, r[i]) for q, r in enumerate(state.reserve) if q != player)


def control_chance(
    state: CarolusState,
    player: int,
    family: str,
    draws: int | None = None,
    rival_gain: int = 0,
    rival_first: bool = False,
) -> sympy.Rational | Fraction:
    """The chance that after the player's next replenish (``draws`` knights, by default the
    rule set's count) their reserve lets them take or keep control of ``family`` in their
    next deployment: the knights needed (:func:`control_need`, with ``rival_gain`` and
    ``rival_first`` as there) are at most one turn's deployment and the reserve holds that
    many, jokers assigned to the family.

    The reserve is taken as it is now, so ask after deploying (at the replenish).
    """
    return rational(_control_chance(state, player, family, draws, rival_gain, rival_first))


def _control_chance(
    state: CarolusState,
    player: int,
    family: str,
    draws: int | None,
    rival_gain: int,
    rival_first: bool,
) -> Fraction:
    rules: Rules = state.rules
    n = state.num_players
    draws = rules.draw_count(n) if draws is None else whole("draws", draws, 0, MAX_DRAWS)
    need = control_need(state, player, family, rival_gain, rival_first)
    if need > rules.deploy_count(n):
        return Fraction(0)
    have = state.reserve[player][rules.families.index(family)]
    return family_draw_distribution(draws, family, rules).p_ge(need - have)


def control_table(
    state: CarolusState,
    player: int,
    draws: int | None = None,
    rival_gain: int = 0,
    rival_first: bool = False,
) -> ProbTable:
    """:func:`control_chance` for every family, with the knights needed and held."""
    rows = []
    for i, f in enumerate(state.rules.families):
        need = control_need(state, player, f, rival_gain, rival_first)
        p = _control_chance(state, player, f, draws, rival_gain, rival_first)
        status = "holds" if state.control[i] == player else "takes"
        rows.append((f, status, need, state.reserve[player][i], p))
    return ProbTable(rows, header=("family", "status", "needs", "in reserve", "P"))
