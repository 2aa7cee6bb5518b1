"""Carolus Magnus odds: worked by hand, against the engine's own tree, and by Monte Carlo."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction as F

import pytest
import sympy

from coronas.carolus import JOKER, AssignJoker, Deploy, Draw, Game, Position, Rules
from coronas.carolus.odds import (
    control_chance,
    control_need,
    control_table,
    emperor_options,
    family_draw_distribution,
    knights_for_family,
    replenish_distribution,
    replenish_table,
    rival_threat,
)
from coronas.dice import Die
from coronas.engine import exact_distribution
from tests.carolus.conftest import make

KINDS = ("red", "yellow", "green", "blue", "pink", JOKER)


def replenish_state(players=2, **fields):
    """Player 0 about to draw the replenish (``left`` knights)."""
    fields.setdefault("chosen", (1, 2, 3)[:players])
    fields.setdefault("reserves", tuple({"blue": 3} for _ in range(players)))
    return make(players=players, phase="replenish", **fields)


def drawing(state):
    return state.phase == "replenish" and state.drawer == 0


def jokers_to(family):
    return lambda s: AssignJoker(family)


# -- by hand --------------------------------------------------------------------------------


def test_three_draws_at_least_one_for_a_family_is_19_27():
    # a draw goes to the family with 2/6 = 1/3 (the family or the joker)
    # P(at least 1 of 3) = 1 - (2/3)**3 = 1 - 8/27 = 19/27
    p = knights_for_family(3, 1)
    assert isinstance(p, sympy.Rational) and p == sympy.Rational(19, 27)


def test_other_small_cases_by_hand():
    assert knights_for_family(3, 3) == sympy.Rational(1, 27)  # (1/3)**3
    assert knights_for_family(3, 0) == 1
    assert knights_for_family(3, 4) == 0
    # 4 draws, at least 2: 1 - (2/3)**4 - 4*(1/3)*(2/3)**3 = 1 - 16/81 - 32/81 = 33/81
    assert knights_for_family(4, 2) == sympy.Rational(11, 27)
    # with no jokers in the faces, a draw goes to red with 1/5: 1 - (4/5)**2 = 9/25
    no_joker = Rules(draw_faces=("red", "yellow", "green", "blue", "pink"))
    assert knights_for_family(2, 1, "red", no_joker) == sympy.Rational(9, 25)


def test_replenish_distribution_by_hand():
    d = replenish_distribution(3)
    assert sum(p for _, p in d.items()) == 1
    assert len(d) == math.comb(3 + 5, 5)  # multisets of 3 among 6 kinds: 56
    assert d[(0, 0, 0, 0, 0, 3)] == F(1, 216)  # three jokers: (1/6)**3
    assert d[(1, 0, 0, 1, 0, 1)] == F(6, 216)  # red, blue, joker in 3! orders
    assert d[(2, 0, 1, 0, 0, 0)] == F(3, 216)  # two red and a green: 3 orders
    table = replenish_table(3)
    # most likely first: three different kinds, 3! orders -> 6/216; least: a triple, 1/216
    assert len(table) == 56 and table[0][1] == F(1, 36) and table[-1][1] == F(1, 216)
    assert sum(row[1] for row in table) == 1


# -- against the engine's tree --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_family_draw_distribution_matches_the_engine_tree(players):
    state = replenish_state(players)
    draws = Rules().draw_count(players)
    tree = exact_distribution(
        state, jokers_to("red"), lambda s: s.reserve[0][0], stop=lambda s: not drawing(s)
    )
    assert tree == family_draw_distribution(draws, "red")


def test_replenish_distribution_matches_the_engine_tree():
    state = replenish_state()
    start = len(state.history)

    def drawn(s):
        got = [a.family for a in s.history[start:] if isinstance(a, Draw)]
        return tuple(got.count(k) for k in KINDS)

    tree = exact_distribution(
        state, jokers_to("pink"), drawn, stop=lambda s: not drawing(s), key=False
    )
    assert tree == replenish_distribution(3)


def test_family_draws_by_monte_carlo():
    state = replenish_state()
    rng = random.Random(2024)
    n = 3000
    hits = 0
    for _ in range(n):
        s = state.clone()
        while drawing(s):
            s.apply(AssignJoker("red") if s.joker else s.sample_chance(rng))
        hits += s.reserve[0][0] >= 1
    p = float(F(19, 27))
    se = math.sqrt(p * (1 - p) / n)
    assert abs(hits / n - p) < 4 * se


# -- where should the emperor stop? ---------------------------------------------------------


def test_emperor_options_match_playing_each_move():
    state = make(
        phase="move",
        chosen=(4, 5),
        emperor=3,
        merged=((6, 7),),
        knights={4: {"blue": 1}, 5: {"red": 2}, 6: {"red": 3}, 8: {"blue": 3}},
        castles={4: (1, 1), 6: (1, 2), 9: (0, 1)},
        courts=({"red": 1}, {"blue": 1}),
    )
    table = emperor_options(state)
    assert [(o.steps, o.region) for o in table] == [(1, 4), (2, 5), (3, 6), (4, 8)]
    by_hand = {
        # region 4: player 1 has 1 blue + 1 castle = 2, player 0 nothing: player 1 keeps it
        4: ((0, 2), "keep", ()),
        # region 5: player 0 builds with 2 red; neighbours 4 and 6+7 belong to player 1
        5: ((2, 0), "build", ()),
        # region 6+7: 3 red (player 0) against 2 castles: player 0 replaces both
        6: ((3, 2), "replace", ()),
        # region 8: 3 blue for player 1, builds, merges with 6+7 (player 1)
        8: ((0, 3), "build", (6,)),
    }
    for option in table:
        r = option.resolution
        assert (r.totals, r.change, r.merged) == by_hand[option.region]
        played = state.child(next(a for a in state.legal_actions() if a.steps == option.steps))
        assert tuple(played.castle_totals()) == r.castle_totals
        assert len(played.ring) == r.regions_left
        assert played.members[played.emperor] == r.members
        assert played.is_terminal() == r.game_over
    assert table.best().region == 6  # 3 castles swing to player 0
    assert "replaces 2 castles of player 2" in str(table)
    assert "<table>" in table._repr_html_()


def test_emperor_options_need_a_disc():
    state = make(phase="disc")
    with pytest.raises(ValueError, match="has not chosen a disc"):
        emperor_options(state)
    assert len(emperor_options(state, disc=3)) == 3


# -- family control after the next replenish ------------------------------------------------


def test_control_chance_by_hand():
    # player 1 holds red 2 - 1; player 0 needs 2 more (3 > 2), has 1 in reserve:
    # needs at least 1 of 3 draws -> 19/27
    state = replenish_state(courts=({"red": 1}, {"red": 2}), reserves=({"red": 1}, {}))
    assert control_need(state, 0, "red") == 2
    assert control_chance(state, 0, "red") == sympy.Rational(19, 27)
    # the holder keeps on a tie: player 1 needs nothing
    assert control_chance(state, 1, "red") == 1
    # ... unless player 0 may add 2 more: then player 1 needs 1 knight, has none in reserve
    assert control_need(state, 1, "red", rival_gain=2) == 1
    assert control_chance(state, 1, "red", rival_gain=2) == sympy.Rational(19, 27)
    # more than one turn's deployment (3) is out of reach this turn
    far = replenish_state(courts=({}, {"red": 4}))
    assert control_chance(far, 0, "red") == 0
    # player 0 holds 1 red in reserve: a threat of 1 against player 1's lead
    assert rival_threat(state, 1, "red") == 1
    assert control_chance(state, 1, "red", rival_gain=rival_threat(state, 1, "red")) == 1
    table = control_table(state, 0)
    assert [row[0] for row in table] == list(Rules().families)


def test_control_chance_matches_the_engine_tree_and_monte_carlo():
    state = replenish_state(courts=({"green": 1}, {"green": 3}), reserves=({}, {}))
    need = control_need(state, 0, "green")  # 3 + 1 - 1 = 3
    assert need == 3
    tree = exact_distribution(
        state,
        jokers_to("green"),
        lambda s: s.reserve[0][2] >= need,
        stop=lambda s: not drawing(s),
    )
    p = control_chance(state, 0, "green")
    assert tree[True] == F(int(p.p), int(p.q)) == F(1, 27)  # all three draws
    rng = random.Random(7)
    n, hits = 4000, 0
    for _ in range(n):
        s = state.clone()
        while drawing(s):
            s.apply(AssignJoker("green") if s.joker else s.sample_chance(rng))
        hits += s.reserve[0][2] >= need
    se = math.sqrt(float(tree[True]) * (1 - float(tree[True])) / n)
    assert abs(hits / n - float(tree[True])) < 4 * se


def test_distributions_are_dice():
    assert isinstance(family_draw_distribution(3), Die)
    assert family_draw_distribution(3).mean() == 1  # 3 * 1/3


# -- who deploys first: control_need against the engine ---------------------------------------


def deploy_both(courts, holder, gain, k, rival_first):
    """Play two action turns in the engine and say who controls red at the end.

    Player 0 (red court ``courts[0]``) deploys ``k`` red knights to the court and the rest of
    its three to region 2; player 1 (``courts[1]``, holding red if ``holder`` is 1) deploys
    ``gain`` red to the court. Player 0 acts first unless ``rival_first``; between the two
    deployments the first player moves the emperor and draws three knights.
    """
    pos = Position(
        courts=({"red": courts[0]}, {"red": courts[1]}),
        control={} if holder is None else {"red": holder},
        reserves=({"red": k, "blue": 3 - k}, {"red": gain, "yellow": 3 - gain}),
        order=(1, 0) if rival_first else (0, 1),
        chosen=(1, 1),
        phase="deploy",
    )
    state = Game(players=2, position=pos).new_initial_state()
    plan = {0: ["red"] * k + ["blue"] * (3 - k), 1: ["red"] * gain + ["yellow"] * (3 - gain)}
    for turn in range(2):
        for f in plan[state.current_player]:
            state.apply(Deploy(f, None if f == "red" else 2))
        if turn == 0:
            state.apply(state.legal_actions()[0])  # the emperor moves one step
            while state.is_chance_node():
                state.apply(Draw("green"))
    assert state.phase == "move" and state.history
    return state.controller("red"), state


def test_control_need_follows_the_rulebook_in_either_order():
    """The rulebook: "A player controls a family when their court contains more knights of
    that colour than every other court. At a tie, the existing controller keeps control.
    With no existing controller, tied courts do not gain control."

    Player 0 has 1 red knight in court; player 1 holds red with 2 and has 1 more in reserve.
    If player 0 deploys first, 2 knights give 3 against 2: player 0 takes red, and the
    rival's third knight only ties 3-3, so player 0 keeps it. If the rival deploys first,
    player 1 holds red with 3 and player 0 needs 4 against 3: 3 knights.
    """
    state = replenish_state(courts=({"red": 1}, {"red": 2}), reserves=({"red": 1}, {"red": 1}))
    gain = rival_threat(state, 0, "red")
    assert gain == 1
    assert control_need(state, 0, "red", rival_gain=gain) == 2
    assert control_need(state, 0, "red", rival_gain=gain, rival_first=True) == 3
    # the engine agrees: 2 is enough and 1 is not when player 0 goes first, 3 and 2 otherwise
    assert [deploy_both((1, 2), 1, 1, k, False)[0] for k in range(4)] == [1, 1, 0, 0]
    assert [deploy_both((1, 2), 1, 1, k, True)[0] for k in range(4)] == [1, 1, 1, 0]
    # the odds follow: player 0 holds 1 red in reserve and draws 3 knights (1/3 each to red)
    # needs 1 more of 3 draws: 1 - (2/3)**3 = 19/27
    assert control_chance(state, 0, "red", rival_gain=gain) == sympy.Rational(19, 27)
    # needs 2 more of 3: 3 * (1/3)**2 * (2/3) + (1/3)**3 = 7/27
    assert control_chance(state, 0, "red", rival_gain=gain, rival_first=True) == sympy.Rational(
        7, 27
    )
    red = control_table(state, 0, rival_gain=gain)[0]
    assert red == ("red", "takes", 2, 1, F(19, 27))
    # the holder's side: player 1 keeps red on a tie if it deploys first; if player 0's
    # one red arrives first (2-2), player 1 still holds it and needs nothing more
    assert control_need(state, 1, "red", rival_gain=1) == 0
    assert control_need(state, 1, "red", rival_gain=1, rival_first=True) == 0
    # ... but against 2 more (3-2 for player 0) player 1 needs 1 first, or 2 afterwards
    assert control_need(state, 1, "red", rival_gain=2) == 1
    assert control_need(state, 1, "red", rival_gain=2, rival_first=True) == 2


@pytest.mark.parametrize("rival_first", [False, True], ids=["player first", "rival first"])
def test_control_need_equals_the_engine_for_every_small_court(rival_first):
    for own, rival, gain in itertools.product(range(4), range(4), range(4)):
        best = max(own, rival)
        holders = [p for p, c in enumerate((own, rival)) if c == best > 0]
        if own == rival or best == 0:
            holders.append(None)
        for holder in holders:
            state = replenish_state(
                courts=({"red": own}, {"red": rival}),
                control={} if holder is None else {"red": holder},
            )
            need = control_need(state, 0, "red", rival_gain=gain, rival_first=rival_first)
            takes = [
                k
                for k in range(4)
                if deploy_both((own, rival), holder, gain, k, rival_first)[0] == 0
            ]
            expected = takes[0] if takes else None
            assert (need if need <= 3 else None) == expected, (own, rival, holder, gain)
