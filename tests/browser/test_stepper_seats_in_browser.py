"""The stepper's seat views in a real browser: pass and play hides everything behind the
hand-over screen until its seat says it holds the laptop, then shows that seat's own loyalty
card and no one else's; a seat's view waits while another seat is to move.

Same harness and skip rules as ``test_notebooks_in_browser.py``: JupyterLab in headless
Chromium (:mod:`coronas.widgets.browser`), skipped without them unless
``CORONAS_REQUIRE_BROWSER=1``. The notebook is written here, so no notebook of the project is
run.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

import pytest

from coronas.hierro import Game
from coronas.widgets import StepperModel
from coronas.widgets.browser import (
    StepperOnPage,
    _notebook,
    chromium_page,
    lab_server,
    run_all_cells,
)
from tests.browser.test_notebooks_in_browser import _require_browser

SEED = 9  # the game's and the stepper's: red is dealt the Crown of green, not its own
NOTEBOOK = "seats.ipynb"
CELLS = [
    "from coronas.hierro import Game\nfrom coronas.widgets import Stepper",
    # 0: the open view, which the test switches to red's seat (first on the page: finding
    # the steppers waits for a visible Undo, and pass and play hides its controls)
    f"Stepper(Game(players=3, seed={SEED}).new_initial_state(), seed={SEED})",
    # 1: pass and play, every seat a person
    f"Stepper(Game(players=3, seed={SEED}).new_initial_state(), seed={SEED}, view='pass',"
    " humans=[0, 1, 2])",
    # 2: an open view of the same position as 0, played to its end by the test
    f"Stepper(Game(players=3, seed={SEED}).new_initial_state(), seed={SEED})",
    # 3: red's seat mid-game (notebook 05's position): dice actions with long labels to rank
    f"Stepper(Game(players=3, seed={SEED}).position(castles={{'Friuli': 0, 'Milan': 1,"
    " 'Verona': (1, False), 'Ivrea': 2}, armies={'Verona': {0: 3}, 'Brescia': {0: 2, 2: 1}}),"
    f" seed={SEED}, view=0)",
    # 4: bots named by seat, as people name seats: by colour, or by number from one
    f"Stepper(Game(players=3, seed={SEED}).new_initial_state(), seed={SEED},"
    " bots={'green': 'greedy', '3': 'random'})",
]
NAMES = ["red", "green", "blue"]
WAIT_S = 30


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    _require_browser()
    folder = tmp_path_factory.mktemp("seats")
    notebook = folder / NOTEBOOK
    notebook.write_text(json.dumps(_notebook(CELLS), indent=1), encoding="utf-8")
    with lab_server([notebook], folder / "lab") as server:
        yield server


def _loyalty_cards() -> list[str]:
    """Each seat's loyalty card after the same clicks in plain Python: the three castles
    chosen (each seat's first action), the set-up rolled with the stepper's seeded dice."""
    model = StepperModel(Game(players=3, seed=SEED).new_initial_state(), seed=SEED, view="pass")
    for _ in NAMES:
        model.take_laptop()
        model.play(model.state.legal_actions()[0])
    while model.state.is_chance_node():
        model.roll()
    cards = []
    for seat in range(3):
        found = re.search(r"Loyalty card: ([^.]+)\.", model.state.observation_text(seat))
        assert found, model.state.observation_text(seat)
        cards.append(found.group(1))
    return cards


def _text(locator) -> str:
    return " ".join(locator.inner_text().split())


def _until(stepper: StepperOnPage, check: Callable[[], bool], what: str) -> None:
    """Wait until ``check()`` holds: the kernel answers a click by redrawing, widget by
    widget, so a part of the stepper may change before another."""
    deadline = time.monotonic() + WAIT_S
    while not check():
        if time.monotonic() > deadline:
            seen = stepper.seen()
            raise AssertionError(
                f"not within {WAIT_S} s: {what}\nstatus: {seen.status!r}\n"
                f"board: {_text(stepper.board)!r}\nlog: {seen.log!r}"
            )
        stepper.page.wait_for_timeout(100)


def _shows(stepper: StepperOnPage, part, text: str) -> str:
    """Wait until ``part`` of the stepper shows ``text``; returns what it shows."""
    _until(stepper, lambda: text in _text(part), f"{text!r} shown")
    return _text(part)


def _hand_over(stepper: StepperOnPage, name: str) -> None:
    """At the hand-over screen for ``name``: nothing of the game is shown; click the button
    and wait for the seat's own view."""
    _shows(stepper, stepper.status, f"Hand the laptop to {name}")
    button = stepper.root.locator("button", has_text="show my hand")
    undo = stepper.root.locator("button").filter(has_text=re.compile(r"^\s*Undo\s*$"))
    _until(
        stepper,
        lambda: (
            button.is_visible()
            and _text(stepper.board) == ""
            and _text(stepper.log) == ""
            and stepper.board.locator("img, svg").count() == 0
            and not stepper.at_decision()
            and not stepper.at_chance_node()
            and not undo.is_visible()
        ),
        "the hand-over screen: only the button, no position, log, actions or controls",
    )
    assert _text(button) == f"I am {name}, show my hand"
    button.click()
    _shows(stepper, stepper.board, f"You are {name}.")
    _until(stepper, lambda: not button.is_visible() and undo.is_visible(), "the screen gone")


def test_pass_and_play_shows_each_seat_only_its_own_secrets(lab):
    cards = _loyalty_cards()
    assert len(set(cards)) == 3 and cards[0] != "Crown of red", cards
    with chromium_page(viewport=(1280, 1100)) as page:
        run_all_cells(page, lab, NOTEBOOK, timeout_s=120)
        passed = StepperOnPage(page, 1)

        # Each seat takes the laptop, sees no card dealt yet and chooses its main castle.
        for name in NAMES:
            _hand_over(passed, name)
            assert "Loyalty card: not dealt yet" in _text(passed.board)
            _shows(passed, passed.status, f"{name} to move")
            _until(passed, passed.at_decision, f"{name}'s actions shown")
            passed.play_button.click()
            moving = f"{name} to move"
            _until(passed, lambda m=moving: m not in _text(passed.status), f"{name} played")

        # The set-up draws, rolled while blue holds the laptop: no outcome is listed (their
        # chances would tell the hands), and red's and green's are logged unnamed.
        status = _shows(passed, passed.status, "Red is dealt a loyalty card")
        take = passed.root.locator("button", has_text="Take this outcome")
        for _ in range(9):  # a loyalty card, a political and a military card each
            assert re.match(r"^(Red|Green|Blue) (is dealt|draws) a ", status), status
            _until(
                passed,
                lambda: passed.at_chance_node() and not take.is_visible(),
                "only the seeded Roll offered",
            )
            outcomes = passed.root.locator("table", has_text="outcome")  # not the players'
            assert outcomes.count() == 0, "outcomes listed at a draw"
            passed.roll_button.click()
            _until(passed, lambda old=status: _text(passed.status) != old, "rolled")
            status = _text(passed.status)
        assert status.startswith("Hand the laptop to red"), status

        # Red takes the laptop: its own loyalty card, none of the others'. The board and the
        # log are redrawn one after the other: wait for each.
        _hand_over(passed, "red")
        board = _shows(passed, passed.board, f"You are red. Loyalty card: {cards[0]}.")
        for card in cards[1:]:
            assert card not in board, f"red is shown {card}, another seat's loyalty card"
        log = _shows(passed, passed.log, f"chance: red is dealt the loyalty card {cards[0]}")
        assert "chance: green is dealt a loyalty card" in log, log
        assert "chance: blue is dealt a loyalty card" in log, log
        assert not any(card in log for card in cards[1:]), log
        _until(passed, passed.at_decision, "red's actions shown")


def test_a_seat_view_waits_for_the_other_seats(lab):
    with chromium_page(viewport=(1280, 1100)) as page:
        run_all_cells(page, lab, NOTEBOOK, timeout_s=120)
        seat = StepperOnPage(page, 0)
        _shows(seat, seat.status, "red to move")
        assert "You are" not in _text(seat.board)  # the open view draws the whole state

        view = seat.dropdown("View")
        labels = view.locator("option").all_inner_texts()
        # option labels use no-break spaces: compare with the spaces normalised
        red = [label for label in labels if " ".join(label.split()).startswith("seat: red (")]
        assert red, labels
        view.select_option(label=red[0])
        _shows(seat, seat.board, "You are red. Loyalty card: not dealt yet.")
        _until(seat, seat.at_decision, "red's actions shown")

        seat.play_button.click()
        _shows(seat, seat.status, "Waiting for green")
        _until(
            seat,
            lambda: not seat.at_decision() and not seat.at_chance_node(),
            "no Play (nor Roll) while green is to move",
        )
        _shows(seat, seat.board, "You are red.")
        _shows(seat, seat.log, "red: choose")


def test_the_hand_over_screen_offers_the_last_player_an_undo(lab):
    with chromium_page(viewport=(1280, 1100)) as page:
        run_all_cells(page, lab, NOTEBOOK, timeout_s=120)
        passed = StepperOnPage(page, 1)
        _hand_over(passed, "red")
        _until(passed, passed.at_decision, "red's actions shown")
        passed.play_button.click()  # red chooses its main castle: green's hand-over
        _shows(passed, passed.status, "Hand the laptop to green")
        back = passed.root.locator("button", has_text="Undo: red takes back the last move")
        _until(passed, back.is_visible, "red's Undo on green's hand-over screen")
        _until(
            passed,
            lambda: _text(passed.board) == "" and _text(passed.log) == "",
            "nothing of the game behind the hand-over screen",
        )
        back.click()
        # red holds the laptop again, at its own decision, its castle not chosen
        _shows(passed, passed.status, "red to move")
        _shows(passed, passed.board, "You are red.")
        _until(passed, lambda: _text(passed.log) == "", "red's choice taken back")
        _until(passed, passed.at_decision, "red's actions shown again")
        _until(passed, lambda: not back.is_visible(), "the take-back gone with the screen")


def test_the_game_over_screen_reads_like_the_rulebook(lab):
    with chromium_page(viewport=(1280, 1100)) as page:
        run_all_cells(page, lab, NOTEBOOK, timeout_s=120)
        stepper = StepperOnPage(page, 2)
        stepper.root.locator("button", has_text="Play to the end").click()
        _shows(stepper, stepper.status, "Game over after")
        results = stepper.root.locator("xpath=./div[contains(@class, 'widget-html')]").nth(-2)
        scores = _shows(stepper, results, "Scores:")
        shown = " ".join(_text(part) for part in (stepper.status, stepper.board, results))
        for word in ("Step ", "crown:", "None", "(s)", "not dealt yet"):
            assert word not in shown, (word, shown)
        # the same game in plain Python, played by the same seeded bots and dice
        model = StepperModel(Game(players=3, seed=SEED).new_initial_state(), seed=SEED)
        model.play_to_end()
        state = model.state
        for p, score in enumerate(state.scores()):
            assert f"{state.colour(p)}: {score['total']}" in scores, scores
        assert "Loyalty cards: " in _text(stepper.board)
        # the players' table: each swatch on the line of its name, its scores the Scores line's
        table = _players_table(stepper, "score")
        assert table["split"] == [], table
        assert table["vp"] == [s["total"] for s in state.scores()], (table, scores)

        # red's seat mid-game: the table's "VP now" is what the scores line says now
        seat = StepperOnPage(page, 3)
        results = seat.root.locator("xpath=./div[contains(@class, 'widget-html')]").nth(-2)
        now = _shows(seat, results, "Scores if the game ended now")
        table = _players_table(seat, "VP now")
        assert table["split"] == [], table
        for name, vp in zip(NAMES, table["vp"], strict=True):
            assert re.search(rf"\b{name}: {vp}\b", now), (name, vp, now)
        # the ranking of red's moves, at 1280 px: no cell wraps, the table fits, every
        # column has a heading
        seat.root.locator("button", has_text="Rank the moves").click()
        ranking = seat.root.locator("table", has_text="moves by the chance of winning")
        _until(seat, lambda: ranking.count() == 1, "the moves ranked")
        seat.root.locator("button", has_text="Stop").click()
        shape = ranking.evaluate(_TABLE_SHAPE)
        assert shape["wrapped"] == [], shape
        assert shape["right"] <= shape["room"], shape  # no part of it off the output
        assert "" not in shape["headings"] and "verdict" in shape["headings"], shape


# The players' table of a stepper's position (the one whose header has ``heading``): which
# rows' swatch and name are on different lines, and the figures under ``heading``.
_PLAYERS_TABLE = """(board, heading) => {
  const table = [...board.querySelectorAll('table')].find(
    t => [...t.rows[0].cells].some(c => c.innerText.trim() === heading));
  if (!table) return null;
  const column = [...table.rows[0].cells].findIndex(c => c.innerText.trim() === heading);
  const split = [], vp = [];
  for (const row of [...table.rows].slice(1)) {
    const cell = row.cells[0];
    const swatch = cell.querySelector('span').getBoundingClientRect();
    const name = cell.querySelector('b').getBoundingClientRect();
    if (swatch.bottom <= name.top || swatch.top >= name.bottom) split.push(cell.innerText);
    vp.push(parseInt(row.cells[column].innerText, 10));
  }
  return {split, vp};
}"""

# A table's cells that take more than one line, its headings, its right edge and the right
# edge of the notebook output it is in.
_TABLE_SHAPE = """table => {
  const wrapped = [];
  for (const cell of table.querySelectorAll('td, th')) {
    const range = document.createRange();
    range.selectNodeContents(cell);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (tops.size > 1) wrapped.push(cell.innerText);
  }
  const output = table.closest('.jp-OutputArea-output') || document.body;
  return {
    wrapped,
    headings: [...table.rows[0].cells].map(c => c.innerText.trim()),
    widths: [...table.rows[0].cells].map(c => Math.round(c.getBoundingClientRect().width)),
    right: table.getBoundingClientRect().right,
    room: output.getBoundingClientRect().right,
  };
}"""


def _players_table(stepper: StepperOnPage, heading: str) -> dict:
    """The players' table shown by ``stepper`` (:data:`_PLAYERS_TABLE`), once it is drawn."""
    found: dict = {}

    def drawn() -> bool:
        got = stepper.board.evaluate(_PLAYERS_TABLE, heading)
        found.update(got or {})
        return got is not None

    _until(stepper, drawn, f"the players' table with its {heading!r} column")
    return found


def test_two_steppers_of_one_position_save_to_files_of_their_own(lab):
    with chromium_page(viewport=(1280, 1100)) as page:
        run_all_cells(page, lab, NOTEBOOK, timeout_s=120)
        inputs = [
            StepperOnPage(page, index)
            .root.locator(".widget-text", has_text="File")
            .locator("input")
            for index in (0, 2)  # the same seeded position, made one after the other
        ]
        files = [box.input_value() for box in inputs]
        assert files[0] != files[1] and all(f.startswith("saves/hierro-") for f in files), files
        for box in inputs:  # shown in full: the box is wider than the name
            width = box.evaluate("el => [el.scrollWidth, el.clientWidth]")
            assert width[0] <= width[1], (box.input_value(), width)


def test_who_wins_from_here_shows_a_bar_per_seat_in_a_seat_view(lab):
    with chromium_page(viewport=(1280, 1100)) as page:
        run_all_cells(page, lab, NOTEBOOK, timeout_s=120)
        seat = StepperOnPage(page, 0)
        ask = seat.root.locator("button", has_text="Who wins from here?")
        figures = seat.root.locator("table", has_text="Who wins from here")
        words = seat.root.locator(".widget-html", has_text="Who wins from here")

        def bars(view: str) -> str:
            _until(seat, lambda: figures.count() == 1, f"the figures shown ({view})")
            _until(
                seat,
                lambda: figures.locator(".coronas-win-interval").count() == 3,
                f"a bar per seat with its 95% interval ({view})",
            )
            assert figures.locator(".coronas-win-bar").count() == 3
            text = _text(words)
            for name in NAMES:
                assert name in text, text
            assert "games, 95% intervals" in text, text
            return text

        # the open view at a decision: the mover's figures (red's), the same information the
        # ranking of the moves answers from, and said so
        ask.click()
        opened = bars("open view")
        assert "from red's view" in opened and "full information" not in opened, opened
        seat.root.locator("button", has_text="Stop").click()

        # red's seat: the figures are cleared, then computed from red's view only
        view = seat.dropdown("View")
        red = [x for x in view.locator("option").all_inner_texts() if "red" in x]
        view.select_option(label=red[0])
        _shows(seat, seat.board, "You are red.")
        _until(seat, lambda: figures.count() == 0, "the open view's figures cleared")
        ask.click()
        shown = bars("red's seat")
        assert "from red's view" in shown and "full information" not in shown, shown
        seat.root.locator("button", has_text="Stop").click()


def test_every_seat_is_labelled_with_who_plays_it(lab):
    # One seat numbering: seats by the game's own names, each with its bot or "person".
    with chromium_page(viewport=(1280, 1100)) as page:
        run_all_cells(page, lab, NOTEBOOK, timeout_s=120)
        stepper = StepperOnPage(page, 4)
        _shows(stepper, stepper.status, "Seats: red: person, green: greedy, blue: random")
        labels = [
            " ".join(t.split())
            for t in stepper.dropdown("View").locator("option").all_inner_texts()
        ]
        assert "seat: green (greedy)" in labels and "seat: blue (random)" in labels, labels
        assert not any("player 0" in label or "seat 0" in label for label in labels), labels
