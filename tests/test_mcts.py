"""Monte Carlo tree search: UCB1 and backup on tiny games whose answers are worked out by hand,
chance kept as chance, budgets, reproducibility, the bot's spec, and a small strength check."""

from __future__ import annotations

import dataclasses
import math
import pickle
import random
from fractions import Fraction

import networkx as nx
import pytest

from coronas.cli._base import CommandError
from coronas.cli.games import make_bots
from coronas.engine import CHANCE, TERMINAL, Action, Game, RandomBot, RuleSet, State, mcts, play
from coronas.engine.mcts import EXPLORATION, Search, game_defaults, search
from coronas.engine.mctsbot import DEFAULT_SIMULATIONS, MCTSBot, parse_budget, tuned


# -- a one-move game for three: the chooser decides who wins ---------------------------------------
@dataclasses.dataclass(frozen=True)
class Pick(Action):
    winners: tuple[int, ...]

    def __str__(self) -> str:
        return "win for " + " and ".join(map(str, self.winners))


class PickState(State):
    def _setup(self) -> None:
        self.picked: tuple[int, ...] | None = None

    def _current_player(self) -> int:
        return 0 if self.picked is None else TERMINAL

    def _legal_actions(self):
        return [Pick((1,)), Pick((0, 2)), Pick((0,)), Pick((2,))]

    def _chance_outcomes(self):
        return []

    def _apply(self, action) -> None:
        self.picked = action.winners

    def _returns(self):
        return [1 if p in self.picked else 0 for p in range(3)]


class PickGame(Game):
    name = "pick"
    state_class = PickState
    rules_class = RuleSet
    action_types = (Pick,)
    min_players = max_players = 3


# -- a gamble on a die against a sure draw: chance must be averaged, not chosen --------------------
@dataclasses.dataclass(frozen=True)
class Choice(Action):
    gamble: bool


@dataclasses.dataclass(frozen=True)
class Face(Action):
    value: int


class GambleState(State):
    """Player 0 takes a draw (both players win: 1/2 each) or gambles on a d6: a 6 wins, else
    player 1 wins. Gambling is worth 1/6 < 1/2; a search that let player 0 pick the face
    would gamble."""

    def _setup(self) -> None:
        self.gamble: bool | None = None
        self.face: int | None = None

    def _current_player(self) -> int:
        if self.gamble is None:
            return 0
        if self.gamble and self.face is None:
            return CHANCE
        return TERMINAL

    def _legal_actions(self):
        return [Choice(True), Choice(False)]

    def _chance_outcomes(self):
        return [(Face(v), Fraction(1, 6)) for v in range(1, 7)]

    def _apply(self, action) -> None:
        if isinstance(action, Choice):
            self.gamble = action.gamble
        else:
            self.face = action.value

    def _returns(self):
        if not self.gamble:
            return [1, 1]
        return [1, 0] if self.face == 6 else [0, 1]


class GambleGame(Game):
    name = "gamble"
    state_class = GambleState
    rules_class = RuleSet
    action_types = (Choice, Face)


def test_every_seat_gets_its_win_share_and_the_winning_move_is_found():
    state = PickGame().new_initial_state()
    found = search(state, simulations=200, rng=1)
    assert found.best() == Pick((0,))
    rows = {r["action"]: r for r in found.table()}
    # A one-move game: each child's mean is its exact win share for every seat.
    assert rows[Pick((0,))]["values"] == (1.0, 0.0, 0.0)
    assert rows[Pick((0, 2))]["values"] == (0.5, 0.0, 0.5)
    assert rows[Pick((1,))]["values"] == (0.0, 1.0, 0.0)
    assert rows[Pick((2,))]["values"] == (0.0, 0.0, 1.0)
    assert sum(r["visits"] for r in rows.values()) == found.root.visits == 200
    # Root mean for seat 0: the visit-weighted mean of its children's values.
    assert found.root.value(0) == pytest.approx(
        sum(r["visits"] * r["values"][0] for r in rows.values()) / 200
    )


def test_ucb1_scores_follow_the_formula():
    """After each of the four moves is tried once (expansion), UCB1 picks the highest
    mean + c sqrt(ln N / n): with N = n = 1 every bonus is c, so the sole winner is next."""
    state = PickGame().new_initial_state()
    found = Search(state, rng=0).run(simulations=4)
    assert sorted(n.visits for n in found.root.children.values()) == [1, 1, 1, 1]
    found.run(simulations=1)
    assert found.root.children[Pick((0,))].visits == 2
    # With c = 0 the search is greedy: every later simulation goes to the winning move.
    greedy = Search(state, rng=0, c=0).run(simulations=50)
    assert greedy.root.children[Pick((0,))].visits == 47


