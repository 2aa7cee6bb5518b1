"""The shared protocol, exercised through the toy game in tests/toygame.py."""

import json
import random
from fractions import Fraction as F

import pytest

from coronas.dice import D6, Die
from coronas.engine import (
    CHANCE,
    FORMAT_VERSION,
    TERMINAL,
    GameDidNotEnd,
    IllegalAction,
    RandomBot,
    RulesError,
    SaveFileError,
    State,
    available_games,
    exact_distribution,
    load_game,
    play,
)
from tests.toygame import GiveUp, Reroll, Roll, ToyGame, ToyRules


def test_chance_node_has_exact_outcomes():
    state = ToyGame().new_initial_state()
    assert state.is_chance_node() and state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert outcomes == [(Roll(i), F(1, 6)) for i in range(1, 7)]
    assert state.legal_actions() == []
    assert state.chance_distribution()[Roll(6)] == F(1, 6)


def test_apply_undo_child_clone():
    state = ToyGame().new_initial_state()
    state.apply(Roll(2))
    assert state.current_player == 0 and state.legal_actions() == [Reroll(), GiveUp()]
    before = state.clone()
    after = state.child(Reroll())
    assert state == before and after.shields == 1 and after != state
    state.apply(Reroll())
    assert state == after
    assert state.undo() == Reroll()
    assert state == before and state.history == [Roll(2)]
    state.undo()
    assert state == ToyGame().new_initial_state()
    with pytest.raises(IllegalAction, match="nothing to undo"):
        state.undo()


def test_illegal_actions_raise_with_reason_and_change_nothing():
    state = ToyGame(rules=ToyRules(shields=0)).new_initial_state()
    with pytest.raises(IllegalAction, match="not a possible outcome"):
        state.apply(Roll(7))
    state.apply(Roll(1))
    snapshot = state.clone()
    with pytest.raises(IllegalAction, match="no shield left"):
        state.apply(Reroll())
    with pytest.raises(IllegalAction, match="roll 3 is not legal for player 1 now"):
        state.apply(Roll(3))
    assert state == snapshot and state.history == snapshot.history
    state.apply(GiveUp())
    assert state.is_terminal() and state.current_player == TERMINAL
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(GiveUp())


def test_failed_apply_restores_the_state():
    class Broken(ToyGame.state_class):
        def _apply(self, action):
            self.shields = 99
            raise RuntimeError("boom")

    state = Broken(ToyGame())
    with pytest.raises(RuntimeError):
        state.apply(Roll(1))
    assert state.shields == 2 and state.history == []


def test_scores_and_winners_only_at_the_end():
    state = ToyGame().new_initial_state()
    with pytest.raises(IllegalAction, match="not over"):
        state.scores()
    state.apply(Roll(5))
    assert state.is_terminal() and state.scores() == [1] and state.winners() == [0]


def test_save_load_and_replay_give_an_equal_state(tmp_path):
    state = ToyGame(seed=3, rules=ToyRules(target=5)).new_initial_state()
    for a in (Roll(1), Reroll(), Roll(2)):
        state.apply(a)
    text = state.to_json()
    data = json.loads(text)
    assert data["format"] == "coronas-game" and data["version"] == FORMAT_VERSION == 2
    loaded = State.from_json(text)
    assert loaded == state and loaded.history == state.history
    assert loaded.game.rules.target == 5 and loaded.game.seed == 3
    path = tmp_path / "game.json"
    state.save(path)
    assert load_game(path) == state


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "not valid JSON"),
        ('{"format": "chess"}', "not a coronas saved game"),
        ('{"format": "coronas-game", "version": 99}', "format version 99"),
        ('{"format": "coronas-game", "version": 1, "game": "poker"}', "unknown game 'poker'"),
        (
            '{"format": "coronas-game", "version": 1, "game": "toy", "params": {}, '
            '"actions": [{"type": "Fly"}]}',
            r"actions\[0\].type: unknown action type 'Fly'",
        ),
        (
            '{"format": "coronas-game", "version": 1, "game": "toy", "params": {}, '
            '"actions": [{"type": "Roll", "value": 9}]}',
            "cannot be replayed",
        ),
        (
            '{"format": "coronas-game", "version": 1, "game": "toy", '
            '"params": {"rules": {"target": "four"}}, "actions": []}',
            "field 'target': expected a whole number",
        ),
    ],
)
def test_bad_saved_games_name_the_problem(text, message):
    with pytest.raises(SaveFileError, match=message):
        State.from_json(text)


