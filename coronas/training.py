"""Fitting a game's value model and move prior from seeded self-play (``coronas train``).

The games: greedy players in every seat; in every other game one seat (rotated) plays the
light playout policy, and in every fourth game another seat plays a move prior's best move
(``policy``), so that the positions include uneven play. That prior is an input of the run,
like its seed: by default the shipped one (none while none is shipped), or the one in a file
named, or none; the provenance records its file's SHA-256, so that a seeded command refits
the same models whatever prior is shipped at the time. From each game: a share ``rate`` of
the positions where a cut playout may be scored (the game's ``settled``), with each seat's
value features, the hand-set evaluation's prediction and, once the game is over, the win
shares; and a share ``rate`` of the greedy seats' decisions among two or more actions, with
each action's features and the one chosen, or, with a ``teacher`` (a search bot of the
game, ``mcts:300``), how the teacher's search shared its visits among the actions at that
position: expert iteration, the prior fitted to what a search finds rather than to what
greedy plays (the games themselves are the same). The first 80% of the games fit both models
(:func:`coronas.engine.learning.fit_choice`), the last 20% measure them: the held-out
log-loss of the value model against the hand-set evaluation's, and of the move prior against
a uniform choice among the legal actions.

>>> result = train("batalla", games=6, seed=7, progress=False)
>>> result.value.names[0], result.prior.names[0]
('gems', 'light')
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from coronas.engine.evaluation import win_shares
from coronas.engine.learning import (
    Learning,
    ModelFileError,
    MovePrior,
    ValueModel,
    choice_log_loss,
    fit_choice,
    learning_of,
    shares_log_loss,
)
from coronas.engine.policybot import PolicyBot

__all__ = [
    "MAX_DECISIONS",
    "TrainingResult",
    "calibration",
    "check_teacher",
    "game_samples",
    "teacher_targets",
    "train",
]

MAX_DECISIONS = 20_000
"""Decisions after which a training game is dropped as unfinished (and counted)."""
L2 = 1e-4
"""The L2 penalty of both fits (per position): keeps weights finite where a feature always
goes with the choice, and moves the rest by well under their error."""


@dataclass
class GameSamples:
    """What one training game gave: value positions ``(rows, baseline shares)``, the win
    shares at its end, and the greedy seats' choices ``(rows, taken)``; ``ended`` is False
    for a game stopped at :data:`MAX_DECISIONS`."""

    positions: list[tuple[list, tuple[float, ...]]]
    won: tuple[float, ...]
    choices: list[tuple[list, list[int]]]
    ended: bool = True


def _seats(
    game: Any, players: int, seed: int, policy: MovePrior | None
) -> tuple[list[Any], list[str]]:
    names = ["greedy"] * players
    if seed % 2:
        names[seed % players] = "light"
    if policy is not None and seed % 4 == 2:
        names[(seed + 1) % players] = "policy"
    bots = [PolicyBot(prior=policy) if n == "policy" else game.bot(n) for n in names]
    return bots, names


def game_samples(
    name: str,
    players: int,
    rate: float,
    policy: tuple[float, ...] | None,
    seed: int,
    teacher: str | None = None,
) -> GameSamples:
    """One seeded training game of the game called ``name`` and what it gave; ``policy`` is
    the weights of the prior the policy seats play (None: no policy seat), passed as values
    so that every worker plays the same prior whatever file is shipped. With ``teacher`` (a
    search bot's name) each sampled decision's targets are the teacher's visit shares
    (:func:`teacher_targets`); the game goes on with greedy's move, so its course is the same
    with a teacher or without."""
    from coronas.engine import available_games

    game = available_games()[name]
    spec = learning_of(game)
    prior = None if policy is None else MovePrior(spec.action_names, policy, spec.action_features)
    bots, names = _seats(game, players, seed, prior)
    taught = None if teacher is None else game.bot(teacher)
    rng = random.Random(seed)
    state = game(players=players, seed=seed).new_initial_state()
    positions, choices = [], []
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        decisions += 1
        if decisions > MAX_DECISIONS:
            return GameSamples([], (), [], ended=False)
        if (spec.settled is None or spec.settled(state)) and rng.random() < rate:
            positions.append(
                (
                    [tuple(map(float, r)) for r in spec.value_features(state)],
                    tuple(spec.baseline(state)),
                )
            )
        seat = state.current_player
        sample = names[seat] == "greedy" and rng.random() < rate
        legal = state.legal_actions() if sample else None
        action = bots[seat].choose(state, rng)
        if sample and len(legal) > 1 and action in legal:
            rows = [tuple(map(float, r)) for r in spec.action_features(state, legal)]
            if taught is None:
                taken: list[float] = [0] * len(legal)
                taken[legal.index(action)] = 1
            else:  # its own seeds: the game's random numbers are left as they were
                taken = teacher_targets(
                    taught, state, legal, random.Random(seed * 2**20 + decisions)
                )
            choices.append((rows, taken))
        state.apply(action)
    return GameSamples(positions, tuple(win_shares(state)), choices)


def teacher_targets(teacher: Any, state: Any, legal: list[Any], rng: random.Random) -> list[float]:
    """The share of ``teacher``'s root visits that went to each of ``legal`` when it
    searched ``state`` (the state is left as it was)."""
    teacher.choose(state, rng)
    visits = {row["action"]: row["visits"] for row in teacher.last.table()}
    total = sum(visits.get(a, 0) for a in legal)
    return [visits.get(a, 0) / total for a in legal]


def check_teacher(game: Any, teacher: str | None) -> None:
    """Refuse a ``teacher`` that is not a search bot of ``game`` with a budget of simulations
    (a budget of seconds would make the refit depend on the machine): :class:`ValueError`
    saying what was expected."""
    if teacher is None:
        return
    try:
        bot = game.bot(teacher)
    except ValueError as exc:  # an unknown name or budget, in the game's words
        raise ValueError(f"teacher: {exc}") from None
    if not hasattr(bot, "last") or not hasattr(bot, "simulations"):
        raise ValueError(
            f"teacher: {teacher!r} is not a search bot of {game.name}: expected mcts, "
            "mcts-classic or one of them with a number of simulations (mcts:300)"
        )
    if bot.simulations is None:
        raise ValueError(
            f"teacher: {teacher!r} searches for a time, and the refit would depend on the "
            "machine: give a number of simulations (mcts:300)"
        )


def calibration(
    predicted: list[tuple[float, ...]], won: list[tuple[float, ...]], bins: int = 10
) -> list[tuple[str, int, float, float]]:
    """Predicted against observed win rate by decile of the prediction, over every seat of
    every position: ``(bin, seats, mean predicted, mean observed)`` for each bin with any."""
    sums = [[0, 0.0, 0.0] for _ in range(bins)]
    for shares, result in zip(predicted, won, strict=True):
        for q, y in zip(shares, result, strict=True):
            b = min(int(q * bins), bins - 1)
            sums[b][0] += 1
            sums[b][1] += q
            sums[b][2] += y
    return [
        (f"{b / bins:.1f}-{(b + 1) / bins:.1f}", n, s / n, o / n)
        for b, (n, s, o) in enumerate(sums)
        if n
    ]


@dataclass
class TrainingResult:
    """The fitted models and how they were measured."""

    value: ValueModel
    prior: MovePrior
    calibration: list[tuple[str, int, float, float]]
    unfinished: int = 0
    declared_table: tuple[int, float] | None = None
    """At another table than the game's: the declared table's seats and the held-out
    log-loss of the shipped value model fitted there, which judges this table without a
    model of its own."""
    held_out_positions: list[tuple[list, tuple]] = field(default_factory=list, repr=False)
    """The held-out positions: each seat's value features and the win shares."""
    held_out_choices: list[tuple[list, list[float]]] = field(default_factory=list, repr=False)
    """The held-out greedy decisions: each action's features and the one taken (or the
    teacher's visit shares)."""

    def report(self) -> str:
        """The figures, as text."""
        v, p = self.value.fitted, self.prior.fitted
        digest = v.get("policy_prior_sha256")
        lines = [
            f"{v['games']} games from seed {v['seed']}, {v['players']} players, bots "
            f"{', '.join(v['bots'])}; {self.unfinished} unfinished games dropped",
            *([f"the policy seats' prior: SHA-256 {digest}"] if digest else []),
            *(
                [f"the move prior's targets: {p['teacher']}'s visit shares"]
                if "teacher" in p
                else []
            ),
            "",
            f"value model: {v['positions']} positions fitted, {v['held_out_positions']} held out",
            f"  held-out log-loss {v['log_loss']:.4f} nats; {v['baseline']}: "
            f"{v['baseline_log_loss']:.4f}",
            *(
                [
                    f"  the shipped value model fitted at {self.declared_table[0]} players, on "
                    f"the same positions: {self.declared_table[1]:.4f}"
                ]
                if self.declared_table
                else []
            ),
            "  "
            + ", ".join(
                f"{n} {w:+.3f}" for n, w in zip(self.value.names, self.value.weights, strict=True)
            ),
            f"move prior: {p['positions']} decisions fitted, {p['held_out_positions']} held out",
            f"  held-out log-loss {p['log_loss']:.4f} nats; {p['baseline']}: "
            f"{p['baseline_log_loss']:.4f}",
            "  "
            + ", ".join(
                f"{n} {w:+.3f}" for n, w in zip(self.prior.names, self.prior.weights, strict=True)
            ),
            "",
            "calibration of the value model on the held-out positions (every seat):",
            "  predicted  seats  mean predicted  observed",
        ]
        lines += [f"  {b:9}  {n:5}  {q:14.3f}  {o:8.3f}" for b, n, q, o in self.calibration]
        return "\n".join(lines)

    def save(self, directory: str | Path, game: str) -> list[Path]:
        """Write the model files into ``directory``; returns their paths. At the game's
        declared table, both; at another, its value model alone, in that table's file
        (``value_model-4-players.json``): the game plays the declared table's move prior."""
        from coronas.engine import available_games
        from coronas.engine.learning import FILES, value_file

        players = self.value.fitted["players"]
        declared = players == learning_of(available_games()[game]).players
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for model in (self.value, self.prior) if declared else (self.value,):
            path = out / (FILES[model.kind] if declared else value_file(players))
            model.save(path, game)
            paths.append(path)
        return paths


def _policy_prior(spec: Learning, source: str | Path | bool) -> MovePrior | None:
    """The prior the policy seats play: the one in the file ``source``, refused with
    :class:`ModelFileError` if it is not a good prior of the game; for True the shipped one,
    None if none is shipped (or it no longer fits the game's features); None for False."""
    if not isinstance(source, bool):
        return spec.move_prior(source)
    if not source:
        return None
    try:
        return spec.move_prior(spec.path("prior"))  # read now, not the copy kept for play
    except ModelFileError:
        return None


def train(
    game: str,
    games: int = 1000,
    seed: int = 1000,
    jobs: int = 1,
    rate: float = 0.1,
    players: int | None = None,
    progress: bool = True,
    policy_prior: str | Path | bool = True,
    teacher: str | None = None,
) -> TrainingResult:
    """Play ``games`` seeded games of ``game`` and fit its value model and move prior (the
    first 80% of the games), measured on the rest. ``jobs`` worker processes (1: in this
    one); ``players`` defaults to the game's declared table. ``policy_prior`` is the prior
    the policy seats play: a move prior file of the game, True for the shipped one if one is
    shipped, False for no policy seat; its file's SHA-256 goes into the provenance
    (``policy_prior_sha256``, None without policy seats). ``teacher`` (a search bot's name
    with a number of simulations, ``mcts:300``) fits the prior to its visit shares at the
    sampled decisions instead of greedy's moves (recorded as ``teacher``)."""
    from coronas import __version__
    from coronas.engine import available_games

    if games < 5:
        raise ValueError(f"training needs 5 games or more (4 to fit, 1 to measure), got {games}")
    if not 0 < rate <= 1:
        raise ValueError(f"rate is a share of positions, in (0, 1], got {rate}")
    game_cls = available_games()[game]
    spec = learning_of(game_cls)
    players = players or spec.players
    check_teacher(game_cls, teacher)
    policy = _policy_prior(spec, policy_prior)
    weights = None if policy is None else policy.weights
    work = partial(game_samples, game, players, rate, weights, teacher=teacher)
    seeds = range(seed, seed + games)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, desc=f"{game} games", unit="game")
    results: list[GameSamples] = []
    try:
        if jobs > 1:
            from coronas.manygames.pool import worker_pool

            with worker_pool(jobs) as pool:
                for r in pool.map(work, seeds, chunksize=4):
                    results.append(r)
                    if bar:
                        bar.update()
        else:
            for s in seeds:
                results.append(work(s))
                if bar:
                    bar.update()
    finally:
        if bar:
            bar.close()
    cut = int(0.8 * games)
    fit_games, test_games = results[:cut], results[cut:]

    def values(part: list[GameSamples]) -> list[tuple[list, tuple, tuple]]:
        return [(rows, base, g.won) for g in part if g.ended for rows, base in g.positions]

    def decisions(part: list[GameSamples]) -> list[tuple[list, list[int]]]:
        return [c for g in part if g.ended for c in g.choices]

    v_fit, v_test = values(fit_games), values(test_games)
    c_fit, c_test = decisions(fit_games), decisions(test_games)
    if not v_fit or not v_test or not c_fit or not c_test:
        raise ValueError(f"{games} games gave too few positions to fit and measure: play more")
    v_weights = fit_choice([(rows, won) for rows, _, won in v_fit], l2=L2)
    p_weights = fit_choice(c_fit, l2=L2)
    common = {
        "seed": seed,
        "games": games,
        "players": players,
        "bots": ["greedy", "light"] + (["policy"] if policy is not None else []),
        "policy_prior_sha256": None if policy is None else policy.file_sha256,
        "rate": rate,
        "version": __version__,
    }
    value = ValueModel(
        spec.value_names,
        v_weights,
        spec.value_features,
        {
            **common,
            "positions": len(v_fit),
            "held_out_positions": len(v_test),
            "log_loss": choice_log_loss([(rows, won) for rows, _, won in v_test], v_weights),
            "baseline": spec.baseline_name,
            "baseline_log_loss": shares_log_loss([(base, won) for _, base, won in v_test]),
        },
    )
    uniform = sum(math.log(len(rows)) for rows, _ in c_test) / len(c_test)
    prior = MovePrior(
        spec.action_names,
        p_weights,
        spec.action_features,
        {
            **common,
            "positions": len(c_fit),
            "held_out_positions": len(c_test),
            "log_loss": choice_log_loss(c_test, p_weights),
            "baseline": "a uniform choice among the legal actions",
            "baseline_log_loss": uniform,
            **({"teacher": teacher} if teacher else {}),
        },
    )
    table = calibration([value.shares(rows) for rows, _, _ in v_test], [w for *_, w in v_test])
    unfinished = sum(not g.ended for g in results)
    held_out = [(rows, won) for rows, _, won in v_test]
    declared = None
    if players != spec.players:  # what this table is judged by without a model of its own
        declared = (spec.players, choice_log_loss(held_out, spec.value_model().weights))
    return TrainingResult(
        value,
        prior,
        table,
        unfinished,
        declared_table=declared,
        held_out_positions=held_out,
        held_out_choices=c_test,
    )
