"""A game's plug-in surface: declared once on its Game class, read by every generic algorithm.

A toy game added through its declaration alone is searched, played, estimated and ranked;
a game that declares secrets without drawing them anew is refused; no generic module finds a
game by its module's name."""

from __future__ import annotations

import ast
import dataclasses
import random
from fractions import Fraction
from pathlib import Path

import pytest

from coronas.engine import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    RuleSet,
    State,
    available_games,
    play,
    register_game,
)
from coronas.engine.mcts import Search, game_defaults
from coronas.engine.mctsbot import MCTSBot
from coronas.engine.search import RandomBot
from coronas.engine.surface import GameSpec, check_secrets
from coronas.manygames.questions import Questions


# -- a toy game that exists only through its declaration ----------------------------------------
@dataclasses.dataclass(frozen=True)
class Take(Action):
    """Take one or two counters from the pile; whoever takes the last one wins."""

    n: int

    def __str__(self) -> str:
        return f"take {self.n}"


@dataclasses.dataclass(frozen=True)
class Pile(Action):
    size: int

    def __str__(self) -> str:
        return f"a pile of {self.size}"


@dataclasses.dataclass(frozen=True)
class NimRules(RuleSet):
    sizes: tuple[int, ...] = (4, 5)


class NimState(Questions, State):  # Questions: state.win_chances() and state.rank_actions()
    def _setup(self) -> None:
        self.pile: int | None = None
        self.mover = 0
        self.winner: int | None = None

    def _current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.pile is None else self.mover

    def _chance_outcomes(self):
        sizes = self.rules.sizes
        return [(Pile(s), Fraction(1, len(sizes))) for s in sizes]

    def _legal_actions(self):
        return [Take(n) for n in (1, 2) if n <= self.pile]

    def _apply(self, action) -> None:
        if isinstance(action, Pile):
            self.pile = action.size
            return
        self.pile -= action.n
        if self.pile == 0:
            self.winner = self.mover
        self.mover = 1 - self.mover

    def _returns(self):
        return [1 if p == self.winner else 0 for p in range(2)]

    def winners(self):
        return [] if self.winner is None else [self.winner]


class TakeOne:
    """A toy bot: always take one counter."""

    name = "take-one"
    calls = 0

    def choose(self, state, rng):
        TakeOne.calls += 1
        return Take(1)


def nim_value(state: NimState) -> tuple[float, float]:
    """The toy's evaluation: the mover wins a pile that is not a multiple of 3."""
    if state.pile is None or state.winner is not None:
        return (0.5, 0.5)
    p = 1.0 if state.pile % 3 else 0.0
    return (p, 1 - p) if state.mover == 0 else (1 - p, p)


@register_game
class NimGame(Game):
    name = "toy-nim"
    state_class = NimState
    rules_class = NimRules
    action_types = (Take, Pile)

    @classmethod
    def declare(cls) -> GameSpec:
        return GameSpec(
            bots={"take-one": TakeOne},
            playout=TakeOne(),
            evaluate=nim_value,
            search={"simulations": 50},
            common_random_numbers=False,
        )


def test_a_toy_game_is_registered_named_and_played_through_its_declaration():
    assert available_games()["toy-nim"] is NimGame
    assert set(NimGame.bots()) == {"random", "take-one"}  # random is always offered
    state = NimGame(seed=1).new_initial_state()
    final = play(state, [NimGame.bot("take-one"), NimGame.bot("random")], random.Random(2))
    assert final.is_terminal()


def test_the_search_takes_the_declared_playout_and_evaluation():
    state = NimGame(seed=1).new_initial_state()
    state.apply(Pile(4))
    spec = game_defaults(state)
    assert spec is NimGame.spec()
    assert spec.evaluate is nim_value and not spec.common_random_numbers
    TakeOne.calls = 0
    search = Search(state, rng=3)
    assert search.playout is spec.playout
    search.run(simulations=30)
    assert TakeOne.calls > 0  # the playouts were played by the declared policy
    # From a pile of 4 the winning move leaves a multiple of 3: take 1.
    assert MCTSBot(simulations=300, seed=5).choose(state, random.Random(0)) == Take(1)


