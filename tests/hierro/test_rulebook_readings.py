"""Rulebook sentences read literally: the King's score and where the Hostage card may reach."""

from __future__ import annotations

from coronas.hierro import Draw, Game, PlayHostage, Rules, SendEmissary, TakeCard

from .helpers import BLUE, GREEN, RED, assert_illegal, position

# -- the King's score ----------------------------------------------------------------------------
# End of the Game: "If the game ends without any player having reached the crown at the end of
# the Legitimacy Track, the player who ended highest is crowned King. In case of a tie, all
# players who tied become kings for the purpose of fulfilling their secret objectives (they
# receive the score corresponding to the area they are actually in)."
# Final Scoring, c: "High area (green area) or who have been crowned King, score 6 victory
# points. Medium area (yellow area), score 4 victory points."


def _last_card_drawn(**options: bool):
    """Red, alone highest at legitimacy 7 (yellow band), draws the last military card.

    Red holds blue's loyalty card and one castle; green holds red's card (4 VP when red is
    King), one castle and legitimacy 3 (red band); blue holds green's card, one castle, 2.
    """
    rules = Rules(military_deck={"resistance": 4}, political_deck={"pope": 5}, **options)
    s = Game(players=3, rules=rules).position(
        castles={"Brescia": RED, "Ivrea": GREEN, "Friuli": BLUE},
        legitimacy=[7, 3, 2],
        loyalty=["crown:blue", "crown:red", "crown:green"],
        hands=[("resistance",)] * 3,
    )
    s.apply(TakeCard("military"))
    s.apply(Draw("resistance"))
    assert s.is_terminal() and s.end_reason == "the last card of a deck was drawn"
    assert s.kings() == (RED,)
    return s


def test_a_sole_king_by_the_count_scores_six_in_the_yellow_band():
    s = _last_card_drawn()
    # Red: castle 1, crowned King 6, free emissaries 1. Green: red's card 4, castle 1, red band
    # 0, emissaries 1. Blue: castle 1, emissaries 1.
    assert s.scores()[RED]["legitimacy"] == 6
    assert s.returns() == [8, 6, 2]
    assert s.winners() == [RED]


def test_king_scores_band_gives_a_sole_king_its_own_band():
    s = _last_card_drawn(king_scores_band=True)
    assert s.scores()[RED]["legitimacy"] == 4  # yellow band
    assert s.returns() == [6, 6, 2]
    assert s.winners() == [RED]  # the tie goes to the higher legitimacy


def test_tied_kings_score_the_area_they_are_in():
    s = position(legitimacy=[7, 7, 2], loyalty=["crown:green", "crown:red", "crown:blue"])
    assert s.kings() == (RED, GREEN)
    assert [row["legitimacy"] for row in s.scores()] == [4, 4, 0]


def test_a_king_in_the_red_band_scores_six():
    s = position(legitimacy=[4, 3, 2])
    assert [row["legitimacy"] for row in s.scores()] == [6, 0, 0]


def test_the_crown_scores_six_either_way():
    for rules in (None, Rules(king_scores_band=True)):
        s = position(rules=rules, legitimacy=[15, 9, 2])
        assert [row["legitimacy"] for row in s.scores()] == [6, 4, 0]


# -- the Hostage card and conquered castles ------------------------------------------------------
# Request support, Note: "Emissaries also cannot be sent to castles that have been conquered by
# other players." Hostage: "Allows us to remove an emissary of another player that is in a
# castle, in Rome, or in one of the barbarian peoples, and replace it with one of ours."


def test_hostage_cannot_put_an_emissary_in_a_castle_another_player_conquered():
    s = position(
        castles={"Milan": BLUE},
        emissaries={"Milan": [RED]},
        hands=[(), ("hostage",), ()],
        to_move=GREEN,
    )
    assert_illegal(s, SendEmissary("Milan"), "taken by blue")
    assert_illegal(s, PlayHostage(RED, "Milan"), "conquered by other players")


def test_hostage_still_reaches_neutral_castles_and_rome():
    s = position(
        emissaries={"Milan": [RED], "Rome": [RED]},
        hands=[(), ("hostage",), ()],
        to_move=GREEN,
    )
    legal = s.legal_actions()
    assert PlayHostage(RED, "Milan") in legal and PlayHostage(RED, "Rome") in legal
