"""Learned judgement as data: a value model, a move prior, their fitting and their files.

Both models are the conditional logit (McFadden, 1974): a choice among alternatives, each
alternative scored by a linear function ``w . x`` of its features, chosen with probability
``exp(w . x) / sum exp(w . x')``.

* :class:`ValueModel`: the alternatives are the seats, the choice is who wins; its
  ``evaluate(state)`` is each seat's chance of winning from the position (features of the
  seat read from public information only).
* :class:`MovePrior`: the alternatives are the legal actions, the choice the one a stronger
  player made; its ``probabilities(state, actions)`` is a softmax over them, and
  :class:`~coronas.engine.policybot.PolicyBot` plays its best move.

One routine, :func:`fit_choice`, fits both by maximum likelihood (Newton's method on the
concave log-likelihood, with a small L2 penalty). A fitted model is shipped as JSON in its
game's package data (``<game>/data/value_model.json``, ``<game>/data/move_prior.json``) with
how it was fitted; :func:`load_model` checks every field before a model is used. A game
declares its features and hand-set evaluation in one :class:`Learning` (the ``LEARNING`` of
its ``features`` module); ``coronas train`` refits its models.

Evaluating a model is plain Python: for a handful of features, a dot product in a generator
is faster than building a numpy array for each call (docs/performance.md); numpy is used only
to fit.

>>> model = ValueModel(("vp",), (1.0,), lambda state: [(2.0,), (2.0,)])
>>> model.shares([(1.0,), (1.0,)])
(0.5, 0.5)
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from operator import mul
from pathlib import Path
from typing import Any

from coronas.engine.evaluation import win_shares

__all__ = [
    "FORMAT",
    "MAX_FEATURES",
    "Choice",
    "Learning",
    "LinearModel",
    "ModelFileError",
    "MovePrior",
    "ValueModel",
    "choice_log_loss",
    "fit_choice",
    "is_shipped",
    "learning_of",
    "load_model",
    "softmax",
    "value_file",
]

FORMAT = "coronas-model"
"""The ``format`` field of a model file."""
VERSION = 1
"""The model file format's version."""
MAX_FEATURES = 64
"""The most features a model file may name."""
MAX_FILE = 1_000_000
"""The largest model file read, in bytes."""
MAX_WEIGHT = 1e6
"""The largest weight, in absolute value, a model file may hold."""
KINDS = ("value", "prior")
"""The kinds of model: a value model, a move prior."""
FILES = {"value": "value_model.json", "prior": "move_prior.json"}
"""Each kind's file in a game's package data, fitted at the game's declared table."""


def value_file(players: int) -> str:
    """The file of a value model fitted at another table than the game's declared one
    (``value_model-4-players.json``): a seat's chances depend on how many seats share them."""
    return f"value_model-{players}-players.json"


Choice = tuple[Sequence[Sequence[float]], Sequence[float]]
"""One choice for :func:`fit_choice`: a row of features for each alternative (a seat, a legal
action), and how much each was chosen (a win share; 1 for the action played, 0 for the
others)."""


def softmax(scores: Sequence[float]) -> list[float]:
    """``exp(s) / sum exp(s')`` for each score, computed without overflow."""
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def _dot(weights: Sequence[float], row: Sequence[float]) -> float:
    return sum(w * x for w, x in zip(weights, row, strict=True))


