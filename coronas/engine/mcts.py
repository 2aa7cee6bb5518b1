"""Monte Carlo tree search over the protocol: one search for every game.

The search is UCT (Kocsis and Szepesvári, 2006) with explicit chance and hidden information:

* **selection** by UCB1: at a decision of seat ``p`` the child maximising
  ``mean_p + c * sqrt(ln(N) / n)``, where ``mean_p`` is the child's mean value for ``p``, ``n``
  its visits and ``N`` the number of times it was available (below). ``c`` defaults to
  :data:`EXPLORATION` = sqrt(2), the constant of UCB1 for rewards in [0, 1]; or, with a move
  prior (``prior``), **PUCT** (Silver et al., 2017): the child maximising
  ``mean_p + c * P(a) * sqrt(N + 1) / (1 + n)``, ``P(a)`` the prior's probability of the
  action, ``N`` the visits of the actions legal now, an untried action counted at the parent's
  mean (first-play urgency); the prior is computed once a node, on the position the
  simulation is at (a determinisation in a game with secrets: a prior reads only what the
  mover may see);
* **chance** is chance: at a chance node the outcome is drawn by its exact probability
  (``state.sample_chance``), never chosen; the tree keeps one child per outcome met;
* **expansion**: one new node per simulation;
* **playout** from the new node by a pluggable policy (any bot), to the end of the game or,
  with ``depth``, for ``depth`` actions and on to the next position the game calls settled
  (``settled(state)``: say, once the emperor has stopped, or no dice are pending), then scored
  by ``evaluate(state)``; a playout still going after :data:`MAX_PLAYOUT` actions is scored
  where it stands;
* **backup** of every seat's value, for any number of players: a finished game is worth
  ``1/k`` to each of its ``k`` winners and 0 to the others (the win share), so a node's mean
  value for a seat is that seat's estimated chance of winning.

**Hidden information.** The search is single-observer information-set MCTS (SO-ISMCTS,
Cowling, Powley and Whitehouse, 2012): every simulation starts from a *determinisation*,
``state.resample(player, rng)``, a full position equal to the real one in everything the
searching seat has seen, the rest drawn at random consistently with it; the tree's nodes are
keyed by the actions and outcomes played from the root, and an action's statistics are shared
by every determinisation in which it is legal. Since the legal actions below the root differ
between determinisations, UCB1's ``N`` is the child's *availability count* (how often it was
legal when its parent was visited), not the parent's visits. In a game with no secrets
``resample`` is a copy and the search is plain UCT.

The defaults come from the game's declared surface (:meth:`Game.spec
<coronas.engine.Game.spec>`): the playout policy, ``evaluate`` and ``settled``; a game that
declares none gets random playouts run to the end (:func:`game_defaults`).

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
import math
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from coronas.engine.evaluation import shares, win_shares
from coronas.engine.state import CHANCE, TERMINAL, State

if TYPE_CHECKING:
    from coronas.engine.surface import GameSpec

__all__ = [
    "DEFAULT_SIMULATIONS",
    "EXPLORATION",
    "MCTSBot",
    "Node",
    "Search",
    "TunedSearch",
    "decision_seconds",
    "game_defaults",
    "may_cut",
    "parse_budget",
    "search",
    "tree_graph",
    "tuned",
    "warn_if_slow",
]

EXPLORATION = math.sqrt(2)
"""UCB1's exploration constant for values in [0, 1] (Auer et al., 2002)."""
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
"""Seconds a decision of a game's tuned search takes with its default simulations on one
core, by design (``playout.SEARCH``, measured in docs/performance.md): what one of its
simulations costs is this over that number."""
MAX_UNSETTLED = 200
"""Actions a cut playout may run past its depth while waiting for a settled position."""


def may_cut(state: State, past: int, settled: Callable[[State], bool] | None) -> bool:
    """Whether a playout cut after its depth, ``past`` actions beyond it, may stop at
    ``state`` and be scored by the value model: at a position ``settled`` calls settled (any
    position without one), or :data:`MAX_UNSETTLED` actions past the depth whatever it is.
    What the search's cut playouts and the estimator's cut games share."""
    return settled is None or past >= MAX_UNSETTLED or settled(state)


MAX_PLAYOUT = 20_000
"""Actions after which a playout that has not ended is scored where it stands: by the
evaluation if there is one, else as a draw between every seat (a policy that never errs at
random can go round in circles)."""


# -- the game's defaults -------------------------------------------------------------------------
def game_defaults(state: State) -> GameSpec:
    """The plug-in surface of ``state``'s game (:meth:`Game.spec <coronas.engine.Game.spec>`):
    the search reads its ``playout`` policy, ``evaluate``, ``settled`` and
    ``common_random_numbers`` from there (a game that declares none: random playouts run to
    the end)."""
    return state.game.spec()


