"""The undo log under threads: each thread's ``apply`` writes its own record, so threads that
play and take back separate games never mix their changes."""

from __future__ import annotations

import random
import sys
import threading

from coronas.engine import State, journal
from coronas.hierro import Game as Hierro

THREADS = 3
GAMES = 20
"""Games per thread: 60 in all."""


def _step(state: State, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply(state.sample_chance(rng))
    else:
        state.apply(rng.choice(state.legal_actions()))


def _rewinds(first: int, ready: threading.Barrier, failures: list[str]) -> None:
    """Play :data:`GAMES` Corona de Hierro games, seeds from ``first``: each from a start a
    few dozen steps in, to its end, then undone step by step back to that start, which must
    be whole again (its key, all of its data and its saved form)."""
    ready.wait(timeout=30)  # every thread plays at once
    for seed in range(first, first + GAMES):
        try:
            rng = random.Random(seed)
            state = Hierro(players=3, seed=seed).new_initial_state()
            for _ in range(rng.randint(0, 60)):
                _step(state, rng)
            before = state.clone()
            key, saved = state.key(), state.to_json()
            steps = 0
            while not state.is_terminal():
                _step(state, rng)
                steps += 1
            for _ in range(steps):
                state.undo()
            if state.key() != key or state != before or state.to_json() != saved:
                failures.append(f"game {seed}: not restored by undo")
        except Exception as exc:  # a mixed-up record may also break the game's own code
            failures.append(f"game {seed}: {exc!r}")


def test_threads_applying_and_undoing_separate_games_restore_every_start():
    failures: list[str] = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        ready = threading.Barrier(THREADS)
        threads = [
            threading.Thread(target=_rewinds, args=(1 + i * GAMES, ready, failures))
            for i in range(THREADS)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    finally:
        sys.setswitchinterval(interval)
    assert not any(t.is_alive() for t in threads)
    assert not failures, f"{len(failures)} of {THREADS * GAMES} games: {failures}"


def test_each_thread_has_its_own_record():
    """A record begun in one thread is not the one another thread's changes go into."""
    box = journal.LoggedList([1, 2, 3])
    other: list[tuple] = []
    started, changed = threading.Event(), threading.Event()

    def elsewhere() -> None:
        previous = journal.start_record()
        started.set()
        changed.wait(timeout=10)
        other.append(journal.end_record(previous)[0])

    t = threading.Thread(target=elsewhere)
    t.start()
    started.wait(timeout=10)
    box[0] = 10  # outside any apply in this thread: not recorded anywhere
    changed.set()
    t.join(timeout=10)
    assert other == [()]
    assert box == [10, 2, 3]
