"""``coronas app``: the companion for the table, a Voilà web app on this computer.

It serves the notebook shipped inside the package, ``coronas/apps/companion.ipynb`` (package
data, so an installed coronas finds it too; the repository's ``apps/companion.ipynb`` links to
it for Binder), with Voilà on 127.0.0.1, on a free port unless ``--port``; prints the address
and opens it in the browser unless ``--no-browser``. Voilà replaces the ``coronas`` process,
so Ctrl-C or a stop signal for that process stops the server.

Voilà keeps one kernel pre-heated: it has already run the app's notebook when a page asks
for it, so the first answer waits only for the page itself (``benchmarks/bench_companion.py``
measures it).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import sys
from pathlib import Path
from typing import Any

from coronas.cli._base import CommandError, whole

__all__ = ["INSTALL_HINT", "add_parser", "notebook_path", "run", "voila_command"]

INSTALL_HINT = "pip install 'coronas[app]'"
"""How to get Voilà, said when it is missing."""


def notebook_path() -> Path:
    """The companion's notebook inside the installed package."""
    return Path(__file__).resolve().parent.parent / "apps" / "companion.ipynb"


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def voila_command(notebook: Path, port: int, browser: bool) -> list[str]:
    """The command that serves ``notebook`` with Voilà on 127.0.0.1:``port``."""
    command = [
        sys.executable,
        "-m",
        "voila",
        str(notebook),
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--VoilaConfiguration.show_tracebacks=True",
        "--VoilaConfiguration.preheat_kernel=True",
    ]
    if not browser:
        command.append("--no-browser")
    return command


def run(args: argparse.Namespace) -> int:
    """Replace this process by Voilà serving the companion (it runs until stopped)."""
    if importlib.util.find_spec("voila") is None:
        raise CommandError(f"the app needs Voila, which is not installed: {INSTALL_HINT}")
    notebook = notebook_path()
    if not notebook.is_file():
        raise CommandError(f"the app's notebook is missing from the package: {notebook}")
    port = args.port or free_port()
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)  # the kernel would inherit it
    print(f"The companion: http://127.0.0.1:{port}/  (Ctrl-C stops it)", flush=True)
    # Voila takes this process's place: Ctrl-C and a stop signal reach the server itself
    os.chdir(notebook.parent)
    command = voila_command(notebook, port, browser=not args.no_browser)
    os.execve(command[0], command, env)
    return 0  # not reached: execve returns only by raising OSError


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "app",
        help="the companion for the table: exact odds mid-game, in the browser (Voila)",
        description="Serve the companion app (a Voila page, phone-sized) on 127.0.0.1.",
    )
    p.add_argument(
        "--port",
        type=whole(1024, 65535),
        default=None,
        help="the port, 1024 to 65535 (default: a free one)",
    )
    p.add_argument(
        "--no-browser", action="store_true", help="print the address, do not open a browser"
    )
    p.set_defaults(func=run, _parser=p)
