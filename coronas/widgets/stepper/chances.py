"""The stepper's "who wins from here" panel: each seat's chance of winning the game from the
position on the table, with its 95% interval, the number of games behind it and how the rest
of the game is assumed to be played, refined while it runs.

The figures come from :func:`~.winchances.win_chances`, played out in a thread so the
widget never freezes: a first figure after the first batch of games (a fraction of a second
with the games' light playout policy), then narrower ones until the interval is as narrow as
asked or the time is up. They are shown from the eyes the stepper shows: in a seat's view, or
in pass and play for the seat holding the laptop, every game starts from a position resampled
from what that seat has seen (``viewer=``), never from the others' hidden cards; on the
hand-over screen nothing is shown; only the open view, for an analyst, plays from the true
position, and says so. A step, an undo or another view clears the figures, which belong to the
position they were computed for. Both answers ("who wins" and "rank the moves") come from the
same eyes: in the open view of a game with hidden cards, at a decision, both from the mover's
view (a ranking is advice for the mover, who does not see the others' cards), and each says
whose view it is. "Rank the moves" shows the value model's quick ranking within a second,
marked as such, then the games refine it; by default only the moves the learned player would
choose are played out, and "every move" plays them all, halving them as the games go (it cannot
leave the best move out before a game is played); in Corona de Hierro, whose move prior misses
too often, the box starts ticked. When the games stop, the panel says why: every figure had its
games, the intervals were as narrow as asked, the time was up, or Stop.

The thread plays on its own copy of the game, cloned before it starts by the thread that
plays the moves, so a click while it runs changes only the game on the table. A run whose
position is no longer the one on the table ends at its next batch without showing anything
more, and a run that was stopped never shows anything again.
"""

from __future__ import annotations

import contextlib
import threading
from html import escape
from typing import Any

from coronas.engine import State

__all__ = ["WinPanel"]


class _Stopped(Exception):
    """Raised from inside a run to end it early."""


