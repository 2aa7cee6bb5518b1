"""Each rule of Batalla de Coronas on the engine, one behaviour at a time."""

from fractions import Fraction as F

import pytest

from coronas.batalla import (
    CHURCH_SQUARES,
    Accept,
    Attack,
    BattleRoll,
    Buy,
    ChooseDie,
    EndTurn,
    Game,
    IllegalAction,
    Invoke,
    Muster,
    Reroll,
    RerollDie,
    Roll,
    RollOff,
    Rules,
    Seat,
    SpendCross,
    SpendCrown,
    SpendSwords,
    Visit,
)
from coronas.engine import RulesError, SaveFileError, State
from tests.batalla.helpers import play_out, position

FULL = ("militia_commander", "smith", "sorcerer", "priest", "noble", "master_of_coin")


# -- set-up and the decision dice -----------------------------------------------------------


def test_initial_board_and_roll_off():
    state = Game().new_initial_state()
    assert state.shields == [2, 2] and state.swords == [2, 2] and state.gold == [0, 0]
    assert state.dragon == [0, 0] and state.gems_in_castle(0) == 3 and state.clergy == [None] * 2
    assert state.token_holders() == {"crown": None, "cross": None, "smith": None}
    outcomes = state.chance_outcomes()
    # Ties are rolled again: the 30 untied pairs, each 1/36 / (30/36) = 1/30.
    assert len(outcomes) == 30 and {p for _, p in outcomes} == {F(1, 30)}
    assert all(o.first != o.second for o, _ in outcomes)
    state.apply(RollOff(2, 5))
    assert state.player == 1 and state.turn == 1 and state.is_chance_node()


def test_a_die_with_one_face_only_is_refused():
    """ "If there is a tie, both players must continue rolling until they get different
    results": a die whose faces are all equal would roll for the first player forever."""
    with pytest.raises(RulesError, match="die_faces: the die needs two different faces"):
        Rules(die_faces=(3, 3, 3, 3, 3, 3))
    # Two different faces are enough: the roll-off is then one of the two untied pairs.
    state = Game(rules=Rules(die_faces=(1, 1, 1, 1, 1, 2))).new_initial_state()
    assert state.chance_outcomes() == [(RollOff(1, 2), F(1, 2)), (RollOff(2, 1), F(1, 2))]


def test_decision_roll_has_the_36_outcomes_of_two_dice():
    state = position()
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 21 and sum(outcomes.values()) == 1
    assert outcomes[Roll(3, 3)] == F(1, 36) and outcomes[Roll(1, 6)] == F(2, 36)
    assert Roll(6, 1) == Roll(1, 6) and str(Roll(6, 1)) == "roll 1 and 6"


def test_doubles_give_the_one_number_for_chair_and_gold():
    state = play_out(position(gold=[0, 0]), [Roll(2, 2)])
    assert state.legal_actions() == [ChooseDie(2, 2)]
    play_out(state, [ChooseDie(2, 2), Seat("master_of_coin")])
    assert state.gold[0] == 2 + 3 and state.chairs[0][1] == "master_of_coin"


def test_gold_never_exceeds_the_cap():
    state = play_out(position(gold=[5, 0]), [Roll(1, 6), ChooseDie(1, 6)])
    assert state.gold[0] == 7
    state = play_out(position(gold=[4, 0], gems_won=[2, 0]), [Roll(1, 6), ChooseDie(1, 6)])
    assert state.gold[0] == 5  # 7 minus 2 gems won


def test_choosing_an_occupied_chair_activates_its_counselor():
    chairs = [FULL, (None,) * 6]
    state = play_out(position(chairs=chairs, gold=[0, 0]), [Roll(3, 6), ChooseDie(6, 3)])
    assert state.gold[0] == 3 + 3 and state.phase == "buy"  # Master of Coin on chair 6


