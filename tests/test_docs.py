"""Every example in README.md and docs/*.md runs as written.

Each fenced block of a doc is one of:

* Python with ``>>>`` prompts: run by doctest, the printed output compared (``...`` elides
  what is not deterministic);
* Python without prompts: executed, its names kept for the file's later blocks;
* a shell block (```bash, or any block whose lines start ``$ ``): each ``coronas ...``
  command is run as ``python -m coronas.cli ...`` in a temporary directory shared by the
  file's blocks, its exit status checked, and the output the doc shows under a ``$`` command
  compared with what the command prints (``...`` elides, whitespace is normalised, progress
  bars are ignored);
* anything else (JSON, a diagram, a console transcript without ``$``): not a command.

A block that cannot run here (it installs packages, starts a server, waits for Ctrl-C, runs
for minutes) has ``<!-- not run: the reason -->`` on a line of its own just before it. An
unmarked shell block with a command other than ``coronas`` fails the test.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob("docs/*.md"))]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
NOT_RUN = re.compile(r"<!--\s*not run:\s*\S.*-->")
PROGRESS = re.compile(r"\d+%\|")  # a tqdm bar: "hierro games:  19%|█▉   | 77/400 ..."
SHELLS = {"bash", "sh", "shell"}


@dataclass
class Block:
    """One fenced block of a doc: its language, first line number (1-based, the line after
    the fence), its text with the fence's indentation removed, and whether it is marked not
    to be run."""

    lang: str
    line: int
    text: str
    skipped: bool


def blocks(name: str) -> list[Block]:
    """The fenced blocks of ``name`` in order."""
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    found = []
    i = 0
    while i < len(lines):
        opening = re.match(r"^(\s*)```(\S*)", lines[i])
        if not opening:
            i += 1
            continue
        indent, lang = opening.group(1), opening.group(2).lower()
        # the marker: an HTML comment among the comment lines just above the fence
        j, skipped = i - 1, False
        while j >= 0 and lines[j].strip().startswith("<!--"):
            skipped = skipped or bool(NOT_RUN.search(lines[j]))
            j -= 1
        body, i = [], i + 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            line = lines[i]
            body.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
            i += 1
        found.append(Block(lang, i - len(body) + 1, "\n".join(body) + "\n", skipped))
        i += 1
    return found


def is_shell(block: Block) -> bool:
    """A shell block: declared so, or a transcript whose commands start with ``$ ``."""
    prompted = any(line.startswith("$ ") for line in block.text.splitlines())
    if block.lang == "console" or block.lang == "":
        return prompted  # without a prompt: output shown alone, not a command
    return block.lang in SHELLS


def commands(block: Block) -> list[tuple[str, str | None]]:
    """The block's commands, each with the output the doc shows after it (None when the
    block shows none: a ```bash block, or a command with nothing under it)."""
    lines = block.text.splitlines()
    if not any(line.startswith("$ ") for line in lines):
        # a script: every line a command (a trailing backslash continues it)
        out, joined = [], ""
        for line in lines:
            joined += line.rstrip()
            if joined.endswith("\\"):
                joined = joined[:-1] + " "
                continue
            if joined.strip() and not joined.lstrip().startswith("#"):
                out.append((joined.strip(), None))
            joined = ""
        return out
    out = []
    for line in lines:
        if line.startswith("$ "):
            out.append([line[2:].strip(), []])
        elif out:
            out[-1][1].append(line)
    return [(cmd, "\n".join(shown).strip("\n") or None) for cmd, shown in out]


def argv(command: str) -> list[str] | None:
    """The command as the arguments of this interpreter's ``coronas`` entry point, or None
    when it is not a ``coronas`` command."""
    words = shlex.split(command, comments=True)
    if not words or Path(words[0]).name != "coronas" or "|" in words or "&&" in words:
        return None
    if words[1:2] == ["train"] and "--out" not in words:
        return None  # it would rewrite the package's own model files
    return [sys.executable, "-m", "coronas.cli", *words[1:]]


def compare(shown: str, printed: str) -> bool:
    """Whether the printed output fits the doc's, with ``...`` eliding and whitespace
    normalised (a doc may wrap a long line); progress bars and trailing blanks ignored."""
    keep = "\n".join(line for line in shown.splitlines() if not PROGRESS.search(line)).strip()
    return doctest.OutputChecker().check_output(keep + "\n", printed.strip() + "\n", FLAGS)


@pytest.mark.parametrize("name", DOCS)
def test_examples_in_docs_run(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    monkeypatch.setenv("MPLBACKEND", "Agg")
    globs: dict = {"__name__": "__docs__"}
    failures: list[str] = []
    ran = 0
    for block in blocks(name):
        where = f"{name}, line {block.line}"
        if block.skipped:
            continue
        if block.lang in {"python", "py", "pycon"} and ">>>" in block.text:
            test = doctest.DocTestParser().get_doctest(
                block.text, globs, where, name, block.line - 1
            )
            runner = doctest.DocTestRunner(optionflags=FLAGS)
            report: list[str] = []
            runner.run(test, out=report.append, clear_globs=False)
            globs.update(test.globs)  # doctest ran on a copy; later blocks use its names
            ran += runner.tries
            if runner.failures:
                failures.append("".join(report))
        elif block.lang in {"python", "py"}:
            ran += 1
            try:
                exec(compile(block.text, where, "exec"), globs)
            except Exception as error:
                failures.append(f"{where}: {type(error).__name__}: {error}")
        elif is_shell(block):
            listed = commands(block)
            strange = [command for command, _ in listed if argv(command) is None]
            if strange:
                failures.append(
                    f"{where}: {strange[0]!r} is not a coronas command; mark the block "
                    "<!-- not run: why --> or make it one"
                )
                continue
            for command, shown in listed:
                ran += 1
                try:
                    done = subprocess.run(
                        argv(command), capture_output=True, text=True, env=env, timeout=60
                    )
                except subprocess.TimeoutExpired:
                    failures.append(f"{where}: {command!r} took more than 60 s")
                    continue
                if done.returncode != 0:
                    failures.append(
                        f"{where}: {command!r} exited {done.returncode}: {done.stderr.strip()}"
                    )
                elif shown is not None and not compare(shown, done.stdout):
                    failures.append(
                        f"{where}: {command!r} printed\n{done.stdout}\nwhere the doc shows\n{shown}"
                    )
    assert not failures, "\n\n".join(failures)
    if name in {"README.md", "docs/cli.md", "docs/engine.md"}:
        assert ran > 0, f"{name} has no examples that run"


def test_an_unmarked_failing_block_fails(tmp_path, monkeypatch):
    # the parser sees the marker only on the line just above a fence
    doc = tmp_path / "doc.md"
    doc.write_text(
        "<!-- not run: starts a server -->\n```bash\npip install x\n```\n\n"
        "```bash\npip install y\n```\n\n```console\n$ coronas odds risk 1 1\nP: ...\n```\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    found = blocks("doc.md")
    assert [b.skipped for b in found] == [True, False, False]
    assert argv(commands(found[1])[0][0]) is None
    assert commands(found[2]) == [("coronas odds risk 1 1", "P: ...")]
    assert is_shell(found[2]) and not is_shell(Block("console", 1, "3 of 4 games...\n", False))
    assert compare("a ...\nhierro games: 100%|███| 4/4\nb", "a x y\nb")
    assert not compare("a\nb", "a\nc")