# -- fitting -----------------------------------------------------------------------------------
def fit_choice(
    choices: Sequence[Choice],
    l2: float = 1e-4,
    iterations: int = 100,
    jitter: float = 1e-9,
) -> tuple[float, ...]:
    """The weights ``w`` that make the observed choices most likely under the conditional
    logit model, less an L2 penalty: maximises ``mean log p(chosen) - l2/2 |w|^2``.

    Each choice is ``(rows, taken)``: one row of features per alternative and how much of
    the choice each got (they need not sum to 1; a share of a win, or 1 for a move played).
    Choices may have different numbers of alternatives (seats at a table, legal actions);
    one with a single alternative tells nothing and is skipped. The objective is concave;
    Newton's method climbs it, halving a step that would not climb, until no weight moves by
    more than 1e-10. ``jitter`` keeps the Hessian invertible when ``l2`` is 0 and a feature
    never varies.

    Worked by hand: the alternative with the feature was taken 3 times in 4,
    ``e^w / (1 + e^w) = 3/4``, so ``w = ln 3``.

    >>> (w,) = fit_choice([([[1.0], [0.0]], [1, 0])] * 3 + [([[1.0], [0.0]], [0, 1])], l2=0)
    >>> abs(w - math.log(3)) < 1e-9
    True
    """
    import numpy as np

    rows: list[Sequence[float]] = []
    taken: list[float] = []
    starts: list[int] = []
    width: int | None = None
    for i, (features, got) in enumerate(choices):
        if len(got) != len(features):
            raise ValueError(
                f"choice {i}: {len(features)} alternatives but {len(got)} amounts taken"
            )
        if len(features) < 2:
            continue
        for row in features:
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise ValueError(
                    f"choice {i}: every alternative needs {width} features, got {len(row)}"
                )
        starts.append(len(rows))
        rows.extend(features)
        taken.extend(got)
    if not starts or width is None:
        raise ValueError("no choices to fit (each needs two alternatives or more)")
    x = np.asarray(rows, float)
    y = np.asarray(taken, float)
    start = np.asarray(starts)
    group = np.repeat(np.arange(len(starts)), np.diff(np.append(start, len(rows))))
    y_sum = np.add.reduceat(y, start)
    n = len(starts)

    def objective(w: Any, derivatives: bool) -> tuple[float, Any, Any]:
        z = x @ w
        z = z - np.maximum.reduceat(z, start)[group]
        e = np.exp(z)
        log_p = z - np.log(np.add.reduceat(e, start))[group]
        loss = -(y @ log_p) / n + 0.5 * l2 * (w @ w)
        if not derivatives:
            return loss, None, None
        p = np.exp(log_p)
        weight = p * y_sum[group]
        grad = -(x.T @ (y - weight)) / n + l2 * w
        mean_x = np.add.reduceat(p[:, None] * x, start)  # each choice's expected features
        hess = (x.T * weight) @ x - (mean_x.T * y_sum) @ mean_x
        return loss, grad, hess / n + l2 * np.eye(len(w))

    w = np.zeros(width)
    loss, grad, hess = objective(w, True)
    for _ in range(iterations):
        step = np.linalg.solve(hess + jitter * np.eye(width), grad)
        while True:
            trial = w - step
            new_loss = objective(trial, False)[0]
            if new_loss <= loss or np.abs(step).max() < 1e-12:
                break
            step = step / 2
        w = trial
        loss, grad, hess = objective(w, True)
        if np.abs(step).max() < 1e-10:
            break
    return tuple(float(v) for v in w)


def choice_log_loss(choices: Sequence[Choice], weights: Sequence[float]) -> float:
    """The mean cross-entropy, in nats, of ``choices`` under the model with ``weights``
    (choices with one alternative skipped, as in :func:`fit_choice`): uniform weights over
    ``k`` alternatives score ``ln k``."""
    total, n = 0.0, 0
    for rows, got in choices:
        if len(rows) < 2:
            continue
        p = softmax([_dot(weights, row) for row in rows])
        total -= sum(y * math.log(max(q, 1e-300)) for y, q in zip(got, p, strict=True) if y)
        n += 1
    if not n:
        raise ValueError("no choices to score")
    return total / n


def shares_log_loss(samples: Sequence[tuple[Sequence[float], Sequence[float]]]) -> float:
    """The mean cross-entropy of ``(predicted shares, win shares)`` pairs: how well an
    evaluation that is not linear (a game's hand-set one) predicts, on the scale of
    :func:`choice_log_loss`."""
    if not samples:
        raise ValueError("no positions to score")
    total = 0.0
    for predicted, won in samples:
        total -= sum(y * math.log(max(q, 1e-300)) for y, q in zip(won, predicted, strict=True) if y)
    return total / len(samples)


# -- models ------------------------------------------------------------------------------------
class ModelFileError(ValueError):
    """A model file that cannot be used: its message names the file, the field and what was
    expected."""


