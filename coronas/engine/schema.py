"""Checking untrusted data against declared types: action fields, saved-game JSON, bounds.

A saved game is a file someone sent you. Everything in it is checked here before it is used:
each action's fields against the types its dataclass declares, numbers and texts against
bounds, the nesting depth and the size of the file. A problem is reported with the JSON path
of the value (``actions[17].castle``), what was expected, and the value itself cut to a
readable length.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_TEXT",
    "action_checker",
    "check_depth",
    "check_int",
    "short",
]

MAX_INT = 10**9
"""The largest whole number (in absolute value) an action field or saved parameter may hold."""
MAX_TEXT = 200
"""The longest text (a castle, a card, a family) an action field may hold."""
MAX_DEPTH = 32
"""The deepest nesting of lists and objects a saved game, rule file or board file may have."""
MAX_SHOWN = 60
"""How much of a bad value an error message shows."""

Checker = Callable[[Any], "str | None"]
"""A function that returns None for a good value, or what was expected."""


def short(value: Any, limit: int = MAX_SHOWN) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages."""
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails still gets a message
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_int(value: Any, where: str, low: int = -MAX_INT, high: int = MAX_INT) -> str | None:
    """None if ``value`` is a whole number from ``low`` to ``high``, else what is wrong."""
    if isinstance(value, bool) or not isinstance(value, int):
        return f"{where}: expected a whole number, got {short(value)}"
    if not low <= value <= high:
        return f"{where}: expected a whole number from {low} to {high}, got {short(value)}"
    return None


def check_depth(data: Any, limit: int = MAX_DEPTH) -> str | None:
    """The JSON path of the first place nested deeper than ``limit``, or None."""
    # A first pass without paths (the common case: a file that is fine, checked fast).
    stack: list[tuple[Any, int]] = [(data, 0)] if isinstance(data, (list, dict)) else []
    while stack:
        value, depth = stack.pop()
        if depth >= limit:
            return _deep_path(data, limit)
        for v in value.values() if isinstance(value, dict) else value:
            if isinstance(v, (list, dict)):
                stack.append((v, depth + 1))
    return None


def _deep_path(data: Any, limit: int) -> str:
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, (list, dict)):
            if depth >= limit:
                return path or "the top level"
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for k, v in items:
                if isinstance(v, (list, dict)):
                    sub = f"{path}.{k}" if isinstance(k, str) else f"{path}[{k}]"
                    stack.append((v, sub.lstrip("."), depth + 1))
    return "the top level"


def _int(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return "a whole number"
    if not -MAX_INT <= value <= MAX_INT:
        return f"a whole number from {-MAX_INT} to {MAX_INT}"
    return None


def _str(value: Any) -> str | None:
    if not isinstance(value, str):
        return "text"
    if len(value) > MAX_TEXT:
        return f"text of at most {MAX_TEXT} characters"
    return None


def _bool(value: Any) -> str | None:
    return None if isinstance(value, bool) else "true or false"


def _none(value: Any) -> str | None:
    return None if value is None else "null"


def _fraction(value: Any) -> str | None:
    return None if isinstance(value, Fraction) else "a fraction"


def _fraction_json(value: Any) -> str | None:
    expected = 'an object {"fraction": "p/q"}'
    if not isinstance(value, dict) or set(value) != {"fraction"}:
        return expected
    text = value["fraction"]
    if not isinstance(text, str) or len(text) > 40:
        return expected
    try:
        Fraction(text)
    except (ValueError, ZeroDivisionError):
        return expected + " with a whole-number q other than 0"
    return None


def _anything(value: Any) -> str | None:
    return None


def checker_for(hint: Any, json: bool = False) -> Checker:
    """A checker for values of the type ``hint``: Python values, or with ``json`` the JSON
    data that stands for them (a list for a tuple, ``{"fraction": "p/q"}`` for a Fraction)."""
    sequence = (list,) if json else (tuple,)
    if hint is int:
        return _int
    if hint is str:
        return _str
    if hint is bool:
        return _bool
    if hint is type(None) or hint is None:
        return _none
    if hint is Fraction:
        return _fraction_json if json else _fraction
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [checker_for(a, json) for a in args]
        expected = " or ".join(_describe(a) for a in args)

        def union(value: Any) -> str | None:
            return None if any(c(value) is None for c in options) else expected

        return union
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = checker_for(args[0], json)

            expected_many = f"a list of {_plural(args[0])}"

            def many(value: Any) -> str | None:
                if not isinstance(value, sequence):
                    return expected_many
                for i, v in enumerate(value):
                    if item(v) is not None:
                        return f"{expected_many} (item {i} is not)"
                return None

            return many
        items = [checker_for(a, json) for a in args]

        def fixed(value: Any) -> str | None:
            if not isinstance(value, sequence) or len(value) != len(items):
                return f"a list of {len(items)} values"
            for i, (c, v) in enumerate(zip(items, value, strict=True)):
                problem = c(v)
                if problem is not None:
                    return f"a list of {len(items)} values whose item {i} is {problem}"
            return None

        return fixed
    return _anything


def _plural(hint: Any) -> str:
    names = {int: "whole numbers", str: "texts", bool: "true/false values"}
    return names.get(hint, "values")


def _describe(hint: Any) -> str:
    names = {int: "a whole number", str: "text", bool: "true or false", type(None): "null"}
    if hint in names:
        return names[hint]
    if typing.get_origin(hint) is tuple:
        return "a list"
    return getattr(hint, "__name__", str(hint))


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls)
    except Exception:  # names only imported for type checking: check those fields loosely
        return {}


@functools.cache
def action_checker(cls: type, json: bool = False) -> Callable[[Any], tuple[str, str] | None]:
    """A function that returns None for a well-formed ``cls`` (a dataclass), or the name of
    the first bad field and what it should hold. With ``json`` it checks a dict of JSON data
    (lists for tuples) instead of an instance."""
    hints = _hints(cls)
    fields = [(f.name, checker_for(hints.get(f.name, Any), json)) for f in dataclasses.fields(cls)]
    if json:

        def check_data(data: Mapping[str, Any]) -> tuple[str, str] | None:
            for name, check in fields:
                if name in data:
                    problem = check(data[name])
                    if problem is not None:
                        return name, problem
            return None

        return check_data

    def check(action: Any) -> tuple[str, str] | None:
        for name, c in fields:
            problem = c(getattr(action, name))
            if problem is not None:
                return name, problem
        return None

    return check
