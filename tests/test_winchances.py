"""Whole-game win chances: exact answers worked out by hand, estimates with their intervals."""

import dataclasses
import math
from fractions import Fraction

from coronas.engine import CHANCE, TERMINAL, Action, Game, RandomBot, State
from coronas.manygames.questions import Questions
from coronas.manygames.winchances import exact_win_chances, from_counts


@dataclasses.dataclass(frozen=True)
class Six(Action):
    hit: bool


@dataclasses.dataclass(frozen=True)
class Pass(Action):
    pass


class RaceState(Questions, State):
    """Two players take turns to roll a d6; the first to roll a 6 wins. Before rolling, the
    player to move may only pass the die on (one legal action), which keeps the race a game."""

    def _setup(self) -> None:
        self.to_move = 0
        self.rolling = False
        self.winner = None

    def _current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.rolling else self.to_move

    def _legal_actions(self):
        return [Pass()]

    def _chance_outcomes(self):
        return [(Six(True), Fraction(1, 6)), (Six(False), Fraction(5, 6))]

    def _apply(self, action) -> None:
        if isinstance(action, Pass):
            self.rolling = True
        elif action.hit:
            self.winner = self.to_move
        else:
            self.rolling = False
            self.to_move = 1 - self.to_move

    def _returns(self):
        return [1 if p == self.winner else 0 for p in (0, 1)]


class RaceGame(Game):
    name = "race"
    state_class = RaceState
    action_types = (Six, Pass)


def test_a_race_with_a_cycle_is_solved_exactly():
    # P(first wins) = 1/6 + (5/6)**2 P(first wins), so 1/6 / (1 - 25/36) = 6/11
    state = RaceGame().new_initial_state()
    assert exact_win_chances(state, [RandomBot(), RandomBot()]) == (
        Fraction(6, 11),
        Fraction(5, 11),
    )


def test_a_bot_without_a_mixed_strategy_gets_no_exact_answer():
    def first(state, rng):
        return state.legal_actions()[0]

    assert exact_win_chances(RaceGame().new_initial_state(), [first, first]) is None


def test_an_estimate_carries_its_interval_and_its_games():
    chances = from_counts(
        ["red", "blue"],
        [Fraction(61, 2), Fraction(39, 2)],
        50,
        "if every seat plays like a player choosing at random (random)",
        "the whole table",
    )
    assert chances.chances == (Fraction(61, 100), Fraction(39, 100))
    lo, hi = chances.low[0], chances.high[0]
    assert lo < 0.61 < hi and 0.1 < hi - lo < 0.3  # 50 games: about 13 points each side
    text = str(chances)
    assert (
        "50 games, 95% intervals" in text
        and "if every seat plays like a player choosing at random (random)" in text
    )
    assert "red 61.0% (" in text


def test_an_estimate_of_the_race_holds_the_exact_answer():
    # 6/11 = 54.5% for the first player; 400 seeded games, the 95% interval about 5 points wide
    state = RaceGame().new_initial_state()
    from coronas.manygames.winchances import win_chances

    est = win_chances(state, RandomBot(), games=400, seed=1, exact=False)
    assert not est.exact and est.games == 400
    assert est.low[0] <= 6 / 11 <= est.high[0]
    assert est.chances[0] + est.chances[1] == 1
    again = win_chances(state, RandomBot(), games=400, seed=1, exact=False)
    assert again == est
    exact = win_chances(state, RandomBot())
    assert exact.exact and exact.chances == (Fraction(6, 11), Fraction(5, 11))
    assert "6/11 (54.5%)" in str(exact)


# -- the default bot, executors, and which move --------------------------------------------------
def duel_start():
    from tests.test_simulate import DuelGame

    return DuelGame().new_initial_state()


