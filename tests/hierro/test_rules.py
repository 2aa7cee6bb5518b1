"""The Corona de Hierro rule set: dice, bands, decks and loading from a file."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from coronas.dice import Die
from coronas.engine import RulesError
from coronas.hierro import AttackArmy, Game, Roll, Rules
from coronas.hierro.rules import card_kind, card_shields


def test_dice_by_army_size_and_band():
    r = Rules()
    assert r.die("red") == Die.d(6)
    assert [r.army_colour(n) for n in (1, 2, 3, 7)] == ["red", "yellow", "green", "green"]
    assert [r.band(v) for v in (0, 4, 5, 9, 10, 14, 15)] == [
        "red",
        "red",
        "yellow",
        "yellow",
        "green",
        "green",
        "green",
    ]
    assert [r.recruit_size(v) for v in (4, 5, 10)] == [1, 1, 2]
    assert r.diplomacy_die(7) == r.die("yellow")
    with pytest.raises(ValueError, match="no 'blue' die"):
        r.die("blue")
    with pytest.raises(ValueError, match="at least one pawn"):
        r.army_colour(0)


def test_custom_faces_change_every_roll():
    r = Rules(yellow=(1, 1, 2, 3, 4, 5))
    # P(yellow >= 2) = 4/6 = 2/3 with the repeated 1.
    assert r.army_die(2).p_ge(2) == Fraction(2, 3)
    state = Game(players=3, rules=r).position(armies={"Trento": {0: 2, 1: 1}})
    state.apply(AttackArmy("Trento", 1))
    # The medium attacking army rolls the yellow die: face 1 has probability 2/6 = 1/3.
    assert dict(state.chance_outcomes())[Roll(1)] == Fraction(1, 3)
    assert Roll(6) not in dict(state.chance_outcomes())


def test_decks_hold_29_cards_each_with_the_rulings_composition():
    r = Rules()
    assert sum(r.military_deck.values()) == sum(r.political_deck.values()) == 29
    assert r.political_deck["pope"] == 3 and r.political_deck["king_is_dead"] == 2
    assert sorted(card_shields(c) for c in r.political_deck if card_kind(c) == "bishop") == [
        (1, 2),
        (2, 3),
        (3, 4),
        (4, 5),
        (5, 1),
    ]
    assert card_shields("secret_pact:5-1-2") == (5, 1, 2)


def test_capacities_and_loyalty_cards():
    r = Rules()
    assert [r.rome_capacity(n) for n in (3, 4, 5)] == [4, 5, 6]
    assert [r.barbarian_capacity(n) for n in (3, 4, 5)] == [1, 2, 3]
    assert r.loyalty_cards(3) == ("crown:red", "crown:green", "crown:blue")
    assert r.loyalty_cards(4)[-1] == "self"
    assert [r.castles_vp(n) for n in range(4)] == [0, 1, 4, 9]


def test_rules_file_round_trip_and_errors(tmp_path):
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"green": [2, 3, 4, 5, 6, 6], "advanced": True}))
    r = Rules.load(path)
    assert r.green == (2, 3, 4, 5, 6, 6) and r.advanced
    assert Rules.from_dict(r.to_dict()) == r and hash(Rules.from_dict(r.to_dict())) == hash(r)
    bad = tmp_path / "bad.json"
    for data, words in (
        ({"red": "six"}, "field 'red': expected a list"),
        ({"crown": 3}, "legitimacy_start < yellow_from"),
        ({"military_deck": {"dragon": 3}}, "unknown card 'dragon'"),
        ({"dice": 3}, "unknown field"),
        ({"recruit_by_band": {"red": 1}}, "recruit_by_band"),
    ):
        bad.write_text(json.dumps(data))
        with pytest.raises(RulesError, match=words) as info:
            Rules.load(bad)
        assert "bad.json" in str(info.value)


def test_a_rule_set_that_cannot_deal_the_shields_is_refused_when_the_game_is_made():
    # 15 experience shields in all cannot give 12 to each of 4 players: the match is refused
    # at once, before any state exists, so a game that starts can be played.
    from coronas.engine import RulesError

    with pytest.raises(RulesError, match="15 experience shields cannot give 12 to each of 4"):
        Game(players=4, rules={"shields_start": 12})
    assert Game(players=5, rules={"shields_start": 3}).num_players == 5
