"""The process pool every run of many games shares: workers that leave Ctrl-C to the parent
(:func:`ignore_sigint`), and a stop that leaves nothing running (:func:`stop_workers`), both
put together by :func:`worker_pool`. A terminal sends Ctrl-C to the whole process group; the
parent alone acts on it, so one Ctrl-C stops a run at once, with no worker's traceback.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

__all__ = ["ignore_sigint", "stop_workers", "worker_pool"]


def ignore_sigint() -> None:
    """A worker process's initializer: Ctrl-C (SIGINT, sent by a terminal to the whole
    process group) is left to the parent, which stops the run and its workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def stop_workers(pool: concurrent.futures.ProcessPoolExecutor, grace: float = 0.5) -> None:
    """Stop ``pool`` now: cancel the calls not started and terminate its worker processes,
    killing any that has not exited within ``grace`` seconds. A worker busy with a long
    game never reads its queue again, so shutting the pool down is not enough; a result not
    yet received is lost. Nothing is left running and nothing is printed at exit; a second
    Ctrl-C while this runs (in the main thread) is ignored, so it cannot cut the stop short."""
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)
        results = getattr(pool, "_result_queue", None)  # shutdown forgets these three
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        deadline = time.monotonic() + grace
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                with contextlib.suppress(Exception):
                    process.kill()
                process.join(1)
        if manager is not None:  # it sees the workers gone and ends: exit has nothing to join
            manager.join(0.5)
            if manager.is_alive():
                _end_a_cut_off_read(manager, results)
    finally:
        if main:
            signal.signal(signal.SIGINT, old)


def _end_a_cut_off_read(manager: threading.Thread, results: Any) -> None:
    """End the pool's ``manager`` thread where a worker killed halfway through sending a
    result (a training game's samples are large) left it reading the rest for ever, and
    Python's exit joining it. Closing this process's end of the ``results`` pipe, the last
    writer left, ends the read. The thread then fails the calls still pending, and on
    Python 3.11 stumbles on those already cancelled (``InvalidStateError``): its own end,
    not to be printed."""
    hook = threading.excepthook

    def quiet(args: Any) -> None:
        if args.thread is not manager:
            hook(args)

    threading.excepthook = quiet
    try:
        with contextlib.suppress(Exception):
            results._writer.close()
        manager.join(1)
    finally:
        threading.excepthook = hook


@contextlib.contextmanager
def worker_pool(jobs: int) -> Iterator[concurrent.futures.ProcessPoolExecutor]:
    """A process pool of ``jobs`` workers that ignore Ctrl-C, for :func:`~.runner.run` and any other
    run of many games (win chances). Left normally, it waits for its calls and shuts down;
    left by an exception (Ctrl-C's :class:`KeyboardInterrupt` above all) it stops at once
    with :func:`stop_workers`, so no worker runs on after the parent.

        with worker_pool(2) as pool:
            records = run(match, tasks, executor=pool)
    """
    pool = concurrent.futures.ProcessPoolExecutor(jobs, initializer=ignore_sigint)
    try:
        # Start the workers now, with SIGINT held back while they are forked: a Ctrl-C
        # before their initializer runs would otherwise print a worker's traceback.
        mask = getattr(signal, "pthread_sigmask", None)
        old = mask(signal.SIG_BLOCK, {signal.SIGINT}) if mask else None
        try:
            pool.submit(int)
        finally:
            if mask:
                mask(signal.SIG_SETMASK, old)
        yield pool
    except BaseException:
        stop_workers(pool)
        raise
    pool.shutdown(wait=True)
