"""manygames.runner: tasks from seeds, unfinished games as results, the results file, resume."""

from __future__ import annotations

import concurrent.futures
import json
import random
from functools import partial

import pytest

from coronas.engine import RandomBot
from coronas.manygames.runner import (
    GameRecord,
    Match,
    NewGame,
    ResultsFile,
    ResultsFileError,
    Task,
    draw_tasks,
    play_task,
    rotated_seats,
    run,
    worker_pool,
)
from tests.test_simulate import DuelGame, Roller, Safe
from tests.toygame import ToyGame

HEADER = {"run": "test", "game": "duel", "players": 2, "bots": ["roller", "safe"], "games": 30}


class Flaky:
    """Raises instead of choosing in about a third of its decisions."""

    name = "flaky"

    def choose(self, state, rng):
        if rng.random() < 0.3:
            raise ValueError("no idea what to do")
        return rng.choice(state.legal_actions())


def duel_tasks(n=30, seed=4):
    return draw_tasks(seed, n, partial(rotated_seats, players=2))


def test_tasks_draw_two_seeds_a_game_in_order_and_seat_by_any_rule():
    master = random.Random(8)
    tasks = list(draw_tasks(8, 3, lambda i: (i % 2, 1 - i % 2)))
    for task in tasks:
        assert (task.game_seed, task.play_seed) == (master.getrandbits(63), master.getrandbits(63))
    assert [t.seats for t in tasks] == [(0, 1), (1, 0), (0, 1)]
    # a pool of three bots, two at a time: the seats index the pool
    lineups = [(0, 1), (1, 2), (2, 0)]
    assert [t.seats for t in draw_tasks(8, 3, lambda i: lineups[i])] == lineups


def test_a_bot_that_raises_or_a_game_too_long_is_a_record_not_a_crash():
    match = Match(NewGame(DuelGame), (Flaky(), Safe()))
    records = run(match, duel_tasks())
    assert [r.index for r in records] == list(range(30))
    broken = [r for r in records if r.outcome == "error"]
    assert broken and all(r.message == "ValueError: no idea what to do" for r in broken)
    assert all(r.winners == () and r.returns == () for r in broken)
    assert any(r.finished for r in records)
    # the duel takes 3 actions: a cap of 2 stops every game
    capped = run(Match(NewGame(DuelGame), (Roller(), Safe()), max_steps=2), duel_tasks(5))
    assert {r.outcome for r in capped} == {"cap"}
    assert capped[0].message == "the game did not end within 2 steps"
    assert all(r.actions == 2 for r in capped)
    with pytest.raises(RuntimeError, match=r"game 0 \(game seed \d+, play seed \d+\): the game"):
        run(Match(NewGame(DuelGame), (Roller(), Safe()), max_steps=2), duel_tasks(5), strict=True)


def test_a_game_that_ends_on_its_last_allowed_step_has_ended():
    # The toy castle falls to a first roll of 4 or more: one step is then the whole game.
    match = Match(NewGame(ToyGame), (RandomBot(),), max_steps=1)
    records = run(match, draw_tasks(1, 40, lambda i: (0,)))
    assert {r.outcome for r in records} == {"ended", "cap"}
    for r in records:
        state, _ = play_task(match, r.task)
        assert r.finished == (state.history[0].value >= 4)


def test_a_start_made_from_a_seed_replaces_a_new_game():
    # a win chance starts each game from a given position: here the toy castle after a 2
    def after_a_two(seed):
        state = ToyGame(seed=seed).new_initial_state()
        state.apply(state.chance_outcomes()[1][0])  # the die shows 2: a reroll decision
        return state

    match = Match(after_a_two, (RandomBot(),))
    records = run(match, draw_tasks(1, 20, lambda i: (0,)))
    assert all(r.finished and r.actions >= 2 for r in records)
    state, record = play_task(match, records[3].task)
    assert record == records[3] and state.history[0] == after_a_two(0).history[0]