def test_militia_commander_chooses_and_never_exceeds_five():
    state = play_out(
        position(shields=[5, 2]), [Roll(2, 3), ChooseDie(2, 3), Seat("militia_commander")]
    )
    assert state.legal_actions() == [Muster("sword")]
    with pytest.raises(IllegalAction, match="already at 5"):
        state.apply(Muster("shield"))
    state.apply(Muster("sword"))
    assert state.swords[0] == 3 and state.phase == "buy"
    state = play_out(
        position(shields=[5, 2], swords=[5, 2]),
        [Roll(2, 3), ChooseDie(2, 3), Seat("militia_commander")],
    )
    assert state.phase == "buy"  # nothing to add: the activation passes


def test_smith_token_moves_to_whoever_activates_the_smith():
    state = play_out(position(smith=1), [Roll(1, 2), ChooseDie(1, 2), Seat("smith")])
    assert state.smith == 0


def test_noble_activates_another_counselor_never_itself():
    chairs = [("noble", "sorcerer", None, None, None, None), (None,) * 6]
    state = play_out(position(chairs=chairs), [Roll(1, 5), ChooseDie(1, 5)])
    assert state.phase == "invoke" and state.legal_actions() == [Invoke("sorcerer")]
    with pytest.raises(IllegalAction, match="only another counselor"):
        state.apply(Invoke("noble"))
    state.apply(Invoke("sorcerer"))
    assert state.dragon[0] == 1
    # A Noble alone on the council has nobody to activate.
    state = play_out(position(), [Roll(1, 5), ChooseDie(1, 5), Seat("noble")])
    assert state.phase == "buy"


def test_first_full_council_gets_one_extra_noble_activation():
    five = ("militia_commander", "smith", "sorcerer", "priest", "noble", None)
    state = play_out(
        position(chairs=[five, five]), [Roll(6, 6), ChooseDie(6, 6), Seat("master_of_coin")]
    )
    # The Master of Coin acts (+3, with the 6: 9, capped at 7), then the Noble once more.
    assert state.phase == "invoke" and state.gold[0] == 7 and state.bonus_taken == 0
    state.apply(Invoke("sorcerer"))
    assert state.dragon[0] == 1 and state.phase == "buy"
    # The second player to fill the council gets no bonus.
    play_out(state, [EndTurn(), Roll(6, 6), ChooseDie(6, 6), Seat("master_of_coin")])
    assert state.phase == "buy" and state.bonus_taken == 0
    # The option turns it off.
    state = play_out(
        position(chairs=[five, five], rules=Rules(council_bonus=False)),
        [Roll(6, 6), ChooseDie(6, 6), Seat("master_of_coin")],
    )
    assert state.phase == "buy"


def test_priest_squares_act_on_the_enemy_and_never_repeat():
    state = position(gold=[0, 6], swords=[2, 3], dragon=[0, 2])
    play_out(state, [Roll(1, 2), ChooseDie(1, 2), Seat("priest")])
    assert state.legal_actions()[:3] == [Visit("golden"), Visit("blue"), Visit("red")]
    state.apply(Visit("golden"))
    assert state.gold[1] == -1 and state.clergy[0] == "golden"
    # next activation: any square but the golden one
    play_out(
        state,
        [
            EndTurn(),
            Roll(3, 3),
            ChooseDie(3, 3),
            Seat("smith"),
            EndTurn(),
            Roll(1, 4),
            ChooseDie(1, 4),
        ],
    )
    assert [str(a) for a in state.legal_actions()] == [
        "Priest: visit the blue square",
        "Priest: visit the red square",
    ]
    with pytest.raises(IllegalAction, match="cannot visit the golden square"):
        state.apply(Visit("golden"))
    state.apply(Visit("red"))
    assert state.dragon[1] == 1
    # the opponent's gold went -1 + 3 = 2 in their turn; blue takes a sword
    state = position(clergy=["red", None], chairs=[("priest",) + (None,) * 5, (None,) * 6])
    play_out(state, [Roll(1, 2), ChooseDie(1, 2), Visit("blue")])
    assert state.swords[1] == 1


def test_church_never_revisits_under_the_never_option():
    rules = Rules(church_revisit="never")
    state = position(
        rules=rules, clergy=["blue", None], chairs=[("priest",) + (None,) * 5, (None,) * 6]
    )
    play_out(state, [Roll(1, 2), ChooseDie(1, 2)])
    assert state.legal_actions()[:2] == [Visit("golden"), Visit("red")]


