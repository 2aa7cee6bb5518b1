"""Many random games of Corona de Hierro end without error; the bots play legal moves."""

from __future__ import annotations

import random
from collections import Counter

from coronas.engine import play
from coronas.hierro import Game
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
