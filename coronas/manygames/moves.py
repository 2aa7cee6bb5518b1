"""Which move? Every legal action of the seat to move, ranked by its chance of winning the
whole game after that action, at once from the game's value model, then from games.

**At once.** Every move is first scored by the game's fitted value model
(``Game.spec().evaluate``) on the position after it, from the mover's view: at a roll or draw
that follows the move, the exact expectation over its outcomes; in a game with secrets, the
average over a few positions resampled for the viewer. That takes under a second on one core
and is shown as what it is: a quick estimate, not yet games.

**Then games, where they matter.** The games after each move are played by
:mod:`~coronas.manygames.estimator` (the runner, any executor, a seat's view from resampled
positions) on **common random numbers**: game ``i`` after one move and game ``i`` after
another start from the same seeds, so the difference between two moves is measured more
sharply than either figure alone. The games go to the moves that could still be best (racing
on the paired intervals): a move the quick estimate puts far behind the best, or one the
game's learned player would hardly ever choose (its move prior), is not played at all, and
one whose paired difference from the best is clearly below zero (at a level corrected for the
number of moves compared and for every batch at which they were compared) is dropped from
later games; each says why.

**Read in order.** The moves whose paired difference from the best reaches zero form the
shortlist, shown together at the top: the games cannot tell them apart. The best move's own
figure runs high when it is picked as the best of many noisy ones, so it is also given from
the games not used to pick it (picked on the even games, measured on the odd ones). Where the
rest of the game can be walked, every figure is exact. A dice action shows its own exact odds
beside the game's (:meth:`State.odds <coronas.engine.State.odds>`): a roll likely to succeed
is not always the move most likely to win.

**Where each part lives.** The quick judgements before any game (the value model's figure and
the move prior's, and which moves they keep) are :mod:`~.judgement`'s; the ranking as a result
and its tables are :mod:`~.ranking`'s; this module plays the games and puts the ranking
together. Every name still imports from here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from statistics import NormalDist
from typing import Any

from coronas.engine.errors import IllegalAction
from coronas.engine.state import State
from coronas.manygames.estimator import (
    Arm,
    FromPosition,
    exact_answers,
    play_out,
    prepare,
)
from coronas.manygames.intervals import (
    independent_difference,
    normal_interval,
    paired_difference,
    share_interval,
)
from coronas.manygames.judgement import (
    DROP_BEHIND,
    EVERY_MOVE,
    LEFT_BY_PRIOR,
    LEFT_BY_QUICK,
    LIKELIEST_MOVES,
    MAX_KEPT,
    MAX_QUICK_OUTCOMES,
    MIN_PRIOR_KEPT,
    PRIOR_MASS,
    QUICK_RESAMPLES,
    QUICK_SECONDS,
    left_out,
    prior_kept,
    prior_values,
    quick_values,
)
from coronas.manygames.ranking import ActionRanking
from coronas.manygames.runner import DEFAULT_MAX_STEPS

__all__ = [
    "DECLARED",
    "DROP_BEHIND",
    "EVERY_MOVE",
    "HALVING_BATCH",
    "LEFT_BY_PRIOR",
    "LEFT_BY_QUICK",
    "LIKELIEST_MOVES",
    "MAX_KEPT",
    "MAX_QUICK_OUTCOMES",
    "MIN_DROP_GAMES",
    "MIN_PRIOR_KEPT",
    "PRIOR_MASS",
    "QUICK_RESAMPLES",
    "QUICK_SECONDS",
    "ActionRanking",
    "cut_shares",
    "halving_sizes",
    "left_out",
    "prior_kept",
    "prior_values",
    "quick_values",
    "rank_actions",
    "ranking_view",
]

MIN_DROP_GAMES = 40
"""A move is dropped by its paired interval only after this many games: fewer pairs make a
normal interval unreliable."""


class Declared:
    """The type of :data:`DECLARED`."""

    def __repr__(self) -> str:
        return "DECLARED"


DECLARED = Declared()
"""The default of :func:`rank_actions`' ``drop_behind``, ``prior_mass`` and ``halving``: the
game's own choice (:attr:`GameSpec.ranking <coronas.engine.surface.GameSpec.ranking>`), else
the generic one (:data:`LIKELIEST_MOVES`)."""

HALVING_BATCH = 4
"""The games a worker plays for every live move between two looks at them when the moves are
halved (20 otherwise): at 29 moves a batch of 20 a worker is most of a 10-second budget, and
halving looks several times within it."""


def halving_sizes(moves: int, keep: int = MAX_KEPT) -> list[int]:
    """How many moves sequential halving keeps playing after each of its cuts, from ``moves``
    down to ``keep``: half of them each time (rounded up), the last cut to ``keep``.

    >>> halving_sizes(29)
    [15, 8, 4, 3]
    >>> halving_sizes(3)
    []
    """
    sizes: list[int] = []
    n = moves
    while n > keep:
        n = max(keep, -(-n // 2))
        sizes.append(n)
    return sizes


def cut_shares(cuts: int, last_part: float | None = None) -> list[float]:
    """The shares of the budget after which sequential halving makes each of its ``cuts``:
    equal parts, or the last part (the moves left after every cut) ``last_part`` of the
    budget and the parts before it equal.

    >>> cut_shares(4)
    [0.2, 0.4, 0.6, 0.8]
    >>> cut_shares(4, 0.5)
    [0.125, 0.25, 0.375, 0.5]
    """
    if last_part is None:
        return [k / (cuts + 1) for k in range(1, cuts + 1)]
    return [k * (1 - last_part) / cuts for k in range(1, cuts + 1)]


def _dice_odds(state: State, action: Any) -> Any:
    try:
        return state.odds(action)
    except Exception:  # a game without odds for this position: no dice figure to show
        return None


def _held_out(arms: Sequence[Arm], mover: int) -> tuple[float, float, float] | None:
    """The best move picked on the even games, its chance on the odd ones, with its 95%
    interval; None with fewer than ten odd games."""
    live = [a for a in arms if a.live]

    def mean_even(a: Arm) -> float:
        even = [float(s) for s in a.shares(mover)[::2] if s is not None]
        return sum(even) / len(even) if even else 0.0

    picked = max(live, key=mean_even)
    odd = [float(s) for s in picked.shares(mover)[1::2] if s is not None]
    if len(odd) < 10:
        return None
    total = sum(odd)
    if picked.scored:
        low, high = normal_interval(odd)
    else:
        low, high = share_interval(total, sum(s * s for s in odd), len(odd))
    return total / len(odd), low, high


def _chosen(state: State, actions: list[Any], moves: Sequence[Any]) -> list[int]:
    """Where each of ``moves`` stands among the legal ``actions``, in the listing's order:
    refused if one of them is not legal here, or if there are none."""
    wanted = list(moves)
    if not wanted:
        raise ValueError("moves names the legal actions to rank: give at least one, or None")
    for move in wanted:
        if move not in actions:
            raise IllegalAction(
                f"{move!r} is not a legal move of {state.player_name(state.current_player)} "
                "here, so it cannot be ranked"
            )
    return [i for i, a in enumerate(actions) if a in wanted]


def ranking_view(state: State, viewer: int | None = None) -> int | None:
    """Whose information a ranking of the moves at ``state`` rests on, and so the chances
    shown beside it: ``viewer`` when one is given; in a game with hidden cards at a decision,
    the mover's (the other seats' legal moves hang on cards only the mover has seen); else
    None, the whole position. The stepper's panels and ``coronas advise`` ask both questions
    from this one view, so that "who wins" and "which move" never answer from different
    information."""
    if viewer is None and state.game.has_secrets and state.current_player >= 0:
        return state.current_player
    return viewer


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
    batch: int | None = None,
    on_update: Any = None,
    common: bool | None = None,
    drop_behind: float | Declared | None = DECLARED,
    prior_mass: float | Declared | None = DECLARED,
    quick_kept: int | Declared | None = DECLARED,
    race: bool = True,
    halving: bool | Declared = DECLARED,
    last_part: float | Declared | None = DECLARED,
    last_kept: int | Declared = DECLARED,
    luck: bool = False,
    horizon: int | None = None,
    moves: Sequence[Any] | None = None,
    by_turns: bool = False,
) -> ActionRanking:
    """Every legal action of the seat to move, ranked by the mover's chance of winning the
    game after it: at once by the value model (:func:`quick_values`, passed to
    ``on_update`` as a ranking marked ``quick``), then from games, with 95% intervals, the
    best marked and the shortlist of moves the games cannot tell from it
    (:func:`~coronas.manygames.intervals.paired_difference`) shown together at the top.

    The arguments are :func:`~coronas.manygames.winchances.win_chances`' (``games`` and
    ``precision`` per move still in the running: the moves are played out batch by batch,
    every move on the same seeded games, until each has ``games`` games, every live move's
    half-width is at most ``precision`` or ``time`` is up). ``viewer`` defaults to the seat
    to move in a game with secrets: a player asks from their own view.
    ``on_update(ranking)`` is called with the quick ranking, then after each batch. Exact
    where every move's rest of the game can be walked or solved.

    ``drop_behind`` leaves out of the games every move the quick estimate puts that far
    behind the best (None: none); ``race`` drops from later games a move whose paired
    difference from the best is below zero at 95% corrected for the number of moves and for
    every batch at which they are compared (Bonferroni, look ``t`` given ``1/(t(t+1))`` of
    the 5%), after :data:`MIN_DROP_GAMES` games. ``halving`` plays the moves out by
    sequential halving: the budget (``time`` or ``games``) in equal parts, and at the end of
    each part the worse half of the moves still played (by their figures so far, on the same
    games) dropped, until :data:`MAX_KEPT` are left to share the last part
    (:func:`halving_sizes`; ``batch`` then defaults to :data:`HALVING_BATCH`, 20 otherwise).
    The games go to the moves that could be best even where neither judgement before the
    games can tell which those are. Without ``time`` or ``games`` it does nothing.
    ``last_part`` gives the moves left after the last cut that share of the budget, the
    parts before it equal (:func:`cut_shares`; None: every part equal), so that their
    intervals narrow. ``last_kept`` is how many moves the last cut keeps to share that part,
    from 1 to :data:`MAX_KEPT` (:data:`MAX_KEPT` by default): fewer, each with more games.
    ``prior_mass`` plays out only the learned player's likeliest moves, by the game's move prior
    (:func:`prior_values`), until together they hold that much of its probability (at least
    :data:`MIN_PRIOR_KEPT`, and the quick estimate's best; None: every move), :data:`MAX_KEPT`
    at most, the quick estimate's best first: the games go to the few moves worth them, which
    they can tell apart in seconds. A dropped move keeps its figures and says why.
    ``quick_kept`` plays out only the quick estimate's best few moves, that many, a tie
    broken by the move prior, then by the order the moves are listed in (None: every move),
    each move left out saying how far behind.
    Left unsaid, ``drop_behind``, ``prior_mass``, ``quick_kept``, ``halving``, ``last_part``
    and ``last_kept`` are the game's own choice (:data:`DECLARED`): Batalla's and Corona de
    Hierro's rankings play every move and halve them, Carolus's the value model's five best.

    ``time`` bounds the whole call, as for ``win_chances``: the quick estimate takes at most
    a tenth of it (:data:`QUICK_SECONDS` at most), the exact attempts share
    :data:`~coronas.manygames.exact.EXACT_SHARE` of it, and the games get the rest. At
    least one game a live move is played.

    ``luck`` adjusts each game's shares by the luck of its rolls as the value model sees it
    (:class:`~coronas.manygames.scoring.Luck`), as for ``win_chances``.

    ``horizon`` cuts each game after that many actions (chance outcomes included), at the
    next position the game calls settled, as the search cuts its playouts, and scores it by
    the value model: the mover's share is the model's chance there, not a 0/1 win
    (:func:`~coronas.manygames.scoring.play_cut`). Cut games are quicker and less noisy,
    but their figures estimate the model's view ``horizon`` actions on: biased by the model's
    error there, and their intervals are for that quantity. None or 0 plays every game to
    its end; a game without a value model, or ``luck`` with it, is refused.

    ``common`` plays every move on the same seeded games (common random numbers); without it
    each move gets games of its own and the two estimates' variances add up. By default the
    game decides (``Game.spec().common_random_numbers``).

    ``by_turns`` (with ``common``) has the games draw by the game's turns
    (``Game.spec().turn``, :func:`~coronas.engine.search.play`'s ``turns``): the n-th roll and
    choice of each turn alike in every move's game, so that the games keep in step after
    their first difference and a difference between two moves is measured more sharply.
    Off by default: at Corona de Hierro's held-out decisions it did not make the advice pick
    better (docs/performance.md). Refused for a game that declares no turns.

    ``moves`` ranks only those legal actions (python-chess's ``root_moves``), in the order
    the state lists them: two moves a player hesitates between get every game. The game's
    rule for leaving moves out applies among them; an action that is not legal here is
    refused with :class:`~coronas.engine.errors.IllegalAction`.
    """
    if state.current_player < 0:
        raise ValueError("rank_actions needs a decision: this state is a chance node or over")
    rule = {**LIKELIEST_MOVES, **state.game.spec().ranking}  # the game's own, else generic
    drop_behind, prior_mass, halving, last_part, last_kept, quick_kept = (
        rule[name] if value is DECLARED else value
        for name, value in (
            ("drop_behind", drop_behind),
            ("prior_mass", prior_mass),
            ("halving", halving),
            ("last_part", last_part),
            ("last_kept", last_kept),
            ("quick_kept", quick_kept),
        )
    )
    if quick_kept is not None and (type(quick_kept) is not int or quick_kept < 1):
        raise ValueError(
            "quick_kept is how many of the quick estimate's best moves are played out, a whole "
            f"number from 1, or None (every move); got {quick_kept!r}"
        )
    if type(last_kept) is not int or not 1 <= last_kept <= MAX_KEPT:
        raise ValueError(
            f"last_kept is how many moves halving plays to the end, a whole number from 1 to "
            f"{MAX_KEPT}; got {last_kept!r}"
        )
    if last_part is not None and not 0 < last_part < 1:
        raise ValueError(f"last_part is a share between 0 and 1, or None; got {last_part!r}")
    if drop_behind is not None and not 0 < drop_behind <= 1:
        raise ValueError(f"drop_behind is a chance between 0 and 1, or None; got {drop_behind!r}")
    if prior_mass is not None and not 0 < prior_mass <= 1:
        raise ValueError(
            f"prior_mass is a probability between 0 and 1, or None; got {prior_mass!r}"
        )
    if common is None:
        common = state.game.spec().common_random_numbers
    turns = state.game.spec().turn if by_turns else None
    if by_turns and (turns is None or not common):
        raise ValueError(
            "by_turns draws every move's games by the game's turns: it needs a game that "
            f"declares them (GameSpec.turn; {state.game.name} declares "
            f"{'none' if turns is None else 'them'}) and common random numbers (common={common})"
        )
    if batch is None:
        batch = HALVING_BATCH if halving else 20
    mover = state.current_player
    viewer = ranking_view(state, viewer)
    if state.game.has_secrets and viewer != mover:
        # the other seats' legal moves hang on cards the viewer cannot see
        raise ValueError(
            f"the moves are {state.player_name(mover)}'s: in a game with hidden cards they are "
            f"ranked from {state.player_name(mover)}'s view (viewer={mover} or None), not from "
            "another seat's"
        )
    setup = prepare(
        state,
        bots,
        games=games,
        precision=precision,
        time=time,
        seed=seed,
        exact=exact,
        viewer=viewer,
        executor=executor,
        jobs=jobs,
        max_steps=max_steps,
        batch=batch,
        on_update=on_update,
        luck=luck,
        horizon=horizon,
    )
    horizon = setup.horizon
    player, view, assumption = setup.names[mover], setup.view, setup.assumption
    actions = list(state.legal_actions())
    chosen = None if moves is None else _chosen(state, actions, moves)
    if chosen is not None:
        actions = [actions[i] for i in chosen]
    odds = [_dice_odds(state, a) for a in actions]
    budget = setup.budget
    quick_time = QUICK_SECONDS if budget.time is None else min(QUICK_SECONDS, budget.time / 10)
    quick = quick_values(state, viewer, quick_time, seed)
    # the prior keeps the likeliest moves, or breaks the quick estimate's ties
    wanted = prior_mass is not None or quick_kept is not None
    prior = prior_values(state, viewer, seed) if wanted else None
    if chosen is not None:  # both read every legal action: keep the chosen ones'
        quick = None if quick is None else [quick[i] for i in chosen]
        prior = None if prior is None else [prior[i] for i in chosen]

    def row(i: int, chance: Fraction, low: float, high: float, n: int) -> dict[str, Any]:
        return {
            "action": actions[i],
            "label": state.describe(actions[i]),
            "chance": chance,
            "low": low,
            "high": high,
            "games": n,
            "best": False,
            "shortlist": False,
            "too_close": False,
            "versus_best": None,
            "quick": None if quick is None else quick[i],
            "prior": None if prior is None else prior[i],
            "dropped": "",
            "odds": odds[i],
        }

    def ordered(rows: list[dict[str, Any]], top: int) -> tuple[dict[str, Any], ...]:
        rows[top]["best"] = rows[top]["shortlist"] = True
        for r in rows:
            r["too_close"] = r["shortlist"] and not r["best"]
        return tuple(
            sorted(
                rows,
                key=lambda r: (
                    not r["best"],
                    not r["shortlist"],
                    bool(r["dropped"]),
                    -float(r["chance"]),
                ),
            )
        )

    if quick is not None and on_update is not None:
        rows = [row(i, Fraction(v), v, v, 0) for i, v in enumerate(quick)]
        top = max(range(len(actions)), key=lambda i: quick[i])
        on_update(
            ActionRanking(player, ordered(rows, top), False, assumption, view, 0, common, True)
        )

    found = exact_answers(setup, [state.child(a) for a in actions])
    if found is not None:
        chances = [c[mover] for c in found]
        rows = [row(i, c, float(c), float(c), 0) for i, c in enumerate(chances)]
        top = max(range(len(actions)), key=lambda i: chances[i])
        for r in rows:
            r["shortlist"] = r["chance"] == chances[top]
        return ActionRanking(player, ordered(rows, top), True, assumption, view, 0, common)

    arms = [Arm(FromPosition(state, viewer, a), state.num_players) for a in actions]
    # whether the prior, or the quick estimate's best few, left a move out: the rule is then
    # said once
    left_by_prior = left_by_quick = False
    for i, why in left_out(quick, prior, drop_behind, prior_mass, quick_kept=quick_kept).items():
        arms[i].dropped = why
        left_by_prior = left_by_prior or why.startswith(LEFT_BY_PRIOR)
        left_by_quick = left_by_quick or why.startswith(LEFT_BY_QUICK)
    looks = 0  # how many times the moves were compared for dropping
    versus: list[tuple[float, float, float] | None] = [None] * len(actions)

    def difference(i: int, top: int, z: float) -> tuple[float, float, float]:
        a, b = arms[i], arms[top]
        if common:
            return paired_difference(a.shares(mover), b.shares(mover), z)
        return independent_difference(a.moments(mover), b.moments(mover), z)

    def best_live() -> int:
        live = [i for i, a in enumerate(arms) if a.live]
        return max(live, key=lambda i: arms[i].chance(mover))

    def summarise(_: Sequence[Arm]) -> tuple[ActionRanking, float]:
        top = best_live()
        rows = []
        for i, arm in enumerate(arms):
            if arm.ended:
                low, high = arm.interval(mover)
                r = row(i, arm.chance(mover), low, high, arm.ended)
            else:  # never played: its quick figure
                v = quick[i] if quick is not None else 0.0
                r = row(i, Fraction(v), v, v, 0)
            r["dropped"] = arm.dropped
            if i == top:  # compared with an earlier best while behind it, now the best
                versus[i] = None
            elif arm.live:
                versus[i] = difference(i, top, NormalDist().inv_cdf(0.975))
                r["shortlist"] = versus[i][2] >= 0
            r["versus_best"] = versus[i]
            rows.append(r)
        widest = max((r["high"] - r["low"]) / 2 for r, a in zip(rows, arms, strict=True) if a.live)
        played = min(a.ended for a in arms if a.live)
        held = _held_out(arms, mover) if common else None
        ranking = ActionRanking(
            player,
            ordered(rows, top),
            False,
            assumption,
            view,
            played,
            common,
            held_out=held,
            luck=luck,
            horizon=horizon,
            prior_mass=prior_mass if left_by_prior else None,
            quick_kept=quick_kept if left_by_quick else None,
            halving=halved,
            kept=last_kept,
        )
        return ranking, widest

    cuts = halving_sizes(sum(a.live for a in arms), last_kept) if halving else []
    if budget.time is None and budget.games is None:
        cuts = []  # no budget to part: the racing alone
    halved = bool(cuts)
    # each cut as (the share of the budget after which it comes, the moves it keeps)
    plan = list(zip(cut_shares(len(cuts), last_part), cuts, strict=True))
    games_time = budget.remaining() if budget.time is not None else None
    games_began = budget.clock()

    def halve() -> None:
        """Sequential halving: drop the worse half of the live moves at the end of each of
        the budget's parts (of its time or its games, whichever runs out first)."""
        done = 0.0
        if games_time is not None:
            done = (budget.clock() - games_began) / max(games_time, 1e-9)
        if budget.games is not None:
            done = max(done, min(a.played for a in arms if a.live) / budget.games)
        # a cut at the budget's end would take games from no one: the run is over
        while plan and plan[0][0] <= done < 1:
            keep = plan.pop(0)[1]
            live = [i for i, a in enumerate(arms) if a.live]
            if len(live) <= keep:
                continue
            order = sorted(
                live,
                key=lambda i: (-arms[i].chance(mover), -(quick[i] if quick is not None else 0)),
            )
            top = arms[order[0]].chance(mover)
            for i in order[keep:]:
                behind = float(top - arms[i].chance(mover)) * 100
                arms[i].dropped = (
                    f"dropped after {arms[i].ended} games: outside the top {keep} of the "
                    f"{len(live)} moves still played ({behind:.1f} points behind the best)"
                )

    def prune(_: Sequence[Arm]) -> None:
        nonlocal looks
        if plan:
            halve()
        if not race or all(a.ended < MIN_DROP_GAMES for a in arms if a.live):
            return
        looks += 1
        # 5% shared out over the moves compared and over every look (look t gets
        # 1/(t(t+1)) of it, summing to 1): the chance of ever dropping a move as good as
        # the best stays under 5% however long the games go on
        share = 0.05 / (max(1, len(actions) - 1) * looks * (looks + 1))
        race_z = NormalDist().inv_cdf(1 - share / 2)
        top = best_live()
        for i, arm in enumerate(arms):
            if arm.live and i != top and arm.ended >= MIN_DROP_GAMES:
                mean, low, high = difference(i, top, race_z)
                if high < 0:
                    arm.dropped = (
                        f"dropped after {arm.ended} games: clearly worse than the best move "
                        f"({mean * 100:+.1f} points, {low * 100:+.1f} to {high * 100:+.1f})"
                    )

    result, why = play_out(setup, arms, summarise, common=common, prune=prune, turns=turns)
    return dataclasses.replace(result, stopped=why)
