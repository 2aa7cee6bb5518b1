"""Many random games of Corona de Hierro end without error; the bots play legal moves."""

from __future__ import annotations

import random
from collections import Counter

from coronas.engine import play
from coronas.hierro import Game, actions
from coronas.hierro.bots import GreedyBot, RandomBot

GAMES = 1000


def test_a_thousand_random_games_end():
    reasons: Counter[str] = Counter()
    for i in range(GAMES):
        players = 3 + i % 3
        state = Game(players=players, seed=i).new_initial_state()
        play(state, RandomBot(), random.Random(i), max_steps=20_000)
        assert state.is_terminal()
        assert len(state.returns()) == players and state.winners()
        reasons[state.end_reason] += 1
    assert sum(reasons.values()) == GAMES
    # Random play reaches the end in more than one way.
    assert len(reasons) >= 2, reasons


def test_greedy_bot_beats_random_bots_more_often_than_not():
    wins = 0
    games = 30
    for i in range(games):
        state = Game(players=3, seed=i).new_initial_state()
        play(state, [GreedyBot(), RandomBot(), RandomBot()], random.Random(i))
        wins += 0 in state.winners()
    # A random seat wins about a third of the time; the greedy bot should win far more.
    assert wins > games // 2


def test_bots_have_names_and_choose_legal_actions():
    state = Game(players=4, seed=3).new_initial_state()
    rng = random.Random(3)
    for bot in (RandomBot(), GreedyBot()):
        assert bot.name in ("random", "greedy")
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        action = GreedyBot().choose(state, rng)
        assert action in state.legal_actions()
        state.apply(action)


def test_greedy_bots_finish_games_of_every_size_and_both_rule_sets():
    reasons: Counter[str] = Counter()
    for i in range(30):
        rules = {"advanced": i % 2 == 0}
        state = Game(players=3 + i % 3, seed=i, rules=rules).new_initial_state()
        play(state, GreedyBot(), random.Random(i), max_steps=20_000)
        assert state.is_terminal()
        reasons[state.end_reason] += 1
    assert sum(reasons.values()) == 30


# Greedy self-play from these seeds once went round for ever: sending an emissary and
# retrieving it, marching out and back, with full hands and no castle left to win.
CYCLING = {"game_seed": 290955706479577517, "play_seed": 8039904498933234057}


def _greedy_self_play(max_steps):
    state = Game(players=3, seed=CYCLING["game_seed"]).new_initial_state()
    play(state, GreedyBot(), random.Random(CYCLING["play_seed"]), max_steps=max_steps)
    return state


def test_greedy_self_play_that_used_to_cycle_ends_by_the_book():
    state = _greedy_self_play(20_000)
    assert state.is_terminal() and state.end_reason
    assert state.end_reason in (
        "a player reached the crown",
        "the last card of a deck was drawn",
        "a player lost its last castle",
    )


def test_a_quiet_record_turns_the_greedy_bot_to_progress():
    import coronas.hierro.bots as bots

    state = _greedy_self_play(20_000)
    while not isinstance(state.history[-1], actions.Draw):
        state.undo()  # back to just after the last card drawn: normal play
    assert bots._stall(state) == 0
    # add quiet decisions by hand: one fewer than QUIET_ROUNDS rounds is still normal play
    per_round = 3 * state.rules.actions_per_turn
    quiet = actions.Move("x", "y", 1)
    state.history.extend([quiet] * (bots.QUIET_ROUNDS * per_round - 1))
    assert bots._stall(state) == 0
    state.history.append(quiet)
    assert bots._stall(state) == bots._PROGRESS
    # at its turn it then plays only progress: a draw, an assault, a step to the crown
    assert state.step == "play"
    seen = bots.Seen(state)
    legal = state.legal_actions()
    assert any(not bots._makes_progress(seen, a, bots._PROGRESS) for a in legal)
    for seed in range(5):
        choice = GreedyBot().choose(state, random.Random(seed))
        assert bots._makes_progress(seen, choice, bots._PROGRESS), choice
    state.history.append(actions.Roll(3))  # a roll (that failed): still no card drawn
    state.history.extend([quiet] * (bots.DRAWLESS_ROUNDS * per_round))
    assert bots._stall(state) == bots._DRAW
