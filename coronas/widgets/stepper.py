"""Step through any game of the shared protocol: choose actions, roll or type dice, undo,
save the game to a file and load it back.

:class:`StepperModel` holds the logic in plain Python (tested without a browser);
:class:`Stepper` is the ipywidgets view over it. Nothing here knows a rule of any game:
everything comes from ``legal_actions()``, ``chance_outcomes()``, ``apply`` and ``undo``, and
games are saved and loaded with the engine's JSON (``State.save``, ``load_game``).

>>> from coronas.batalla import Game
>>> model = StepperModel(Game(seed=1).new_initial_state(), names=["player 1", "player 2"])
>>> outcome, p = model.chance_table()[0]
>>> print(outcome, p)
roll-off 1 against 2: player 2 goes first 1/30
>>> model.enter("3 3")              # a tie is rolled again: not an outcome
False
>>> print(model.message[:41])
'3 3' is not a possible outcome here; the
>>> model.enter("5 2"), model.log
(True, ['chance: roll-off 5 against 2: player 1 goes first  (probability 1/30 (3.33%))'])
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from html import escape
from pathlib import Path
from typing import Any

from coronas.engine import (
    CHANCE,
    TERMINAL,
    IllegalAction,
    RandomBot,
    SaveFileError,
    State,
    load_game,
)
from coronas.widgets._render import find_drawer, fraction_text, state_html

__all__ = ["Stepper", "StepperModel", "action_group", "parse_outcome"]

_MAX_SHOWN = 12
_NOTES = ("undone", "saved", "loaded")  # how the messages of steps that worked begin


def action_group(action: Any) -> str:
    """The readable name of an action's type: ``MoveArmy`` -> ``"Move army"``."""
    name = getattr(action, "group", None)
    if isinstance(name, str) and name:
        return name
    words = re.findall(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|\d+", type(action).__name__)
    if not words:
        return type(action).__name__
    text = " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in words)
    return text[0].upper() + text[1:]


def _ints(outcome: Any) -> list[int]:
    """The whole numbers in an outcome's fields, in order (tuples flattened)."""
    found: list[int] = []

    def walk(value: Any) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            found.append(value)
        elif isinstance(value, tuple):
            for v in value:
                walk(v)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name))

    walk(outcome)
    return found