def test_results_file_keeps_every_game_and_resumes_only_the_missing(tmp_path):
    path = tmp_path / "run.jsonl"
    match = Match(NewGame(DuelGame), (Roller(), Safe()))
    whole = run(match, duel_tasks())
    with ResultsFile(path, HEADER, resume=False) as results:
        run(match, [t for t in duel_tasks() if t.index < 12], results=results)
    lines = path.read_text().splitlines()
    assert len(lines) == 13 and json.loads(lines[0])["format"] == "coronas-results"
    game = json.loads(lines[5])
    assert game["game"] == 4 and game["bots"] == ["roller", "safe"] and game["outcome"] == "ended"
    played = []
    with ResultsFile(path, HEADER, resume=True) as results:
        assert sorted(results.done) == list(range(12))
        again = run(
            match, duel_tasks(), results=results, done=results.done, on_record=played.append
        )
    assert again == whole
    assert sorted(r.index for r in played) == list(range(12, 30))  # only the missing games
    assert len(path.read_text().splitlines()) == 31
    with pytest.raises(FileExistsError, match="resume"):
        ResultsFile(path, HEADER, resume=False)


def test_a_damaged_last_line_is_dropped_and_its_game_played_again(tmp_path):
    path = tmp_path / "run.jsonl"
    match = Match(NewGame(DuelGame), (Roller(), Safe()))
    with ResultsFile(path, HEADER, resume=False) as results:
        run(match, [t for t in duel_tasks() if t.index < 5], results=results)
    text = path.read_text()
    path.write_text(text[: len(text) - 20])  # killed in the middle of writing game 4
    with ResultsFile(path, HEADER, resume=True) as results:
        assert sorted(results.done) == [0, 1, 2, 3]
        records = run(match, duel_tasks(), results=results, done=results.done)
    assert records == run(match, duel_tasks())
    assert all(json.loads(line) for line in path.read_text().splitlines())
    # killed before even the first line was whole: the run starts again
    path.write_text('{"format": "coronas-res')
    with ResultsFile(path, HEADER, resume=True) as results:
        assert results.done == {}
    assert json.loads(path.read_text())["games"] == 30


def test_a_file_from_another_run_is_refused_naming_the_field(tmp_path):
    path = tmp_path / "run.jsonl"
    with ResultsFile(path, HEADER, resume=False):
        pass
    with pytest.raises(ResultsFileError, match=r"line 1: .*'bots' is \[\"roller\", \"safe\"\]"):
        ResultsFile(path, {**HEADER, "bots": ["safe", "roller"]}, resume=True)
    with pytest.raises(ResultsFileError, match="'games' is 30 there and 40 here"):
        ResultsFile(path, {**HEADER, "games": 40}, resume=True)
    # the same description but other seeds: found when the tasks are drawn
    match = Match(NewGame(DuelGame), (Roller(), Safe()))
    with ResultsFile(path, HEADER, resume=True) as results:
        run(match, duel_tasks(3, seed=1), results=results)
    with (
        ResultsFile(path, HEADER, resume=True) as results,
        pytest.raises(ResultsFileError, match=r"game 0 .* other seeds"),
    ):
        run(match, duel_tasks(3, seed=2), done=results.done)


