"""Rule sets: a game's every number and variant as a frozen dataclass, read from and written to
plain JSON data with each field checked.

Every field has a range, so that a rule set that can be built is a game that can be played
to its end in bounded time and memory. A game declares a field's range as data::

    militia_max: int = bounded(5, 1, 20)
    dragon_costs: tuple[int, ...] = bounded((2, 3, 4, 5, 6), 1, 100, length=(1, 20))

and the rule set checks it when it is built (``Rules(...)``, ``from_dict``, ``load``), before
the game's own checks; a field without a declared range gets the default one for its kind
(:data:`DEFAULT_INT_RANGE`, :data:`DEFAULT_LENGTH`, :data:`~coronas.engine.schema.MAX_TEXT`).
A value outside its range raises :class:`RulesError` naming the field, the range and the value.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from coronas.engine.errors import RulesError
from coronas.engine.schema import MAX_TEXT, short
from coronas.engine.textfile import parse_json, read_text_file
from coronas.formatting import listing

__all__ = ["DEFAULT_INT_RANGE", "DEFAULT_LENGTH", "RuleSet", "bounded"]

DEFAULT_INT_RANGE = (-1000, 1000)
"""The range of a whole-number rule field (or list item) that declares none."""
DEFAULT_LENGTH = (0, 100)
"""The length range of a list or table rule field that declares none."""


def bounded(
    default: Any,
    low: int | None = None,
    high: int | None = None,
    *,
    length: tuple[int, int] | None = None,
) -> Any:
    """A rule field whose whole numbers (the value, or each item of a list or table) lie from
    ``low`` to ``high``, and whose list or table has a ``length`` range. ``default`` is the
    value, or a function that makes it (for a table, which must not be shared)."""
    metadata: dict[str, Any] = {}
    if low is not None or high is not None:
        lo, hi = DEFAULT_INT_RANGE
        metadata["range"] = (lo if low is None else low, hi if high is None else high)
    if length is not None:
        metadata["length"] = length
    if callable(default):  # a factory for a mutable default, such as a table
        return dataclasses.field(default_factory=default, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


R = TypeVar("R", bound="RuleSet")


class RuleSet:
    """Mixin for a game's frozen rule-set dataclass: conversion to and from plain data.

    Every number and variant of a game lives in its rule set. ``to_dict`` gives JSON-ready
    data; ``from_dict`` and ``load`` check every field and raise :class:`RulesError` naming
    the file, the field and what was expected.

    Each field's range is checked when the rule set is built (see :func:`bounded`), then the
    game's own ``__post_init__`` checks run; any ``ValueError`` they raise becomes a
    :class:`RulesError`.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("__post_init__")
        if own is None or getattr(own, "_checks_ranges", False):
            return

        @functools.wraps(own)
        def post_init(self: RuleSet) -> None:
            self._check_ranges()
            try:
                own(self)
            except RulesError:
                raise
            except (ValueError, TypeError) as exc:
                raise RulesError(str(exc)) from None

        post_init._checks_ranges = True  # type: ignore[attr-defined]
        cls.__post_init__ = post_init  # type: ignore[attr-defined]

    def __post_init__(self) -> None:
        self._check_ranges()

    def _check_ranges(self) -> None:
        """Refuse a field whose value is not of its default's kind or is outside its range."""
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            like = _default(f, value)
            problem = _out_of_range(value, like, f.metadata)
            if problem is not None:
                raise RulesError(f"{f.name}: {problem}")

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls: type[R], data: Mapping[str, Any], source: str = "rules") -> R:
        if not isinstance(data, Mapping):
            raise RulesError(f"{source}: expected an object of rule fields, got {short(data)}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise RulesError(
                f"{source}: unknown field(s) {listing(map(short, unknown[:5]), 'and')}; "
                f"the fields are {listing(sorted(fields), 'and')}"
            )
        defaults = cls()
        values = {}
        for name, value in data.items():
            expected = getattr(defaults, name)
            values[name] = _coerce(value, expected, f"{source}: field {name!r}")
        try:
            return dataclasses.replace(defaults, **values)
        except (TypeError, ValueError) as exc:
            raise RulesError(f"{source}: {exc}") from None

    @classmethod
    def load(cls: type[R], path: str | Path) -> R:
        """Read a rule set from a JSON file; fields left out keep their defaults."""
        text = read_text_file(path, RulesError, "rule file")
        data = parse_json(text, str(path), RulesError)
        return cls.from_dict(data, source=str(Path(path)))

    def replace(self: R, **changes: Any) -> R:
        """A copy with some fields changed (the rule set itself is immutable)."""
        return type(self).from_dict({**self.to_dict(), **changes})


