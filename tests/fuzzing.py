"""Mutations of JSON data for the input fuzz tests: real saved games, rule sets and boards with
one value (or a few) replaced by something a damaged or hostile file could hold."""

from __future__ import annotations

import contextlib
import copy
import json
import random
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent
SAVED_GAMES = {
    "batalla": ["batalla/fixtures/position_game.json", "batalla/fixtures/random_game.json"],
    "carolus": ["carolus/fixtures/position-2p.json", "carolus/fixtures/random-3p.json"],
    "hierro": [
        "hierro/fixtures/hand_position_3p.json",
        "hierro/fixtures/random_game_4p.json",
        "hierro/fixtures/random_game_4p_format1.json",  # read through the format-1 upgrade
    ],
}


def saved_text(relative: str) -> str:
    """The saved-game JSON text of a fixture (the hierro fixtures wrap it under "save")."""
    data = json.loads((FIXTURES / relative).read_text(encoding="utf-8"))
    return data["save"] if "save" in data else json.dumps(data)


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


REPLACEMENTS: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    float("inf"),
    10**9,
    -(10**9),
    10**30,
    10**400,
    10**5000,
    "",
    "x",
    "a" * 100_000,
    "1/0",
    {"fraction": "1/0"},
    {"fraction": "1/3"},
    {"fraction": "x" * 50},
    [],
    [1, 2, 3],
    {},
    {"type": "Nothing"},
    _deep(40),
    _deep(10),
    "rules.json",
    "/etc/passwd",
    "../board.json",
    {"path": "/etc/passwd"},
    list(range(1000)),
]
"""Values a mutation puts in place of another: wrong types, huge and negative numbers, long
texts, deep nesting, file paths where inline data belongs, a fraction with a zero below."""


def paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (a tuple of keys and indexes) to a value inside ``data``, the root first."""
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out.extend(paths(v, (*prefix, k)))
    elif isinstance(data, list):
        # long lists (a game's actions): a sample of their items is enough
        idx = (
            range(len(data)) if len(data) <= 30 else [*range(10), *range(len(data) - 10, len(data))]
        )
        for i in idx:
            out.extend(paths(data[i], (*prefix, i)))
    return out


def _parent(data: Any, path: tuple) -> Any:
    for key in path[:-1]:
        data = data[key]
    return data


def mutate(data: Any, rng: random.Random, times: int = 1) -> Any:
    """A copy of ``data`` with ``times`` random mutations: a value replaced, a field removed
    or added, a list shortened, doubled or shuffled."""
    data = copy.deepcopy(data)
    for _ in range(times):
        where = rng.choice(paths(data))
        how = rng.random()
        if not where:
            data = rng.choice(REPLACEMENTS) if how < 0.2 else data
            continue
        parent, key = _parent(data, where), where[-1]
        value = parent[key]
        if how < 0.6:
            parent[key] = copy.deepcopy(rng.choice(REPLACEMENTS))
        elif how < 0.7 and isinstance(parent, dict):
            del parent[key]
        elif how < 0.8 and isinstance(parent, dict):
            parent[rng.choice(["extra", "path", "file", key + "_"])] = rng.choice(REPLACEMENTS)
        elif how < 0.9 and isinstance(value, list) and value:
            choice = rng.randrange(3)
            if choice == 0:
                parent[key] = value[: rng.randrange(len(value))]
            elif choice == 1:
                parent[key] = value + value
            else:
                parent[key] = rng.sample(value, len(value))
        elif isinstance(value, bool):
            parent[key] = not value
        elif isinstance(value, int):
            parent[key] = value + rng.choice([-2, -1, 1, 2, 10, 10**6])
        elif isinstance(value, str):
            parent[key] = value + rng.choice(["", "x", " ", "\x00"])
        else:
            parent[key] = copy.deepcopy(rng.choice(REPLACEMENTS))
    return data


def dumps(data: Any) -> str:
    """JSON text of mutated data (huge integers need the digit limit lifted to be written)."""
    import sys

    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.dumps(data)
    finally:
        sys.set_int_max_str_digits(limit)


class Hang(Exception):
    """A call ran past its time limit."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the block if it runs for more than ``seconds`` (main thread)."""

    def alarm(signum: int, frame: Any) -> None:
        raise Hang(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
