"""How long a player waits for the companion app's answers, in headless Chromium.

Run from the repository root::

    python benchmarks/bench_companion.py            # 5 page loads at each size, a few minutes
    python benchmarks/bench_companion.py --quick    # one load at phone size, to check it works

``coronas app`` serves the companion with Voilà on 127.0.0.1 (as ``tests/browser`` does);
Chromium opens it at phone size (390 x 844) and laptop size (1280 x 800), each load in a
fresh browser so that nothing is cached between loads. Two waits are timed:

* **first answer**: from asking for the page to the first exact chance on screen (Voilà starts
  a kernel and runs the app's notebook, so most of this is the kernel's start-up);
* **later answer**: from typing a number (Enter pressed) to the new exact chance on screen,
  over a castle, a diplomacy race, a Batalla attack and a Carolus draw.

Each row gives the median and the slowest of its loads. Needs Chromium at /usr/bin/chromium
and the ``browser`` and ``app`` extras; without them it says what is missing, exit status 2.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import _machine

_machine.ensure_importable()

from coronas.widgets import browser  # noqa: E402
from coronas.widgets.companion import CompanionModel, button_label  # noqa: E402

SIZES = {"phone 390 x 844": (390, 844), "laptop 1280 x 800": (1280, 800)}


# (game, situation or None for the game's first, the field typed, its value); the chance
# expected after each is the app's own model's, so the wait ends when the page shows it
STEPS = [
    ("hierro", None, "target", 6),
    ("hierro", "diplomacy", "target", 5),
    ("batalla", None, "swords", 3),
    ("carolus", None, "draws", 3),
]


def expected_chances() -> list[Fraction]:
    """The chance the page should show after each of :data:`STEPS`, from the app's model."""
    model = CompanionModel()
    chances = []
    for game, key, field, value in STEPS:
        model.choose(game, key)
        model.set(**{field: value})
        chances.append(model.answer().values["chance"])
    return chances


def one_load(url: str, size: tuple[int, int], chances: list[Fraction]) -> tuple[float, list[float]]:
    """The first answer's wait and each later answer's wait, in seconds, for one page load."""
    situations = CompanionModel().situations
    later = []
    with browser.chromium_page(viewport=size) as page:
        first = browser.open_companion(page, url)
        for (game, key, field, value), p in zip(STEPS, chances, strict=True):
            page.locator(".coronas-games button", has_text=button_label(game)).click()
            if key is not None:
                label = situations[(game, key)].label
                page.locator(".coronas-situations button", has_text=label).click()
            browser.companion_type(page, game, key, field, value)
            pressed = time.monotonic()
            browser.companion_answer(page, p)
            later.append(time.monotonic() - pressed)
    return first, later


def _median_and_slowest(waits: list[float]) -> list[str]:
    return [f"{statistics.median(waits):.2f} s", f"{max(waits):.2f} s"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one load at phone size")
    parser.add_argument("--loads", type=int, default=5, help="page loads at each size")
    parser.add_argument(
        "--idle",
        type=float,
        default=10,
        help="seconds the server is left alone before each load (default 10)",
    )
    args = parser.parse_args(argv)
    missing = browser.unavailable(app=True)
    if missing:
        print(f"bench_companion: cannot run: {missing}", file=sys.stderr)
        return 2
    loads = 1 if args.quick else args.loads
    sizes = dict(list(SIZES.items())[:1]) if args.quick else SIZES

    print(f"The companion app's answers, {loads} page load(s) a size ({_machine.machine_line()})")
    print()
    chances = expected_chances()
    rows = []
    with tempfile.TemporaryDirectory() as tmp, browser.companion_server(Path(tmp)) as url:
        for name, size in sizes.items():
            firsts, laters = [], []
            for _ in range(loads):
                time.sleep(0 if args.quick else args.idle)
                first, later = one_load(url, size, chances)
                firsts.append(first)
                laters.extend(later)
            rows.append([name, "first answer", str(len(firsts)), *_median_and_slowest(firsts)])
            rows.append([name, "later answer", str(len(laters)), *_median_and_slowest(laters)])
    print(_machine.table(["size", "wait", "answers", "median", "slowest"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
