"""Bots, playouts and the exact walk of a game tree: generic algorithms over the protocol."""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

import coronas.engine.journal as journal
from coronas.dice import Die, to_fraction
from coronas.engine.state import CHANCE, TERMINAL, State

__all__ = [
    "Bot",
    "GameDidNotEnd",
    "RandomBot",
    "UnfinishedWalk",
    "WalkOutOfTime",
    "exact_distribution",
    "play",
]

_ONE = Fraction(1)


@runtime_checkable
class Bot(Protocol):
    """Anything with ``choose(state, rng) -> action``. A plain function ``f(state, rng)`` works
    too wherever a bot is expected."""

    def choose(self, state: State, rng: random.Random) -> Any: ...


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def choose(self, state: State, rng: random.Random) -> Any:
        return rng.choice(state.legal_actions())

    def policy(self, state: State) -> list[tuple[Any, Fraction]]:
        """The same choice as a mixed strategy, for exact walks: each legal action with
        probability 1/n."""
        actions = state.legal_actions()
        share = Fraction(1, len(actions))
        return [(a, share) for a in actions]

    def __repr__(self) -> str:
        return "RandomBot()"


_MASK64 = (1 << 64) - 1


class StepRandom(random.Random):
    """A generator cheap to seed, for games drawn by turns (:func:`play`), which seed it
    afresh at every step: splitmix64 (Steele, Lea and Flood, 2014), whose seeding is one
    assignment, where the Mersenne Twister's fills 624 words. ``random.Random``'s methods
    (``choice``, ``randrange``, ``shuffle`` ...) draw from it through :meth:`random` and
    :meth:`getrandbits`, as the standard library provides for another basic generator."""

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._s = (0 if a is None else hash(a)) & _MASK64

    def _next(self) -> int:
        self._s = s = (self._s + 0x9E3779B97F4A7C15) & _MASK64
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK64
        return s ^ (s >> 31)

    def random(self) -> float:
        return (self._next() >> 11) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        if k <= 64:
            return self._next() >> (64 - k) if k else 0
        bits, have = 0, 0
        while have < k:
            bits, have = (bits << 64) | self._next(), have + 64
        return bits >> (have - k)

    def getstate(self) -> Any:
        return self._s

    def setstate(self, state: Any) -> None:
        self._s = state


class GameDidNotEnd(RuntimeError):
    """:func:`play` took its ``max_steps`` actions and the game is not over: a game with no
    ending in sight under these bots, told apart from a bot's own error."""

    def __init__(self, max_steps: int):
        steps = f"{max_steps:,} step" + ("s" if max_steps != 1 else "")
        super().__init__(f"the game did not end within {steps}")
        self.max_steps = max_steps


def _as_chooser(bot: Any) -> Callable[[State, random.Random], Any]:
    if hasattr(bot, "choose"):
        return bot.choose
    if callable(bot):
        return bot
    raise TypeError(f"a bot needs a choose(state, rng) method or must be callable, got {bot!r}")


def play(
    state: State,
    bots: Sequence[Any] | Mapping[int, Any] | Any,
    rng: random.Random | int | None = None,
    max_steps: int = 100_000,
    callback: Callable[[State, Any], None] | None = None,
    turns: Callable[[State], tuple[int, ...]] | None = None,
) -> State:
    """Play ``state`` to its end in place, with ``bots[player]`` choosing at decisions and
    ``rng`` sampling chance nodes. One bot alone plays every seat. Returns the state.

    ``callback(state, action)`` is called before each action is applied (for logging).
    With ``turns`` (a game's :attr:`~coronas.engine.surface.GameSpec.turn`), every step
    draws from a :class:`StepRandom` seeded afresh from a number ``rng`` draws first, the
    turn ``turns(state)``, whether the step is a chance node and how many such steps that
    turn has had: two games from one seed whose turns went differently still roll and choose
    alike in each turn.
    Raises :class:`GameDidNotEnd` if the game is not over after ``max_steps`` actions.
    """
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    if isinstance(bots, Mapping):
        choosers = {p: _as_chooser(b) for p, b in bots.items()}
    elif isinstance(bots, Sequence) and not isinstance(bots, str):
        choosers = dict(enumerate(_as_chooser(b) for b in bots))
    else:
        one = _as_chooser(bots)
        choosers = {p: one for p in range(state.num_players)}
    if turns is not None:
        base = rng.getrandbits(62)
        rng = StepRandom()
        steps: dict[tuple[int, ...], int] = {}  # each (chance or not, turn)'s steps so far
    for _ in range(max_steps):
        player = state.current_player
        if player == TERMINAL:
            return state
        if turns is not None:
            key = (player == CHANCE, *turns(state))
            n = steps.get(key, 0)
            steps[key] = n + 1
            rng.seed((base, n, *key))  # whole numbers hash alike in every process
        if player == CHANCE:
            action = state.sample_chance(rng)
        else:
            if player not in choosers:
                raise ValueError(f"no bot for player {player}")
            action = choosers[player](state, rng)
        if callback is not None:
            callback(state, action)
        state.apply(action)
    if state.is_terminal():  # the last step allowed ended the game
        return state
    raise GameDidNotEnd(max_steps)


class UnfinishedWalk(RuntimeError):
    """An exact walk of a game tree that cannot finish: play under the policies returns to a
    position it has already passed through (``cycle`` is then true: the positions can still be
    solved as a Markov chain), or goes deeper than the walk can follow."""

    def __init__(self, message: str, cycle: bool = False):
        super().__init__(message)
        self.cycle = cycle


