"""Whose eyes the stepper shows: the open view, one seat's view, or pass and play.

In the open view (for teaching) everything is shown. In a seat's view the stepper shows only
what that seat may see (:meth:`State.observation_text <coronas.engine.State.observation_text>`):
the actions only when it is that seat's move, no outcome list at a secret draw, the log as
that seat saw it (a card drawn by another player is not named), and the odds only of that
seat's own moves and rolls. In pass and play one laptop goes round the table: the stepper
shows the seat holding it, and when another person's seat is to move it hides everything
behind a hand-over screen until that person says they hold the laptop. A *locked table* (a
seat's view or pass and play with ``lock_view``) keeps the secrets against every click: no
seed, no play to the end, no picked outcome, an undo only of the viewer's own decisions
since the last roll or draw, PINs on the hand-over, an unlock that takes a passphrase and is
written in every seat's log.

What a seat sees of a step comes from the state it is played in: ``describe_for(action,
viewer)`` when the game has it (viewer None: an onlooker without a seat), else
``describe(action)`` (a game without secrets).
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import os
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from coronas.engine import CHANCE, TERMINAL, State, parse_seat
from coronas.engine.seats import check_seat
from coronas.widgets.stepper.sealed import (
    Check,
    passphrase_check,
    passphrase_matches,
    passphrase_problem,
)

__all__ = [
    "OPEN",
    "PASS_AND_PLAY",
    "LogEntry",
    "SeatViews",
    "chance_status",
    "describe_for",
    "reveals",
    "secret_chance",
]

MAX_PIN = 64


def _digest(salt: bytes, seat: int, pin: str) -> bytes:
    """A seat's PIN as kept, and sealed in a saved table: salted per table."""
    return hashlib.sha256(salt + bytes([seat]) + pin.encode("utf-8")).digest()


OPEN = "open"
"""The view that shows everything (for teaching)."""
PASS_AND_PLAY = "pass"
"""The view that follows the laptop round the table."""


def describe_for(state: State, action: Any, viewer: int | None) -> str:
    """``action``, about to be played in ``state``, as seat ``viewer`` sees it (None: an
    onlooker): the game's ``describe_for`` if it has one, else ``describe`` (nothing is
    hidden)."""
    worded = getattr(state, "describe_for", None)
    return worded(action, viewer) if callable(worded) else state.describe(action)


def reveals(state: State, action: Any) -> tuple[int, ...]:
    """The seats to which ``action``, about to be played in ``state``, shows a secret: the
    game's ``reveals`` if it has one (Corona de Hierro's Spy shows the target's cards to its
    player), else none."""
    shown = getattr(state, "reveals", None)
    return tuple(shown(action)) if callable(shown) else ()


def chance_status(state: State) -> str:
    """What the chance node being resolved decides, as every seat may read it: the game's
    ``chance_text`` (``"Roll the red die for red's assault on Parma: needs 5"``, ``"Green
    draws a political card"``) if it has one, else how many outcomes it has."""
    worded = getattr(state, "chance_text", None)
    text = worded() if callable(worded) else ""
    if not text:
        return f"Roll the dice or draw: {len(state.chance_outcomes())} possible outcomes"
    return text[0].upper() + text[1:]


def secret_chance(state: State) -> bool:
    """Whether the chance node being resolved hides its outcome from someone (a card drawn,
    a card dealt): an onlooker does not see some outcome as it is."""
    if not state.is_chance_node() or not callable(getattr(state, "describe_for", None)):
        return False
    return any(
        describe_for(state, o, None) != state.describe(o) for o, _ in state.chance_outcomes()
    )


