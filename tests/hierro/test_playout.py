"""Fast playouts of Corona de Hierro: seeded games replay as before the engine was made
faster, the light policy plays legal moves on what its seat sees, and the evaluation of a
position gives win chances from public information."""

from __future__ import annotations

import hashlib
import json
import math
import random

import pytest

from coronas.engine import IllegalAction, RandomBot, State, play
from coronas.engine.actions import jsonable
from coronas.engine.mcts import game_defaults
from coronas.hierro import AttackCastle, Game
from coronas.hierro.bots import BOTS
from coronas.hierro.features import (
    FEATURES,
    LEARNING,
    WEIGHTS,
    earlier_evaluate,
    evaluate,
    features,
    value_features,
)
from coronas.hierro.playout import PLAYOUT, LightBot

from ..playouts import check_shares_along_a_game, light_wins, play_legally
from .helpers import BLUE, GREEN, RED, position
from .test_observation import twin

# Seeded random playouts recorded on the engine before its speed-ups: (players, seed, number of
# actions, final scores, the first 16 hex digits of the SHA-256 of the history as JSON).
RECORDED = [
    (3, 0, 584, [12, 18, 12], "b0ca62d88ef24167"),
    (3, 1, 520, [18, 12, 14], "f8e78434d6de6104"),
    (3, 2, 501, [13, 5, 26], "283b26c1d1652475"),
    (3, 3, 546, [22, 7, 14], "f369f65d5fd023a1"),
    (4, 1, 548, [12, 9, 13, 6], "7a780f9a8a1cd41a"),
    (5, 2, 401, [11, 3, 2, 12, 6], "9f92d406f4916218"),
]


@pytest.mark.parametrize(("players", "seed", "length", "scores", "digest"), RECORDED)
def test_seeded_random_playouts_replay_the_recorded_histories(
    players, seed, length, scores, digest
):
    state = play(Game(players=players, seed=seed).new_initial_state(), RandomBot(), seed)
    text = json.dumps([jsonable(a) for a in state.history], sort_keys=True)
    assert len(state.history) == length
    assert state.returns() == scores
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == digest


def test_apply_still_checks_an_action_after_a_change_by_hand():
    """``apply`` trusts only the very actions listed for the position as it is: a listed
    action is checked again once the position was changed by hand."""
    s = position(castles={"Verona": GREEN}, armies={"Verona": {RED: 3}})
    attack = AttackCastle("Verona")
    assert attack in s.legal_actions()
    listed = next(a for a in s.legal_actions() if a == attack)
    s.armies = {}
    with pytest.raises(IllegalAction, match="no army"):
        s.apply(listed)
    assert s.history == []


def test_light_bot_is_registered_and_named():
    assert BOTS["light"] is LightBot and LightBot().name == "light"
    assert repr(LightBot()) == "LightBot(epsilon=0.1)"
    with pytest.raises(ValueError, match="probability"):
        LightBot(epsilon=2)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_light_bot_plays_legal_actions_to_the_end(players):
    for seed in range(3):
        state = Game(players=players, seed=seed).new_initial_state()
        play_legally(state, LightBot(), random.Random(seed))


def test_light_bot_beats_random_play():
    """Seeded: in 6 three-player games, the light seat (rotated) wins at least 5; random
    seats would win 2 on average."""

    def start(seed: int) -> State:
        return Game(players=3, seed=100 + seed).new_initial_state()

    assert light_wins(start, LightBot(), 3, 6) >= 5


def test_light_bot_and_evaluate_see_only_what_their_seat_sees():
    rng = random.Random(11)
    state = Game(players=4, seed=11).new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        p = state.current_player
        if len(state.history) % 5 == 0:
            other = twin(state, p, rng)
            k = rng.randrange(2**32)
            assert LightBot().choose(state, random.Random(k)) == LightBot().choose(
                other, random.Random(k)
            )
            assert evaluate(state) == evaluate(other)
            checked += 1
        state.apply(LightBot().choose(state, rng))
    assert checked > 10


def test_evaluate_gives_shares_in_0_1_summing_to_1_and_exact_at_the_end():
    for seed in range(3):
        state = Game(players=3 + seed, seed=seed).new_initial_state()
        check_shares_along_a_game(state, evaluate, LightBot(), random.Random(seed))


def test_evaluate_shares_a_shared_victory():
    state = play(Game(players=3, seed=1).new_initial_state(), RandomBot(), 1)
    # Put the same final score in two seats' hands by hand: they share the win.
    state.vp = [0, 0, 0]
    state.legit = [5, 5, 5]
    state.hostages = ()
    state.owner = {}
    state.loyalty = [None, None, None]
    assert state.winners() == [RED, GREEN, BLUE]
    assert evaluate(state) == (1 / 3, 1 / 3, 1 / 3)


def test_evaluate_ranks_a_winning_position_above_a_losing_one():
    """Red holds five castles (two pairs of a noble family) and the top of the legitimacy
    track; green and blue hold one castle each, low on the track."""
    s = position(
        castles={
            "Verona": RED,
            "Padua": RED,
            "Milan": RED,
            "Turin": RED,
            "Pavia": RED,
            "Camerino": GREEN,
            "Luni": BLUE,
        },
        legitimacy=[10, 2, 2],
    )
    shares = evaluate(s)
    assert shares[RED] > 3 / 4
    assert shares[RED] > shares[GREEN] and shares[RED] > shares[BLUE]
    assert shares[GREEN] == pytest.approx(shares[BLUE])


