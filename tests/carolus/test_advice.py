"""``state.odds``: the chance a draw, a joker or a knight for the court wins a family.

By hand in small positions, against the command line's 19/27, and against the engine's own
game tree in positions reached by seeded random play.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
import sympy

from coronas.carolus import AssignJoker, ChooseDisc, Deploy, Draw, Game, MoveEmperor
from coronas.carolus.advice import aim_family
from coronas.carolus.odds import control_need, rival_threat
from coronas.cli import main
from coronas.dice import Die, exact_fractions
from coronas.engine import IllegalAction, exact_distribution
from tests.carolus.conftest import make


def replenish(**fields):
    fields.setdefault("chosen", (1, 2))
    return make(phase="replenish", **fields)


# -- by hand --------------------------------------------------------------------------------


def test_a_draw_matches_the_command_line_19_27(capsys):
    # `coronas odds carolus-draws 3 --at-least 1`: 1 - (2/3)**3 = 19/27
    assert main(["odds", "carolus-draws", "3", "--at-least", "1"]) == 0
    assert "P: 19/27 (70.37%)" in capsys.readouterr().out
    # the matching position: player 0 has 1 red in court and 1 in reserve, player 1 holds red
    # with 2 and has no reserve to answer with; 3 red in court beat 2, so player 0 needs 2
    # more, 1 more than the reserve: at least 1 of the 3 draws must be red or a joker
    state = replenish(courts=({"red": 1}, {"red": 2}), reserves=({"red": 1}, {}))
    odds = state.odds()
    assert isinstance(odds.success, sympy.Rational) and odds.success == sympy.Rational(19, 27)
    assert odds.roll == sympy.Rational(1, 3)  # red or the joker: 2 of 6 faces
    assert "take control of red" in odds.aim and "2 needed, 1 in reserve" in odds.aim
    assert odds.subject == "player 1 draws a knight (1 of 3)"
    assert isinstance(odds.detail, Die) and odds.detail.p_ge(1) == F(19, 27)
    with exact_fractions():
        assert state.odds().success == F(19, 27) and type(state.odds().success) is F
    # the second draw, after a green one: 2 draws left, 1 - (2/3)**2 = 5/9
    state.apply(Draw("green"))
    assert state.odds().success == sympy.Rational(5, 9)
    assert state.odds().subject == "player 1 draws a knight (2 of 3)"


def test_a_rival_who_could_answer_raises_the_need():
    # player 1 holds red 2-1 and could add 2 more red from the reserve: player 0 needs 3
    # knights (3 + 2 - 1: 4 against the rival's 4 keeps red once taken), none in reserve,
    # so all 3 draws: (1/3)**3 = 1/27. Yellow is certain (1 in reserve is all it needs);
    # green needs 1 (the rival's 1 green only ties): 19/27, the best chance not yet certain
    state = replenish(
        courts=({"red": 1}, {"red": 2}),
        reserves=({"yellow": 1}, {"red": 2, "green": 1, "blue": 1}),
    )
    assert rival_threat(state, 0, "red") == 2 and rival_threat(state, 0, "green") == 1
    assert aim_family(state, 0, 3) == "green"
    odds = state.odds()
    assert odds.success == sympy.Rational(19, 27) and "control of green" in odds.aim
    assert "against a rival's 1 more" in odds.aim
    # a joker: red then needs 2 more of 2 draws, (1/3)**2 = 1/9; every other family is certain
    state.apply(Draw("joker"))
    choice = state.odds()
    got = {a.family: p for a, p in choice.choices}
    assert got == {"red": F(1, 9), "yellow": 1, "green": 1, "blue": 1, "pink": 1}
    assert [a.family for a, _ in choice.choices] == ["yellow", "green", "blue", "pink", "red"]
    assert choice.best == AssignJoker("yellow") and choice.success == 1
    assert state.odds(AssignJoker("red")).success == sympy.Rational(1, 9)
    assert state.odds(AssignJoker("red")).subject == "the joker becomes a red knight"


def test_a_knight_for_the_court():
    # player 0 deploys 1 red to the court: 2 against player 1's 2, who keeps red on the tie;
    # the other two knights are blue (not red) and go elsewhere. Then 3 red beat 2: 1 more
    # red in court, none in reserve, so 1 of the 3 draws of the replenish: 19/27
    state = make(
        phase="deploy",
        chosen=(1, 2),
        courts=({"red": 1}, {"red": 2}),
        reserves=({"red": 1, "blue": 2}, {}),
    )
    odds = state.odds(Deploy("red"))
    assert odds.success == sympy.Rational(19, 27) and odds.subject == str(Deploy("red"))
    # two red in reserve: both go to the court this turn (3 against 2 takes red): certain
    rich = make(
        phase="deploy", chosen=(1, 2), courts=({"red": 1}, {"red": 2}), reserves=({"red": 2}, {})
    )
    assert rich.odds(Deploy("red")).success == 1 and "take control" in rich.odds(Deploy("red")).aim
    # a knight for a region, a disc and the emperor's move roll nothing
    assert state.odds(Deploy("red", 3)) is None
    assert make(phase="disc").odds(ChooseDisc(2)) is None
    moving = make(phase="move", chosen=(1, 2))
    assert moving.odds(MoveEmperor(1, 2)) is None and moving.odds() is None
    assert state.odds() is None
    # the set-up's shuffle onto the board has no aim
    assert Game(players=2).new_initial_state().odds() is None
    with pytest.raises(IllegalAction):
        state.odds(Deploy("green"))  # no green knight in reserve


# -- against the engine's tree --------------------------------------------------------------


def drawing_by(p):
    return lambda s: s.phase in ("reserve", "replenish") and s.drawer == p


def controls(p, family, need):
    """The aim at the end of the draws: the reserve holds what the court needs, at most one
    turn's deployment (``need`` from the position where the draws began: courts, control and
    the rivals' reserves do not change while ``p`` draws)."""

    def result(s):
        f = s.rules.families.index(family)
        return need <= s.rules.deploy_count(s.num_players) and s.reserve[p][f] >= need

    return result


