"""The fast listing of legal actions against the rule functions, over seeded random games.

At many decisions of several games, every action of ``legal_actions()`` must pass its rule
(``_reason(action) is None``), and every action of a long list of candidates that passes
its rule must be listed: the candidates name every castle, area, player and card of the game,
with armies of every size, so the listing can neither miss an action nor add one. Seeded
random games list the same actions in the same order as recorded, so a faster listing plays
the same games.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from coronas.engine.actions import jsonable
from coronas.hierro import Game, actions
from coronas.hierro.actions import BARBARIANS, DECKS, ROME, ZONE
from coronas.hierro.bots import GreedyBot
from coronas.hierro.rules import card_kind

GREEDY = GreedyBot()


def every_candidate(s: Any) -> list[Any]:
    """Turn actions for the player to move: every place, player and card, legal or not."""
    p = s.player
    info = s.info
    n = s.num_players
    seats = range(n + 1)  # one seat too many
    castles = info.castles
    places = (*castles, ROME, *BARBARIANS, ZONE, "Atlantis")
    cards = sorted({*s.rules.military_deck, *s.rules.political_deck})
    out: list[Any] = []
    for city, here in s.armies.items():
        size = max(here.values())
        for to in (*info.adj[city], city, info.cities[0]):
            for k in range(size + 2):
                out.append(actions.Move(city, to, k))
        for q in seats:
            out += [actions.AttackArmy(city, q), actions.PlayCavalryCharge(city, q)]
        if p in here:
            for to in info.cities:
                for k in range(1, here[p] + 1):
                    out.append(actions.PlayForcedMarch(city, to, k))
    for c in castles:
        out += [actions.Recruit(c), actions.AttackCastle(c), actions.RequestSupport(c)]
        out += [actions.PlayGoodFortune(c, m) for m in ("army", "emissary", "prayer")]
        for q in seats:
            out += [actions.TakeHostage(c, q), actions.PlayResistance(c, q)]
    for place in places:
        out += [actions.SendEmissary(place), actions.Retrieve(place)]
        out += [actions.PlayHostage(q, place) for q in seats]
    for q in seats:
        out += [actions.RequestAlliance(q), actions.AcceptAlliance(q), actions.ReturnHostage(q)]
        out += [actions.Retrieve(ZONE, q), actions.Retrieve(ROME, q)]
        out.append(actions.PlaySpy(q))
    for deck in (*DECKS, "gold"):
        out += [actions.TakeCard(deck), actions.DrawCards(deck)]
    out += [actions.PlayPope(), actions.PlayKingIsDead()]
    for card in cards:
        out.append(actions.DiscardCard(card))
        kind = card_kind(card)
        if kind == "loyal_vassal":
            out += [actions.PlayLoyalVassal(card, c) for c in castles]
        out += [actions.PlayBishop(card), actions.PlaySecretPact(card), actions.PlayInvasion(card)]
    return out


def check_listing(s: Any) -> None:
    legal = s.legal_actions()
    assert len(set(legal)) == len(legal), "an action is listed twice"
    for a in legal:
        assert s._reason(a) is None, f"{a} is listed, but its rule says: {s._reason(a)}"
    listed = set(legal)
    for a in every_candidate(s):
        assert (s._reason(a) is None) == (a in listed), a
    assert listed == set(s.legal_by_rules())


# Few banners, pawns and emissaries make players run out of them, and pieces run out change
# what is legal.
SHORT = {"banners": 3, "army_pawns": 4, "emissaries": 2}


@pytest.mark.parametrize(
    ("players", "seed", "rules"),
    [
        (3, 1, {}),
        (4, 2, {}),
        (5, 3, {}),
        (3, 4, {"advanced": True}),
        (4, 5, {"advanced": True}),
        (5, 6, {"advanced": True}),
        (3, 7, SHORT),
        (4, 8, {**SHORT, "advanced": True}),
    ],
)
def test_listed_actions_are_those_the_rules_allow(players: int, seed: int, rules: dict) -> None:
    s = Game(players=players, seed=seed, rules=rules).new_initial_state()
    rng = random.Random(seed)
    checked = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply(s.sample_chance(rng))
            continue
        if s.step == "play" and rng.random() < 0.15:
            check_listing(s)
            checked += 1
        # Some greedy decisions: more battles, castles taken and cards played than uniform play.
        s.apply(GREEDY.choose(s, rng) if rng.random() < 0.3 else rng.choice(s.legal_actions()))
    assert checked >= 10


# Positions set up by hand where the edge cases meet: no banner left, castles with and without
# troops, shared cities, emissaries, alliances and hostages, and a hand of every kind of card.
POSITIONS = [
    {
        "rules": {"banners": 1},
        "castles": {"Friuli": 0, "Verona": 1, "Padua": (2, False)},
        "armies": {"Verona": {0: 2}, "Padua": {0: 1}, "Treviso": {0: 1, 1: 1}, "Ivrea": {2: 1}},
        "emissaries": {"Rome": [0]},
    },
    {
        "castles": {"Friuli": 0, "Verona": 0, "Brescia": 1, "Pavia": (2, False)},
        "armies": {"Verona": {0: 3, 1: 1}, "Friuli": {0: 4, 2: 2}, "Pavia": {0: 1}},
        "hands": [
            ["cavalry_charge", "forced_march", "good_fortune", "resistance", "loyal_vassal:1"],
            ["spy", "hostage"],
            ["bishop:1-2", "pope"],
        ],
        "emissaries": {"Camerino": [0, 1], "Romagna": [1], "Saracens": [0], "Magyars": [2]},
        "alliances": [(0, 2, True), (1, 0, False)],
        "hostages": [(0, 1)],
        "actions_left": 1,
    },
    {
        "castles": {"Friuli": 0, "Brescia": 1, "Ivrea": 2},
        "armies": {"Brescia": {0: 8}, "Ivrea": {1: 1, 2: 1}},
        "hands": [
            ["bishop:1-2", "secret_pact:1-2-3", "spy", "hostage", "king_is_dead"],
            ["magyar_invasion", "saracen_invasion", "pope", "cavalry_charge"],
            ["resistance", "loyal_vassal:3", "good_fortune"],
        ],
        "emissaries": {"Rome": [1, 2], "Camerino": [2]},
        "alliances": [(1, 2, False)],
        "hostages": [(2, 0)],
        "shields": [0, 5, 1],
    },
]


@pytest.mark.parametrize("spec", POSITIONS)
@pytest.mark.parametrize("to_move", [0, 1, 2])
def test_listed_actions_in_positions_set_by_hand(spec: dict, to_move: int) -> None:
    spec = dict(spec)
    game = Game(players=3, rules=spec.pop("rules", None))
    check_listing(game.position(to_move=to_move, **spec))


# Seeded random games, recorded on the engine of 2026-12-04 (the engine before the playout
# speed-ups, at 73b10df, lists and plays the same): players, seed, rules, number of actions,
# final scores, and the first 16 hex digits of the SHA-256 of the history and of every listing
# of legal actions along the game, as JSON.
RECORDED = [
    (3, 10, {}, 700, [13, 16, 9], "8a12d47e7ef8c4ab", "87ddd43e34470a0b"),
    (3, 11, {}, 552, [9, 25, 12], "a7c97b8b5c933149", "89dc2b143e13bce8"),
    (3, 12, {}, 323, [21, 13, 18], "5e9bfd14d8467a1c", "7ad33802af0438ba"),
    (3, 13, {}, 281, [9, 14, 7], "5b96bf322fdac3fa", "2d53e6d9588b3dc2"),
    (4, 20, {}, 543, [9, 10, 14, 17], "d3f95651933c3110", "67841934a8b16f7f"),
    (5, 21, {}, 533, [8, 9, 10, 21, 3], "d2d311c22b2bde32", "f6646cd4dcbaba50"),
    (3, 30, {"advanced": True}, 413, [19, 8, 13], "890155c819629d16", "146e1aade2939b24"),
    (4, 31, {"advanced": True}, 666, [11, 3, 11, 18], "2bea284eab2e611a", "f95f8fa98e0c14e9"),
    (5, 32, {"advanced": True}, 382, [4, 3, 7, 19, 5], "19661ad7b576742d", "d3eebff3b74e70a3"),
    (3, 40, SHORT, 407, [8, 9, 10], "0646e270d92995e0", "511f9d155460239e"),
    (
        4,
        41,
        {**SHORT, "advanced": True},
        481,
        [4, 16, 3, 4],
        "1711892c16fe1901",
        "a00e7250e93ce4fb",
    ),
]


@pytest.mark.parametrize(
    ("players", "seed", "rules", "length", "scores", "played", "listed"), RECORDED
)
def test_seeded_random_games_list_and_play_as_recorded(
    players: int, seed: int, rules: dict, length: int, scores: list, played: str, listed: str
) -> None:
    """Uniform random play (as ``RandomBot`` plays, on one seeded generator) picks by position
    in the list, so the same listings in the same order give the same game."""
    s = Game(players=players, seed=seed, rules=rules or None).new_initial_state()
    rng = random.Random(seed)
    listings = hashlib.sha256()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply(s.sample_chance(rng))
            continue
        legal = s.legal_actions()
        listings.update(json.dumps([jsonable(a) for a in legal], sort_keys=True).encode())
        s.apply(rng.choice(legal))
    history = json.dumps([jsonable(a) for a in s.history], sort_keys=True)
    assert len(s.history) == length
    assert s.returns() == scores
    assert hashlib.sha256(history.encode()).hexdigest()[:16] == played
    assert listings.hexdigest()[:16] == listed
