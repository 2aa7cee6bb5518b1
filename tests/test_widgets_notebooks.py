"""The teaching notebooks are committed executed (outputs show on GitHub), stripped of widget
state (model ids change at every run), and each says first what it teaches.
``scripts/execute_notebooks.py`` saves an edited notebook that way."""

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted(
    (Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9][0-9]-*.ipynb")
)


def test_the_notebooks_are_numbered_from_00_without_gaps():
    assert [p.name[:2] for p in NOTEBOOKS] == [f"{i:02d}" for i in range(9)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_executed_stripped_and_introduced(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert "widgets" not in nb["metadata"], "widget state must be stripped before committing"
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    counts = [c["execution_count"] for c in code]
    assert all(counts), f"cells never run: {[i for i, n in enumerate(counts) if not n]}"
    assert counts == sorted(counts), "cells must have run top to bottom in one kernel"
    errors = [o for c in code for o in c["outputs"] if o["output_type"] == "error"]
    assert not errors, errors[0].get("ename") if errors else ""
    first = "".join(nb["cells"][0]["source"])
    assert nb["cells"][0]["cell_type"] == "markdown" and "minute" in first
    assert any("NBVAL_CHECK_OUTPUT" in "".join(c["source"]) for c in code)
