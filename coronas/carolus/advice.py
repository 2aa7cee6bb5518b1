"""The odds of a Carolus Magnus move: what ``state.odds(action)`` and ``state.odds()`` answer.

The only chance in Carolus Magnus after the board is set up is the knight draw: the set-up
reserves and the replenish that ends every action turn. What a player hopes from a draw is a
family: a court controls a family with more knights than every other court, and a knight gets
to the court only from the reserve. So every aim here is the same, for one family:

    **take or keep control of the family in the player's next deployment**, and keep it
    through the strongest rival's next turn: after the draws still to come (jokers assigned to
    the family), the reserve holds the knights the court needs, at most one turn's deployment.

That is :func:`coronas.carolus.odds.control_chance` with ``rival_gain`` the most one rival could
add from the reserve they hold now (:func:`~coronas.carolus.odds.rival_threat`), the player's
knights counted first (:func:`~coronas.carolus.odds.control_need`). The courts, the control and
the rivals' reserves do not change while one player draws, so the chance is exact. Moves and
the game's end are not part of the aim: it supposes the game goes on to the draw.

The decisions that have odds:

* ``Deploy(family)`` to the court: the chance of the aim for that family after the replenish
  at the end of this turn, the rest of this turn's knights played for it (the family's knights
  left in reserve go to the court too, the others elsewhere: that is never worse for the aim);
* ``AssignJoker(family)``: the chance of the aim for that family after the draws left in this
  replenish (or set-up reserve); ``state.odds()`` at that decision lists every family as a
  choice, best first;
* at a draw (a chance node) ``state.odds()`` gives the drawer's aim: the family with the best
  chance that is not yet certain (the first in the rule set's order among equals), ``roll`` the
  chance this draw goes to it (the family or a joker) and ``success`` the chance of the aim
  with every draw left.

Deploying to a region, choosing a disc and moving the emperor involve no chance: what the stop
does is certain (:func:`~coronas.carolus.odds.emperor_options`), so their odds are None; so are
the set-up's shuffle onto the board and its draw of the playing order, which no player aims.

Player 1 has one red knight in court and one in reserve, player 2 holds red with two: player 1
needs two more in court (three beat two), so one of the three draws must go to red. Each draw
does with 1/3 (red or the joker), and 1 - (2/3)**3 = 19/27:

>>> from coronas.carolus import Game, Position
>>> from coronas.dice import exact_fractions
>>> pos = Position(phase="replenish", chosen=(1, 2), courts=({"red": 1}, {"red": 2}),
...                reserves=({"red": 1}, {}))
>>> state = Game(players=2, position=pos).new_initial_state()
>>> with exact_fractions():
...     odds = state.odds()
>>> odds.success, odds.roll
(Fraction(19, 27), Fraction(1, 3))
>>> print(odds)
player 1 draws a knight (1 of 3): 19/27 (70.37%) to take control of red in the next \
deployment (2 needed, 1 in reserve, 3 draws) (this roll: 1/3 (33.33%))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coronas.carolus.actions import AssignJoker, Deploy
from coronas.carolus.odds import (
    control_chance,
    control_need,
    draw_probability,
    family_draw_distribution,
    rival_threat,
)
from coronas.dice import rational, to_fraction
from coronas.engine.advice import Odds

if TYPE_CHECKING:
    from coronas.carolus.state import CarolusState

__all__ = ["StateAdvice", "aim_family", "control_odds"]

_DRAWING = ("reserve", "replenish")


def control_odds(
    state: CarolusState,
    player: int,
    family: str,
    draws: int,
    subject: str = "",
    asked: CarolusState | None = None,
    first: str = "",
) -> Odds:
    """The chance that ``player`` takes or keeps control of ``family`` in the next deployment
    after ``draws`` more knights (see the module docstring), as an :class:`Odds` whose
    ``detail`` is the distribution of the knights the draws bring to the family
    (:func:`~coronas.carolus.odds.family_draw_distribution`).

    ``asked`` is the position the question is asked in, if ``state`` is a later one (after a
    deployment): "take" or "keep" says whether the player holds the family there; ``first``
    says in words what happens before the draws."""
    rules = state.rules
    i = rules.families.index(family)
    gain = rival_threat(state, player, family)
    need = control_need(state, player, family, rival_gain=gain)
    held = state.reserve[player][i]
    verb = "keep" if (asked or state).control[i] == player else "take"
    against = f" against a rival's {gain} more" if gain else ""
    aim = (
        f"{verb} control of {family} in the next deployment{against} ({first}"
        f"{need} needed, {held} in reserve, {draws} draw{'' if draws == 1 else 's'})"
    )
    return Odds(
        aim=aim,
        success=control_chance(state, player, family, draws=draws, rival_gain=gain),
        subject=subject,
        detail=family_draw_distribution(draws, family, rules),
    )


def aim_family(state: CarolusState, player: int, draws: int) -> str:
    """The family ``player`` draws for: the best chance of the aim that is not yet certain,
    or the best chance if every family is certain (won or out of reach); the first in the
    rule set's order among equals."""
    families = state.rules.families
    chances = [
        to_fraction(control_chance(state, player, f, draws=draws, rival_gain=g))
        for f, g in ((f, rival_threat(state, player, f)) for f in families)
    ]
    open_ = [p for p in chances if p < 1]
    best = max(open_) if open_ else max(chances)
    return families[chances.index(best)]


