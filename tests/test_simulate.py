"""coronas.manygames.simulate: reproducible many-game runs, Wilson intervals, any executor."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import random
from fractions import Fraction as F
from functools import partial

import pytest

from coronas.engine import CHANCE, TERMINAL, Action, Game, RandomBot, State, exact_distribution
from coronas.manygames.questions import Questions
from coronas.manygames.simulate import TABLE_COLUMNS, GameRecord, simulate, wilson_interval
from tests.toygame import ToyGame

# --------------------------------------------------------------------------------------------
# A two-player duel, small enough to know every probability by hand.
# Each player in turn either rolls a d6 or takes a sure 3; the higher number wins and a tie
# is a shared victory.
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Choose(Action):
    roll: bool

    def __str__(self) -> str:
        return "roll the die" if self.roll else "take a sure 3"


@dataclasses.dataclass(frozen=True)
class Face(Action):
    value: int

    def __str__(self) -> str:
        return f"rolled {self.value}"


class DuelState(Questions, State):
    def _setup(self) -> None:
        self.values: list[int | None] = [None, None]
        self.rolling = False

    def _current_player(self) -> int:
        if self.rolling:
            return CHANCE
        if None in self.values:
            return self.values.index(None)
        return TERMINAL

    def _legal_actions(self):
        return [Choose(True), Choose(False)]

    def _chance_outcomes(self):
        return [(Face(v), F(1, 6)) for v in range(1, 7)]

    def _apply(self, action) -> None:
        player = self.values.index(None)
        if isinstance(action, Choose) and action.roll:
            self.rolling = True
        else:
            self.values[player] = action.value if isinstance(action, Face) else 3
            self.rolling = False

    def _returns(self):
        return list(self.values)


class DuelGame(Game):
    name = "duel"
    state_class = DuelState
    action_types = (Choose, Face)
    min_players = max_players = 2


class Roller:
    name = "roller"

    def choose(self, state, rng):
        return Choose(True)


class Safe:
    name = "safe"

    def choose(self, state, rng):
        return Choose(False)


def run(n=600, seed=7, **kw):
    return simulate(DuelGame, [Roller(), Safe()], n, seed=seed, progress=False, **kw)


# --------------------------------------------------------------------------------------------


def test_wilson_interval_worked_by_hand():
    # 50 of 100, z = 1.96: centre (0.5 + z²/200) / (1 + z²/100) = 0.5 exactly;
    # half width z·sqrt(0.25/100 + z²/40000) / (1 + z²/100) = 1.96·0.050951 / 1.038415 = 0.0962.
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    # 0 of 10: lower end 0; upper end (z²/10) / (1 + z²/10) = 0.38415 / 1.38415 = 0.2775.
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    # 10 of 10 mirrors it.
    assert wilson_interval(10, 10)[0] == pytest.approx(1 - 0.2775, abs=1e-4)
    with pytest.raises(ValueError, match="at least one trial"):
        wilson_interval(0, 0)
    with pytest.raises(ValueError, match="between 0 and n"):
        wilson_interval(11, 10)


def test_duel_win_rates_match_the_exact_odds():
    # Roller against a sure 3: roller wins on 4, 5, 6 (1/2), both win on a 3 (1/6),
    # safe wins on 1, 2 (1/3). So P(roller among winners) = 2/3, P(safe among winners) = 1/2.
    result = run(n=2000)
    exact = {"roller": F(2, 3), "safe": F(1, 2)}
    for label, p in exact.items():
        # A 99.9% interval (z = 3.29) must hold the truth; a 95% one misses it 1 time in 20.
        lo, hi = result.confidence_interval(label, z=3.29)
        assert lo < p < hi, (label, lo, hi)
        se = (p * (1 - p) / result.n_games) ** 0.5
        assert abs(float(result.win_rate(label)) - p) < 4 * se
    assert result.wins[0] + result.wins[1] == result.n_games + result.shared
    assert result.win_rate("roller") == F(result.wins[0], 2000)


def test_seats_rotate_so_each_bot_moves_first_half_the_time():
    result = run(n=10)
    assert [r.seats for r in result.records[:3]] == [(0, 1), (1, 0), (0, 1)]
    fixed = run(n=10, rotate=False)
    assert {r.seats for r in fixed.records} == {(0, 1)}


def test_same_seed_same_games_whatever_the_executor():
    serial = run(n=300, seed=11, chunk_size=7)
    two_jobs = run(n=300, seed=11, jobs=2, chunk_size=7)
    assert two_jobs.records == serial.records
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        threads = run(n=300, seed=11, executor=pool, chunk_size=50)
    assert threads.records == serial.records
    assert run(n=300, seed=12).records != serial.records


def test_tasks_are_drawn_as_the_run_goes_and_few_chunks_wait_at_once(monkeypatch):
    import coronas.manygames.runner

    class Counting(concurrent.futures.ThreadPoolExecutor):
        """Counts the chunks sent but not yet finished."""

        def __init__(self):
            super().__init__(2)
            self.sent, self.most = [], 0

        def submit(self, fn, *args):
            waiting = sum(not f.done() for f in self.sent) + 1
            self.most = max(self.most, waiting)
            self.sent.append(super().submit(fn, *args))
            return self.sent[-1]

    monkeypatch.setattr(coronas.manygames.runner, "IN_FLIGHT", 4)
    serial = run(n=200, seed=3, chunk_size=5)
    with Counting() as pool:
        lazy = run(n=200, seed=3, executor=pool, chunk_size=5)
    # 40 chunks, never more than 4 sent ahead; the same games in the same order
    assert lazy.records == serial.records and pool.most <= 4
    tasks = coronas.manygames.runner.draw_tasks(
        3, 10**9, partial(coronas.manygames.runner.rotated_seats, players=2)
    )
    assert [next(tasks).index for _ in range(200)] == list(range(200))  # no billion tasks first


def test_records_replay_to_the_same_game():
    result = run(n=20, seed=3)
    record = result.records[13]
    state = result.replay(13)
    assert state.is_terminal()
    assert tuple(state.winners()) == record.winners
    assert len(state.history) == record.actions
    # the roller decides once and rolls once, the safe bot decides once
    assert record.decisions == 2 and record.actions == 3
    assert isinstance(record, GameRecord)


def test_toy_game_simulation_agrees_with_the_exact_tree_walk():
    # A random bot on the one-player toy game: exact success probability from the engine.
    def random_policy(state):
        actions = state.legal_actions()
        return [(a, F(1, len(actions))) for a in actions]

    exact = exact_distribution(
        ToyGame().new_initial_state(), random_policy, lambda s: s.returns()[0]
    )
    p = exact[1]
    # by hand: 1/2 + (1/2)(1/2)[1/2 + (1/2)(1/2)(1/2)] = 1/2 + 5/32 = 21/32
    assert p == F(21, 32)
    result = simulate(ToyGame, [RandomBot()], 3000, seed=5, progress=False)
    se = float(p * (1 - p) / 3000) ** 0.5
    assert abs(result.mean_returns()[0] - float(p)) < 4 * se


def test_factories_with_options_and_game_lengths():
    result = simulate(
        partial(ToyGame, rules={"shields": 0}), [RandomBot()], 50, seed=1, progress=False
    )
    # With no shield a failed roll leaves only "give up": lengths are 0 or 1 decisions.
    assert set(result.lengths) <= {0, 1}
    summary = result.length_summary()
    assert summary["min"] >= 0 and summary["max"] <= 1
    assert result.game == "toy"


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="2 players but 1 bots"):
        simulate(DuelGame, [Roller()], 10, progress=False)
    with pytest.raises(ValueError, match="at least 1"):
        simulate(DuelGame, [Roller(), Safe()], 0, progress=False)
    with pytest.raises(ValueError, match="jobs"):
        simulate(DuelGame, [Roller(), Safe()], 5, progress=False, jobs=0)


def test_display_and_progress(capsys):
    result = simulate(DuelGame, [Roller(), Roller()], 40, seed=2, progress=True)
    err = capsys.readouterr().err
    assert "40/40" in err
    text = str(result)
    assert "roller 2" in text and "95% interval" in text and "shared victory" in text
    html = result._repr_html_()
    assert "<table>" in html and f"{result.win_rate(0)}" in html


def test_plot_draws_win_rates_and_lengths():
    import matplotlib

    matplotlib.use("Agg")
    fig = run(n=50).plot()
    ax_win, ax_seat, ax_len = fig.axes
    assert [t.get_text() for t in ax_win.get_xticklabels()] == ["roller", "safe"]
    assert [t.get_text() for t in ax_seat.get_xticklabels()] == ["player 1", "player 2"]
    assert ax_len.get_xlabel() == "player decisions in the game"


def test_game_seed_is_passed_to_the_factory():
    seen = []

    class Recording(DuelGame):
        def __init__(self, players=None, seed=None, rules=None):
            seen.append(seed)
            super().__init__(players, seed, rules)

    simulate(Recording, [Roller(), Safe()], 5, seed=9, progress=False)
    master = random.Random(9)
    expected = []
    for _ in range(5):
        expected.append(master.getrandbits(63))
        master.getrandbits(63)
    assert seen[1:] == expected


@pytest.mark.parametrize(("game", "players"), [("hierro", 3), ("batalla", 2), ("carolus", 2)])
def test_real_games_give_the_same_results_on_one_or_two_workers(game, players):
    from coronas.cli import bots_for, find_game

    game_cls = find_game(game)
    table = bots_for(game_cls)
    bots = [table["greedy"]()] + [table["random"]() for _ in range(players - 1)]
    factory = partial(game_cls, players=players)
    one = simulate(factory, bots, 8, seed=21, progress=False, chunk_size=3)
    two = simulate(factory, bots, 8, seed=21, progress=False, jobs=2, chunk_size=3)
    assert one.records == two.records
    assert all(r.winners and r.decisions > 0 for r in one.records)
    assert sum(one.wins) >= 8  # every game has a winner
    # a recorded game replays to the same end
    state = one.replay(5)
    assert tuple(state.winners()) == one.records[5].winners


def test_a_dask_cluster_gives_the_same_results_as_one_process():
    # As docs/cli.md shows for a cluster: the client's executor, games in chunks, results in
    # game order. Two worker processes, so the factory and the bots really travel.
    from dask.distributed import Client, LocalCluster

    from coronas.batalla import Game
    from coronas.batalla.bots import GreedyBot

    bots = [GreedyBot(), RandomBot()]
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        executor = client.get_executor()
        on_cluster = simulate(
            Game, bots, 24, seed=5, executor=executor, chunk_size=4, progress=False
        )
        workers = set(client.run(lambda: __import__("os").getpid()).values())
    assert len(workers) == 2
    at_home = simulate(Game, bots, 24, seed=5, progress=False)
    assert on_cluster.records == at_home.records
    assert sum(on_cluster.wins) == 24  # Batalla always ends with one winner


class Thinker(Roller):
    """A roller that thinks 0.1 s before each decision, as a timed search does."""

    name = "thinker"

    def choose(self, state, rng):
        import time

        time.sleep(0.1)
        return super().choose(state, rng)


def test_ctrl_c_stops_a_run_on_a_dask_cluster_at_once_keeping_every_game_back(tmp_path):
    # SIGINT reaches this process while games are in play on the cluster: the run stops
    # within 2 s, the chunks not started are cancelled, every game that came back is kept,
    # and the cluster (the caller's) resumes the run to the uninterrupted records.
    import signal
    import threading
    import time

    from dask.distributed import Client, LocalCluster

    from coronas.manygames.simulate import Interrupted

    path = tmp_path / "run.jsonl"
    sent: list[tuple[float, int]] = []

    def interrupt_when_games_are_kept() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            lines = len(path.read_bytes().splitlines()) if path.exists() else 0
            if lines >= 4:
                sent.append((time.monotonic(), lines - 1))
                signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
                return
            time.sleep(0.01)

    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with (
            LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            Client(cluster) as client,
        ):
            executor = client.get_executor()
            watcher = threading.Thread(target=interrupt_when_games_are_kept, daemon=True)
            watcher.start()
            with pytest.raises(Interrupted) as caught:
                simulate(
                    DuelGame,
                    [Thinker(), Safe()],
                    60,
                    seed=8,
                    executor=executor,
                    progress=False,
                    out=path,
                )
            stopped = time.monotonic()
            watcher.join()
            kept_in_file = len(path.read_text().splitlines()) - 1
            again = simulate(
                DuelGame,
                [Thinker(), Safe()],
                60,
                seed=8,
                executor=executor,
                progress=False,
                out=path,
                resume=True,
            )
    finally:
        signal.signal(signal.SIGINT, old)
    ((at, before),) = sent
    assert stopped - at < 2
    kept = caught.value.played
    assert before <= kept == kept_in_file < 60 and len(path.read_text().splitlines()) == 61
    assert (
        again.records == simulate(DuelGame, [Roller(), Safe()], 60, seed=8, progress=False).records
    )


# -- unfinished games, results files, tables -------------------------------------------------


class Stubborn(Roller):
    """A roller that fails on its decisions in the game with game seed ``seed``."""

    def __init__(self, seed):
        self.seed = seed

    def choose(self, state, rng):
        if state.game.seed == self.seed:
            raise ValueError("cannot decide")
        return super().choose(state, rng)


def test_unfinished_games_are_counted_apart_and_never_won():
    from coronas.manygames.runner import draw_tasks, rotated_seats

    seed3 = list(draw_tasks(7, 40, partial(rotated_seats, players=2)))[3].game_seed
    result = simulate(DuelGame, [Stubborn(seed3), Safe()], 40, seed=7, progress=False)
    assert [r.index for r in result.unfinished] == [3]
    assert result.records[3].outcome == "error" and result.records[3].winners == ()
    assert len(result.finished) == 39
    # win rates are over the 39 games that ended
    assert result.win_rate(0) == F(result.wins[0], 39)
    assert sum(result.seat_wins) == 39 + result.shared
    text = str(result)
    assert "1 of 40 games did not end (stopped by a bot's error) and are counted" in text
    assert f"replay one with result.replay(3) (game seed {seed3}" in text
    assert "ValueError: cannot decide" in text and "unfinished" in repr(result)
    with pytest.raises(RuntimeError, match=r"game 3 .*ValueError: cannot decide"):
        simulate(DuelGame, [Stubborn(seed3), Safe()], 40, seed=7, progress=False, strict=True)
    capped = simulate(DuelGame, [Roller(), Safe()], 10, seed=7, progress=False, max_steps=2)
    assert "10 of 10 games did not end within 2 steps and are counted apart" in str(capped)


def test_win_rates_by_seat_with_intervals_beside_win_rates_by_bot():
    # the games won from each seat, counted from the records here
    result = simulate(DuelGame, [Roller(), Safe()], 200, seed=2, progress=False)
    by_seat = [0, 0]
    for r in result.records:
        for s in r.winners:
            by_seat[s] += 1
    assert result.seat_wins == by_seat
    rows = result.seat_rows()
    assert [row["win_rate"] for row in rows] == [F(w, 200) for w in by_seat]
    lo, hi = result.seat_confidence_interval(0)
    assert lo < float(result.seat_win_rate(0)) < hi
    text = str(result)
    # seats by the game's own names, the first marked as moving first (never "seat 0")
    assert [row["name"] for row in rows] == ["player 1", "player 2"]
    assert "player 1 (first)" in text and "0 (first)" not in text
    assert "by seat (the first seat moves first)" in result._repr_html_()
    assert "<td>player 2</td>" in result._repr_html_()


class Interrupting(Roller):
    """Roller that presses Ctrl-C at its 25th decision of the process."""

    calls = 0

    def choose(self, state, rng):
        Interrupting.calls += 1
        if Interrupting.calls == 25:
            raise KeyboardInterrupt
        return super().choose(state, rng)


def test_an_interrupted_run_resumes_to_the_uninterrupted_summary(tmp_path):
    from coronas.manygames.simulate import Interrupted

    path = tmp_path / "duel.jsonl"
    whole = simulate(DuelGame, [Roller(), Safe()], 60, seed=5, progress=False)
    with pytest.raises(Interrupted, match="continue with the same arguments and resume=True"):
        simulate(DuelGame, [Interrupting(), Safe()], 60, seed=5, progress=False, out=path)
    kept = len(path.read_text().splitlines()) - 1
    assert 0 < kept < 60
    with pytest.raises(FileExistsError):
        simulate(DuelGame, [Roller(), Safe()], 60, seed=5, progress=False, out=path)
    # resumed on two worker processes: where the games run does not matter either
    again = simulate(
        DuelGame, [Roller(), Safe()], 60, seed=5, progress=False, out=path, resume=True, jobs=2
    )
    assert again.records == whole.records and str(again) == str(whole)
    assert len(path.read_text().splitlines()) == 61
    from coronas.manygames.runner import ResultsFileError

    with pytest.raises(ResultsFileError, match="'seed' is 5 there and 6 here"):
        simulate(DuelGame, [Roller(), Safe()], 60, seed=6, progress=False, out=path, resume=True)


def test_a_ctrl_c_just_after_a_game_is_written_counts_it_as_kept(tmp_path, monkeypatch):
    # SIGINT may land after a game's line is written and before the count beside it (the
    # progress bar's) goes up: the interruption then says how many games the file holds.
    from coronas.manygames.results import ResultsFile
    from coronas.manygames.simulate import Interrupted

    written = ResultsFile.append

    def append_then_interrupt(self, record):
        written(self, record)
        if record.index == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(ResultsFile, "append", append_then_interrupt)
    path = tmp_path / "duel.jsonl"
    with pytest.raises(Interrupted) as caught:
        simulate(DuelGame, [Roller(), Safe()], 10, seed=5, progress=True, out=path)
    assert caught.value.played == len(path.read_text().splitlines()) - 1 == 3
    assert str(caught.value).startswith("interrupted after 3 of 10 games")


def test_to_pandas_gives_one_row_a_game_and_seat():
    result = simulate(DuelGame, [Roller(), Safe()], 30, seed=3, progress=False)
    df = result.to_pandas()
    assert list(df.columns) == list(TABLE_COLUMNS)
    assert len(df) == 60
    first = df[df.game == 0].set_index("seat")
    record = result.records[0]
    assert list(first.bot) == [result.labels[b] for b in record.seats]
    assert [bool(w) for w in first.won] == [s in record.winners for s in (0, 1)]
    assert list(first.score) == list(record.returns)
    # the win rate by bot and by seat, from the table, equal the summary's
    by_bot = df.groupby("bot").won.sum()
    assert [by_bot[label] for label in result.labels] == result.wins
    assert list(df.groupby("seat").won.sum()) == result.seat_wins


def test_to_pandas_without_pandas_names_the_extra(monkeypatch):
    import sys

    result = simulate(DuelGame, [Roller(), Safe()], 3, seed=3, progress=False)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ModuleNotFoundError, match=r"pip install 'coronas\[analysis\]'"):
        result.to_pandas()
