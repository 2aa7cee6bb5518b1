"""The rulebook's worked examples and FAQ answers, with the rulebook's own numbers."""

import pytest

from coronas.batalla import (
    Accept,
    Attack,
    BattleRoll,
    Buy,
    ChooseDie,
    CrossReroll,
    EndTurn,
    Game,
    IllegalAction,
    Roll,
    RollOff,
    Rules,
    Seat,
    SpendSwords,
    Visit,
)
from tests.batalla.helpers import play_out, position


def test_isadora_decision_phase():
    # Isadora rolls 1 and 3, gives the 3 to her Sorcerer: the dragon climbs one level at once
    # and the 1 is gold.
    state = position(phase="roll")
    state.apply(Roll(1, 3))
    assert ChooseDie(3, 1) in state.legal_actions() and ChooseDie(1, 3) in state.legal_actions()
    play_out(state, [ChooseDie(3, 1), Seat("sorcerer")])
    assert state.chairs[0][2] == "sorcerer"
    assert state.dragon[0] == 1 and state.gold[0] == 1
    assert state.phase == "buy"
    # "From now on ... every time she rolls a 3, she will have the option to activate her
    # Sorcerer": no seating, the Sorcerer acts. (In between, the other player's turn.)
    play_out(state, [EndTurn(), Roll(2, 2), ChooseDie(2, 2), Seat("smith"), EndTurn()])
    state.apply(Roll(3, 6))
    state.apply(ChooseDie(3, 6))
    assert state.phase == "buy" and state.dragon[0] == 2 and state.gold[0] == 7


def test_leo_buys_a_sword_and_a_dragon_level():
    # Leo has 5 gold: 3 for an attack unit, the 2 left for the first dragon level.
    state = position(phase="buy", gold=[5, 0])
    play_out(state, [Buy("sword"), Buy("dragon")])
    assert state.swords[0] == 3 and state.dragon[0] == 1 and state.gold[0] == 0


def test_eli_wins_by_two_and_spends_two_swords():
    """The rulebook: "Eli, as the winner of that battle, can spend up to 2 swords to damage
    Katy's kingdom's defenses": up to, so 0, 1 or 2 (ruling B8)."""
    # Eli rolls 5, Katy 3: Eli may spend up to 5 - 3 = 2 swords, at -1 shield a sword.
    state = position(phase="buy", swords=[2, 2], shields=[2, 4])
    play_out(state, [Attack(), BattleRoll(5, 3)])
    assert state.legal_actions() == [SpendSwords(0), SpendSwords(1), SpendSwords(2)]
    state.apply(SpendSwords(2))
    assert state.shields[1] == 2 and state.swords[0] == 0
    # With only 1 sword she may still spend that one.
    state = position(phase="buy", swords=[1, 2], shields=[2, 4])
    play_out(state, [Attack(), BattleRoll(5, 3)])
    assert state.legal_actions() == [SpendSwords(0), SpendSwords(1)]
    state.apply(SpendSwords(1))
    assert state.shields[1] == 3 and state.swords[0] == 0


def test_katy_wins_by_two_and_eli_loses_two_swords():
    # Eli rolls 2, Katy 4: the defence wins, Eli loses 4 - 2 = 2 swords, Katy keeps her shields.
    state = position(phase="buy", swords=[3, 2], shields=[2, 4])
    play_out(state, [Attack(), BattleRoll(2, 4)])
    assert state.swords[0] == 1 and state.shields[1] == 4
    assert state.player == 1 and state.phase == "roll"
    # With fewer than 2 swords she goes to 0 and the rest of the damage is lost.
    state = position(phase="buy", swords=[1, 2], shields=[2, 4])
    play_out(state, [Attack(), BattleRoll(2, 4)])
    assert state.swords[0] == 0