class LinearModel:
    """Feature names, their weights and how they were fitted (``fitted``: the provenance
    written to the model file)."""

    kind = "value"

    def __init__(
        self,
        names: Sequence[str],
        weights: Sequence[float],
        fitted: dict[str, Any] | None = None,
    ):
        if len(names) != len(weights):
            raise ValueError(f"{len(names)} feature names but {len(weights)} weights")
        self.names = tuple(names)
        self.weights = tuple(float(w) for w in weights)
        self.fitted = dict(fitted or {})
        self.file_sha256: str | None = None
        """The SHA-256 of the file the model was read from (:func:`load_model`), else None:
        what a refit's provenance names a prior by."""

    def to_dict(self, game: str) -> dict[str, Any]:
        """The model file's content."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "kind": self.kind,
            "game": game,
            "features": list(self.names),
            "weights": list(self.weights),
            "fitted": self.fitted,
        }

    def save(self, path: str | Path, game: str) -> None:
        """Write the model file (JSON, weights to full precision)."""
        Path(path).write_text(json.dumps(self.to_dict(game), indent=1) + "\n", encoding="utf-8")

    @property
    def beats_baseline(self) -> bool:
        """Whether the held-out log-loss recorded in ``fitted`` is below the baseline's."""
        loss, base = self.fitted.get("log_loss"), self.fitted.get("baseline_log_loss")
        return isinstance(loss, float) and isinstance(base, float) and loss < base

    def __repr__(self) -> str:
        pairs = ", ".join(f"{n}={w:.3g}" for n, w in zip(self.names, self.weights, strict=True))
        return f"{type(self).__name__}({pairs})"


class ValueModel(LinearModel):
    """Each seat's chance of winning: the softmax over seats of ``w . x_p``, where ``x_p`` is
    the seat's row of ``features(state)`` (public information only)."""

    kind = "value"

    def __init__(
        self,
        names: Sequence[str],
        weights: Sequence[float],
        features: Callable[[Any], Sequence[Sequence[float]]],
        fitted: dict[str, Any] | None = None,
    ):
        super().__init__(names, weights, fitted)
        self.features = features

    def shares(self, rows: Sequence[Sequence[float]]) -> tuple[float, ...]:
        """The chances of seats with feature ``rows``."""
        w = self.weights
        return tuple(softmax([sum(map(mul, w, row)) for row in rows]))

    def evaluate(self, state: Any) -> tuple[float, ...]:
        """Each seat's chance of winning from ``state``; at the end, the exact win shares."""
        if state.is_terminal():
            return win_shares(state)
        return self.shares(self.features(state))


class MovePrior(LinearModel):
    """A softmax over the legal actions of ``w . x_a``, where ``x_a`` is the action's row of
    ``features(state, actions)``: how likely a stronger player is to choose each."""

    kind = "prior"

    def __init__(
        self,
        names: Sequence[str],
        weights: Sequence[float],
        features: Callable[[Any, Sequence[Any]], Sequence[Sequence[float]]],
        fitted: dict[str, Any] | None = None,
    ):
        super().__init__(names, weights, fitted)
        self.features = features

    def scores(self, state: Any, actions: Sequence[Any]) -> list[float]:
        """Each action's linear score (its log-probability, up to a constant)."""
        w = self.weights
        return [sum(map(mul, w, row)) for row in self.features(state, actions)]

    def probabilities(self, state: Any, actions: Sequence[Any]) -> list[float]:
        """The prior probability of each of ``actions`` (legal in ``state``), summing to 1."""
        return softmax(self.scores(state, actions))


# -- model files -------------------------------------------------------------------------------
_FITTED_NUMBERS = {
    "seed": (int, 0, 2**64),
    "games": (int, 1, 10**8),
    "players": (int, 1, 100),
    "positions": (int, 0, 10**9),
    "held_out_positions": (int, 0, 10**9),
    "log_loss": (float, 0.0, 1e3),
    "baseline_log_loss": (float, 0.0, 1e3),
}
_FITTED_TEXTS = ("baseline", "version")
_FITTED_OPTIONAL = ("policy_prior_sha256", "teacher")
"""Fields of ``fitted`` that older files lack: the SHA-256 of the prior the policy seats
played (null: no policy seat); a move prior's teacher, the search whose visit shares it was
fitted to (absent: greedy's moves)."""


def _refuse(where: str, field: str, message: str) -> ModelFileError:
    return ModelFileError(f"{where}: {field}: {message}")


