"""Each initiative card: its effect, its restrictions, and that a refused play changes nothing."""

from __future__ import annotations

from coronas.hierro import (
    AcceptRoll,
    AttackArmy,
    AttackCastle,
    Move,
    PlayBishop,
    PlayCavalryCharge,
    PlayForcedMarch,
    PlayGoodFortune,
    PlayHostage,
    PlayInvasion,
    PlayKingIsDead,
    PlayLoyalVassal,
    PlayPope,
    PlayResistance,
    PlaySecretPact,
    PlaySpy,
    Roll,
    SendEmissary,
    SpyDiscard,
    TakeCard,
)

from .helpers import BLUE, GREEN, RED, assert_illegal, assert_legal, position, roll

NO_SHIELDS = [0, 0, 0]


def hand(*cards: str, players: int = 3) -> list[tuple[str, ...]]:
    return [tuple(cards)] + [()] * (players - 1)


def test_every_card_needs_the_card_in_hand():
    s = position(
        castles={"Friuli": RED},
        armies={"Padua": {RED: 1}, "Friuli": {RED: 1, GREEN: 1}},
        hands=[(), ("spy",), ()],
        emissaries={"Milan": [RED], "Rome": [GREEN]},
    )
    for action, printed in (
        (PlayGoodFortune("Padua", "army"), "Good fortune"),
        (PlayCavalryCharge("Friuli", GREEN), "Cavalry charge"),
        (PlayForcedMarch("Padua", "Treviso", 1), "Forced march"),
        (PlayResistance("Friuli", GREEN), "Resistance"),
        (PlayLoyalVassal("loyal_vassal:1", "Friuli"), "Loyal vassal 1"),
        (PlayBishop("bishop:5-1"), "Bishop 5-1"),
        (PlayPope(), "Pope"),
        (PlayKingIsDead(), "The King is dead"),
        (PlaySpy(GREEN), "Spy"),
        (PlayInvasion("magyar_invasion"), "Magyar invasion"),
        (PlaySecretPact("secret_pact:1-2-3"), "Secret pact 1-2-3"),
        (PlayHostage(GREEN, "Rome"), "Hostage"),
    ):
        # a refusal names the card as it is printed, never by its id
        assert_illegal(s, action, f'red has no "{printed}" card in hand')
    assert_illegal(s, PlayBishop("spy"), '"Spy" is not a bishop card')
    assert_illegal(s, PlayInvasion("pope"), '"Pope" is not an invasion card')


# -- military cards --------------------------------------------------------------------------------
def test_good_fortune_rolls_green_with_a_small_army():
    s = position(armies={"Verona": {RED: 1}}, hands=hand("good_fortune"), shields=NO_SHIELDS)
    s.apply(PlayGoodFortune("Verona", "army"))
    assert s.roll_die() == s.rules.die("green")
    assert s.hands[RED] == () and s.discards == {"good_fortune": 1}
    roll(s, 5)
    assert s.owner["Verona"] == RED


def test_good_fortune_with_an_emissary_and_shield_rerolls_of_the_green_die():
    s = position(emissaries={"Padua": [RED]}, hands=hand("good_fortune"), shields=[1, 0, 0])
    s.apply(PlayGoodFortune("Padua", "emissary"))
    assert s.roll_die() == s.rules.die("green")  # red band, but the card's green die
    roll(s, 1)
    s.apply(s.legal_actions()[0])  # Reroll comes first
    assert s.roll_die() == s.rules.die("green")
    roll(s, 4)
    assert s.owner["Padua"] == RED


def test_good_fortune_refusals():
    s = position(
        castles={"Verona": RED},
        armies={"Verona": {RED: 1}},
        hands=hand("good_fortune"),
    )
    assert_illegal(s, PlayGoodFortune("Verona", "army"), "already belongs to red")
    assert_illegal(s, PlayGoodFortune("Padua", "army"), "no army at the gate of Padua")
    assert_illegal(s, PlayGoodFortune("Padua", "emissary"), "no emissary in Padua")
    assert_illegal(s, PlayGoodFortune("Padua", "prayer"), "army or an emissary")
    s.apply(SendEmissary("Padua"))
    assert_illegal(s, PlayGoodFortune("Padua", "emissary"), "negotiations take time")