def _default(f: dataclasses.Field, value: Any) -> Any:
    """A field's default value, the model of what kind of value it holds."""
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return value


def _int_problem(value: Any, low: int, high: int) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return f"expected a whole number, got {short(value)}"
    if not low <= value <= high:
        return f"expected a whole number from {low} to {high}, got {short(value)}"
    return None


def _out_of_range(value: Any, like: Any, meta: Mapping[str, Any]) -> str | None:
    """What is wrong with the rule value ``value`` whose default is ``like``, or None."""
    low, high = meta.get("range", DEFAULT_INT_RANGE)
    if isinstance(like, bool):
        return None if isinstance(value, bool) else f"expected true or false, got {short(value)}"
    if isinstance(like, int):
        return _int_problem(value, low, high)
    if isinstance(like, str):
        if not isinstance(value, str):
            return f"expected text, got {short(value)}"
        if len(value) > MAX_TEXT:
            return f"expected text of at most {MAX_TEXT} characters"
        return None
    if isinstance(like, (tuple, Mapping)):
        kind = "list" if isinstance(like, tuple) else "table"
        if not isinstance(value, tuple if isinstance(like, tuple) else Mapping):
            return f"expected a {kind}, got {short(value)}"
        shortest, longest = meta.get("length", DEFAULT_LENGTH)
        if not shortest <= len(value) <= longest:
            return f"expected a {kind} of {shortest} to {longest} entries, got {len(value)}"
        items = list(value.values()) if isinstance(value, Mapping) else list(value)
        if isinstance(value, Mapping):
            for k in value:
                if not isinstance(k, str) or len(k) > MAX_TEXT:
                    return f"expected names of at most {MAX_TEXT} characters, got {short(k)}"
        samples = list(like.values()) if isinstance(like, Mapping) else list(like)
        for i, item in enumerate(items):
            sample = samples[0] if samples else item
            problem = _out_of_range(item, sample, meta)
            if problem is not None:
                return f"entry {i}: {problem}"
        return None
    return None


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _coerce(value: Any, like: Any, where: str) -> Any:
    """Convert JSON data to the type of the default value ``like``, or raise RulesError."""
    if isinstance(like, bool):
        if not isinstance(value, bool):
            raise RulesError(f"{where}: expected true or false, got {short(value)}")
        return value
    if isinstance(like, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{where}: expected a whole number, got {short(value)}")
        return value
    if isinstance(like, str):
        if not isinstance(value, str):
            raise RulesError(f"{where}: expected text, got {short(value)}")
        return value
    if isinstance(like, tuple):
        if not isinstance(value, (list, tuple)):
            raise RulesError(f"{where}: expected a list, got {short(value)}")
        if like:
            return tuple(_coerce(v, like[0], f"{where}[{i}]") for i, v in enumerate(value))
        return tuple(value)
    if isinstance(like, Mapping):
        if not isinstance(value, Mapping):
            raise RulesError(f"{where}: expected an object, got {short(value)}")
        sample = next(iter(like.values()), None)
        if sample is None:
            return dict(value)
        return {k: _coerce(v, sample, f"{where}[{k!r}]") for k, v in value.items()}
    if dataclasses.is_dataclass(like):
        if not isinstance(value, Mapping):
            raise RulesError(f"{where}: expected an object, got {short(value)}")
        return type(like)(
            **{
                f.name: _coerce(
                    value.get(f.name, getattr(like, f.name)),
                    getattr(like, f.name),
                    f"{where}.{f.name}",
                )
                for f in dataclasses.fields(like)
            }
        )
    return value
