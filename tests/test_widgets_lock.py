"""A locked pass-and-play table keeps its secrets: played with the widget's own buttons as
players at one laptop would (red trying to see green's and blue's cards), then the seat
views' plain-Python API, the sealed file and the unseeded chance."""

import json
import re

import pytest

from coronas.hierro import Draw, Game, PlaySpy, SpyDiscard, TakeCard
from coronas.hierro.views import card_name
from coronas.widgets import Stepper, StepperModel
from coronas.widgets.stepper.seats import OPEN, PASS_AND_PLAY

RED, GREEN, BLUE = 0, 1, 2
HANDS = [("bishop:1-2", "pope"), ("king_is_dead", "saracen_invasion"), ("magyar_invasion",)]
LOYALTY = ["crown:green", "crown:blue", "crown:red"]
OTHERS = {RED: ("crown:blue", "crown:red", *HANDS[GREEN], *HANDS[BLUE])}
EVERY_SECRET = (*LOYALTY, *(card for hand in HANDS for card in hand))
PASSPHRASE = "seven swans a-swimming"
TEACHER = "the teacher's own words"
WRONG = "wrong passphrase (or the file was altered): nothing was loaded"


def position():
    """Red to play with two actions left and three armies before Verona, held by green."""
    return Game(players=3, seed=1).position(
        hands=HANDS, loyalty=LOYALTY, castles={"Verona": 1}, armies={"Verona": {0: 3}}
    )


def locked_table(**kwargs):
    """Notebook 05's class table on the position: pass and play, locked, no seed."""
    return Stepper(position(), draw=False, view=PASS_AND_PLAY, lock_view=True, **kwargs)


def seen(view):
    """Everything the widget shows, in one text."""
    parts = [
        view.status.value,
        view.board.value,
        view.advice.value,
        view.message.value,
        view.results.value,
        view.log.value,
        view.chance_html.value,
        *(label for label, _ in view.action_select.options),
        *(label for label, _ in view.outcome_select.options),
    ]
    return "\n".join(parts)


def choose(view, group, words):
    """Select the action of kind ``group`` whose words contain ``words``."""
    view.group_select.value = group
    view.filter_text.value = words
    assert len(view.action_select.options) == 1, view.action_select.options


def red_holds_the_laptop(view):
    assert view.handover_button.description == "I am red, show my hand"
    view.handover_button.click()
    assert "You are red. Loyalty card: Crown of green." in view.board.value


# -- the widget's buttons at a locked table ------------------------------------------------


def test_a_locked_table_refuses_a_seed():
    with pytest.raises(ValueError, match="a locked table takes no seed"):
        Stepper(position(), seed=2026, draw=False, view=PASS_AND_PLAY, lock_view=True)
    with pytest.raises(ValueError, match="a locked table takes no seed"):
        StepperModel(position(), seed=0, view=GREEN, lock_view=True)
    view = locked_table()
    assert view.model.seed is None and view.roll_button.description == "Roll"
    # a seed stays for lessons and tests, and says so on the button
    assert Stepper(position(), seed=3, draw=False).roll_button.description == "Roll (seeded)"


def test_save_play_to_the_end_and_load_show_no_other_seat_s_card(tmp_path):
    view = locked_table()
    red_holds_the_laptop(view)
    path = tmp_path / "class.json"
    view.file_text.value = str(path)

    view.save_button.click()  # without a passphrase: refused, nothing written
    assert "type a passphrase" in view.message.value and not path.exists()
    view.passphrase.value = PASSPHRASE
    view.save_button.click()
    assert "saved 0 steps sealed to" in view.message.value and path.exists()
    assert view.passphrase.value == ""  # forgotten once used

    # "Play to the end" is not offered, and its click plays nothing
    assert view.end_button.layout.display == "none"
    view.end_button.click()
    assert "not at a locked table" in view.message.value
    assert view.state.history == [] and not view.state.is_terminal()
    for card in OTHERS[RED]:
        assert card not in seen(view) and card_name(card) not in seen(view)

    # red plays on, then loads the save: the table is back at the hand-over screen and
    # every seat's log tells of the load
    choose(view, "Send emissary", "Rome")
    view.play_button.click()
    assert len(view.state.history) == 1
    view.passphrase.value = PASSPHRASE
    view.load_button.click()
    assert view.state.history == [] and view.model.locked
    assert "Hand the laptop to red" in view.status.value and view.board.value == ""
    for card in OTHERS[RED]:
        assert card not in seen(view) and card_name(card) not in seen(view)
    view.handover_button.click()
    assert "table: a saved game was loaded at action 1: it goes on from 0" in view.log.value
    for card in OTHERS[RED]:
        assert card not in seen(view) and card_name(card) not in seen(view)


