"""Properties of random legal play: pieces are conserved, tracks stay in bounds, decks add up,
games end, the fast legal-action list agrees with the rules, save/load and replay agree."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coronas.engine import IllegalAction, State
from coronas.hierro import (
    AcceptAlliance,
    AttackArmy,
    AttackCastle,
    DiscardCard,
    Game,
    Move,
    PlayForcedMarch,
    PlayGoodFortune,
    PlayHostage,
    PlayResistance,
    PlaySpy,
    Recruit,
    RequestAlliance,
    RequestSupport,
    Retrieve,
    ReturnHostage,
    SendEmissary,
    SpyDiscard,
    TakeCard,
    TakeHostage,
)
from coronas.hierro.bots import GreedyBot
from coronas.hierro.rules import MILITARY_KINDS, card_kind

MAX_STEPS = 20_000
GREEDY = GreedyBot()


def check_invariants(s: Any) -> None:
    r = s.rules
    n = s.num_players
    for p in range(n):
        on_map = sum(here.get(p, 0) for here in s.armies.values())
        assert s.pawns[p] + on_map == r.army_pawns, "pawns"
        assert s.banners[p] + len(s.castles_of(p)) == r.banners, "banners"
        placed = (
            sum(q == p for ems in s.at_castle.values() for q, _ in ems)
            + s.rome.count(p)
            + s.saracens.count(p)
            + s.magyars.count(p)
            + sum(a == p for a, _ in s.zone)
            + sum(o == p for _, o in s.hostages)
        )
        assert s.hand_em[p] + placed == r.emissaries, "emissaries"
        assert 0 <= s.legit[p] <= r.crown, "legitimacy"
        assert len(s.hands[p]) <= r.hand_limit, "hand limit"
    assert sum(s.shields) + s.supply == r.shields_total and s.supply >= 0, "shields"
    assert all(len(e) <= r.castle_emissaries for e in s.at_castle.values())
    assert len(s.rome) <= r.rome_capacity(n)
    assert len(s.saracens) <= r.barbarian_capacity(n) >= len(s.magyars)
    for kind, deck in (("military", r.military_deck), ("political", r.political_deck)):
        held = Counter(s.decks[kind])
        for pile in (*s.hands, *s.looking):
            held.update(c for c in pile if _deck_of(c) == kind)
        held.update({c: k for c, k in s.discards.items() if _deck_of(c) == kind})
        assert held == Counter(deck), kind
        assert sum(held.values()) == 29


def _deck_of(card: str) -> str:
    return "military" if card_kind(card) in MILITARY_KINDS else "political"


def universe(s: Any, rng: random.Random) -> list[Any]:
    """A broad sample of turn actions, legal or not, for the current position."""
    info = s.info
    n = s.num_players
    cities = list(info.cities)
    castles = list(info.castles)
    places = [*castles, "Rome", "Saracens", "Magyars", "Alliance Zone", "Atlantis"]
    players = list(range(-1, n + 1))
    cards = sorted(set(s.rules.military_deck) | set(s.rules.political_deck))
    out = []
    for _ in range(40):
        c = rng.choice(cities)
        out += [
            Move(c, rng.choice(info.adj[c] + (rng.choice(cities),)), rng.randint(0, 4)),
            AttackArmy(c, rng.choice(players)),
            AttackCastle(rng.choice(castles)),
            Recruit(rng.choice(castles)),
            SendEmissary(rng.choice(places)),
            RequestSupport(rng.choice(castles)),
            RequestAlliance(rng.choice(players)),
            AcceptAlliance(rng.choice(players)),
            Retrieve(rng.choice(places), rng.choice([None, *players])),
            TakeHostage(rng.choice(castles), rng.choice(players)),
            ReturnHostage(rng.choice(players)),
            TakeCard(rng.choice(["military", "political", "gold"])),
            DiscardCard(rng.choice(cards)),
            PlayGoodFortune(rng.choice(castles), rng.choice(["army", "emissary"])),
            PlayForcedMarch(c, rng.choice(cities), rng.randint(1, 3)),
            PlayResistance(rng.choice(castles), rng.choice(players)),
            PlaySpy(rng.choice(players)),
            SpyDiscard(rng.choice(cards)),
            PlayHostage(rng.choice(players), rng.choice(places)),
        ]
    return out


def play_checked(
    players: int, seed: int, advanced: bool = False, deep: float = 0.05, greedy: float = 0.0
) -> State:
    """A random game, checking the invariants after every step and, at a fraction ``deep`` of
    decisions, that the legal actions agree with the rule functions and that refusals change
    nothing. A fraction ``greedy`` of decisions is taken by the greedy bot (more battles,
    assaults and cards than uniform play)."""
    game = Game(players=players, seed=seed, rules={"advanced": advanced})
    s = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        check_invariants(s)
        if s.is_terminal():
            return s
        if s.is_chance_node():
            s.apply(s.sample_chance(rng))
            continue
        legal = s.legal_actions()
        assert legal, "a player to move always has a legal action"
        if s.step == "play" and rng.random() < deep:
            assert set(legal) == set(s.legal_by_rules())
            colour = s.colour(s.current_player)
            assert all(s.label(a).startswith(f"{colour}: ") for a in legal)
            G = s.graph()
            on_map = sum(sum(G.nodes[c]["armies"].values()) for c in s.info.cities)
            assert on_map == sum(s.rules.army_pawns - k for k in s.pawns)
            assert str(s) and s._repr_html_()
            assert len(set(legal)) == len(legal)
            for a in universe(s, rng):
                assert (a in legal) == (s._why_illegal(a) is None), a
            bad = next(a for a in universe(s, rng) if a not in legal)
            before = s.clone()
            with pytest.raises(IllegalAction):
                s.apply(bad)
            assert s == before
        if greedy and rng.random() < greedy:
            s.apply(GREEDY.choose(s, rng))
        else:
            s.apply(rng.choice(legal))
    raise AssertionError(f"the game did not end within {MAX_STEPS} steps")


@pytest.mark.parametrize("players", [3, 4, 5])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_random_play_keeps_the_invariants_and_ends(players, seed):
    s = play_checked(players, seed)
    assert s.is_terminal() and s.end_reason
    totals = s.returns()
    assert [row["total"] for row in s.scores()] == totals
    assert s.winners()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(3, 5))
def test_advanced_random_play_keeps_the_invariants(seed, players):
    play_checked(players, seed, advanced=True)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(3, 5))
def test_save_load_and_replay_give_equal_states(seed, players):
    s = play_checked(players, seed, deep=0)
    assert State.from_json(s.to_json()) == s
    replay = s.game.new_initial_state()
    for action in s.history:
        replay.apply(action)
    assert replay == s
    # Undo walks back to the start.
    k = len(s.history) // 2
    mid = replay.game.new_initial_state()
    for action in s.history[:k]:
        mid.apply(action)
    for _ in range(len(s.history) - k):
        replay.undo()
    assert replay == mid


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(3, 5), advanced=st.booleans())
def test_half_greedy_play_keeps_the_invariants(seed, players, advanced):
    s = play_checked(players, seed, advanced=advanced, greedy=0.5)
    assert s.is_terminal()
