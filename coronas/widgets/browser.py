"""JupyterLab in headless Chromium, driven as a person would: run a notebook, click a widget.

The real-browser tests and ``coronas figures`` (for ``figures/stepper.png``) share this:

* :func:`lab_server` starts a throwaway JupyterLab on a free port of 127.0.0.1 with a random
  token and its own configuration, data, runtime, settings and workspace folders, serving
  *copies* of the notebooks it is given (JupyterLab autosaves what it runs). Its settings
  turn off the news pop-up and render every cell (no windowing), so the page holds the
  whole notebook. The server is stopped when the ``with`` block ends, also on failure.
* :func:`chromium_page` opens a page of Debian's headless Chromium, driven by Playwright;
  :func:`run_all_cells` runs a notebook there and waits until every cell has run.
* :class:`StepperOnPage` finds a :class:`~coronas.widgets.Stepper` on the page and clicks it.
* :func:`stepper_screenshot` does all of that to photograph the stepper at a chance node.
* :func:`companion_server` serves the companion app (``coronas app``) with Voilà;
  :func:`open_companion` and :func:`companion_answer` wait for its answers on a page,
  :func:`companion_type` types into one of its fields. The
  real-browser test and ``benchmarks/bench_companion.py`` (how long a player waits) share them.

It needs Chromium at :data:`CHROMIUM` (``apt-get install chromium``) and the ``browser`` extra
(``pip install "coronas[browser]"``: Playwright, JupyterLab, ipywidgets). Playwright drives
the installed Chromium and downloads no browser; it is imported only when a page is opened.
:func:`unavailable` says what is missing. Failures raise :class:`BrowserError`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from coronas.formatting import listing

__all__ = [
    "CHROMIUM",
    "BrowserError",
    "LabServer",
    "Seen",
    "StepperOnPage",
    "chromium_page",
    "companion_answer",
    "companion_server",
    "companion_type",
    "lab_server",
    "open_companion",
    "run_all_cells",
    "stepper_screenshot",
    "unavailable",
    "widget_text",
]

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, the browser Playwright drives."""

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# JupyterLab user settings: no news, no update check, whole notebooks in the page.
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}

_PYTHON_PACKAGES = ("playwright", "jupyterlab", "ipykernel", "ipywidgets")


class BrowserError(RuntimeError):
    """JupyterLab or the browser failed: :attr:`summary` says what, in one line; :attr:`details`
    holds the evidence (the server's log, a cell's error, Playwright's call log)."""

    def __init__(self, summary: str, details: str = ""):
        super().__init__(summary + (f"\n{details}" if details else ""))
        self.summary = summary
        self.details = details


