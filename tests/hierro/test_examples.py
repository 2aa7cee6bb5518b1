"""The worked examples of the Corona de Hierro rulebook, with its numbers."""

from __future__ import annotations

from coronas.hierro import (
    AcceptRoll,
    AttackArmy,
    Move,
    Recruit,
    RequestSupport,
    Rules,
    SendEmissary,
    TakeCard,
)

from .helpers import GREEN, RED, assert_illegal, assert_legal, position, roll


def test_friuli_belluno_trento_two_moves_leave_no_action_to_attack():
    # Page 7: green in Friuli, red in Trento. Two moves reach Trento and end the turn.
    s = position(armies={"Friuli": {GREEN: 3}, "Trento": {RED: 3}}, to_move=GREEN)
    s.apply(Move("Friuli", "Belluno", 3))
    assert s.current_player == GREEN and s.left == 1
    s.apply(Move("Belluno", "Trento", 3))
    assert s.army("Trento", GREEN) == 3
    assert s.current_player != GREEN  # no action left to attack


def test_from_belluno_one_move_then_attack():
    # Page 7: "If the green army were in Belluno, it could move one space and then attack."
    s = position(armies={"Belluno": {GREEN: 3}, "Trento": {RED: 3}}, to_move=GREEN)
    s.apply(Move("Belluno", "Trento", 3))
    assert s.current_player == GREEN
    assert_legal(s, AttackArmy("Trento", RED))


def test_trento_battle_with_the_rulebook_dice():
    # Page 8: red attacks green in Trento, both large armies (green die each).
    # 3-3: tie to the attacker, green loses a pawn and now rolls yellow;
    # 2-1: red wins, green loses a pawn and now rolls red; 1-1: tie, red wins.
    s = position(armies={"Trento": {RED: 3, GREEN: 3}}, shields=[0, 0, 2], to_move=RED)
    legit = list(s.legit)
    s.apply(AttackArmy("Trento", GREEN))
    assert s.roll_die() == s.rules.die("green")  # red's large army
    roll(s, 3)
    assert s.roll_die() == s.rules.die("green")  # green's large army
    roll(s, 3)
    assert s.army("Trento", GREEN) == 2
    roll(s, 2)
    assert s.roll_die() == s.rules.die("yellow")  # green is now a medium army
    roll(s, 1)
    assert s.army("Trento", GREEN) == 1
    roll(s, 1)
    assert s.roll_die() == s.rules.die("red")  # green is now a small army
    roll(s, 1)
    # Only red's army remains in Trento, with all three pawns.
    assert s.armies["Trento"] == {RED: 3}
    assert s.legit[RED] == legit[RED] + 1
    assert s.legit[GREEN] == legit[GREEN] - 1
    assert s.shields[GREEN] == 1  # the loser gains an experience shield
    assert s.pawns[GREEN] == s.rules.army_pawns  # its three pawns went back to its supply
    assert s.current_player == RED and s.left == 1


def test_trento_battle_when_both_keep_their_rolls():
    # The same battle with shields in hand: each roll the roller might improve is offered
    # as a reroll decision; both keep their rolls and the result is the rulebook's.
    s = position(armies={"Trento": {RED: 3, GREEN: 3}}, to_move=RED)
    s.apply(AttackArmy("Trento", GREEN))
    for attacker, defender in ((3, 3), (2, 1), (1, 1)):
        roll(s, attacker)
        assert s.step == "reroll" and s.current_player == RED
        s.apply(AcceptRoll())
        roll(s, defender)
        assert s.step == "reroll" and s.current_player == GREEN
        s.apply(AcceptRoll())
    assert s.armies["Trento"] == {RED: 3}
    assert s.shields == [2, 3, 2]


def test_romagna_recruit_then_attack():
    # Page 9: red uses both actions to reach Romagna, green's castle. Green takes the army
    # out of the castle (first action) and attacks the red army (second action).
    s = position(
        castles={"Romagna": GREEN, "Friuli": RED},
        armies={"Mantua": {RED: 2}, "Friuli": {RED: 1}},
        to_move=RED,
    )
    s.apply(Move("Mantua", "Ferrara", 2))
    s.apply(Move("Ferrara", "Romagna", 2))
    assert s.current_player == GREEN and s.left == 2
    s.apply(Recruit("Romagna"))
    assert s.army("Romagna", GREEN) == 1 and not s.troops["Romagna"]
    assert_legal(s, AttackArmy("Romagna", RED))
    s.apply(AttackArmy("Romagna", RED))
    assert s.step == "roll" and s.fight["att"] == GREEN


def test_emissary_race():
    # Page 11: green places an emissary, then red; green rolls 1 needing 2 and fails; red
    # rolls 3 and wins the castle. Seat 0 is green here, seat 1 red (colours are rule data).
    rules = Rules(colours=("green", "red", "blue", "yellow", "black"))
    g, r = 0, 1
    s = position(rules=rules, castles={"Friuli": g, "Spoleto": r}, shields=[0, 0, 0])
    assert s.emissary_target("Milan") == 2
    s.apply(SendEmissary("Milan"))
    assert_illegal(s, RequestSupport("Milan"), "negotiations take time")
    s.apply(TakeCard("military"))
    s.apply(s.sample_chance(1))
    s.apply(SendEmissary("Milan"))  # red
    s.apply(TakeCard("military"))
    s.apply(s.sample_chance(2))
    for _ in range(2):  # blue
        s.apply(TakeCard("political"))
        s.apply(s.sample_chance(3))
    # Green's next turn: legitimacy 2 is in the red band, so the red die.
    assert s.current_player == g
    s.apply(RequestSupport("Milan"))
    assert s.roll_die() == s.rules.die("red")
    roll(s, 1)
    assert "Milan" not in s.owner and s.step == "play"
    s.apply(TakeCard("political"))
    s.apply(s.sample_chance(4))
    # Red's turn.
    assert s.current_player == r
    s.apply(RequestSupport("Milan"))
    roll(s, 3)
    assert s.owner["Milan"] == r and s.troops["Milan"]
    assert s.legit[r] == 3  # +1 for the support won
    assert s.emissaries_at("Milan") == (g,)  # red's emissary went home; green's stays
    assert s.hand_em[r] == s.rules.emissaries