def test_rules_from_dict_and_file(tmp_path):
    assert ToyRules.from_dict({"target": 6}).target == 6
    assert ToyRules().replace(shields=0).shields == 0
    with pytest.raises(RulesError, match="unknown field"):
        ToyRules.from_dict({"tagret": 6})
    with pytest.raises(RulesError, match=r"field 'faces'\[1\]: expected a whole number"):
        ToyRules.from_dict({"faces": [1, "x"]})
    bad = tmp_path / "rules.json"
    bad.write_text("{oops")
    with pytest.raises(RulesError, match=r"rules\.json: not valid JSON"):
        ToyRules.load(bad)
    good = tmp_path / "good.json"
    good.write_text('{"faces": [1, 1, 2, 3, 4, 5]}')
    assert ToyGame(rules=str(good)).rules.faces == (1, 1, 2, 3, 4, 5)


def test_game_checks_its_parameters():
    with pytest.raises(ValueError, match="1-1 players"):
        ToyGame(players=2)
    with pytest.raises(ValueError, match="seed"):
        ToyGame(seed="abc")


def reroll_while_possible(state):
    return Reroll() if Reroll() in state.legal_actions() else GiveUp()


@pytest.mark.parametrize("target, shields", [(4, 2), (6, 1), (2, 0), (5, 3)])
def test_exact_distribution_walks_the_tree(target, shields):
    state = ToyGame(rules=ToyRules(target=target, shields=shields)).new_initial_state()
    dist = exact_distribution(state, reroll_while_possible, lambda s: s.success)
    # succeeding within `shields` rerolls: 1 - q^(k+1), q = (target-1)/6
    q = F(target - 1, 6)
    assert dist[True] == 1 - q ** (shields + 1)
    assert dist[True] == D6.p_at_least(target, rerolls=shields)
    assert state.history == []  # the walk leaves the state alone


def test_exact_distribution_with_mixed_policy_and_stop():
    state = ToyGame(rules=ToyRules(target=4, shields=1)).new_initial_state()
    half = lambda s: [(a, F(1, len(s.legal_actions()))) for a in s.legal_actions()]  # noqa: E731
    dist = exact_distribution(state, half, lambda s: s.success)
    # 1/2 first roll; else 1/2 chance to reroll, then 1/2: 1/2 + 1/2 * 1/2 * 1/2
    assert dist[True] == F(5, 8)
    first = exact_distribution(state, half, lambda s: s.last, stop=lambda s: s.last is not None)
    assert first == Die.from_pmf({i: F(1, 6) for i in range(1, 7)})


def test_play_is_reproducible_and_matches_the_exact_odds():
    rules = ToyRules(target=5, shields=1)
    wins = 0
    n = 3000
    rng = random.Random(11)
    for _ in range(n):
        s = play(
            ToyGame(rules=rules).new_initial_state(), lambda s, r: reroll_while_possible(s), rng
        )
        wins += s.success
    exact = D6.p_at_least(5, rerolls=1)  # 1 - (2/3)^2 = 5/9
    assert exact == F(5, 9)
    sd = (float(exact) * (1 - float(exact)) / n) ** 0.5
    assert abs(wins / n - float(exact)) < 4 * sd
    a = play(ToyGame().new_initial_state(), [RandomBot()], 5)
    b = play(ToyGame().new_initial_state(), [RandomBot()], 5)
    assert a.history == b.history


