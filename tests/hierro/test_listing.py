"""The fast listing of legal actions against the rule functions, over seeded random games.

At many decisions of several games, every action of ``legal_actions()`` must pass its rule
(``_reason(action) is None``), and every action of a long list of candidates that passes
its rule must be listed: the candidates name every castle, area, player and card of the game,
with armies of every size, so the listing can neither miss an action nor add one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

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