def test_win_chances_and_rankings_work_for_the_toy_game():
    state = NimGame(seed=1).new_initial_state()
    state.apply(Pile(4))
    chances = state.win_chances(bots="random", games=40, seed=1, exact=False)
    assert chances.games == 40 and not chances.exact
    # Exact under random play from a pile of 4, worked by hand: the mover wins with
    # W(4) = 1/2 (1 - W(3)) + 1/2 (1 - W(2)), W(1) = 1, W(2) = 1/2 + 1/2 (1 - 1) = 1/2,
    # W(3) = 1/2 (1 - 1/2) + 1/2 (1 - 1) = 1/4, so W(4) = 3/8 + 1/4 = 5/8.
    exact = state.win_chances(bots="random")
    assert exact.exact and exact.chances[0] == Fraction(5, 8)
    ranking = state.rank_actions(bots="random")
    # After taking 1 the opponent faces 3 (wins 1/4): 3/4; after taking 2, faces 2: 1/2.
    assert [(r["action"], r["chance"]) for r in ranking.rows] == [
        (Take(1), Fraction(3, 4)),
        (Take(2), Fraction(1, 2)),
    ]


# -- secrets are declared, and a declaration without a resample is refused ----------------------
def test_a_game_that_declares_secrets_without_a_resample_is_refused_when_defined():
    with pytest.raises(TypeError, match=r"declares secrets .* no resample"):

        @register_game
        class Careless(Game):
            name = "toy-careless"
            state_class = NimState
            has_secrets = True

    assert "toy-careless" not in available_games()


def test_a_game_with_secrets_and_a_resample_is_accepted():
    class Dealt(NimState):
        def resample(self, player, rng):
            return self.clone()

    class Careful(Game):
        name = "toy-careful"
        has_secrets = True

    check_secrets(Careful, Dealt)  # no error
    with pytest.raises(TypeError):
        check_secrets(Careful, NimState)


def test_every_shipped_game_declares_its_secrets_and_its_surface():
    games = available_games()
    assert {n: games[n].has_secrets for n in ("batalla", "carolus", "hierro")} == {
        "batalla": False,
        "carolus": False,
        "hierro": True,  # loyalty cards and hands
    }
    for name in ("batalla", "carolus", "hierro"):
        spec = games[name].spec()
        assert {"random", "greedy", "light", "mcts", "policy"} <= set(spec.bots)
        assert spec.evaluate is not None and spec.learning is not None
        assert not isinstance(spec.playout, RandomBot)
        assert spec.drawing is not None


# -- no generic module finds a game by its module's name -----------------------------------------
ROOT = Path(__file__).resolve().parent.parent / "coronas"
GENERIC = [
    *sorted((ROOT / "engine").glob("*.py")),
    *sorted(p for p in ROOT.glob("*.py") if not p.name.startswith("_")),
    *sorted((ROOT / "manygames").glob("*.py")),
    *sorted((ROOT / "widgets" / "stepper").glob("*.py")),
    ROOT / "widgets" / "_render.py",
    *(ROOT / "cli" / f"{n}.py" for n in ("simulate", "tournament", "play", "advise", "train")),
]
GAMES = ("coronas.hierro", "coronas.carolus", "coronas.batalla")


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: str(p.relative_to(ROOT)))
def test_generic_code_imports_no_game_by_name(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            assert not node.module.startswith(GAMES), f"{path.name}:{node.lineno}"
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith(GAMES) for a in node.names), path.name
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
            # a module named at run time from a game's package is a guess, not a declaration
            assert not any(isinstance(a, ast.JoinedStr) for a in node.args), (
                f"{path.name}:{node.lineno} builds a module name"
            )


@pytest.mark.parametrize("game", ["batalla", "carolus", "hierro"])
def test_a_games_playout_reads_nothing_of_its_learned_models(game):
    # docs/architecture.md: features.py reads the light player's helpers in playout.py and
    # holds the value model a cut playout is scored by; playout.py, the policy alone, never
    # reads features.py back (no import circle between the two).
    tree = ast.parse((ROOT / game / "playout.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        assert f"coronas.{game}.features" not in names, f"playout.py:{node.lineno}"


ABOVE_THE_ENGINE = ("coronas.manygames", "coronas.widgets", "coronas.plotting", "coronas.cli")


@pytest.mark.parametrize(
    "path", sorted((ROOT / "engine").glob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_the_engine_imports_nothing_from_the_floors_above_it(path):
    # docs/architecture.md: each layer uses only the ones below it. A position answers who
    # wins and which move through the Questions its game's state inherits from the floor
    # of many games, not by an import from the engine up to it.
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
        assert not any(n.startswith(ABOVE_THE_ENGINE) for n in names), f"{path.name}:{node.lineno}"
