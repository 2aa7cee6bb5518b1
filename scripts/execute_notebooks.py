"""Run notebooks top to bottom in a fresh kernel and save them executed, without widget state.

The notebooks are committed with their outputs (so they read well on GitHub and Binder) but
without the widget state JupyterLab stores (model ids change at every run). After editing a
notebook, run it again with this script::

    python scripts/execute_notebooks.py notebooks/05-play-corona-de-hierro.ipynb
    python scripts/execute_notebooks.py            # every notebook in notebooks/

A notebook whose cell fails is left untouched on disk; the script names the cell and the
error and exits with status 1.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def execute(path: Path, timeout: int) -> float:
    """Execute ``path`` in place (the kernel's working folder is the notebook's own)."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    start = time.perf_counter()
    client.execute()
    nb.metadata.pop("widgets", None)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: notebooks/*.ipynb")
    parser.add_argument("--timeout", type=int, default=600, help="seconds a cell may take")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    from nbclient.exceptions import CellExecutionError

    for path in paths:
        if not path.is_file():
            print(f"{path}: no such notebook", file=sys.stderr)
            return 1
        print(f"{path.name} ...", end=" ", flush=True)
        try:
            seconds = execute(path, args.timeout)
        except CellExecutionError as exc:
            print("failed", flush=True)
            print(f"{path}: a cell failed, the file is unchanged:\n{exc}", file=sys.stderr)
            return 1
        print(f"{seconds:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