def unavailable(app: bool = False) -> str | None:
    """What is missing to drive JupyterLab in Chromium here (with ``app``, also the companion
    app's Voilà), and how to install it; None if nothing is."""
    missing = []
    if app and importlib.util.find_spec("voila") is None:
        missing.append('voila not installed (pip install "coronas[app]")')
    if not CHROMIUM.exists():
        missing.append(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    absent = [name for name in _PYTHON_PACKAGES if importlib.util.find_spec(name) is None]
    if absent:
        missing.append(f'{", ".join(absent)} not installed (pip install "coronas[browser]")')
    return "; ".join(missing) or None


# --------------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LabServer:
    """A running JupyterLab: ``url(path)`` gives an address with the token."""

    def __init__(self, process: subprocess.Popen, port: int, token: str, root: Path, log: Path):
        self.process, self.port, self.token, self.root, self.log = process, port, token, root, log

    def url(self, path: str = "lab", query: str = "") -> str:
        return f"http://127.0.0.1:{self.port}/{path}?token={self.token}{query}"

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


@contextlib.contextmanager
def lab_server(files: Sequence[Path], workdir: Path, timeout_s: float = 90) -> Iterator[LabServer]:
    """Start JupyterLab serving copies of ``files`` (notebooks and what they read) from a
    folder made in ``workdir``; stop it when the block ends.

    Raises :class:`BrowserError` if the server exits or does not answer within ``timeout_s``.
    """
    root = workdir / "root"
    root.mkdir(parents=True)
    for path in files:
        shutil.copy(path, root / path.name)
    env = dict(os.environ)
    for var, name in [
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("JUPYTERLAB_SETTINGS_DIR", "settings"),
        ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
        ("IPYTHONDIR", "ipython"),
    ]:
        folder = workdir / name
        folder.mkdir()
        env[var] = str(folder)
    for name, values in LAB_SETTINGS.items():
        target = workdir / "settings" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values))
    env.pop("MPLBACKEND", None)  # kernels would inherit it and inline figures would vanish
    port, token = _free_port(), secrets.token_hex(16)
    log = workdir / "jupyterlab.log"
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        "--allow-root",
        "--LabApp.news_url=None",
    ]
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
    server = LabServer(process, port, token, root, log)
    try:
        _wait_until_up(server, timeout_s)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_until_up(server: LabServer, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise BrowserError(
                f"JupyterLab exited at start-up (status {server.process.returncode})",
                server.log_tail(),
            )
        try:
            with urllib.request.urlopen(server.url("api/status"), timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise BrowserError(f"JupyterLab did not answer within {timeout_s:g} s", server.log_tail())


# --------------------------------------------------------------------------------------------
# The browser
# --------------------------------------------------------------------------------------------


@contextlib.contextmanager
def chromium_page(viewport: tuple[int, int] = (1280, 1000)) -> Iterator[Any]:
    """A fresh Playwright page of Debian's headless Chromium, closed when the block ends."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
        )
        try:
            page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
            yield page
        finally:
            browser.close()


@contextlib.contextmanager
def companion_server(workdir: Path, timeout_s: float = 90) -> Iterator[str]:
    """Run ``coronas app`` on a free port of 127.0.0.1 with Jupyter folders of its own in
    ``workdir``; yield the app's address and stop Voilà and its kernels when the block ends.

    Raises :class:`BrowserError` if the command exits or does not listen within ``timeout_s``.
    """
    env = dict(os.environ)
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        env[var] = str(workdir / var.lower())
    env.pop("MPLBACKEND", None)
    port = _free_port()
    log = workdir / "voila.log"
    command = [sys.executable, "-m", "coronas.cli", "app", "--no-browser", f"--port={port}"]
    with log.open("w") as out:
        # its own process group: Voilà (which replaces the command) and its kernels stop together
        process = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            if process.poll() is not None:
                tail = log.read_text(errors="replace")[-3000:]
                raise BrowserError(f"coronas app exited (status {process.returncode})", tail)
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=2):
                    break  # listening (a GET of the page would start a kernel)
            except OSError:
                if time.monotonic() > deadline:
                    summary = f"coronas app did not answer within {timeout_s:g} s"
                    raise BrowserError(summary) from None
                time.sleep(0.3)
        yield f"http://127.0.0.1:{port}/"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def open_companion(page: Any, url: str, load_bound_s: float = 25) -> float:
    """Open the companion at ``url`` and wait for its first answer; the seconds from opening
    the page to that answer. Voilà was seen to hang now and then on a page load ("Executing"
    never ends), so a load that shows no answer within ``load_bound_s`` is tried once more."""
    for attempt in (1, 2):
        start = time.monotonic()
        page.goto(url)
        try:
            page.locator(".coronas-chance").first.wait_for(timeout=load_bound_s * 1000)
            return time.monotonic() - start
        except Exception as error:  # Playwright's TimeoutError
            if attempt == 2:
                raise BrowserError(
                    f"the companion showed no answer within {load_bound_s:g} s, twice",
                    str(error),
                ) from error
    raise AssertionError("not reached")


def companion_type(page: Any, game: str, key: str | None, field: str, value: Any) -> None:
    """Type ``value`` into ``field`` of the companion's situation ``key`` of ``game`` (None:
    the game's first) and press Enter. Its input is found by the situation's class
    (:func:`~coronas.widgets.companion.form_class`), so typing just after a situation is
    chosen waits for that situation's form, never types into the one it replaces."""
    from coronas.widgets.companion import CompanionModel, form_class

    if key is None:
        key = CompanionModel().keys(game)[0]
    box = page.locator(f".{form_class(game, key)}.coronas-field-{field} input")
    box.fill(str(value))
    box.press("Enter")


def companion_answer(page: Any, p: Fraction, timeout_s: float = 15) -> tuple[str, float]:
    """Wait until the companion's answer is ``p`` exactly; its text on the page (spaces
    collapsed) and the seconds waited."""
    start = time.monotonic()
    page.wait_for_function(
        "p => { const el = document.querySelector('.coronas-chance');"
        " return el && el.dataset.fraction === p; }",
        arg=str(p),
        timeout=timeout_s * 1000,
    )
    waited = time.monotonic() - start
    return " ".join(page.locator(".coronas-chance").inner_text().split()), waited


def run_all_cells(page: Any, server: LabServer, notebook: str, timeout_s: float = 120) -> None:
    """Open ``notebook``, wait for its kernel, run every cell and wait until all have run.

    Raises :class:`BrowserError` with the notebook's first error output if a cell raised.
    """
    # reset: open only this notebook, not the tabs an earlier page left in the workspace
    page.goto(server.url(f"lab/tree/{notebook}", "&reset"))
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
    # A cold server drops "Run All" clicked before the kernel exists: wait for Idle first.
    page.get_by_text(re.compile(r"\|\s*Idle")).first.wait_for(timeout=60_000)
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator("li.lm-Menu-item[data-command='runmenu:run-all']").click()
    # Every code cell's prompt goes to [*] and then to a number; a failing cell stops the
    # run, so an error output ends the wait too.
    try:
        page.wait_for_function(_RUN_FINISHED, timeout=timeout_s * 1000)
    except Exception as exc:  # Playwright's TimeoutError
        prompts = page.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
        raise BrowserError(
            f"{notebook}: not every cell ran within {timeout_s:g} s", f"prompts: {prompts}"
        ) from exc
    for text in page.locator(_STDERR).all_inner_texts():
        if "Traceback" in text or re.search(r"^\w*(Error|Exception)\b", text, re.M):
            raise BrowserError(f"{notebook}: a cell failed in the browser", text[:3000])


_STDERR = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
_RUN_FINISHED = """() => {
    const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
    if (!panel) return false;
    const prompts = [...panel.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
    const done = p => /^\\[\\d+\\]:$/.test(p.innerText.trim());
    const stderr = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']";
    const failed = [...panel.querySelectorAll(stderr)]
        .some(o => o.innerText.includes('Traceback') || /^\\w*Error\\b/m.test(o.innerText));
    return failed || (prompts.length > 0 && prompts.every(done));
}"""


def widget_text(locator: Any) -> str:
    """The visible text of a widget (whitespace normalised)."""
    return " ".join(locator.inner_text().split())


# --------------------------------------------------------------------------------------------
# The stepper on a page
# --------------------------------------------------------------------------------------------


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
        undo = page.locator("button").filter(has_text=re.compile(r"^\s*Undo\s*$"))
        undo.first.wait_for(timeout=30_000)
        # Buttons that are hidden (Roll at a decision) leave the accessibility tree, so the
        # steppers are found once, in the page, and pinned with an attribute.
        count = page.evaluate(_MARK_STEPPERS)
        if index >= count:
            raise BrowserError(f"the page shows {count} steppers, not {index + 1}")
        self.root = page.locator(f"[data-coronas-stepper='{index}']")
        parts = self.root.locator("xpath=./div[contains(@class, 'widget-html')]")
        self.status, self.board, self.log = parts.first, parts.nth(1), parts.last
        self.roll_button = self.root.locator("button").filter(
            has_text=re.compile(r"^\s*Roll( \(seeded\))?\s*$")
        )
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
        """Click "Roll" ("Roll (seeded)" with a seed); returns what was shown before and
        after."""
        return self._click_and_wait(self.roll_button)

    def play(self) -> tuple[Seen, Seen]:
        """Click "Play" (the action shown in the action list); returns before and after."""
        return self._click_and_wait(self.play_button)

    def dropdown(self, label: str) -> Any:
        """The ``<select>`` of the stepper's dropdown labelled ``label`` ("Kind", "Action",
        "View"), found by its label rather than its place (the View menu comes first)."""
        name = self.page.locator("label", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))
        return self.root.locator(".widget-dropdown", has=name).locator("select")

    def choose_kind(self, prefix: str) -> str:
        """Pick the kind of action whose label starts with ``prefix`` ("Attack castle"), and
        wait until the action list shows that kind. Returns the first action's label."""
        kinds, actions = self.dropdown("Kind"), self.dropdown("Action")
        labels = kinds.locator("option").all_inner_texts()
        # option labels use no-break spaces: compare with the spaces normalised
        matching = [label for label in labels if " ".join(label.split()).startswith(prefix)]
        if not matching:
            raise BrowserError(f"no kind of action {prefix!r} among {listing(labels, 'and')}")
        kinds.select_option(label=matching[0])
        word = prefix.split()[0].lower()
        self.page.wait_for_function(
            "([el, word]) => el.options.length > 0 && "
            "el.options[0].text.toLowerCase().includes(word)",
            arg=[actions.element_handle(), word],
            timeout=30_000,
        )
        return " ".join(actions.locator("option").first.inner_text().split())

    def screenshot(self, path: Path) -> None:
        """Save a PNG of the stepper alone, once its pictures are drawn, with no hover on it
        and the notebook's toolbar (which floats over the cells) hidden."""
        self.page.add_style_tag(content=".jp-NotebookPanel-toolbar { visibility: hidden; }")
        self.page.mouse.move(0, 0)
        self.page.wait_for_function(
            "el => [...el.querySelectorAll('img')].every(i => i.complete && i.naturalWidth > 0)",
            arg=self.root.element_handle(),
            timeout=30_000,
        )
        self.root.screenshot(path=str(path))


# --------------------------------------------------------------------------------------------
# The picture README shows
# --------------------------------------------------------------------------------------------

# The position of notebooks/05-play-corona-de-hierro.ipynb: red has 3 pawns at Verona, a castle
# green holds with no troops left inside, and 2 pawns at Brescia facing one blue pawn.
_STEPPER_CELL = """\
from coronas.hierro import Game
from coronas.hierro.bots import GreedyBot
from coronas.widgets import Stepper

position = Game(players=3, seed=1).position(
    castles={"Friuli": 0, "Milan": 1, "Verona": (1, False), "Ivrea": 2},
    armies={"Verona": {0: 3}, "Brescia": {0: 2, 2: 1}},
)
Stepper(position, bots=GreedyBot(), seed=3)
"""


def _notebook(cells: Sequence[str]) -> dict[str, Any]:
    """A notebook (nbformat 4) of code cells, for the Python 3 kernel."""
    return {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": f"cell-{i}",
                "metadata": {},
                "outputs": [],
                "source": source,
            }
            for i, source in enumerate(cells)
        ],
        "metadata": {
            "kernelspec": {
                "display_name": "Python 3 (ipykernel)",
                "language": "python",
                "name": "python3",
            },
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


@contextlib.contextmanager
def _doing(what: str) -> Iterator[None]:
    """Report a failure of the browser or the server inside as a :class:`BrowserError` that
    starts with ``what`` was being done."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        yield
    except BrowserError as exc:
        raise BrowserError(f"{what}: {exc.summary}", exc.details) from exc
    except (PlaywrightError, OSError) as exc:
        text = str(exc).strip() or type(exc).__name__
        raise BrowserError(f"{what}: {text.splitlines()[0]}", text) from exc


def stepper_screenshot(
    path: str | Path,
    progress: Callable[[str], None] | None = None,
    timeout_s: float = 240,
) -> Path:
    """Photograph the stepper in JupyterLab at a chance node, its exact odds table showing.

    Starts its own JupyterLab, runs a notebook it writes itself (a hand-set Corona de Hierro
    position and a :class:`~coronas.widgets.Stepper`) in headless Chromium, clicks as a person
    would (red moves an army to Brescia, then attacks the castle of Verona: the stepper shows
    the die's six outcomes, 1/6 each) and saves a PNG of the stepper at ``path``. The server
    and the browser are stopped at the end, also on failure.

    ``progress`` is called with a short line before each slow step; ``timeout_s`` bounds the
    notebook's run. Raises :class:`BrowserError` naming the step that failed.
    """
    path = Path(path)
    say = progress or (lambda _: None)
    with (
        tempfile.TemporaryDirectory(prefix="coronas-lab-", ignore_cleanup_errors=True) as tmp,
        contextlib.ExitStack() as running,
    ):
        notebook = Path(tmp) / "stepper.ipynb"
        notebook.write_text(json.dumps(_notebook([_STEPPER_CELL]), indent=1), encoding="utf-8")
        say("starting JupyterLab...")
        with _doing("starting JupyterLab"):
            server = running.enter_context(lab_server([notebook], Path(tmp) / "lab"))
        with _doing("starting Chromium"):
            page = running.enter_context(chromium_page(viewport=(1280, 1400)))
        say("running the notebook in Chromium...")
        with _doing("running the notebook"):
            run_all_cells(page, server, notebook.name, timeout_s=timeout_s)
            stepper = StepperOnPage(page)
        say("clicking to a castle attack...")
        with _doing("clicking the stepper"):
            stepper.choose_kind("Move")
            stepper.play()
            stepper.choose_kind("Attack castle")
            stepper.play()
            if not stepper.at_chance_node():
                raise BrowserError("the attack on a castle did not lead to a roll")
        with _doing(f"saving {path}"):
            path.parent.mkdir(parents=True, exist_ok=True)
            stepper.screenshot(path)
    return path
