"""A throwaway JupyterLab server and a headless Chromium to drive notebooks as a person would.

The server runs on a free port of 127.0.0.1 with a random token, with its own configuration,
data, runtime, settings and workspace folders in a temporary directory, and serves *copies*
of the notebooks (JupyterLab autosaves what it runs). Settings turn off the news pop-up and
render every cell (no windowing), so the page holds the whole notebook.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
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
def lab_server(
    notebooks: Sequence[Path], workdir: Path, extra_files: Sequence[Path] = ()
) -> Iterator[LabServer]:
    """Start JupyterLab serving copies of ``notebooks`` (and ``extra_files``); stop it after."""
    root = workdir / "root"
    root.mkdir(parents=True)
    for path in [*notebooks, *extra_files]:
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
        _wait_until_up(server, timeout=90)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_until_up(server: LabServer, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited at start-up:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(server.url("api/status"), timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"JupyterLab did not answer within {timeout} s:\n{server.log_tail()}")


@contextlib.contextmanager
def chromium_page(viewport: tuple[int, int] = (1280, 1000)) -> Iterator[Any]:
    """A fresh page of Debian's headless Chromium, driven by Playwright."""
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


def run_all_cells(page: Any, server: LabServer, notebook: str, timeout_s: float = 120) -> None:
    """Open ``notebook``, wait for its kernel, run every cell and wait until all have run.

    Fails with the notebook's first error output if a cell raised.
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
    except Exception as exc:
        prompts = page.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
        raise AssertionError(
            f"{notebook}: not every cell ran within {timeout_s} s; prompts: {prompts}"
        ) from exc
    for text in page.locator(_STDERR).all_inner_texts():
        if "Traceback" in text or re.search(r"^\w*(Error|Exception)\b", text, re.M):
            raise AssertionError(f"{notebook}: a cell failed in the browser:\n{text[:3000]}")


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
