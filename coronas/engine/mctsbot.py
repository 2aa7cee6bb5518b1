"""The tree search as a player: :class:`MCTSBot`, which searches before each decision
(:class:`~coronas.engine.mcts.Search`); its budgets (``mcts:2000`` simulations or ``mcts:1s``
a decision, :func:`parse_budget`) and the warning for one that would take too long
(:func:`warn_if_slow`); and a game's ``mcts`` bot with the settings tuned for it
(:func:`tuned`).

>>> from coronas.batalla import Game
>>> bot = MCTSBot(simulations=50, seed=1)
>>> bot
MCTSBot(simulations=50, c=1.414, playout='default')
>>> state = Game(seed=3).new_initial_state()
>>> while state.is_chance_node():
...     state.apply(state.sample_chance(3))
>>> bot.choose(state, None) in state.legal_actions()
True
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from coronas.engine.mcts import EXPLORATION, Search, check_evaluation
from coronas.engine.state import State

__all__ = [
    "DEFAULT_SIMULATIONS",
    "MCTSBot",
    "TunedSearch",
    "decision_seconds",
    "parse_budget",
    "tuned",
    "warn_if_slow",
]

DEFAULT_SIMULATIONS = 200
"""The budget of ``mcts`` named without one: a reproducible simulation count."""
MAX_SIMULATIONS = 10_000_000
"""The most simulations a decision ``mcts:N`` may ask for."""
MAX_SECONDS = 3600.0
"""The most seconds a decision ``mcts:Ns`` may ask for."""
SLOW_DECISION = 60.0
"""A budget expected to take longer than this (seconds) a decision is warned about when the
bot is made from its name (:func:`warn_if_slow`)."""
TYPICAL_SIMULATION = 0.001
"""Seconds one simulation of an untuned search typically takes on one core (random playouts
to the end of a short game; long games take more)."""
TUNED_DECISION = 0.5
"""Seconds a decision of a game's tuned search takes at most with its default simulations on
one core, by design (``playout.SEARCH``, measured in docs/performance.md): one of its
simulations is taken to cost this over that number, which errs on the slow side for a
quicker search (Batalla's 1000 simulations take about 0.15 s)."""

_SIMULATIONS = re.compile(r"[0-9]{1,30}", re.ASCII)
_SECONDS = re.compile(r"(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})s", re.ASCII)


def parse_budget(spec: str) -> dict[str, Any]:
    """A budget written as on the command line: ``"2000"`` (simulations, 1 to
    :data:`MAX_SIMULATIONS`) or ``"1s"`` / ``"0.5s"`` (seconds per decision, above 0 and at
    most :data:`MAX_SECONDS`), as keywords for :class:`MCTSBot`. Only the ASCII digits 0-9
    and one decimal point are read: no ``_`` separators, no exponents, no other scripts'
    digits (which ``int`` and ``float`` would take). A refusal names the limits."""
    text = spec.strip() if isinstance(spec, str) else ""
    expected = (
        f"expected a number of simulations from 1 to {MAX_SIMULATIONS:,} (mcts:2000) or "
        f"seconds per decision above 0 and at most {MAX_SECONDS:g} (mcts:1s, mcts:0.5s), "
        f"in the digits 0-9, got {spec!r}"
    )
    if _SECONDS.fullmatch(text):
        seconds = float(text[:-1])
        if not 0 < seconds <= MAX_SECONDS:
            raise ValueError(expected)
        return {"seconds": seconds}
    if not _SIMULATIONS.fullmatch(text) or not 1 <= int(text) <= MAX_SIMULATIONS:
        raise ValueError(expected)
    return {"simulations": int(text)}


def decision_seconds(bot: Any) -> float | None:
    """About how many seconds one decision of ``bot`` takes on one core, if it says: its
    ``seconds`` budget, or its ``simulations`` times its ``simulation_seconds`` (what one
    simulation typically costs; :data:`TYPICAL_SIMULATION` unless the game's tuned settings
    say better). None for a bot without a budget."""
    seconds = getattr(bot, "seconds", None)
    if seconds is not None:
        return float(seconds)
    simulations = getattr(bot, "simulations", None)
    if simulations is None:
        return None
    return simulations * getattr(bot, "simulation_seconds", TYPICAL_SIMULATION)


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} seconds"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 86400:.1f} days"


