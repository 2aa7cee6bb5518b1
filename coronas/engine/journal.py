"""The undo log: each ``apply`` records only what it changes, and ``undo`` plays it backwards.

A state's data lives in its attributes. Values are immutable (ints, strings, tuples, frozen
dataclasses, None) or containers. Containers are kept as :class:`LoggedList` and
:class:`LoggedDict`, subclasses of ``list`` and ``dict`` that behave exactly like them and, while
an ``apply`` is under way, write the old value of every entry they change into the current
undo record. Assigning an attribute of a :class:`Journaled` object records its old value the
same way. A plain list or dict stored during an ``apply`` is made logged when the ``apply``
ends (:func:`seal_record`), and at once when stored outside one, so nothing reachable from
the state escapes the log.

A record is a tuple of entries ``(target, kind, key, old)``; replaying a record backwards
restores the state as it was before the ``apply``.

The record under way belongs to a thread (:data:`_now`, a :class:`threading.local`): threads
that apply actions to separate states at the same moment (a search in a worker thread while
the player moves) each write their own record. Two threads must still never change the same
state at once: each works on its own copy (:meth:`State.clone
<coronas.engine.State.clone>`). This is python-chess's ``push``/``pop`` in
spirit: the cost of an ``apply`` and of its ``undo`` is the size of the change, not the size of
the state.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any, ClassVar

__all__ = [
    "Journaled",
    "KeyCache",
    "LoggedDict",
    "LoggedList",
    "copy_record",
    "copy_value",
    "end_record",
    "logged",
    "seal_record",
    "start_record",
    "undo_record",
]

_MISSING: Any = object()
"""The old value of an entry or attribute that did not exist."""

# Kinds of entries in a record.
_ATTR, _KEY, _ITEM, _LEN, _LIST, _DICT = range(6)


class _Record(list):
    """The entries of an ``apply`` under way, and whether it stored a plain list or dict
    (which then needs sealing)."""

    __slots__ = ("loose",)


class _Now(threading.local):
    """The ``apply`` under way in one thread: each thread sees its own :attr:`record`."""

    def __init__(self) -> None:
        self.record: _Record | None = None
        """The record of the ``apply`` under way in this thread, or None outside one."""


_now = _Now()
_PLAIN = (list, dict)


def start_record() -> _Record | None:
    """Begin a record for an ``apply`` in this thread; returns the one it replaces (for
    nested applies)."""
    now = _now
    previous = now.record
    record = now.record = _Record()
    record.loose = False
    return previous


def end_record(previous: _Record | None) -> tuple[tuple, bool]:
    """Finish this thread's current record and make ``previous`` current again; returns the
    record and whether it stored plain containers (see :func:`seal_record`)."""
    now = _now
    record = now.record
    now.record = previous
    return (tuple(record) if record else ()), record.loose


def _mark(record: _Record, value: Any) -> None:
    """Note that ``record`` stored ``value``, if it is a plain container (``list``, the type
    itself, stands for values whose items are not looked at)."""
    if value is list or type(value) in _PLAIN:
        record.loose = True


def logged(value: Any) -> Any:
    """``value`` with every plain list and dict inside it (not inside tuples) made logged."""
    t = type(value)
    if t is list:
        return LoggedList(logged(v) for v in value)
    if t is dict:
        return LoggedDict((k, logged(v)) for k, v in value.items())
    return value


class LoggedList(list):
    """A list whose changes during an ``apply`` go into the undo record."""

    __slots__ = ()

    def __setitem__(self, index: Any, value: Any) -> None:
        record = _now.record
        if record is None:
            value = logged(value) if type(index) is int else [logged(v) for v in value]
        elif type(index) is int:
            record.append((self, _ITEM, index, list.__getitem__(self, index)))
            if type(value) in _PLAIN:
                _mark(record, value)
        else:
            record.append((self, _LIST, None, list(self)))
            _mark(record, list)
        list.__setitem__(self, index, value)

    def _whole(self) -> None:
        record = _now.record
        if record is not None:
            record.append((self, _LIST, None, list(self)))

    def append(self, value: Any) -> None:
        record = _now.record
        if record is not None:
            record.append((self, _LEN, len(self), None))
            _mark(record, value)
            list.append(self, value)
        else:
            list.append(self, logged(value))

    def extend(self, values: Iterable[Any]) -> None:
        record = _now.record
        if record is not None:
            record.append((self, _LEN, len(self), None))
            _mark(record, list)
            list.extend(self, values)
        else:
            list.extend(self, [logged(v) for v in values])

    def __iadd__(self, values: Iterable[Any]) -> LoggedList:
        self.extend(values)
        return self

    def __delitem__(self, index: Any) -> None:
        self._whole()
        list.__delitem__(self, index)

    def insert(self, index: int, value: Any) -> None:
        record = _now.record
        if record is not None:
            record.append((self, _LIST, None, list(self)))
            _mark(record, value)
            list.insert(self, index, value)
        else:
            list.insert(self, index, logged(value))

    def pop(self, index: int = -1) -> Any:
        self._whole()
        return list.pop(self, index)

    def remove(self, value: Any) -> None:
        self._whole()
        list.remove(self, value)

    def clear(self) -> None:
        self._whole()
        list.clear(self)

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self._whole()
        list.sort(self, *args, **kwargs)

    def reverse(self) -> None:
        self._whole()
        list.reverse(self)

    def __imul__(self, n: int) -> LoggedList:
        self._whole()
        list.__imul__(self, n)
        return self

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (LoggedList, (list(self),))


class LoggedDict(dict):
    """A dict whose changes during an ``apply`` go into the undo record."""

    __slots__ = ()

    def __setitem__(self, key: Any, value: Any) -> None:
        record = _now.record
        if record is not None:
            record.append((self, _KEY, key, dict.get(self, key, _MISSING)))
            if type(value) in _PLAIN:
                _mark(record, value)
            dict.__setitem__(self, key, value)
        else:
            dict.__setitem__(self, key, logged(value))

    def __delitem__(self, key: Any) -> None:
        record = _now.record
        if record is not None and key in self:
            record.append((self, _KEY, key, dict.__getitem__(self, key)))
        dict.__delitem__(self, key)

    def pop(self, key: Any, *default: Any) -> Any:
        record = _now.record
        if record is not None and key in self:
            record.append((self, _KEY, key, dict.__getitem__(self, key)))
        return dict.pop(self, key, *default)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return dict.__getitem__(self, key)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for k, v in dict(*args, **kwargs).items():
            self[k] = v

    def __ior__(self, other: Any) -> LoggedDict:
        self.update(other)
        return self

    def _whole(self) -> None:
        record = _now.record
        if record is not None:
            record.append((self, _DICT, None, dict(self)))

    def popitem(self) -> tuple[Any, Any]:
        self._whole()
        return dict.popitem(self)

    def clear(self) -> None:
        self._whole()
        dict.clear(self)

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (LoggedDict, (dict(self),))


_CONTAINERS = (LoggedList, LoggedDict)


def undo_record(owner: Any, record: tuple) -> None:
    """Restore ``owner`` (and its containers) to what they were before ``record``."""
    data = owner.__dict__
    for target, kind, key, old in reversed(record):
        if kind == _ATTR:
            if old is _MISSING:
                data.pop(key, None)
            else:
                data[key] = old
        elif kind == _KEY:
            if old is _MISSING:
                dict.pop(target, key, None)
            else:
                dict.__setitem__(target, key, old)
        elif kind == _ITEM:
            list.__setitem__(target, key, old)
        elif kind == _LEN:
            list.__delitem__(target, slice(key, None))
        elif kind == _LIST:
            list.__setitem__(target, slice(None), old)
        else:
            dict.clear(target)
            dict.update(target, old)


def _plain(value: Any) -> bool:
    t = type(value)
    return t is list or t is dict


def seal_record(owner: Any, record: tuple) -> None:
    """Turn the plain lists and dicts that ``record``'s changes stored into logged ones.

    During an ``apply`` containers are stored as given, so that code may keep filling a list
    it has just assigned; once the ``apply`` is over, what it stored is made logged, so the
    next ``apply`` records its changes too.
    """
    data = owner.__dict__
    for target, kind, key, _old in record:
        if kind == _ATTR:
            if _plain(data.get(key)):
                data[key] = logged(data[key])
        elif kind == _KEY:
            if _plain(dict.get(target, key)):
                dict.__setitem__(target, key, logged(dict.__getitem__(target, key)))
        elif kind == _ITEM:
            if _plain(list.__getitem__(target, key)):
                list.__setitem__(target, key, logged(list.__getitem__(target, key)))
        elif kind in (_LEN, _LIST):
            for i in range(key or 0, len(target)):
                if _plain(list.__getitem__(target, i)):
                    list.__setitem__(target, i, logged(list.__getitem__(target, i)))
        else:
            for k, v in dict.items(target):
                if _plain(v):
                    dict.__setitem__(target, k, logged(v))


def copy_value(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of ``value`` with new logged containers (immutable values are shared).

    ``memo`` maps the ids of containers already copied to their copies, so that a container
    reached twice (from the data and from the undo records) is copied once: a clone's undo
    records then point at the clone's own containers.
    """
    t = type(value)
    if t is LoggedList or t is LoggedDict:
        found = memo.get(id(value))
        if found is not None:
            return found
        new = t(value)
        memo[id(value)] = new
        if t is LoggedList:
            for i, v in enumerate(new):
                if type(v) in _CONTAINERS:
                    list.__setitem__(new, i, copy_value(v, memo))
        else:
            for k, v in new.items():
                if type(v) in _CONTAINERS:
                    dict.__setitem__(new, k, copy_value(v, memo))
        return new
    if t is list:  # a plain list inside an undo record (an old list's contents)
        return [copy_value(v, memo) for v in value]
    if t is dict:
        return {k: copy_value(v, memo) for k, v in value.items()}
    return value