def good_line(**changes):
    line = {
        "game": 1,
        "game_seed": 5,
        "play_seed": 6,
        "seats": [1, 0],
        "bots": ["safe", "roller"],
        "winners": [0],
        "returns": [3, 1],
        "actions": 3,
        "decisions": 2,
        "outcome": "ended",
        "message": "",
    }
    return json.dumps({**line, **changes})


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (good_line(game=30), "'game': expected a whole number from 0 to 29, got 30"),
        (good_line(game_seed=-1), "'game_seed': expected a whole number from 0"),
        (good_line(seats=[0, 0, 1]), "'seats': expected a list of 2 to 2"),
        (good_line(seats=[0, 7]), "'seats': expected a whole number from 0 to 1"),
        (good_line(winners=[]), "'winners': a game that ended has winners"),
        (good_line(winners=[1, 1]), "'winners': expected different seats, got [1, 1]"),
        (good_line(decisions=999_999_999), "'decisions': expected a whole number from 0 to 3"),
        (good_line(actions=10**9 + 1), "'actions': expected a whole number from 0 to 1000000000"),
        (good_line(returns=[1e308, 1e308]), "'returns': expected finite numbers from"),
        (good_line(returns=["1/0", 1]), "'returns': expected finite numbers"),
        (good_line(returns=[3]), "'returns': expected a list of 2 numbers"),
        (good_line(returns=["x", 1]), "'returns': expected finite numbers"),
        (good_line(outcome="won"), "'outcome': expected one of ended, cap, error"),
        (good_line(message="x" * 600), "'message': expected text of at most 500"),
        (good_line(bots=["a", "b"]), "'bots': expected"),
        (good_line(extra=1), "unknown field 'extra'"),
        ("[1, 2]", "expected an object for one game"),
        ("{not json", "expected one JSON object"),
        ('{"game": "' + "x" * 70_000 + '"}', "longer than 65536 bytes"),
    ],
)
def test_every_field_of_a_results_file_is_checked(tmp_path, line, words):
    path = tmp_path / "run.jsonl"
    with ResultsFile(path, HEADER, resume=False):
        pass
    # the bad line is followed by a good one, so it is not a damaged last line
    with path.open("a") as f:
        f.write(line + "\n" + good_line(game=2) + "\n")
    with pytest.raises(ResultsFileError, match="line 2: ") as caught:
        ResultsFile(path, HEADER, resume=True)
    assert str(path) in str(caught.value) and words in str(caught.value)


def test_a_game_longer_than_the_runs_step_cap_is_refused(tmp_path):
    path = tmp_path / "run.jsonl"
    header = {**HEADER, "max_steps": 50}
    with ResultsFile(path, header, resume=False):
        pass
    with path.open("a") as f:
        f.write(good_line(actions=50, decisions=50) + "\n")  # a game may end on the cap
        f.write(good_line(game=2, actions=51, decisions=2) + "\n")
        f.write(good_line(game=3) + "\n")
    with pytest.raises(
        ResultsFileError, match="line 3: 'actions': expected a whole number from 0 to 50, got 51"
    ):
        ResultsFile(path, header, resume=True)


def test_a_results_file_that_is_a_link_to_nothing_is_named_as_such(tmp_path):
    link = tmp_path / "run.jsonl"
    link.symlink_to(tmp_path / "gone.jsonl")
    for resume in (False, True):
        with pytest.raises(ResultsFileError) as caught:
            ResultsFile(link, HEADER, resume=resume)
        assert str(caught.value).startswith(
            f"{link} is a symbolic link to {tmp_path / 'gone.jsonl'}, which does not exist"
        )
    assert not (tmp_path / "gone.jsonl").exists()  # nothing was created through the link


def test_fractions_and_unfinished_games_read_back_equal(tmp_path):
    from fractions import Fraction

    path = tmp_path / "run.jsonl"
    records = [
        GameRecord(0, 1, 2, (0, 1), (1,), (Fraction(1, 3), 2), 9, 4),
        GameRecord(1, 3, 4, (1, 0), (), (), 100, 50, "cap", "the game did not end"),
    ]
    with ResultsFile(path, HEADER, resume=False) as results:
        for r in records:
            results.append(r)
    with ResultsFile(path, HEADER, resume=True) as results:
        assert [results.done[0], results.done[1]] == records
    assert Task(0, 1, 2, (0, 1)) == records[0].task


class LosingGameZero(concurrent.futures.ThreadPoolExecutor):
    """An executor that loses the chunk holding game 0 its first ``times`` times, as a
    worker that dies with it would."""

    def __init__(self, times):
        super().__init__(2)
        self.times, self.sent = times, 0

    def submit(self, fn, match, chunk, *rest):
        self.sent += 1
        if chunk[0].index == 0 and self.times:
            self.times -= 1
            future = concurrent.futures.Future()
            future.set_exception(OSError("the worker died"))
            return future
        return super().submit(fn, match, chunk, *rest)


