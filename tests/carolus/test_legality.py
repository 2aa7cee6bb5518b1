"""Checking one action: ``apply`` asks the rule of that action (no list of legal actions is
built), gives the game's reason, and refuses malformed action objects like illegal ones."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coronas.carolus import (
    JOKER,
    AssignJoker,
    ChooseDisc,
    Deploy,
    Draw,
    Game,
    MoveEmperor,
    PlaceKnight,
    SetOrder,
)
from coronas.engine import IllegalAction, RandomBot, play
from tests.carolus.conftest import make

RESERVES = ({"red": 2, "blue": 1}, {"green": 3})


def states():
    """One state at every kind of node: each decision, each chance node, the end."""
    out = {
        "disc": make(reserves=RESERVES),
        "deploy": make(reserves=RESERVES, phase="deploy", chosen=(2, 4)),
        "move": make(reserves=RESERVES, phase="move", chosen=(2, 4)),
        "replenish": make(reserves=RESERVES, phase="replenish", chosen=(2, 4)),
        "board": Game(players=2).new_initial_state(),
    }
    joker = make(reserves=RESERVES, phase="replenish", chosen=(2, 4))
    joker.apply(Draw(JOKER))
    out["joker"] = joker
    order = Game(players=3).new_initial_state()
    rng = random.Random(1)
    while order.phase != "order":
        if order.is_chance_node():
            order.apply(order.sample_chance(rng))
        else:
            order.apply(AssignJoker("red"))
    out["order"] = order
    out["over"] = play(Game(players=2).new_initial_state(), RandomBot(), rng=4)
    return out


STATES = states()


class Unprintable:
    """A value whose str and repr fail."""

    def __str__(self):
        raise RuntimeError("no str")

    __repr__ = __str__


ODD = st.sampled_from(
    [
        None,
        True,
        2.0,
        -1,
        0,
        99,
        "red",
        "3",
        "purple",
        JOKER,
        ["red"],
        {"red": 1},
        (1, 2),
        [1, 2],
        (0, 1, 2),
        b"red",
        Unprintable(),
    ]
)
ANY = st.one_of(ODD, st.integers(-3, 20))
ACTIONS = st.one_of(
    st.builds(Deploy, ANY, ANY),
    st.builds(MoveEmperor, ANY, ANY),
    st.builds(ChooseDisc, ANY),
    st.builds(AssignJoker, ANY),
    st.builds(Draw, ANY),
    st.builds(PlaceKnight, ANY, ANY),
    st.builds(SetOrder, ANY),
    ODD,
)


@settings(max_examples=300, deadline=None)
@given(where=st.sampled_from(sorted(STATES)), action=ACTIONS)
def test_any_action_object_is_played_or_refused_with_a_reason(where, action):
    state = STATES[where].clone()
    before = state.clone()
    legal = state.legal_actions() + [o for o, _ in state.chance_outcomes()]
    try:
        state.apply(action)
    except IllegalAction as exc:
        assert str(exc)
        assert state == before and state.history == before.history
    else:
        assert type(action) in {type(a) for a in legal}
        assert any(
            tuple(map(type, vars(action).values())) == tuple(map(type, vars(a).values()))
            and action == a
            for a in legal
        ), f"{action!r} was accepted at {where}"


@pytest.mark.parametrize("where", sorted(STATES))
def test_apply_checks_one_action_without_listing_the_legal_ones(where, monkeypatch):
    state = STATES[where].clone()
    legal = state.legal_actions() or [o for o, _ in state.chance_outcomes()]
    reasons = {}
    for bad in (Deploy("purple"), MoveEmperor(99, 1), ChooseDisc(9), Draw("purple")):
        with pytest.raises(IllegalAction) as exc:
            state.clone().apply(bad)
        reasons[bad] = str(exc.value)

    def no_listing(*_):
        raise AssertionError("apply listed the legal actions")

    monkeypatch.setattr(type(state), "_legal_actions", no_listing)
    for bad, reason in reasons.items():
        with pytest.raises(IllegalAction) as exc:
            state.apply(bad)
        assert str(exc.value) == reason
    if where not in ("board", "order", "replenish", "over"):
        state.apply(legal[0])
        assert state.history[-1] == legal[0]


@pytest.mark.parametrize(
    ("where", "action", "reason"),
    [
        ("deploy", Deploy(["red"]), r"Deploy.family: expected text, got \['red'\]"),
        (
            "deploy",
            Deploy("red", [3]),
            r"Deploy.region: expected a whole number or null, got \[3\]",
        ),
        ("deploy", Deploy("red", 2.0), r"Deploy.region: expected a whole number or null, got 2\.0"),
        (
            "deploy",
            Deploy("red", True),
            r"Deploy.region: expected a whole number or null, got True",
        ),
        ("deploy", Deploy(Unprintable()), r"Deploy.family: expected text, got <Unprintable>"),
        ("move", MoveEmperor("1", 2), r"MoveEmperor.steps: expected a whole number, got '1'"),
        ("move", MoveEmperor(1, [2]), r"MoveEmperor.region: expected a whole number, got \[2\]"),
        ("move", MoveEmperor(True, 2), r"MoveEmperor.steps: expected a whole number, got True"),
        ("disc", ChooseDisc([1]), r"ChooseDisc.disc: expected a whole number, got \[1\]"),
        ("disc", ChooseDisc(1.0), r"ChooseDisc.disc: expected a whole number, got 1\.0"),
        ("joker", AssignJoker({"red": 1}), r"AssignJoker.family: expected text, got \{'red': 1\}"),
        ("joker", Deploy("red"), r"player 1 must first assign the joker just drawn"),
        ("disc", Unprintable(), r"<Unprintable> is not an action or chance outcome of carolus"),
        ("replenish", Draw(["red"]), r"Draw.family: expected text, got \['red'\]"),
        (
            "board",
            PlaceKnight(1.0, "red"),
            r"PlaceKnight.region: expected a whole number, got 1\.0",
        ),
        ("order", SetOrder([0, 1, 2]), r"SetOrder.order: expected a list of whole numbers, got"),
        ("order", SetOrder((0, 1, True)), r"expected a list of whole numbers \(item 2 is not\)"),
        ("over", Unprintable(), r"<Unprintable> is not an action or chance outcome of carolus"),
    ],
)
def test_a_malformed_action_is_refused_with_a_reason(where, action, reason):
    state = STATES[where].clone()
    before = state.clone()
    with pytest.raises(IllegalAction, match=reason):
        state.apply(action)
    assert state == before


def test_the_rule_of_an_action_agrees_with_the_listing_on_every_node():
    for where, state in STATES.items():
        fams = [*state.rules.families, "purple"]
        probes = [ChooseDisc(d) for d in range(7)]
        probes += [Deploy(f, r) for f in fams for r in (None, *range(0, 17))]
        probes += [MoveEmperor(k, r) for k in range(7) for r in range(1, 16)]
        probes += [AssignJoker(f) for f in fams]
        listed = set(state.legal_actions())
        for a in probes:
            assert (state._reason(a) is None) == (a in listed), (where, a)
        for o, _ in state.chance_outcomes():
            assert state._reason(o) is None, (where, o)
