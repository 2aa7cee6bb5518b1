"""The stepper's model: a game being stepped through in plain Python, without a browser."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from coronas.engine import CHANCE, TERMINAL, IllegalAction, RandomBot, State
from coronas.engine.advice import Odds
from coronas.widgets._render import fraction_text
from coronas.widgets.stepper.files import SaveLoad
from coronas.widgets.stepper.odds import PositionOdds, odds_phrase
from coronas.widgets.stepper.outcomes import group_actions, parse_outcome

__all__ = ["StepperModel", "score_text"]


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


def score_text(score: Any) -> str:
    """A final score as text; a breakdown ``{"castles": 7, ..., "total": 13}`` reads
    ``"13 (castles 7, ...)"``."""
    if isinstance(score, Mapping):
        parts = {k: v for k, v in score.items() if k != "total"}
        detail = ", ".join(f"{k} {v}" for k, v in parts.items())
        return f"{score['total']} ({detail})" if "total" in score else detail
    return str(score)


class StepperModel(SaveLoad):
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
        self._odds = PositionOdds()

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
        return group_actions(self.state.legal_actions())

    def chance_table(self) -> list[tuple[Any, Fraction]]:
        """The outcomes of the chance node with their exact probabilities (empty elsewhere)."""
        return self.state.chance_outcomes()

    # -- odds ------------------------------------------------------------------------------
    def action_odds(self, action: Any) -> Odds | None:
        """The exact chance that ``action`` achieves its aim from this position
        (:meth:`State.odds <coronas.engine.State.odds>`), None for an action without dice.
        Computed the first time it is asked for in a position, then remembered."""
        return self._odds.get(self.state, action)

    def pending_odds(self) -> Odds | None:
        """At a chance node, the odds of the roll being made; at a reroll decision, the
        chance of each choice and the best one; None elsewhere (remembered like
        :meth:`action_odds`)."""
        if self.state.is_terminal():
            return None
        return self._odds.get(self.state)

    def odds_text(self, action: Any = None) -> str:
        """The odds of ``action`` in words (``19/27 (70.37%) to take the castle``); without
        one, of the roll being made or the choice at hand, with what they are about
        (``attack Verona: this roll: ...``); ``""`` when no dice are involved."""
        if action is None:
            odds = self.pending_odds()
            return odds_phrase(odds, subject=True) if odds is not None else ""
        odds = self.action_odds(action)
        return odds_phrase(odds) if odds is not None else ""

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
        self._odds.clear()
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
        self._odds.clear()
        if len(self.log) > len(self.state.history):
            self.log.pop()
        self.message = f"undone: {action}"
        return action

    def load(self, path: Any) -> bool:
        """:meth:`SaveLoad.load <coronas.widgets.stepper.files.SaveLoad.load>`, forgetting
        the odds of the position left."""
        loaded = super().load(path)
        if loaded:
            self._odds.clear()
        return loaded

    def _seat_bots(self, players: int) -> None:
        """Seat the bots given at the start again, for a game of ``players`` players."""
        self._bots = _choosers(self._bot_spec, players)