class WinPanel:
    """The panel's logic, with or without widgets: :meth:`compute` gives the figures at once
    (for a script or a test), :meth:`start` refines them in a thread and calls ``show(html)``
    after each batch.

    ``bots`` plays every seat in the games played out (a name such as ``"light"``, the
    default: the fastest policy that plays sensibly, or a bot); ``seconds`` and
    ``precision`` (the widest interval's half-width) stop a run, whichever comes first.
    ``seed`` fixes the games (default: the stepper's seed; None at a locked table, where
    figures drawn from a known seed could tell what the dice will do). ``every_move`` plays
    every legal move out in a ranking, none left out by the learned player or the value
    model, and halves them (:func:`~.moves.rank_actions` with :data:`~.moves.EVERY_MOVE`);
    False plays out only the moves the game's judgement picks: as the game's own rankings
    do where they leave moves out (Carolus's, the value model's five best), else the
    learned player's likeliest (:data:`~.moves.LIKELIEST_MOVES`); None, the default, ranks
    as the game's own rankings do (:attr:`plays_every_move`).
    """

    def __init__(
        self,
        model: Any,
        bots: Any = "light",
        seconds: float = 20.0,
        precision: float = 0.01,
        seed: int | None = None,
        every_move: bool | None = None,
    ):
        self.model = model
        self.every_move = every_move
        self.bots = bots
        self.seconds = seconds
        self.precision = precision
        self.seed = seed if seed is not None else model.seed
        self.html = ""
        self.result: Any = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()  # the run in progress's: set to end it
        self._lock = threading.Lock()  # a run shows its figures, or the figures are cleared
        self._for: tuple[Any, int, Any] | None = None  # the position and eyes of the figures
        self._show: Any = None  # the running display's show(html)

    # -- whose eyes ------------------------------------------------------------------------
    def hidden(self) -> bool:
        """Whether nothing may be shown now: on the hand-over screen of pass and play, or
        before anyone has taken the laptop."""
        model = self.model
        return model.handover is not None or (model.view == "pass" and model.holder is None)

    def _key(self) -> tuple[Any, int, Any]:
        """What figures worked out now belong to: the state on the table, how many times the
        model changed it, and whose eyes. Read without touching the state, so a run may ask
        from its thread whether its position is still the one on the table."""
        model = self.model
        return model.state, model.changes, model.viewer

    def _current(self, key: tuple[Any, int, Any] | None) -> bool:
        """Whether ``key`` is still what the stepper shows."""
        now = self._key()
        return key is not None and key[0] is now[0] and key[1:] == now[1:]

    def _position(self) -> tuple[State, Any]:
        """A copy of the game on the table and the eyes to see it with. Taken by the thread
        that plays the moves: the figures are worked out on the copy, which nobody else
        changes, while the game on the table goes on."""
        return self.model.state.clone(), self.model.viewer

    def _bots(self, state: State) -> Any:
        return type(state.game).bot(self.bots) if isinstance(self.bots, str) else self.bots

    # -- running ---------------------------------------------------------------------------
    def compute(self, on_update: Any = None, moves: bool = False, **limits: Any) -> Any:
        """The figures for the position shown now, from the viewer's eyes: each seat's
        chances (:func:`~.winchances.win_chances`) or, with ``moves``, the moves of
        the seat to move ranked (:func:`~.moves.rank_actions`). ``limits`` are their
        ``games``, ``precision`` and ``time`` (default: this panel's precision and
        seconds)."""
        if self.hidden():
            raise ValueError("the laptop is being handed over: no figures for anyone now")
        return self._figures(self._position(), on_update, moves, limits)

    @property
    def plays_every_move(self) -> bool:
        """Whether "Rank the moves" plays every move out: :attr:`every_move` if set, else
        the game's own rankings' choice (Corona de Hierro's do)."""
        if self.every_move is not None:
            return self.every_move
        return self._own_rule_plays_every_move()

    def _own_rule_plays_every_move(self) -> bool:
        """Whether the game's own rankings play every move out (none left out by the move
        prior or the value model's best few)."""
        from coronas.manygames.judgement import LIKELIEST_MOVES

        rule = {**LIKELIEST_MOVES, **self.model.state.game.spec().ranking}
        return rule["prior_mass"] is None and rule["quick_kept"] is None

    def _figures(
        self, position: tuple[State, Any], on_update: Any, moves: bool, limits: dict[str, Any]
    ) -> Any:
        """:meth:`compute` on ``position`` (a copy of the game and the viewer)."""
        from coronas.manygames.moves import (
            EVERY_MOVE,
            LIKELIEST_MOVES,
            rank_actions,
            ranking_view,
        )
        from coronas.manygames.winchances import win_chances

        state, viewer = position
        viewer = ranking_view(state, viewer)  # both answers from the same information
        if not limits:
            limits = {"precision": self.precision, "time": self.seconds}
        options = dict(seed=self.seed, viewer=viewer, on_update=on_update, **limits)
        if moves:
            if self.every_move:
                options.update(EVERY_MOVE)
            elif self.every_move is False and self._own_rule_plays_every_move():
                options.update(LIKELIEST_MOVES)
            return rank_actions(state, self._bots(state), **options)
        return win_chances(state, self._bots(state), **options)

    def _refusal(self, moves: bool) -> str | None:
        """Why nothing may be computed now, or None."""
        state, viewer = self.model.state, self.model.viewer
        if self.hidden():
            return "Hand the laptop over first: the figures are for whoever holds it."
        if state.is_terminal():
            return "The game is over."
        if moves and state.current_player < 0:
            return "Nobody is deciding now: the dice or the cards are next."
        if moves and viewer is not None and state.current_player != viewer:
            return f"The moves are {state.player_name(state.current_player)}'s to rank, not yours."
        return None

    def start(self, show: Any = None, moves: bool = False) -> bool:
        """Refine the figures (each seat's chances, or with ``moves`` the ranking of the
        moves) in a thread, calling ``show(html)`` after each batch; False (with a message
        in :attr:`html`) when they may not be shown now."""
        self.stop()
        refusal = self._refusal(moves)
        if refusal is not None:
            self.html = _note(refusal)
            return False
        key = self._for = self._key()
        position = self._position()  # here, before the thread: the game may go on meanwhile
        stopped = self._stop = threading.Event()  # this run's alone: a later run has its own
        self.html = _note(
            "Scoring every move with the value model, then playing games after each..."
            if moves
            else "Playing the rest of the game out from here..."
        )
        self._show = show
        if show is not None:
            show(self.html)

        def publish(html: str, result: Any = None) -> None:
            """Show ``html`` if this run is still wanted and its position still on the
            table; else end the run, showing nothing."""
            with self._lock:
                if stopped.is_set() or not self._current(key):
                    raise _Stopped
                if result is not None:
                    self.result = result
                self.html = html
                if show is not None:
                    show(html)

        def update(result: Any) -> None:
            html = result._repr_html_()
            note = result.stop_note() if hasattr(result, "stop_note") else ""
            if note and note not in html:
                html += _note(note.capitalize() + ".")
            publish(html, result)

        def work() -> None:
            try:
                update(self._figures(position, update, moves, {}))
            except _Stopped:
                pass
            except Exception as exc:  # a failure is shown, never raised in a thread
                with contextlib.suppress(_Stopped):
                    publish(_note(f"The figures could not be computed: {exc}", error=True))

        self._thread = threading.Thread(target=work, name="who-wins-from-here", daemon=True)
        self._thread.start()
        return True

    def stop(self, by_player: bool = False) -> None:
        """End a run in progress (its last figures stay); ``by_player`` (the Stop button)
        says so under them."""
        if by_player and self.running and not self._stop.is_set():
            with self._lock:
                self.html += _note("Stopped by Stop: the figures above are the games so far.")
                if self._show is not None:
                    self._show(self.html)
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)
        self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def follow(self) -> bool:
        """After the stepper changed (a step, an undo, another view): stop and clear the
        figures if they are not for the position and eyes shown now. True if cleared."""
        if self._for is None or self._current(self._for):
            return False
        self.stop()
        with self._lock:  # after any figures being shown now; the run shows no more
            self._for = None
            self.result = None
            self.html = ""
        return True