def copy_record(record: tuple, memo: dict[int, Any]) -> tuple:
    """An undo record whose containers are the copies in ``memo`` (see :func:`copy_value`)."""
    return tuple(
        (copy_value(target, memo), kind, key, copy_value(old, memo))
        for target, kind, key, old in record
    )


_FREEZABLE = (LoggedList, LoggedDict, list, dict)


class KeyCache:
    """A state's key, kept up to date through ``apply`` and ``undo``.

    A walk of a game tree asks for the key of every position it reaches, and most of a
    position does not change from one node to the next. The cache keeps each attribute's
    frozen value (a *part* of the key). An ``apply`` marks the parts its record touched (an
    attribute directly, or the attribute a changed container belongs to) to be frozen again
    and remembers what they were; its ``undo`` puts them back, so going back up the tree costs
    nothing. Only a state changed through ``apply`` and ``undo`` may carry one (the tree walk's
    own copy).
    """

    __slots__ = (
        "_whole",
        "dirty",
        "frames",
        "generation",
        "index",
        "names",
        "owners",
        "parts",
        "size",
    )
    _LIMIT = 100_000

    def __init__(self) -> None:
        self.names: tuple[str, ...] = ()
        self.index: dict[str, int] = {}
        self.size = -1
        self.parts: list[Any] = []
        self.dirty: set[int] = set()
        self.owners: dict[int, str | None] = {}
        self.frames: list[tuple[int, tuple | None, dict[int, Any]]] = []
        self.generation = 0
        self._whole: tuple | None = None

    def key(self, state: Any) -> tuple:
        """``state.key()``: the parts an ``apply`` touched are frozen again, the rest kept."""
        whole = self._whole
        if whole is not None:
            return whole
        data = state.__dict__
        if not self.names or len(data) != self.size or len(self.owners) > self._LIMIT:
            self._restart(state)
        parts, names = self.parts, self.names
        for i in self.dirty:
            name = names[i]
            value = data[name]
            parts[i] = self._freeze(value, name) if type(value) in _FREEZABLE else value
        self.dirty.clear()
        whole = self._whole = (type(state).__name__, names, *parts)
        return whole

    def _restart(self, state: Any) -> None:
        """Freeze every attribute again (the first time, or after an attribute came or went)."""
        names = self.names = state._key_names()
        self.index = {name: i for i, name in enumerate(names)}
        self.size = len(state.__dict__)
        self.parts = [_MISSING] * len(names)
        self.dirty = set(range(len(names)))
        self.owners.clear()
        self.generation += 1

    def _freeze(self, value: Any, name: str) -> Any:
        owners = self.owners
        if owners.setdefault(id(value), name) != name:
            owners[id(value)] = None  # reached from two attributes
        try:  # flat data, the common case, is frozen at C speed
            if type(value) in (LoggedList, list):
                flat = tuple(value)
                hash(flat)
                return flat
            return frozenset(value.items())
        except TypeError:  # containers inside: freeze them, and note whose they are
            pass
        if type(value) in (LoggedList, list):
            return tuple(self._freeze(v, name) if type(v) in _FREEZABLE else v for v in value)
        return frozenset(
            (k, self._freeze(v, name) if type(v) in _FREEZABLE else v) for k, v in value.items()
        )

    def applied(self, record: tuple) -> None:
        """An ``apply`` made the changes in ``record``: forget the parts they touched."""
        whole = self._whole
        touched: dict[int, Any] = {}
        if record:
            index, owners, parts = self.index, self.owners, self.parts
            for target, kind, key, _old in record:
                i = index.get(key if kind == _ATTR else owners.get(id(target)), -1)
                if i < 0:  # a new attribute, a shared or unseen container: all of it
                    if kind == _ATTR:
                        self.names = ()
                    touched = dict(enumerate(parts))
                    break
                if i not in touched:
                    touched[i] = parts[i]
            self.dirty.update(touched)
            self._whole = None
        self.frames.append((self.generation, whole, touched))

    def undone(self, record: tuple) -> None:
        """An ``undo`` took back ``record``: the parts are what they were before its apply."""
        if self.frames:
            generation, whole, touched = self.frames.pop()
            if generation == self.generation:
                parts, dirty = self.parts, self.dirty
                for i, old in touched.items():
                    parts[i] = old
                    if old is _MISSING:
                        dirty.add(i)
                    else:
                        dirty.discard(i)
                self._whole = whole
                return
        # Undoing an apply made before the cache came, or across a restart: start again.
        self.names = ()
        self._whole = None


