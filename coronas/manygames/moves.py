"""Which move? Every legal action of the seat to move, ranked by its chance of winning the
whole game after that action, with 95% intervals, the best marked and the actions too close to
call marked as such.

The games after each action are played out by :mod:`coronas.manygames.winchances`' machinery (the
runner, any executor, a seat's view from resampled positions) on **common random numbers**:
game ``i`` after one action and game ``i`` after another start from the same seeds, so the
dice that follow are the same as far as the two games run alike, and the difference between
two actions is measured more sharply than either figure alone. Where the rest of the game can
be walked, every figure is exact. A dice action shows its own exact odds beside the game's
(:meth:`State.odds <coronas.engine.State.odds>`): a roll likely to succeed is not always the
move most likely to win.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from coronas.engine.state import State
from coronas.manygames.intervals import independent_difference, paired_difference, share_interval
from coronas.manygames.runner import DEFAULT_MAX_STEPS, Task
from coronas.manygames.winchances import (
    Budget,
    FromPosition,
    Games,
    bot_label,
    check_options,
    describe_bots,
    exact_allowed,
    exact_win_chances,
    play_batch,
    seat_bots,
    view_of,
)

__all__ = ["ActionRanking", "rank_actions"]


@dataclasses.dataclass(frozen=True, repr=False)
class ActionRanking:
    """Every legal action of the seat to move with its chance of winning the game after it.

    ``rows`` are dicts, best first: ``action``, ``label`` (in the game's words), ``chance``
    (a Fraction: exact, or the share of the games won after the action), ``low``/``high``
    (its 95% interval; the point itself when exact), ``games``, ``best`` (the highest
    chance), ``too_close`` (too close to call: the 95% interval of its difference from the
    best, measured on the same games, reaches 0), ``versus_best`` (that difference and its
    interval, ``(mean, low, high)``; None when exact) and ``odds``
    (the action's own exact dice odds, :meth:`State.odds <coronas.engine.State.odds>`, for
    a dice action; else None). ``common`` says whether every action was played out on the
    same games (common random numbers: the differences between them are then measured game
    by game, more sharply than each figure) or on games of its own.
    """

    player: str
    rows: tuple[dict[str, Any], ...]
    exact: bool
    assumption: str
    view: str
    games: int
    common: bool = True

    def basis(self) -> str:
        how = "exact" if self.exact else f"{self.games} games an action, 95% intervals"
        if not self.exact:
            how += ", the same games for every move" if self.common else ", games of its own"
        return f"{how}; {self.assumption}; {self.view}"

    def _cells(self, row: dict[str, Any]) -> tuple[str, str, str]:
        chance = float(row["chance"])
        if self.exact:
            figure, interval = f"{row['chance']} ({chance:.1%})", "exact"
        else:
            figure, interval = f"{chance:.1%}", f"{row['low']:.1%} - {row['high']:.1%}"
        mark = "best" if row["best"] else "too close to call" if row["too_close"] else ""
        return figure, interval, mark

    def __str__(self) -> str:
        lines = [f"{self.player}'s moves by the chance of winning the game [{self.basis()}]"]
        for row in self.rows:
            figure, interval, mark = self._cells(row)
            odds = f"; roll: {row['odds'].success}" if row["odds"] is not None else ""
            lines.append(f"{figure:>16}  {interval:>15}  {mark:<18}{row['label']}{odds}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        best = self.rows[0]
        return (
            f"<ActionRanking {self.player}: {len(self.rows)} moves, best {best['label']!r} "
            f"{float(best['chance']):.1%} [{self.basis()}]>"
        )

    def _repr_html_(self) -> str:
        from html import escape

        from coronas.formatting import percent

        body = []
        for row in self.rows:
            figure, interval, mark = self._cells(row)
            odds = row["odds"]
            # the roll's odds as a percentage, its exact fraction and aim in the tooltip: a
            # row stays on one line in a notebook at 1280 px with its file browser open
            tip = "" if odds is None else escape(f"{odds.success} to {odds.aim}", quote=True)
            dice = "" if odds is None else f"<span title='{tip}'>{percent(odds.success)}</span>"
            cells = (escape(row["label"]), figure, interval, escape(mark), dice)
            body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        heads = ("move", "chance", "95% interval", "verdict", "roll's odds")
        return (
            "<table style='white-space:nowrap;border-collapse:collapse'><caption>"
            f"{escape(self.player)}'s moves by the chance of winning the game</caption><tr>"
            + "".join(f"<th>{h}</th>" for h in heads)
            + f"</tr>{''.join(body)}</table><p>{escape(self.basis())}</p>"
        )

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame (needs pandas, the ``analysis`` extra)."""
        import pandas as pd

        return pd.DataFrame(
            [{**r, "action": str(r["action"]), "chance": float(r["chance"])} for r in self.rows]
        )


def _dice_odds(state: State, action: Any) -> Any:
    try:
        return state.odds(action)
    except Exception:  # a game without odds for this position: no dice figure to show
        return None


def rank_actions(
    state: State,
    bots: Any = None,
    *,
    games: int | None = None,
    precision: float | None = None,
    time: float | None = None,
    seed: int | None = 0,
    exact: bool = True,
    viewer: int | None = None,
    executor: Any = None,
    jobs: int = 1,
    max_steps: int = DEFAULT_MAX_STEPS,
    batch: int = 20,
    on_update: Any = None,
    common: bool | None = None,
) -> ActionRanking:
    """Every legal action of the seat to move, ranked by the mover's chance of winning the
    game after it, with 95% intervals, the best marked and those that the games cannot tell
    from the best marked too close to call
    (:func:`~coronas.manygames.intervals.paired_difference`).

    The arguments are :func:`win_chances`' (``games`` and ``precision`` per action: the
    actions are played out batch by batch, every action on the same seeded games, until each
    has ``games`` games, every half-width is at most ``precision`` or ``time`` is up).
    ``viewer`` defaults to the seat to move: a player asks from their own view.
    ``on_update(ranking)`` is called after each batch. Exact where every action's rest of the
    game can be walked or solved.

    ``time`` bounds the whole call, as for :func:`win_chances`: the exact attempts, one
    action after another, share :data:`~coronas.manygames.winchances.EXACT_SHARE` of it and stop at
    the first action that cannot be walked; the games then get the rest, played in pieces,
    the first of one game an action (a worker) measuring what they cost, and no piece
    started that would not end in time (fewer games an action, and wider intervals, when
    time is short). At least one game an action is played.

    ``common`` plays every action on the same seeded games (common random numbers) and
    compares each with the best game by game; without it each action gets games of its own
    and the two estimates' variances add up. By default the game decides
    (``playout.COMMON_RANDOM_NUMBERS``: common in Batalla and Corona de Hierro, where they
    narrow the interval of a difference by 19% and 39%; own games in Carolus, where they do
    not).
    """
    budget = Budget(games, precision, time)  # the clock starts here
    check_options(
        jobs=jobs, batch=batch, max_steps=max_steps, seed=seed, exact=exact, on_update=on_update
    )
    mover = state.current_player
    if mover < 0:
        raise ValueError("rank_actions needs a decision: this state is a chance node or over")
    seated = seat_bots(state, bots)
    if viewer is None and state.game.has_secrets:
        viewer = mover
    view = view_of(state, viewer)
    names = [state.player_name(p) for p in range(state.num_players)]
    assumption = describe_bots(names, [bot_label(b) for b in seated])
    actions = list(state.legal_actions())
    if common is None:
        common = state.game.spec().common_random_numbers

    odds: list[Any] = []  # each action's own dice odds, worked out once, at the first ranking

    def ranking(
        chances: list[Fraction],
        lows: list[float],
        highs: list[float],
        n: int,
        versus: list[tuple[float, float, float] | None],
    ) -> ActionRanking:
        if not odds:
            odds.extend(_dice_odds(state, a) for a in actions)
        order = sorted(range(len(actions)), key=lambda i: -chances[i])
        top = order[0]
        rows = []
        for i in order:
            diff = versus[i]
            # exact figures: only an equal chance; estimates: the interval of the difference
            # from the best does not rule out "as good"
            close = chances[i] == chances[top] if diff is None else diff[2] >= 0
            rows.append(
                {
                    "action": actions[i],
                    "label": state.describe(actions[i]),
                    "chance": chances[i],
                    "low": lows[i],
                    "high": highs[i],
                    "games": n,
                    "best": i == top,
                    "too_close": i != top and close,
                    "versus_best": diff,
                    "odds": odds[i],
                }
            )
        return ActionRanking(names[mover], tuple(rows), n == 0, assumption, view, n, common)

    if exact and exact_allowed(state, viewer):
        deadline = budget.exact_deadline()  # one share of the time for every action
        found = []
        for a in actions:
            chances = exact_win_chances(state.child(a), seated, deadline=deadline)
            if chances is None:
                break  # one action out of reach: every figure is an estimate
            found.append(chances[mover])
        else:
            points = [float(c) for c in found]
            return ranking(found, points, points, 0, [None] * len(actions))
    totals = [Fraction(0)] * len(actions)
    squares = [Fraction(0)] * len(actions)
    played = [0] * len(actions)
    per_game: list[list[Fraction | None]] = [[] for _ in actions]
    result = None
    cost: float | None = None  # seconds a game an action takes on one worker, once measured
    batches: list[list[Task]] = []  # the batch's tasks, by action

    def play(lo: int, hi: int) -> None:
        for i, action in enumerate(actions):
            got = runs.play(FromPosition(state, viewer, action), batches[i][lo:hi])
            totals[i] += got.totals[mover]
            squares[i] += got.squares[mover]
            played[i] += got.ended
            per_game[i] += [None if g is None else g[mover] for g in got.per_game]

    with Games(seated, seed, executor, jobs, max_steps) as runs:
        size = batch * jobs
        while True:
            n = budget.next_batch(min(played), size)
            tasks = runs.draw(n)
            # the same games after every action, or (not common) games of its own
            batches = [tasks if common or not i else runs.draw(n) for i in range(len(actions))]
            done, cost = play_batch(budget, n, jobs, cost, play)
            if min(played) == 0:
                raise RuntimeError(f"no game ended within {max_steps} steps after some action")
            intervals = [
                share_interval(float(t), float(q), n)
                for t, q, n in zip(totals, squares, played, strict=True)
            ]
            chances = [t / n for t, n in zip(totals, played, strict=True)]
            top = max(range(len(actions)), key=lambda i: chances[i])
            result = ranking(
                chances,
                [lo for lo, _ in intervals],
                [hi for _, hi in intervals],
                min(played),
                [
                    paired_difference(per_game[i], per_game[top])
                    if common
                    else independent_difference(
                        (float(totals[i]), float(squares[i]), played[i]),
                        (float(totals[top]), float(squares[top]), played[top]),
                    )
                    for i in range(len(actions))
                ],
            )
            if on_update is not None:
                on_update(result)
            widest = max((hi - lo) / 2 for lo, hi in intervals)
            if done < n or budget.done(min(played), widest, cost):
                return result
