"""Monte Carlo tree search over the protocol: one search for every game.

The search is UCT (Kocsis and Szepesvári, 2006) with explicit chance and hidden information:

* **selection** by UCB1: at a decision of seat ``p`` the child maximising
  ``mean_p + c * sqrt(ln(N) / n)``, where ``mean_p`` is the child's mean value for ``p``, ``n``
  its visits and ``N`` the number of times it was available (below). ``c`` defaults to
  :data:`EXPLORATION` = sqrt(2), the constant of UCB1 for rewards in [0, 1]; or, with a move
  prior (``prior``), **PUCT** (Silver et al., 2017): the child maximising
  ``mean_p + c * P(a) * sqrt(N + 1) / (1 + n)``, ``P(a)`` the prior's probability of the
  action, ``N`` the visits of the actions legal now, an untried action counted at the parent's
  mean (first-play urgency); with ``mix``, the searching seat's own decisions read the prior
  mixed with a uniform choice, ``(1 - mix) * P(a) + mix / k`` over ``k`` legal actions, so that
  a prior that imitates one player closely still leaves the search room to differ from it,
  while the other seats' replies stay as the prior foresees them; the prior is computed once
  a node, on the position the simulation is at (a determinisation in a game with secrets: a
  prior reads only what the mover may see);
* **the root by sequential halving** (``halving``, Karnin et al., 2013, as Gumbel MuZero
  uses it: Danihelka et al., 2022), an option of the prior: the search weighs only the
  prior's ``halving`` likeliest actions at the root, in rounds: each round shares its part of
  the budget evenly among the actions still in, then keeps the better half by ``log P(a) +
  (C_VISIT + max visits) * C_SCALE * q(a)`` (``q`` the action's mean value for the searching
  seat, rescaled to [0, 1] between the candidates' lowest and highest), until one or two are
  left; the best of those is played. Early on the prior weighs most, as visits grow the
  games: a move the prior thinks unlikely must win its games clearly to be played, so the
  search plays the prior's move unless it finds a better one (a search that differs from
  the player its prior copies only where its games say so);
* **chance** is chance: at a chance node the outcome is drawn by its exact probability
  (``state.sample_chance``), never chosen; the tree keeps one child per outcome met;
* **expansion**: one new node per simulation;
* **playout** from the new node by a pluggable policy (any bot), to the end of the game or,
  with ``depth``, for ``depth`` actions and on to the next position the game calls settled
  (``settled(state)``: say, once the emperor has stopped, or no dice are pending), then scored
  by ``evaluate(state)`` (the game's value model, or with ``evaluate="baseline"`` the
  evaluation that model is measured against: the search as it was before it learned); a
  playout still going after :data:`~coronas.engine.playouts.MAX_PLAYOUT` actions is scored
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
declares none gets random playouts run to the end (:func:`game_defaults`). Where a playout
may stop is :mod:`coronas.engine.playouts`; the search as a player, with its budgets, is
:class:`~coronas.engine.mctsbot.MCTSBot`.

>>> from coronas.batalla import Game
>>> state = Game(seed=3).new_initial_state()
>>> while state.is_chance_node():
...     state.apply(state.sample_chance(3))
>>> found = search(state, simulations=50, rng=1)
>>> found.simulations, found.best() in state.legal_actions()
(50, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from coronas.engine.evaluation import shares, win_shares
from coronas.engine.playouts import MAX_PLAYOUT, may_cut
from coronas.engine.state import CHANCE, TERMINAL, State

if TYPE_CHECKING:
    from coronas.engine.surface import GameSpec

__all__ = [
    "C_SCALE",
    "C_VISIT",
    "EVALUATIONS",
    "EXPLORATION",
    "Node",
    "Search",
    "check_evaluation",
    "game_defaults",
    "search",
    "tree_graph",
]

EXPLORATION = math.sqrt(2)
"""UCB1's exploration constant for values in [0, 1] (Auer et al., 2002)."""
C_VISIT = 50.0
C_SCALE = 0.1
"""The weight of the games against the prior in sequential halving at the root:
``(C_VISIT + max visits) * C_SCALE`` times the rescaled mean value, Gumbel MuZero's
constants (Danihelka et al., 2022; DeepMind's mctx)."""


# -- the game's defaults -------------------------------------------------------------------------
def game_defaults(state: State) -> GameSpec:
    """The plug-in surface of ``state``'s game (:meth:`Game.spec <coronas.engine.Game.spec>`):
    the search reads its ``playout`` policy, ``evaluate``, ``settled`` and
    ``common_random_numbers`` from there (a game that declares none: random playouts run to
    the end)."""
    return state.game.spec()


EVALUATIONS = ("baseline",)
"""The evaluations a search may name instead of giving a function: ``"baseline"``, the
evaluation the game's value model is measured against (its ``learning.baseline``: the
hand-set evaluation, or an earlier fit), what the game's search scored cut playouts with
before the value model was fitted."""


