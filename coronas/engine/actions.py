"""Actions and chance outcomes: frozen dataclasses with a readable ``str``, and their JSON form."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from coronas.engine.errors import SaveFileError
from coronas.formatting import listing

__all__ = ["Action", "action_from_dict", "action_to_dict", "jsonable"]


@dataclasses.dataclass(frozen=True)
class Action:
    """Base class for actions and chance outcomes: a frozen dataclass with a readable str."""

    def __str__(self) -> str:  # games override with their own wording
        fields = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self))
        return f"{type(self).__name__}({fields})"


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    return value


def jsonable(value: Any) -> Any:
    """Position data as JSON-ready data: tuples and sets as lists, dict keys as text,
    dataclasses (actions) as ``{"type": name, field: value}``, Fractions as
    ``{"fraction": "p/q"}``."""
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(v) for v in value), key=repr)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"type": type(value).__name__, **jsonable(dataclasses.asdict(value))}
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    return value


def _unjson(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_unjson(v) for v in value)
    if isinstance(value, dict) and set(value) == {"fraction"}:
        return Fraction(value["fraction"])
    return value


def action_to_dict(action: Any) -> dict[str, Any]:
    """A JSON-ready dict for an action dataclass: ``{"type": name, field: value, ...}``."""
    if not dataclasses.is_dataclass(action):
        raise TypeError(f"actions must be dataclasses, got {action!r}")
    out = {"type": type(action).__name__}
    for f in dataclasses.fields(action):
        out[f.name] = _jsonable(getattr(action, f.name))
    return out


@functools.cache
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(cls))


def action_from_dict(data: Mapping[str, Any], types: Iterable[type]) -> Any:
    """Rebuild an action from :func:`action_to_dict` output, given the game's action types."""
    by_name = types if isinstance(types, Mapping) else {t.__name__: t for t in types}
    if not isinstance(data, Mapping) or "type" not in data:
        raise SaveFileError(f"an action must be an object with a 'type' field, got {data!r}")
    kind = data["type"]
    cls = by_name.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise SaveFileError(
            f"unknown action type {kind!r}; expected one of {listing(sorted(by_name))}"
        )
    extra = set(data) - _field_names(cls) - {"type"}
    if extra:
        raise SaveFileError(f"action {kind} has unknown fields {listing(sorted(extra), 'and')}")
    try:
        return cls(**{k: _unjson(v) for k, v in data.items() if k != "type"})
    except TypeError as exc:
        raise SaveFileError(f"action {kind}: {exc}") from None