def test_chance_is_sampled_not_chosen():
    state = GambleGame().new_initial_state()
    found = search(state, simulations=3000, rng=5)
    assert found.best() == Choice(False)
    rows = {r["action"]: r for r in found.table()}
    assert rows[Choice(False)]["value"] == 0.5
    gamble = found.root.children[Choice(True)]
    assert gamble.player == CHANCE
    # The gamble's value estimates 1/6 from its visits; binomial, 4 standard errors.
    n = gamble.visits
    assert n >= 30
    sd = (1 / 6 * 5 / 6 / n) ** 0.5
    assert abs(gamble.value(0) - 1 / 6) < 4 * sd
    # Faces are met with their probabilities: every face was drawn, none of them chosen.
    assert {o.value for o in gamble.children} == {1, 2, 3, 4, 5, 6}


def test_a_seed_gives_the_same_search_and_a_budget_is_kept():
    state = GambleGame().new_initial_state()
    a = search(state, simulations=300, rng=11)
    b = search(state, simulations=300, rng=11)
    assert a.table() == b.table()
    assert a.simulations == a.root.visits == 300
    a.run(simulations=50)
    assert a.root.visits == 350
    timed = search(state, seconds=0.01, rng=1)
    assert timed.simulations >= 1 and timed.root.visits == timed.simulations
    with pytest.raises(ValueError, match="one of them"):
        Search(state).run()
    with pytest.raises(ValueError, match="one of them"):
        Search(state).run(simulations=1, seconds=1)
    with pytest.raises(ValueError, match="starts at a decision"):
        Search(state.child(Choice(True)))


def test_cut_playouts_are_scored_by_the_evaluation():
    state = GambleGame().new_initial_state()

    def evaluate(s: State) -> tuple[float, float]:
        return (0.9, 0.1)

    # Two simulations expand the two moves. Depth 0: the gamble's playout stops at once, at
    # the chance node, and is scored by the evaluation; the draw ends the game (1/2 each).
    found = Search(state, rng=2, evaluate=evaluate, depth=0).run(simulations=2)
    assert found.root.children[Choice(True)].values() == (0.9, 0.1)
    assert found.root.children[Choice(False)].values() == (0.5, 0.5)
    # Without a depth the evaluation is not used: the gamble's one playout ends the game.
    full = Search(state, rng=2, evaluate=evaluate).run(simulations=2)
    assert full.root.children[Choice(True)].values() in ((1.0, 0.0), (0.0, 1.0))
    with pytest.raises(ValueError, match="evaluate"):
        Search(state, depth=3)


def test_a_cut_playout_runs_on_to_a_settled_position():
    """Depth 0, but only a position with no die pending counts as settled: the gamble's
    playout rolls the die and ends the game (so the evaluation, which says 0.9 to player 0,
    never scores it); with a settled test that always holds, it is cut at the die."""
    state = GambleGame().new_initial_state()
    scored: list[State] = []

    def evaluate(s: State) -> tuple[float, float]:
        scored.append(s.clone())
        return (0.9, 0.1)

    def no_die_pending(s: State) -> bool:
        return s.current_player != CHANCE

    found = Search(state, rng=2, evaluate=evaluate, depth=0, settled=no_die_pending)
    found.run(simulations=40)
    gamble = found.root.children[Choice(True)]
    assert gamble.visits > 0
    assert sum(gamble.values()) == pytest.approx(1.0)  # finished games' shares, never 0.9
    assert scored == []  # the sure draw ends the game too: nothing was left to evaluate
    cut = Search(state, rng=2, evaluate=evaluate, depth=0, settled=lambda s: True)
    assert cut.run(simulations=2).root.children[Choice(True)].values() == (0.9, 0.1)


def test_carolus_and_hierro_playouts_are_scored_only_when_settled():
    """The games' own settled tests: Carolus Magnus once the emperor has stopped (between two
    turns), Corona de Hierro at a seat's turn (no dice or cards pending)."""
    from coronas.carolus import Game as Carolus
    from coronas.carolus.features import evaluate as carolus_evaluate
    from coronas.hierro import Game as Hierro
    from coronas.hierro.features import evaluate as hierro_evaluate

    for game, evaluate, steps in (
        (Carolus(players=2, seed=4), carolus_evaluate, lambda s: s.phase),
        (Hierro(players=3, seed=4), hierro_evaluate, lambda s: s.step),
    ):
        state = game.new_initial_state()
        rng = random.Random(4)
        while state.is_chance_node() or len(state.legal_actions()) < 2:
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0]
            )
        seen: list[str] = []

        def recording(s: State, evaluate=evaluate, steps=steps, seen=seen) -> tuple[float, ...]:
            seen.append(steps(s))
            return evaluate(s)

        Search(state, rng=1, evaluate=recording, depth=0).run(simulations=30)
        assert seen, "some playouts were cut"
        allowed = {"replenish", "disc", "order"} if game.name == "carolus" else {"play"}
        assert set(seen) <= allowed, seen