def example_of_a_game() -> Game:
    """Gabriel (player 1) and Nicolás (player 2), move by move with the rulebook's dice."""
    state = Game().new_initial_state()
    # The rulebook does not give the roll-off: any untied roll that Gabriel wins.
    state.apply(RollOff(4, 2))
    assert state.player == 0
    # 1. Gabriel rolls 1 and 5: the 1 seats the Smith (token to him), the 5 is gold.
    play_out(state, [Roll(1, 5), ChooseDie(1, 5), Seat("smith")])
    assert state.smith == 0 and state.gold[0] == 5
    # 2. 3 gold and the Smith token for two swords (2 -> 4), then 2 gold for dragon level 1.
    state.apply(Buy("sword", smith=True))
    assert state.swords[0] == 4 and state.gold[0] == 2 and state.smith is None
    state.apply(Buy("dragon"))
    assert state.dragon[0] == 1 and state.gold[0] == 0
    # He cannot attack on the first turn of the game.
    assert Attack() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="first turn"):
        state.apply(Attack())
    state.apply(EndTurn())
    # 3. Nicolás rolls 2 and 6: the 2 seats the Priest, who visits the blue square
    # (Gabriel loses a sword); the 6 is gold.
    play_out(state, [Roll(2, 6), ChooseDie(2, 6), Seat("priest"), Visit("blue")])
    assert state.swords[0] == 3 and state.gold[1] == 6 and state.clergy[1] == "blue"
    # 4. A shield and a sword for 3 gold each.
    play_out(state, [Buy("shield"), Buy("sword")])
    assert (state.shields[1], state.swords[1], state.gold[1]) == (3, 3, 0)
    # 5. He attacks: 6 against 3, he may spend up to 3 swords, needs 2.
    play_out(state, [Attack(), BattleRoll(6, 3)])
    assert state.legal_actions() == [SpendSwords(0), SpendSwords(1), SpendSwords(2)]
    state.apply(SpendSwords(2))
    return state


def test_example_of_a_game_ends_in_the_rulebook_position():
    state = example_of_a_game()
    gabriel, nicolas = 0, 1
    assert state.shields[gabriel] == 0 and state.swords[nicolas] == 1
    assert state.gems_won == [0, 1]
    assert state.gems_in_castle(gabriel) == 2 and state.gems_in_castle(nicolas) == 3
    assert state.crown == nicolas and state.cross == gabriel and state.smith is None
    assert state.chairs[gabriel] == ("smith", None, None, None, None, None)
    assert state.chairs[nicolas] == (None, "priest", None, None, None, None)
    assert (state.shields[nicolas], state.swords[gabriel]) == (3, 3)
    assert state.dragon == [1, 0] and state.gold == [0, 0]
    assert state.phase == "roll" and state.player == gabriel and state.turn == 3


def test_example_cross_as_a_reroll_variant():
    # The example's last paragraph reads the Cross as a battle reroll: with that variant
    # Gabriel, defending, spends it for a free reroll.
    rules = Rules(cross_effect="reroll")
    state = position(
        rules=rules, phase="buy", to_move=1, swords=[3, 1], shields=[0, 3], cross=0, crown=1
    )
    play_out(state, [Attack(), BattleRoll(4, 2)])
    # Nicolás holds the Crown: his moment to spend it comes first (ruling B11); he keeps it
    assert state.phase == "battle_tokens" and state.current_player == 1
    state.apply(Accept())
    assert state.current_player == 0 and CrossReroll() in state.legal_actions()
    state.apply(CrossReroll())
    assert state.cross is None and state.is_chance_node()


def test_faq_seven_gold_and_a_first_gem_leaves_six():
    state = position(phase="buy", gold=[7, 0], swords=[3, 2], shields=[2, 1])
    play_out(state, [Attack(), BattleRoll(6, 6)])  # a tie first: nothing happens
    assert state.gold[0] == 7 and state.gems_won[0] == 0
    state = position(phase="buy", gold=[7, 0], swords=[3, 2], shields=[2, 1])
    play_out(state, [Attack(), BattleRoll(6, 1), SpendSwords(1)])
    assert state.gems_won[0] == 1 and state.gold[0] == 6
    assert state.cap(0) == 6


def test_faq_no_gem_unless_shields_reach_zero():
    state = position(phase="buy", swords=[3, 2], shields=[2, 3])
    play_out(state, [Attack(), BattleRoll(6, 4), SpendSwords(2)])
    assert state.shields[1] == 1 and state.gems_won[0] == 0 and state.crown is None


def test_faq_the_dragon_attacks_at_once_and_the_battle_phase_follows():
    state = position(phase="buy", dragon=[4, 0], gold=[6, 0], shields=[2, 5])
    state.apply(Buy("dragon"))
    assert state.shields[1] == 1 and state.dragon[0] == 0 and state.gold[0] == 0
    assert state.phase == "buy" and Attack() in state.legal_actions()
