"""The companion app in a real browser: ``coronas app`` serves it with Voilà on 127.0.0.1,
headless Chromium opens it at phone size (390 x 844) and laptop size (1280 x 800), a situation
of every game is typed in as a player would, and the exact answer read from the page must be
the library's own odds, computed here (and, for the first, a fraction worked out by hand).

Needs what ``test_notebooks_in_browser.py`` needs (Chromium at /usr/bin/chromium, the
``browser`` extra) and Voilà (``pip install "coronas[app]"``); without them the tests are
skipped, unless ``CORONAS_REQUIRE_BROWSER=1``, when they fail. How long a player waits for
the answers is measured by ``benchmarks/bench_companion.py``, not here: the test bounds only
a page that hangs.

The phone-size screenshot is saved in the test's temporary folder, or where
``CORONAS_COMPANION_SCREENSHOT`` says (``figures/companion-phone.png`` was made so).
"""

from __future__ import annotations

import os
import struct
from fractions import Fraction
from pathlib import Path

import pytest

from coronas.dice import exact_fractions
from coronas.formatting import probability_text
from coronas.widgets.browser import (
    chromium_page,
    companion_answer,
    companion_server,
    companion_type,
    open_companion,
)
from coronas.widgets.companion import CompanionModel, button_label

from .test_notebooks_in_browser import _require_browser

PHONE, LAPTOP = (390, 844), (1280, 800)


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    """``coronas app`` running on a free port, its own Jupyter folders; stopped at the end."""
    _require_browser(app=True)
    with companion_server(tmp_path_factory.mktemp("companion")) as url:
        yield url


def _choose(page, game: str, key: str | None = None) -> tuple[str, str | None]:
    """Click the game's button, and the situation's (by its label) when ``key`` is given:
    where :func:`_type` types next."""
    page.locator(".coronas-games button", has_text=button_label(game)).click()
    if key is not None:
        label = CompanionModel().situations[(game, key)].label
        page.locator(".coronas-situations button", has_text=label).click()
    return game, key


def _type(page, where: tuple[str, str | None], name: str, value: int) -> None:
    companion_type(page, *where, name, value)


def _no_horizontal_scroll(page) -> None:
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width <= inner, (width, inner)


def _controls_are_touch_sized(page) -> None:
    small = page.evaluate(
        "[...document.querySelectorAll('.coronas-app button, .coronas-app input, "
        ".coronas-app select')].filter(e => e.offsetParent !== null)"
        ".map(e => [e.className || e.tagName, e.getBoundingClientRect().height])"
        ".filter(([, h]) => h < 40)"
    )
    assert small == [], small


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_companion_answers_every_game_exactly(app_url, size, tmp_path):
    from coronas.batalla.odds import battle as batalla_battle
    from coronas.carolus.odds import knights_for_family
    from coronas.hierro.odds import battle, castle_assault, emissary_race

    with exact_fractions():
        castle = castle_assault(5, army=2, shields=1).probability
        race = emissary_race(3, legitimacy=(2, 2), shields=(1, 0)).first_wins
        fight = battle(3, 2, 1, 1).attacker_wins
        gem = batalla_battle(3, 1, attacker_gold=2).gem
        draws = knights_for_family(3, 1)
    with chromium_page(viewport=size) as page:
        open_companion(page, app_url)
        # Corona de Hierro, a castle: one pawn (red die), 4+, no reroll: faces 4, 5, 6 of six
        shown = _answer_reads(page, Fraction(1, 2))
        assert shown == "1/2 (50.00%)"
        box = page.locator(".coronas-answer").bounding_box()
        assert box["y"] + box["height"] <= size[1], "the answer is below the fold"
        _no_horizontal_scroll(page)
        _controls_are_touch_sized(page)
        # 5+ with two pawns and one reroll: 1 - (4/6)**2 = 5/9, the library's castle_assault
        assert castle == Fraction(5, 9)
        where = ("hierro", "castle")  # the app opens on it
        _type(page, where, "target", 5)
        _type(page, where, "army", 2)
        page.locator(".coronas-field-shields").locator("..").locator(".coronas-plus").click()
        shown = _answer_reads(page, castle)
        assert shown == probability_text(castle)
        if size == PHONE:
            page.mouse.move(0, 0)
            page.evaluate("document.activeElement && document.activeElement.blur()")
            shot = Path(os.environ.get("CORONAS_COMPANION_SCREENSHOT", tmp_path / "phone.png"))
            page.screenshot(path=str(shot))
            _is_png_of_width(shot, PHONE[0])

        # diplomacy, racing a rival's emissary: 3+, a shield of ours, we roll first
        where = _choose(page, "hierro", "diplomacy")
        page.locator(".coronas-field-rival").click()
        _type(page, where, "target", 3)
        _type(page, where, "shields", 1)
        _answer_reads(page, race)
        _no_horizontal_scroll(page)

        # a battle: 3 pawns against 2, a shield each, played best
        where = _choose(page, "hierro", "battle")
        _type(page, where, "attacker_shields", 1)
        _type(page, where, "defender_shields", 1)
        _answer_reads(page, fight)
        assert "first roll" in page.locator(".coronas-advice").inner_text()
        _no_horizontal_scroll(page)

        # Batalla: 3 swords against 1 shield, 2 gold for paid rerolls
        where = _choose(page, "batalla")
        _type(page, where, "swords", 3)
        _type(page, where, "shields", 1)
        _type(page, where, "attacker_gold", 2)
        _answer_reads(page, gem)
        _no_horizontal_scroll(page)

        # Carolus: three draws, at least one knight of the family: 1 - (2/3)**3 = 19/27
        where = _choose(page, "carolus")
        _type(page, where, "draws", 3)
        _type(page, where, "at_least", 1)
        shown = _answer_reads(page, draws)
        assert draws == Fraction(19, 27) and shown == "19/27 (70.37%)"
        _no_horizontal_scroll(page)
        _controls_are_touch_sized(page)


def _answer_reads(page, p: Fraction) -> str:
    """The answer's text once the page shows ``p`` exactly."""
    return companion_answer(page, p)[0]


def _is_png_of_width(path: Path, width: int) -> None:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">I", data[16:20])[0] == width