def _resolve_prior(state: State, prior: Any) -> Any:
    """The move prior a search selects with: None or False for plain UCT, True for the
    game's declared one (``learning.move_prior()``), else anything with
    ``probabilities(state, actions)``."""
    if prior is None or prior is False:
        return None
    if prior is True:
        from coronas.engine.learning import learning_of

        return learning_of(state.game).move_prior()
    if not callable(getattr(prior, "probabilities", None)):
        raise ValueError(
            f"a prior is True (the game's move prior) or has probabilities(state, actions), "
            f"got {prior!r}"
        )
    return prior


# -- the tree ------------------------------------------------------------------------------------
class Node:
    """A node of the search tree: the position after ``action`` (None at the root).

    ``player`` moves here (:data:`~coronas.engine.CHANCE` at a chance node, set when the
    node is first reached); ``visits`` counts the simulations through it, ``totals[p]`` adds up
    seat ``p``'s values over them, ``available`` counts how often it was legal when its parent
    was visited. ``children`` maps an action or chance outcome to its node.
    """

    __slots__ = ("action", "available", "children", "player", "priors", "totals", "visits")

    def __init__(self, action: Any, players: int):
        self.action = action
        self.player: int | None = None
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * players
        self.children: dict[Any, Node] = {}
        self.priors: dict[Any, float] | None = None

    def value(self, player: int) -> float:
        """The mean value of this node for seat ``player`` (0 if never visited)."""
        return self.totals[player] / self.visits if self.visits else 0.0

    def values(self) -> tuple[float, ...]:
        """The mean value for every seat."""
        return tuple(t / self.visits if self.visits else 0.0 for t in self.totals)

    def __repr__(self) -> str:
        return f"Node({self.action!r}, visits={self.visits})"


