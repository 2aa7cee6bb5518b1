"""Each action of a turn: what it does, and every way it can be refused (changing nothing)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from coronas.hierro import (
    AcceptAlliance,
    AcceptRoll,
    AttackArmy,
    AttackCastle,
    DiscardCard,
    DrawCards,
    Keep,
    Move,
    PlayPope,
    Recruit,
    RequestAlliance,
    RequestSupport,
    Reroll,
    Retrieve,
    ReturnHostage,
    SendEmissary,
    TakeCard,
    TakeHostage,
)
from coronas.hierro.actions import ChooseCastle

from .helpers import BLUE, GREEN, RED, assert_illegal, assert_legal, position, roll

NO_SHIELDS = [0, 0, 0]


# -- move ------------------------------------------------------------------------------------------
def test_move_whole_army_split_and_merge():
    s = position(armies={"Belluno": {RED: 3}, "Trento": {RED: 1}}, shields=NO_SHIELDS)
    s.apply(Move("Belluno", "Trento", 2))  # split two off, merging with the one in Trento
    assert s.armies["Belluno"] == {RED: 1} and s.armies["Trento"] == {RED: 3}
    s.apply(Move("Belluno", "Friuli", 1))
    assert "Belluno" not in s.armies and s.army("Friuli", RED) == 1
    assert s.current_player == GREEN


def test_move_refusals():
    s = position(armies={"Belluno": {RED: 2}, "Trento": {RED: 1, GREEN: 1}})
    assert_illegal(s, Move("Atlantis", "Trento", 1), "no city called Atlantis")
    assert_illegal(s, Move("Friuli", "Belluno", 1), "red has no army in Friuli")
    assert_illegal(s, Move("Belluno", "Trento", 0), "at least one pawn")
    assert_illegal(s, Move("Belluno", "Trento", 3), "only 2 pawn")
    assert_illegal(s, Move("Belluno", "Verona", 1), "no road joins Belluno and Verona")
    assert_illegal(s, Move("Trento", "Verona", 1), "cannot leave without an alliance")


def test_allies_may_leave_a_shared_city():
    s = position(armies={"Trento": {RED: 1, GREEN: 1}}, alliances=[(RED, GREEN, True)])
    assert_legal(s, Move("Trento", "Verona", 1))
    pending = position(armies={"Trento": {RED: 1, GREEN: 1}}, alliances=[(RED, GREEN, False)])
    assert_illegal(pending, Move("Trento", "Verona", 1), "cannot leave")


# -- recruit ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("legit", "pawns"), [(2, 1), (5, 1), (9, 1), (10, 2), (14, 2)])
def test_recruit_size_by_legitimacy_band(legit, pawns):
    s = position(castles={"Verona": RED}, legitimacy=[legit, 2, 2])
    s.apply(Recruit("Verona"))
    assert s.army("Verona", RED) == pawns
    assert not s.troops["Verona"]


def test_recruit_with_enemies_at_the_gate_and_with_one_pawn_left():
    s = position(
        castles={"Verona": RED},
        armies={"Verona": {GREEN: 2}, "Trento": {RED: 7}},
        legitimacy=[12, 2, 2],
    )
    s.apply(Recruit("Verona"))  # green band would bring 2, one pawn is left (H4)
    assert s.army("Verona", RED) == 1 and s.pawns[RED] == 0


def test_recruit_refusals():
    s = position(castles={"Verona": RED, "Padua": GREEN, "Milan": (RED, False)})
    assert_illegal(s, Recruit("Atlantis"), "no castle called Atlantis")
    assert_illegal(s, Recruit("Padua"), "Padua does not belong to red")
    assert_illegal(s, Recruit("Milan"), "already recruited")
    full = position(castles={"Verona": RED}, armies={"Trento": {RED: 8}})
    assert_illegal(full, Recruit("Verona"), "no pawn left")


# -- attack an army --------------------------------------------------------------------------------
def test_battle_attacker_loses_and_dice_follow_the_sizes():
    s = position(armies={"Trento": {RED: 1, GREEN: 2}}, shields=NO_SHIELDS)
    s.apply(AttackArmy("Trento", GREEN))
    assert s.roll_die() == s.rules.die("red")
    roll(s, 2)
    assert s.roll_die() == s.rules.die("yellow")
    roll(s, 5)  # green higher: red loses its only pawn
    assert s.armies["Trento"] == {GREEN: 2}
    assert s.legit == [1, 3, 2]
    assert s.shields == [1, 0, 0]


def test_battle_rerolls_attacker_then_defender():
    s = position(armies={"Trento": {RED: 1, GREEN: 1}}, shields=[1, 1, 0])
    s.apply(AttackArmy("Trento", GREEN))
    roll(s, 2)
    assert s.current_player == RED and s.step == "reroll"
    s.apply(Reroll())
    assert s.shields[RED] == 0 and s.supply == 15 - 1
    roll(s, 4)  # no shield left: no decision, the defender rolls
    assert s.current_player < 0 and s.fight["roller"] == GREEN
    roll(s, 4)  # tie goes to the attacker, so green may reroll
    assert s.current_player == GREEN and s.step == "reroll"
    s.apply(Reroll())
    roll(s, 6)
    assert s.armies["Trento"] == {GREEN: 1}
    assert s.legit == [1, 3, 2]


def test_defender_winning_is_not_offered_a_reroll():
    s = position(armies={"Trento": {RED: 1, GREEN: 1}}, shields=[0, 2, 0])
    s.apply(AttackArmy("Trento", GREEN))
    roll(s, 3, 5)
    assert s.step == "play" and s.armies["Trento"] == {GREEN: 1}


def test_attacking_an_ally_breaks_the_alliance():
    s = position(
        armies={"Trento": {RED: 1, GREEN: 1}}, alliances=[(GREEN, RED, True)], shields=NO_SHIELDS
    )
    s.apply(AttackArmy("Trento", GREEN))
    assert s.zone == {} and s.hand_em[GREEN] == 4  # the emissary returns to its owner
    assert s.legit[RED] == 0  # 2 - 2 for breaking the alliance
    roll(s, 6, 1)
    assert s.legit[RED] == 1


def test_attack_army_refusals():
    s = position(armies={"Trento": {RED: 1, GREEN: 1}, "Verona": {GREEN: 1}})
    assert_illegal(s, AttackArmy("Atlantis", GREEN), "no city called Atlantis")
    assert_illegal(s, AttackArmy("Verona", GREEN), "red has no army in Verona")
    assert_illegal(s, AttackArmy("Trento", RED), "its own army")
    assert_illegal(s, AttackArmy("Trento", 7), "no player 7")
    assert_illegal(s, AttackArmy("Trento", BLUE), "blue has no army in Trento")


# -- attack a castle -------------------------------------------------------------------------------
def test_conquer_a_neutral_castle():
    s = position(castles={"Friuli": RED}, armies={"Padua": {RED: 1}}, shields=NO_SHIELDS)
    assert s.army_target("Padua") == 3
    s.apply(AttackCastle("Padua"))
    roll(s, 3)
    assert s.owner["Padua"] == RED and s.troops["Padua"]
    assert s.legit[RED] == 3 and s.banners[RED] == 8 - 2


def test_failed_assault_loses_nothing_and_shields_reroll():
    s = position(armies={"Padua": {RED: 1}}, shields=[1, 0, 0])
    s.apply(AttackCastle("Padua"))
    roll(s, 2)
    assert s.step == "reroll"
    s.apply(Reroll())
    roll(s, 1)
    assert s.step == "play" and "Padua" not in s.owner and s.army("Padua", RED) == 1


def test_declining_the_reroll_ends_the_assault():
    s = position(armies={"Padua": {RED: 1}}, shields=[1, 0, 0])
    s.apply(AttackCastle("Padua"))
    roll(s, 1)
    s.apply(AcceptRoll())
    assert s.step == "play" and s.shields[RED] == 1 and s.left == 1


def test_castle_with_troops_inside_takes_two_successes():
    s = position(
        castles={"Padua": GREEN, "Friuli": GREEN},
        armies={"Padua": {RED: 3}},
        shields=NO_SHIELDS,
    )
    s.apply(AttackCastle("Padua"))
    roll(s, 6)
    assert s.owner["Padua"] == GREEN and not s.troops["Padua"]  # troops wiped out
    s.apply(AttackCastle("Padua"))  # with another action
    roll(s, 3)
    assert s.owner["Padua"] == RED and s.troops["Padua"]
    assert s.legit == [3, 1, 2] and s.shields == [0, 1, 0]
    assert s.banners[GREEN] == 8 - 1


def test_pavia_moves_legitimacy_by_three():
    s = position(
        castles={"Pavia": (GREEN, False), "Friuli": GREEN},
        armies={"Pavia": {RED: 3}},
        legitimacy=[2, 6, 2],
        shields=NO_SHIELDS,
    )
    s.apply(AttackCastle("Pavia"))
    roll(s, 5)
    assert s.owner["Pavia"] == RED
    assert s.legit == [5, 3, 2]


def test_losing_the_last_castle_ends_the_game_and_forfeits_the_second_action():
    s = position(
        castles={"Friuli": (GREEN, False)}, armies={"Friuli": {RED: 1}}, shields=NO_SHIELDS
    )
    s.apply(AttackCastle("Friuli"))
    roll(s, 4)
    assert s.is_terminal() and s.end_reason == "a player lost its last castle"
    assert s.legal_actions() == []


def test_attack_castle_refusals():
    s = position(
        castles={"Verona": RED, "Padua": GREEN},
        armies={"Verona": {RED: 1}, "Padua": {RED: 1, GREEN: 1}, "Trento": {RED: 1}},
    )
    assert_illegal(s, AttackCastle("Atlantis"), "no castle called Atlantis")
    assert_illegal(s, AttackCastle("Milan"), "no army at the gate of Milan")
    assert_illegal(s, AttackCastle("Verona"), "already belongs to red")
    assert_illegal(s, AttackCastle("Padua"), "stands at the gate of its castle Padua")
    nobanner = position(
        castles={
            c: RED
            for c in ("Verona", "Padua", "Friuli", "Spoleto", "Ivrea", "Brescia", "Turin", "Milan")
        },
        armies={"Mantua": {RED: 1}},
    )
    assert_illegal(nobanner, AttackCastle("Mantua"), "no banner left")


# -- emissaries ------------------------------------------------------------------------------------
def test_send_emissaries_and_rome_legitimacy():
    s = position()
    s.apply(SendEmissary("Milan"))
    s.apply(SendEmissary("Rome"))
    assert s.emissaries_at("Milan") == (RED,) and s.rome == (RED,)
    assert s.legit[RED] == 3 and s.hand_em[RED] == 2
    s.apply(SendEmissary("Saracens"))
    assert s.saracens == (GREEN,)


def test_send_emissary_refusals():
    s = position(
        castles={"Verona": GREEN},
        emissaries={"Milan": [GREEN, BLUE], "Rome": [GREEN, GREEN, BLUE, BLUE], "Magyars": [BLUE]},
    )
    assert_illegal(s, SendEmissary("Rome"), "Rome already holds 4 emissaries")
    assert_illegal(s, SendEmissary("Magyars"), "Magyars already hold 1 emissary,")
    assert_illegal(s, SendEmissary("Atlantis"), "no castle or area called Atlantis")
    assert_illegal(s, SendEmissary("Pavia"), "cannot receive emissaries")
    assert_illegal(s, SendEmissary("Friuli"), "cannot receive emissaries")
    assert_illegal(s, SendEmissary("Verona"), "was taken by green")
    assert_illegal(s, SendEmissary("Milan"), "already holds 2 emissaries")
    none_left = position(emissaries={"Rome": [RED, RED, RED], "Saracens": [RED]})
    assert_illegal(none_left, SendEmissary("Padua"), "no emissary in hand")


def test_barbarian_capacity_grows_with_players():
    s = position(players=5, emissaries={"Saracens": [1, 2]})
    assert_legal(s, SendEmissary("Saracens"))  # 5 - 2 = 3 allowed


def test_request_support_by_band_and_refusals():
    s = position(
        legitimacy=[5, 2, 2], emissaries={"Milan": [RED], "Verona": [GREEN]}, shields=NO_SHIELDS
    )
    s.apply(RequestSupport("Milan"))
    assert s.roll_die() == s.rules.die("yellow")  # legitimacy 5 is yellow
    roll(s, 2)
    assert s.owner["Milan"] == RED and s.legit[RED] == 6
    assert_illegal(s, RequestSupport("Verona"), "red has no emissary in Verona")
    assert_illegal(s, RequestSupport("Atlantis"), "no castle called Atlantis")
    taken = position(castles={"Milan": GREEN}, emissaries={"Milan": [RED]})
    assert_illegal(taken, RequestSupport("Milan"), "can no longer be won by diplomacy")


def test_request_alliance_accept_and_refusals():
    s = position()
    s.apply(RequestAlliance(GREEN))
    assert s.zone == {(RED, GREEN): False} and s.hand_em[RED] == 3
    assert_illegal(s, RequestAlliance(GREEN), "already negotiating")
    assert_illegal(s, RequestAlliance(RED), "cannot ally with itself")
    assert_illegal(s, RequestAlliance(9), "no player 9")
    s.apply(TakeCard("military"))
    s.apply(s.sample_chance(0))
    assert_illegal(s, AcceptAlliance(BLUE), "no alliance of player 2")
    s.apply(AcceptAlliance(RED))
    assert s.allied(RED, GREEN) and s.legit[GREEN] == 4
    assert_illegal(s, AcceptAlliance(RED), "already accepted")


def test_retrieve_emissaries_and_refusals():
    s = position(
        emissaries={"Milan": [RED], "Rome": [RED]},
        alliances=[(RED, GREEN, False), (RED, BLUE, True)],
        legitimacy=[5, 2, 2],
    )
    assert s.hand_em[RED] == 0
    s.apply(Retrieve("Rome"))
    assert s.legit[RED] == 4 and s.hand_em[RED] == 1
    assert_illegal(s, Retrieve("Alliance Zone", BLUE), "accepted")
    assert_illegal(s, Retrieve("Verona"), "no emissary in Verona")
    assert_illegal(s, Retrieve("Milan", GREEN), "only an emissary in the Alliance Zone")
    s.apply(Retrieve("Alliance Zone", GREEN))
    assert s.zone == {(RED, BLUE): True} and s.hand_em[RED] == 2


def test_take_and_return_hostage():
    s = position(castles={"Milan": RED}, emissaries={"Milan": [GREEN]})
    assert_illegal(s, TakeHostage("Verona", GREEN), "does not belong to red")
    assert_illegal(s, TakeHostage("Milan", BLUE), "no emissary of player 2")
    assert_illegal(s, TakeHostage("Milan", RED), "its own emissary")
    s.apply(TakeHostage("Milan", GREEN))
    assert s.hostages == ((RED, GREEN),) and s.emissaries_at("Milan") == ()
    assert s.scores()[GREEN]["emissaries"] == 0
    s.apply(ReturnHostage(GREEN))  # free: red still has its second action
    assert s.current_player == RED and s.left == 1 and s.hand_em[GREEN] == 4
    assert_illegal(s, ReturnHostage(GREEN), "holds no emissary of player 1 hostage")


# -- cards -----------------------------------------------------------------------------------------
def test_take_discard_and_hand_limit():
    s = position(hands=[("spy", "pope", "hostage", "spy", "resistance"), (), ()])
    assert_illegal(s, TakeCard("military"), "discard one first")
    assert_illegal(s, TakeCard("gold"), "no gold deck")
    assert_illegal(s, DiscardCard("king_is_dead"), 'no "The King is dead" card in hand')
    s.apply(DiscardCard("spy"))
    assert s.hands[RED] == ("hostage", "pope", "resistance", "spy")
    assert s.discards == {"spy": 1}
    s.apply(TakeCard("military"))
    assert s.is_chance_node()
    outcomes = {str(o): p for o, p in s.chance_outcomes()}
    # 29 military cards less the Resistance in red's hand: 6 Good fortune of 28 = 3/14.
    assert outcomes["draw good_fortune"] == Fraction(3, 14)
    assert outcomes["draw resistance"] == Fraction(5, 28)
    s.apply(s.sample_chance(0))
    assert len(s.hands[RED]) == 5


def test_draw_five_keep_one_for_three_shields():
    s = position(shields=[3, 0, 0])
    s.apply(DrawCards("political"))
    assert s.shields[RED] == 0 and s.supply == 15
    for i in range(5):
        s.apply(s.sample_chance(i))
    assert s.step == "keep" and len(s.looking[RED]) == 5
    keep = s.looking[RED][0]
    s.apply(Keep(keep))
    assert s.hands[RED] == (keep,) and s.looking[RED] == ()
    assert sum(s.decks["political"].values()) == 28
    poor = position(shields=[2, 0, 0])
    assert_illegal(poor, DrawCards("military"), "costs 3")


def test_choose_castle_refusals():
    from coronas.hierro import Game

    s = Game(players=3).new_initial_state()
    for bad, words in (("Lucca", "5-player"), ("Milan", "not a grey"), ("Rome", "not a grey")):
        assert ChooseCastle(bad) not in s.legal_actions()
        assert_illegal(s, ChooseCastle(bad), words)
    s.apply(ChooseCastle("Friuli"))
    assert_illegal(s, ChooseCastle("Friuli"), "already chosen by red")


def test_non_turn_actions_are_refused_at_play():
    s = position()
    assert_illegal(s, Keep("spy"), "not an action of a turn")
    assert_illegal(s, Reroll(), "not an action of a turn")
    assert_illegal(s, PlayPope(), 'no "Pope" card in hand')


def test_more_card_refusals():
    from coronas.hierro import Rules

    rules = Rules(military_deck={"resistance": 4})
    s = position(rules=rules, hands=[("resistance",) * 4, (), ()], shields=[3, 0, 0])
    assert_illegal(s, TakeCard("military"), "the military deck is empty")
    assert_illegal(s, DrawCards("military"), "the military deck is empty")
    full = position(
        hands=[("spy", "pope", "hostage", "spy", "resistance"), (), ()], shields=[3, 0, 0]
    )
    assert_illegal(full, DrawCards("political"), "discard one first")


def test_support_needs_a_banner():
    castles = ("Verona", "Padua", "Friuli", "Spoleto", "Ivrea", "Brescia", "Turin", "Mantua")
    s = position(castles={c: RED for c in castles}, emissaries={"Milan": [RED]})
    assert_illegal(s, RequestSupport("Milan"), "no banner left to place on Milan")


def test_no_shield_is_gained_when_the_supply_is_empty():
    s = position(armies={"Trento": {RED: 1, GREEN: 1}}, shields=[5, 5, 5])
    assert s.supply == 0
    s.apply(AttackArmy("Trento", GREEN))
    roll(s, 6)  # red rolled the highest face: no reroll to offer
    roll(s, 1)  # green cannot beat a 6: no reroll to offer either
    assert s.step == "play" and s.armies["Trento"] == {RED: 1}
    assert s.shields == [5, 5, 5] and s.supply == 0


def test_unchosen_grey_castle_is_taken_by_arms_only():
    s = position(armies={"Lucca": {RED: 1}}, shields=NO_SHIELDS)
    assert_illegal(s, SendEmissary("Lucca"), "cannot receive emissaries")
    s.apply(AttackCastle("Lucca"))
    roll(s, 4)
    assert s.owner["Lucca"] == RED and s.legit[RED] == 3


def test_emissaries_when_a_castle_is_taken_by_arms():
    s = position(armies={"Milan": {RED: 3}}, emissaries={"Milan": [RED, GREEN]}, shields=NO_SHIELDS)
    s.apply(AttackCastle("Milan"))
    roll(s, 5)
    # Red's own emissary goes home; green's stays until withdrawn or taken hostage.
    assert s.emissaries_at("Milan") == (GREEN,) and s.hand_em[RED] == 4
    assert_legal(s, TakeHostage("Milan", GREEN))
    s.apply(TakeCard("political"))
    s.apply(s.sample_chance(0))
    assert_illegal(s, RequestSupport("Milan"), "can no longer be won by diplomacy")
    s.apply(Retrieve("Milan"))
    assert s.emissaries_at("Milan") == () and s.hand_em[GREEN] == 4