def test_the_duel_ranked_exactly_by_hand():
    # Seat 0 rolls a d6 or takes a sure 3; seat 1 then does either at random (1/2 each).
    # Take 3: seat 1 takes 3 too (a tie, 1/2 a win) or rolls (seat 0 wins on 1-2: 1/3, ties on
    # 3: 1/6), so 1/2 * 1/2 + 1/2 * (1/3 + 1/12) = 11/24. Roll: against a sure 3, 1/2 + 1/12
    # = 7/12; against a roll, 1/2 by symmetry: 1/2 * 7/12 + 1/2 * 1/2 = 13/24.
    from coronas.manygames.moves import rank_actions

    ranking = rank_actions(duel_start(), RandomBot())
    assert ranking.exact
    assert [(r["label"], r["chance"], r["best"]) for r in ranking.rows] == [
        ("roll the die", Fraction(13, 24), True),
        ("take a sure 3", Fraction(11, 24), False),
    ]
    assert "13/24" in str(ranking) and "best" in ranking._repr_html_()


def test_the_duel_estimated_on_common_random_numbers():
    state = duel_start()
    ranking = state.rank_actions(RandomBot(), games=600, seed=2, exact=False)
    assert not ranking.exact and ranking.games == 600
    exact = {"roll the die": 13 / 24, "take a sure 3": 11 / 24}
    for row in ranking.rows:
        assert row["low"] <= exact[row["label"]] <= row["high"], row
    assert ranking.rows[0]["label"] == "roll the die"
    # seeded: the same figures again, on one process or two
    again = state.rank_actions(RandomBot(), games=600, seed=2, exact=False, jobs=2)
    assert [r["chance"] for r in again.rows] == [r["chance"] for r in ranking.rows]


def test_close_moves_are_on_the_shortlist():
    ranking = duel_start().rank_actions(RandomBot(), games=40, seed=1, exact=False)
    # 40 games an action: intervals about 30 points wide, so 13/24 and 11/24 overlap
    assert ranking.rows[1]["shortlist"] and ranking.rows[1]["too_close"]
    assert "shortlist" in str(ranking).splitlines()[2]


def test_ranking_needs_a_decision():
    import pytest

    state = duel_start()
    state.apply(state.legal_actions()[0])  # seat 0 rolls: a chance node
    with pytest.raises(ValueError, match="needs a decision"):
        state.rank_actions()


def test_bots_by_name_the_default_bot_and_two_workers():
    from coronas.batalla import Game

    state = Game(seed=3, position={"gems_won": [2, 2]}).new_initial_state()
    import random

    rng = random.Random(3)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    light = state.win_chances(games=60, seed=4)
    assert light.assumption == "if every seat plays like the quick playout player (light)"
    assert light.view == "open position"
    assert state.win_chances("light", games=60, seed=4) == light
    assert state.win_chances(games=60, seed=4, jobs=2) == light
    greedy = state.win_chances(["greedy", "random"], games=20, seed=4)
    assert greedy.assumption == (
        "if player 1 plays like the greedy player (greedy), "
        "player 2 like a player choosing at random (random)"
    )
    narrow = state.win_chances(precision=0.1, seed=4)
    assert narrow.half_width <= 0.1 and narrow.games % 20 == 0


def test_bad_budgets_are_refused():
    import pytest

    state = duel_start()
    for kwargs, words in (
        ({"games": 0}, "games must be"),
        ({"precision": 2}, "precision is a half-width"),
        ({"time": -1}, "time is a number of seconds"),
        ({"jobs": 0}, "jobs must be"),
        ({"viewer": 5}, "viewer must be a seat"),
    ):
        with pytest.raises(ValueError, match=words):
            state.win_chances(RandomBot(), exact=False, **kwargs)
    with pytest.raises(ValueError, match="unknown bot 'gredy'"):
        state.win_chances("gredy")


def test_shared_wins_count_as_more_effective_games():
    # 40 games: 18 won, 18 lost, 4 shared. Shares: mean (18 + 2) / 40 = 1/2; mean square
    # (18 + 4/4) / 40 = 19/40, so the variance is 19/40 - 1/4 = 9/40 against 1/4 for plain
    # wins and losses: 40 * (1/4) / (9/40) = 44.4 effective games, Wilson's interval on them.
    from coronas.manygames.intervals import share_interval
    from coronas.manygames.simulate import wilson_interval

    n_eff = 40 * Fraction(1, 4) / Fraction(9, 40)
    assert n_eff == Fraction(400, 9)
    lo, hi = share_interval(20, 19, 40)
    expected = wilson_interval(float(n_eff) / 2, float(n_eff))
    assert abs(lo - expected[0]) < 1e-12 and abs(hi - expected[1]) < 1e-12
    assert hi - lo < wilson_interval(20, 40)[1] - wilson_interval(20, 40)[0]