def test_a_file_saved_by_a_locked_table_names_no_secret_card(tmp_path):
    view = locked_table()
    red_holds_the_laptop(view)
    choose(view, "Take card", "political")
    view.play_button.click()
    view.roll_button.click()  # red draws a card: named in red's log, not in the file
    drawn = view.state.history[-1].card
    path = tmp_path / "evening.json"
    view.file_text.value = str(path)
    view.passphrase.value = PASSPHRASE
    view.save_button.click()
    data = json.loads(path.read_text(encoding="utf-8"))
    token = data["sealed"].pop("token")
    assert re.fullmatch(r"[A-Za-z0-9_=-]+", token)  # an opaque Fernet token
    public = json.dumps(data)
    for card in (*EVERY_SECRET, drawn):
        assert card not in public and card_name(card) not in public
    assert data["log"] == ["red: take a political card", "chance: red draws a political card"]
    assert (data["game"], data["players"], data["steps"], data["locked"]) == ("hierro", 3, 2, True)


def test_undo_after_a_draw_or_a_die_cannot_change_the_outcome():
    view = locked_table()
    red_holds_the_laptop(view)
    choose(view, "Take card", "military")
    view.play_button.click()
    view.roll_button.click()
    history = list(view.state.history)
    view.undo_button.click()
    assert "a roll or a draw stays at a locked table" in view.message.value
    assert view.state.history == history

    # a die: red attacks Verona (red's own decision, which red may still take back)
    choose(view, "Attack castle", "Verona")
    view.play_button.click()
    view.undo_button.click()
    assert "undone: attack castle Verona" in view.message.value
    choose(view, "Attack castle", "Verona")
    view.play_button.click()
    assert view.outcome_rows.layout.display == "none"  # the laptop rolls: nothing to pick
    assert not view.model.enter("6") and "use Roll" in view.model.message
    view.roll_button.click()
    rolled = list(view.state.history)
    if view.model.handover is not None:  # the roll ended red's turn: green takes the laptop
        view.undo_button.click()
        assert view.model.message == "hand the laptop to green first"
        view.handover_button.click()
    view.undo_button.click()  # whoever holds the laptop, the die stays
    assert view.state.history == rolled and "stays at a locked table" in view.message.value


def test_undo_never_goes_back_into_another_seat_s_decision():
    view = locked_table()
    red_holds_the_laptop(view)
    for castle in ("Rome", "Saracens"):
        choose(view, "Send emissary", castle)
        view.play_button.click()
    assert "Hand the laptop to green" in view.status.value
    view.handover_button.click()
    view.undo_button.click()
    assert view.model.message == "only red may take back red's move"
    assert len(view.state.history) == 2


def test_the_hand_over_screen_lets_the_last_player_take_back_a_misclick():
    view = locked_table()
    red_holds_the_laptop(view)
    assert view.takeback_button.layout.display == "none"  # nothing to take back yet
    for castle in ("Rome", "Saracens"):
        choose(view, "Send emissary", castle)
        view.play_button.click()
    # red's turn is over and green's hand-over screen is up: red may still take it back
    assert "Hand the laptop to green" in view.status.value
    assert view.takeback_button.layout.display is None
    assert view.takeback_button.description == "Undo: red takes back the last move"
    view.takeback_button.click()
    assert "undone: send an emissary to Saracens" in view.message.value
    assert view.model.handover is None and view.model.viewer == RED
    assert len(view.state.history) == 1 and "Bishop 1-2" in view.board.value
    # red plays again; once green holds the laptop, red's moves are green's to respect
    choose(view, "Send emissary", "Saracens")
    view.play_button.click()
    view.handover_button.click()
    assert view.takeback_button.layout.display == "none"
    view.undo_button.click()
    assert view.model.message == "only red may take back red's move"


