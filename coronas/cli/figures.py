"""``coronas figures``: draw every figure of ``figures/`` again, the stepper's screenshot too."""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any

__all__ = ["FigureError", "add_parser", "run"]


class FigureError(Exception):
    """The browser step failed (the other figures are written): exit status 1."""


def run(args: argparse.Namespace) -> int:
    """Draw the matplotlib figures, then photograph the stepper in JupyterLab (headless
    Chromium) unless ``--no-browser``; without a browser the screenshot is skipped with a
    note saying how to get it."""
    from coronas.plotting import write_figures

    written = write_figures(args.out)
    for path in written:
        print(path, flush=True)
    if not args.no_browser:
        from coronas.widgets import browser

        shot = Path(args.out) / "stepper.png"
        missing = browser.unavailable()
        if missing:
            print(f"coronas: skipped {shot}: {missing}", file=sys.stderr)
        else:
            try:
                progress = functools.partial(print, flush=True)
                written.append(browser.stepper_screenshot(shot, progress=progress))
            except browser.BrowserError as exc:
                raise FigureError(
                    f"{shot} not written: {exc.summary} (the other figures are written)"
                ) from None
            print(shot)
    print(f"{len(written)} figures written to {args.out}")
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "figures", help="regenerate every figure of figures/, the stepper's screenshot too"
    )
    p.add_argument("--out", default="figures", help="output folder (default figures)")
    p.add_argument(
        "--no-browser",
        action="store_true",
        help="skip the stepper's screenshot (it starts JupyterLab and headless Chromium)",
    )
    p.set_defaults(func=run, _parser=p)