# -- buying ---------------------------------------------------------------------------------


def test_buying_prices_and_limits():
    state = position(phase="buy", gold=[7, 0], shields=[4, 2])
    with pytest.raises(IllegalAction, match="3 gold and you have"):
        play_out(state.clone(), [Buy("sword"), Buy("sword"), Buy("sword")])
    state.apply(Buy("shield"))
    assert state.shields[0] == 5 and state.gold[0] == 4
    with pytest.raises(IllegalAction, match="already at 5"):
        state.apply(Buy("shield"))
    state.apply(Buy("dragon"))  # level 1 costs 2
    with pytest.raises(IllegalAction, match="dragon level 2 costs 3 gold and you have 2"):
        state.apply(Buy("dragon"))
    assert state.dragon[0] == 1 and state.gold[0] == 2


def test_smith_token_two_for_one_needs_gold_for_one_and_caps_at_five():
    state = position(phase="buy", gold=[3, 0], swords=[4, 2], smith=0)
    state.apply(Buy("sword", smith=True))
    assert state.swords[0] == 5 and state.gold[0] == 0 and state.smith is None
    state = position(phase="buy", gold=[2, 0], smith=0)
    with pytest.raises(IllegalAction, match="costs 3 gold"):
        state.apply(Buy("shield", smith=True))
    state = position(phase="buy", gold=[3, 0], smith=1)
    with pytest.raises(IllegalAction, match="do not have the Smith token"):
        state.apply(Buy("shield", smith=True))


# -- tokens ---------------------------------------------------------------------------------


def test_crown_gives_gold_any_time_in_ones_own_turn_only():
    state = play_out(position(crown=0, gold=[1, 0]), [Roll(2, 3)])
    assert SpendCrown() in state.legal_actions()  # decision phase
    state.apply(SpendCrown())
    assert state.gold[0] == 4 and state.crown is None
    # not in the other player's decisions (the defender's reroll choice)
    state = position(phase="buy", crown=1, gold=[0, 2], swords=[3, 2])
    play_out(state, [Attack(), BattleRoll(5, 2)])
    assert state.current_player == 1 and SpendCrown() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="do not have the Crown"):
        state.apply(SpendCrown())


def test_cross_moves_the_clergy_with_its_effect():
    state = position(phase="buy", cross=0, gold=[0, 5])
    state.apply(SpendCross("golden"))
    assert state.gold[1] == -1 and state.cross is None and state.clergy[0] == "golden"
    rules = Rules(cross_needs_priest=True)
    state = position(rules=rules, phase="buy", cross=0)
    assert not any(isinstance(a, SpendCross) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="only once the Priest sits"):
        state.apply(SpendCross("golden"))


def test_an_attacker_behind_with_only_the_crown_is_offered_the_reroll():
    """The Crown: "Ability when spent: At any time during your turn, you can discard it to
    get 3 gold." A reroll: "First, you pay, then you can reroll." (rulings B7, B11)"""
    state = position(phase="buy", swords=[3, 2], gold=[0, 0], crown=0)
    play_out(state, [Attack(), BattleRoll(2, 4)])
    # no gold yet: the Crown would pay, so the attacker is asked
    assert state.phase == "reroll_choice" and state.legal_actions() == [Accept(), SpendCrown()]
    with pytest.raises(IllegalAction, match="costs 1 gold and you have 0"):
        state.apply(Reroll(1))
    state.apply(SpendCrown())
    assert state.gold[0] == 3 and state.legal_actions() == [Reroll(1), Accept()]
    # with 1 gold, as before: both the reroll and the Crown
    state = position(phase="buy", swords=[3, 2], gold=[1, 0], crown=0)
    play_out(state, [Attack(), BattleRoll(2, 4)])
    assert state.legal_actions() == [Reroll(1), Accept(), SpendCrown()]
    # the Crown's gold stops at the cap: 2 gems won leave 5, so at 4 gold it adds 1
    state = position(phase="buy", swords=[3, 2], gold=[4, 0], crown=0, gems_won=[2, 0])
    play_out(state, [Attack(), BattleRoll(2, 4), SpendCrown()])
    assert state.gold[0] == 5
    # the other reading: the Crown is not spent in a battle
    rules = Rules(crown_in_battle=False)
    state = position(rules=rules, phase="buy", swords=[3, 2], gold=[0, 0], crown=0)
    play_out(state, [Attack(), BattleRoll(2, 4)])
    assert state.phase == "roll" and state.swords[0] == 1 and state.crown == 0
    state = position(rules=rules, phase="buy", swords=[3, 2], gold=[1, 0], crown=0)
    play_out(state, [Attack(), BattleRoll(2, 4)])
    assert state.legal_actions() == [Reroll(1), Accept()]
    with pytest.raises(IllegalAction, match="not spent in a battle"):
        state.apply(SpendCrown())