def test_cavalry_charge_yellow_die_throughout_and_a_vp_for_winning():
    s = position(
        armies={"Trento": {RED: 3, GREEN: 1}}, hands=hand("cavalry_charge"), shields=NO_SHIELDS
    )
    s.apply(PlayCavalryCharge("Trento", GREEN))
    assert s.roll_die() == s.rules.die("yellow")
    roll(s, 1, 2)  # red loses a pawn
    assert s.army("Trento", RED) == 2 and s.roll_die() == s.rules.die("yellow")
    roll(s, 4, 3)
    assert s.armies["Trento"] == {RED: 2}
    assert s.vp[RED] == 1 and s.scores()[RED]["cards"] == 1
    assert s.legit == [3, 1, 2]


def test_cavalry_charge_lost_gives_no_vp():
    s = position(
        armies={"Trento": {RED: 1, GREEN: 1}}, hands=hand("cavalry_charge"), shields=NO_SHIELDS
    )
    s.apply(PlayCavalryCharge("Trento", GREEN))
    roll(s, 1, 2)
    assert s.vp[RED] == 0 and s.armies["Trento"] == {GREEN: 1}


def test_cavalry_charge_refusals():
    s = position(armies={"Trento": {RED: 1}}, hands=hand("cavalry_charge"))
    assert_illegal(s, PlayCavalryCharge("Trento", GREEN), "green has no army in Trento")
    assert_illegal(s, PlayCavalryCharge("Verona", GREEN), "red has no army in Verona")


def test_forced_march_small_three_roads_medium_two():
    s = position(armies={"Friuli": {RED: 4}}, hands=hand("forced_march", "forced_march"))
    # Friuli - Belluno - Trento - Verona: three roads.
    assert_legal(s, PlayForcedMarch("Friuli", "Verona", 1))
    assert_illegal(s, PlayForcedMarch("Friuli", "Verona", 2), "not within 2 roads")
    assert_illegal(s, PlayForcedMarch("Friuli", "Verona", 3), "cannot move a large army")
    s.apply(PlayForcedMarch("Friuli", "Trento", 2))
    assert s.armies == {"Friuli": {RED: 2}, "Trento": {RED: 2}}


def test_forced_march_is_stopped_by_enemy_armies():
    s = position(armies={"Friuli": {RED: 1}, "Belluno": {GREEN: 1}}, hands=hand("forced_march"))
    assert_legal(s, PlayForcedMarch("Friuli", "Belluno", 1))  # may end there
    assert_illegal(s, PlayForcedMarch("Friuli", "Trento", 1), "free of enemy armies")
    blocked = position(armies={"Friuli": {RED: 1, GREEN: 1}}, hands=hand("forced_march"))
    assert_illegal(blocked, PlayForcedMarch("Friuli", "Belluno", 1), "cannot leave")


def test_resistance_removes_one_pawn_without_legitimacy():
    s = position(
        castles={"Verona": RED},
        armies={"Verona": {GREEN: 2, BLUE: 1}},
        hands=hand("resistance", "resistance"),
    )
    s.apply(PlayResistance("Verona", GREEN))
    assert s.armies["Verona"] == {GREEN: 1, BLUE: 1}
    s.apply(PlayResistance("Verona", BLUE))  # a small army is eliminated
    assert s.armies["Verona"] == {GREEN: 1}
    assert s.legit == [2, 2, 2] and s.shields == [2, 2, 2]


def test_resistance_refusals():
    s = position(
        castles={"Verona": RED, "Padua": GREEN},
        armies={"Padua": {BLUE: 1}, "Verona": {RED: 1}},
        hands=hand("resistance"),
    )
    assert_illegal(s, PlayResistance("Padua", BLUE), "Padua is not red's castle")
    assert_illegal(s, PlayResistance("Verona", GREEN), "no army of player 1")
    assert_illegal(s, PlayResistance("Verona", RED), "no army of player 0")


def test_loyal_vassal_recruits_a_medium_army():
    s = position(castles={"Verona": RED}, hands=hand("loyal_vassal:1"))
    s.apply(PlayLoyalVassal("loyal_vassal:1", "Verona"))
    assert s.army("Verona", RED) == 2 and not s.troops["Verona"]


