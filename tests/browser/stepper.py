"""Drive a :class:`coronas.widgets.Stepper` on a JupyterLab page as a person would."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from tests.browser.lab import widget_text


@dataclasses.dataclass(frozen=True)
class Seen:
    """What the stepper shows at one moment."""

    status: str
    board: str
    log: str


_MARK_STEPPERS = """() => {
    const isStepper = box => {
        const labels = [...box.querySelectorAll('button')].map(b => b.textContent.trim());
        return labels.includes('Roll (seeded)') && labels.includes('Undo');
    };
    const boxes = [...document.querySelectorAll('.widget-vbox')].filter(isStepper);
    // a stepper is the innermost such box: none of its own boxes is one
    const steppers = boxes.filter(b => !boxes.some(o => o !== b && b.contains(o)));
    steppers.forEach((b, i) => b.setAttribute('data-coronas-stepper', String(i)));
    return steppers.length;
}"""


class StepperOnPage:
    """The stepper widget of a notebook page: its buttons and what it shows.

    The stepper is the innermost widget box holding both a "Roll (seeded)" and an "Undo"
    button; its direct HTML children are, in order, the status line, the drawn state, the
    message, the scores and the log.
    """

    def __init__(self, page: Any, index: int = 0):
        self.page = page
        page.locator("button", has_text="Undo").first.wait_for(timeout=30_000)
        # Buttons that are hidden (Roll at a decision) leave the accessibility tree, so the
        # steppers are found once, in the page, and pinned with an attribute.
        count = page.evaluate(_MARK_STEPPERS)
        if index >= count:
            raise AssertionError(f"the page shows {count} steppers, not {index + 1}")
        self.root = page.locator(f"[data-coronas-stepper='{index}']")
        parts = self.root.locator("xpath=./div[contains(@class, 'widget-html')]")
        self.status, self.board, self.log = parts.first, parts.nth(1), parts.last
        self.roll_button = self.root.locator("button", has_text="Roll (seeded)")
        self.play_button = self.root.locator("button").filter(has_text=re.compile(r"^\s*Play\s*$"))

    def seen(self) -> Seen:
        return Seen(
            status=widget_text(self.status),
            board=self.board.inner_html(),
            log=widget_text(self.log),
        )

    def at_chance_node(self) -> bool:
        return self.roll_button.is_visible()

    def at_decision(self) -> bool:
        return self.play_button.is_visible()

    def _click_and_wait(self, button: Any) -> tuple[Seen, Seen]:
        before = self.seen()
        button.click()
        # The kernel answers the click by redrawing: wait until the log has grown.
        self.page.wait_for_function(
            "([el, old]) => el.innerText.split(/\\s+/).join(' ').trim() !== old",
            arg=[self.log.element_handle(), before.log],
            timeout=30_000,
        )
        return before, self.seen()

    def roll(self) -> tuple[Seen, Seen]:
        """Click "Roll (seeded)"; returns what was shown before and after."""
        return self._click_and_wait(self.roll_button)

    def play(self) -> tuple[Seen, Seen]:
        """Click "Play" (the first action of the first kind); returns before and after."""
        return self._click_and_wait(self.play_button)

    def choose_kind(self, prefix: str) -> str:
        """Pick the kind of action whose label starts with ``prefix`` ("Attack castle"), and
        wait until the action list shows that kind. Returns the first action's label."""
        kinds, actions = self.root.locator("select").nth(0), self.root.locator("select").nth(1)
        labels = kinds.locator("option").all_inner_texts()
        # option labels use no-break spaces: compare with the spaces normalised
        matching = [label for label in labels if " ".join(label.split()).startswith(prefix)]
        if not matching:
            raise AssertionError(f"no kind of action {prefix!r} among {labels}")
        kinds.select_option(label=matching[0])
        word = prefix.split()[0].lower()
        self.page.wait_for_function(
            "([el, word]) => el.options.length > 0 && "
            "el.options[0].text.toLowerCase().includes(word)",
            arg=[actions.element_handle(), word],
            timeout=30_000,
        )
        return " ".join(actions.locator("option").first.inner_text().split())
