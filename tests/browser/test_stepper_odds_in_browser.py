"""The stepper of notebook 05, run in JupyterLab in headless Chromium, shows the exact odds of
the dice action selected in its action list, and follows the selection.

The position is the notebook's own (section 2): red has 3 pawns at Verona, a castle with no
troops inside, and 2 pawns at Brescia facing one blue pawn; everyone has 2 shields. The
numbers are worked out by hand: Verona needs a 5 on the green die, three tries with the two
shields, 1 - (2/3)**3 = 19/27; Brescia's castle needs a 4 on the yellow die, 1 - (1/2)**3 =
7/8. Needs what ``test_notebooks_in_browser.py`` needs (Chromium at /usr/bin/chromium).
"""

from __future__ import annotations

import pytest

from coronas.widgets.browser import StepperOnPage, chromium_page, lab_server, run_all_cells

from .test_notebooks_in_browser import NOTEBOOKS, PLAY, _require_browser


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    _require_browser()
    with lab_server([NOTEBOOKS / PLAY], tmp_path_factory.mktemp("odds")) as server:
        yield server


def _select(stepper: StepperOnPage, words: str) -> None:
    """Pick the action whose label contains ``words`` in the stepper's action list."""
    actions = stepper.dropdown("Action")
    labels = actions.locator("option").all_inner_texts()
    label = next((x for x in labels if words in " ".join(x.split())), None)
    assert label is not None, (words, labels)
    actions.select_option(label=label)


def _odds_line_reads(stepper: StepperOnPage, text: str) -> str:
    """Wait until the stepper's odds line (under the action list) holds ``text``; return it."""
    line = stepper.root.locator(".widget-html").filter(has_text="odds:").first
    stepper.page.wait_for_function(
        "([el, text]) => el.innerText.split(/\\s+/).join(' ').includes(text)",
        arg=[line.element_handle(), text],
        timeout=30_000,
    )
    return " ".join(line.inner_text().split())


def test_stepper_shows_the_odds_of_the_selected_dice_action(lab):
    with chromium_page(viewport=(1280, 1100)) as page:
        run_all_cells(page, lab, PLAY, timeout_s=240)
        stepper = StepperOnPage(page, 0)
        assert stepper.at_decision()

        stepper.choose_kind("Attack castle")
        _select(stepper, "attack castle Verona")
        shown = _odds_line_reads(stepper, "19/27 (70.37%)")
        assert shown == "odds: 19/27 (70.37%) to take the castle of Verona", shown

        # another action selected: the line follows it
        _select(stepper, "attack castle Brescia")
        shown = _odds_line_reads(stepper, "7/8 (87.50%)")
        assert shown == "odds: 7/8 (87.50%) to take the castle of Brescia", shown

        # a kind of action without dice shows no odds at all
        stepper.choose_kind("Move")
        page.wait_for_function(
            "el => !el.innerText.includes('odds:')",
            arg=stepper.root.element_handle(),
            timeout=30_000,
        )