def test_loyal_vassal_refusals():
    s = position(
        castles={"Verona": RED, "Milan": RED, "Padua": (RED, False)},
        hands=hand("loyal_vassal:1"),
    )
    assert_illegal(s, PlayLoyalVassal("loyal_vassal:1", "Milan"), "does not bear the shield")
    assert_illegal(s, PlayLoyalVassal("loyal_vassal:1", "Padua"), "already recruited")
    assert_illegal(s, PlayLoyalVassal("loyal_vassal:1", "Friuli"), "does not belong to red")


# -- political cards -------------------------------------------------------------------------------
def test_support_of_the_bishop():
    s = position(castles={"Verona": RED}, hands=hand("bishop:5-1", "bishop:2-3"))
    assert_illegal(s, PlayBishop("bishop:2-3"), "no castle bearing shield 2 or 3")
    s.apply(PlayBishop("bishop:5-1"))
    assert s.legit[RED] == 4


def test_support_of_the_pope_first_action_and_ties():
    s = position(emissaries={"Rome": [GREEN, BLUE]}, hands=hand("pope", "pope"))
    s.apply(PlayPope())
    assert s.legit == [2, 4, 4]  # green and blue tie with one each; red has none
    assert_illegal(s, PlayPope(), "only be played as the first action")


def test_support_of_the_pope_with_rome_empty():
    s = position(hands=hand("pope"))
    s.apply(PlayPope())
    assert s.legit == [2, 2, 2]
    everyone = position(hands=hand("pope"), rules={"pope_needs_emissaries": False})
    everyone.apply(PlayPope())
    assert everyone.legit == [4, 4, 4]


def test_the_king_is_dead():
    s = position(legitimacy=[3, 7, 7], hands=hand("king_is_dead"))
    s.apply(PlayKingIsDead())
    assert s.legit == [3, 10, 10]


def test_spy():
    """ "Spy: Allows us to look at all of another player's initiative cards, choose one, and
    discard it." """
    s = position(hands=[("spy",), ("pope", "hostage"), ()])
    before = s.clone()
    assert_illegal(s, PlaySpy(BLUE), "blue holds no initiative card to discard")
    assert_illegal(s, PlaySpy(RED), "on another player")
    s.apply(PlaySpy(GREEN))
    # Red looks at all of green's cards and chooses one; nothing else may be done meanwhile.
    assert s.current_player == RED
    assert s.legal_actions() == [SpyDiscard("hostage"), SpyDiscard("pope")]
    assert_illegal(s, SpyDiscard("spy"), "green holds no spy card")
    assert_illegal(s, PlayPope(), "red must first choose which of green's cards to discard")
    assert s.describe(SpyDiscard("hostage")) == "discard Hostage from green's hand"
    s.apply(SpyDiscard("hostage"))
    assert s.hands == [(), ("pope",), ()]
    assert s.discards == {"spy": 1, "hostage": 1}
    assert s.step == "play" and s.left == 1  # Spy was one action
    s.undo()
    s.undo()
    assert s == before


def test_invasions_first_action_only():
    s = position(
        players=4,
        legitimacy=[2, 5, 5, 1],
        emissaries={"Magyars": [GREEN], "Saracens": [BLUE]},
        hands=hand("magyar_invasion", "saracen_invasion", players=4),
    )
    s.apply(PlayInvasion("magyar_invasion"))
    assert s.legit == [0, 5, 3, 0]  # red too (it has none there); never below 0
    assert_illegal(s, PlayInvasion("saracen_invasion"), "first action of the turn")


def test_secret_pact():
    s = position(
        castles={"Verona": RED, "Romagna": RED, "Florence": RED, "Milan": RED},
        hands=hand("secret_pact:1-2-3", "secret_pact:3-4-5"),
    )
    assert_illegal(s, PlaySecretPact("secret_pact:3-4-5"), "shield 5")
    s.apply(PlaySecretPact("secret_pact:1-2-3"))
    assert s.vp[RED] == 3


