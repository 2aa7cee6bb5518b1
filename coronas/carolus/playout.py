"""Fast playouts of Carolus Magnus: a light policy and a hand-set evaluation of a position.

A tree search plays many games to their end (or to a depth) for each decision, so its
playout policy must cost little more than a random choice and still play sensibly.
:class:`LightBot` keeps the greedy player's choices of disc and of the emperor's stop (the
largest castle lead within reach, which a handful of resolutions give) and places knights by
a rule of thumb on the courts instead of trying every placement. :func:`hand_set_evaluate`
scores a position by hand-set weights: the baseline of the value model
(:func:`coronas.carolus.features.evaluate`), which scores a position where a playout is cut.
Nothing is hidden in Carolus Magnus: both read the open position.

>>> import random
>>> from coronas.carolus import Game
>>> from coronas.engine import play
>>> state = play(Game(players=2, seed=5).new_initial_state(), LightBot(), random.Random(5))
>>> sum(hand_set_evaluate(state))
1.0
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from coronas.carolus.actions import AssignJoker, ChooseDisc, Deploy, MoveEmperor
from coronas.engine.evaluation import logistic_shares, win_shares

if TYPE_CHECKING:
    from coronas.carolus.state import CarolusState

__all__ = [
    "COMMON_RANDOM_NUMBERS",
    "COURT",
    "SCALE",
    "SEARCH",
    "SEARCH_CLASSIC",
    "LightBot",
    "court_lead",
    "hand_set_evaluate",
    "parts",
    "settled",
]

COMMON_RANDOM_NUMBERS = False
"""Whether ``rank_actions`` plays every move out on the same seeded games: not here. After two
different placements the bag's draws follow different knights, so games on the same seeds part
sooner than in the other games: at one mid-game position the interval of a difference was no
narrower (``benchmarks/bench_winchances.py``: 0.99 times that of games of their own). At the
held-out decisions the advice is judged at, common seeds are worth 1.32 times the games
(``bench_winchances.py --decisions 24``), but the advice on them picked no better (33 of 50
decisions within 2 points of the reference's best against 35, ``bench_advice.py --common``),
so each move keeps games of its own. Both runs are in docs/performance.md."""

SEARCH = {"c": 0.5, "depth": 0, "prior": True, "simulations": 1500}
"""The search bot's settings in this game (``mcts`` in ``BOTS``): PUCT, the tree focused by
the game's move prior (``prior``: each action's share of ``c`` times the square root of its
parent's visits, over its own visits plus one), the playouts and their cut as in
:data:`SEARCH_CLASSIC` but scored by :func:`~coronas.carolus.features.evaluate` (the value
model), and as many simulations as fit within half a second a decision on one core. How they
were chosen and what they won is in docs/performance.md."""

SEARCH_CLASSIC = {"c": 0.3, "depth": 0, "evaluate": "baseline", "simulations": 1800}
"""The search bot's settings in this game (``mcts-classic`` in ``BOTS``, the plain UCT search
as it was before the value model and the move prior, kept beside :data:`SEARCH`): its cut
playouts scored by :func:`hand_set_evaluate` (``evaluate: "baseline"``), a small exploration
constant, 1800 simulations a decision (about 0.3 s on one core, under half a second at the
longest), and playouts that only finish the turn in hand (depth 0: on to the next
:func:`settled` position, once the emperor has stopped) before the hand-set evaluation scores them.
Every later decision is the tree's, not the light policy's: in 20 games against greedy at
0.4 s a decision the search won 10 with playouts cut that way and 8 with 8 actions more
(court weight 0.3, see :data:`COURT`), and lost 19 or 20 of 20 with playouts of light or
greedy play cut anywhere (a knight just placed in a region counts for nothing until the
emperor gets there)."""

SCALE = 1.5
"""Castles of strength (see :func:`hand_set_evaluate`) that multiply the odds by e."""
COURT = 1.0
"""Castles a knight of lead in a court is worth to :func:`hand_set_evaluate` (at most two counted a
family, either way): measured against the greedy player, 20 games each at 0.4 s a decision, the
search won 10 with 0.3, 13 with 0.6 and 16 with 1.0. Control held by one knight is lost to one
knight; a court lead is castles to come in every region the family stands in."""


def lead(totals: tuple[int, ...] | list[int], p: int) -> int:
    """How far ``p``'s total is ahead of the best rival's (negative when behind)."""
    return totals[p] - max(c for q, c in enumerate(totals) if q != p)


def settled(state: CarolusState) -> bool:
    """Whether a cut playout may be scored here: between two turns, once the emperor has
    stopped and his region is resolved (the evaluations count castles and families, so knights
    just placed in a region count for nothing until he has moved)."""
    return state.phase in ("replenish", "disc", "order", "over")


def parts(state: CarolusState) -> tuple[list[int], list[float], list[int]]:
    """What the hand-set evaluation weighs, per player: castles on the board, castles it
    would hold if the emperor stopped in every region now, and its court margin (knights of
    lead, at most two a family either way)."""
    n = state.num_players
    totals = [0] * n
    projected = [0.0] * n
    control, knights, owner, castles = state.control, state.knights, state.owner, state.castles
    for r in state.ring:
        strength = [0] * n
        for f, count in enumerate(knights[r]):
            if count and control[f] >= 0:
                strength[control[f]] += count
        held = castles[r]
        if owner[r] >= 0:
            totals[owner[r]] += held
            strength[owner[r]] += held
        best = max(strength)
        if best > 0 and strength.count(best) == 1:
            projected[strength.index(best)] += max(held, 1)
        elif owner[r] >= 0:
            projected[owner[r]] += held
    families = range(len(control))
    margin = [sum(max(-2, min(2, court_lead(state, p, f))) for f in families) for p in range(n)]
    return totals, projected, margin


def hand_set_evaluate(state: CarolusState) -> tuple[float, ...]:
    """Each player's estimated chance of winning by hand-set weights, from the open position.

    The winner is who first builds the castle target, or has the most castles when the
    empire shrinks below four regions. A player's strength is the mean of its castles on the
    board and the castles it would hold if the emperor stopped in every region now (a region
    goes to the unique highest total of knights of controlled families plus own castles, with
    its castles, at least one; see :meth:`~coronas.carolus.state.CarolusState.resolution`), so
    knights in the regions and control of the families count before the emperor gets there;
    plus :data:`COURT` castles for each knight of lead in a court (at most two a family,
    either way), since control held by one knight is lost to one knight.
    Strengths become shares by the logistic model of
    :func:`~coronas.engine.evaluation.logistic_shares` with a scale of :data:`SCALE` castles,
    sharper as the leader nears the target (the scale shrinks with the fraction of the target
    still to build). At the end of the game: the exact shares.
    """
    if state.is_terminal():
        return win_shares(state)
    n = state.num_players
    totals, projected, margin = parts(state)
    strengths = [(totals[p] + projected[p]) / 2 + COURT * margin[p] for p in range(n)]
    target = state.rules.castle_target(n)
    left = max(target - max(totals), 1) / target
    return logistic_shares(strengths, SCALE * left + 0.25)  # features.features' "hand_set"


def court_lead(state: CarolusState, p: int, f: int) -> int:
    """The knights of family ``f`` in ``p``'s court less the most any rival court holds
    (positive: ``p`` leads; control changes hands when a rival draws level and passes)."""
    court = state.court
    return court[p][f] - max(c[f] for q, c in enumerate(court) if q != p)


class LightBot:
    """A fast playout policy for Carolus Magnus.

    * disc: the one whose reach holds the largest castle lead over the best rival (resolved
      once per reachable stop), the smallest such disc on a tie;
    * emperor: the stop with the largest castle lead, the nearest on a tie;
    * knights (and jokers): to the own court where one knight takes a family or keeps a
      tied one; else a knight of a family it controls to a region the emperor may reach
      this turn; else to the own court of the family it is closest to taking.

    Ties are broken at random (with the given rng).
    """

    name = "light"

    def choose(self, state: CarolusState, rng: random.Random) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = state.current_player
        first = legal[0]
        if isinstance(first, ChooseDisc):
            leads = _stop_leads(state, p, max(a.disc for a in legal))
            values = [max(leads[: a.disc]) * 10 - 0.1 * a.disc for a in legal]
        elif isinstance(first, MoveEmperor):
            leads = _stop_leads(state, p, len(legal))
            values = [leads[a.steps - 1] * 10 - 0.01 * a.steps for a in legal]
        elif isinstance(first, Deploy | AssignJoker):
            values = _knight_values(state, p, legal, _reach(state, state.chosen[p] or 5))
        else:
            return rng.choice(legal)
        best = max(values)
        top = [a for v, a in zip(values, legal, strict=True) if v == best]
        return top[0] if len(top) == 1 else rng.choice(top)

    def __repr__(self) -> str:
        return "LightBot()"


def _stop_leads(state: CarolusState, p: int, steps: int) -> list[int]:
    """``p``'s castle lead if the emperor stopped 1, 2, ... ``steps`` regions on."""
    ring, here = state.ring, state.emperor
    i, n = ring.index(here), len(ring)
    before = state.castle_totals()
    return [
        lead(state.stop_totals(ring[(i + s) % n], before=before), p)
        for s in range(1, min(steps, n) + 1)
    ]


