"""The stepper's seat views and pass and play, on Corona de Hierro's secrets (its loyalty
cards, hands and decks) and on games without secrets; the model without a browser, then the
widgets driven as a person would."""

import pytest

from coronas.hierro import Game, PlaySpy, SpyDiscard, TakeCard
from coronas.hierro.views import card_name
from coronas.widgets import Stepper, StepperModel
from coronas.widgets.stepper.seats import OPEN, PASS_AND_PLAY

RED, GREEN, BLUE = 0, 1, 2
HANDS = [("bishop:1-2", "pope"), ("king_is_dead", "saracen_invasion"), ("magyar_invasion",)]
LOYALTY = ["crown:green", "crown:blue", "crown:red"]
SECRETS = {RED: ("crown:green", *HANDS[0]), GREEN: ("crown:blue", *HANDS[1])}


def hierro(**kwargs):
    """Red to play with two actions left; each seat holds its own cards and loyalty card."""
    state = Game(players=3, seed=1).position(hands=HANDS, loyalty=LOYALTY)
    kwargs.setdefault("seed", None if kwargs.get("lock_view") else 7)
    return StepperModel(state, **kwargs)


def hidden(card, text):
    """Whether ``text`` names ``card`` neither by its id nor by its printed name."""
    return card not in text and card_name(card) not in text


def shown(model):
    """Everything a seat's view shows in words."""
    return "\n".join(
        [
            model.status,
            model.position_text() or "",
            *model.shown_log(),
            *map(str, model.shown_groups(model.action_groups()).values()),
        ]
    )


def drawn_card(model):
    """The card red has just drawn: the one more in red's hand than before."""
    (card,) = set(model.state.hands[RED]) - set(HANDS[RED])
    return card


# -- a seat's view -------------------------------------------------------------------------


def test_the_views_to_choose_from():
    model = hierro()
    assert model.view_options() == [
        ("open view (teaching)", OPEN),
        ("seat: red (random)", RED),  # each seat with the bot that plays it
        ("seat: green (random)", GREEN),
        ("seat: blue (random)", BLUE),
        ("pass and play", PASS_AND_PLAY),
    ]
    assert model.view == OPEN and model.viewer is None
    assert not model.set_view(3) and "there is no view 3" in model.message
    # a seat may be named as people say it: its name, or its number from one
    assert hierro(view="Green").viewer == GREEN and hierro(view="3").viewer == BLUE
    with pytest.raises(ValueError, match=r"there is no view '0': no seat '0': the seats are red"):
        hierro(view="0")


def test_a_seat_sees_its_own_cards_and_none_of_the_others():
    model = hierro(view=RED)
    text = shown(model)
    for card in SECRETS[RED]:
        assert card_name(card) in text
    for card in (*SECRETS[GREEN], "crown:red", "magyar_invasion"):
        assert hidden(card, text)
    assert "You are red. Loyalty card: Crown of green." in text
    assert model.status.startswith("red to move (")

    model.set_view(GREEN)
    text = shown(model)
    assert "Your initiative cards: The King is dead, Saracen invasion." in text
    for card in SECRETS[RED]:
        assert hidden(card, text)
    # not green's move: no actions, and the status says whom it waits for
    assert model.shown_groups(model.action_groups()) == {}
    assert model.status == "Waiting for red"


def test_spy_shows_the_target_s_cards_to_its_player_only_once_played():
    hands = [("spy",), HANDS[GREEN], HANDS[BLUE]]
    state = Game(players=3, seed=1).position(hands=hands, loyalty=LOYALTY)
    model = StepperModel(state, seed=7, view=RED)
    # Before Spy is played, red's list names the targets, not their cards.
    assert hidden("king_is_dead", shown(model)) and hidden("saracen_invasion", shown(model))
    assert PlaySpy(GREEN) in model.state.legal_actions()
    assert model.play(PlaySpy(GREEN))
    text = shown(model)
    assert "With Spy you see green's cards: The King is dead, Saracen invasion." in text
    offered = [a for group in model.shown_groups(model.action_groups()).values() for a in group]
    assert offered == [SpyDiscard("king_is_dead"), SpyDiscard("saracen_invasion")]
    model.set_view(BLUE)
    assert hidden("saracen_invasion", shown(model))
    model.set_view(RED)
    assert model.play(SpyDiscard("saracen_invasion"))
    model.set_view(BLUE)  # the discard is open: blue now sees which card went
    assert model.shown_log()[-1] == "red: discard Saracen invasion from green's hand"
    assert hidden("king_is_dead", shown(model))