def test_no_take_back_from_the_hand_over_screen_past_a_roll():
    view = locked_table()
    red_holds_the_laptop(view)
    choose(view, "Send emissary", "Rome")
    view.play_button.click()
    choose(view, "Take card", "military")
    view.play_button.click()
    view.roll_button.click()  # red's draw ends red's turn: the card stays drawn
    assert view.model.handover == GREEN and not view.model.may_take_back()
    assert view.takeback_button.layout.display == "none"
    history = list(view.state.history)
    assert view.model.undo() is None and view.model.message == "hand the laptop to green first"
    assert view.state.history == history


def test_a_game_loaded_at_a_roll_shows_the_open_position(tmp_path):
    view = locked_table()
    red_holds_the_laptop(view)
    choose(view, "Attack castle", "Verona")
    view.play_button.click()
    view.file_text.value = str(tmp_path / "at-a-roll.json")
    view.passphrase.value = PASSPHRASE
    view.save_button.click()
    other = locked_table()
    other.file_text.value = view.file_text.value
    other.passphrase.value = PASSPHRASE
    other.load_button.click()
    assert other.state.is_chance_node() and other.model.holder is None
    # nobody holds the laptop: the position every seat sees, and the roll to make
    assert "Roll the green die for red&#x27;s assault on Verona" in other.status.value
    assert "Decks: military" in other.board.value and "Verona" in other.board.value
    shown = seen(other).replace(str(tmp_path), "")  # the file's path (xdist's popen-gw0)
    for card in EVERY_SECRET:
        assert card not in shown and card_name(card) not in shown


def test_unlocking_is_written_in_every_seat_s_log_and_in_a_save(tmp_path):
    view = locked_table(teacher_passphrase=TEACHER)
    red_holds_the_laptop(view)
    assert view.view_select.disabled and view.unlock_button.layout.display is None
    choose(view, "Send emissary", "Rome")
    view.play_button.click()
    view.unlock_button.click()  # asks: nothing is unlocked by one click
    assert view.model.locked and view.confirm_box.layout.display is None
    assert "Unlock the table? Every seat's log will say so" in view.model.message
    view.unlock_text.value = TEACHER
    view.unlock_confirm.click()
    assert not view.model.locked and not view.view_select.disabled
    assert view.unlock_button.layout.display == "none"
    choose(view, "Send emissary", "Saracens")
    view.play_button.click()
    view.handover_button.click()  # green's next hand-over: green reads it
    assert "table: the table was unlocked at action 1" in view.log.value
    path = tmp_path / "unlocked.json"
    view.file_text.value = str(path)
    view.save_button.click()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["locked"] is False and data["notes"] == [[1, "the table was unlocked at action 1"]]
    fresh = StepperModel(position())
    assert fresh.load(path) and not fresh.locked
    assert "table: the table was unlocked at action 1" in fresh.log


def test_a_pin_guards_a_seat_s_hand_over():
    view = locked_table()
    red_holds_the_laptop(view)
    view.new_pin.value = "2468"
    view.pin_button.click()
    assert "PIN set for red" in view.message.value and view.new_pin.value == ""
    for castle in ("Rome", "Saracens"):  # red's turn ends; green (no PIN) takes the laptop
        choose(view, "Send emissary", castle)
        view.play_button.click()
    assert view.pin_text.layout.display == "none"
    view.handover_button.click()
    model = view.model
    while model.handover is None:  # green's turn: two emissaries, then blue's
        model.play(next(a for a in model.state.legal_actions() if "emissary" in str(a)))
        if model.handover == BLUE:
            model.take_laptop()
    assert model.handover == RED
    view.refresh()
    assert view.pin_text.layout.display is None
    view.handover_button.click()
    assert "wrong PIN for red" in view.message.value and view.board.value == ""
    view.pin_text.value = "2468"
    view.handover_button.click()
    assert "You are red." in view.board.value


# -- the sealed file -----------------------------------------------------------------------


def saved_locked(tmp_path):
    model = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    model.take_laptop()
    model.play(TakeCard("military"))
    model.roll()
    path = tmp_path / "sealed.json"
    assert model.save(path, PASSPHRASE)
    return model, path


