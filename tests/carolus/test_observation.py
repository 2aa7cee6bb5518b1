"""``state.observation(player)``: in Carolus Magnus nothing is hidden, so every player sees the
whole position (not the history), and the bots, deciding on it, decide on the position."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coronas.carolus import Game
from coronas.carolus.bots import GreedyBot, RandomBot
from tests.carolus.conftest import make


def walk(seed, players, stop):
    """A seeded random game stopped after ``stop`` steps (or at its end)."""
    rng = random.Random(seed)
    s = Game(players=players, seed=seed).new_initial_state()
    for _ in range(stop):
        if s.is_terminal():
            break
        s.apply(s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    return s


def public_state(s):
    """Everything on the table, read straight from the state's fields."""
    fams = s.rules.families

    def counts(row):
        return dict(zip(fams, row, strict=True))

    return {
        "phase": s.phase,
        "round": s.round,
        "order": list(s.order),
        "emperor": s.emperor,
        "regions": [
            (list(s.members[r]), counts(s.knights[r]), s.castles[r], s.owner[r]) for r in s.ring
        ],
        "courts": [counts(c) for c in s.court],
        "reserves": [counts(c) for c in s.reserve],
        "control": {f: p if p >= 0 else None for f, p in zip(fams, s.control, strict=True)},
        "chosen": list(s.chosen),
        "used": [list(u) for u in s.used],
        "bag": counts(s.bag),
        "joker": s.joker,
    }


def seen(obs):
    """The same, read from an observation."""
    regions = [
        (r["members"], r["knights"], r["castles"], -1 if r["owner"] is None else r["owner"])
        for r in obs["regions"]
    ]
    keys = ("phase", "round", "order", "emperor", "courts", "reserves", "control", "chosen")
    return {k: obs[k] for k in keys} | {
        "regions": regions,
        "used": obs["used"],
        "bag": obs["bag"],
        "joker": obs["joker"],
    }


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3]), stop=st.integers(0, 400))
def test_every_player_sees_the_whole_position(seed, players, stop):
    s = walk(seed, players, stop)
    views = [s.observation(p) for p in range(players)]
    for p, obs in enumerate(views):
        assert obs["viewer"] == p
        assert json.loads(json.dumps(obs)) == obs  # JSON-ready
        # nothing hidden: every player's view is the same, and it is the public state
        assert {**obs, "viewer": 0} == {**views[0], "viewer": 0}
        assert seen(obs) == public_state(s)
        assert obs["castle_totals"] == s.castle_totals()
    assert s.observation_text(0).startswith("Carolus Magnus seen by player 1")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3]), stop=st.integers(60, 250))
def test_the_same_position_by_another_history_looks_the_same_and_bots_agree(seed, players, stop):
    """Two states that differ only in what no one sees on the table (the history: how the
    position was reached, the last stop, knights drawn so far) give every player the same
    observation, and every bot the same choice."""
    s = walk(seed, players, stop)
    if s.phase not in ("disc", "deploy", "move", "replenish") or s.joker:
        return
    fresh = Game(players=players, position=s.to_position()).new_initial_state()
    assert fresh.history != s.history
    for p in range(players):
        assert fresh.observation(p) == s.observation(p)
        assert fresh.observation_text(p) == s.observation_text(p)
    if s.is_chance_node():
        return
    for bot in (GreedyBot(), RandomBot()):
        a = bot.choose(s, random.Random(seed))
        b = bot.choose(fresh, random.Random(seed))
        assert a == b, bot


def test_a_rivals_reserve_is_seen():
    # the only difference is player 1's reserve: player 0 sees it (nothing is hidden)
    a = make(phase="disc", reserves=({"red": 2}, {"blue": 1}))
    b = make(phase="disc", reserves=({"red": 2}, {"green": 1}))
    assert a.observation(0) != b.observation(0)
    assert a.observation(0)["reserves"][1] == {
        "red": 0,
        "yellow": 0,
        "green": 0,
        "blue": 1,
        "pink": 0,
    }
    assert "reserve 1 blue" in a.observation_text(0)


def test_the_set_up_bag_is_seen_by_count():
    s = Game(players=2).new_initial_state()
    s.apply(s.chance_outcomes()[0][0])  # a red knight lands in region 1
    obs = s.observation(0)
    assert obs["bag"] == {"red": 2, "yellow": 3, "green": 3, "blue": 3, "pink": 3}
    assert obs["next_region"] == 2
    assert "still to shuffle onto the board: 2 red" in s.observation_text(1)


def test_an_unknown_player_is_refused_naming_every_seat_by_its_index():
    s = make(phase="disc")
    for bad in (2, -1, "0", True):
        with pytest.raises(ValueError, match=r"there is no seat .*0 \(player 1\), 1 \(player 2\)"):
            s.observation(bad)