def test_the_tree_reads_as_a_table_and_a_graph():
    state = GambleGame().new_initial_state()
    found = search(state, simulations=40, rng=3)
    text = found.table_text()
    assert "40 simulations from player 1" in text
    assert "Choice(gamble=False)" in text
    g = found.graph()
    assert isinstance(g, nx.DiGraph)
    assert g.nodes[0]["visits"] == 40 and g.nodes[0]["action"] == ""
    assert sum(g.nodes[c]["visits"] for c in g.successors(0)) == 40
    top = found.graph(max_depth=1)
    assert max(d for _, d in top.nodes(data="depth")) == 1


# -- a game that can go round for ever: a playout must still end -----------------------------------
@dataclasses.dataclass(frozen=True)
class Step(Action):
    name: str


class LoopState(State):
    """Seat 0 stops (and wins) or wanders; once wandering, the seats pass for ever."""

    def _setup(self) -> None:
        self.where = "start"
        self.passes = 0

    def _current_player(self) -> int:
        if self.where == "stopped":
            return TERMINAL
        return self.passes % 2

    def _legal_actions(self):
        if self.where == "start":
            return [Step("stop"), Step("wander")]
        return [Step("pass")]

    def _chance_outcomes(self):
        return []

    def _apply(self, action) -> None:
        if action.name == "pass":
            self.passes += 1
        else:
            self.where = "stopped" if action.name == "stop" else "wandering"

    def _returns(self):
        return [1, 0]


class LoopGame(Game):
    name = "loop"
    state_class = LoopState
    rules_class = RuleSet
    action_types = (Step,)
    min_players = max_players = 2


def test_a_playout_that_never_ends_is_scored_where_it_stands(monkeypatch):
    """MAX_PLAYOUT actions into a playout with no end in sight, the search scores it as a
    draw (1/2 each, 2 seats) or, given an evaluation, by the evaluation; stopping wins."""
    monkeypatch.setattr(mcts, "MAX_PLAYOUT", 50)
    state = LoopGame().new_initial_state()
    found = Search(state, rng=1).run(simulations=2)
    assert found.root.children[Step("wander")].values() == (0.5, 0.5)
    assert found.root.children[Step("stop")].values() == (1.0, 0.0)
    assert found.best() == Step("stop")
    judged = Search(state, rng=1, evaluate=lambda s: (0.25, 0.75)).run(simulations=2)
    assert judged.root.children[Step("wander")].values() == (0.25, 0.75)


def test_defaults_fall_back_to_random_full_playouts():
    defaults = game_defaults(GambleGame().new_initial_state())
    assert isinstance(defaults.playout, RandomBot) and defaults.evaluate is None


# -- the bot and its spec --------------------------------------------------------------------------
def test_budget_specs():
    assert parse_budget("2000") == {"simulations": 2000}
    assert parse_budget("1s") == {"seconds": 1.0}
    assert parse_budget("0.5s") == {"seconds": 0.5}
    assert parse_budget(".5s") == {"seconds": 0.5}
    assert parse_budget("10000000") == {"simulations": 10_000_000}
    for bad in ("", "abc", "0", "-3", "0s", "1.5", "inf s", "nans", "2 000"):
        with pytest.raises(ValueError, match="expected a number of simulations"):
            parse_budget(bad)


@pytest.mark.parametrize(
    "bad",
    [
        "\u0665",  # an Arabic-Indic five, which int() reads as 5
        "\u0665s",
        "1_000",  # int() and float() read the underscore as a separator
        "1_0s",
        "1e3",
        "1e1s",
        "10000001",  # one above the limit
        "3601s",
        "\uff11\uff10",  # fullwidth digits
    ],
)
def test_budgets_are_ascii_digits_within_their_limits(bad):
    with pytest.raises(ValueError) as refused:
        parse_budget(bad)
    message = str(refused.value)
    assert "from 1 to 10,000,000" in message and "at most 3600" in message, message
    assert "digits 0-9" in message and repr(bad) in message