def test_the_attacker_may_spend_a_token_before_the_defender_rerolls():
    """The Cross: "At any time during your turn (decision phase, buying phase, and battle
    phase), you can spend the Cross token"; the Crown: "At any time during your turn". The
    attacker's moment comes between its roll and the defender's reroll (ruling B11)."""
    state = position(phase="buy", swords=[3, 2], gold=[0, 3], cross=0)
    play_out(state, [Attack(), BattleRoll(4, 2)])
    assert state.phase == "battle_tokens" and state.current_player == 0
    assert state.legal_actions() == [Accept(), *(SpendCross(s) for s in CHURCH_SQUARES)]
    before = state.clone()
    # the golden square takes the defender's gold, and with it the defender's reroll
    state.apply(SpendCross("golden"))
    assert state.gold[1] == -1 and state.phase == "spend"
    # keeping the Cross: the defender decides, and after a reroll that leaves it behind the
    # attacker's moment comes again
    state = before
    state.apply(Accept())
    assert state.phase == "reroll_choice" and state.current_player == 1
    play_out(state, [Reroll(1), RerollDie(1)])
    assert state.phase == "battle_tokens" and state.current_player == 0
    # the Crown gets the moment too; spending it, the moment stays while a token is left
    state = position(phase="buy", swords=[3, 2], gold=[0, 3], cross=0, crown=0)
    play_out(state, [Attack(), BattleRoll(4, 2), SpendCrown()])
    assert state.phase == "battle_tokens" and state.gold[0] == 3
    # no moment without a token, nor when the defender cannot pay
    state = position(phase="buy", swords=[3, 2], gold=[0, 3])
    play_out(state, [Attack(), BattleRoll(4, 2)])
    assert state.phase == "reroll_choice" and state.current_player == 1
    state = position(phase="buy", swords=[3, 2], gold=[0, 0], cross=0)
    play_out(state, [Attack(), BattleRoll(4, 2)])
    assert state.phase == "spend"
    # the other reading: tokens only at the attacker's own decisions
    rules = Rules(battle_token_moment=False)
    state = position(rules=rules, phase="buy", swords=[3, 2], gold=[0, 3], cross=0)
    play_out(state, [Attack(), BattleRoll(4, 2)])
    assert state.phase == "reroll_choice" and state.current_player == 1


# -- battles --------------------------------------------------------------------------------


def test_attack_needs_a_sword_and_is_optional():
    state = position(phase="buy", swords=[0, 2])
    assert Attack() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="at least 1 sword"):
        state.apply(Attack())
    state.apply(EndTurn())
    assert state.player == 1 and state.phase == "roll"


def test_battle_dice_are_a_chance_node_over_36_outcomes():
    state = play_out(position(phase="buy"), [Attack()])
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 and {p for _, p in outcomes} == {F(1, 36)}