def tree_chance(state, p, family):
    """The engine's chance of the aim, from a state during ``p``'s draws (jokers to
    ``family``)."""
    need = control_need(state, p, family, rival_gain=rival_threat(state, p, family))
    return exact_distribution(
        state,
        lambda s: AssignJoker(family),
        controls(p, family, need),
        stop=lambda s: not drawing_by(p)(s),
        key=draw_key,
    )[True]


def draw_key(s):
    """What changes while one player draws (a cheaper key than the whole position)."""
    return (s.phase, s.drawer, s.left, s.joker, tuple(s.reserve))


def tree_after_deploy(state, family):
    """The engine's chance of the aim after ``Deploy(family)`` to the court: the turn played
    for the family, then the replenish (the need is known once the turn's knights are down)."""
    s = state.child(Deploy(family))
    p = state.order[state.cursor]
    i = s.rules.families.index(family)
    while s.phase == "deploy":
        if s.reserve[p][i]:
            s.apply(Deploy(family))
        else:
            other = next(f for f, c in zip(s.rules.families, s.reserve[p], strict=True) if c)
            s.apply(Deploy(other, s.ring[0]))
    moves = [a for a in s.legal_actions() if not s.resolution(a.region).game_over]
    if not moves:
        return None
    need = control_need(s, p, family, rival_gain=rival_threat(s, p, family))
    s.apply(moves[0])
    return exact_distribution(
        s,
        lambda t: AssignJoker(family),
        controls(p, family, need),
        stop=lambda t: not drawing_by(p)(t),
        key=draw_key,
    )[True]


def positions(seed, players, every):
    """Every ``every``-th node of a seeded random game (a fresh copy of each)."""
    rng = random.Random(seed)
    s = Game(players=players, seed=seed).new_initial_state()
    n = 0
    while not s.is_terminal():
        n += 1
        if n % every == 0:
            yield s.clone()
        s.apply(s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions()))


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 2)])
def test_odds_equal_the_engine_tree_in_random_play(seed, players):
    checked = {"draw": 0, "joker": 0, "deploy": 0}
    with exact_fractions():
        for state in positions(seed, players, every=3):
            if state.is_chance_node() and state.phase in ("reserve", "replenish"):
                p = state.drawer
                family = aim_family(state, p, state.left)
                assert state.odds().success == tree_chance(state, p, family)
                checked["draw"] += 1
            elif state.joker:
                p = state.drawer
                odds = state.odds()
                for action, chance in odds.choices:
                    assert chance == state.odds(action).success
                    assert chance == tree_chance(state.child(action), p, action.family)
                checked["joker"] += 1
            elif state.phase == "deploy":
                p = state.order[state.cursor]
                for i, f in enumerate(state.rules.families):
                    if not state.reserve[p][i]:
                        continue
                    tree = tree_after_deploy(state, f)
                    if tree is not None:
                        assert state.odds(Deploy(f)).success == tree
                        checked["deploy"] += 1
                for action in state.legal_actions():
                    if action.region is not None:
                        assert state.odds(action) is None
    assert all(checked.values()), checked