def test_a_budget_refused_by_name_names_the_bot_and_the_limit():
    from coronas.batalla import Game

    for spec in ("mcts:10000001", "mcts:\u0665", "mcts:1_000"):
        with pytest.raises(ValueError, match=f"bot {spec!r}: expected .* from 1 to 10,000,000"):
            Game.bot(spec)


def test_a_budget_of_more_than_a_minute_a_decision_is_said_when_the_bot_is_made(
    caplog, monkeypatch
):
    import logging

    from coronas.batalla import Game
    from coronas.engine import mctsbot
    from coronas.engine.mctsbot import decision_seconds, warn_if_slow

    monkeypatch.setattr(mctsbot, "_warned", set())  # said once a process: start afresh
    caplog.set_level(logging.WARNING, logger="coronas")
    # Batalla's tuned search: 1000 simulations in at most half a second, 0.5 ms each
    from coronas.batalla.playout import SEARCH

    assert SEARCH["simulations"] == 1000
    bot = Game.bot("mcts:10000000")
    assert decision_seconds(bot) == pytest.approx(5000)
    lines = [r.getMessage() for r in caplog.records]
    assert any("mcts:10000000 takes about 83 minutes a decision" in line for line in lines), lines
    caplog.clear()
    Game.bot("mcts:2000")  # a second a decision: nothing said
    Game.bot("mcts:30s")
    assert caplog.records == []
    assert "about 90 seconds a decision" in warn_if_slow(MCTSBot(seconds=90), "mcts:90s")
    # an untuned search: a millisecond a simulation
    assert "about 2.8 hours" in warn_if_slow(MCTSBot(simulations=10_000_000), "mcts:1e7")
    assert warn_if_slow(MCTSBot(simulations=60_000), "quick") is None


def test_bot_repr_names_its_settings_and_the_bot_pickles():
    assert repr(MCTSBot()) == (
        f"MCTSBot(simulations={DEFAULT_SIMULATIONS}, c={EXPLORATION:.4g}, playout='default')"
    )
    assert repr(MCTSBot(seconds=0.5, c=2, playout=RandomBot())) == (
        "MCTSBot(seconds=0.5, c=2, playout='random')"
    )
    assert "playout='policy'" in repr(MCTSBot(playout="policy"))  # a game's bot by name
    bot = MCTSBot(simulations=20, seed=4)
    state = GambleGame().new_initial_state()
    assert bot.choose(state, random.Random(1)) == Choice(False)
    assert bot.last is not None
    again = pickle.loads(pickle.dumps(bot))
    assert again.last is None and repr(again) == repr(bot)
    assert again.choose(state, random.Random(1)) == Choice(False)
    with pytest.raises(ValueError, match="not both"):
        MCTSBot(simulations=3, seconds=1)


def test_command_line_bot_specs():
    from coronas.batalla import Game as Batalla

    names, bots = make_bots(Batalla, "mcts:300,mcts:0.5s", 2)
    assert names == ["mcts:300", "mcts:0.5s"]
    assert (bots[0].simulations, bots[1].seconds) == (300, 0.5)
    assert make_bots(Batalla, "mcts", 2)[1][0].simulations == 1000  # Batalla's own budget
    from coronas.carolus import Game as Carolus
    from coronas.carolus.playout import SEARCH

    assert make_bots(Carolus, "mcts", 2)[1][0].simulations == SEARCH["simulations"]
    assert MCTSBot().simulations == DEFAULT_SIMULATIONS  # the engine's bot, untuned
    with pytest.raises(CommandError, match=r"mcts:fast.*expected a number of simulations"):
        make_bots(Batalla, "mcts:fast", 2)
    with pytest.raises(CommandError, match="takes no settings"):
        make_bots(Batalla, "greedy:2", 2)
    with pytest.raises(CommandError, match="did you mean 'mcts'"):
        make_bots(Batalla, "mtcs", 2)


def batalla_material(state: State) -> tuple[float, float]:
    """A small evaluation for cut playouts: each side's share of gems (weighted 3), swords,
    shields and dragon levels, plus one."""
    a, b = (
        1 + 3 * state.gems_won[p] + state.swords[p] + state.shields[p] + state.dragon[p]
        for p in (0, 1)
    )
    return (a / (a + b), b / (a + b))