@dataclasses.dataclass(frozen=True)
class LogEntry:
    """One step of the log: who played it (``actor``: a seat, or CHANCE), who the line names
    (``head``: ``"red: "``, ``"chance: "``), the step in words (``text``) and the probability
    of a chance outcome (``note``). When someone does not see the step as it is, ``seen`` has
    the words each seat sees and ``onlooker`` those of one without a seat, and nobody but
    the open view is told the probability. ``shows``: the seats the step showed a secret to
    (:func:`reveals`)."""

    actor: int
    head: str
    text: str
    note: str = ""
    seen: tuple[str, ...] = ()
    onlooker: str = ""
    shows: tuple[int, ...] = ()

    @property
    def line(self) -> str:
        """The line of the open view."""
        return self.head + self.text + self.note

    def told(self, viewer: int | None) -> str:
        """The step in words as ``viewer`` (a seat, or None for an onlooker) sees it."""
        if not self.seen:
            return self.text
        return self.onlooker if viewer is None else self.seen[viewer]

    def for_viewer(self, viewer: int | None) -> str:
        """The log line as ``viewer`` (a seat, or None for an onlooker) sees it."""
        return self.line if not self.seen else self.head + self.told(viewer)


class SeatViews:
    """The view selector and what each view shows, for
    :class:`~coronas.widgets.stepper.StepperModel` (which provides the state, the names,
    the log entries, the odds and the message these methods read).

    ``view`` is :data:`OPEN`, a seat number, or :data:`PASS_AND_PLAY`; ``holder`` is, in
    pass and play, the seat holding the laptop (None before anyone took it); ``humans`` the
    seats played by people (pass and play hands the laptop only to them); ``view_locked``:
    the view chosen at the start may not be changed (a class playing pass and play on one
    laptop, where nobody should switch to the open view).
    """

    state: State
    message: str
    _entries: list[LogEntry]
    view: Any = OPEN
    holder: int | None = None
    humans: frozenset[int] = frozenset()
    view_locked: bool = False
    notes: list[tuple[int, str]]
    _pins: dict[int, bytes]
    _teacher: Check | None = None  # the check of the teacher's passphrase, if one was set
    _sealed_with: Check | None = None  # of the passphrase of the last sealed save or load
    _salt: bytes = b""

    # provided by the model:
    player_name: Callable[[int], str]
    bot_name: Callable[[int], str | None]
    pending_odds: Callable[[], Any]

    def _seat_humans(self, humans: Iterable[int] | None) -> None:
        n = self.state.num_players
        seats = list(range(n) if humans is None else humans)
        # a seat typed as people say it ("red", "2") is read as every seat is (parse_seat)
        seats = [parse_seat(self.state, p) if isinstance(p, str) else p for p in seats]
        self.humans = frozenset(check_seat(self.state, p, "humans") for p in seats)

    # -- choosing the view -----------------------------------------------------------------
    def view_options(self) -> list[tuple[str, Any]]:
        """The views to choose from, as (label, value): the open view, each seat with its bot
        (``"seat: green (mcts)"``, ``"seat: red (person)"`` for a seat no bot plays), pass and
        play."""
        seats = [
            (f"seat: {self.player_name(p)} ({self.bot_name(p) or 'person'})", p)
            for p in range(self.state.num_players)
        ]
        return [("open view (teaching)", OPEN), *seats, ("pass and play", PASS_AND_PLAY)]

    def set_view(self, view: Any) -> bool:
        """Show the game as ``view`` sees it (one of :meth:`view_options`' values, or a seat
        as people name it: ``"green"``, ``"player 2"``, ``"2"`` for the second seat). Pass and
        play starts with nobody holding the laptop. False, with the reason, for no view."""
        if isinstance(view, str) and view not in (OPEN, PASS_AND_PLAY):
            try:
                view = parse_seat(self.state, view)
            except ValueError as exc:
                self.message = f"there is no view {view!r}: {exc}"
                return False
        if view not in [v for _, v in self.view_options()] or isinstance(view, bool):
            self.message = f"there is no view {view!r}"
            return False
        if self.view_locked and view != self.view:
            self.message = f"the view is locked to {self.view_label()}"
            return False
        self.view = view
        self.holder = None
        return True

    def view_label(self) -> str:
        """The label of the view shown now (``"pass and play"``, ``"seat: red"``)."""
        return next(label for label, v in self.view_options() if v == self.view)

    @property
    def viewer(self) -> int | None:
        """The seat whose eyes are shown: the chosen seat, the holder of the laptop in pass
        and play (None before anyone took it), None in the open view."""
        if self.view == OPEN:
            return None
        if self.view == PASS_AND_PLAY:
            return self.holder
        return self.view

    @property
    def is_open(self) -> bool:
        return self.view == OPEN

    @property
    def handover(self) -> int | None:
        """In pass and play, the seat the laptop must go to now: a person's seat is to move
        and someone else holds it; None otherwise."""
        if self.view != PASS_AND_PLAY:
            return None
        player = self.state.current_player
        if player >= 0 and player in self.humans and player != self.holder:
            return player
        return None

    def may_take_back(self) -> bool:
        """On the hand-over screen, whether the seat still holding the laptop may take back
        the move it just made, as at a table before the next player acts: only when that move
        was the last step (nothing rolled or drawn, no other seat acted since) and showed it
        no secret. :meth:`undo <coronas.widgets.stepper.StepperModel.undo>` then gives it
        the laptop back at its own decision."""
        if self.handover is None or self.holder is None or not self._entries:
            return False
        last = self._entries[-1]
        return last.actor == self.holder and self.holder not in last.shows

    def take_laptop(self, pin: str = "") -> bool:
        """The seat the laptop was handed to takes it and sees its own position and secrets;
        with its ``pin`` if it set one (:meth:`set_pin`). False, with the reason, if no
        hand-over is due or the PIN is wrong."""
        seat = self.handover
        if seat is None:
            self.message = "no hand-over is due"
            return False
        if seat in self._pins and not hmac.compare_digest(
            self._pins[seat], _digest(self._pin_salt, seat, pin)
        ):
            self.message = f"wrong PIN for {self.player_name(seat)}"
            return False
        self.holder = seat
        self.message = ""
        return True

    def has_pin(self, seat: int) -> bool:
        """Whether ``seat`` must type a PIN to take the laptop."""
        return seat in self._pins

    def set_pin(self, pin: str) -> bool:
        """In pass and play, the seat holding the laptop sets the PIN it must then type to
        take it (``""``: none, the default). Kept as a salted digest, sealed with the game in
        a saved table, so a Load asks for it again. False, with the reason, elsewhere."""
        seat = self.viewer
        if self.view != PASS_AND_PLAY or seat is None or self.handover is not None:
            self.message = "a PIN is set in pass and play by the seat holding the laptop"
            return False
        if len(pin) > MAX_PIN:
            self.message = f"a PIN has at most {MAX_PIN} characters"
            return False
        if pin:
            self._pins[seat] = _digest(self._pin_salt, seat, pin)
        else:
            self._pins.pop(seat, None)
        self.message = f"PIN {'set' if pin else 'removed'} for {self.player_name(seat)}"
        return True

    @property
    def _pin_salt(self) -> bytes:
        """The salt of this table's PIN digests: drawn once, or the loaded table's."""
        if not self._salt:
            self._salt = os.urandom(16)
        return self._salt

    # -- the lock --------------------------------------------------------------------------
    def _set_teacher(self, passphrase: str | None) -> None:
        """Keep the check of the teacher's passphrase (not the passphrase), which alone then
        unlocks the table. ValueError if the table is not locked or the passphrase too
        short."""
        if passphrase is None:
            return
        if not self.locked:
            raise ValueError("a teacher passphrase is for a locked table (lock_view=True)")
        problem = passphrase_problem(passphrase)
        if problem is not None:
            raise ValueError(f"teacher_passphrase: {problem}")
        self._teacher = passphrase_check(passphrase)

    def unlock_needs(self) -> str:
        """Which passphrase unlocks this table, in words (``""``: none can yet)."""
        if self._teacher is not None:
            return "the teacher's passphrase"
        if self._sealed_with is not None:
            return "the passphrase the table was last saved or loaded with"
        return ""

    @property
    def locked(self) -> bool:
        """A locked table: a seat's view or pass and play that may not be switched. It rolls
        with the operating system's entropy, offers no "play to the end", takes back only
        the viewer's own decisions since the last roll or draw, and saves sealed."""
        return self.view_locked and not self.is_open

    def unlock(self, passphrase: str | None = None) -> bool:
        """End the lock (to review or analyse the game) with ``passphrase``: the teacher's
        passphrase if one was set when locking (or came with a loaded table), else the one
        the table was last sealed with (saved or loaded). The view may then be switched
        again, and every seat reads in its log that the table was unlocked, and when. False,
        with the reason and nothing changed, if the table is not locked, the passphrase is
        wrong or there is none to unlock with yet."""
        if not self.locked:
            self.message = "the table is not locked"
            return False
        needs = self.unlock_needs()
        if not needs:
            self.message = (
                "this table has no passphrase to unlock it with yet: it was locked without a "
                "teacher passphrase and has not been saved sealed; save it sealed, then "
                "unlock it with that passphrase"
            )
            return False
        check = self._teacher or self._sealed_with
        assert check is not None
        if not passphrase_matches(check, passphrase):
            self.message = f"wrong passphrase: the table stays locked (it takes {needs})"
            return False
        at = len(self.state.history)
        self.view_locked = False
        self.notes.append((at, f"the table was unlocked at action {at}"))
        self.message = f"unlocked: every seat's log says the table was unlocked at action {at}"
        return True

    def _lock_refusal(self, undoing: bool = False) -> str | None:
        """Why a locked table refuses a step now (None: it does not): nothing before the
        laptop is handed over; an undo only of the viewer's own decision (a roll or a draw
        stays, as at a real table, and another seat's decision is its own)."""
        if not self.locked:
            return None
        seat = self.handover
        if seat is not None and not (undoing and self.may_take_back()):
            return f"hand the laptop to {self.player_name(seat)} first"
        if not undoing or not self._entries:
            return None
        actor = self._entries[-1].actor
        if actor == CHANCE:
            return "a roll or a draw stays at a locked table, as at a real table"
        if actor != self.viewer:
            return f"only {self.player_name(actor)} may take back {self.player_name(actor)}'s move"
        if actor in self._entries[-1].shows:
            return "this move showed a secret: it stays at a locked table, as at a real table"
        return None

    def may_pick_outcome(self) -> bool:
        """Whether the viewer may pick or type the outcome of the chance node (not at a secret
        draw in a seat's view, nor at a locked table, whose laptop rolls and draws)."""
        return self._sees_chance() and not self.locked

    def _refused(self, reason: str) -> str:
        """The reason a step was refused, as the viewer may read it: in a seat's view, at a
        chance node it may not pick and at another seat's decision, the reason without the
        options (they could name hidden cards)."""
        if self.is_open:
            return reason
        player = self.state.current_player
        if player == CHANCE and not self.may_pick_outcome():
            return (
                "the laptop rolls and draws at a locked table: use Roll"
                if self._sees_chance()
                else "what is drawn here is hidden from this seat: use Roll"
            )
        if player >= 0 and (player != self.viewer or self.handover is not None):
            return f"it is {self.player_name(player)}'s move, not this seat's"
        return reason

    def shown_step(self, entry: LogEntry, action: Any) -> Any:
        """What a step method returns for ``action`` (logged as ``entry``): the action
        itself in the open view or when every seat sees it as it is; else the words the
        viewer saw (``"green draws a political card"``)."""
        if self.is_open or not entry.seen:
            return action
        return entry.told(self.viewer)

    # -- what the view shows ---------------------------------------------------------------
    def _may_act(self) -> bool:
        """Whether the actions of the player to move are shown."""
        if self.is_open:
            return True
        return self.handover is None and self.state.current_player == self.viewer

    def _sees_chance(self) -> bool:
        """Whether the outcomes of the chance node are listed (not at a secret draw in a
        seat's view: their chances would tell what the other hands hold)."""
        if self.is_open:
            return True
        return self.handover is None and not secret_chance(self.state)

    def _seat_status(self) -> str:
        """The status line of a seat's view."""
        state, seat = self.state, self.handover
        if seat is not None:
            return f"Hand the laptop to {self.player_name(seat)}"
        player = state.current_player
        if player == CHANCE and not self._sees_chance():
            return chance_status(state)
        if player >= 0 and player != self.viewer:
            return f"Waiting for {self.player_name(player)}"
        return ""

    def position_text(self) -> str | None:
        """The position as the viewer may see it: None in the open view (the whole state is
        drawn), ``""`` behind the hand-over screen; in pass and play before anyone holds the
        laptop (at a roll after a Load), what every seat sees: ``str(state)``, which in
        these games shows no secret."""
        if self.is_open:
            return None
        if self.handover is not None:
            return ""
        if self.viewer is None:  # pass and play before anyone took the laptop: what all see
            return str(self.state)
        return self.state.observation_text(self.viewer)

    def shown_situation(self, situation: str) -> str:
        """The first line of the position as the viewer sees it (``situation`` in the open
        view)."""
        if self.is_open:
            return situation
        text = self.position_text()
        return text.splitlines()[0] if text else ""

    def shown_groups(self, groups: dict[str, list[Any]]) -> dict[str, list[Any]]:
        """``groups`` of legal actions if the viewer may act now, else none."""
        return groups if self._may_act() else {}

    def shown_chance_table(self, table: list[tuple[Any, Fraction]]) -> list[tuple[Any, Fraction]]:
        """``table`` of chance outcomes if the viewer may see them, else none."""
        return table if self._sees_chance() else []

    def shown_log(self) -> list[str]:
        """The log as the viewer saw each step (empty behind the hand-over screen), with the
        table's notes."""
        if self.handover is not None:
            return []
        viewer = self.viewer
        return self._noted(
            [e.line if self.is_open else e.for_viewer(viewer) for e in self._entries]
        )

    def _noted(self, lines: list[str]) -> list[str]:
        """``lines`` (one per step) with each of the table's notes after the steps played
        before it (``table: the table was unlocked at action 57``)."""
        notes = sorted(self.notes, key=lambda note: note[0])
        out: list[str] = []
        k = 0
        for i, line in enumerate(lines):
            while k < len(notes) and notes[k][0] <= i:
                out.append("table: " + notes[k][1])
                k += 1
            out.append(line)
        return out + ["table: " + text for _, text in notes[k:]]

    def shown_scores(self) -> list[Any] | None:
        """The scores the viewer may see: once the game is over, every score
        (``state.scores()``); before, in a seat's view, the public ones when the game has
        them (``state.standing()``, which every VP figure of its views reads: Corona de
        Hierro's without the secret loyalty points); else None."""
        if self.state.is_terminal():
            return self.state.scores()
        standing = getattr(self.state, "standing", None)
        if self.is_open or self.handover is not None or not callable(standing):
            return None
        return standing()

    def _last_actor(self) -> int | None:
        """The seat whose decision led here (the latest step not played by chance)."""
        return next((e.actor for e in reversed(self._entries) if e.actor >= 0), None)

    def shows_odds(self) -> bool:
        """Whether the viewer may see the odds of the move at hand: in a seat's view only
        when it is its move, or a roll that follows its own decision."""
        if self.is_open:
            return True
        if self.handover is not None or self.viewer is None:
            return False
        player = self.state.current_player
        if player == CHANCE:
            return self._sees_chance() and self._last_actor() == self.viewer
        return player == self.viewer and player != TERMINAL