def test_a_sealed_file_loads_with_its_passphrase_and_is_refused_unchanged_without(tmp_path):
    saver, path = saved_locked(tmp_path)
    model = StepperModel(position(), seed=5)  # an open stepper, seeded
    before = (list(model.state.history), model.log, model.view)
    assert not model.load(path, "wrong horse battery")
    assert "wrong passphrase" in model.message and "nothing was loaded" in model.message
    assert (list(model.state.history), model.log, model.view) == before
    assert not model.load(path)
    assert "sealed: type its passphrase" in model.message
    assert list(model.state.history) == before[0]

    assert model.load(path, PASSPHRASE)
    assert model.state == saver.state and model.locked and model.view == PASS_AND_PLAY
    assert model.seed is None  # a locked table rolls with the operating system's entropy
    assert model.handover == RED and model.position_text() == ""


@pytest.mark.parametrize(
    "change, problem",
    [
        (lambda d: d.update(version=9), "version: expected 2"),
        (lambda d: d["sealed"].update(n=2**30), "sealed.n: expected 32768"),
        (lambda d: d["sealed"].update(salt="***"), "sealed.salt: expected base64"),
        (lambda d: d["sealed"].update(token=7), "sealed.token: expected base64"),
        (lambda d: d.pop("sealed"), "missing field(s) ['sealed']"),
        # the public part is sealed too: any change is refused as a wrong passphrase is
        (lambda d: d.update(humans=[0, 0]), WRONG),
        (lambda d: d.update(notes=[[99, "x"]]), WRONG),
        (lambda d: d.update(view="open-sesame"), WRONG),
        (lambda d: d.update(steps=1), WRONG),
        (lambda d: d.update(extra=1), WRONG),
        (lambda d: d.update(locked=False), WRONG),
        (lambda d: d["sealed"].update(token=d["sealed"]["token"][:-8] + "AAAAAAA="), WRONG),
    ],
)
def test_a_table_file_is_checked_field_by_field(tmp_path, change, problem):
    _, path = saved_locked(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    model = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    assert not model.load(path, PASSPHRASE)
    assert model.message.startswith(str(path)) and problem in model.message
    assert model.state.history == [] and model.notes == []


def test_an_earlier_plain_saved_game_still_loads_into_a_locked_table(tmp_path):
    plain = StepperModel(position(), seed=2)
    plain.play(TakeCard("military"))
    plain.roll()
    path = tmp_path / "plain.json"
    assert plain.save(path)
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "coronas-game"
    model = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    assert model.load(path) and model.state == plain.state and model.locked


# -- a seat's view tells no secrets --------------------------------------------------------


def test_a_refused_draw_lists_no_deck_card():
    model = StepperModel(position(), seed=7, view=GREEN)
    deck = sorted(model.state.decks["military"])
    assert not model.play(Draw(deck[0]))  # not a chance node: red's move
    assert model.message == "it is red's move, not this seat's"
    model.play(TakeCard("military"))  # green's view lets a bot or a script play red
    assert model.chance_table() == [] and model.action_groups() == {}  # nor lists them
    for view in (GREEN, RED):  # nobody picks a secret card, not even its drawer
        model.set_view(view)
        for card in ("no_such_card", deck[0]):
            assert not model.play(Draw(card))
            assert model.message == "what is drawn here is hidden from this seat: use Roll"
    model.set_view(OPEN)  # the open view, for teaching, lists them
    assert not model.play(Draw("no_such_card")) and deck[0] in model.message


def test_roll_bot_move_and_undo_return_only_what_the_seat_sees():
    model = StepperModel(position(), seed=7, view=GREEN)
    model.play(TakeCard("military"))
    told = model.roll()
    card = model.state.history[-1].card
    assert told == "red draws a military card" and card not in told
    assert model.log[-1] == "chance: red draws a military card"
    assert model.undo() == "red draws a military card"
    assert model.bot_move() == "red draws a military card"
    model.set_view(RED)  # the drawer is told its card
    card = model.state.history[-1].card
    named = f"red draws {card_name(card)}"
    assert model.undo() == named and model.message == f"undone: {named}"
    model.set_view(OPEN)  # a step every seat sees as it is comes back as itself
    assert model.undo() == TakeCard("military")


def test_scores_before_the_end_carry_no_loyalty_points():
    # Every seat is a king here, so each loyalty card is fulfilled: 4 points each that the
    # full state counts and no seat view may show before the end.
    model = StepperModel(position(), seed=7, view=GREEN)
    assert [s["loyalty"] for s in model.state.scores()] == [4, 4, 4]
    # red: no castle, legitimacy 0, its emissaries free (1), no card VP: 1; green holds
    # Verona (1 more): 2; blue as red: 1
    assert [(n, s["total"], s["loyalty"]) for n, s in model.results()] == [
        ("red", 1, 0),
        ("green", 2, 0),
        ("blue", 1, 0),
    ]
    assert StepperModel(position(), seed=7).results() is None  # the open view, as before
    view = Stepper(position(), seed=7, draw=False, view=GREEN)
    assert "Scores if the game ended now" in view.results.value
    assert "loyalty 4" not in view.results.value


# -- chance without a seed -----------------------------------------------------------------


def dealt(model):
    """Each seat chooses its first castle, then the laptop deals: the loyalty cards and
    the first hands."""
    while model.state.current_player >= 0 and not model.state.is_terminal():
        model.take_laptop()
        model.play(model.state.legal_actions()[0])
    while model.state.is_chance_node():
        model.roll()
    return tuple(model.state.loyalty), tuple(map(tuple, model.state.hands))


def test_twenty_tables_without_a_seed_are_not_all_dealt_alike():
    deals = {
        dealt(StepperModel(Game(players=3).new_initial_state(), view=PASS_AND_PLAY, lock_view=True))
        for _ in range(20)
    }
    # three loyalty cards and a political and a military card each, from full decks: twenty
    # deals all alike would have a chance far below one in a million
    assert len(deals) > 1
    seeded = {dealt(StepperModel(Game(players=3).new_initial_state(), seed=4)) for _ in range(3)}
    assert len(seeded) == 1  # a seed still replays exactly


def test_a_spy_s_look_is_not_taken_back():
    hands = [("spy",), HANDS[GREEN], HANDS[BLUE]]
    state = Game(players=3, seed=1).position(hands=hands, loyalty=LOYALTY)
    model = StepperModel(state, view=PASS_AND_PLAY, lock_view=True)
    model.take_laptop()
    assert model.play(PlaySpy(GREEN)) and "The King is dead" in model.position_text()
    assert model.undo() is None
    assert (
        model.message == "this move showed a secret: it stays at a locked table, as at a real table"
    )
    assert model.play(SpyDiscard("king_is_dead"))
    assert model.undo() == SpyDiscard("king_is_dead")  # choosing among seen cards again


def test_the_odds_a_seat_sees_do_not_depend_on_the_other_seats_secrets():
    twin_hands = [HANDS[RED], ("pope", "good_fortune"), ("cavalry_charge",)]
    twins = [
        Game(players=3, seed=1).position(
            hands=hands, loyalty=loyalty, castles={"Verona": 1}, armies={"Verona": {0: 3}}
        )
        for hands, loyalty in [(HANDS, LOYALTY), (twin_hands, ["crown:green", "self", "self"])]
    ]
    (attack,) = [a for a in twins[0].legal_actions() if "attack castle Verona" in str(a)]
    texts = []
    for state in twins:
        model = StepperModel(state, view=RED)
        assert model.shows_odds()
        texts.append(model.odds_text(attack))
    # the green die needs 5 (2 of 6 faces), two shields to reroll: 1 - (2/3)**3 = 19/27,
    # whatever the others hold
    assert texts == ["19/27 (70.37%) to drive the troops out of Verona"] * 2


def test_a_battle_s_dice_are_not_known_before_they_are_rolled_without_a_seed():
    from coronas.batalla import Game as Batalla

    # the roll-off: 30 outcomes of 1/30 each (ties rolled again); twenty steppers all
    # rolling the same one: a chance of 30 * (1/30)**20 = 30**-19
    rolls = {str(StepperModel(Batalla().new_initial_state()).roll()) for _ in range(20)}
    assert len(rolls) > 1


def test_the_load_button_opens_a_sealed_file_only_with_its_passphrase(tmp_path):
    saver, path = saved_locked(tmp_path)
    view = locked_table()  # the next evening: the same locked table, made afresh
    red_holds_the_laptop(view)
    view.file_text.value = str(path)
    before = (list(view.state.history), view.log.value, view.board.value)
    view.passphrase.value = "not the passphrase"
    view.load_button.click()
    assert "wrong passphrase" in view.message.value and view.passphrase.value == ""
    assert (list(view.state.history), view.log.value, view.board.value) == before
    view.passphrase.value = PASSPHRASE
    view.load_button.click()
    assert view.state == saver.state and view.model.locked
    assert view.view_select.disabled and view.view_select.value == PASS_AND_PLAY
    assert "Hand the laptop to red" in view.status.value and view.board.value == ""
    view.handover_button.click()
    card = saver.state.history[-1].card
    assert f"chance: red draws {card_name(card)}" in view.log.value  # red's own draw, told to red
    for secret in OTHERS[RED]:
        assert secret not in seen(view)


# -- the whole sealed file, PINs that last, an unlock the teacher controls ------------------


def edited(path, old, new, count=1):
    """The file at ``path`` with ``old`` replaced by ``new``, as in a text editor."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == count, (old, text.count(old))
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module")
def noted_text(tmp_path_factory):
    """The text of :func:`with_notes`' file, sealed once for the tests that edit it."""
    return with_notes(tmp_path_factory.mktemp("noted"))[1].read_text(encoding="utf-8")


def with_notes(tmp_path):
    """A sealed file whose notes tell of a load: saved, loaded, played on, saved again."""
    model, first = saved_locked(tmp_path)
    assert model.load(first, PASSPHRASE)
    path = tmp_path / "with-notes.json"
    assert model.save(path, PASSPHRASE)
    assert json.loads(path.read_text(encoding="utf-8"))["notes"] == [
        [2, "a saved game was loaded at action 2: it goes on from 2"]
    ]
    return model, path


@pytest.mark.parametrize(
    "old, new",
    [
        ('"view": "pass"', '"view": "open"'),  # every loyalty card, Play to the end
        ('"view": "pass"', '"view": 1'),  # green's hand without a hand-over
        ('"humans": [\n  0,', '"humans": [\n  2,'),
        ('"locked": true', '"locked": false'),
        ('"steps": 2', '"steps": 2 '),  # one space
        ('"log": [', '"log": [\n  "red: say hello",'),
    ],
)
def test_an_edited_sealed_file_is_refused_as_a_wrong_passphrase_is(tmp_path, noted_text, old, new):
    path = tmp_path / "with-notes.json"
    path.write_text(noted_text, encoding="utf-8")
    edited(path, old, new)
    model = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    assert not model.load(path, "not the passphrase at all")
    wrong = model.message
    assert wrong == f"{path}: {WRONG}"
    assert not model.load(path, PASSPHRASE)
    assert model.message == wrong  # the same words: edited or a wrong passphrase
    assert model.state.history == [] and model.notes == [] and model.view == PASS_AND_PLAY


def test_erased_notes_or_another_file_s_public_part_are_refused(tmp_path):
    _, path = with_notes(tmp_path)
    text = path.read_text(encoding="utf-8")
    notes = text[text.index('"notes": [') : text.index('"log"')]
    edited(path, notes, '"notes": [],\n ')
    model = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    assert not model.load(path, PASSPHRASE) and model.message == f"{path}: {WRONG}"

    # file A's public part over file B's sealed part: B is not loaded under A's notes
    path.write_text(text, encoding="utf-8")
    assert model.load(path, PASSPHRASE)  # unchanged, it loads
    other = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    other.take_laptop()
    other.play(TakeCard("political"))
    other.roll()
    b = tmp_path / "b.json"
    assert other.save(b, PASSPHRASE)
    a_text, b_text = text, b.read_text(encoding="utf-8")
    spliced = a_text[: a_text.index('"sealed"')] + b_text[b_text.index('"sealed"') :]
    b.write_text(spliced, encoding="utf-8")
    fresh = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    assert not fresh.load(b, PASSPHRASE) and fresh.message == f"{b}: {WRONG}"
    assert fresh.state.history == [] and fresh.notes == []


def test_a_sealed_file_opens_only_as_a_locked_pass_and_play_table(tmp_path):
    # a locked seat's view saves a table in pass and play for that seat's person only
    green = StepperModel(position(), view=GREEN, lock_view=True)
    path = tmp_path / "green.json"
    assert green.save(path, PASSPHRASE)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["view"], data["humans"], data["locked"]) == ("pass", [GREEN], True)
    model = StepperModel(position(), seed=1)  # an open, seeded stepper
    assert model.load(path, PASSPHRASE)
    assert model.view == PASS_AND_PLAY and model.locked and model.humans == {GREEN}
    assert model.seed is None and model.viewer is None
    assert not model.set_view(OPEN) and model.play_to_end() == 0