def test_small_search_beats_random_at_batalla():
    """18 of 20 seeded games or more, seats alternating (a regression check of strength):
    the game's own search bot (its exploration constant, playouts cut and scored by the
    game's evaluate) with 20 simulations a decision."""
    from coronas.batalla import Game as Batalla

    wins = 0
    for g in range(20):
        seat = g % 2
        bots = [RandomBot(), RandomBot()]
        bots[seat] = Batalla.bot("mcts:20")
        state = play(Batalla(seed=g).new_initial_state(), bots, rng=g)
        wins += state.winners() == [seat]
    assert wins >= 18


def test_each_game_names_its_tuned_search_bot():
    from coronas.batalla import Game as Batalla
    from coronas.batalla.features import evaluate
    from coronas.batalla.playout import SEARCH

    bot = Batalla.bot("mcts")
    assert (bot.simulations, bot.c, bot.depth) == (
        SEARCH["simulations"],
        SEARCH["c"],
        SEARCH["depth"],
    )
    timed = Batalla.bot("mcts:1s")
    assert timed.seconds == 1 and timed.simulations is None and timed.depth == SEARCH["depth"]
    assert bot.prior is None and "prior" not in SEARCH  # plain UCT: the prior copies greedy
    assert repr(bot) == (
        f"MCTSBot(simulations={SEARCH['simulations']}, c={SEARCH['c']:.4g}, "
        "playout='default', depth=3)"
    )
    state = Batalla(seed=1).new_initial_state()
    assert game_defaults(state).evaluate is evaluate  # the cut playouts' scores
    with pytest.raises(ValueError, match="unknown search settings: width"):
        tuned({"width": 3})


def test_the_stepper_seats_a_search_bot():
    from coronas.hierro import Game as Hierro
    from coronas.widgets.stepper.model import StepperModel

    bot = MCTSBot(simulations=5)
    model = StepperModel(Hierro(players=3, seed=1).new_initial_state(), bots={0: bot})
    moved = 0
    while moved < 3:
        player = model.state.current_player
        if player == CHANCE:
            model.roll()
            continue
        assert player == 0 or model.play(model.state.legal_actions()[0])
        if player == 0:
            assert model.bot_move() is not None
            assert bot.last.simulations == 5
            moved += 1


def test_search_bots_travel_to_worker_processes():
    """simulate sends the bots to other processes: the same games either way."""
    from functools import partial

    from coronas.batalla import Game as Batalla
    from coronas.manygames.simulate import simulate

    bots = [MCTSBot(simulations=5, evaluate=batalla_material, depth=4), RandomBot()]
    factory = partial(Batalla, players=2)
    one = simulate(factory, bots, 4, seed=3, progress=False, chunk_size=2)
    two = simulate(factory, bots, 4, seed=3, progress=False, jobs=2, chunk_size=2)
    assert one.records == two.records


@pytest.mark.parametrize("spec", ["policy:\u0665", "policy:1_0", "policy:1e1", "policy:"])
def test_the_policy_bots_temperature_is_read_in_plain_digits_too(spec):
    from coronas.batalla import Game

    assert Game.bot("policy:0.5").temperature == 0.5
    with pytest.raises(ValueError, match=r"expected a temperature from 0 to 100 .* digits 0-9"):
        Game.bot(spec)
    with pytest.raises(ValueError, match="from 0 to 100"):
        Game.bot("policy:101")


# -- PUCT: the tree focused by a move prior -----------------------------------------------------
class FixedPrior:
    """A move prior for tests: the given probability for each action, in order."""

    def __init__(self, by_action):
        self.by_action = by_action
        self.calls = 0

    def probabilities(self, state, actions):
        self.calls += 1
        return [self.by_action[a] for a in actions]


def test_puct_finds_the_winning_move_though_the_prior_points_elsewhere():
    # Seven tenths of the prior on a move that loses: PUCT tries it first, then the others,
    # and its visits go to the win once seen.
    misleading = FixedPrior({Pick((1,)): 0.7, Pick((0, 2)): 0.1, Pick((0,)): 0.1, Pick((2,)): 0.1})
    state = PickGame().new_initial_state()
    found = search(state, simulations=200, rng=1, prior=misleading)
    assert found.best() == Pick((0,))
    visits = {r["action"]: r["visits"] for r in found.table()}
    assert visits[Pick((0,))] > 150
    assert misleading.calls == 1  # a node's prior is computed once in a game with no secrets
    assert found.root.priors == misleading.by_action