def _reach(state: CarolusState, disc: int) -> frozenset[int]:
    """The regions the emperor may stop in with ``disc``."""
    ring, here = state.ring, state.emperor
    i, n = ring.index(here), len(ring)
    return frozenset(ring[(i + s) % n] for s in range(1, min(disc, n) + 1))


def _knight_values(
    state: CarolusState, p: int, legal: list[Any], reach: frozenset[int]
) -> list[float]:
    """The rule of thumb of :class:`LightBot` for each of ``legal``, knights (and jokers) of
    ``p``'s: to a region, 1.5 for a family ``p`` controls where the emperor may stop this
    turn (``reach``), else -1; to the own court, by how the family's race stands (worked
    out once a family: it depends on the family alone)."""
    index, control = state._fam, state.control
    court: dict[int, float] = {}
    values = []
    for a in legal:
        f = index[a.family]
        region = getattr(a, "region", None)
        if region is not None:
            values.append(1.5 if control[f] == p and region in reach else -1.0)
            continue
        value = court.get(f)
        if value is None:
            ahead = court_lead(state, p, f)
            held = control[f] == p
            if not held and ahead + 1 > 0:
                value = 3.0  # this knight takes the family
            elif held and ahead <= 0:
                value = 2.5  # this knight keeps a tied family
            else:
                value = 0.5 - 0.1 * abs(ahead + 1)  # nearer to the rival's count is worth more
            court[f] = value
        values.append(value)
    return values