def test_rerolls_escalate_and_only_the_side_behind_pays():
    state = position(phase="buy", gold=[3, 6], swords=[3, 2], shields=[2, 2])
    play_out(state, [Attack(), BattleRoll(2, 5)])
    # the attacker is behind: it decides, the first reroll costs 1
    assert state.current_player == 0 and state.legal_actions() == [Reroll(1), Accept()]
    play_out(state, [Reroll(1), RerollDie(6)])
    assert state.gold[0] == 2
    # now the defender is behind: its first reroll costs 1 as well
    assert state.current_player == 1 and state.legal_actions() == [Reroll(1), Accept()]
    play_out(state, [Reroll(1), RerollDie(6)])
    # a tie: nobody rerolls, nothing happens, the turn passes
    assert state.phase == "roll" and state.player == 1
    assert state.gold == [2, 5] and state.shields[1] == 2 and state.swords[0] == 3
    # the second and third rerolls cost 2 and 3; without gold the roll stands
    state = position(phase="buy", gold=[5, 0], swords=[3, 2])
    play_out(state, [Attack(), BattleRoll(1, 2), Reroll(1), RerollDie(1), Reroll(2), RerollDie(1)])
    # 2 gold left and the third reroll costs 3: the roll stands, 1 sword lost
    assert state.phase == "roll" and state.player == 1
    assert state.swords[0] == 2 and state.gold[0] == 2
    # a player who may pay is asked, and cannot pay more than it has
    state = position(phase="buy", gold=[3, 0], swords=[3, 2])
    play_out(state, [Attack(), BattleRoll(1, 2), Reroll(1), RerollDie(1)])
    assert state.legal_actions() == [Reroll(2), Accept()]
    with pytest.raises(IllegalAction, match="next reroll in this battle costs 2 gold, not 3"):
        state.apply(Reroll(3))
    # with the Cross as a free reroll, a player with no gold is asked too
    state = position(rules=Rules(cross_effect="reroll"), phase="buy", gold=[0, 0], cross=0)
    play_out(state, [Attack(), BattleRoll(1, 2)])
    with pytest.raises(IllegalAction, match="costs 1 gold and you have 0"):
        state.apply(Reroll(1))


def test_reroll_on_tie_option():
    rules = Rules(reroll_on_tie=True)
    state = position(rules=rules, phase="buy", gold=[1, 1])
    play_out(state, [Attack(), BattleRoll(4, 4)])
    assert state.current_player == 0 and Reroll(1) in state.legal_actions()
    state.apply(Accept())
    assert state.current_player == 1 and Reroll(1) in state.legal_actions()
    state.apply(Accept())
    assert state.phase == "roll" and state.player == 1


def test_attack_against_no_shields_takes_a_gem_without_spending():
    state = position(phase="buy", shields=[2, 0], swords=[1, 2])
    play_out(state, [Attack(), BattleRoll(3, 2)])
    assert state.gems_won[0] == 1 and state.swords[0] == 1 and state.shields[1] == 0
    assert state.crown == 0 and state.cross == 1


def test_dragon_attack_leaving_no_shields_takes_a_gem():
    state = position(
        dragon=[4, 0],
        shields=[2, 3],
        cross=0,
        chairs=[(None, None, "sorcerer", None, None, None), (None,) * 6],
    )
    play_out(state, [Roll(1, 3), ChooseDie(3, 1)])
    assert state.shields[1] == 0 and state.dragon[0] == 0 and state.gems_won[0] == 1
    assert state.crown == 0 and state.cross == 1
    state = position(
        dragon=[4, 0],
        shields=[2, 3],
        rules=Rules(dragon_takes_gem=False),
        chairs=[(None, None, "sorcerer", None, None, None), (None,) * 6],
    )
    play_out(state, [Roll(1, 3), ChooseDie(3, 1)])
    assert state.shields[1] == 0 and state.gems_won[0] == 0


def test_the_third_gem_ends_the_game():
    state = position(phase="buy", gems_won=[2, 1], shields=[2, 1], swords=[2, 2], gold=[5, 0])
    play_out(state, [Attack(), BattleRoll(6, 2), SpendSwords(1)])
    assert state.is_terminal() and state.winner == 0
    assert state.returns() == [1, 0] and state.winners() == [0] and state.scores() == [3, 1]
    assert state.gold[0] == 4  # the third gem covers another square: cap 4
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(EndTurn())