def test_puct_follows_the_formula():
    # c * P * sqrt(N + 1) / (1 + n) added to the mean; unvisited actions start at the parent's
    # mean. After the root's first visits the next choice is the one of highest score.
    state = PickGame().new_initial_state()
    prior = FixedPrior({Pick((1,)): 0.4, Pick((0, 2)): 0.3, Pick((0,)): 0.2, Pick((2,)): 0.1})
    found = Search(state, rng=0, c=1.0, prior=prior).run(simulations=3)
    # first: unvisited all at fpu 0.5 + P: (1,) (loses); second: fpu 0 + sqrt(2) * P for the
    # unvisited, sqrt(2) * 0.4 / 2 for (1,): (0, 2), worth 1/2; third: fpu (0 + 0.5) / 2,
    # (0, 2) at 0.5 + sqrt(3) * 0.3 / 2 = 0.76 against 0.25 + sqrt(3) * 0.2 = 0.60: (0, 2).
    visits = {r["action"]: r["visits"] for r in found.table()}
    assert visits == {Pick((1,)): 1, Pick((0, 2)): 2}


def test_a_uniform_share_in_the_prior_lets_the_search_leave_a_sure_prior():
    # Ninety-seven hundredths of the prior on a move that loses: plain PUCT keeps paying the
    # move c * 0.97 * sqrt(N + 1) / (1 + n) and spends all 20 simulations on it (the others
    # get c * 0.01 * sqrt(N + 1), less until n reaches 96). With mix = 1 every action reads
    # 1/4: (1,) first (the first of the tie), (0, 2) next at fpu 0 + sqrt(2) / 4, again at
    # 0.5 + sqrt(3) / 8 = 0.72 against (0,)'s 0.25 + sqrt(3) / 4 = 0.68, then (0,) at
    # 1/3 + 2 / 4 = 0.83 against (0, 2)'s 0.5 + 2 / 12 = 0.67; it wins, and keeps the visits.
    state = PickGame().new_initial_state()
    sure = {Pick((1,)): 0.97, Pick((0, 2)): 0.01, Pick((0,)): 0.01, Pick((2,)): 0.01}
    plain = Search(state, rng=0, c=1.0, prior=FixedPrior(sure)).run(simulations=20)
    assert {r["action"]: r["visits"] for r in plain.table()} == {Pick((1,)): 20}
    unread = FixedPrior(sure)
    mixed = Search(state, rng=0, c=1.0, prior=unread, mix=1.0).run(simulations=20)
    visits = {r["action"]: r["visits"] for r in mixed.table()}
    assert visits[Pick((1,))] == 1 and visits[Pick((0, 2))] == 2
    assert mixed.best() == Pick((0,))
    assert unread.calls == 0  # the seat's own decisions, all of them here, never read it
    for wrong in (-0.1, 1.5):
        with pytest.raises(ValueError, match="between 0 and 1"):
            Search(state, prior=FixedPrior(sure), mix=wrong)
    bot = MCTSBot(simulations=20, c=1.0, prior=FixedPrior(sure), mix=1.0, seed=0)
    assert bot.choose(state, None) == Pick((0,)) and "mix=1" in repr(bot)
    assert pickle.loads(pickle.dumps(MCTSBot(mix=0.5))).mix == 0.5


def test_halving_at_the_root_plays_the_priors_move_until_the_games_say_otherwise():
    # Seat 0's values: (1,) 0, (0, 2) 1/2, (0,) 1, (2,) 0. Sequential halving over the prior's
    # likeliest actions, scored log P + (50 + most visits) * 0.1 * q, q rescaled to [0, 1].
    state = PickGame().new_initial_state()
    # The prior sure of (0, 2) (0.97), 0.01 on each other. Halving over all 4, 8 simulations:
    # round 1, one each (most visits 1, weight 5.1): (0, 2) log 0.97 + 5.1 * 1/2 = 2.52, (0,)
    # log 0.01 + 5.1 = 0.50, the two losses log 0.01 = -4.61: (0, 2) and (0,) kept. Round 2,
    # two more each (most 3, weight 5.3): (0, 2) 2.62 against (0,)'s 0.70. The prior's move.
    sure = {Pick((1,)): 0.01, Pick((0, 2)): 0.97, Pick((0,)): 0.01, Pick((2,)): 0.01}
    few = Search(state, rng=0, prior=FixedPrior(sure), halving=4).run(simulations=8)
    assert {r["action"]: r["visits"] for r in few.table()} == {
        Pick((0, 2)): 3,
        Pick((0,)): 3,
        Pick((1,)): 1,
        Pick((2,)): 1,
    }
    assert few.best() == Pick((0, 2)) and few.simulations == 8
    # 200 simulations: round 1, 25 each (weight 7.5): (0, 2) 3.72, (0,) 2.90; round 2, 50 more
    # each (most 75, weight 12.5): (0, 2) -0.03 + 6.25 = 6.22 against (0,)'s -4.61 + 12.5 = 7.89.
    # The games overrule the prior.
    many = Search(state, rng=0, prior=FixedPrior(sure), halving=4).run(simulations=200)
    assert many.best() == Pick((0,)) and many.root.children[Pick((0,))].visits == 75
    # Only the prior's likeliest are weighed: with 2, the prior's first two ((0, 2), then (1,),
    # the first of the tie in listing order); the win (0,) is never tried.
    two = Search(state, rng=0, prior=FixedPrior(sure), halving=2).run(simulations=50)
    assert set(two.root.children) == {Pick((0, 2)), Pick((1,))}
    assert two.best() == Pick((0, 2))
    bot = MCTSBot(simulations=200, c=1.0, prior=FixedPrior(sure), halving=4, seed=0)
    assert bot.choose(state, None) == Pick((0,)) and "halving=4" in repr(bot)
    assert pickle.loads(pickle.dumps(MCTSBot(halving=8))).halving == 8
    for wrong in (1, -2, True, 2.5):
        with pytest.raises(ValueError, match="halving"):
            Search(state, prior=FixedPrior(sure), halving=wrong)
    with pytest.raises(ValueError, match="give prior="):
        Search(state, halving=4)