def test_games_drawn_by_turns_are_fair_and_seeded():
    # play(..., turns=): each step draws from a StepRandom seeded by the turn and the step.
    # The toy's chance of success with one reroll stays 5/9 (3000 games: within 4 standard
    # deviations), and a seed gives the same game every time
    rules = ToyRules(target=5, shields=1)
    rng, n = random.Random(12), 3000
    wins = sum(
        play(
            ToyGame(rules=rules).new_initial_state(),
            lambda s, r: reroll_while_possible(s),
            rng,
            turns=lambda s: (0,),
        ).success
        for _ in range(n)
    )
    sd = (5 / 9 * 4 / 9 / n) ** 0.5
    assert abs(wins / n - 5 / 9) < 4 * sd
    a, b = (
        play(ToyGame().new_initial_state(), [RandomBot()], 5, turns=lambda s: (0,)) for _ in "ab"
    )
    assert a.history == b.history


def test_step_random_draws_evenly_and_is_seeded_by_its_key():
    from coronas.engine.search import StepRandom

    # 60,000 throws of a die, one a seed as games drawn by turns make them: each face is
    # 10,000 expected, a standard deviation of 91; the chi-square statistic on 5 degrees of
    # freedom exceeds 20.5 with probability 0.001
    counts = [0] * 6
    r = StepRandom()
    for i in range(60_000):
        r.seed((7, i, True, 3))
        counts[r.randrange(6)] += 1
    assert sum((c - 10_000) ** 2 / 10_000 for c in counts) < 20.5
    r.seed((7, 1, True, 3))
    first = [r.random() for _ in range(3)] + [r.getrandbits(100), r.choice("abcdef")]
    r.seed((7, 1, True, 3))
    assert [r.random() for _ in range(3)] + [r.getrandbits(100), r.choice("abcdef")] == first
    assert all(0 <= x < 1 for x in first[:3]) and 0 <= first[3] < 2**100
    assert r.getrandbits(0) == 0 and 0 <= r.getrandbits(64) < 2**64
    r.seed((7, 2, True, 3))
    assert r.random() != first[0]


def test_play_stops_at_its_step_cap_and_says_so_only_if_the_game_is_not_over():
    state = ToyGame().new_initial_state()
    state.apply(Roll(1))
    # the one step allowed ends the game: that is an ending, not a cap
    ended = play(state.clone(), lambda s, r: GiveUp(), 0, max_steps=1)
    assert ended.is_terminal()
    with pytest.raises(GameDidNotEnd, match=r"did not end within 1 step$") as info:
        play(state.clone(), lambda s, r: Reroll(), 0, max_steps=1)
    assert info.value.max_steps == 1


def test_clones_undo_independently():
    state = ToyGame().new_initial_state()
    state.apply(Roll(1))
    state.apply(Reroll())
    copy = state.clone()
    assert copy.undo() == Reroll() and state.undo() == Reroll()
    copy.apply(GiveUp())
    # the original is unaffected by what the clone did after sharing its undo stack
    assert state.shields == 2 and not state.is_terminal()
    assert copy.is_terminal() and copy.shields == 2


def test_registered_games_are_listed_by_name():
    games = available_games()
    assert games["toy"] is ToyGame
    assert list(games) == sorted(games)


def test_players_are_named_as_each_game_names_them():
    from coronas.batalla import Game as Batalla
    from coronas.carolus import Game as Carolus
    from coronas.hierro import Game as Hierro

    assert Carolus(players=2, seed=1).new_initial_state().player_name(1) == "player 2"
    assert Batalla(seed=1).new_initial_state().player_name(1) == "player 2"
    assert Hierro(players=3, seed=1).new_initial_state().player_name(2) == "blue"


def test_an_action_is_described_by_its_own_words_unless_the_game_adds_more():
    state = ToyGame().new_initial_state()
    assert state.describe(Roll(3)) == "roll 3" == str(Roll(3))