class Search:
    """One search from the point of view of the seat to move in ``state``.

    ``prior`` focuses the tree (PUCT): None for plain UCT, True for the game's declared move
    prior, or any object with ``probabilities(state, actions)``. ``playout`` is a bot, or a
    bot of the game by name (``"policy"``).

    ``run(simulations=, seconds=)`` grows the tree (more runs add to it); ``root`` is the
    tree, ``best()`` the most visited action, ``table()`` the root's actions as rows,
    ``graph()`` the tree as a networkx graph. ``state`` is never changed.
    """

    def __init__(
        self,
        state: State,
        rng: random.Random | int | None = None,
        c: float = EXPLORATION,
        playout: Any = None,
        evaluate: Callable[[State], Sequence[float]] | None = None,
        depth: int | None = None,
        settled: Callable[[State], bool] | None = None,
        prior: Any = None,
    ):
        player = state.current_player
        if player < 0:
            raise ValueError("the search starts at a decision: this state is a chance node or over")
        if depth is not None and depth < 0:
            raise ValueError(f"a playout depth is 0 or more, got {depth}")
        self.state = state
        self.player = player
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.c = float(c)
        defaults = game_defaults(state)
        if isinstance(playout, str):  # a bot of the game by name: "policy", "light"
            playout = state.game.bot(playout)
        self.playout = defaults.playout if playout is None else playout
        self.prior = _resolve_prior(state, prior)
        self.evaluate = evaluate if evaluate is not None else defaults.evaluate
        self.settled = settled if settled is not None else defaults.settled
        if depth is not None and self.evaluate is None:
            raise ValueError("playouts cut at a depth need an evaluate(state) to score them")
        self.depth = depth
        # A game without secrets is searched on one copy, taken back with undo after each
        # simulation; a game with secrets gets a new determinisation each time.
        self._work = None if state.game.has_secrets else state.clone()
        self.root = Node(None, state.num_players)
        self.root.player = player
        self.simulations = 0
        self._at: State = state

    # -- growing the tree ----------------------------------------------------------------------
    def run(self, simulations: int | None = None, seconds: float | None = None) -> Search:
        """Add ``simulations`` simulations, or as many as fit in ``seconds`` (at least one)."""
        if (simulations is None) == (seconds is None):
            raise ValueError("give a budget: simulations or seconds (one of them)")
        if simulations is not None:
            for _ in range(simulations):
                self._simulate()
        else:
            end = time.perf_counter() + seconds
            self._simulate()
            while time.perf_counter() < end:
                self._simulate()
        return self

    def _simulate(self) -> None:
        rng = self.rng
        s = self._work if self._work is not None else self.state.resample(self.player, rng)
        base = len(s.history)
        node = self.root
        path = [node]
        # Selection and expansion.
        while True:
            player = s._current_player()
            if player == TERMINAL:
                break
            node.player = player
            if player == CHANCE:
                outcome = s.sample_chance(rng)
                child = node.children.get(outcome)
                fresh = child is None
                if fresh:
                    child = node.children[outcome] = Node(outcome, len(node.totals))
                s._apply_unchecked(outcome)
            else:
                self._at = s
                child, fresh = self._select(node, s.legal_actions(), player)
                s._apply_unchecked(child.action)
            path.append(child)
            node = child
            if fresh:
                break
        values = self._rollout(s)
        for n in path:
            n.visits += 1
            totals = n.totals
            for p, v in enumerate(values):
                totals[p] += v
        self.simulations += 1
        if s is self._work:
            for _ in range(len(s.history) - base):
                s.undo()

    def _select(self, node: Node, legal: list[Any], player: int) -> tuple[Node, bool]:
        if self.prior is not None:
            return self._select_puct(node, legal, player)
        children = node.children
        untried = [a for a in legal if a not in children]
        for a in legal:
            child = children.get(a)
            if child is not None:
                child.available += 1
        if untried:
            action = untried[self.rng.randrange(len(untried))]
            child = children[action] = Node(action, len(node.totals))
            child.available = 1
            return child, True
        c = self.c
        best, best_score = None, -math.inf
        for a in legal:
            child = children[a]
            score = child.totals[player] / child.visits + c * math.sqrt(
                math.log(child.available) / child.visits
            )
            if score > best_score:
                best, best_score = child, score
        return best, False

    def _priors(self, node: Node, legal: list[Any]) -> dict[Any, float]:
        # Computed once a node, on the position the simulation is at; with secrets an action
        # first met in a later determinisation gets its probability from that one.
        priors = node.priors
        if priors is None or any(a not in priors for a in legal):
            fresh = self.prior.probabilities(self._at, legal)
            if priors is None:
                priors = node.priors = dict(zip(legal, fresh, strict=True))
            else:
                for a, p in zip(legal, fresh, strict=True):
                    priors.setdefault(a, p)
        return priors

    def _select_puct(self, node: Node, legal: list[Any], player: int) -> tuple[Node, bool]:
        children = node.children
        priors = self._priors(node, legal)
        total = 0
        for a in legal:
            child = children.get(a)
            if child is not None:
                child.available += 1
                total += child.visits
        # First-play urgency: an unvisited action is worth the parent's mean for now.
        fpu = node.totals[player] / node.visits if node.visits else 0.5
        scale = self.c * math.sqrt(total + 1)
        best, best_score = None, -math.inf
        for a in legal:
            child = children.get(a)
            if child is None:
                score = fpu + scale * priors[a]
            else:
                n = child.visits
                score = child.totals[player] / n + scale * priors[a] / (1 + n)
            if score > best_score:
                best, best_score = a, score
        child = children.get(best)
        if child is None:
            child = children[best] = Node(best, len(node.totals))
            child.available = 1
            return child, True
        return child, False

    def _rollout(self, s: State) -> tuple[float, ...]:
        rng = self.rng
        choose = self.playout.choose if hasattr(self.playout, "choose") else self.playout
        sample = s.sample_chance
        apply = s._apply_unchecked
        steps = 0
        limit = self.depth
        settled = self.settled
        while True:
            player = s._current_player()
            if player == TERMINAL:
                return win_shares(s)
            if limit is not None and steps >= limit and may_cut(s, steps - limit, settled):
                return tuple(self.evaluate(s))
            if steps >= MAX_PLAYOUT:
                if self.evaluate is not None:
                    return tuple(self.evaluate(s))
                return shares(range(s.num_players), s.num_players)  # a draw
            apply(sample(rng) if player == CHANCE else choose(s, rng))
            steps += 1

    # -- reading the tree ----------------------------------------------------------------------
    def best(self) -> Any:
        """The root's most visited action (ties: the higher mean value, then the first met)."""
        p = self.player
        children = list(self.root.children.values())
        if not children:
            raise ValueError("the search has not run yet")
        return max(children, key=lambda n: (n.visits, n.value(p))).action

    def table(self) -> list[dict[str, Any]]:
        """The root's actions, most visited first: ``action``, ``label`` (in the game's
        words), ``visits``, ``value`` (the mover's mean win share) and ``values`` (every
        seat's)."""
        p = self.player
        rows = [
            {
                "action": n.action,
                "label": self.state.describe(n.action),
                "visits": n.visits,
                "value": n.value(p),
                "values": n.values(),
            }
            for n in self.root.children.values()
        ]
        rows.sort(key=lambda r: (-r["visits"], -r["value"]))
        return rows

    def table_text(self) -> str:
        """:meth:`table` as aligned text."""
        lines = [f"{'visits':>7}  {'win':>6}  action"]
        for r in self.table():
            lines.append(f"{r['visits']:>7}  {r['value']:>6.1%}  {r['label']}")
        lines.append(f"{self.simulations} simulations from {self.state.player_name(self.player)}")
        return "\n".join(lines)

    def graph(self, max_depth: int | None = None) -> Any:
        """The tree as a networkx DiGraph (see :func:`tree_graph`)."""
        return tree_graph(self.root, max_depth=max_depth)