def test_a_chunk_whose_future_fails_is_sent_again():
    match = Match(NewGame(DuelGame), (Roller(), Safe()))
    with LosingGameZero(2) as pool:
        records = run(match, duel_tasks(), executor=pool, chunk_size=4)
    assert records == run(match, duel_tasks())
    assert pool.sent == 8 + 2  # 8 chunks, the first sent three times
    with LosingGameZero(3) as pool, pytest.raises(OSError, match="the worker died"):
        run(match, duel_tasks(), executor=pool, chunk_size=4, retries=2)


def test_a_worker_killed_in_the_middle_of_a_run_loses_no_game():
    # Two dask worker processes; after the first chunk comes back one worker is killed by its
    # process id. Its chunks are run again and the records equal those of one process.
    import os
    import signal

    from dask.distributed import Client, LocalCluster

    from coronas.batalla import Game
    from coronas.batalla.bots import GreedyBot

    match = Match(NewGame(Game), (GreedyBot(), RandomBot()))
    tasks = partial(draw_tasks, 5, 40, partial(rotated_seats, players=2))
    killed, after = [], []

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        workers = client.run(os.getpid)
        assert len(workers) == 2
        victim, pid = sorted(workers.items())[0]

        def kill_once(record):
            if not killed:
                killed.append(len(client.processing()[victim]))  # chunks it was running
                os.kill(pid, signal.SIGKILL)
            else:
                after.append(record.index)

        on_cluster = run(
            match, tasks(), executor=client.get_executor(), chunk_size=2, on_record=kill_once
        )
        client.wait_for_workers(2, timeout=60)
        now = set(client.run(os.getpid).values())
    assert killed[0] >= 1 and pid not in now  # it died with work to do, and was replaced
    assert len(after) == 39  # every game but the first came back after the kill
    assert on_cluster == run(match, tasks())
    assert [r.index for r in on_cluster] == list(range(40)) and all(r.finished for r in on_cluster)


def test_mutated_results_files_are_refused_with_the_file_named_or_read_whole(tmp_path):
    from tests.fuzzing import dumps, mutate, time_limit

    path = tmp_path / "run.jsonl"
    match = Match(NewGame(DuelGame), (Roller(), Safe()))
    with ResultsFile(path, HEADER, resume=False) as results:
        run(match, duel_tasks(6), results=results)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    rng = random.Random(23)
    refused = read = 0
    for _ in range(300):
        k = rng.randrange(len(lines))
        bad = list(lines)
        bad[k] = mutate(lines[k], rng, times=rng.choice([1, 1, 2]))
        path.write_text("".join(dumps(line) + "\n" for line in bad))
        try:
            with time_limit(5), ResultsFile(path, HEADER, resume=True) as results:
                done = results.done
        except ResultsFileError as exc:
            assert str(exc).startswith(f"{path}, line {k + 1}: "), exc
            refused += 1
            continue
        read += 1  # a mutation that keeps the file valid (a shuffled seat list of equals...)
        assert all(
            isinstance(r, GameRecord) and r.outcome in ("ended", "cap", "error")
            for r in done.values()
        )
    assert refused > 250 and refused + read == 300


def test_a_worker_pool_ignores_ctrl_c_in_its_workers_and_stops_them_when_left_by_it():
    import os
    import signal
    import time

    # Ctrl-C at a terminal reaches the workers too: they leave it to the parent
    with worker_pool(2) as pool:
        busy = pool.submit(time.sleep, 0.5)
        for pid in list(pool._processes):
            os.kill(pid, signal.SIGINT)
        assert busy.result(timeout=10) is None
        assert pool.submit(sum, [1, 2, 3]).result(timeout=10) == 6
    # left by Ctrl-C's KeyboardInterrupt: the busy workers are terminated at once
    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt), worker_pool(2) as pool:
        sleeping = [pool.submit(time.sleep, 60) for _ in range(4)]
        workers = list(pool._processes.values())
        time.sleep(0.3)
        raise KeyboardInterrupt
    assert time.monotonic() - began < 2
    assert len(workers) == 2 and not any(w.is_alive() for w in workers)
    assert all(f.cancelled() or f.exception(timeout=5) is not None for f in sleeping)