def test_paired_differences_worked_by_hand():
    from coronas.manygames.intervals import paired_difference

    # pairs (game by game): 1-1, 0-1, 1-0 (the fourth game did not end after one action):
    # differences 0, -1, 1: mean 0, sample variance (0 + 1 + 1) / 2 = 1, half-width
    # 1.96 * sqrt(1/3) = 1.13, cut to [-1, 1]
    one, zero = Fraction(1), Fraction(0)
    assert paired_difference([one, zero, one, None], [one, one, zero, one]) == (0.0, -1.0, 1.0)
    # always half a win worse: no spread at all
    half = Fraction(1, 2)
    assert paired_difference([half] * 4, [one] * 4) == (-0.5, -0.5, -0.5)
    mean, lo, hi = paired_difference([one, zero, one, one, zero], [one, zero, one, zero, zero])
    assert mean == 0.2 and abs(hi - lo - 2 * 1.959963984540054 * math.sqrt(0.2 / 5)) < 1e-12


def test_every_game_gives_the_same_figures_on_two_worker_processes():
    # A state travels to the workers pickled (Corona de Hierro's without its board tables,
    # which each process builds once); the same seed gives the same games there.
    import pickle
    import random

    from coronas.engine import available_games

    for name, players in (("hierro", 3), ("carolus", 2), ("batalla", 2)):
        game = available_games()[name]
        state = game(players=players, seed=5).new_initial_state()
        rng = random.Random(5)
        for _ in range(60):
            state.apply(
                state.sample_chance(rng)
                if state.is_chance_node()
                else RandomBot().choose(state, rng)
            )
        again = pickle.loads(pickle.dumps(state))
        assert again.key() == state.key() and again.legal_actions() == state.legal_actions()
        one = state.win_chances(games=40, seed=2, exact=False)
        assert state.win_chances(games=40, seed=2, exact=False, jobs=2) == one


def test_moves_on_games_of_their_own_where_common_numbers_do_not_help():
    # the duel again (13/24 against 11/24), each move on games of its own
    ranking = duel_start().rank_actions(RandomBot(), games=600, seed=2, exact=False, common=False)
    exact = {"roll the die": 13 / 24, "take a sure 3": 11 / 24}
    for row in ranking.rows:
        assert row["low"] <= exact[row["label"]] <= row["high"], row
    assert "games of its own" in str(ranking)
    # Carolus Magnus says so itself: its moves part at the first draw from the bag
    from coronas.carolus import Game as Carolus

    state = Carolus(players=2, seed=1).new_initial_state()
    import random

    rng = random.Random(1)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply(
            state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0]
        )
    assert "games of its own" in str(state.rank_actions(games=4, seed=1))


# -- budgets kept, options and bots checked ----------------------------------------------------
def batalla_endgame():
    """Batalla at 2 gems each, the first decision: under the random bot play comes back to
    earlier positions and the chain has more than 20,000 of them, so no exact answer."""
    import random

    from coronas.batalla import Game as Batalla

    state = Batalla(seed=3, position={"gems_won": [2, 2]}).new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    return state


def test_a_deadline_stops_an_exact_walk_and_a_chain_fast():
    import time

    import pytest

    from coronas.engine.chains import absorption_distribution
    from coronas.engine.search import WalkOutOfTime, exact_distribution

    state = batalla_endgame()
    uniform = RandomBot().policy
    began = time.monotonic()
    with pytest.raises(WalkOutOfTime, match="did not finish in the time"):
        absorption_distribution(
            state, uniform, lambda s: tuple(s.winners()), deadline=time.monotonic()
        )
    with pytest.raises(WalkOutOfTime):
        exact_distribution(
            RaceGame().new_initial_state(),
            uniform,
            lambda s: s.winner,
            key=False,  # no transpositions: the walk would go 800 actions deep
            deadline=time.monotonic(),
        )
    # both give up at their first look at the clock: 256 positions or nodes
    assert time.monotonic() - began < 5


