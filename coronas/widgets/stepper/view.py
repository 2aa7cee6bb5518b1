"""The stepper's view: ipywidgets over :class:`~coronas.widgets.stepper.StepperModel`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from coronas.engine import CHANCE, State
from coronas.formatting import percent, plural, score_text
from coronas.formatting import readable_probability as readable
from coronas.widgets._render import PlainTextFallback, figure_html, find_drawer, state_html
from coronas.widgets.stepper.files import default_save_path
from coronas.widgets.stepper.model import StepperModel
from coronas.widgets.stepper.outcomes import _norm

__all__ = ["Stepper"]

_NOTES = ("undone", "saved", "loaded", "cancelled")  # how the messages of steps that worked begin


def _with_exact(text: str, exact: str) -> str:
    """``text`` in bold; when it gives a long fraction as its percentage (``exact`` differs),
    the exact words in its tooltip."""
    tip = f" title='{escape(exact, quote=True)}' style='cursor:help'" if exact != text else ""
    return f"<b{tip}>{escape(text)}</b>"


class Stepper:
    """An ipywidgets view over :class:`StepperModel`: display it as the last line of a cell.

    The state is drawn with the game's drawing (the map, the ring, the kingdom boards) when
    there is one, otherwise shown as text. Decisions are picked from two dropdowns (kind of
    action, then the action, with a filter box); at a chance node the outcomes are listed
    with exact probabilities, and a Roll button (seeded with ``seed``, else the operating
    system's entropy), a dropdown and a text box for the number really rolled at the table
    apply one. The odds come from the game
    (:meth:`State.odds <coronas.engine.State.odds>`) as exact fractions and percentages: of
    the selected action when it rolls dice, of the roll being made at a chance node, and each
    choice's at a reroll decision (the best marked); each is computed once per position.
    Undo, a bot move and "play to the end" work everywhere (but at a locked table, below),
    and so do Save and Load, which write and read the game in the file named in the box next
    to them (``file``, relative to the notebook's folder). The log and the scores are shown
    below.

    The View dropdown (``view``) chooses whose eyes are shown: the open view (everything, for
    teaching), one seat's (its own secrets, the others' moves awaited, hidden draws), or pass
    and play, where a hand-over screen hides everything between two people's seats
    (``humans``, by default every seat) until the next one says they hold the laptop. With
    ``lock_view=True`` the dropdown is disabled and the view stays the one chosen (a class on
    one laptop: nobody switches to the open view by a click): a locked table, which takes no
    seed, offers no "Play to the end", no outcome to pick, an Undo only of the seat's own
    decisions since the last roll or draw, a Passphrase box (at least 8 characters) that Save
    seals the game under and Load opens it with, and an "Unlock the table" button that asks
    for a confirmation and a passphrase (``teacher_passphrase`` if one was given, else the
    one the table was last saved or loaded with) and that every seat's log then tells of.
    In pass and play the seat holding the laptop may set a PIN that the hand-over screen then
    asks for (a sealed save keeps it), and may take back its last move from the hand-over
    screen while nothing has been rolled or drawn since. Save asks before it overwrites an
    existing file. See :mod:`coronas.widgets.stepper.seats` and ``docs/stepper.md``.

    The "Who wins from here?" panel (``chances=True``, :attr:`panel`) shows each seat's
    chance of winning from the position with its 95% interval, refined in a thread, from the
    eyes the stepper shows (:mod:`coronas.widgets.stepper.chances`).
    """

    def __init__(
        self,
        state: State,
        bots: Any = None,
        seed: int | None = None,
        draw: Callable[[Any], Any] | bool | None = True,
        log_lines: int = 12,
        names: Sequence[str] | None = None,
        file: str | None = None,
        view: Any = "open",
        humans: Sequence[int] | None = None,
        lock_view: bool = False,
        chances: bool = True,
        teacher_passphrase: str | None = None,
    ):
        import ipywidgets as w

        from coronas.widgets.stepper.chances import WinPanel, panel_widget

        self.model = StepperModel(
            state,
            bots=bots,
            seed=seed,
            names=names,
            view=view,
            humans=humans,
            lock_view=lock_view,
            teacher_passphrase=teacher_passphrase,
        )
        self.draw = find_drawer(state) if draw is True else (draw or None)
        # "Who wins from here": each seat's chance of winning, from the eyes shown.
        self.panel = WinPanel(self.model)
        self.chances = panel_widget(self.panel)
        self.chances.layout.display = None if chances else "none"
        self._chances_shown = chances
        self.log_lines = log_lines
        button = dict(layout=w.Layout(width="auto"))  # shared: never hidden one by one

        self.status = w.HTML()
        self.view_select = w.Dropdown(
            description="View",
            options=self.model.view_options(),
            value=self.model.view,
            disabled=self.model.view_locked,
            layout=w.Layout(width="22em"),
        )
        self.handover_button = w.Button(button_style="warning", layout=w.Layout(width="auto"))
        self.pin_text = w.Password(placeholder="PIN", layout=w.Layout(width="8em"))
        # On the hand-over screen: the seat still holding the laptop takes its move back.
        self.takeback_button = w.Button(layout=w.Layout(width="auto"))
        self.board = w.HTML()
        self.message = w.HTML()
        self.log = w.HTML()
        self.results = w.HTML()
        self.advice = w.HTML()
        self.action_odds = w.HTML()

        self.group_select = w.Dropdown(description="Kind", layout=w.Layout(width="22em"))
        self.filter_text = w.Text(placeholder="filter", layout=w.Layout(width="10em"))
        self.action_select = w.Dropdown(description="Action", layout=w.Layout(width="36em"))
        self.play_button = w.Button(description="Play", button_style="primary", **button)
        self.decision_box = w.VBox(
            [
                w.HBox([self.group_select, self.filter_text]),
                w.HBox([self.action_select, self.play_button]),
                self.action_odds,
            ]
        )

        self.chance_html = w.HTML()
        self.roll_button = w.Button(description="Roll", button_style="primary", **button)
        self.outcome_select = w.Dropdown(description="Outcome", layout=w.Layout(width="24em"))
        self.take_button = w.Button(description="Take this outcome", **button)
        self.typed = w.Text(
            description="Rolled",
            placeholder="what the dice showed",
            continuous_update=False,
            layout=w.Layout(width="20em"),
        )
        self.enter_button = w.Button(description="Enter", **button)
        # Where an outcome is picked or typed: not offered at a secret draw in a seat's view.
        self.outcome_rows = w.VBox(
            [
                w.HBox([self.outcome_select, self.take_button]),
                w.HBox([self.typed, self.enter_button]),
            ]
        )
        self.chance_box = w.VBox([self.chance_html, self.roll_button, self.outcome_rows])

        self.undo_button = w.Button(description="Undo", **button)
        self.bot_button = w.Button(description="Bot move", **button)
        self.end_button = w.Button(description="Play to the end", layout=w.Layout(width="auto"))
        self.file_text = w.Text(
            value=file or default_save_path(state),
            description="File",
            placeholder="game.json",
            style={"description_width": "initial"},
            layout=w.Layout(width="24em", margin="2px 2px 2px 1.5em"),  # the name in full
        )
        self.save_button = w.Button(description="Save", **button)
        self.load_button = w.Button(description="Load", **button)
        # A locked table's: the passphrase its games are sealed under, the unlock, the PINs.
        self.passphrase = w.Password(
            description="Passphrase",
            style={"description_width": "initial"},
            layout=w.Layout(width="16em"),
        )
        self.unlock_button = w.Button(
            description="Unlock the table", button_style="danger", layout=w.Layout(width="auto")
        )
        self.new_pin = w.Password(placeholder="my new PIN", layout=w.Layout(width="9em"))
        self.pin_button = w.Button(description="Set my PIN", layout=w.Layout(width="auto"))
        self.lock_box = w.HBox([self.passphrase, self.new_pin, self.pin_button, self.unlock_button])
        # A question waiting for its answer (the next click answers or drops it): whether to
        # overwrite an existing file, or to unlock the table (with its passphrase).
        self._question: tuple[Any, ...] | None = None
        self._answering: tuple[Any, ...] | None = None
        self.unlock_text = w.Password(
            placeholder="passphrase to unlock", layout=w.Layout(width="14em")
        )
        self.unlock_confirm = w.Button(
            description="Yes, unlock: every seat's log will say so",
            button_style="danger",
            layout=w.Layout(width="auto"),
        )
        self.overwrite_button = w.Button(button_style="danger", layout=w.Layout(width="auto"))
        self.cancel_button = w.Button(description="Cancel", layout=w.Layout(width="auto"))
        self.confirm_box = w.HBox(
            [self.unlock_text, self.unlock_confirm, self.overwrite_button, self.cancel_button]
        )
        controls = w.VBox(
            [
                w.HBox(
                    [
                        self.undo_button,
                        self.bot_button,
                        self.end_button,
                        self.file_text,
                        self.save_button,
                        self.load_button,
                    ]
                ),
                self.lock_box,
                self.confirm_box,
            ]
        )

        self.controls = controls
        # The HTML parts stay direct children, in this order (status first, the position
        # second, the log last): the browser tests find them so.
        self.widget = w.VBox(
            [
                self.status,
                self.view_select,
                self.handover_button,
                self.pin_text,
                self.takeback_button,
                self.board,
                self.advice,
                self.decision_box,
                self.chance_box,
                controls,
                self.message,
                self.results,
                self.chances,
                self.log,
            ]
        )

        self._syncing = False  # the menu is being set from the model: not a person's choice
        self.view_select.observe(
            lambda change: (
                None
                if self._syncing or change["new"] == self.model.view
                else self._act(self._set_view)
            ),
            names="value",
        )
        self.handover_button.on_click(lambda _: self._act(self._take_laptop))
        self.takeback_button.on_click(lambda _: self._act(self.model.undo))
        self.group_select.observe(lambda _: self._fill_actions(), names="value")
        self.filter_text.observe(lambda _: self._fill_actions(), names="value")
        self.action_select.observe(lambda _: self._show_action_odds(), names="value")
        self.play_button.on_click(lambda _: self._act(self._play))
        self.roll_button.on_click(lambda _: self._act(self.model.roll))
        self.take_button.on_click(lambda _: self._act(self._take))
        self.enter_button.on_click(lambda _: self._act(self._enter))
        self.undo_button.on_click(lambda _: self._act(self.model.undo))
        self.bot_button.on_click(lambda _: self._act(self.model.bot_move))
        self.end_button.on_click(lambda _: self._act(self.model.play_to_end))
        self.save_button.on_click(lambda _: self._act(self._save))
        self.load_button.on_click(lambda _: self._act(lambda: self._file(self.model.load)))
        self.unlock_button.on_click(lambda _: self._act(self._ask_unlock))
        self.unlock_confirm.on_click(lambda _: self._act(self._unlock))
        self.overwrite_button.on_click(lambda _: self._act(self._overwrite))
        self.cancel_button.on_click(lambda _: self._act(self._cancel))
        self.pin_button.on_click(lambda _: self._act(self._set_pin))
        self.refresh()

    @property
    def state(self) -> State:
        return self.model.state

    # -- wiring ----------------------------------------------------------------------------
    def _act(self, step: Callable[[], Any]) -> None:
        self.model.message = ""
        # a click answers the question asked (or drops it): only the answer's step reads it
        self._answering, self._question = self._question, None
        step()
        self.refresh()

    def _set_view(self) -> None:
        if self.view_select.value != self.model.view:
            self.model.set_view(self.view_select.value)

    def _sync_views(self) -> None:
        """The View menu as the model has it (a Load may change the view, the lock and the
        number of seats; an unlock frees the menu)."""
        self._syncing = True
        try:
            options = self.model.view_options()
            if [tuple(o) for o in self.view_select.options] != options:
                self.view_select.options = options
            self.view_select.value = self.model.view
            self.view_select.disabled = self.model.view_locked
        finally:
            self._syncing = False

    def _file(self, step: Callable[..., bool]) -> None:
        """Save or Load with the file named and the passphrase typed (then forgotten)."""
        step(self.file_text.value.strip(), self.passphrase.value or None)
        self.passphrase.value = ""

    def _save(self) -> None:
        """Save to the file named; if it exists, ask whether to overwrite it (the passphrase
        typed is kept until the answer)."""
        path, passphrase = self.file_text.value.strip(), self.passphrase.value or None
        self.passphrase.value = ""
        if not self.model.save(path, passphrase) and self.model.existing == path:
            self._question = ("overwrite", path, passphrase)
            self.model.message = (
                f"{path} exists (perhaps another table's save): press Overwrite to replace "
                "it, or Cancel and choose another name"
            )

    def _overwrite(self) -> None:
        if self._answering is not None and self._answering[0] == "overwrite":
            _, path, passphrase = self._answering
            self.model.save(path, passphrase, overwrite=True)

    def _ask_unlock(self) -> None:
        """Ask for the passphrase that unlocks the table and a confirmation."""
        needs = self.model.unlock_needs()
        if not self.model.locked or not needs:
            self.model.unlock()  # says why not
            return
        self._question = ("unlock",)
        self.model.message = (
            f"Unlock the table? Every seat's log will say so. Type {needs} and confirm."
        )

    def _unlock(self) -> None:
        passphrase, self.unlock_text.value = self.unlock_text.value, ""
        unlocked = self._answering == ("unlock",) and self.model.unlock(passphrase)
        if not unlocked and self.model.locked:  # a wrong passphrase: ask again
            self._question = ("unlock",)

    def _cancel(self) -> None:
        what = self._answering[0] if self._answering else ""
        self.model.message = {
            "overwrite": "cancelled: nothing was written",
            "unlock": "cancelled: the table stays locked",
        }.get(what, "")

    def _take_laptop(self) -> None:
        self.model.take_laptop(self.pin_text.value)
        self.pin_text.value = ""

    def _set_pin(self) -> None:
        self.model.set_pin(self.new_pin.value)
        self.new_pin.value = ""

    def _play(self) -> None:
        actions = self._shown_actions()
        index = self.action_select.value
        if index is None or not 0 <= index < len(actions):
            self.model.message = "choose an action first"
            return
        self.model.play(actions[index])

    def _take(self) -> None:
        table = self.model.shown_chance_table(self.model.chance_table())
        index = self.outcome_select.value
        if index is None or not 0 <= index < len(table):
            self.model.message = "choose an outcome first"
            return
        self.model.play(table[index][0])

    def _enter(self) -> None:
        if self.model.enter(self.typed.value):
            self.typed.value = ""

    def _shown_actions(self) -> list[Any]:
        actions = self.model.shown_groups(self.model.action_groups()).get(
            self.group_select.value, []
        )
        needle = _norm(self.filter_text.value)
        describe = self.model.state.describe
        return [a for a in actions if needle in _norm(describe(a))] if needle else actions

    def _fill_actions(self) -> None:
        actions = self._shown_actions()
        describe = self.model.state.describe
        self.action_select.options = [(describe(a), i) for i, a in enumerate(actions)]
        self.action_select.value = 0 if actions else None
        self._show_action_odds()

    def _show_action_odds(self) -> None:
        """The odds of the selected action, when it rolls dice (asked for only now)."""
        actions = self._shown_actions()
        index = self.action_select.value
        text = exact = ""
        if index is not None and 0 <= index < len(actions) and self.model.shows_odds():
            text = self.model.odds_text(actions[index])
            exact = self.model.odds_text(actions[index], exact=True)
        self.action_odds.value = (
            f"<span style='color:#555'>odds:</span> {_with_exact(text, exact)}" if text else ""
        )

    # -- drawing ---------------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw everything from the model."""
        model, state = self.model, self.model.state
        self.status.value = (
            f"<b>{escape(model.status)}</b>"
            + (
                f"<br><span style='color:#555'>{escape(model.situation)}</span>"
                if model.situation
                else ""
            )
            # who plays each seat: "Seats: red: person, green: mcts"
            + f"<br><span style='color:#555'>{escape(model.seats_text())}</span>"
        )
        seat = model.handover
        self.handover_button.description = (
            f"I am {model.player_name(seat)}, show my hand" if seat is not None else ""
        )
        self.handover_button.layout.display = None if seat is not None else "none"
        pin = seat is not None and model.has_pin(seat)
        self.pin_text.layout.display = None if pin else "none"
        back = model.may_take_back()
        self.takeback_button.description = (
            f"Undo: {model.player_name(model.holder)} takes back the last move" if back else ""
        )
        self.takeback_button.layout.display = None if back else "none"
        self._sync_views()
        self.roll_button.description = "Roll (seeded)" if model.seed is not None else "Roll"
        self.end_button.layout.display = "none" if model.locked else None
        passing = model.view == "pass" and model.holder is not None
        for part in (self.new_pin, self.pin_button):
            part.layout.display = None if passing else "none"
        for part in (self.passphrase, self.unlock_button):
            part.layout.display = None if model.locked else "none"
        asked = self._question[0] if self._question else None
        self.confirm_box.layout.display = None if asked else "none"
        for part in (self.unlock_text, self.unlock_confirm):
            part.layout.display = None if asked == "unlock" else "none"
        self.overwrite_button.layout.display = None if asked == "overwrite" else "none"
        self.overwrite_button.description = (
            f"Overwrite {self._question[1]}" if self._question and asked == "overwrite" else ""
        )
        # Behind the hand-over screen the position, the log and the odds are empty and
        # the actions hidden (see the model); the controls are hidden too.
        self.controls.layout.display = "none" if seat is not None else None
        self.board.value = self._position_html()
        advice = model.odds_text() if model.shows_odds() else ""
        exact = model.odds_text(exact=True) if advice else ""
        label = "odds" if state.is_chance_node() else "advice"
        self.advice.value = (
            f"<div><span style='color:#555'>{label}:</span> {_with_exact(advice, exact)}</div>"
            if advice
            else ""
        )
        player = state.current_player
        groups = model.shown_groups(model.action_groups())
        self.decision_box.layout.display = None if player >= 0 and groups else "none"
        self.chance_box.layout.display = None if player == CHANCE else "none"

        self.group_select.options = [(f"{g} ({len(a)})", g) for g, a in groups.items()]
        self.group_select.value = next(iter(groups), None)
        self._fill_actions()

        table = model.shown_chance_table(model.chance_table())
        cell = "style='padding:1px 8px;text-align:right'"
        rows = "".join(
            f"<tr><td style='padding:1px 8px'>{escape(state.describe(o))}</td>"
            f"<td {cell}>{_with_exact(readable(p).split(' (')[0], str(p))}</td>"
            f"<td {cell}><span style='color:#666'>{percent(p)}</span></td></tr>"
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
        self.outcome_select.options = [
            (f"{state.describe(o)}  ({readable(p)})", i) for i, (o, p) in enumerate(table)
        ]
        self.outcome_select.value = 0 if table else None
        hidden = player == CHANCE and not model.may_pick_outcome()  # only Roll
        self.outcome_rows.layout.display = "none" if hidden else None

        colour = "#555" if model.message.startswith(_NOTES) else "#a00"
        self.message.value = (
            f"<p style='color:{colour}'>{escape(model.message)}</p>" if model.message else ""
        )
        results = model.results()
        self.results.value = (
            (
                "<b>Scores:</b> "
                if state.is_terminal()
                else "<b>Scores if the game ended now</b> (what is still secret not counted): "
            )
            + "; ".join(f"{escape(n)}: {escape(score_text(s))}" for n, s in results)
            if results is not None
            else ""
        )
        if self.panel.follow():  # the figures were for another position or other eyes
            self.chances.show("")
        self.chances.layout.display = None if self._chances_shown and seat is None else "none"
        shown = model.shown_log()
        lines = shown[-self.log_lines :]
        skipped = len(shown) - len(lines)
        head = f"<i>... {plural(skipped, 'earlier step')}</i><br>" if skipped else ""
        self.log.value = (
            "<div style='font-family:monospace;font-size:90%;line-height:1.35'>"
            + head
            + "<br>".join(escape(line) for line in lines)
            + "</div>"
        )

    def _position_html(self) -> str:
        """The position: the whole state in the open view; in a seat's view the drawing of
        the board (open to all in these games) and what that seat sees, as text."""
        text = self.model.position_text()
        if text is None:  # the open view: the drawing, and a game's table of the players
            players = getattr(self.state, "players_html", None)
            table = self.state._repr_html_() if callable(players) and self.draw else ""
            return state_html(self.state, self.draw) + table
        if not text:
            return ""
        drawing = ""
        if self.draw is not None:
            try:
                drawn = self.draw(self.state)
            except Exception as exc:  # a drawing bug must not break stepping through a game
                drawing = f"<p style='color:#a00'>(the drawing failed: {escape(str(exc))})</p>"
            else:
                fig = drawn[0] if isinstance(drawn, tuple) else drawn
                fig = fig if hasattr(fig, "savefig") else getattr(fig, "figure", None)
                drawing = figure_html(fig) if fig is not None else ""
        viewer = self.model.viewer
        worded = getattr(self.state, "observation_html", None)
        if viewer is not None and callable(worded):  # a game with secrets lays out a seat's
            return drawing + worded(viewer)
        if viewer is None or not hasattr(self.state, "describe_for"):  # nothing hidden here
            return drawing + state_html(self.state, None)
        return drawing + f"<pre style='white-space:pre-wrap'>{escape(text)}</pre>"

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return PlainTextFallback._repr_mimebundle_(self, **kwargs)