def test_halving_keeps_a_time_budget():
    # With seconds, each round gets its share of the time: every candidate of the first round
    # is visited, and the search ends about when asked (generous bound for a loaded machine).
    import time

    state = PickGame().new_initial_state()
    prior = FixedPrior({Pick((1,)): 0.4, Pick((0, 2)): 0.3, Pick((0,)): 0.2, Pick((2,)): 0.1})
    began = time.perf_counter()
    found = Search(state, rng=0, prior=prior, halving=4).run(seconds=0.2)
    assert time.perf_counter() - began < 5
    assert set(found.root.children) == set(prior.by_action)
    assert found.best() == Pick((0,))


def test_puct_on_each_game_is_seeded_and_legal():
    from coronas.engine import available_games

    for name, players in (("batalla", 2), ("carolus", 2), ("hierro", 3)):
        game = available_games()[name]
        state = game(players=players, seed=4).new_initial_state()
        rng = random.Random(4)
        while state.is_chance_node() or len(state.legal_actions()) < 2:
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0]
            )
        first = search(state, simulations=40, rng=9, prior=True)
        again = search(state, simulations=40, rng=9, prior=True)
        assert first.best() == again.best()
        assert first.best() in state.legal_actions()
        assert [r["visits"] for r in first.table()] == [r["visits"] for r in again.table()]
        # The root's prior is a distribution over the legal actions met.
        assert sum(first.root.priors.values()) == pytest.approx(1.0, abs=1e-9) or game.has_secrets


def test_a_prior_that_is_not_one_is_refused():
    state = PickGame().new_initial_state()
    with pytest.raises(ValueError, match="probabilities"):
        Search(state, prior="yes")


def test_both_searches_are_offered_in_every_game():
    from coronas.engine import available_games

    for name in ("batalla", "carolus", "hierro"):
        game = available_games()[name]
        bots = game.bots()
        assert {"mcts", "mcts-classic"} <= set(bots)
        classic, new = game.bot("mcts-classic"), game.bot("mcts")
        playout = __import__(f"coronas.{name}.playout", fromlist=["SEARCH_CLASSIC"])
        assert (
            classic.prior is None and classic.simulations == playout.SEARCH_CLASSIC["simulations"]
        )
        assert classic.c == playout.SEARCH_CLASSIC["c"]
        assert (
            new.prior is playout.SEARCH.get("prior")
            and new.simulations == playout.SEARCH["simulations"]
        )
        assert new.mix == playout.SEARCH.get("mix", 0.0) and classic.mix == 0.0
        assert new.halving == playout.SEARCH.get("halving", 0) and classic.halving == 0
        assert game.bot("mcts-classic:7").simulations == 7
        assert bots["mcts-classic"].name == "mcts-classic"
        # The classic search is the one before learning: its cut playouts are scored by the
        # value model's baseline, the new search's by the value model.
        assert classic.evaluate == "baseline" and new.evaluate is None
        assert pickle.loads(pickle.dumps(classic)).evaluate == "baseline"