def test_a_card_drawn_by_another_seat_is_not_named_nor_its_chances_listed():
    model = hierro(view=GREEN)
    assert model.play(TakeCard("military"))
    # the draw: green is told what is drawn and by whom, but not the cards that could come,
    # and cannot type one in
    assert model.status == "Red draws a military card"
    assert model.state.chance_outcomes() and model.chance_table() == []
    assert not model.enter("good fortune")
    assert "hidden from this seat: use Roll" in model.message
    assert model.roll() is not None
    card = drawn_card(model)
    assert model.shown_log()[-2:] == [
        "red: take a military card",
        "chance: red draws a military card",
    ]
    assert hidden(card, shown(model))
    # red sees its card, without the chance of it (that would tell what the others hold)
    model.set_view(RED)
    assert model.shown_log()[-1] == f"chance: red draws {card_name(card)}"
    mine = ", ".join(card_name(c) for c in sorted((*HANDS[RED], card)))
    assert f"Your initiative cards: {mine}." in shown(model)
    # the open view is as it always was: the card and its exact chance (out of 29 military)
    model.set_view(OPEN)
    assert model.log[-1].startswith(f"chance: draw {card_name(card)}  (probability ")
    assert model.log[-1].split("probability ")[1].split(" ")[0].endswith("/29")
    # taking the draw back tells the seat no more than the log did
    model.set_view(BLUE)
    model.undo()
    assert model.message == "undone: red draws a military card"


def test_loyalty_cards_dealt_are_seen_only_by_their_owner():
    model = StepperModel(Game(players=3, seed=4).new_initial_state(), seed=4, view=GREEN)
    model.play_to_end(max_steps=12)  # main castles chosen, loyalty dealt, the first cards drawn
    log = model.shown_log()
    assert "chance: red is dealt a loyalty card" in log
    assert f"chance: green is dealt the loyalty card {card_name(model.state.loyalty[GREEN])}" in log
    assert "chance: blue draws a political card" in log
    assert not any(not hidden(model.state.loyalty[q], line) for q in (RED, BLUE) for line in log)


def test_the_odds_are_shown_only_for_the_viewing_seats_own_moves():
    state = Game(players=3, seed=1).position(
        hands=HANDS, loyalty=LOYALTY, castles={"Verona": 1}, armies={"Verona": {0: 3}}
    )
    (attack,) = [a for a in state.legal_actions() if "attack castle Verona" in state.describe(a)]
    model = StepperModel(state, seed=3, view=GREEN)
    assert not model.shows_odds()
    model.set_view(RED)
    assert model.shows_odds() and model.odds_text(attack)
    model.play(attack)  # red's own roll: red sees its odds, green does not
    assert model.shows_odds() and model.odds_text()
    model.set_view(GREEN)
    assert not model.shows_odds()


def test_a_seat_view_of_a_game_without_secrets_shows_it_all():
    from coronas.batalla import Game as Batalla

    model = StepperModel(Batalla(seed=1).new_initial_state(), seed=1, view=1)
    model.play_to_end(max_steps=6)
    assert model.shown_log() == model.log and model.log[0].startswith("chance: roll-off")
    assert "nothing is hidden" in model.position_text()


# -- pass and play -------------------------------------------------------------------------


def test_pass_and_play_hands_the_laptop_over_between_people():
    model = hierro(view=PASS_AND_PLAY)
    # nobody holds the laptop yet: everything is hidden until red takes it
    assert model.handover == RED and model.status == "Hand the laptop to red"
    assert model.position_text() == "" and model.shown_log() == []
    assert model.shown_groups(model.action_groups()) == {}
    assert model.take_laptop() and model.viewer == RED
    assert "Your initiative cards: Bishop 1-2, Pope." in shown(model)
    assert not model.take_laptop() and model.message == "no hand-over is due"

    model.play(TakeCard("military"))
    model.roll()  # red draws while holding the laptop: red sees the card at once
    card = drawn_card(model)
    assert model.shown_log()[-1] == f"chance: red draws {card_name(card)}"
    (send,) = [a for a in model.state.legal_actions() if "emissary to Rome" in str(a)]
    model.play(send)  # red's second action ends red's turn: green is to move

    assert model.handover == GREEN and model.status == "Hand the laptop to green"
    assert model.position_text() == "" and model.shown_log() == []
    assert model.shown_groups(model.action_groups()) == {} and not model.shows_odds()
    assert model.take_laptop() and model.holder == GREEN
    text = shown(model)
    assert "Your initiative cards: The King is dead, Saracen invasion." in text
    assert "chance: red draws a military card" in model.shown_log()
    for secret in (card, *SECRETS[RED]):
        assert secret not in text