def _after_deploying(state: CarolusState, family: str) -> CarolusState:
    """A copy of ``state`` with this turn's deployment finished for ``family``: this knight
    and the family's others in reserve to the court, the rest to a region."""
    s = state.clone()
    s.apply(Deploy(family))
    i = s.rules.families.index(family)
    while s.phase == "deploy":
        p = s.order[s.cursor]
        if s.reserve[p][i]:
            s.apply(Deploy(family))
        else:
            other = next(f for f, c in zip(s.rules.families, s.reserve[p], strict=True) if c)
            s.apply(Deploy(other, s.ring[0]))
    return s


class StateAdvice:
    """``_odds``, the engine's hook of :meth:`State.odds` (a part of ``CarolusState``)."""

    def _odds(self, action: Any) -> Odds | None:
        if action is None:
            return self._odds_here()
        if isinstance(action, AssignJoker):
            return self._joker_odds(action)
        if isinstance(action, Deploy) and action.region is None:
            player = self.order[self.cursor]
            after = _after_deploying(self, action.family)
            draws = self.rules.draw_count(self.num_players)
            first = f"the turn's {action.family} knights to the court, then "
            subject = self.describe(action)
            return control_odds(after, player, action.family, draws, subject, self, first)
        return None

    def _joker_odds(self, action: AssignJoker) -> Odds:
        after = self.child(action)
        return control_odds(after, self.drawer, action.family, self.left - 1, self.describe(action))

    def _odds_here(self) -> Odds | None:
        if self.phase not in _DRAWING:
            return None
        p = self.drawer
        if self.joker:
            each = {f: self._joker_odds(AssignJoker(f)) for f in self.rules.families}
            choices = tuple(
                sorted(
                    ((AssignJoker(f), o.success) for f, o in each.items()),
                    key=lambda c: -to_fraction(c[1]),
                )
            )
            return Odds(
                aim="take or keep control of the joker's family in the next deployment",
                success=choices[0][1],
                subject=f"{self.player_name(p)} assigns the joker",
                choices=choices,
                detail=each,
            )
        total = self.rules.draw_count(self.num_players)
        if self.phase == "reserve":
            total = self.rules.reserve_size(self.num_players)
        subject = f"{self.player_name(p)} draws a knight ({total - self.left + 1} of {total})"
        family = aim_family(self, p, self.left)
        odds = control_odds(self, p, family, self.left, subject)
        return Odds(
            aim=odds.aim,
            success=odds.success,
            subject=subject,
            roll=rational(draw_probability(family, self.rules)),
            detail=odds.detail,
        )
