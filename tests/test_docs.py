"""The examples in README.md and the docs run as written."""

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", ["README.md", "docs/engine.md"])
def test_examples_in_docs_run(name):
    result = doctest.testfile(
        str(ROOT / name),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
    )
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0, f"{result.failed} example(s) in {name} failed"