def test_a_locked_table_s_notes_only_grow(tmp_path):
    model, path = with_notes(tmp_path)
    loaded = (2, "a saved game was loaded at action 2: it goes on from 2")
    assert model.notes == [loaded]
    assert model.load(path, PASSPHRASE)  # a file holding the same note: one more
    assert model.notes == [loaded] * 2
    assert model.load(path, PASSPHRASE)  # the table's two stay, the file's one among them
    assert model.notes == [loaded] * 3
    fresh = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    assert fresh.load(path, PASSPHRASE)  # the file's note, and this load's
    assert fresh.notes == [
        (2, "a saved game was loaded at action 2: it goes on from 2"),
        (2, "a saved game was loaded at action 0: it goes on from 2"),
    ]
    # a file in the clear loaded into a locked table is noted as such
    plain = StepperModel(position(), seed=2)
    assert plain.save(tmp_path / "plain.json")
    assert fresh.load(tmp_path / "plain.json")
    assert fresh.notes[-1] == (
        0,
        "a saved game in the clear (not sealed) was loaded at action 2: it goes on from 0",
    )
    assert len(fresh.notes) == 3


def test_pins_are_sealed_in_the_file_and_asked_for_after_a_load(tmp_path):
    view = locked_table()
    red_holds_the_laptop(view)
    view.new_pin.value = "2468"
    view.pin_button.click()
    for castle in ("Rome", "Saracens"):
        choose(view, "Send emissary", castle)
        view.play_button.click()
    view.handover_button.click()  # green, without a PIN yet, sets one
    view.new_pin.value = "1357"
    view.pin_button.click()
    path = tmp_path / "pins.json"
    view.file_text.value = str(path)
    view.passphrase.value = PASSPHRASE
    view.save_button.click()
    assert "saved 2 steps sealed" in view.message.value
    text = path.read_text(encoding="utf-8")
    assert "2468" not in text and "1357" not in text
    # the seat holding the laptop loads the save: green's PIN is still asked for
    view.passphrase.value = PASSPHRASE
    view.load_button.click()
    assert view.model.handover == GREEN and view.pin_text.layout.display is None
    view.handover_button.click()  # an empty PIN
    assert "wrong PIN for green" in view.message.value and view.board.value == ""
    assert "Crown of blue" not in seen(view)
    view.pin_text.value = "1357"
    view.handover_button.click()
    assert "You are green. Loyalty card: Crown of blue." in view.board.value
    # and in a table made afresh the next evening, red's too
    fresh = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    assert fresh.load(path, PASSPHRASE) and fresh.has_pin(RED) and fresh.has_pin(GREEN)
    assert not fresh.has_pin(BLUE) and not fresh.take_laptop("")