def test_time_bounds_the_exact_attempt_and_the_games():
    # The exact attempt used to build a 5,000-position chain (10 to 80 s) before the clock
    # started, and once for every move in a ranking. time=1 must now end within about a
    # second; 8 s leaves room for a loaded machine.
    import time

    state = batalla_endgame()
    began = time.monotonic()
    chances = state.win_chances("random", time=1)
    assert time.monotonic() - began < 8
    assert not chances.exact and chances.games >= 1
    began = time.monotonic()
    ranking = state.rank_actions("random", time=1)
    assert time.monotonic() - began < 8
    assert not ranking.exact and ranking.games >= 1


def slow_bot(state, rng):
    """The random bot, a tenth of a second a decision: 0.2 s a duel."""
    import time

    time.sleep(0.1)
    return rng.choice(state.legal_actions())


def test_a_batch_shrinks_to_the_time_left():
    # 20 games of the slow bot take 4 s: with time=0.5 the first game measures the cost and
    # pieces are sized to end in time with room to spare; 3 s leaves room for a loaded machine.
    import time

    state = duel_start()
    began = time.monotonic()
    chances = state.win_chances(slow_bot, time=0.5, exact=False)
    assert time.monotonic() - began < 3
    assert 1 <= chances.games < 20
    began = time.monotonic()
    ranking = state.rank_actions(slow_bot, time=0.5, exact=False)
    assert time.monotonic() - began < 3
    assert 1 <= ranking.games < 20


def fake_clock_budget(time: float):
    """A :class:`Budget` of ``time`` seconds on a clock the test moves (``now[0]``)."""
    from coronas.manygames.budget import Budget

    now = [0.0]
    budget = Budget(None, None, time)
    budget.clock, budget.started = (lambda: now[0]), 0.0
    return budget, now


def test_a_piece_is_planned_at_half_the_time_left_for_games():
    from coronas.manygames.budget import RESERVE, SLACK

    assert (SLACK, RESERVE) == (2, 0.01)
    budget, now = fake_clock_budget(10)
    # 9.9 s for games: a whole batch of 40 fits at 0.01 s a game on 2 workers
    assert budget.piece(40, 0.01, 2) == 40
    assert budget.piece(40, None, 2) == 2  # the cost unknown: one game a worker
    now[0] = 9.75  # 0.15 s left for games: 0.075 s planned, 7 games a worker
    assert budget.piece(40, 0.01, 2) == 14
    assert budget.reason(100, None, 0.01) is None
    now[0] = 9.885  # 0.015 s left: one game a worker would take 0.01, more than half
    assert budget.piece(40, 0.01, 2) == 0
    assert budget.reason(100, None, 0.01) == "time"


def test_a_batch_of_quick_games_fills_a_round_of_the_time():
    # Between two batches the workers wait for the figures: with a time limit alone a batch
    # is at least a quarter of a second of play (or a fortieth of a shorter time).
    from coronas.manygames.budget import ROUND_SECONDS, ROUNDS, Budget

    assert (ROUND_SECONDS, ROUNDS) == (0.25, 40)
    ten = Budget(None, None, 10)
    # 1 ms a game on 2 workers: 0.25 s is 500 games
    assert ten.next_batch(0, 8, cost=0.001, parallel=2) == 500
    assert ten.next_batch(0, 8, cost=None, parallel=2) == 8  # the cost not yet measured
    assert ten.next_batch(0, 8, cost=0.1, parallel=2) == 8  # slow games: the batch as asked
    # 2 s: a round is 0.05 s, 100 games
    assert Budget(None, None, 2).next_batch(0, 8, cost=0.001, parallel=2) == 100
    # a budget of games or of precision keeps its batches whatever the clock says, so that
    # a run stopped by either is the same on any machine
    assert Budget(100, None, 10).next_batch(96, 8, cost=0.001, parallel=2) == 4
    assert Budget(None, 0.01, 10).next_batch(0, 8, cost=0.001, parallel=2) == 8