_warned: set[str] = set()


def warn_if_slow(bot: Any, label: str) -> str | None:
    """Say so (a warning line on stderr, through :mod:`logging`, once a process for each
    ``label``) when ``bot``'s budget would take more than :data:`SLOW_DECISION` seconds a
    decision, naming it as ``label`` (``mcts:10000000``) and the rough time; the line, or
    None when the budget is quick. Called when a bot is made from its name, so a run says it
    before it starts rather than sit silent for hours on its first decision."""
    seconds = decision_seconds(bot)
    if seconds is None or seconds <= SLOW_DECISION:
        return None
    how = "" if getattr(bot, "seconds", None) is not None else " on one core"
    line = (
        f"warning: {label} takes about {_duration(seconds)} a decision{how}, and a game "
        f"has many decisions (mcts:{SLOW_DECISION:g}s keeps each to a minute)"
    )
    if label not in _warned:
        _warned.add(label)
        logging.getLogger("coronas").warning(line)
    return line


@dataclass(frozen=True)
class TunedSearch:
    """A game's search bot by name: ``mcts`` in the game's ``BOTS``, an :class:`MCTSBot`
    with the settings tuned for that game (its ``playout.SEARCH``: exploration ``c``, the
    playout ``depth`` cut by the game's evaluation, and the default number of
    ``simulations``, chosen to take about half a second a decision on one core). Calling it
    makes a bot; ``from_spec("2000")`` or ``from_spec("1s")`` one with that budget instead.
    Settings given as keywords win over the game's."""

    settings: tuple[tuple[str, Any], ...]
    name: str = "mcts"

    def __call__(self, **options: Any) -> MCTSBot:
        chosen = dict(self.settings)
        if options.get("seconds") is not None:
            chosen.pop("simulations", None)
        bot = MCTSBot(**{**chosen, **options})
        bot.name = self.name  # mcts-classic says so in results files and tables
        default = dict(self.settings).get("simulations")
        if default:
            bot.simulation_seconds = TUNED_DECISION / default
        return bot

    def from_spec(self, spec: str) -> MCTSBot:
        """The bot ``mcts:SPEC`` names (see :func:`parse_budget`), with the game's settings;
        a budget of more than a minute a decision is warned about (:func:`warn_if_slow`)."""
        bot = self(**parse_budget(spec))
        warn_if_slow(bot, f"{self.name}:{spec.strip()}")
        return bot


SETTINGS = ("c", "depth", "evaluate", "halving", "mix", "playout", "prior", "simulations")
"""What a game's ``playout.SEARCH`` may set: the exploration constant (UCB1's, or PUCT's
with a prior), the playout depth, ``evaluate`` (``"baseline"``: score cut playouts by the
evaluation the value model is measured against, as the search did before it learned; the
game's declared evaluation if absent), the playout policy (a bot of the game by name, such as
``"policy"``; the game's declared one if absent), ``prior`` (True: PUCT with the game's move
prior), ``mix`` (the share of a uniform choice in that prior at the searching seat's own
decisions), ``halving`` (sequential halving over that many of the prior's likeliest actions
at the root) and the default number of simulations."""


def tuned(settings: dict[str, Any], name: str = "mcts") -> TunedSearch:
    """The search bot of a game whose ``playout.SEARCH`` is ``settings``, offered as
    ``name`` (``mcts``; ``mcts-classic`` for the plain UCT kept beside it)."""
    unknown = set(settings) - set(SETTINGS)
    if unknown:
        raise ValueError(f"unknown search settings: {', '.join(sorted(unknown))}")
    return TunedSearch(tuple(sorted(settings.items())), name)


