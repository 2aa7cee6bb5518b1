"""The stepper's model: a game being stepped through in plain Python, without a browser."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from coronas.engine import CHANCE, TERMINAL, IllegalAction, RandomBot, State, parse_seat
from coronas.engine.advice import Odds
from coronas.formatting import plural, readable_probability
from coronas.manygames.players import bot_label
from coronas.widgets.stepper.files import SaveLoad
from coronas.widgets.stepper.odds import PositionOdds, odds_phrase
from coronas.widgets.stepper.outcomes import group_actions, parse_outcome
from coronas.widgets.stepper.sealed import Table
from coronas.widgets.stepper.seats import (
    OPEN,
    LogEntry,
    SeatViews,
    chance_status,
    describe_for,
    reveals,
    secret_chance,
)

__all__ = ["StepperModel"]


def _choosers(
    bots: Any, state: State, strict: bool = True
) -> dict[int, Callable[[State, random.Random], Any]]:
    """Each seat's bot as a function ``(state, rng) -> action``; a bot may be named
    (``"greedy"``, ``"mcts:500"``: :meth:`~coronas.engine.Game.bot`)."""

    def chooser(bot: Any) -> Callable[[State, random.Random], Any]:
        if isinstance(bot, str):
            bot = type(state.game).bot(bot)
        if hasattr(bot, "choose"):
            return bot.choose
        if callable(bot):
            return bot
        raise TypeError(f"a bot needs a choose(state, rng) method or must be callable: {bot!r}")

    return {p: chooser(b) for p, b in _seat_bots(bots, state, strict).items()}


def _seat_bots(bots: Any, state: State, strict: bool = True) -> dict[int, Any]:
    """Each seat's bot as given (a name or an object), by 0-based seat: one for every seat
    (by default :class:`~coronas.engine.RandomBot`), a list, or a dict whose keys are 0-based
    seats or, as a person types them, seat names and numbers from one (``"green"``, ``"2"``:
    :func:`~coronas.engine.parse_seat`). A seat that is not there raises ``ValueError``, or
    with ``strict=False`` (the bots given seated again at a loaded game) is left out."""
    n = state.num_players
    if bots is None:
        bots = RandomBot()
    if isinstance(bots, Mapping):
        seats: dict[int, Any] = {}
        for key, bot in bots.items():
            try:
                seat = parse_seat(state, key) if isinstance(key, str) else None
            except ValueError:
                if strict:
                    raise
                continue
            if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < n:
                seat = key
            if seat is None:
                if not strict:
                    continue
                raise ValueError(
                    f"bots: no seat {key!r}: the keys are seats 0 to {n - 1} or their names "
                    f"({', '.join(state.player_name(p) for p in range(n))})"
                )
            seats[seat] = bot
        return seats
    if isinstance(bots, Sequence) and not isinstance(bots, str):
        return dict(enumerate(bots))
    return dict.fromkeys(range(n), bots)


def _player_name(state: State, player: int, names: Sequence[str] | None) -> str:
    return names[player] if names is not None else state.player_name(player)


class StepperModel(SeatViews, SaveLoad):
    """A game being stepped through: the state, an RNG, bots, a log and a message.

    Every method that could fail (an illegal action, a number that was not a possible roll,
    nothing to undo, a file that is not a saved game) returns ``False``/``None`` and puts the
    reason in :attr:`message` instead of raising, so a view can show it; a step that worked
    may leave a note there instead (``undone: ...``, ``saved ...``, ``loaded ...``).

    ``bots`` is one bot for every seat, a list (one per player) or a dict seat -> bot whose
    keys are 0-based seats as everywhere in the Python API (``bots={0: "mcts:500"}`` is the
    first seat, ``"red"`` or ``"player 1"`` on screen), or the seats' names or numbers from
    one as people type them (``bots={"green": "mcts"}``, ``docs/engine.md``, "Seats"); by
    default :class:`~coronas.engine.RandomBot`. A bot may be named as on the command line
    (``bots="greedy"``). Every list of seats says each seat's bot (:meth:`seat_label`:
    ``"green: mcts:500"``), or ``person`` for a seat no bot plays. ``seed`` seeds both the
    dice and the bots, for a lesson or a test that replays exactly; without one (the default)
    they draw from the operating system's entropy (:class:`random.SystemRandom`), so nobody
    can work out the cards and the dice to come.
    ``names`` (one per player) say how the log and the status call the players. The log has
    a line for every step of the state's history, those played before the model was made
    included.

    ``view`` says whose eyes are shown (:mod:`~coronas.widgets.stepper.seats`): ``"open"``
    (everything, the default), a seat number (only what that seat may see), or ``"pass"``
    (pass and play: the seat holding the laptop, handed between the ``humans``, by default
    every seat). :attr:`status`, :attr:`situation` and the ``shown_*`` methods follow it;
    so do :attr:`log`, :meth:`action_groups` and :meth:`chance_table`, which tell everything
    only in the open view. In a seat's view the step methods return and refuse only what the
    viewer may see; the state itself (``model.state``) stays whole, for analysis.

    ``lock_view=True`` with a seat's view or pass and play makes a locked table
    (:attr:`~coronas.widgets.stepper.seats.SeatViews.locked`), which refuses a ``seed``: with
    it a player could predict the dice and the other hands. ``teacher_passphrase`` (at least
    8 characters, for a locked table) is then the only passphrase that unlocks it
    (:meth:`~coronas.widgets.stepper.seats.SeatViews.unlock`); only its check is kept.
    """

    def __init__(
        self,
        state: State,
        bots: Any = None,
        seed: int | None = None,
        names: Sequence[str] | None = None,
        view: Any = OPEN,
        humans: Iterable[int] | None = None,
        lock_view: bool = False,
        teacher_passphrase: str | None = None,
    ):
        if names is not None and len(names) != state.num_players:
            raise ValueError(f"names: expected {state.num_players} names, got {len(names)}")
        self.names = tuple(names) if names is not None else None
        self.state = state
        self._seed(seed)
        self._bot_spec = bots  # kept to seat the bots again in a loaded game
        self._bots = _choosers(bots, state)
        self._bot_labels = {p: bot_label(b) for p, b in _seat_bots(bots, state).items()}
        self._entries: list[LogEntry] = self._history_log(state)
        self.message = ""
        self.changes = 0
        """How many times the position changed here (a step, an undo, a load): figures
        worked out for one count belong to that position (the "who wins" panel's)."""
        self._odds = PositionOdds()
        self.notes: list[tuple[int, str]] = []
        self._pins: dict[int, bytes] = {}
        self._seat_humans(humans)
        if not self.set_view(view):
            raise ValueError(self.message)
        self.view_locked = bool(lock_view)
        if self.locked and seed is not None:
            raise ValueError(
                "a locked table takes no seed: whoever knows it can work out the dice and the "
                "other seats' cards; leave it out and the laptop rolls with the operating "
                "system's entropy"
            )
        self._set_teacher(teacher_passphrase)
        self.message = ""

    def _seed(self, seed: int | None) -> None:
        """The RNG of the dice and the bots: seeded, or the operating system's entropy."""
        self.seed = seed
        self.rng = random.Random(seed) if seed is not None else random.SystemRandom()

    # -- what is shown ---------------------------------------------------------------------
    @property
    def log(self) -> list[str]:
        """A line for every step, with the table's notes (``table: the table was unlocked at
        action 57``): as the open view tells it, or in a seat's view as :meth:`shown_log
        <coronas.widgets.stepper.seats.SeatViews.shown_log>` (as the viewer saw it)."""
        if not self.is_open:
            return self.shown_log()
        return self._noted([e.line for e in self._entries])

    def player_name(self, player: int) -> str:
        """How a player is called: the ``names`` given, else as the game calls them."""
        return _player_name(self.state, player, self.names)

    def bot_name(self, player: int) -> str | None:
        """The bot that "Bot move" plays for seat ``player`` (``"greedy"``, ``"mcts:500"``),
        None for a seat no bot plays."""
        return self._bot_labels.get(player)

    def seat_label(self, player: int) -> str:
        """A seat as the lists of seats show it: its name and who plays it, ``"green: mcts"``,
        ``"player 2: greedy"``, or ``"red: person"`` for a seat no bot plays."""
        return f"{self.player_name(player)}: {self.bot_name(player) or 'person'}"

    def seats_text(self) -> str:
        """Every seat with its bot on one line: ``"Seats: red: person, green: mcts"``."""
        return "Seats: " + ", ".join(self.seat_label(p) for p in range(self.state.num_players))

    @property
    def status(self) -> str:
        """One line: who is to move, or what is being rolled, or that the game is over; in a
        seat's view also whom it waits for, or to whom the laptop goes."""
        seat = "" if self.is_open else self._seat_status()
        if seat:
            return seat
        player = self.state.current_player
        if player == TERMINAL:
            won = [self.player_name(p) for p in self.state.winners()]
            who = f"{won[0]} wins" if len(won) == 1 else f"{' and '.join(won)} share the win"
            return f"Game over after {len(self.state.history)} steps: {who}"
        if player == CHANCE:
            return chance_status(self.state)
        choices = plural(len(self.state.legal_actions()), "choice")
        return f"{self.player_name(player)} to move ({choices})"

    @property
    def situation(self) -> str:
        """The first line of the state's own description (turn, phase, what is rolled); in a
        seat's view, of what that seat sees."""
        text = str(self.state).strip() if self.is_open else ""
        return self.shown_situation(text.splitlines()[0] if text else "")

    def action_groups(self) -> dict[str, list[Any]]:
        """The legal actions grouped by kind (``"Move army"``: [...]), in the game's order;
        in a seat's view only when the viewer may act (:meth:`shown_groups
        <coronas.widgets.stepper.seats.SeatViews.shown_groups>`)."""
        return self.shown_groups(group_actions(self.state.legal_actions()))

    def chance_table(self) -> list[tuple[Any, Fraction]]:
        """The outcomes of the chance node with their exact probabilities (empty elsewhere,
        and at a chance node a seat's view may not see: :meth:`shown_chance_table
        <coronas.widgets.stepper.seats.SeatViews.shown_chance_table>`)."""
        return self.shown_chance_table(self.state.chance_outcomes())

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

    def odds_text(self, action: Any = None, exact: bool = False) -> str:
        """The odds of ``action`` in words (``19/27 (70.37%) to take the castle``); without
        one, of the roll being made or the choice at hand, with what they are about
        (``attack Verona: this roll: ...``); ``""`` when no dice are involved. A fraction
        too long to read is given as its percentage, unless ``exact``
        (:func:`~coronas.formatting.readable_probability`)."""
        if action is None:
            odds = self.pending_odds()
            return odds_phrase(odds, subject=True, exact=exact) if odds is not None else ""
        odds = self.action_odds(action)
        return odds_phrase(odds, exact=exact) if odds is not None else ""

    def results(self) -> list[tuple[str, Any]] | None:
        """(player, score) pairs once the game is over; before, in a seat's view, the public
        scores when the game has them (:meth:`shown_scores
        <coronas.widgets.stepper.seats.SeatViews.shown_scores>`: no secret loyalty points);
        else None."""
        scores = self.shown_scores()
        if scores is None:
            return None
        return [(self.player_name(p), s) for p, s in enumerate(scores)]

    # -- changing the game -----------------------------------------------------------------
    def _entry(self, state: State, action: Any) -> LogEntry:
        """The log's entry for ``action`` about to be played in ``state``: who played it, or
        the exact probability of a chance outcome; and, when some seat does not see it as it
        is, the line each seat and an onlooker see (no probability at a secret draw)."""
        player = state.current_player
        plain = state.describe(action)
        head = "chance: " if player == CHANCE else f"{_player_name(state, player, self.names)}: "
        note = ""
        if player == CHANCE:
            p = dict((str(o), q) for o, q in state.chance_outcomes()).get(str(action))
            note = f"  (probability {readable_probability(p)})" if p else ""
        hidden = describe_for(state, action, None)
        shows = reveals(state, action)
        if hidden == plain and not (player == CHANCE and secret_chance(state)):
            return LogEntry(player, head, plain, note, shows=shows)
        seen = tuple(describe_for(state, action, q) for q in range(state.num_players))
        return LogEntry(player, head, plain, note, seen, hidden, shows)

    def _history_log(self, state: State) -> list[LogEntry]:
        """The log of every step in ``state``'s history, as if played here: the steps are
        undone on a copy and played again."""
        replay = state.clone()
        for _ in state.history:
            replay.undo()
        entries = []
        for action in state.history:
            entries.append(self._entry(replay, action))
            replay.apply(action)
        return entries

    def _step(self, action: Any) -> LogEntry | None:
        """Play ``action`` and log it; None, with the reason as the viewer may read it, if
        it is illegal or a locked table refuses it now."""
        refusal = self._lock_refusal()
        if refusal is not None:
            self.message = refusal
            return None
        try:
            entry = self._entry(self.state, action)
            self.state.apply(action)
        except IllegalAction as exc:
            self.message = self._refused(str(exc))
            return None
        self.changes += 1
        self._odds.clear()
        self._entries.append(entry)
        self.message = ""
        return entry

    def play(self, action: Any) -> bool:
        """Play a decision (or pick a chance outcome, where the viewer may: not at a secret
        draw in a seat's view, nor at a locked table). False, with the reason, if not."""
        if self.state.is_chance_node() and not self.may_pick_outcome():
            self.message = self._refused("")
            return False
        return self._step(action) is not None

    def roll(self) -> Any:
        """At a chance node, pick the outcome with the RNG and apply it; returns it (in a
        seat's view, as :meth:`shown_step
        <coronas.widgets.stepper.seats.SeatViews.shown_step>` tells it)."""
        if not self.state.is_chance_node():
            self.message = "nothing to roll: it is not a chance node"
            return None
        outcome = self.state.sample_chance(self.rng)
        entry = self._step(outcome)
        return None if entry is None else self.shown_step(entry, outcome)

    def enter(self, text: str) -> bool:
        """At a chance node, apply what was really rolled at the table, typed as text."""
        if not self.state.is_chance_node():
            self.message = "nothing is being rolled now: choose an action instead"
            return False
        if not self.may_pick_outcome():
            self.message = self._refused("")
            return False
        try:
            outcome = parse_outcome(text, [o for o, _ in self.chance_table()])
        except ValueError as exc:
            self.message = str(exc)
            return False
        return self.play(outcome)

    def bot_move(self) -> Any:
        """One step by the bot of the player to move (or the RNG at a chance node); returns
        it as :meth:`roll` does."""
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
        refusal = self._lock_refusal()
        if refusal is not None:
            self.message = refusal
            return None
        action = bot(self.state, self.rng)
        entry = self._step(action)
        return None if entry is None else self.shown_step(entry, action)

    def play_to_end(self, max_steps: int = 100_000) -> int:
        """Let the bots and the dice finish the game; returns the number of steps played.
        Not at a locked table, where it would show every seat's cards."""
        if self.locked:
            self.message = "not at a locked table: playing on to the end would show every card"
            return 0
        steps = 0
        while not self.state.is_terminal() and steps < max_steps:
            if self.bot_move() is None:
                break
            steps += 1
        if not self.state.is_terminal() and not self.message:
            self.message = f"stopped after {max_steps} steps before the end"
        return steps

    def undo(self) -> Any:
        """Take back the last step (a decision or a roll) and return it (in a seat's view as
        :meth:`roll` does). At a locked table only the viewer's own decisions since the last
        roll or draw. None, with a message, if there is nothing it may take back."""
        refusal = self._lock_refusal(undoing=True)
        if refusal is not None:
            self.message = refusal
            return None
        try:
            action = self.state.undo()
        except IllegalAction as exc:
            self.message = str(exc)
            return None
        self.changes += 1
        self._odds.clear()
        shown: Any = action
        if len(self._entries) > len(self.state.history):
            shown = self.shown_step(self._entries.pop(), action)
        # in the game's words, as the step was worded where it was played (here again)
        self.message = f"undone: {self.state.describe(shown) if shown is action else shown}"
        return shown

    def load(self, path: Any, passphrase: str | None = None) -> bool:
        """:meth:`SaveLoad.load <coronas.widgets.stepper.files.SaveLoad.load>`, forgetting
        the odds of the position left."""
        loaded = super().load(path, passphrase)
        if loaded:
            self.changes += 1
            self._odds.clear()
        return loaded

    def _open_table(self, table: Table | None, was_locked: bool) -> None:
        """After a load: a sealed table file's view, people and lock (the table then rolls
        with the operating system's entropy), an unlocked one's people and notes; else the
        view as it was, for the loaded number of players. Nobody holds the laptop."""
        n = self.state.num_players
        if table is not None:
            if table.locked:  # a sealed game opens as the table that saved it
                self.view = table.view
            self.humans = frozenset(table.humans)
            self.view_locked, self.notes = table.locked or was_locked, list(table.notes)
        self.humans = frozenset(p for p in self.humans if p < n)
        if self.view not in [v for _, v in self.view_options()]:
            self.view = OPEN
        self.holder = None  # a sealed table's PINs come with it (files.py), others' stay
        if self.locked:
            self._seed(None)

    def _seat_bots(self, state: State) -> None:
        """Seat the bots given at the start again, for the game of ``state``."""
        self._bots = _choosers(self._bot_spec, state, strict=False)
        seated = _seat_bots(self._bot_spec, state, strict=False)
        self._bot_labels = {p: bot_label(b) for p, b in seated.items()}
