"""End to end, in a real browser: JupyterLab serves the notebooks, headless Chromium runs them
and a test clicks the widgets as a person would (with :mod:`coronas.widgets.browser`, which
``coronas figures`` uses for the stepper's screenshot).

Needs Debian's Chromium at /usr/bin/chromium (``apt-get install -y chromium``) and the
``browser`` extra; Playwright drives the installed Chromium, no browser is downloaded. Without
them the tests are skipped, unless ``CORONAS_REQUIRE_BROWSER=1`` (as in CI), when they fail.
"""

from __future__ import annotations

import os
import re
import struct
from pathlib import Path

import pytest

from coronas.widgets.browser import (
    StepperOnPage,
    chromium_page,
    lab_server,
    run_all_cells,
    stepper_screenshot,
    unavailable,
    widget_text,
)

ROOT = Path(__file__).resolve().parent.parent.parent
NOTEBOOKS = ROOT / "notebooks"
PLAY = "05-play-corona-de-hierro.ipynb"
ODDS = "03-castle-assaults-and-diplomacy.ipynb"


def _require_browser(app: bool = False) -> None:
    """Skip unless Chromium and the browser extra (with ``app``, also Voilà) are here; under
    ``CORONAS_REQUIRE_BROWSER=1`` (set by ``.ci/run``) fail instead."""
    reason = unavailable(app=app)
    if reason is None:
        return
    if os.environ.get("CORONAS_REQUIRE_BROWSER") == "1":
        pytest.fail(reason + "; CORONAS_REQUIRE_BROWSER=1 requires the browser test to run")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    _require_browser()
    with lab_server([NOTEBOOKS / PLAY, NOTEBOOKS / ODDS], tmp_path_factory.mktemp("lab")) as server:
        yield server


@pytest.fixture
def page():
    with chromium_page(viewport=(1280, 1100)) as page:
        yield page


def test_stepper_plays_an_action_and_rolls_the_dice(lab, page):
    run_all_cells(page, lab, PLAY, timeout_s=240)
    # The first stepper shows the position set up by hand: red at Verona and Brescia.
    stepper = StepperOnPage(page, 0)
    start = stepper.seen()
    assert stepper.at_decision() and not stepper.at_chance_node()
    assert "to move" in start.status
    assert "<img" in start.board or "<svg" in start.board  # the map is drawn

    # An action: move an army. The map and the log change.
    first = stepper.choose_kind("Move")
    before, after = stepper.play()
    assert after.board != before.board, "the map did not change after a move"
    assert first.strip() in after.log and after.log.startswith(before.log)

    # Another action that rolls: attack a castle. The status turns to the dice.
    attack = stepper.choose_kind("Attack castle")
    before, after = stepper.play()
    assert attack.split("(")[0].strip() in after.log
    assert after.status.startswith("Roll the yellow die for red's assault on Verona: needs 5")
    assert stepper.at_chance_node()
    # the 2 armies left at Verona roll the yellow die; its left banner is a 5
    assert "red attacks the castle of Verona: red rolls the yellow die, needs 5+" in after.status
    odds_shown = widget_text(stepper.root.locator("table").last)
    assert re.search(r"\b1/6\b", odds_shown), odds_shown  # six faces, each with exactly 1/6

    # Roll: the seeded die is applied, logged with its exact probability.
    before, after = stepper.roll()
    new = after.log[len(before.log) :]
    assert re.search(r"chance: red rolls \d on the yellow die \(probability 1/6", new), new
    assert after.status != before.status
    assert not stepper.at_chance_node()


def test_stepper_screenshot_is_a_picture_of_the_whole_stepper(tmp_path):
    _require_browser()
    steps = []
    path = stepper_screenshot(tmp_path / "figures" / "stepper.png", progress=steps.append)
    assert path == tmp_path / "figures" / "stepper.png"
    assert steps[0] == "starting JupyterLab..."
    data = path.read_bytes()
    # a PNG: its signature, then the IHDR chunk with the width and height
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    # the map (about 560 px wide) and the odds table, buttons and log under it
    assert 600 <= width <= 1280 and 700 <= height <= 1400, (width, height)
    assert len(data) > 50_000  # a drawn map, not a blank box


def test_odds_calculator_answers_as_the_inputs_change(lab, page):
    run_all_cells(page, lab, ODDS, timeout_s=180)
    calc = page.locator(".widget-vbox").filter(has_text="Corona de Hierro: attack a castle").last
    answer = calc.locator(".widget-html").nth(1)
    # Target 5 with 2 pawns (yellow d6), one reroll: 1 - (4/6)**2 = 5/9.
    assert "5/9" in widget_text(answer)
    # One more shield: 1 - (4/6)**3 = 19/27. Moved from the keyboard, as a person can.
    shields = calc.locator(".widget-slider").filter(has_text="Shields").locator(".noUi-handle")
    shields.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "el => el.innerText.includes('19/27')", arg=answer.element_handle(), timeout=30_000
    )
    # Target 6 is rolled one time in 6 on each try: 1 - (5/6)**3 = 91/216.
    target = calc.locator(".widget-slider").filter(has_text="Left banner").locator(".noUi-handle")
    target.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "el => el.innerText.includes('91/216')", arg=answer.element_handle(), timeout=30_000
    )
