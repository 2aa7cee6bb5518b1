"""Set-up, saving, the end of the game, scoring and the views of a state."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from coronas.engine import IllegalAction, SaveFileError, State
from coronas.hierro import (
    AttackCastle,
    ChooseCastle,
    DealLoyalty,
    Draw,
    DrawCards,
    Game,
    Keep,
    PlaceTile,
    PlayKingIsDead,
    Roll,
    Rules,
    SendEmissary,
    TakeCard,
)
from coronas.hierro.board import load_board

from .helpers import BLUE, GREEN, RED, position, random_game, roll


def set_up(players: int, seed: int = 0, rules=None) -> State:
    """Play the set-up with the first legal choices and sampled chance outcomes."""
    s = Game(players=players, rules=rules).new_initial_state()
    rng = random.Random(seed)
    while s.step != "play":
        s.apply(s.sample_chance(rng) if s.is_chance_node() else s.legal_actions()[0])
    return s


@pytest.mark.parametrize("players", [3, 4, 5])
def test_set_up(players):
    s = Game(players=players).new_initial_state()
    assert s.shields == [2] * players and s.supply == 15 - 2 * players
    assert s.legit == [2] * players and s.vp == [0] * players
    starts = {a.castle for a in s.legal_actions()}
    assert ("Lucca" in starts) == (players == 5)
    for seat in range(players):
        assert s.current_player == seat
        s.apply(s.legal_actions()[0])
    # Each chosen castle: the owner's banner with troops inside and one pawn at its gate.
    for castle, owner in s.owner.items():
        assert s.troops[castle] and s.army(castle, owner) == 1
    # Loyalty cards: one per colour in play, plus the self-declaration card with 4 or more.
    assert s.step == "loyalty"
    cards = {str(o.card) for o, _ in s.chance_outcomes()}
    expected = {f"crown:{c}" for c in Rules().colours[:players]}
    if players >= 4:
        expected.add("self")
    assert cards == expected
    assert {p for _, p in s.chance_outcomes()} == {Fraction(1, len(expected))}
    for _ in range(players):
        s.apply(s.chance_outcomes()[0][0])
    assert len(set(s.loyalty)) == players
    # One political then one military card to each player, drawn one at a time.
    assert s.step == "draw"
    assert dict(s.chance_outcomes())[Draw("pope")] == Fraction(3, 29)
    rng = random.Random(1)
    for _ in range(2 * players):
        s.apply(s.sample_chance(rng))
    assert s.step == "play" and s.current_player == 0 and s.left == 2
    assert all(len(h) == 2 for h in s.hands)
    assert sum(s.decks["political"].values()) == 29 - players


def test_first_loyalty_deal_probabilities_follow_the_cards_left():
    s = Game(players=3).new_initial_state()
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    s.apply(DealLoyalty("crown:green"))
    assert dict(s.chance_outcomes()) == {
        DealLoyalty("crown:blue"): Fraction(1, 2),
        DealLoyalty("crown:red"): Fraction(1, 2),
    }


def test_advanced_rules_shuffle_tiles_and_draft_two_of_eight():
    s = Game(players=3, rules=Rules(advanced=True)).new_initial_state()
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    assert s.step == "tile"
    first = s.chance_outcomes()
    assert len(first) == 10 and all(p == Fraction(1, 10) for _, p in first)
    s.apply(PlaceTile("Camerino", "Milan"))
    assert len(s.chance_outcomes()) == 9
    assert s.army_target("Camerino") == 5 and s.emissary_target("Camerino") == 2
    assert s.shield_of("Camerino") == 4
    rng = random.Random(3)
    while s.step in ("tile", "loyalty", "draw"):
        s.apply(s.sample_chance(rng))
    assert sorted(s.tiles.values()) == sorted(s.info.neutral)
    assert s.step == "keep" and s.current_player == 0
    assert [len(x) for x in s.looking] == [8, 8, 8]
    for seat in range(3):
        for _ in range(2):
            assert s.current_player == seat
            s.apply(s.legal_actions()[-1])
    assert s.step == "play" and [len(h) for h in s.hands] == [2, 2, 2]
    assert sum(s.decks["political"].values()) + sum(s.decks["military"].values()) == 58 - 6


def test_saved_game_loads_back_equal_default_and_custom_board():
    s = random_game(4, seed=11)
    text = s.to_json()
    assert '"board": "default"' in text
    assert State.from_json(text) == s
    board = load_board().to_dict()
    board["cities"][0]["lon"] += 0.5  # a different map
    custom = Game(players=3, seed=2, board=board).new_initial_state()
    for _ in range(3):
        custom.apply(custom.legal_actions()[0])
    loaded = State.from_json(custom.to_json())
    assert loaded == custom and loaded.game.board == custom.game.board
    assert loaded.game.board != load_board()


def test_a_hand_built_position_saves_with_its_moves_and_loads_back_equal():
    s = position(
        castles={"Verona": (GREEN, False), "Milan": GREEN},
        armies={"Verona": {RED: 3}, "Brescia": {RED: 2, BLUE: 1}},
        emissaries={"Rome": [BLUE]},
        alliances=[(RED, BLUE, True)],
        shields=[1, 2, 3],
    )
    s.apply(AttackCastle("Verona"))
    s.apply(Roll(3))
    loaded = State.from_json(s.to_json())
    assert loaded == s and loaded.history == s.history
    assert loaded.game == s.game and loaded.game.start_position == s.game.start_position
    # the loaded game goes on from there: one shield, one more roll
    assert loaded.legal_actions() == s.legal_actions()


def test_a_saved_position_the_rules_refuse_is_a_save_file_error():
    text = position(castles={"Verona": GREEN}).to_json()
    with pytest.raises(
        SaveFileError, match=r"position: castles\['Verona'\]: expected a player 0-2"
    ):
        State.from_json(text.replace('"Verona": [1, true]', '"Verona": [7, true]'))
    with pytest.raises(ValueError, match="position: unknown field 'armys'"):
        Game(players=3, position={"armys": {}})
    with pytest.raises(ValueError, match="position: armies: expected a mapping city"):
        Game(players=3, position={"armies": ["Verona"]})


def test_bad_saved_action_names_the_action():
    s = Game(players=3).new_initial_state()
    s.apply(ChooseCastle("Friuli"))
    text = s.to_json().replace("Friuli", "Lucca")
    with pytest.raises(SaveFileError, match="5-player"):
        State.from_json(text)


# -- end of the game -----------------------------------------------------------------------------
def test_reaching_the_crown_ends_the_game_at_once():
    s = position(legitimacy=[13, 2, 2], emissaries={"Rome": []})
    s.apply(SendEmissary("Rome"))
    assert not s.is_terminal()
    s.apply(SendEmissary("Rome"))
    assert s.is_terminal() and s.legit[RED] == 15 and s.kings() == (RED,)


def test_first_action_ending_the_game_forfeits_the_second():
    s = position(legitimacy=[12, 2, 2], hands=[("king_is_dead",), (), ()])
    s.apply(PlayKingIsDead())
    assert s.is_terminal() and s.left == 2 and s.end_reason == "a player reached the crown"


def test_drawing_the_last_card_ends_the_game():
    rules = Rules(military_deck={"resistance": 4}, political_deck={"pope": 5})
    s = Game(players=3, rules=rules).position(hands=[("resistance",)] * 3)
    assert s.decks["military"] == {"resistance": 1}
    s.apply(TakeCard("military"))
    s.apply(Draw("resistance"))
    assert s.is_terminal() and s.end_reason == "the last card of a deck was drawn"


def test_decks_too_small_for_the_deal_are_refused():
    with pytest.raises(ValueError, match="military deck needs more than the 3 cards"):
        Game(players=3, rules=Rules(military_deck={"resistance": 3}))


def test_scores_by_category_and_tie_breaks():
    s = position(
        players=4,
        castles={"Verona": RED, "Padua": RED, "Friuli": RED, "Milan": GREEN, "Pavia": GREEN},
        legitimacy=[6, 11, 4, 11],
        loyalty=["crown:green", "self", "crown:red", "crown:yellow"],
        hostages=[(GREEN, BLUE)],
        vp=[1, 0, 0, 3],
    )
    scores = s.scores()
    # Kings: green and yellow tie at 11. Red: 3 castles of shield 1 (9), yellow band (4),
    # loyalty for green (4), free emissaries (1), 1 card VP.
    assert scores[RED] == {
        "loyalty": 4,
        "castles": 9,
        "legitimacy": 4,
        "emissaries": 1,
        "cards": 1,
        "total": 19,
    }
    # Green: self-declaration as a King (6), Milan (1; Pavia has no shield), green band (6).
    assert scores[GREEN]["total"] == 6 + 1 + 6 + 1
    # Blue: red is no King; red band; its emissary is held hostage.
    assert scores[BLUE] == {
        "loyalty": 0,
        "castles": 0,
        "legitimacy": 0,
        "emissaries": 0,
        "cards": 0,
        "total": 0,
    }
    assert scores[3]["total"] == 4 + 0 + 6 + 1 + 3


def test_winners_break_ties_by_legitimacy_then_castles():
    s = position(castles={"Verona": RED, "Milan": GREEN}, legitimacy=[5, 5, 5])
    s.step = "over"
    assert s.returns()[RED] == s.returns()[GREEN]
    assert s.winners() == [RED, GREEN]  # same legitimacy, one castle each: shared
    s.legit[GREEN] = 6  # green alone highest: King, 6 VP instead of the yellow band's 4
    s.vp[RED] = 2
    assert s.scores()[GREEN]["total"] == s.scores()[RED]["total"] == 8
    assert s.winners() == [GREEN]


def test_conquest_of_the_last_castle_is_scored():
    s = position(
        castles={"Friuli": (GREEN, False), "Verona": RED},
        armies={"Friuli": {RED: 3}},
        shields=[0, 0, 0],
    )
    s.apply(AttackCastle("Friuli"))
    roll(s, 4)
    assert s.is_terminal()
    assert s.scores()[RED]["castles"] == 4  # Friuli and Verona both bear shield 1


# -- views ---------------------------------------------------------------------------------------
def test_graph_carries_the_game():
    s = position(
        castles={"Verona": (RED, False)},
        armies={"Trento": {RED: 2, GREEN: 1}},
        emissaries={"Milan": [BLUE], "Rome": [GREEN]},
        alliances=[(RED, BLUE, False)],
    )
    G = s.graph()
    assert G.nodes["Trento"]["armies"] == {RED: 2, GREEN: 1}
    assert G.nodes["Verona"]["owner"] == RED and G.nodes["Verona"]["troops"] is False
    assert G.nodes["Milan"]["emissaries"] == [BLUE]
    assert G.nodes["Rome"]["emissaries"] == [GREEN] and G.nodes["Rome"]["offmap"]
    assert G.nodes["Alliance Zone"]["alliances"] == [(RED, BLUE, False)]
    assert G.graph["legitimacy"] == [2, 2, 2]
    assert G.has_edge("Trento", "Verona")


def test_text_and_html_summaries():
    s = position(castles={"Verona": RED}, armies={"Trento": {RED: 2}})
    text = str(s)
    assert "red to play, 2 actions left" in text and "castles Verona*" in text
    assert "Trento 2" in text
    html = s._repr_html_()
    assert "<b>red</b> &#9654;</td>" in html and "Verona*" in html
    assert "background:red" in html  # red's swatch (and the red band's)


def test_keep_refusal_names_the_card():
    s = position(shields=[3, 0, 0])
    s.apply(DrawCards("political"))
    for card in ("pope", "spy", "spy", "hostage", "king_is_dead"):
        s.apply(Draw(card))
    assert s.legal_actions() == [Keep(c) for c in ("hostage", "king_is_dead", "pope", "spy")]
    before = s.clone()
    with pytest.raises(IllegalAction, match="not looking at a bishop:1-2 card"):
        s.apply(Keep("bishop:1-2"))
    assert s == before
    s.apply(Keep("spy"))
    assert s.hands[RED] == ("spy",) and s.decks["political"]["spy"] == 3 - 1


def test_saved_game_keeps_custom_rules_and_the_advanced_set_up():
    rules = Rules(
        advanced=True, green=(2, 3, 4, 5, 6, 6), colours=("black", "red", "green", "blue", "yellow")
    )
    s = Game(players=5, seed=9, rules=rules).new_initial_state()
    rng = random.Random(9)
    for _ in range(400):
        if s.is_terminal():
            break
        s.apply(s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    loaded = State.from_json(s.to_json())
    assert loaded == s and loaded.rules == rules and loaded.tiles == s.tiles
    assert loaded.colour(0) == "black"