def tree_graph(root: Node, max_depth: int | None = None) -> Any:
    """A search tree as a ``networkx.DiGraph``: nodes numbered 0 (the root) upward with
    ``action`` (str, "" at the root), ``player`` (who moves there: a seat, -1 at chance, -4
    at the end, None if never expanded), ``visits``, ``values`` (every seat's mean value) and
    ``depth``; an edge parent -> child carries ``action``. ``max_depth`` keeps the top levels."""
    import networkx as nx

    g = nx.DiGraph()
    stack = [(root, None, 0)]
    count = 0
    while stack:
        node, parent, depth = stack.pop()
        me = count
        count += 1
        label = "" if node.action is None else str(node.action)
        g.add_node(
            me,
            action=label,
            player=node.player,
            visits=node.visits,
            values=node.values(),
            depth=depth,
        )
        if parent is not None:
            g.add_edge(parent, me, action=label)
        if max_depth is None or depth < max_depth:
            stack.extend((child, me, depth + 1) for child in reversed(node.children.values()))
    return g


def search(
    state: State,
    simulations: int | None = None,
    seconds: float | None = None,
    rng: random.Random | int | None = None,
    **options: Any,
) -> Search:
    """Search from ``state`` for the seat to move; ``options`` as :class:`Search` takes."""
    return Search(state, rng=rng, **options).run(simulations=simulations, seconds=seconds)


# -- the bot -------------------------------------------------------------------------------------
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


SETTINGS = ("c", "depth", "playout", "prior", "simulations")
"""What a game's ``playout.SEARCH`` may set: the exploration constant (UCB1's, or PUCT's
with a prior), the playout depth, the playout policy (a bot of the game by name, such as
``"policy"``; the game's declared one if absent), ``prior`` (True: PUCT with the game's move
prior) and the default number of simulations."""


def tuned(settings: dict[str, Any], name: str = "mcts") -> TunedSearch:
    """The search bot of a game whose ``playout.SEARCH`` is ``settings``, offered as
    ``name`` (``mcts``; ``mcts-classic`` for the plain UCT kept beside it)."""
    unknown = set(settings) - set(SETTINGS)
    if unknown:
        raise ValueError(f"unknown search settings: {', '.join(sorted(unknown))}")
    return TunedSearch(tuple(sorted(settings.items())), name)


class MCTSBot:
    """A player that searches before each decision (:class:`Search`), with a budget of
    ``simulations`` (reproducible) or ``seconds`` per decision.

    ``playout`` (a bot) and ``evaluate``/``depth`` override the game's defaults
    (:func:`game_defaults`). Decisions draw their seeds from the ``rng`` that ``choose`` is
    given (the one :func:`~coronas.engine.play` passes), unless ``seed`` fixes them; with a
    simulation budget the same rng gives the same decision. A lone legal action is played
    without a search. The last search is kept as ``last`` for a look at its tree (None after
    a lone action). The bot pickles (the game's defaults are looked up again
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
        evaluate: Callable[[State], Sequence[float]] | None = None,
        depth: int | None = None,
        seed: int | None = None,
        prior: Any = None,
    ):
        if simulations is not None and seconds is not None:
            raise ValueError("give simulations or seconds, not both")
        if simulations is None and seconds is None:
            simulations = DEFAULT_SIMULATIONS
        self.simulations = simulations
        self.seconds = seconds
        self.c = c
        self.playout = playout
        self.evaluate = evaluate
        self.depth = depth
        self.seed = seed
        self.prior = prior
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
        playout = getattr(self.playout, "name", None) or (
            "default" if self.playout is None else repr(self.playout)
        )
        extra = f", depth={self.depth}" if self.depth is not None else ""
        if self.prior is not None and self.prior is not False:
            extra += ", prior=" + ("'game'" if self.prior is True else repr(self.prior))
        return f"MCTSBot({budget}, c={self.c:.4g}, playout={playout!r}{extra})"
