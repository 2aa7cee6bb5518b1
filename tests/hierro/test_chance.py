"""Chance nodes of Corona de Hierro: exact outcomes, refusals, and the game tree's odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from coronas.engine import IllegalAction, exact_distribution
from coronas.hierro import (
    AcceptRoll,
    AttackArmy,
    AttackCastle,
    Draw,
    RequestSupport,
    Reroll,
    ReturnHostage,
    Roll,
    TakeCard,
)

from .helpers import GREEN, RED, position, random_game


def test_roll_outcomes_are_the_die_faces():
    s = position(armies={"Padua": {RED: 2}}, shields=[0, 0, 0])
    s.apply(AttackCastle("Padua"))
    assert s.chance_outcomes() == [(Roll(v), Fraction(1, 6)) for v in range(1, 7)]
    before = s.clone()
    with pytest.raises(IllegalAction, match="not a possible outcome"):
        s.apply(Roll(7))
    with pytest.raises(IllegalAction, match="not a possible outcome"):
        s.apply(Draw("spy"))
    assert s == before


def test_a_card_not_in_the_deck_cannot_be_drawn():
    s = position(hands=[("pope", "pope", "pope"), (), ()])
    s.apply(TakeCard("political"))
    assert Draw("pope") not in dict(s.chance_outcomes())
    before = s.clone()
    with pytest.raises(IllegalAction, match="not a possible outcome"):
        s.apply(Draw("pope"))
    assert s == before
    # The other 26 political cards: 5 Hostage of 26.
    assert dict(s.chance_outcomes())[Draw("hostage")] == Fraction(5, 26)


def test_nothing_can_be_played_once_the_game_is_over():
    s = random_game(3, seed=4)
    with pytest.raises(IllegalAction, match="the game is over"):
        s.apply(TakeCard("military"))


def test_hostages_are_given_back_only_on_the_holders_turn():
    s = position(hostages=[(GREEN, RED)])
    with pytest.raises(IllegalAction, match="red holds no emissary of player 0 hostage"):
        s.apply(ReturnHostage(RED))


def test_wrong_decision_at_a_reroll_is_refused():
    s = position(armies={"Padua": {RED: 1}}, shields=[1, 0, 0])
    s.apply(AttackCastle("Padua"))
    s.apply(Roll(1))
    with pytest.raises(IllegalAction, match="whether to spend a shield and reroll"):
        s.apply(TakeCard("military"))


def always_reroll(state):
    return Reroll() if Reroll() in state.legal_actions() else AcceptRoll()


def test_castle_assault_tree_with_one_shield():
    # Small army (red d6) against Padua (needs 3): fail twice with (2/6)**2 = 1/9,
    # so P(taken) = 8/9 when the one shield is spent on a failure.
    s = position(castles={"Verona": RED}, armies={"Padua": {RED: 1}}, shields=[1, 0, 0])
    s.apply(AttackCastle("Padua"))
    dist = exact_distribution(
        s, always_reroll, lambda t: t.owner.get("Padua"), stop=lambda t: t.step == "play"
    )
    assert dist[RED] == Fraction(8, 9)


def test_diplomacy_tree_in_the_yellow_band():
    # Yellow d6 against Milan's right banner 2: P = 5/6.
    s = position(legitimacy=[5, 2, 2], emissaries={"Milan": [RED]}, shields=[0, 0, 0])
    s.apply(RequestSupport("Milan"))
    dist = exact_distribution(
        s, always_reroll, lambda t: t.owner.get("Milan"), stop=lambda t: t.step == "play"
    )
    assert dist[RED] == Fraction(5, 6)


def test_one_against_one_battle_tree():
    # Red d6 against red d6, ties to the attacker: P(attacker >= defender) = 21/36 = 7/12.
    s = position(armies={"Trento": {RED: 1, GREEN: 1}}, shields=[0, 0, 0])
    s.apply(AttackArmy("Trento", GREEN))
    dist = exact_distribution(
        s, always_reroll, lambda t: tuple(t.armies["Trento"]), stop=lambda t: t.step == "play"
    )
    assert dist[(RED,)] == Fraction(7, 12)


def test_two_against_one_battle_tree():
    # Yellow (2 pawns) against red (1 pawn): the attacker wins the first roll with 7/12 and
    # ends it; losing it (5/12) leaves 1 against 1, won with 7/12.
    # P = 7/12 + 5/12 * 7/12 = 84/144 + 35/144 = 119/144.
    s = position(armies={"Trento": {RED: 2, GREEN: 1}}, shields=[0, 0, 0])
    s.apply(AttackArmy("Trento", GREEN))
    dist = exact_distribution(
        s, always_reroll, lambda t: RED in t.armies["Trento"], stop=lambda t: t.step == "play"
    )
    assert dist[True] == Fraction(119, 144)