class MCTSBot:
    """A player that searches before each decision (:class:`~coronas.engine.mcts.Search`),
    with a budget of ``simulations`` (reproducible) or ``seconds`` per decision.

    ``playout`` (a bot) and ``evaluate``/``depth`` override the game's defaults
    (:func:`~coronas.engine.mcts.game_defaults`); ``evaluate`` may be named
    (``"baseline"``, :data:`~coronas.engine.mcts.EVALUATIONS`), which keeps the bot
    picklable. Decisions draw their seeds from the ``rng``
    that ``choose`` is given (the one :func:`~coronas.engine.play` passes), unless ``seed``
    fixes them; with a simulation budget the same rng gives the same decision. A lone legal
    action is played without a search. The last search is kept as ``last`` for a look at its
    tree (None after a lone action). The bot pickles (the game's defaults are looked up again
    in the process that uses it).
    """

    name = "mcts"
    simulation_seconds = TYPICAL_SIMULATION
    """What one simulation typically costs (seconds), for :func:`decision_seconds`; the
    game's tuned search sets its own."""

    def __init__(
        self,
        simulations: int | None = None,
        seconds: float | None = None,
        c: float = EXPLORATION,
        playout: Any = None,
        evaluate: Callable[[State], Sequence[float]] | str | None = None,
        depth: int | None = None,
        seed: int | None = None,
        prior: Any = None,
        mix: float = 0.0,
        halving: int = 0,
    ):
        if simulations is not None and seconds is not None:
            raise ValueError("give simulations or seconds, not both")
        if simulations is None and seconds is None:
            simulations = DEFAULT_SIMULATIONS
        check_evaluation(evaluate)
        self.simulations = simulations
        self.seconds = seconds
        self.c = c
        self.playout = playout
        self.evaluate = evaluate
        self.depth = depth
        self.seed = seed
        self.prior = prior
        self.mix = mix
        self.halving = halving
        self.last: Search | None = None

    @classmethod
    def from_spec(cls, spec: str) -> MCTSBot:
        """The bot ``mcts:SPEC`` names (see :func:`parse_budget`); a budget of more than a
        minute a decision is warned about (:func:`warn_if_slow`)."""
        bot = cls(**parse_budget(spec))
        warn_if_slow(bot, f"{cls.name}:{spec.strip()}")
        return bot

    def choose(self, state: State, rng: random.Random | None) -> Any:
        seed = self.seed if self.seed is not None else (rng or random).getrandbits(64)
        legal = state.legal_actions()
        if len(legal) == 1:  # nothing to weigh
            self.last = None
            return legal[0]
        found = Search(
            state,
            rng=seed,
            c=self.c,
            playout=self.playout,
            evaluate=self.evaluate,
            depth=self.depth,
            prior=self.prior,
            mix=self.mix,
            halving=self.halving,
        ).run(simulations=self.simulations, seconds=self.seconds)
        self.last = found
        return found.best()

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "last": None}

    def __repr__(self) -> str:
        budget = (
            f"simulations={self.simulations}"
            if self.seconds is None
            else f"seconds={self.seconds:g}"
        )
        if self.playout is None or isinstance(self.playout, str):  # a bot of the game by name
            playout = self.playout or "default"
        else:
            playout = getattr(self.playout, "name", None) or repr(self.playout)
        extra = f", depth={self.depth}" if self.depth is not None else ""
        if isinstance(self.evaluate, str):
            extra += f", evaluate={self.evaluate!r}"
        if self.prior is not None and self.prior is not False:
            extra += ", prior=" + ("'game'" if self.prior is True else repr(self.prior))
        if self.mix:
            extra += f", mix={self.mix:g}"
        if self.halving:
            extra += f", halving={self.halving}"
        return f"MCTSBot({budget}, c={self.c:.4g}, playout={playout!r}{extra})"