class WalkOutOfTime(UnfinishedWalk):
    """An exact walk or chain that was given a ``deadline`` (a :func:`time.monotonic` reading)
    and had not finished by then: it gives up rather than hold up what waits for it."""

    def __init__(self, what: str):
        super().__init__(f"{what} did not finish in the time it was given")


CHECK_EVERY = 256
"""Nodes or positions an exact walk visits between two looks at the clock."""


def check_deadline(deadline: float | None, what: str) -> None:
    """Raise :class:`WalkOutOfTime` if ``deadline`` (a :func:`time.monotonic` reading) has
    passed."""
    if deadline is not None and time.monotonic() > deadline:
        raise WalkOutOfTime(what)


def exact_distribution(
    state: State,
    policy: Callable[[State], Any] | Mapping[int, Callable[[State], Any]],
    result_fn: Callable[[State], Hashable],
    stop: Callable[[State], bool] | None = None,
    key: Callable[[State], Hashable] | bool | None = None,
    max_nodes: int = 2_000_000,
    max_depth: int = 800,
    deadline: float | None = None,
) -> Die:
    """The exact distribution of ``result_fn`` over the game tree below ``state``.

    Chance nodes are weighted by their exact probabilities. At a decision node the
    ``policy(state)`` (or ``policy[player](state)``) gives either one action or a list of
    ``(action, probability)`` pairs for a mixed strategy. The walk ends at terminal states or
    where ``stop(state)`` is true, and ``result_fn`` is evaluated there.

    Positions with the same key share one computation (transpositions), which makes long
    chains such as battles fast. The key is :meth:`State.key` unless ``key`` gives another
    function; ``key=False`` walks every path. ``stop`` and ``result_fn`` must then depend on
    the position only, not on the history.

    This brute-force walk is the ground truth the fast formulas in each game's ``odds`` are
    tested against. ``state`` itself is left as it was. The walk works on a copy that keeps
    its key up to date through apply and undo (:class:`~coronas.engine.journal.KeyCache`),
    applies the chance outcomes the copy lists without checking them again (the policy's
    actions are checked), and adds probabilities as integers over a common denominator.

    A walk that cannot finish raises :class:`UnfinishedWalk` saying why: under the policies
    play can come back to a position on the path it is walking (a cycle: the answer is then a
    Markov chain's absorption probability, not a finite sum), or a path grows longer than
    ``max_depth`` actions (a game that can go on for a long time without repeating a
    position). Add a ``stop`` rule that ends the walk earlier. With ``deadline`` (a
    :func:`time.monotonic` reading) a walk still going then raises :class:`WalkOutOfTime`,
    so that a caller with a time budget loses at most that much to an attempt that fails.
    """
    if key is None or key is True:
        key = State.key
    elif key is False:
        key = None
    work = state.clone()
    if key is State.key:
        work._keycache = journal.KeyCache()
    # A node's value is (numerators, denominator): P(result) = numerators[result] / denominator.
    # Integers over a common denominator add up much faster than Fractions.
    memo: dict[Hashable, tuple[dict[Hashable, int], int]] = {}
    path: set[Hashable] = set()  # the keys of the positions on the path being walked
    nodes = 0
    limit = min(max_depth, sys.getrecursionlimit() - 200)

    def decide(s: State, player: int) -> list[tuple[Any, Fraction]]:
        pol = policy[player] if isinstance(policy, Mapping) else policy
        choice = pol(s)
        if isinstance(choice, list):
            return [(a, to_fraction(p)) for a, p in choice]
        return [(choice, _ONE)]

    def walk(s: State, depth: int) -> tuple[dict[Hashable, int], int]:
        nonlocal nodes
        nodes += 1
        if deadline is not None and not nodes % CHECK_EVERY:
            check_deadline(deadline, "the exact walk")
        if nodes > max_nodes:
            raise RuntimeError(f"the game tree has more than {max_nodes} nodes; add a stop rule")
        if depth > limit:
            raise UnfinishedWalk(
                f"the walk went {limit} actions deep without reaching the end of the game: "
                "under these policies play can go on for a long time; add a stop rule"
            )
        player = s._current_player()
        if player == TERMINAL or (stop is not None and stop(s)):
            return {result_fn(s): 1}, 1
        k = key(s) if key is not None else None
        if k is not None:
            found = memo.get(k)
            if found is not None:
                return found
            if k in path:
                raise UnfinishedWalk(
                    f"under these policies play can return to a position it has already "
                    f"passed through ({depth} actions into the walk): the tree has a cycle, "
                    "and a finite walk cannot sum it; add a stop rule",
                    cycle=True,
                )
            path.add(k)
        if player == CHANCE:
            branches = s._chance_outcomes()
            play = s._apply_unchecked  # outcomes the state listed itself
        else:
            branches = decide(s, player)
            play = s.apply
        parts = []
        den = 1
        for action, p in branches:
            if type(p) is not Fraction:
                p = to_fraction(p)
            if not p:
                continue
            play(action)
            try:
                sub, d = walk(s, depth + 1)
            finally:
                s.undo()
            d *= p.denominator
            parts.append((p.numerator, d, sub))
            if den % d:
                den = math.lcm(den, d)
        acc: dict[Hashable, int] = {}
        for n, d, sub in parts:
            scale = n * (den // d)
            for r, q in sub.items():
                acc[r] = acc.get(r, 0) + q * scale
        g = math.gcd(den, *acc.values())
        if g > 1:
            den //= g
            acc = {r: q // g for r, q in acc.items()}
        value = (acc, den)
        if k is not None:
            memo[k] = value
            path.discard(k)
        return value

    nums, den = walk(work, 0)
    return Die.from_pmf({r: Fraction(q, den) for r, q in nums.items()})