def test_pieces_slower_than_their_cost_still_end_in_time():
    # A piece runs longer than its games' measured cost: the games vary, and a small piece
    # waits for its slowest worker at every action. Here every piece costs 20 ms on top of
    # 10 ms a game on each of 2 workers; the batches still end within the 10 s.
    from coronas.manygames.estimator import play_batch

    budget, now = fake_clock_budget(10)
    played, cost = 0, None

    def play(lo: int, hi: int) -> None:
        now[0] += 0.02 + (hi - lo) / 2 * 0.01

    while budget.reason(played, None, cost) is None:
        done, cost = play_batch(budget, 40, 2, cost, play)
        played += done
        if done < 40:
            break
    assert now[0] <= 10
    assert played > 1700  # 1980 games would fill 9.9 s without the pieces' 20 ms


def test_bad_options_are_refused_before_anything_is_played():
    import pytest

    state = duel_start()
    for kwargs, words in (
        ({"batch": 0}, "batch must be"),
        ({"batch": 2.5}, "batch must be"),
        ({"batch": 10**6}, "batch must be a whole number from 1 to 10000"),
        ({"games": True}, "games must be"),
        ({"games": 10**12}, "games must be"),
        ({"max_steps": 0}, "max_steps must be"),
        ({"seed": "seven"}, "seed must be"),
        ({"seed": -1}, "seed must be"),
        ({"time": float("inf")}, "time is a number of seconds"),
        ({"time": "1"}, "time is a number of seconds"),
        ({"precision": "0.1"}, "precision is a half-width"),
        ({"exact": "no"}, "exact must be"),
        ({"on_update": 3}, "on_update must be"),
    ):
        # time=0.5: a refusal that came late would show as some other error, not a hang
        options = {"time": 0.5, **kwargs}
        with pytest.raises(ValueError, match=words):
            state.win_chances(RandomBot(), **options)
        with pytest.raises(ValueError, match=words):
            state.rank_actions(RandomBot(), **options)


def test_a_bot_that_is_not_one_is_refused_by_name():
    import pytest

    state = duel_start()
    with pytest.raises(TypeError, match=r"bots: a bot is a name .* got 42"):
        state.win_chances(42, games=10)
    with pytest.raises(TypeError, match="got 42"):
        state.rank_actions([RandomBot(), 42], games=10)


def broken_bot(state, rng):
    """A bot that fails at its first decision (module level: workers receive it pickled)."""
    raise ValueError("this bot cannot count")


def test_a_bot_that_raises_stops_the_estimate_with_its_message():
    # it used to read as "none of the 10 games ended within 100000 steps"
    import pytest

    from coronas.manygames.winchances import BotError

    broken = broken_bot
    state = duel_start()
    for jobs in (1, 2):
        with pytest.raises(BotError, match="ValueError: this bot cannot count"):
            state.win_chances(broken, games=10, exact=False, jobs=jobs)
    with pytest.raises(BotError, match="this bot cannot count"):
        state.rank_actions([RandomBot(), broken], games=10, exact=False)


def sleepy_bot(state, rng):
    """A bot that thinks for half a minute a decision, as a big search budget does."""
    import time

    time.sleep(30)
    return state.legal_actions()[0]


def test_an_interrupt_stops_the_worker_processes():
    # Ctrl-C, a second into a run on two workers each deep in a half-minute decision: the
    # run must end at once, not wait for the decisions, and leave no worker behind.
    import multiprocessing
    import os
    import signal
    import threading
    import time

    import pytest

    state = duel_start()
    # Ctrl-C as at a terminal: Python's own handler, the signal not blocked (an earlier test
    # in this process may have left SIGINT ignored or blocked)
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    old_mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    began = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            state.win_chances(sleepy_bot, time=120, jobs=2, exact=False)
    finally:
        timer.cancel()
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        signal.signal(signal.SIGINT, old)
    # about 1.5 s: the interrupt at 1 s, the workers terminated at once (a wait for the
    # decisions would take 30 s); 8 s leaves room for a loaded machine
    assert time.monotonic() - began < 8
    assert multiprocessing.active_children() == []