def check_evaluation(evaluate: Any) -> None:
    """Refuse an evaluation named by a string that is none of :data:`EVALUATIONS`."""
    if isinstance(evaluate, str) and evaluate not in EVALUATIONS:
        raise ValueError(
            f"an evaluation is a function or one of {', '.join(EVALUATIONS)}, got {evaluate!r}"
        )


def _resolve_evaluate(state: State, evaluate: Any) -> Callable[[State], Sequence[float]] | None:
    """The function a search scores cut playouts with: the game's declared one for None, the
    value model's baseline for ``"baseline"`` (:data:`EVALUATIONS`), else ``evaluate``."""
    if evaluate is None:
        return game_defaults(state).evaluate
    check_evaluation(evaluate)
    if isinstance(evaluate, str):
        learning = game_defaults(state).learning
        if learning is None:
            raise ValueError(
                f"{state.game.name} declares no value model, so no baseline evaluation: "
                f"give evaluate= a function"
            )
        return learning.baseline
    if not callable(evaluate):
        raise ValueError(f"an evaluation is a function of a state, got {evaluate!r}")
    return evaluate


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

    At a decision the node also keeps the legal actions it last met (``legal``), lined up with
    their children (``slots``, None where untried) and the weights selection gives them
    (``weights``: the prior's, mixed), so that the next selection over the same actions reads
    lists instead of hashing every action into two dictionaries.
    """

    __slots__ = (
        "action",
        "available",
        "children",
        "legal",
        "player",
        "priors",
        "slots",
        "totals",
        "visits",
        "weights",
    )

    def __init__(self, action: Any, players: int):
        self.action = action
        self.player: int | None = None
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * players
        self.children: dict[Any, Node] = {}
        self.priors: dict[Any, float] | None = None
        self.legal: list[Any] | None = None
        self.slots: list[Node | None] = []
        self.weights: list[float] = []

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
    prior, or any object with ``probabilities(state, actions)``; ``mix`` (0 to 1) is the share
    of a uniform choice in the prior at the searching seat's own decisions; ``halving`` (2 or
    more, with a prior) weighs only the prior's likeliest actions at the root, by sequential
    halving. ``playout`` is a bot, or a bot of the game by name (``"policy"``); ``evaluate``
    scores cut playouts: a function, ``"baseline"`` (:data:`EVALUATIONS`), or None for the
    game's declared one.

    ``run(simulations=, seconds=)`` grows the tree (more runs add to it); ``root`` is the
    tree, ``best()`` the action to play (the most visited; with ``halving``, the one the last
    run's halving kept), ``table()`` the root's actions as rows, ``graph()`` the tree as a
    networkx graph. ``state`` is never changed.
    """

    def __init__(
        self,
        state: State,
        rng: random.Random | int | None = None,
        c: float = EXPLORATION,
        playout: Any = None,
        evaluate: Callable[[State], Sequence[float]] | str | None = None,
        depth: int | None = None,
        settled: Callable[[State], bool] | None = None,
        prior: Any = None,
        mix: float = 0.0,
        halving: int = 0,
    ):
        player = state.current_player
        if player < 0:
            raise ValueError("the search starts at a decision: this state is a chance node or over")
        if depth is not None and depth < 0:
            raise ValueError(f"a playout depth is 0 or more, got {depth}")
        if not 0.0 <= mix <= 1.0:
            raise ValueError(f"a prior's uniform share (mix) is between 0 and 1, got {mix}")
        if isinstance(halving, bool) or not isinstance(halving, int) or halving < 0:
            raise ValueError(f"halving is a whole number of actions (0: off), got {halving!r}")
        if halving == 1:
            raise ValueError("halving weighs 2 or more actions at the root (0: off), got 1")
        self.state = state
        self.player = player
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.c = float(c)
        defaults = game_defaults(state)
        if isinstance(playout, str):  # a bot of the game by name: "policy", "light"
            playout = state.game.bot(playout)
        self.playout = defaults.playout if playout is None else playout
        self.prior = _resolve_prior(state, prior)
        self.mix = float(mix)
        if halving and self.prior is None:
            raise ValueError("halving picks the root's actions by the prior: give prior=")
        self.halving = halving
        self.chosen: Any = None
        self.evaluate = _resolve_evaluate(state, evaluate)
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
        if self.halving:
            return self._halve(simulations, seconds)
        if simulations is not None:
            for _ in range(simulations):
                self._simulate()
        else:
            end = time.perf_counter() + seconds
            self._simulate()
            while time.perf_counter() < end:
                self._simulate()
        return self

    def _halve(self, simulations: int | None, seconds: float | None) -> Search:
        """Sequential halving at the root: the prior's ``halving`` likeliest actions, each
        round's share of the budget spread evenly over those still in (the best first, so a
        short round visits the likeliest), the better half kept after each, until one or
        two are left; ``chosen`` is the best of those."""
        legal = self.state.legal_actions()
        probabilities = self.prior.probabilities(self.state, legal)
        logits = {a: math.log(max(p, 1e-300)) for a, p in zip(legal, probabilities, strict=True)}
        alive = sorted(legal, key=lambda a: -logits[a])[: self.halving]  # ties: listing order
        candidates = list(alive)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        began = time.perf_counter()
        for r in range(rounds):
            if simulations is not None:
                share = (simulations * (r + 1)) // rounds - (simulations * r) // rounds
                done = 0
                while done < share:
                    for a in alive[: share - done]:
                        self._simulate(a)
                        done += 1
            else:
                end = began + seconds * (r + 1) / rounds
                self._simulate(alive[0])
                while time.perf_counter() < end:
                    for a in alive:
                        self._simulate(a)
                        if time.perf_counter() >= end:
                            break
            score = self._halving_scores(candidates, logits)
            alive.sort(key=lambda a: -score[a])
            if r < rounds - 1:
                alive = alive[: math.ceil(len(alive) / 2)]
        self.chosen = alive[0]
        return self

    def _halving_scores(self, candidates: list[Any], logits: dict[Any, float]) -> dict[Any, float]:
        """Each candidate's ``log P(a) + (C_VISIT + max visits) * C_SCALE * q(a)``: ``q`` its
        mean value for the searching seat (the root's mean if not yet visited) rescaled to
        [0, 1] between the candidates' lowest and highest."""
        p = self.player
        root = self.root
        children = root.children
        at_root = root.totals[p] / root.visits if root.visits else 0.5
        q = {}
        for a in candidates:
            child = children.get(a)
            q[a] = child.totals[p] / child.visits if child is not None and child.visits else at_root
        low, high = min(q.values()), max(q.values())
        spread = high - low if high - low > 1e-12 else 1.0
        most = max((c.visits for c in children.values()), default=0)
        weight = (C_VISIT + most) * C_SCALE
        return {a: logits[a] + weight * (q[a] - low) / spread for a in candidates}

    def _simulate(self, first: Any = None) -> None:
        """One simulation; ``first``, if given, is the root action it takes (halving)."""
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
            if first is not None:  # the root's action, chosen by the halving
                child = node.children.get(first)
                fresh = child is None
                if fresh:
                    child = node.children[first] = Node(first, len(node.totals))
                child.available += 1
                first = None
                s._apply_unchecked(child.action)
            elif player == CHANCE:
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

    def _aligned(self, node: Node, legal: list[Any], player: int) -> list[Node | None]:
        """``node.slots`` for ``legal``: each legal action's child (None if untried), lined up
        with ``legal``; with a prior, ``node.weights`` the prior each reads. Built again only
        when the legal actions differ from the last ones met (another determinisation). A
        decision's children are added by selection alone (the halving adds the root's, where
        it selects nothing), so the lists stay in step with ``children``."""
        last = node.legal
        children = node.children
        if last is not None and (last is legal or last == legal):
            return node.slots
        node.legal = legal
        slots = node.slots = [children.get(a) for a in legal]
        if self.prior is not None:
            mix = self.mix if player == self.player else 0.0
            even = mix / len(legal)
            if mix < 1.0:  # with mix 1 the prior is not read at all (nor its features computed)
                keep, priors = 1.0 - mix, self._priors(node, legal)
                node.weights = [keep * priors[a] + even for a in legal]
            else:
                node.weights = [even] * len(legal)
        return slots

    def _expand(self, node: Node, legal: list[Any], i: int) -> Node:
        """A new child for ``legal[i]``, first visit counted as available."""
        action = legal[i]
        child = node.children[action] = node.slots[i] = Node(action, len(node.totals))
        child.available = 1
        return child

    def _select(self, node: Node, legal: list[Any], player: int) -> tuple[Node, bool]:
        if self.prior is not None:
            return self._select_puct(node, legal, player)
        slots = self._aligned(node, legal, player)
        untried = [i for i, child in enumerate(slots) if child is None]
        for child in slots:
            if child is not None:
                child.available += 1
        if untried:
            return self._expand(node, legal, untried[self.rng.randrange(len(untried))]), True
        c = self.c
        best, best_score = None, -math.inf
        for child in slots:
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
        slots = self._aligned(node, legal, player)
        total = 0
        for child in slots:
            if child is not None:
                child.available += 1
                total += child.visits
        # First-play urgency: an unvisited action is worth the parent's mean for now.
        fpu = node.totals[player] / node.visits if node.visits else 0.5
        scale = self.c * math.sqrt(total + 1)
        best, best_score = 0, -math.inf
        for i, (child, p) in enumerate(zip(slots, node.weights, strict=True)):
            if child is None:
                score = fpu + scale * p
            else:
                n = child.visits
                score = child.totals[player] / n + scale * p / (1 + n)
            if score > best_score:
                best, best_score = i, score
        child = slots[best]
        if child is None:
            return self._expand(node, legal, best), True
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
        """The action to play: with ``halving``, the one the last run kept; else the root's
        most visited action (ties: the higher mean value, then the first met)."""
        p = self.player
        children = list(self.root.children.values())
        if not children:
            raise ValueError("the search has not run yet")
        if self.chosen is not None:
            return self.chosen
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
