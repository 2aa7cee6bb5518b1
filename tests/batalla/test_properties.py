"""Invariants under random legal play, illegal actions, save/load and replay; many bot games."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coronas.batalla import (
    CHURCH_SQUARES,
    COUNSELORS,
    Accept,
    Attack,
    BattleRoll,
    Buy,
    ChooseDie,
    CrossReroll,
    EndTurn,
    Game,
    IllegalAction,
    Invoke,
    Muster,
    Reroll,
    RerollDie,
    Roll,
    RollOff,
    Rules,
    Seat,
    SpendCross,
    SpendCrown,
    SpendSwords,
    State,
    Visit,
)
from coronas.batalla.bots import GreedyBot, RandomBot
from coronas.engine import play
from coronas.engine.journal import LoggedDict, LoggedList

# Every action of the game, legal or not somewhere: the pool illegal moves are drawn from.
ALL_ACTIONS = [
    *(Seat(c) for c in COUNSELORS), *(Invoke(c) for c in COUNSELORS),
    *(Visit(s) for s in CHURCH_SQUARES), *(SpendCross(s) for s in CHURCH_SQUARES),
    Muster("shield"), Muster("sword"), SpendCrown(), Attack(), EndTurn(), Accept(),
    CrossReroll(), *(Buy(i, s) for i in ("shield", "sword") for s in (False, True)),
    Buy("dragon"), *(Reroll(c) for c in range(1, 5)), *(SpendSwords(n) for n in range(6)),
    *(ChooseDie(a, b) for a in range(1, 7) for b in range(1, 7)),
    Roll(1, 6), Roll(3, 3), RollOff(6, 1), BattleRoll(4, 2), RerollDie(5),
]  # fmt: skip

RULE_SETS = [
    Rules(),
    Rules(reroll_on_tie=True, cross_effect="reroll", church_revisit="never"),
    Rules(council_bonus=False, gem_covers_gold=False, cross_needs_priest=True,
          dragon_costs=(1, 1, 2), min_swords_spent=0),
]  # fmt: skip


def check_invariants(s: State) -> None:
    r = s.rules
    for p in range(2):
        assert 0 <= s.shields[p] <= r.militia_max
        assert 0 <= s.swords[p] <= r.militia_max
        assert 0 <= s.dragon[p] < r.dragon_attack_level
        assert r.gold_min <= s.gold[p] <= s.cap(p) <= r.gold_max
        assert 0 <= s.gems_won[p] <= r.gems_each
        seated = [c for c in s.chairs[p] if c is not None]
        assert len(seated) == len(set(seated)) and set(seated) <= set(COUNSELORS)
        assert s.clergy[p] in (None, *CHURCH_SQUARES)
    # one holder per token: each token sits with player 0, player 1 or the supply
    for holder in s.token_holders().values():
        assert holder in (None, 0, 1)
    # six gems in all: those in the castles plus those won
    assert sum(s.gems_in_castle(p) + s.gems_won[p] for p in range(2)) == 2 * r.gems_each
    assert s.is_terminal() == (max(s.gems_won) == r.gems_each)
    # the undo log sees every change: each container of the state is a logged one
    for k, v in s._data().items():
        if isinstance(v, (list, dict, set)):
            assert type(v) in (LoggedList, LoggedDict), k


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULE_SETS), steps=st.integers(1, 400))
def test_random_play_keeps_invariants_and_refuses_illegal_moves(seed, rules, steps):
    rng = random.Random(seed)
    state = Game(seed=seed, rules=rules).new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        check_invariants(state)
        legal = (
            state.legal_actions()
            if not state.is_chance_node()
            else [o for o, _ in state.chance_outcomes()]
        )
        illegal = [a for a in rng.sample(ALL_ACTIONS, 6) if a not in legal]
        before = state.clone()
        for action in illegal:
            with pytest.raises(IllegalAction):
                state.apply(action)
            assert state == before and state.history == before.history
        action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(legal)
        state.apply(action)
    check_invariants(state)
    # save/load and replay from the seed and the action list give an equal state
    loaded = State.from_json(state.to_json())
    assert loaded == state and loaded.history == state.history
    replay = Game(seed=seed, rules=rules).new_initial_state()
    for action in state.history:
        replay.apply(action)
    assert replay == state
    # undo walks back to the start
    while state.history:
        state.undo()
    assert state == Game(seed=seed, rules=rules).new_initial_state()


def test_a_thousand_bot_games_finish():
    bots = [RandomBot(), GreedyBot()]
    wins = {"random": 0, "greedy": 0}
    for i in range(1000):
        rng = random.Random(i)
        state = Game(seed=i, rules=RULE_SETS[i % 3]).new_initial_state()
        seats = [bots[i % 2], bots[(i // 2) % 2]] if i % 10 else [bots[0], bots[1]]
        play(state, seats, rng)
        assert state.is_terminal()
        check_invariants(state)
        if seats[0] is not seats[1]:
            wins[seats[state.winner].name] += 1
    # the greedy player beats random play in most mixed games
    assert wins["greedy"] > 3 * wins["random"]