def test_a_winning_attacker_chooses_how_many_swords():
    """The rulebook: the winner "can spend up to 2 swords" and "Even though he can spend up to
    3 units of swords in his attack, Nicolás only needs to spend 2" (ruling B8)."""
    state = position(phase="buy", swords=[5, 2], shields=[2, 4])
    play_out(state, [Attack(), BattleRoll(6, 1)])
    assert state.legal_actions() == [SpendSwords(n) for n in range(0, 5)]
    with pytest.raises(IllegalAction, match="from 0 to 4 swords"):
        state.apply(SpendSwords(5))
    state.apply(SpendSwords(3))
    assert state.swords[0] == 2 and state.shields[1] == 1
    # spending none: the battle is won, nothing changes, the turn passes
    state = play_out(position(phase="buy", swords=[5, 2], shields=[2, 4]), [Attack()])
    play_out(state, [BattleRoll(6, 1), SpendSwords(0)])
    assert state.swords[0] == 5 and state.shields[1] == 4 and state.player == 1
    # the other reading: a won battle costs at least one sword
    rules = Rules(min_swords_spent=1)
    state = position(rules=rules, phase="buy", swords=[5, 2], shields=[2, 4])
    play_out(state, [Attack(), BattleRoll(6, 1)])
    assert state.legal_actions() == [SpendSwords(n) for n in range(1, 5)]
    with pytest.raises(IllegalAction, match="from 1 to 4 swords"):
        state.apply(SpendSwords(0))


# -- the protocol ---------------------------------------------------------------------------


def test_illegal_actions_name_the_phase_and_change_nothing():
    state = position(phase="buy", gold=[2, 0])
    before = state.clone()
    with pytest.raises(IllegalAction, match="this is the buying phase"):
        state.apply(Seat("noble"))
    with pytest.raises(IllegalAction, match="not a possible outcome"):
        play_out(state.clone(), [EndTurn(), Roll(0, 7)])
    for action, reason in [
        (Seat("king"), "there is no counselor 'king'"),
        (Visit("green"), "there is no church square 'green'"),
        (Buy("castle"), "not 'castle'"),
        (Buy("dragon", smith=True), "not dragon levels"),
        (Muster("archer"), "not 'archer'"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(action)
    assert state == before and state.history == before.history


def test_undo_and_save_load_round_trip():
    state = Game(seed=3).new_initial_state()
    play_out(state, [RollOff(1, 6), Roll(2, 5), ChooseDie(2, 5), Seat("priest"), Visit("blue")])
    copy = State.from_json(state.to_json())
    assert copy == state and copy.history == state.history
    state.undo()
    assert state.phase == "church" and state.swords[0] == 2


def test_positions_round_trip_and_are_validated():
    state = position(phase="buy", gold=[5, -1], chairs=[FULL, (None,) * 6], clergy=["red", None])
    state.apply(Buy("shield"))
    assert State.from_json(state.to_json()) == state
    with pytest.raises(ValueError, match=r"gold\[0\]: expected a whole number from -1 to 7"):
        position(gold=[9, 0])
    with pytest.raises(ValueError, match="unknown field"):
        position(armies=[1, 2])
    with pytest.raises(ValueError, match=r"chairs\[0\]: expected distinct counselors"):
        position(chairs=[("noble", "noble", None, None, None, None), (None,) * 6])
    bad = state.to_json().replace('"gold": [5, -1]', '"gold": [5, 12]')
    with pytest.raises(SaveFileError, match="gold"):
        State.from_json(bad)


def test_rule_files_are_validated(tmp_path):
    path = tmp_path / "house.json"
    path.write_text('{"dragon_costs": [2, "three"]}')
    with pytest.raises(RulesError, match=r"house.json: field 'dragon_costs'\[1\]"):
        Rules.load(path)
    path.write_text('{"church_revisit": "sometimes"}')
    with pytest.raises(RulesError, match="church_revisit: expected one of"):
        Rules.load(path)
    path.write_text('{"reroll_on_tie": true, "dragon_costs": [1, 1, 1]}')
    rules = Rules.load(path)
    assert rules.reroll_on_tie and rules.dragon_attack_level == 3


def test_every_rule_field_is_documented_in_the_rulings():
    import dataclasses
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "rulings.md"
    section = docs.read_text(encoding="utf-8").split("<!-- batalla rulings -->")[1]
    missing = [f.name for f in dataclasses.fields(Rules) if f"`{f.name}" not in section]
    assert missing == []