def test_pass_and_play_leaves_the_laptop_with_the_people_while_a_bot_moves():
    model = hierro(view=PASS_AND_PLAY, humans=[RED, BLUE])
    model.take_laptop()
    model.play(TakeCard("military"))
    model.roll()
    model.play(TakeCard("political"))
    model.roll()
    # green is a bot: red keeps the laptop and waits; green's draws stay hidden from red
    assert model.handover is None and model.status == "Waiting for green"
    model.bot_move()
    model.bot_move()
    while model.state.current_player != BLUE:
        model.bot_move()
    assert model.handover == BLUE
    with pytest.raises(ValueError, match="there is no seat 3"):
        hierro(view=PASS_AND_PLAY, humans=[3])


def test_a_locked_view_cannot_be_switched():
    model = hierro(view=PASS_AND_PLAY, lock_view=True)
    assert not model.set_view(OPEN)
    assert model.message == "the view is locked to pass and play"
    assert model.view == PASS_AND_PLAY and model.position_text() == ""
    assert model.set_view(PASS_AND_PLAY)  # choosing the same view again is no change
    assert model.take_laptop() and "Bishop 1-2" in shown(model)
    assert not model.set_view(GREEN) and model.viewer == RED


# -- the widgets ---------------------------------------------------------------------------


def test_a_stepper_with_a_locked_view_disables_its_selector():
    state = Game(players=3, seed=1).position(hands=HANDS, loyalty=LOYALTY)
    view = Stepper(state, draw=False, view=PASS_AND_PLAY, lock_view=True)
    assert view.view_select.disabled and view.view_select.value == PASS_AND_PLAY
    assert not Stepper(state, seed=7, draw=False).view_select.disabled


def test_stepper_view_selector_and_hand_over_screen():
    state = Game(players=3, seed=1).position(hands=HANDS, loyalty=LOYALTY)
    view = Stepper(state, seed=7, draw=False)
    assert view.view_select.value == OPEN
    assert [label for label, _ in view.view_select.options][-1] == "pass and play"
    assert hidden("crown:green", view.board.value)  # the open view draws the whole state

    view.view_select.value = GREEN
    assert "You are green. Loyalty card: Crown of blue." in view.board.value
    assert "Waiting for red" in view.status.value
    assert view.decision_box.layout.display == "none"

    view.view_select.value = PASS_AND_PLAY
    assert "Hand the laptop to red" in view.status.value
    assert view.handover_button.description == "I am red, show my hand"
    assert view.handover_button.layout.display is None and view.controls.layout.display == "none"
    assert view.board.value == "" and hidden("bishop", view.log.value)
    assert view.decision_box.layout.display == "none"
    view.handover_button.click()
    assert view.controls.layout.display is None and view.handover_button.layout.display == "none"
    assert view.decision_box.layout.display is None
    assert "Your initiative cards: Bishop 1-2, Pope." in view.board.value

    view.group_select.value = "Take card"
    view.play_button.click()  # red takes a military card: a secret draw, only Roll offered
    assert view.chance_html.value == "" and view.outcome_select.options == ()
    assert view.outcome_rows.layout.display == "none"
    assert "Red draws a military card" in view.status.value
    view.roll_button.click()
    assert "chance: red draws " in view.log.value


def test_the_example_in_docs_stepper_runs():
    import doctest
    import re
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "docs" / "stepper.md"
    text = re.sub(r"^```.*$", "", path.read_text(encoding="utf-8"), flags=re.M)
    test = doctest.DocTestParser().get_doctest(text, {}, path.name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0