def test_unlocking_takes_the_passphrase_and_a_confirmation(tmp_path):
    view = locked_table()
    red_holds_the_laptop(view)
    view.unlock_button.click()  # never sealed and no teacher passphrase: nothing unlocks
    assert "no passphrase to unlock it with yet" in view.model.message and view.model.locked
    assert view.confirm_box.layout.display == "none"
    view.file_text.value = str(tmp_path / "evening.json")
    view.passphrase.value = PASSPHRASE
    view.save_button.click()
    view.unlock_button.click()
    assert view.unlock_confirm.layout.display is None and view.model.locked
    view.cancel_button.click()
    assert view.model.message == "cancelled: the table stays locked" and view.model.locked
    view.unlock_button.click()
    view.unlock_text.value = "not the passphrase"
    view.unlock_confirm.click()
    assert view.model.locked and "wrong passphrase: the table stays locked" in view.model.message
    assert view.unlock_text.value == "" and view.unlock_confirm.layout.display is None
    assert view.model.notes == [] and "unlocked" not in view.log.value
    view.unlock_text.value = PASSPHRASE  # the passphrase the table was sealed with
    view.unlock_confirm.click()
    assert not view.model.locked
    assert "table: the table was unlocked at action 0" in view.log.value


def test_a_teacher_passphrase_alone_unlocks_and_stays_with_the_table(tmp_path):
    model = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True, teacher_passphrase=TEACHER)
    path = tmp_path / "class.json"
    assert model.save(path, PASSPHRASE)  # a pupil's passphrase
    assert not model.unlock(PASSPHRASE) and model.locked
    assert (
        model.message
        == "wrong passphrase: the table stays locked (it takes the teacher's passphrase)"
    )
    assert TEACHER not in path.read_text(encoding="utf-8")
    fresh = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    assert fresh.load(path, PASSPHRASE)  # the file brings the teacher's passphrase
    assert not fresh.unlock(PASSPHRASE) and fresh.locked
    assert fresh.unlock(TEACHER) and not fresh.locked
    # a file sealed by a table without one does not take the unlock from the teacher
    loose = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    assert loose.save(tmp_path / "loose.json", PASSPHRASE)
    assert model.load(tmp_path / "loose.json", PASSPHRASE)
    assert not model.unlock(PASSPHRASE) and model.unlock(TEACHER)
    with pytest.raises(ValueError, match="teacher_passphrase: a passphrase has at least 8"):
        StepperModel(position(), view=PASS_AND_PLAY, lock_view=True, teacher_passphrase="1234")
    with pytest.raises(ValueError, match="a teacher passphrase is for a locked table"):
        StepperModel(position(), teacher_passphrase=TEACHER)


