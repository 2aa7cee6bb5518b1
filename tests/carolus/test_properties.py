"""Properties of random Carolus Magnus play: invariants, illegal actions, undo, save/load."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from coronas.carolus import (
    AssignJoker,
    CarolusState,
    ChooseDisc,
    Deploy,
    Game,
    MoveEmperor,
)
from coronas.carolus.bots import GreedyBot, RandomBot
from coronas.engine import IllegalAction, State, play

ALL_REGIONS = set(range(1, 16))


def check_invariants(s: CarolusState, builds: int) -> None:
    # 15 regions' worth of members, each in exactly one current region, in clockwise arcs
    seen = [m for r in s.ring for m in s.members[r]]
    assert sorted(seen) == sorted(ALL_REGIONS)
    assert all(min(s.members[r]) == r for r in s.ring) and s.ring == sorted(s.ring)
    for r in range(1, 16):
        if r not in s.ring:
            assert s.members[r] is None and s.knights[r] is None and s.castles[r] == 0
    assert s.emperor in s.ring
    # knights conserved: the 15 shuffled ones plus everything drawn, wherever they are now
    board = sum(sum(s.knights[r]) for r in s.ring)
    if s.phase not in ("board",):
        assert board == 15 + sum(s.placed)
    for p in range(s.num_players):
        assert s.drawn[p] == sum(s.reserve[p]) + sum(s.court[p]) + s.placed[p]
    # castles only where someone built them: an owner for every castle, none without one,
    # and as many castles on the board as were ever built (replacing is one for one)
    for r in s.ring:
        assert (s.castles[r] > 0) == (s.owner[r] >= 0)
    assert sum(s.castle_totals()) == builds
    # neighbours never share a castle owner (they would have merged)
    for i, r in enumerate(s.ring):
        nxt = s.ring[(i + 1) % len(s.ring)]
        if nxt != r and s.owner[r] >= 0:
            assert s.owner[nxt] != s.owner[r]
    # family control: the holder has at least as many knights as every other court
    for i, holder in enumerate(s.control):
        counts = [c[i] for c in s.court]
        if holder >= 0:
            assert counts[holder] == max(counts) > 0


def candidate_actions(s: CarolusState) -> list:
    """Legal and illegal actions of every kind the player could try."""
    fams = [*s.rules.families, "purple"]
    out = [ChooseDisc(d) for d in range(0, 7)]
    out += [Deploy(f, r) for f in fams for r in (None, *range(0, 17))]
    out += [MoveEmperor(k, r) for k in range(0, 7) for r in range(1, 16)]
    out += [AssignJoker(f) for f in fams]
    return out


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3]))
def test_random_play_keeps_every_invariant(seed, players):
    rng = random.Random(seed)
    state = Game(players=players).new_initial_state()
    builds = 0
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            assert legal, "a decision node always has a legal action"
            # the rule functions that check one action agree with the listing
            probes = candidate_actions(state)
            listed = set(legal)
            for a in probes:
                assert (state._reason(a) is None) == (a in listed), a
            action = rng.choice(legal)
        state.apply(action)
        if isinstance(action, MoveEmperor) and state.last.change == "build":
            builds += 1
        if steps % 7 == 0:
            check_invariants(state, builds)
        steps += 1
    check_invariants(state, builds)
    assert state.winners()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_illegal_actions_raise_and_change_nothing(seed):
    rng = random.Random(seed)
    state = Game(players=2 + seed % 2).new_initial_state()
    tried = 0
    while not state.is_terminal() and tried < 40:
        if not state.is_chance_node() and rng.random() < 0.2:
            legal = set(state.legal_actions())
            bad = [a for a in candidate_actions(state) if a not in legal]
            action = rng.choice(bad)
            before = state.clone()
            try:
                state.apply(action)
            except IllegalAction as exc:
                assert str(exc)
            else:
                raise AssertionError(f"{action} was accepted")
            assert state == before and state.history == before.history
            tried += 1
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), stop=st.integers(0, 400))
def test_save_load_replay_and_undo_give_equal_states(seed, stop):
    rng = random.Random(seed)
    state = Game(players=2 + seed % 2, seed=seed).new_initial_state()
    snapshots = []
    for _ in range(stop):
        if state.is_terminal():
            break
        snapshots.append(state.clone())
        state.apply(
            state.sample_chance(rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
    loaded = State.from_json(state.to_json())
    assert loaded == state and loaded.history == state.history
    replay = Game(players=state.num_players, seed=seed).new_initial_state()
    for a in state.history:
        replay.apply(a)
    assert replay == state
    for snap in reversed(snapshots[-30:]):
        state.undo()
        assert state == snap


def test_hand_built_positions_save_and_load():
    from tests.carolus.conftest import make

    state = make(
        phase="move", chosen=(2, 4), emperor=3, knights={5: {"red": 2}}, courts=({"red": 1}, {})
    )
    state.apply(state.legal_actions()[1])
    loaded = State.from_json(state.to_json())
    assert loaded == state and loaded.castles[5] == 1


def test_greedy_beats_random_and_all_games_end():
    wins = 0
    for i in range(6):
        bots = [GreedyBot(), RandomBot()] if i % 2 == 0 else [RandomBot(), GreedyBot()]
        s = play(Game(players=2).new_initial_state(), bots, rng=i)
        wins += (i % 2) in s.winners()
    assert wins >= 5


def test_a_thousand_random_games_finish():
    bot = RandomBot()
    ends = {"castles": 0, "regions": 0}
    for i in range(1000):
        s = play(Game(players=2 + i % 2).new_initial_state(), bot, rng=i)
        assert s.is_terminal()
        target = s.rules.castle_target(s.num_players)
        assert max(s.returns()) >= target or len(s.ring) < 4
        ends["castles" if max(s.returns()) >= target else "regions"] += 1
    assert sum(ends.values()) == 1000


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), stop=st.integers(150, 600))
def test_a_position_taken_from_a_game_starts_an_equal_game(seed, stop):
    rng = random.Random(seed)
    state = Game(players=2 + seed % 2).new_initial_state()
    for _ in range(stop):
        if state.is_terminal():
            break
        state.apply(
            state.sample_chance(rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
    if state.phase not in ("disc", "deploy", "move", "replenish") or state.joker:
        return
    pos = state.to_position()
    again = Game(players=state.num_players, position=pos).new_initial_state()
    same = (
        "knights",
        "members",
        "castles",
        "owner",
        "ring",
        "court",
        "reserve",
        "control",
        "used",
        "chosen",
        "order",
        "phase",
        "cursor",
        "left",
        "round",
        "emperor",
    )
    for name in same:
        assert getattr(again, name) == getattr(state, name), name
    assert again.legal_actions() == state.legal_actions()
    assert Game.from_params(again.game.params()).position == pos