def test_the_bar_times_each_groups_first_game_and_says_a_long_run_before_it_goes_on(
    monkeypatch, capsys
):
    import coronas.manygames.runner as runner

    match = Match(NewGame(DuelGame), (Roller(), Safe()))
    tasks = partial(draw_tasks, 4, 12, partial(rotated_seats, players=2))
    plain = run(match, tasks())
    monkeypatch.setattr(runner, "SAY_LONGER_THAN", 0.0)  # every run is long here
    groups = [range(0, 6), range(6, 12)]
    timed = runner.run_games(match, tasks, 12, progress="duel games", groups=groups)
    # the first games played apart are the same games: the same records as a plain run
    assert timed == plain
    err = capsys.readouterr().err
    assert "duel games: about 1 minute on 1 worker (first game" in err
    assert "timing the first games" in err and " left, " in err


def test_an_estimate_weighs_each_groups_first_game_by_the_games_left_in_it():
    from coronas.manygames.runner import _Estimate

    estimate = _Estimate([range(0, 10), range(10, 30)], workers=2)
    estimate.cost = {0: 0.1, 1: 21.9}
    estimate.played(0)
    estimate.played(10)
    # (9 * 0.1 + 19 * 21.9) / 2 = 208.5 s: about 3 minutes
    assert estimate.seconds_left() == pytest.approx(208.5)
    assert estimate.line() == "about 3 minutes on 2 workers (first games took 0.1 s to 21.9 s)"
    assert estimate.postfix() == "about 03:28 left, 7.3 s a game"  # (10*0.1 + 20*21.9)/30/2
    one = _Estimate([range(5)], workers=1)
    one.cost = {0: 0.02}
    assert one.line() == "about 1 minute on 1 worker (first game took 0.0 s)"
    assert one.postfix() == "about 00:00 left, 50.0 games/s"


def _send_half_a_result() -> None:
    """A worker's task that writes the start of a result message (a length of 1 MiB, then four
    bytes) to the pool's result pipe and stops there, as a worker terminated halfway through
    sending a large result does. The pipe is the worker loop's ``result_queue`` (CPython's
    ``concurrent.futures.process._process_worker``, which calls the task)."""
    import struct
    import sys
    import time

    queue = sys._getframe(1).f_locals["result_queue"]
    queue._writer._send(struct.pack("!i", 1 << 20) + b"half")
    time.sleep(60)


def test_stopping_a_pool_ends_its_reading_of_a_result_cut_off_halfway(capfd):
    # The pool's manager thread reads a result message to its end: cut off by the worker's
    # end, the read would wait for ever and so would Python's exit, which joins that thread.
    # The calls queued behind it are cancelled, as leaving Executor.map cancels them.
    import time

    with pytest.raises(KeyboardInterrupt), worker_pool(2) as pool:
        cut = pool.submit(_send_half_a_result)
        queued = [pool.submit(time.sleep, 0.05) for _ in range(50)]
        manager = pool._executor_manager_thread
        time.sleep(0.5)  # the manager thread is reading the message
        assert not cut.done() and manager.is_alive()
        assert sum(f.cancel() for f in queued) >= 40
        began = time.monotonic()
        raise KeyboardInterrupt
    assert time.monotonic() - began < 2
    assert not manager.is_alive()
    assert capfd.readouterr().err == ""  # nothing of the manager thread's end is printed


def test_several_runs_sent_at_once_give_each_run_its_own_records_in_order():
    # every run's chunks go to the executor before any is waited for; each run's records are
    # those it gives alone, here or on a pool, a lost chunk sent again
    from coronas.manygames.runner import run_many

    first = Match(NewGame(DuelGame), (Roller(), Safe()))
    second = Match(NewGame(DuelGame), (Safe(), Roller()))
    runs = [(first, list(duel_tasks())), (second, list(duel_tasks(12, seed=9)))]
    alone = [run(m, t) for m, t in runs]
    assert run_many(runs) == alone
    with LosingGameZero(1) as pool:
        assert run_many(runs, executor=pool, chunk_size=4) == alone
    assert pool.sent == 8 + 3 + 1  # 8 chunks and 3, the first lost once and sent again
