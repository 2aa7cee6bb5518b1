"""One test per rule of rules/carolus-magnus.txt (and rulings C1-C6), on positions built by
hand with ``Position``."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from coronas.carolus import (
    JOKER,
    AssignJoker,
    ChooseDisc,
    Deploy,
    Draw,
    Game,
    MoveEmperor,
    PlaceKnight,
    Position,
    Rules,
    SetOrder,
    family_controller,
)
from coronas.engine import CHANCE, TERMINAL, IllegalAction, RulesError
from tests.carolus.conftest import make

FAMILIES = ("red", "yellow", "green", "blue", "pink")

# A ring of four regions: 1-4, 5-8, 9-12 and 13-15 (ids 1, 5, 9, 13).
FOUR = ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15))


def unchanged_after(state, action, match):
    before = state.clone()
    with pytest.raises(IllegalAction, match=match):
        state.apply(action)
    assert state == before and state.history == before.history


# -- set-up ---------------------------------------------------------------------------------


def test_setup_shuffles_three_knights_of_each_family_region_by_region():
    state = Game(players=2).new_initial_state()
    assert state.current_player == CHANCE
    # region 1: any of 15 knights, 3 of each family -> 3/15 = 1/5 each
    assert state.chance_outcomes() == [(PlaceKnight(1, f), F(1, 5)) for f in FAMILIES]
    state.apply(PlaceKnight(1, "red"))
    # region 2: 14 knights left, 2 red -> 2/14 = 1/7, others 3/14
    probs = dict(state.chance_outcomes())
    assert probs[PlaceKnight(2, "red")] == F(1, 7)
    assert probs[PlaceKnight(2, "blue")] == F(3, 14)
    for r, f in zip(range(2, 4), ("red", "red"), strict=True):
        state.apply(PlaceKnight(r, f))
    # all three reds are out: red can no longer be shuffled onto region 4
    assert [o.family for o, _ in state.chance_outcomes()] == list(FAMILIES[1:])
    rng = random.Random(5)
    while state.phase == "board":
        state.apply(state.sample_chance(rng))
    totals = [sum(state.knights[r][i] for r in state.ring) for i in range(5)]
    assert totals == [3, 3, 3, 3, 3]
    assert all(sum(state.knights[r]) == 1 for r in range(1, 16))
    assert state.emperor == 1  # ruling C1
    assert state.castle_totals() == [0, 0] and state.control == [-1] * 5


@pytest.mark.parametrize(("players", "reserve", "orders"), [(2, 7, 2), (3, 9, 6)])
def test_setup_reserves_drawn_knight_by_knight_and_random_order(players, reserve, orders):
    state = Game(players=players).new_initial_state()
    rng = random.Random(1)
    while state.phase == "board":
        state.apply(state.sample_chance(rng))
    # six equally likely outcomes: five families or a joker
    assert state.chance_outcomes() == [(Draw(f), F(1, 6)) for f in (*FAMILIES, JOKER)]
    state.apply(Draw(JOKER))
    # the drawer (player 0 first) assigns the joker at once (ruling C3)
    assert state.current_player == 0
    assert state.legal_actions() == [AssignJoker(f) for f in FAMILIES]
    state.apply(AssignJoker("green"))
    assert state.reserve[0][2] == 1
    for _ in range(reserve - 1):
        state.apply(Draw("blue"))
    assert sum(state.reserve[0]) == reserve and state.drawer == 1
    while state.phase == "reserve":
        state.apply(Draw("red"))
    assert [sum(r) for r in state.reserve] == [reserve] * players
    outcomes = state.chance_outcomes()
    assert len(outcomes) == orders and all(p == F(1, orders) for _, p in outcomes)
    first = tuple(reversed(range(players)))
    state.apply(SetOrder(first))
    assert state.phase == "disc" and state.current_player == first[0] and state.round == 1
    assert state.legal_actions() == [ChooseDisc(d) for d in (1, 2, 3, 4, 5)]


# -- discs and turn order -------------------------------------------------------------------


def test_disc_chosen_by_another_player_is_refused_while_a_fresh_one_is_left():
    state = make(phase="disc", order=(0, 1), turn=1, chosen=(3, 0))
    assert state.current_player == 1
    assert state.legal_actions() == [ChooseDisc(d) for d in (1, 2, 4, 5)]
    unchanged_after(state, ChooseDisc(3), "disc 3 was already chosen this round")


def test_a_selected_number_may_be_repeated_when_no_fresh_disc_is_left():
    state = make(phase="disc", order=(0, 1), turn=1, chosen=(3, 0), used=((), (1, 2, 4, 5)))
    assert state.legal_actions() == [ChooseDisc(3)]
    unchanged_after(state, ChooseDisc(1), "already used disc 1")


def test_discs_are_used_once_and_the_full_set_comes_back_after_all_five():
    state = make(phase="disc", order=(0, 1), used=((1, 2, 3, 4), (1, 2, 3)))
    assert state.legal_actions() == [ChooseDisc(5)]
    state.apply(ChooseDisc(5))
    assert state.used[0] == ()  # the set is complete again
    assert state.legal_actions() == [ChooseDisc(4)]  # player 1 has 4 and 5; 5 is taken
    state.apply(ChooseDisc(4))
    assert state.used[1] == (1, 2, 3, 4)
    # next round, player 0 may choose any of the five again
    state2 = make(phase="disc", order=(0, 1), used=((), (1, 2, 3, 4)))
    assert state2.legal_actions() == [ChooseDisc(d) for d in (1, 2, 3, 4, 5)]


def test_lowest_disc_acts_first():
    state = make(phase="disc", order=(1, 0), reserves=({"red": 3}, {"red": 3}))
    state.apply(ChooseDisc(4))  # player 1
    state.apply(ChooseDisc(2))  # player 0
    assert state.order == [0, 1] and state.current_player == 0 and state.phase == "deploy"


def test_equal_discs_keep_the_previous_relative_order():
    state = make(
        phase="disc", order=(1, 0), used=((1, 2, 4, 5), ()), reserves=({"red": 3}, {"red": 3})
    )
    state.apply(ChooseDisc(3))  # player 1 first
    assert state.legal_actions() == [ChooseDisc(3)]
    state.apply(ChooseDisc(3))  # player 0 can only repeat 3
    assert state.order == [1, 0] and state.current_player == 1


def test_three_player_order_sorts_by_disc_and_keeps_ties_in_previous_order():
    state = make(players=3, phase="disc", order=(2, 0, 1), used=((), (1, 2, 4, 5), ()))
    state.apply(ChooseDisc(3))  # player 2
    state.apply(ChooseDisc(1))  # player 0
    assert state.legal_actions() == [ChooseDisc(3)]
    state.apply(ChooseDisc(3))  # player 1 repeats 3 and stays behind player 2
    assert state.order == [0, 2, 1]


# -- deploying ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "count"), [(2, 3), (3, 4)])
def test_deploy_three_or_four_knights_one_at_a_time_anywhere(players, count):
    chosen = (1, 2, 3)[:players]
    reserves = tuple({"red": 5, "blue": 4} for _ in range(players))
    state = make(players=players, phase="deploy", chosen=chosen, reserves=reserves)
    assert state.left == count
    acts = state.legal_actions()
    # two families in reserve, each to the court or one of 15 regions
    assert len(acts) == 2 * 16
    state.apply(Deploy("red", None))
    state.apply(Deploy("blue", 7))
    for _ in range(count - 2):
        state.apply(Deploy("red", 15))
    assert state.phase == "move" and state.current_player == 0
    assert state.court[0][0] == 1 and state.knights[7][3] == 1
    assert sum(state.reserve[0]) == 9 - count


def test_deploy_all_of_a_smaller_reserve_ruling_c2():
    state = make(phase="disc", order=(0, 1), reserves=({"red": 2}, {"red": 5}))
    state.apply(ChooseDisc(1))
    state.apply(ChooseDisc(2))
    assert state.phase == "deploy" and state.left == 2


def test_deploy_refuses_a_family_not_in_reserve_and_a_region_inside_a_merge():
    state = make(phase="deploy", chosen=(1, 2), reserves=({"red": 3}, {}), merged=((14, 15, 1),))
    unchanged_after(state, Deploy("blue", None), "no blue knight in reserve")
    unchanged_after(state, Deploy("red", 15), r"region 15 is part of region 14\+15\+1")
    unchanged_after(state, Deploy("purple", None), "no family 'purple'")
    unchanged_after(state, MoveEmperor(1, 2), "deploying knights")
    state.apply(Deploy("red", 1))
    assert state.knights[1][0] == 1


# -- the emperor ----------------------------------------------------------------------------


def test_emperor_moves_one_to_disc_steps_clockwise():
    state = make(phase="move", chosen=(3, 5), emperor=14)
    assert [(a.steps, a.region) for a in state.legal_actions()] == [(1, 15), (2, 1), (3, 2)]
    unchanged_after(state, MoveEmperor(4, 3), "moves 1 to 3 steps")
    unchanged_after(state, MoveEmperor(2, 2), "lead to region 1, not region 2")


def test_a_merged_region_counts_as_one_step():
    state = make(phase="move", chosen=(2, 5), emperor=2, merged=((3, 4, 5),))
    assert [(a.steps, a.region) for a in state.legal_actions()] == [(1, 3), (2, 6)]


def test_full_circuit_back_to_the_start_when_the_disc_allows_it():
    state = make(phase="move", chosen=(5, 1), merged=FOUR, emperor=1)
    assert [(a.steps, a.region) for a in state.legal_actions()] == [
        (1, 5),
        (2, 9),
        (3, 13),
        (4, 1),
    ]
    state = make(phase="move", chosen=(3, 1), merged=FOUR, emperor=1)
    assert [a.region for a in state.legal_actions()] == [5, 9, 13]  # 3 < 4: no circuit


# -- family control -------------------------------------------------------------------------


def test_more_knights_than_every_other_court_controls_the_family():
    state = make(
        phase="deploy", chosen=(1, 2), courts=({"red": 1}, {"red": 1}), reserves=({"red": 3}, {})
    )
    assert state.controller("red") is None  # tied, no holder
    state.apply(Deploy("red", None))
    assert state.controller("red") == 0


def test_at_a_tie_the_holder_keeps_control():
    state = make(
        phase="deploy", chosen=(1, 2), courts=({"red": 1}, {"red": 2}), reserves=({"red": 3}, {})
    )
    assert state.controller("red") == 1
    state.apply(Deploy("red", None))  # 2 - 2
    assert state.controller("red") == 1
    state.apply(Deploy("red", None))  # 3 - 2
    assert state.controller("red") == 0
    assert family_controller([2, 2], holder=1) == 1


def test_with_no_holder_tied_courts_do_not_gain_control():
    state = make(
        players=3,
        phase="deploy",
        chosen=(1, 2, 3),
        courts=({}, {"red": 1}, {"red": 1}),
        reserves=({"red": 4}, {}, {}),
    )
    assert state.controller("red") is None
    state.apply(Deploy("red", None))  # 1 - 1 - 1
    assert state.controller("red") is None
    state.apply(Deploy("red", None))  # 2 - 1 - 1
    assert state.controller("red") == 0
    assert family_controller([0, 0]) == -1 and family_controller([1, 1, 0]) == -1


# -- region control and castles -------------------------------------------------------------


def _move(state, steps):
    action = next(a for a in state.legal_actions() if a.steps == steps)
    state.apply(action)
    return state.last


def test_unique_highest_total_builds_one_castle_in_an_empty_region():
    state = make(
        phase="move",
        chosen=(2, 4),
        emperor=3,
        knights={5: {"red": 2, "blue": 1}},
        courts=({"red": 1}, {"blue": 1}),
    )
    res = _move(state, 2)
    # player 0: 2 red; player 1: 1 blue
    assert res.totals == (2, 1) and res.change == "build"
    assert (state.owner[5], state.castles[5]) == (0, 1)
    # no further castle: the game goes on to the replenish
    assert state.phase == "replenish" and state.current_player == CHANCE and state.left == 3


def test_knights_of_uncontrolled_families_count_for_nobody_ruling_c5():
    state = make(
        phase="move",
        chosen=(2, 4),
        emperor=3,
        knights={5: {"green": 4}},
        courts=({"red": 1}, {"blue": 1}),
    )
    res = _move(state, 2)
    assert res.totals == (0, 0) and res.change == "none" and state.castles[5] == 0


def test_castles_count_for_their_owner_and_a_tie_changes_nothing():
    # player 0: 2 red; player 1: 1 blue + 1 castle = 2: tie, player 1 keeps the castle
    state = make(
        phase="move",
        chosen=(2, 4),
        emperor=3,
        knights={5: {"red": 2, "blue": 1}},
        castles={5: (1, 1)},
        courts=({"red": 1}, {"blue": 1}),
    )
    res = _move(state, 2)
    assert res.totals == (2, 2) and res.change == "none"
    assert (state.owner[5], state.castles[5]) == (1, 1)


def test_a_new_winner_replaces_every_castle_one_for_one():
    state = make(
        phase="move",
        chosen=(2, 4),
        emperor=3,
        knights={5: {"red": 4}},
        castles={5: (1, 3)},
        courts=({"red": 1}, {}),
    )
    res = _move(state, 2)
    assert res.totals == (4, 3) and res.change == "replace"
    assert (state.owner[5], state.castles[5]) == (0, 3)
    assert state.castle_totals() == [3, 0]


def test_the_owner_adds_no_castle_for_keeping_control():
    state = make(
        phase="move",
        chosen=(2, 4),
        emperor=3,
        knights={5: {"red": 4}},
        castles={5: (0, 2)},
        courts=({"red": 1}, {}),
    )
    res = _move(state, 2)
    assert res.change == "keep" and state.castles[5] == 2


# -- merging --------------------------------------------------------------------------------


def test_merge_with_both_neighbours_at_once_ruling_c6():
    state = make(
        phase="move",
        chosen=(2, 4),
        emperor=3,
        knights={5: {"red": 1}, 6: {"blue": 2}},
        castles={4: (0, 1), 6: (0, 2)},
        courts=({"red": 1}, {}),
    )
    g_before = state.graph()
    res = _move(state, 2)
    assert res.merged == (4, 6) and res.members == (4, 5, 6)
    assert state.ring == [1, 2, 3, 4, *range(7, 16)] and len(state.ring) == 13
    assert state.members[4] == (4, 5, 6) and state.members[5] is None
    assert (state.owner[4], state.castles[4]) == (0, 4)  # 1 + 1 built + 2
    assert state.knights[4] == (1, 0, 0, 2, 0)
    assert state.emperor == 4  # the emperor stands in the merged region
    g = state.graph()
    assert g_before.number_of_nodes() == 15 and g.number_of_nodes() == 13
    assert g.nodes[4]["members"] == (4, 5, 6) and g.nodes[4]["emperor"]
    assert set(g.neighbors(4)) == {3, 7}


def test_merge_with_one_neighbour_only_when_the_owner_matches():
    state = make(
        phase="move",
        chosen=(2, 4),
        emperor=3,
        knights={5: {"red": 1}},
        castles={4: (1, 1), 6: (0, 2)},
        courts=({"red": 1}, {}),
    )
    res = _move(state, 2)
    assert res.merged == (6,) and state.members[5] == (5, 6) and state.owner[4] == 1


def test_merge_across_the_closing_boundary():
    state = make(
        phase="move",
        chosen=(2, 4),
        emperor=13,
        knights={15: {"red": 1}},
        castles={14: (0, 1), 1: (0, 1)},
        courts=({"red": 1}, {}),
    )
    res = _move(state, 2)
    assert res.members == (14, 15, 1)
    assert state.ring[0] == 1 and state.members[1] == (14, 15, 1)
    assert state.emperor == 1 and state.castles[1] == 3
    assert state.graph().graph["clockwise"] == list(range(1, 14))
    # one step clockwise from the merged region 14+15+1 is region 2
    assert state.ring[1] == 2


# -- replenishing ---------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "count"), [(2, 3), (3, 4)])
def test_replenish_draws_three_or_four_with_jokers_assigned_by_the_drawer(players, count):
    chosen = (1, 2, 3)[:players]
    reserves = tuple({"red": 5} for _ in range(players))
    state = make(players=players, phase="replenish", chosen=chosen, reserves=reserves)
    assert state.left == count and state.current_player == CHANCE
    state.apply(Draw(JOKER))
    assert state.current_player == 0
    unchanged_after(state, ChooseDisc(1), "must first assign the joker")
    state.apply(AssignJoker("pink"))
    for _ in range(count - 1):
        state.apply(Draw("red"))
    assert state.reserve[0] == (5 + count - 1, 0, 0, 0, 1)
    assert state.phase == "deploy" and state.current_player == 1  # the next player's turn


def test_after_the_last_turn_a_new_round_starts_with_disc_choice():
    state = make(phase="replenish", chosen=(1, 2), order=(0, 1), turn=1, round=4)
    for _ in range(3):
        state.apply(Draw("red"))
    assert state.phase == "disc" and state.round == 5 and state.chosen == [0, 0]
    assert state.current_player == 0


# -- the end --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "target"), [(2, 10), (3, 8)])
def test_reaching_the_castle_target_ends_the_game_at_once(players, target):
    # player 0 has target - 1 castles in regions 8 and 10; a 1-castle build ends it
    chosen = (2, 4, 5)[:players]
    state = make(
        players=players,
        phase="move",
        chosen=chosen,
        emperor=3,
        knights={5: {"red": 1}},
        castles={8: (0, target - 4), 10: (0, 3)},
        courts=({"red": 1}, *({} for _ in range(players - 1))),
    )
    _move(state, 2)
    assert state.is_terminal() and state.current_player == TERMINAL
    assert state.castle_totals()[0] == target and state.winners() == [0]
    assert sum(state.reserve[0]) == 0  # no further reserve draw
    assert "reached" in state.end_reason
    unchanged_after(state, Draw("red"), "the game is over")


def test_target_minus_one_does_not_end_the_game():
    state = make(
        phase="move",
        chosen=(2, 4),
        emperor=3,
        knights={5: {"red": 1}},
        castles={8: (0, 5), 10: (0, 3)},
        courts=({"red": 1}, {}),
    )
    _move(state, 2)
    assert state.castle_totals() == [9, 0] and not state.is_terminal()


def test_fewer_than_four_regions_ends_the_game():
    state = make(
        phase="move",
        chosen=(1, 4),
        merged=FOUR,
        emperor=1,
        knights={5: {"red": 1}},
        castles={1: (0, 1), 9: (0, 1), 13: (1, 2)},
        courts=({"red": 1}, {}),
    )
    _move(state, 1)
    assert len(state.ring) == 2 and state.is_terminal()
    assert "fewer than 4 regions" in state.end_reason
    assert state.returns() == [3, 2] and state.winners() == [0]


def test_equal_highest_castle_totals_share_the_victory():
    # 4 regions; player 1 builds in 5-8 and merges with 9-12: 3 regions, 2 castles each
    state = make(
        phase="move",
        chosen=(1, 4),
        merged=FOUR,
        emperor=1,
        knights={5: {"blue": 1}},
        castles={1: (0, 2), 9: (1, 1)},
        courts=({}, {"blue": 1}),
    )
    _move(state, 1)
    assert state.is_terminal() and len(state.ring) == 3
    assert state.returns() == [2, 2] and state.winners() == [0, 1]


# -- rule sets and positions ----------------------------------------------------------------


def test_rule_numbers_for_two_and_three_players():
    rules = Rules()
    assert [rules.reserve_size(n) for n in (2, 3)] == [7, 9]
    assert [rules.deploy_count(n) for n in (2, 3)] == [3, 4]
    assert [rules.draw_count(n) for n in (2, 3)] == [3, 4]
    assert [rules.castle_target(n) for n in (2, 3)] == [10, 8]
    with pytest.raises(ValueError, match="2-3 players"):
        Game(players=4)


def test_malformed_rules_and_positions_are_refused(tmp_path):
    bad = tmp_path / "rules.json"
    bad.write_text('{"draw_faces": ["red", "purple"]}')
    with pytest.raises(RulesError, match=r"rules.json.*unknown: purple$"):
        Rules.load(bad)
    with pytest.raises(RulesError, match="knights_per_family"):
        Rules(knights_per_family=2)
    with pytest.raises(ValueError, match=r"merged arc .* consecutive"):
        Game(position=Position(merged=((3, 5),)))
    with pytest.raises(ValueError, match="control of red: player 0 cannot hold it"):
        Game(position=Position(courts=({"red": 1}, {"red": 2}), control={"red": 0}))
    with pytest.raises(ValueError, match="unknown family 'purple'"):
        Game(position=Position(knights={3: {"purple": 1}}))


def test_a_position_cannot_be_taken_during_the_set_up():
    with pytest.raises(ValueError, match="between the set-up and the end"):
        Game().new_initial_state().to_position()


def test_positions_with_wrong_kinds_of_values_are_refused():
    with pytest.raises(ValueError, match="castles of region 4: owner must be a player"):
        Game(position=Position(castles={4: ("me", 1)}))
    with pytest.raises(ValueError, match="left must be 1 or more"):
        Game(position=Position(phase="replenish", chosen=(1, 2), left=0))
    with pytest.raises(ValueError, match="needs chosen"):
        Game(position=Position(phase="move"))
    with pytest.raises(ValueError, match="no region 16"):
        Game(position=Position(emperor=16))


def test_the_full_circuit_resolves_the_starting_region():
    state = make(
        phase="move",
        chosen=(4, 1),
        merged=FOUR,
        emperor=1,
        knights={2: {"red": 1}},
        courts=({"red": 1}, {}),
    )
    state.apply(MoveEmperor(4, 1))
    assert state.emperor == 1 and (state.owner[1], state.castles[1]) == (0, 1)


def test_control_won_in_the_court_counts_at_once_where_the_emperor_stops():
    state = make(
        phase="deploy",
        chosen=(1, 4),
        emperor=3,
        knights={4: {"red": 2}},
        courts=({}, {"red": 1}),
        reserves=({"red": 3}, {}),
    )
    state.apply(Deploy("red", None))  # 1 - 1: player 1 keeps red
    assert state.resolution(4).winner == 1
    state.apply(Deploy("red", None))  # 2 - 1: red goes to player 0
    state.apply(Deploy("red", 4))
    state.apply(MoveEmperor(1, 4))
    assert state.last.totals == (3, 0) and state.owner[4] == 0