def _note(text: str, error: bool = False) -> str:
    colour = "#a00" if error else "#555"
    return f"<p style='color:{colour}'>{escape(text)}</p>"


def panel_widget(panel: WinPanel) -> Any:
    """The panel as ipywidgets: "Who wins from here?", "Rank the moves" and Stop buttons, an
    "every move" box for the ranking, and the figures, redrawn while a run goes on."""
    import ipywidgets as w

    out = w.HTML()
    ask = w.Button(description="Who wins from here?", layout=w.Layout(width="auto"))
    rank = w.Button(description="Rank the moves", layout=w.Layout(width="auto"))
    stop = w.Button(description="Stop", layout=w.Layout(width="auto"))
    every = w.Checkbox(
        value=panel.plays_every_move,
        description="every move",
        tooltip="Rank the moves: play every move out, not only the ones the learned player "
        "or the value model picks",
        indent=False,
        layout=w.Layout(width="auto"),
    )

    def show(html: str) -> None:
        out.value = html

    ask.on_click(lambda _: panel.start(show) or show(panel.html))
    rank.on_click(lambda _: panel.start(show, moves=True) or show(panel.html))
    stop.on_click(lambda _: panel.stop(by_player=True))
    every.observe(lambda change: setattr(panel, "every_move", change["new"]), names="value")
    box = w.VBox([w.HBox([ask, rank, stop, every]), out])
    box.show = show  # type: ignore[attr-defined]
    return box