def test_earlier_evaluate_counts_each_level_of_legitimacy():
    """Red and green two levels above blue, all three in the yellow band (levels 5 to 9) and
    otherwise alike, red to move. The earlier evaluation's strengths are WEIGHTS . features:
    red leads blue by 2 L + T (L a level's weight, T the move's), green by 2 L, so the shares are
    e^(2L+T), e^(2L) and 1 over their sum, worked out by hand from the logistic model; the
    band, the same for all three, and a lone leader's crown count for nothing."""
    weight = dict(zip(FEATURES, WEIGHTS, strict=True))
    level, move = weight["legitimacy"], weight["to_move"]
    even = position(legitimacy=[6, 6, 6])
    assert even.player == RED
    one = math.exp(move)
    assert earlier_evaluate(even) == pytest.approx((one / (one + 2), 1 / (one + 2), 1 / (one + 2)))
    ahead = position(legitimacy=[8, 8, 6])
    r, g = math.exp(2 * level + move), math.exp(2 * level)
    assert earlier_evaluate(ahead) == pytest.approx(
        (r / (r + g + 1), g / (r + g + 1), 1 / (r + g + 1))
    )
    lone = position(legitimacy=[9, 8, 6])  # red alone on top: scores() would crown it
    assert earlier_evaluate(lone)[RED] / earlier_evaluate(lone)[GREEN] == pytest.approx(
        math.exp(level + move)
    )


def test_evaluate_is_the_shipped_value_model():
    """evaluate is the shipped value model over the value features (the earlier six, the
    hand and the public VP lead); it too puts red, two levels up and to move, first."""
    model = LEARNING.value_model()
    ahead = position(legitimacy=[8, 8, 6])
    assert evaluate(ahead) == pytest.approx(model.shares(value_features(ahead)))
    assert model.names[: len(FEATURES)] == FEATURES
    assert evaluate(ahead)[RED] > evaluate(ahead)[GREEN] > evaluate(ahead)[BLUE]


def test_features_are_what_the_table_sees():
    """Red holds Verona and Padua (one noble family: 2 x 2 = 4 VP) and Milan (another: 1 VP)
    with three pawns on the board, is on level 7 and to move; green holds Camerino (1 VP), has
    2 VP of cards played and one of its emissaries held hostage by red; blue holds nothing.
    "If none of our emissaries is held hostage by another player, we add one victory
    point." """
    s = position(
        castles={"Verona": RED, "Padua": RED, "Milan": RED, "Camerino": GREEN},
        legitimacy=[7, 3, 2],
        armies={"Turin": {RED: 3}},
        hostages=[(RED, GREEN)],
        vp=[0, 2, 0],
    )
    rows = features(s)
    assert dict(zip(FEATURES, rows[RED], strict=True)) == {
        "castles": 5,
        "cards": 0,
        "emissaries": 1,
        "legitimacy": 7,
        "pawns": 3,
        "to_move": 1,
    }
    assert dict(zip(FEATURES, rows[GREEN], strict=True)) == {
        "castles": 1,
        "cards": 2,
        "emissaries": 0,
        "legitimacy": 3,
        "pawns": 0,
        "to_move": 0,
    }
    assert rows[BLUE][:2] == (0, 0)


def test_the_search_plays_out_without_random_moves():
    """The search's playout policy is the light player that never plays at random (a cut
    playout needs no random moves to end); win chances keep LightBot(), which does."""
    defaults = game_defaults(Game(players=3, seed=1).new_initial_state())
    assert defaults.playout is PLAYOUT and PLAYOUT.epsilon == 0
    assert defaults.evaluate is evaluate
    assert LightBot().epsilon == 0.1


def test_the_light_player_marches_on_the_nearest_castle_its_seat_does_not_own():
    # the roads from each city to the nearest castle not owned, as networkx measures them on
    # the board's graph, for no castle owned, one, and all but one
    import networkx as nx

    from coronas.hierro.playout import _nearest

    info = Game(players=3, seed=0).info
    roads = dict(nx.all_pairs_shortest_path_length(info.board.graph()))
    castles = sorted(info.castles)
    for owned in (frozenset(), frozenset(castles[:1]), frozenset(castles[1:])):
        others = [c for c in castles if c not in owned]
        expected = {c: min(roads[c].get(t, 99) for t in others) for c in info.cities}
        assert _nearest(info, owned) == expected
    assert set(_nearest(info, frozenset(castles)).values()) == {0}  # every castle owned


def test_battle_odds_are_worked_out_once_for_equal_rule_sets():
    # every game has its own Rules object; equal ones share one table of battle odds, which
    # holds the exact chance of the battle
    from coronas.dice import exact_fractions
    from coronas.hierro import odds
    from coronas.hierro.playout import _BATTLES, battle_odds

    first, second = Game(players=3, seed=0).rules, Game(players=3, seed=1).rules
    assert first == second and first is not second
    with exact_fractions():
        exact = odds.battle(3, 2, rules=first).attacker_wins
    assert battle_odds(first, 3, 2, False) == battle_odds(second, 3, 2, False) == float(exact)
    assert _BATTLES[first] is _BATTLES[second]
