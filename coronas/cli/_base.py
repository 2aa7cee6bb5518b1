"""What every command shares: the parser that never prints a traceback, numbers checked
against their documented limits, and exact probabilities as ``7/12 (58.33%)``."""

from __future__ import annotations

import argparse
import difflib
import os
import re
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any, NoReturn

from coronas.formatting import plural, probability_text

__all__ = [
    "MAX_ERROR",
    "CommandError",
    "Parser",
    "count",
    "cpu_count",
    "cut",
    "fmt",
    "table_text",
    "whole",
]

MAX_ERROR = 300
"""The longest error message printed, in characters (the rest is cut)."""


class CommandError(Exception):
    """A mistake in what the user asked for: printed on one line, exit status 2."""


def cut(text: str, limit: int = MAX_ERROR) -> str:
    """``text`` on one line, at most ``limit`` characters (``...`` marks a cut)."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3].rstrip() + "..."


def _nearest(word: str, choices: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr (exit status 2) that suggests the
    nearest command or option when one is close."""

    def error(self, message: str) -> NoReturn:
        see = f" (see {self.prog} --help)"
        self.exit(2, cut(f"{self.prog}: error: {message}", MAX_ERROR - len(see)) + see + "\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is None or value in action.choices:
            return
        names = [str(c) for c in action.choices]
        if isinstance(action, argparse._SubParsersAction):
            names = [a.dest for a in action._choices_actions if a.help != argparse.SUPPRESS]
        near = _nearest(str(value), names)
        hint = f"; did you mean {near!r}?" if near else ""
        raise argparse.ArgumentError(
            action, f"invalid choice: {cut(repr(value), 40)}{hint} (choose from {', '.join(names)})"
        )

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            parser = getattr(parsed, "_parser", self)
            options = [
                o for a in parser._actions if a.help != argparse.SUPPRESS for o in a.option_strings
            ]
            message = f"unrecognized arguments: {' '.join(extra)}"
            for word in extra:
                near = _nearest(word.split("=", 1)[0], options) if word.startswith("-") else None
                if near:
                    message += f"; did you mean {near}?"
                    break
            parser.error(message)
        return parsed


def cpu_count() -> int:
    """The CPUs this process may use (the ``--jobs`` limit)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def whole(low: int, high: int | Callable[[], int]) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high`` (a number, or a function
    giving it), refused at parse time with a message naming the limits."""

    def parse(text: str) -> int:
        top = high() if callable(high) else high
        if not re.fullmatch(r"\s*[-+]?\d{1,30}\s*", text):
            raise argparse.ArgumentTypeError(
                f"expected a whole number from {low} to {top}, got {cut(repr(text), 40)}"
            )
        value = int(text)
        if not low <= value <= top:
            raise argparse.ArgumentTypeError(
                f"expected a whole number from {low} to {top}, got {value}"
            )
        return value

    parse.__name__ = "whole number"
    return parse


fmt = probability_text
count = plural


def table_text(table: Any, show: Callable[[Fraction], str] = fmt) -> str:
    """A :class:`~coronas.dice.ProbTable` as aligned text, each probability as ``show`` writes
    it (``fmt`` unless told: the same in every table the command line prints)."""
    header = [list(table.header)] if table.header else []
    body = [[show(c) if isinstance(c, Fraction) else str(c) for c in row] for row in table.rows]
    lines = header + body
    if not lines:
        return ""
    widths = [max(len(r[i]) for r in lines if i < len(r)) for i in range(len(lines[0]))]
    return "\n".join(
        " ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)).rstrip() for r in lines
    )
