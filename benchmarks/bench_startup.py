"""How long a user waits: ``import coronas``, one ``coronas odds`` question, every notebook.

Run from the repository root::

    python benchmarks/bench_startup.py            # a few minutes (runs every notebook)
    python benchmarks/bench_startup.py --quick    # import and command only, one notebook

* Import times are the best of several fresh interpreters, minus the start-up of a bare
  ``python -c pass`` measured in the same run.
* ``coronas odds ...`` is the whole command as a user types it (interpreter start-up included).
* Each notebook runs top to bottom in a fresh kernel (nbclient, as nbval does); the time
  includes the kernel's start-up, about 2 s.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import _machine

ROOT = _machine.repo_root()
MODULES = (
    "coronas",
    "coronas.engine",
    "coronas.hierro",
    "coronas.batalla",
    "coronas.carolus",
    "coronas.widgets",
)
COMMANDS = (
    ("odds", "risk", "10", "10"),
    ("odds", "hierro-battle", "3", "2", "--shields", "1", "0"),
    ("odds", "hierro-battle", "3", "2", "--shields", "1", "0", "--table"),
    ("odds", "batalla-battle", "3", "2", "--gold", "4", "2"),
    ("odds", "hierro-castle", "4", "--army", "3", "--shields", "1"),
    ("odds", "hierro-diplomacy", "3", "--legitimacy", "4", "--shields", "1"),
    ("odds", "carolus-draws", "3", "--at-least", "2"),
)


def best_of(command: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
        best = min(best, time.perf_counter() - start)
    return best


def run_notebook(path: Path) -> float:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    start = time.perf_counter()
    client.execute()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run, to check it works")
    args = parser.parse_args(argv)
    repeat = 2 if args.quick else 7
    python = sys.executable

    print(f"Start-up and notebook times ({_machine.machine_line()})")
    print()
    bare = best_of([python, "-c", "pass"], repeat)
    rows = [["python -c pass (subtracted below)", f"{bare * 1000:.0f} ms"]]
    for module in MODULES:
        t = best_of([python, "-c", f"import {module}"], repeat) - bare
        rows.append([f"import {module}", f"{t * 1000:.0f} ms"])
    for command in COMMANDS:
        t = best_of([python, "-m", "coronas.cli", *command], repeat)
        rows.append([f"coronas {' '.join(command)}", f"{t * 1000:.0f} ms (whole command)"])
    print(_machine.table(["what", "time"], rows))
    print()

    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    if args.quick:
        notebooks = notebooks[:1]
    rows = []
    total = 0.0
    for path in notebooks:
        t = run_notebook(path)
        total += t
        rows.append([path.name, f"{t:.1f} s"])
    rows.append(
        ["all of them" if not args.quick else "(--quick: first notebook only)", f"{total:.1f} s"]
    )
    print(_machine.table(["notebook (fresh kernel, top to bottom)", "time"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