def _norm(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").split())


def parse_outcome(text: str, outcomes: Sequence[Any]) -> Any:
    """The chance outcome a person means by ``text`` (what they really rolled or drew).

    Accepted, in this order: the outcome's own wording (``"roll 5"``); the numbers it holds
    (``"5"``, or ``"3 5"`` / ``"3,5"`` for two dice, in either order when only one outcome
    fits); a piece of its wording that fits one outcome only (``"joker"``).
    Raises ``ValueError`` with the possible outcomes if nothing (or more than one) fits.
    """
    wanted = _norm(text)
    if not wanted:
        raise ValueError("type what was rolled or drawn, e.g. " + _listing(outcomes, 3))
    exact = [o for o in outcomes if _norm(str(o)) == wanted]
    if len(exact) == 1:
        return exact[0]
    candidates: list[Any] = []
    if re.fullmatch(r"[-\d\s]+", wanted):
        numbers = [int(n) for n in wanted.split()]
        candidates = [o for o in outcomes if _ints(o) == numbers]
        if not candidates:
            candidates = [o for o in outcomes if sorted(_ints(o)) == sorted(numbers)]
        if not candidates:  # the numbers as the outcome writes them
            candidates = [
                o for o in outcomes if [int(n) for n in re.findall(r"-?\d+", str(o))] == numbers
            ]
    else:
        candidates = [o for o in outcomes if wanted in _norm(str(o))]
    if len(candidates) == 1:
        return candidates[0]
    if len(candidates) > 1:
        raise ValueError(
            f"{text.strip()!r} fits more than one outcome: {_listing(candidates)}; "
            "type it as written in the list"
        )
    raise ValueError(
        f"{text.strip()!r} is not a possible outcome here; the possible outcomes are: "
        + _listing(outcomes)
    )


def _listing(items: Sequence[Any], limit: int = _MAX_SHOWN) -> str:
    shown = ", ".join(str(o) for o in items[:limit])
    more = len(items) - limit
    return shown + (f" and {more} more" if more > 0 else "")


def _choosers(bots: Any, players: int) -> dict[int, Callable[[State, random.Random], Any]]:
    def chooser(bot: Any) -> Callable[[State, random.Random], Any]:
        if hasattr(bot, "choose"):
            return bot.choose
        if callable(bot):
            return bot
        raise TypeError(f"a bot needs a choose(state, rng) method or must be callable: {bot!r}")

    if bots is None:
        bots = RandomBot()
    if isinstance(bots, Mapping):
        return {p: chooser(b) for p, b in bots.items()}
    if isinstance(bots, Sequence) and not isinstance(bots, str):
        return {p: chooser(b) for p, b in enumerate(bots)}
    one = chooser(bots)
    return {p: one for p in range(players)}


def _player_name(state: State, player: int, names: Sequence[str] | None) -> str:
    return names[player] if names is not None else state.player_name(player)


def _steps(state: State) -> str:
    n = len(state.history)
    return f"{n} step" + ("" if n == 1 else "s")


def score_text(score: Any) -> str:
    """A final score as text; a breakdown ``{"castles": 7, ..., "total": 13}`` reads
    ``"13 (castles 7, ...)"``."""
    if isinstance(score, Mapping):
        parts = {k: v for k, v in score.items() if k != "total"}
        detail = ", ".join(f"{k} {v}" for k, v in parts.items())
        return f"{score['total']} ({detail})" if "total" in score else detail
    return str(score)


class StepperModel:
    """A game being stepped through: the state, a seeded RNG, bots, a log and a message.

    Every method that could fail (an illegal action, a number that was not a possible roll,
    nothing to undo, a file that is not a saved game) returns ``False``/``None`` and puts the
    reason in :attr:`message` instead of raising, so a view can show it; a step that worked
    may leave a note there instead (``undone: ...``, ``saved ...``, ``loaded ...``).

    ``bots`` is one bot for every seat, a list (one per player) or a dict player -> bot;
    by default :class:`~coronas.engine.RandomBot`. ``seed`` seeds both the dice and the bots.
    ``names`` (one per player) say how the log and the status call the players. The log has
    a line for every step of the state's history, those played before the model was made
    included.
    """

    def __init__(
        self,
        state: State,
        bots: Any = None,
        seed: int | None = 0,
        names: Sequence[str] | None = None,
    ):
        if names is not None and len(names) != state.num_players:
            raise ValueError(f"names: expected {state.num_players} names, got {len(names)}")
        self.names = tuple(names) if names is not None else None
        self.state = state
        self.seed = seed
        self.rng = random.Random(seed)
        self._bot_spec = bots  # kept to seat the bots again in a loaded game
        self._bots = _choosers(bots, state.num_players)
        self.log: list[str] = self._history_log(state)
        self.message = ""

    # -- what is shown ---------------------------------------------------------------------
    def player_name(self, player: int) -> str:
        """How a player is called: the ``names`` given, else as the game calls them."""
        return _player_name(self.state, player, self.names)

    @property
    def status(self) -> str:
        """One line: who is to move, or what is being rolled, or that the game is over."""
        player = self.state.current_player
        if player == TERMINAL:
            winners = ", ".join(self.player_name(p) for p in self.state.winners())
            return f"Game over after {len(self.state.history)} steps. Winner(s): {winners}"
        if player == CHANCE:
            return f"Chance: roll or draw ({len(self.chance_table())} possible outcomes)"
        return f"{self.player_name(player)} to move ({len(self.state.legal_actions())} choices)"

    @property
    def situation(self) -> str:
        """The first line of the state's own description (turn, phase, what is rolled)."""
        text = str(self.state).strip()
        return text.splitlines()[0] if text else ""

    def action_groups(self) -> dict[str, list[Any]]:
        """The legal actions grouped by kind (``"Move army"``: [...]), in the game's order."""
        groups: dict[str, list[Any]] = {}
        for action in self.state.legal_actions():
            groups.setdefault(action_group(action), []).append(action)
        return groups

    def chance_table(self) -> list[tuple[Any, Fraction]]:
        """The outcomes of the chance node with their exact probabilities (empty elsewhere)."""
        return self.state.chance_outcomes()

    def results(self) -> list[tuple[str, Any]] | None:
        """(player, score) pairs once the game is over, else None."""
        if not self.state.is_terminal():
            return None
        return [(self.player_name(p), s) for p, s in enumerate(self.state.scores())]

    # -- changing the game -----------------------------------------------------------------
    def _line(self, state: State, action: Any) -> str:
        """The log's line for ``action`` about to be played in ``state``: who played it, or
        the exact probability of a chance outcome."""
        player = state.current_player
        if player == CHANCE:
            p = dict((str(o), q) for o, q in state.chance_outcomes()).get(str(action))
            text = f"chance: {state.describe(action)}"
            return text + (f"  (probability {fraction_text(p)})" if p else "")
        return f"{_player_name(state, player, self.names)}: {state.describe(action)}"

    def _history_log(self, state: State) -> list[str]:
        """The log of every step in ``state``'s history, as if played here: the steps are
        undone on a copy and played again."""
        replay = state.clone()
        for _ in state.history:
            replay.undo()
        lines = []
        for action in state.history:
            lines.append(self._line(replay, action))
            replay.apply(action)
        return lines

    def _record(self, action: Any) -> None:
        line = self._line(self.state, action)
        self.state.apply(action)
        self.log.append(line)

    def play(self, action: Any) -> bool:
        """Play a decision (or take a chance outcome). False, with the reason, if illegal."""
        try:
            self._record(action)
        except IllegalAction as exc:
            self.message = str(exc)
            return False
        self.message = ""
        return True

    def roll(self) -> Any:
        """At a chance node, pick the outcome with the seeded RNG and apply it."""
        if not self.state.is_chance_node():
            self.message = "nothing to roll: it is not a chance node"
            return None
        outcome = self.state.sample_chance(self.rng)
        return outcome if self.play(outcome) else None

    def enter(self, text: str) -> bool:
        """At a chance node, apply what was really rolled at the table, typed as text."""
        if not self.state.is_chance_node():
            self.message = "nothing is being rolled now: choose an action instead"
            return False
        try:
            outcome = parse_outcome(text, [o for o, _ in self.chance_table()])
        except ValueError as exc:
            self.message = str(exc)
            return False
        return self.play(outcome)

    def bot_move(self) -> Any:
        """One step by the bot of the player to move (or the seeded RNG at a chance node)."""
        player = self.state.current_player
        if player == TERMINAL:
            self.message = "the game is over"
            return None
        if player == CHANCE:
            return self.roll()
        bot = self._bots.get(player)
        if bot is None:
            self.message = f"no bot plays for {self.player_name(player)}"
            return None
        action = bot(self.state, self.rng)
        return action if self.play(action) else None

    def play_to_end(self, max_steps: int = 100_000) -> int:
        """Let the bots and the dice finish the game; returns the number of steps played."""
        steps = 0
        while not self.state.is_terminal() and steps < max_steps:
            if self.bot_move() is None:
                break
            steps += 1
        if not self.state.is_terminal() and not self.message:
            self.message = f"stopped after {max_steps} steps before the end"
        return steps

    def undo(self) -> Any:
        """Take back the last step (a decision or a roll). None, with a message, if none."""
        try:
            action = self.state.undo()
        except IllegalAction as exc:
            self.message = str(exc)
            return None
        if len(self.log) > len(self.state.history):
            self.log.pop()
        self.message = f"undone: {action}"
        return action

    # -- saving and loading ------------------------------------------------------------------
    def save(self, path: str | Path) -> bool:
        """Write the game to the file ``path`` as JSON (:meth:`State.save
        <coronas.engine.State.save>`): its parameters and every step so far, so that
        :meth:`load` gives back an equal state (a position set up by hand too: its game
        records it). False, with the reason naming the file, if the file cannot be written."""
        if not str(path).strip():
            self.message = "type the name of the file to save to"
            return False
        try:
            self.state.save(path)
        except OSError as exc:
            self.message = f"{path}: cannot write the file ({exc.strerror or exc})"
            return False
        self.message = f"saved {_steps(self.state)} to {path}"
        return True

    def load(self, path: str | Path) -> bool:
        """Replace the game with the one saved in the file ``path`` (by :meth:`save`,
        ``State.save`` or ``coronas play --save``), read with
        :func:`~coronas.engine.load_game`. The log is rebuilt from its history; the RNG and
        the bots stay. False, with the reason naming the file, and nothing changed, if the
        file is missing, is not a saved game, or holds another game (or a number of players
        other than the ``names`` given)."""
        if not str(path).strip():
            self.message = "type the name of the file to load"
            return False
        try:
            state = load_game(Path(path))
        except SaveFileError as exc:
            self.message = str(exc)
            return False
        kind, wanted = state.game.name, self.state.game.name
        if kind != wanted:
            self.message = f"{path}: holds a {kind} game, not a {wanted} game"
            return False
        if self.names is not None and len(self.names) != state.num_players:
            self.message = (
                f"{path}: a game for {state.num_players} players, but this stepper names "
                f"{len(self.names)}"
            )
            return False
        self.log = self._history_log(state)
        self._bots = _choosers(self._bot_spec, state.num_players)
        self.state = state
        self.message = f"loaded {_steps(state)} from {path}"
        return True


class Stepper:
    """An ipywidgets view over :class:`StepperModel`: display it as the last line of a cell.

    The state is drawn with the game's drawing (the map, the ring, the kingdom boards) when
    there is one, otherwise shown as text. Decisions are picked from two dropdowns (kind of
    action, then the action, with a filter box); at a chance node the outcomes are listed
    with exact probabilities, and a seeded Roll button, a dropdown and a text box for the
    number really rolled at the table apply one. Undo, a bot move and "play to the end" work
    everywhere, and so do Save and Load, which write and read the game in the file named in
    the box next to them (``file``, relative to the notebook's folder). The log and the
    scores are shown below.
    """

    def __init__(
        self,
        state: State,
        bots: Any = None,
        seed: int | None = 0,
        draw: Callable[[Any], Any] | bool | None = True,
        log_lines: int = 12,
        names: Sequence[str] | None = None,
        file: str = "game.json",
    ):
        import ipywidgets as w

        self.model = StepperModel(state, bots=bots, seed=seed, names=names)
        self.draw = find_drawer(state) if draw is True else (draw or None)
        self.log_lines = log_lines
        button = dict(layout=w.Layout(width="auto"))

        self.status = w.HTML()
        self.board = w.HTML()
        self.message = w.HTML()
        self.log = w.HTML()
        self.results = w.HTML()

        self.group_select = w.Dropdown(description="Kind", layout=w.Layout(width="22em"))
        self.filter_text = w.Text(placeholder="filter", layout=w.Layout(width="10em"))
        self.action_select = w.Dropdown(description="Action", layout=w.Layout(width="36em"))
        self.play_button = w.Button(description="Play", button_style="primary", **button)
        self.decision_box = w.VBox(
            [
                w.HBox([self.group_select, self.filter_text]),
                w.HBox([self.action_select, self.play_button]),
            ]
        )

        self.chance_html = w.HTML()
        self.roll_button = w.Button(description="Roll (seeded)", button_style="primary", **button)
        self.outcome_select = w.Dropdown(description="Outcome", layout=w.Layout(width="24em"))
        self.take_button = w.Button(description="Take this outcome", **button)
        self.typed = w.Text(
            description="Rolled",
            placeholder="what the dice showed",
            continuous_update=False,
            layout=w.Layout(width="20em"),
        )
        self.enter_button = w.Button(description="Enter", **button)
        self.chance_box = w.VBox(
            [
                self.chance_html,
                self.roll_button,
                w.HBox([self.outcome_select, self.take_button]),
                w.HBox([self.typed, self.enter_button]),
            ]
        )

        self.undo_button = w.Button(description="Undo", **button)
        self.bot_button = w.Button(description="Bot move", **button)
        self.end_button = w.Button(description="Play to the end", **button)
        self.file_text = w.Text(
            value=file,
            description="File",
            placeholder="game.json",
            style={"description_width": "initial"},
            layout=w.Layout(width="16em", margin="2px 2px 2px 1.5em"),
        )
        self.save_button = w.Button(description="Save", **button)
        self.load_button = w.Button(description="Load", **button)
        controls = w.HBox(
            [
                self.undo_button,
                self.bot_button,
                self.end_button,
                self.file_text,
                self.save_button,
                self.load_button,
            ]
        )

        self.widget = w.VBox(
            [
                self.status,
                self.board,
                self.decision_box,
                self.chance_box,
                controls,
                self.message,
                self.results,
                self.log,
            ]
        )

        self.group_select.observe(lambda _: self._fill_actions(), names="value")
        self.filter_text.observe(lambda _: self._fill_actions(), names="value")
        self.play_button.on_click(lambda _: self._act(self._play))
        self.roll_button.on_click(lambda _: self._act(self.model.roll))
        self.take_button.on_click(lambda _: self._act(self._take))
        self.enter_button.on_click(lambda _: self._act(self._enter))
        self.undo_button.on_click(lambda _: self._act(self.model.undo))
        self.bot_button.on_click(lambda _: self._act(self.model.bot_move))
        self.end_button.on_click(lambda _: self._act(self.model.play_to_end))
        self.save_button.on_click(
            lambda _: self._act(lambda: self.model.save(self.file_text.value.strip()))
        )
        self.load_button.on_click(
            lambda _: self._act(lambda: self.model.load(self.file_text.value.strip()))
        )
        self.refresh()

    @property
    def state(self) -> State:
        return self.model.state

    # -- wiring ----------------------------------------------------------------------------
    def _act(self, step: Callable[[], Any]) -> None:
        self.model.message = ""
        step()
        self.refresh()

    def _play(self) -> None:
        actions = self._shown_actions()
        index = self.action_select.value
        if index is None or not 0 <= index < len(actions):
            self.model.message = "choose an action first"
            return
        self.model.play(actions[index])

    def _take(self) -> None:
        table = self.model.chance_table()
        index = self.outcome_select.value
        if index is None or not 0 <= index < len(table):
            self.model.message = "choose an outcome first"
            return
        self.model.play(table[index][0])

    def _enter(self) -> None:
        if self.model.enter(self.typed.value):
            self.typed.value = ""

    def _shown_actions(self) -> list[Any]:
        actions = self.model.action_groups().get(self.group_select.value, [])
        needle = _norm(self.filter_text.value)
        describe = self.model.state.describe
        return [a for a in actions if needle in _norm(describe(a))] if needle else actions

    def _fill_actions(self) -> None:
        actions = self._shown_actions()
        describe = self.model.state.describe
        self.action_select.options = [(describe(a), i) for i, a in enumerate(actions)]
        self.action_select.value = 0 if actions else None

    # -- drawing ---------------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw everything from the model."""
        model, state = self.model, self.model.state
        self.status.value = f"<b>{escape(model.status)}</b>" + (
            f"<br><span style='color:#555'>{escape(model.situation)}</span>"
            if model.situation
            else ""
        )
        self.board.value = state_html(state, self.draw)
        player = state.current_player
        self.decision_box.layout.display = None if player >= 0 else "none"
        self.chance_box.layout.display = None if player == CHANCE else "none"

        groups = model.action_groups()
        self.group_select.options = [(f"{g} ({len(a)})", g) for g, a in groups.items()]
        self.group_select.value = next(iter(groups), None)
        self._fill_actions()

        table = model.chance_table()
        cell = "style='padding:1px 8px;text-align:right'"
        rows = "".join(
            f"<tr><td style='padding:1px 8px'>{escape(str(o))}</td><td {cell}><b>{p}</b></td>"
            f"<td {cell}><span style='color:#666'>{float(p) * 100:.2f}%</span></td></tr>"
            for o, p in table
        )
        self.chance_html.value = (
            "<div style='max-height:15em;overflow-y:auto;display:inline-block'>"
            "<table style='border-collapse:collapse;line-height:1.3'>"
            f"<tr><th style='padding:1px 8px'>outcome</th><th>P</th><th></th></tr>{rows}"
            "</table></div>"
            if rows
            else ""
        )
        self.outcome_select.options = [(f"{o}  ({p})", i) for i, (o, p) in enumerate(table)]
        self.outcome_select.value = 0 if table else None

        colour = "#555" if model.message.startswith(_NOTES) else "#a00"
        self.message.value = (
            f"<p style='color:{colour}'>{escape(model.message)}</p>" if model.message else ""
        )
        results = model.results()
        self.results.value = (
            "<b>Scores:</b> "
            + "; ".join(f"{escape(n)}: {escape(score_text(s))}" for n, s in results)
            if results is not None
            else ""
        )
        lines = model.log[-self.log_lines :]
        skipped = len(model.log) - len(lines)
        head = f"<i>... {skipped} earlier steps</i><br>" if skipped else ""
        self.log.value = (
            "<div style='font-family:monospace;font-size:90%;line-height:1.35'>"
            + head
            + "<br>".join(escape(line) for line in lines)
            + "</div>"
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