def test_hostage_in_rome_swings_legitimacy():
    s = position(emissaries={"Rome": [GREEN]}, hands=hand("hostage"), legitimacy=[2, 3, 2])
    s.apply(PlayHostage(GREEN, "Rome"))
    assert s.rome == (RED,) and s.hostages == ((RED, GREEN),)
    assert s.legit == [3, 2, 2]
    assert s.hand_em == [3, 3, 4]


def test_hostage_in_a_castle_and_refusals():
    s = position(
        castles={"Milan": RED},
        emissaries={"Padua": [GREEN], "Milan": [BLUE]},
        alliances=[(GREEN, BLUE, False)],
        hands=hand("hostage", "hostage"),
    )
    assert_illegal(s, PlayHostage(GREEN, "Alliance Zone"), "Alliance Zone")
    assert_illegal(s, PlayHostage(BLUE, "Milan"), "take the hostage there with an action")
    assert_illegal(s, PlayHostage(BLUE, "Padua"), "no emissary of player 2 is in Padua")
    assert_illegal(s, PlayHostage(RED, "Padua"), "its own emissary")
    assert_illegal(s, PlayHostage(GREEN, "Atlantis"), "no castle or area called Atlantis")
    s.apply(PlayHostage(GREEN, "Padua"))
    assert s.emissaries_at("Padua") == (RED,)


def test_hostage_against_an_ally_breaks_the_alliance():
    s = position(
        emissaries={"Padua": [GREEN]},
        alliances=[(RED, GREEN, True)],
        hands=hand("hostage"),
        legitimacy=[4, 2, 2],
    )
    s.apply(PlayHostage(GREEN, "Padua"))
    assert s.zone == {} and s.legit[RED] == 2


def test_hostage_needs_an_emissary_in_hand():
    s = position(
        emissaries={"Rome": [RED, RED, RED], "Saracens": [RED], "Padua": [GREEN]},
        hands=hand("hostage"),
    )
    assert_illegal(s, PlayHostage(GREEN, "Padua"), "no emissary in hand")


def test_cards_go_to_the_discard_pile_and_decks_do_not_refill():
    s = position(hands=hand("king_is_dead"))
    s.apply(PlayKingIsDead())
    s.apply(TakeCard("political"))
    assert ("draw king_is_dead", 1) in [(str(o), p.numerator) for o, p in s.chance_outcomes()]
    assert sum(s.decks["political"].values()) == 28


def test_castle_attack_label_and_move_label():
    s = position(players=4, castles={"Verona": GREEN}, armies={"Verona": {RED: 3}})
    assert s.label(AttackCastle("Verona")) == (
        "red: attack castle Verona with 3 armies (green die, needs 5 to drive out the troops "
        "inside)"
    )
    assert s.label(Move("Verona", "Trento", 2)) == "red: move 2 armies Verona -> Trento"


def test_the_first_line_says_what_is_rolled_and_what_it_needs():
    s = position(castles={"Verona": GREEN}, armies={"Verona": {RED: 3}, "Brescia": {RED: 2}})
    s.apply(AttackCastle("Verona"))  # 3 armies roll the green die; Verona's left banner is 5
    head = "Turn 4 (round 2): red attacks the castle of Verona"
    assert str(s).splitlines()[0] == f"{head}: red rolls the green die, needs 5+."
    assert s.describe(Roll(4)) == "red rolls 4 on the green die"
    s.apply(Roll(4))
    assert str(s).splitlines()[0] == (
        f"{head}: red rolled 4, needs 5+; reroll with a shield or keep it."
    )


def test_a_battle_says_who_rolls_and_what_the_defender_must_beat():
    s = position(armies={"Brescia": {RED: 2, BLUE: 1}})
    attack = AttackArmy("Brescia", BLUE)
    assert (
        s.describe(attack)
        == "attack blue's army in Brescia, 2 against 1 (yellow die against red die)"
    )
    s.apply(attack)
    head = "Turn 4 (round 2): red attacks blue at Brescia"
    assert str(s).splitlines()[0] == f"{head}: red rolls the yellow die."
    s.apply(Roll(3))
    s.apply(AcceptRoll())
    # ties go to the attacker: the defender needs a 4 or more
    assert str(s).splitlines()[0] == f"{head}: blue rolls the red die, needs more than 3."