class Journaled:
    """Mixin: attribute assignments go into the undo record and containers become logged.

    Names in ``_UNLOGGED`` (the class's bookkeeping: game, history, undo records) and in
    ``_CONSTANT_FIELDS`` (data fixed for the whole game, such as a board's tables, shared by
    clones and left out of keys) are stored as they are. An assignment outside an ``apply``
    forgets ``_listed``, the legal actions a state remembers (``State.legal_actions``).
    """

    __slots__ = ()
    _UNLOGGED: ClassVar[frozenset[str]] = frozenset()
    _CONSTANT_FIELDS: ClassVar[frozenset[str]] = frozenset()
    _AS_IS: ClassVar[frozenset[str]] = frozenset()
    """``_UNLOGGED | _CONSTANT_FIELDS``, worked out once per class: every assignment asks."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._AS_IS = cls._UNLOGGED | cls._CONSTANT_FIELDS

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._AS_IS:
            object.__setattr__(self, name, value)
            return
        data = self.__dict__
        record = _now.record
        if record is not None:
            record.append((None, _ATTR, name, data.get(name, _MISSING)))
            if type(value) in _PLAIN:
                _mark(record, value)
            data[name] = value
        else:
            data[name] = logged(value)
            if "_listed" in data:  # a change by hand, outside any apply: the list is stale
                data["_listed"] = None

    def __delattr__(self, name: str) -> None:
        record = _now.record
        if record is not None and name not in self._UNLOGGED:
            record.append((None, _ATTR, name, self.__dict__.get(name, _MISSING)))
        object.__delattr__(self, name)
