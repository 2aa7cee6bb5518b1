"""The notebooks as a teacher meets them, in a real browser (JupyterLab in headless Chromium):
opened before a run, every widget reads as a sentence (what it is, how to start it), never as
the Python repr of its boxes; after Run All every widget is drawn; a wrong exercise answer
gets a friendly line in the cell, not a traceback.

Set ``CORONAS_SCREENSHOTS=1`` to write the screenshots the README shows into ``figures/``.
Needs what ``test_notebooks_in_browser.py`` needs (Chromium at /usr/bin/chromium).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from coronas.widgets.browser import chromium_page, lab_server, run_all_cells

from .test_notebooks_in_browser import NOTEBOOKS, ROOT, _require_browser

ALL = sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))
WIDGET = "application/vnd.jupyter.widget-view+json"
REPR = re.compile(r"\b(VBox|HBox|IntSlider|Dropdown|Checkbox)\(")
BATTLES = "04-battles-as-markov-chains.ipynb"


def _widgets_in(path: Path) -> int:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return sum(WIDGET in o.get("data", {}) for c in cells for o in c.get("outputs", []))


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    _require_browser()
    with lab_server(ALL, tmp_path_factory.mktemp("teacher")) as server:
        yield server


@pytest.fixture
def page():
    with chromium_page(viewport=(1280, 1100)) as page:
        yield page


def _open_unrun(page, lab, name: str) -> str:
    page.goto(lab.url(f"lab/tree/{name}", "&reset"))
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
    page.locator(".jp-OutputArea-output").first.wait_for(timeout=60_000)
    page.wait_for_timeout(1500)  # let every stored output render
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").inner_text()


@pytest.mark.parametrize("path", [p for p in ALL if _widgets_in(p)], ids=lambda p: p.stem)
def test_an_unrun_notebook_shows_no_widget_repr(lab, page, path):
    text = _open_unrun(page, lab, path.name)
    assert not REPR.search(text), REPR.search(text).group(0)
    lines = [line for line in text.splitlines() if "run this cell to" in line]
    assert len(lines) == _widgets_in(path), lines
    if path.name.startswith("05"):
        cell = page.locator(".jp-CodeCell").filter(has_text="run this cell to play").first
        _screenshot(cell, "before-a-run")


@pytest.mark.parametrize("path", [p for p in ALL if _widgets_in(p)], ids=lambda p: p.stem)
def test_after_run_all_every_widget_is_drawn(lab, page, path):
    run_all_cells(page, lab, path.name, timeout_s=240)
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    drawn = panel.locator(".jp-OutputArea-output > .widget-vbox")
    drawn.nth(_widgets_in(path) - 1).wait_for(timeout=60_000)
    assert drawn.count() == _widgets_in(path)
    assert "run this cell to" not in panel.inner_text()
    assert not REPR.search(panel.inner_text())
    if not path.name.startswith("03"):
        return
    for title in ("attack a castle", "diplomacy", "emissary race"):
        box = panel.locator(".widget-vbox").filter(has_text=f"Corona de Hierro: {title}")
        assert box.last.locator(".widget-slider").count() >= 1
    # the longest label is shown whole, not cut with an ellipsis
    label = panel.get_by_text("Right banner (emissary target)", exact=True).first
    assert label.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    _screenshot(panel.locator(".widget-vbox").filter(has_text="attack a castle").last, "calculator")


def test_a_wrong_answer_gets_a_friendly_line(lab, page):
    run_all_cells(page, lab, BATTLES, timeout_s=240)
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    cells = panel.locator(".jp-CodeCell")
    answer = cells.filter(has_text="answer_1 = None").first
    answer.scroll_into_view_if_needed()
    answer.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.type('answer_1 = "7/12"')
    page.keyboard.press("Shift+Enter")  # run it; the selection moves on
    check = cells.filter(has_text='check("04.1", answer_1)').first
    check.locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")
    output = check.locator(".jp-OutputArea-output")
    output.filter(has_text="not quite").first.wait_for(timeout=30_000)
    text = output.inner_text()
    assert "not quite: you have 7/12 (58.33%)" in text
    assert "Traceback" not in text and "Error" not in text
    # and the worked answer is still folded away
    details = panel.locator("details").filter(has_text="Worked answer").first
    assert details.evaluate("el => !el.open")
    question = panel.locator(".jp-MarkdownCell").filter(has_text="Exercise 1.").first
    _screenshot(question, "exercise-check", until=check)


def _screenshot(locator, name: str, until=None) -> None:
    """Write ``figures/notebook-<name>.png`` of ``locator`` (down to ``until``), if asked."""
    if os.environ.get("CORONAS_SCREENSHOTS") != "1":
        return
    path = ROOT / "figures" / f"notebook-{name}.png"
    locator.scroll_into_view_if_needed()
    if until is None:
        locator.screenshot(path=str(path))
        return
    top, bottom = locator.bounding_box(), until.bounding_box()
    clip = {
        "x": top["x"],
        "y": top["y"],
        "width": max(top["width"], bottom["width"]),
        "height": bottom["y"] + bottom["height"] - top["y"],
    }
    until.page.screenshot(path=str(path), clip=clip)


def test_the_readme_command_opens_notebook_00_at_the_root_without_news(tmp_path):
    """The README's first command, run here against the working tree: JupyterLab's root is
    the repository (so docs/ opens from a notebook's link), notebook 00 is open, and the news
    question does not cover the page."""
    _require_browser()
    import secrets
    import shlex
    import subprocess
    import sys
    import time
    import urllib.request

    from coronas.widgets.browser import _free_port

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(x for x in readme.splitlines() if "/bin/jupyter lab" in x)
    words = shlex.split(line.split("&&")[-1])
    settings = dict(w.split("=", 1) for w in words if re.match(r"^[A-Z_]+=", w))
    args = words[words.index("lab") + 1 :] if "lab" in words else []
    assert settings == {"JUPYTER_CONFIG_PATH": "jupyter-config"}, words
    env = dict(os.environ, PYTHONPATH=str(ROOT), **settings)
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        env[var] = str(tmp_path / var)
    env["JUPYTERLAB_SETTINGS_DIR"] = str(tmp_path / "settings")  # no user settings at all
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(tmp_path / "workspaces")
    env.pop("MPLBACKEND", None)
    port, token = _free_port(), secrets.token_hex(8)
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root"]
    command += ["--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={token}", *args]
    with (tmp_path / "lab.log").open("w") as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        contents = urllib.request.urlopen(f"{base}/api/contents/docs?token={token}").read()
        assert b"teaching.md" in contents  # the root is the repository
        with chromium_page() as page:
            page.goto(f"{base}/lab/tree/notebooks/00-start-here.ipynb?token={token}")
            page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
            page.wait_for_timeout(4000)  # the news question comes a moment after the page
            assert page.get_by_text("Would you like to get notified").count() == 0
            tabs = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tabLabel").all_inner_texts()
            assert tabs == ["00-start-here.ipynb"], tabs
    finally:
        server.terminate()
        server.wait(timeout=20)