@pytest.mark.parametrize("passphrase", [" ", "1234567", " " * 8, "\t\n" * 5])
def test_a_passphrase_has_at_least_eight_characters_not_only_spaces(tmp_path, passphrase):
    model = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    path = tmp_path / "short.json"
    assert not model.save(path, passphrase) and not path.exists()
    assert model.message.startswith("type a passphrase (a passphrase ")
    assert ("at least 8 characters" in model.message) == (len(passphrase) < 8)
    assert model.save(path, "12345678")


def test_save_overwrites_an_existing_file_only_when_asked(tmp_path):
    _, path = saved_locked(tmp_path)  # another table's save
    before = path.read_text(encoding="utf-8")
    model = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    assert not model.save(path, "another passphrase")
    assert (
        model.message.startswith(f"{path}: the file exists") and "overwrite=True" in model.message
    )
    assert path.read_text(encoding="utf-8") == before
    assert model.save(path, "another passphrase", overwrite=True)
    assert path.read_text(encoding="utf-8") != before

    view = locked_table()
    view.file_text.value = str(path)
    view.passphrase.value = PASSPHRASE
    view.save_button.click()
    assert view.overwrite_button.layout.display is None and view.passphrase.value == ""
    assert view.overwrite_button.description == f"Overwrite {path}"
    assert "press Overwrite to replace it" in view.model.message
    written = path.read_text(encoding="utf-8")
    view.cancel_button.click()
    assert view.model.message == "cancelled: nothing was written"
    assert view.overwrite_button.layout.display == "none"
    assert path.read_text(encoding="utf-8") == written
    view.passphrase.value = PASSPHRASE
    view.save_button.click()
    view.overwrite_button.click()
    assert "saved 0 steps sealed to" in view.message.value
    assert StepperModel(position()).load(path, PASSPHRASE)  # sealed under the one typed


def test_a_file_sealed_by_the_earlier_version_is_refused_with_a_clear_message(tmp_path):
    _, path = saved_locked(tmp_path)
    edited(path, '"version": 2', '"version": 1')
    model = StepperModel(position(), view=PASS_AND_PLAY, lock_view=True)
    assert not model.load(path, PASSPHRASE)
    assert "sealed by an older version of coronas" in model.message
    assert model.state.history == []
    # a table file in the clear of that version still loads
    clear = StepperModel(position(), seed=3)
    clear.notes.append((0, "a note"))
    assert clear.save(tmp_path / "clear.json")
    edited(
        tmp_path / "clear.json",
        '"coronas-table",\n "version": 2',
        '"coronas-table",\n "version": 1',
    )
    assert model.load(tmp_path / "clear.json")
