"""Rule sets: a game's every number and variant as a frozen dataclass, read from and written to
plain JSON data with each field checked."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from coronas.engine.errors import RulesError

__all__ = ["RuleSet"]

R = TypeVar("R", bound="RuleSet")


class RuleSet:
    """Mixin for a game's frozen rule-set dataclass: conversion to and from plain data.

    Every number and variant of a game lives in its rule set. ``to_dict`` gives JSON-ready
    data; ``from_dict`` and ``load`` check every field and raise :class:`RulesError` naming
    the file, the field and what was expected.
    """

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls: type[R], data: Mapping[str, Any], source: str = "rules") -> R:
        if not isinstance(data, Mapping):
            raise RulesError(f"{source}: expected an object of rule fields, got {data!r}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise RulesError(
                f"{source}: unknown field(s) {unknown}; the fields are {sorted(fields)}"
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
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise RulesError(f"{path}: cannot read the file ({exc.strerror})") from None
        except json.JSONDecodeError as exc:
            raise RulesError(
                f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
            ) from None
        return cls.from_dict(data, source=str(path))

    def replace(self: R, **changes: Any) -> R:
        """A copy with some fields changed (the rule set itself is immutable)."""
        return type(self).from_dict({**self.to_dict(), **changes})


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
            raise RulesError(f"{where}: expected true or false, got {value!r}")
        return value
    if isinstance(like, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{where}: expected a whole number, got {value!r}")
        return value
    if isinstance(like, str):
        if not isinstance(value, str):
            raise RulesError(f"{where}: expected text, got {value!r}")
        return value
    if isinstance(like, tuple):
        if not isinstance(value, (list, tuple)):
            raise RulesError(f"{where}: expected a list, got {value!r}")
        if like:
            return tuple(_coerce(v, like[0], f"{where}[{i}]") for i, v in enumerate(value))
        return tuple(value)
    if isinstance(like, Mapping):
        if not isinstance(value, Mapping):
            raise RulesError(f"{where}: expected an object, got {value!r}")
        sample = next(iter(like.values()), None)
        if sample is None:
            return dict(value)
        return {k: _coerce(v, sample, f"{where}[{k!r}]") for k, v in value.items()}
    if dataclasses.is_dataclass(like):
        if not isinstance(value, Mapping):
            raise RulesError(f"{where}: expected an object, got {value!r}")
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