def test_a_search_may_name_the_baseline_evaluation():
    """``evaluate="baseline"`` scores cut playouts by the evaluation the game's value model is
    measured against (Batalla's hand-set one): the same tree as that function given, another
    than the value model's."""
    from coronas.batalla import Game as Batalla
    from coronas.batalla.playout import hand_set_evaluate

    state = Batalla(seed=3).new_initial_state()
    while state.is_chance_node():
        state.apply(state.sample_chance(3))

    def tree(found: Search) -> list[tuple]:
        return [(n.action, n.visits, n.values()) for n in found.root.children.values()]

    named = Search(state, rng=5, evaluate="baseline", depth=3).run(simulations=60)
    given = Search(state, rng=5, evaluate=hand_set_evaluate, depth=3).run(simulations=60)
    model = Search(state, rng=5, depth=3).run(simulations=60)
    assert named.evaluate is hand_set_evaluate
    assert tree(named) == tree(given) != tree(model)


def test_a_named_evaluation_is_checked():
    state = PickGame().new_initial_state()
    with pytest.raises(ValueError, match="declares no value model"):
        Search(state, evaluate="baseline")
    with pytest.raises(ValueError, match="one of baseline, got 'hand-set'"):
        Search(state, evaluate="hand-set")
    with pytest.raises(ValueError, match="one of baseline, got 'model'"):
        MCTSBot(evaluate="model")
    with pytest.raises(ValueError, match="function of a state"):
        Search(state, evaluate=3)


# -- the lists a node keeps change nothing ---------------------------------------------------
class DictSearch(Search):
    """The selection rules as the formulas read, every action looked up in the node's
    dictionaries at every visit: the yardstick for the lists a node keeps (``Node.slots``)."""

    def _select(self, node, legal, player):
        if self.prior is not None:
            return self._select_puct(node, legal, player)
        children = node.children
        for a in legal:
            if a in children:
                children[a].available += 1
        untried = [a for a in legal if a not in children]
        if untried:
            return self._new(node, untried[self.rng.randrange(len(untried))]), True
        scores = [
            children[a].totals[player] / children[a].visits
            + self.c * math.sqrt(math.log(children[a].available) / children[a].visits)
            for a in legal
        ]
        return children[legal[scores.index(max(scores))]], False

    def _select_puct(self, node, legal, player):
        children = node.children
        mix = self.mix if player == self.player else 0.0
        priors = self._priors(node, legal) if mix < 1.0 else None
        for a in legal:
            if a in children:
                children[a].available += 1
        total = sum(children[a].visits for a in legal if a in children)
        fpu = node.totals[player] / node.visits if node.visits else 0.5
        scale = self.c * math.sqrt(total + 1)
        even = mix / len(legal)
        scores = []
        for a in legal:
            p = even if priors is None else (1.0 - mix) * priors[a] + even
            child = children.get(a)
            if child is None:
                scores.append(fpu + scale * p)
            else:
                scores.append(child.totals[player] / child.visits + scale * p / (1 + child.visits))
        best = legal[scores.index(max(scores))]
        if best in children:
            return children[best], False
        return self._new(node, best), True

    @staticmethod
    def _new(node, action):
        child = node.children[action] = mcts.Node(action, len(node.totals))
        child.available = 1
        return child


def _tree(node):
    """Every node's action, visits, availability and totals, depth first."""
    rows = [(node.action, node.visits, node.available, tuple(node.totals))]
    for child in node.children.values():
        rows.extend(_tree(child))
    return rows


@pytest.mark.parametrize(
    "settings",
    [{}, {"prior": True}, {"prior": True, "mix": 0.5}, {"prior": True, "halving": 4}],
    ids=["uct", "puct", "mix", "halving"],
)
def test_the_lists_a_node_keeps_grow_the_same_tree_as_the_formulas(settings):
    # Batalla and Carolus are searched on one copy (the same legal actions at a node every
    # time); Corona de Hierro's secrets give each simulation a determinisation of its own, whose
    # legal actions below the root differ, so the lists are built again there; the halving adds
    # the root's children itself. Every node's figures must be those of the plain rules.
    from coronas.engine import available_games

    for name, players in (("batalla", 2), ("carolus", 2), ("hierro", 3)):
        game = available_games()[name]
        state = game(players=players, seed=5).new_initial_state()
        rng = random.Random(5)
        light = game.bot("light")
        for _ in range(25):
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else light.choose(state, rng)
            )
        while state.is_chance_node() or len(state.legal_actions()) < 2:
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else light.choose(state, rng)
            )
        kept = Search(state, rng=3, depth=6, **settings).run(simulations=150)
        plain = DictSearch(state, rng=3, depth=6, **settings).run(simulations=150)
        assert _tree(kept.root) == _tree(plain.root), name
        assert kept.best() == plain.best()