def check_model(data: Any, where: str, kind: str, game: str, names: Sequence[str]) -> None:
    """Raise :class:`ModelFileError` naming ``where`` and the field if ``data`` is not a good
    model file of ``kind`` for ``game`` with features ``names`` in that order."""
    from coronas.engine.schema import short

    if not isinstance(data, dict):
        raise _refuse(where, "(top)", f"expected an object, got {short(data)}")
    known = {"format", "version", "kind", "game", "features", "weights", "fitted"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise _refuse(where, unknown[0], f"unknown field; expected {', '.join(sorted(known))}")
    for field, want in (("format", FORMAT), ("version", VERSION), ("kind", kind), ("game", game)):
        if data.get(field) != want:
            raise _refuse(where, field, f"expected {want!r}, got {short(data.get(field))}")
    features = data.get("features")
    if not isinstance(features, list) or len(features) > MAX_FEATURES:
        raise _refuse(where, "features", f"expected a list of at most {MAX_FEATURES} names")
    if features != list(names):
        raise _refuse(
            where,
            "features",
            f"expected the game's features {list(names)} in that order, got {short(features)}",
        )
    weights = data.get("weights")
    if not isinstance(weights, list) or len(weights) != len(names):
        raise _refuse(where, "weights", f"expected a list of {len(names)} numbers")
    for i, w in enumerate(weights):
        if isinstance(w, bool) or not isinstance(w, int | float):
            raise _refuse(where, f"weights[{i}]", f"expected a number, got {short(w)}")
        if not math.isfinite(w) or abs(w) > MAX_WEIGHT:
            raise _refuse(where, f"weights[{i}]", f"expected a finite number, got {short(w)}")
    fitted = data.get("fitted")
    if not isinstance(fitted, dict):
        raise _refuse(where, "fitted", "expected an object saying how the model was fitted")
    allowed = {*_FITTED_NUMBERS, *_FITTED_TEXTS, *_FITTED_OPTIONAL, "bots", "rate"}
    extra = sorted(set(fitted) - allowed)
    if extra:
        raise _refuse(where, f"fitted.{extra[0]}", "unknown field")
    for field, (typ, low, high) in _FITTED_NUMBERS.items():
        v = fitted.get(field)
        ok = not isinstance(v, bool) and (
            isinstance(v, int) if typ is int else isinstance(v, int | float)
        )
        if not ok or not (low <= v <= high) or not math.isfinite(v):
            raise _refuse(
                where, f"fitted.{field}", f"expected a {typ.__name__} from {low} to {high}"
            )
    for field in _FITTED_TEXTS:
        v = fitted.get(field)
        if not isinstance(v, str) or len(v) > 200:
            raise _refuse(where, f"fitted.{field}", "expected a short text")
    bots = fitted.get("bots")
    if not isinstance(bots, list) or not bots or len(bots) > 20:
        raise _refuse(where, "fitted.bots", "expected a list of the bots that played")
    if not all(isinstance(b, str) and 0 < len(b) <= 50 for b in bots):
        raise _refuse(where, "fitted.bots", "expected bot names")
    rate = fitted.get("rate")
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 < rate <= 1:
        raise _refuse(where, "fitted.rate", "expected the share of positions kept, in (0, 1]")
    teacher = fitted.get("teacher", "mcts")
    if not (isinstance(teacher, str) and 0 < len(teacher) <= 50):
        raise _refuse(
            where, "fitted.teacher", f"expected a search bot's name, got {short(teacher)}"
        )
    digest = fitted.get("policy_prior_sha256")
    if digest is not None and not (
        isinstance(digest, str) and re.fullmatch(r"[0-9a-f]{64}", digest)
    ):
        raise _refuse(
            where,
            "fitted.policy_prior_sha256",
            f"expected the policy prior's SHA-256 in 64 hex digits, or null, got {short(digest)}",
        )


def load_model(
    source: str | Path | Any, kind: str, game: str, names: Sequence[str], features: Callable
) -> ValueModel | MovePrior:
    """The model of ``kind`` (``"value"`` or ``"prior"``) in the file ``source`` (a path or
    an ``importlib.resources`` file), checked field by field (:func:`check_model`), with the
    SHA-256 of the bytes read as its ``file_sha256``."""
    if kind not in KINDS:
        raise ValueError(f"kind is one of {KINDS}, got {kind!r}")
    where = str(source)
    try:
        raw = source.read_bytes() if hasattr(source, "read_bytes") else Path(source).read_bytes()
    except OSError as exc:
        raise ModelFileError(f"{where}: cannot read the file ({exc.strerror or exc})") from None
    if len(raw) > MAX_FILE:
        raise _refuse(where, "(file)", f"larger than {MAX_FILE} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise _refuse(where, "(file)", f"not JSON ({exc})") from None
    check_model(data, where, kind, game, names)
    cls = ValueModel if kind == "value" else MovePrior
    fitted = dict(data["fitted"])
    for field in ("log_loss", "baseline_log_loss"):
        fitted[field] = float(fitted[field])
    model = cls(names, data["weights"], features, fitted)
    model.file_sha256 = hashlib.sha256(raw).hexdigest()
    return model


# -- a game's declaration ----------------------------------------------------------------------
@dataclass(frozen=True)
class Learning:
    """What a game declares for learned judgement (its ``features`` module's ``LEARNING``):
    the value features of each seat and the features of (position, action) pairs, with their
    names in order; its hand-set evaluation (the value model's baseline); ``settled`` (where
    a position may be scored); the seats at the table the shipped models are fitted at; and
    the package whose ``data/`` holds the model files.

    A game played at other tables (Corona de Hierro: 3 to 5 seats) may ship a value model
    for each (:func:`value_file`); a table without one is judged by the declared table's."""

    game: str
    value_names: tuple[str, ...]
    value_features: Callable[[Any], Sequence[Sequence[float]]]
    action_names: tuple[str, ...]
    action_features: Callable[[Any, Sequence[Any]], Sequence[Sequence[float]]]
    baseline: Callable[[Any], Sequence[float]]
    baseline_name: str
    package: str
    players: int = 2
    settled: Callable[[Any], bool] | None = None

    def path(self, kind: str, players: int | None = None) -> Any:
        """The shipped file of ``kind`` (``"value"`` or ``"prior"``); with ``players`` other
        than the declared table's, that table's value model file (which may not exist)."""
        if players is None or players == self.players:
            name = FILES[kind]
        elif kind == "value":
            name = value_file(players)
        else:
            raise ValueError(f"a move prior is fitted at {self.players} players only")
        return resources.files(self.package).joinpath("data", name)

    def value_model(
        self, source: str | Path | None = None, players: int | None = None
    ) -> ValueModel:
        """The value model in ``source``, or the shipped one (read once): with ``players``,
        the one fitted at that table if the game ships it, else the declared table's."""
        if source is None and players is not None and players != self.players:
            key = (self.package, "value", players)
            if key not in _LOADED:
                path = self.path("value", players)
                _LOADED[key] = (
                    self._read("value", path, players) if path.is_file() else self.value_model()
                )
            return _LOADED[key]  # type: ignore[return-value]
        return self._load("value", source)  # type: ignore[return-value]

    def move_prior(self, source: str | Path | None = None) -> MovePrior:
        """The move prior in ``source``, or the shipped one (read once)."""
        return self._load("prior", source)  # type: ignore[return-value]

    def evaluate(self, state: Any) -> tuple[float, ...]:
        """Each seat's chance of winning from ``state``, what a search scores a cut playout
        with: the shipped value model where its recorded held-out log-loss beat the
        baseline's (the game's hand-set evaluation), else the baseline; at the end of the
        game, the winners' exact shares."""
        if state.is_terminal():
            return win_shares(state)
        model = self.value_model(players=state.num_players)
        if not model.beats_baseline:
            return tuple(self.baseline(state))
        return model.shares(model.features(state))

    def _load(self, kind: str, source: Any) -> ValueModel | MovePrior:
        if source is not None:
            return self._read(kind, source)
        key = (self.package, kind, self.players)
        if key not in _LOADED:
            _LOADED[key] = self._read(kind, self.path(kind), self.players)
        return _LOADED[key]

    def _read(self, kind: str, source: Any, players: int | None = None) -> ValueModel | MovePrior:
        """The model in ``source``; a shipped file (``players`` given) must say it was fitted
        at that table (``fitted.players``), or it is refused."""
        names, features = (
            (self.value_names, self.value_features)
            if kind == "value"
            else (self.action_names, self.action_features)
        )
        model = load_model(source, kind, self.game, names, features)
        if players is not None and model.fitted["players"] != players:
            raise _refuse(
                str(source),
                "fitted.players",
                f"the file is read at {players} players, but was fitted at "
                f"{model.fitted['players']}",
            )
        return model


_LOADED: dict[tuple[str, str, int], ValueModel | MovePrior] = {}


def is_shipped(model: Any) -> bool:
    """Whether ``model`` is a shipped model already read (so another process can read it again
    rather than be sent it)."""
    return any(model is loaded for loaded in _LOADED.values())


def forget_loaded() -> None:
    """Read the shipped model files again on next use (after ``coronas train`` wrote them)."""
    _LOADED.clear()


def learning_of(game: Any) -> Learning:
    """The :class:`Learning` a game declares (its surface's ``learning``,
    :meth:`Game.spec <coronas.engine.Game.spec>`); a game or a game class."""
    cls = game if isinstance(game, type) else type(game)
    learning = cls.spec().learning
    if learning is None:
        raise ValueError(f"{cls.name} declares no features to learn from")
    return learning
