"""The companion for the table: a phone-sized app that answers "what are my odds?" mid-game.

Choose the game, then the situation; type in what is on the table; the exact chance shows at
once (fraction and percentage), with the advice where there is a decision (reroll or not, how
many shields) and the inverse question a player asks ("how many shields for 80%?"). Voilà
renders it as a web app (``coronas app``, docs/cli.md); no code is visible.

:class:`CompanionModel` is the logic, plain Python tested without a browser: each situation
(:mod:`coronas.widgets.situations`) is a :class:`~coronas.widgets.situation.Situation` that
states its fields as a table and its answer, which calls the games' ``odds`` functions.
:class:`Companion` is the ipywidgets view: one form builder turns any situation's fields into
inputs and wires buttons and boxes to the model's calls.

>>> model = CompanionModel()
>>> model.choose("hierro", "castle")
>>> model.set(target=4, army=1, shields=0)
>>> model.answer().values["chance"]          # a 4 or more on a six-sided die: 3/6
Fraction(1, 2)
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from coronas.formatting import listing
from coronas.widgets._render import GAME_TITLES, PlainTextFallback
from coronas.widgets.calculators import Answer, Field
from coronas.widgets.situation import Situation, dice_html
from coronas.widgets.situations import GAMES, SITUATIONS

__all__ = [
    "GAMES",
    "SITUATIONS",
    "Companion",
    "CompanionModel",
    "Situation",
    "button_label",
    "dice_html",
    "form_class",
]


def _quote(text: str) -> str:
    return f"<blockquote class='coronas-rule'>{escape(text)}</blockquote>"


# --------------------------------------------------------------------------------------------
# The model of the whole app
# --------------------------------------------------------------------------------------------


def button_label(game: str) -> str:
    """The game's name on its button, short enough for a phone: Hierro, Batalla, Carolus."""
    title = GAME_TITLES[game]
    return title.replace("Corona de ", "").replace(" de Coronas", "").replace(" Magnus", "")


def form_class(game: str, key: str) -> str:
    """The CSS class every input of situation ``key`` of ``game`` carries, beside its
    ``coronas-field-NAME``: two situations may share a field's name (Hierro's castle and
    diplomacy both ask for a target), and a page that types into a field just after choosing
    a situation must find the new form's input, not the one the kernel is replacing."""
    return f"coronas-in-{game}-{key}"


class CompanionModel:
    """The app's logic: a game, a situation of it, its inputs and the exact answer.

    Each situation keeps its own inputs, so going back to one finds them as they were.
    """

    def __init__(self) -> None:
        self.situations: dict[tuple[str, str], Situation] = {
            (cls.game, cls.key): cls() for cls in SITUATIONS
        }
        self.game = GAMES[0]
        self.key = self.keys(self.game)[0]

    def keys(self, game: str) -> list[str]:
        """The situations of ``game``, by key, in order."""
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; the games are {listing(GAMES, 'and')}")
        return [k for g, k in self.situations if g == game]

    def choose(self, game: str, key: str | None = None) -> None:
        """Go to ``game`` and its situation ``key`` (by default its first one)."""
        keys = self.keys(game)
        if key is None:
            key = keys[0]
        if key not in keys:
            raise ValueError(
                f"{GAME_TITLES[game]} has no situation {key!r}; choose {listing(keys)}"
            )
        self.game, self.key = game, key

    @property
    def situation(self) -> Situation:
        """The situation chosen."""
        return self.situations[(self.game, self.key)]

    def set(self, **values: Any) -> None:
        """Change inputs of the situation chosen (an unknown name raises ``KeyError``)."""
        self.situation.set(**values)

    def answer(self) -> Answer:
        """The exact answer for the situation chosen and its inputs."""
        return self.situation.answer()


# --------------------------------------------------------------------------------------------
# The view
# --------------------------------------------------------------------------------------------

STYLE = """<style>
.coronas-app { max-width: 34em; margin: 0 auto; font-size: 16px; box-sizing: border-box; }
.coronas-app * { box-sizing: border-box; }
.coronas-app .widget-toggle-buttons .widget-toggle-button { height: 44px; font-size: 15px; }
.coronas-app button { min-height: 44px; font-size: 16px; }
.coronas-app input[type=number] { height: 44px; font-size: 18px; text-align: center; }
.coronas-app .widget-dropdown select { height: 44px; font-size: 16px; }
.coronas-row { width: 100%; align-items: center; gap: 4px; }
.coronas-row .widget-label { flex: 1 1 auto; white-space: normal; line-height: 1.2;
  height: auto; align-self: center; }
.coronas-answer { background: #f4f1e8; border: 1px solid #d8cfb8; border-radius: 8px;
  padding: 8px 10px; margin: 6px 0; overflow-wrap: anywhere; }
.coronas-chance { font-size: 28px; font-weight: bold; line-height: 1.2; }
.coronas-question { color: #444; }
.coronas-exact { font-size: 12px; color: #666; word-break: break-all; }
.coronas-more td { padding: 1px 6px 1px 0; }
.coronas-advice, .coronas-inverse { margin: 4px 0; padding-left: 1.1em; line-height: 1.35; }
.coronas-inverse { color: #1a4d8f; }
.coronas-rule { margin: 6px 0; padding-left: 8px; border-left: 3px solid #bbb; color: #555;
  font-style: italic; font-size: 14px; }
.coronas-error { color: #a00; }
</style>"""


class Companion(PlainTextFallback):
    """The companion as ipywidgets: game and situation buttons, the answer, then the inputs
    (each number with - and + buttons, 44 px high, for a finger), the dice and the rule.

    ``inputs[name]`` is the box of each input of the situation shown, ``output`` the answer's
    HTML widget and ``answer`` the last :class:`Answer`. Every change recomputes.
    """

    plain_title = "The companion for the table (exact odds mid-game)"

    def __init__(self, model: CompanionModel | None = None):
        import ipywidgets as w

        self._w = w
        self.model = model or CompanionModel()
        full = w.Layout(width="100%")
        self.games = w.ToggleButtons(
            options=[(button_label(g), g) for g in GAMES],
            value=self.model.game,
            style={"button_width": "31%"},
            layout=full,
        )
        self.games.add_class("coronas-games")
        self.situations = w.ToggleButtons(style={"button_width": "31%"}, layout=full)
        self.situations.add_class("coronas-situations")
        self.output = w.HTML(layout=full)
        self.output.add_class("coronas-answer")
        self.form = w.VBox(layout=full)
        self.extra = w.HTML(layout=full)
        self.inputs: dict[str, Any] = {}
        self.rows: dict[str, Any] = {}
        self.answer: Answer
        self.widget = w.VBox(
            [w.HTML(STYLE), self.games, self.situations, self.output, self.form, self.extra],
            layout=full,
        )
        self.widget.add_class("coronas-app")
        self._show_situations()
        self._build_form()
        self.games.observe(self._game_changed, names="value")
        self.situations.observe(self._situation_changed, names="value")

    # -- building ----------------------------------------------------------------------------

    def _show_situations(self) -> None:
        self._quiet = True
        situations = [
            self.model.situations[(self.model.game, k)] for k in self.model.keys(self.model.game)
        ]
        self.situations.options = [(s.label, s.key) for s in situations]
        self.situations.value = self.model.key
        self._quiet = False

    def _build_form(self) -> None:
        situation = self.model.situation
        self.inputs, self.rows = {}, {}
        for f in situation.fields:
            box, row = self._field_widget(f, situation.values[f.name])
            self.inputs[f.name] = box
            self.rows[f.name] = row
        self.form.children = list(self.rows.values())
        self.refresh()

    def _field_widget(self, f: Field, value: Any) -> tuple[Any, Any]:
        w = self._w
        if f.kind == "int":
            box = w.BoundedIntText(
                value=value, min=f.low, max=f.high, step=f.step, layout=w.Layout(width="4.2em")
            )
            minus = w.Button(description="−", layout=w.Layout(width="48px", height="44px"))
            plus = w.Button(description="+", layout=w.Layout(width="48px", height="44px"))
            minus.add_class("coronas-minus")
            plus.add_class("coronas-plus")

            def nudge(by: int) -> Callable[[Any], None]:
                def click(_: Any) -> None:
                    box.value = max(f.low, min(f.high, box.value + by))

                return click

            minus.on_click(nudge(-f.step))
            plus.on_click(nudge(f.step))
            row = w.HBox([w.Label(f.label), minus, box, plus], layout=w.Layout(width="100%"))
        elif f.kind == "bool":
            box = w.ToggleButton(
                value=value,
                description=f.label,
                icon="check" if value else "",
                layout=w.Layout(width="100%", height="44px"),
            )
            row = w.HBox([box], layout=w.Layout(width="100%"))
        elif f.kind == "choice":
            options = [o if isinstance(o, tuple) else (str(o), o) for o in f.options]
            box = w.Dropdown(options=options, value=value, layout=w.Layout(width="9em"))
            row = w.HBox([w.Label(f.label), box], layout=w.Layout(width="100%"))
        else:
            raise ValueError(f"the companion has no input of kind {f.kind!r} ({f.name!r})")
        box.add_class(f"coronas-field-{f.name}")
        box.add_class(form_class(self.model.game, self.model.key))
        row.add_class("coronas-row")
        box.observe(self._changed(f.name), names="value")
        return box, row

    # -- reacting ----------------------------------------------------------------------------

    def _game_changed(self, change: Any) -> None:
        self.model.choose(change["new"])
        self._show_situations()
        self._build_form()

    def _situation_changed(self, change: Any) -> None:
        if self._quiet or change["new"] is None:
            return
        self.model.choose(self.model.game, change["new"])
        self._build_form()

    def _changed(self, name: str) -> Callable[[Any], None]:
        def handler(change: Any) -> None:
            box = self.inputs.get(name)
            if isinstance(box, self._w.ToggleButton):
                box.icon = "check" if change["new"] else ""
            self.model.set(**{name: change["new"]})
            self.refresh()

        return handler

    def refresh(self) -> None:
        """Recompute the answer and redraw it, the dice and which inputs show."""
        situation = self.model.situation
        self.answer = self.model.answer()
        if self.answer.error:
            self.output.value = f"<div class='coronas-error'>{escape(self.answer.text)}</div>"
        else:
            self.output.value = self.answer.html
        for name, row in self.rows.items():
            row.layout.display = None if situation.shown(name) else "none"
        picture = situation.picture()
        self.extra.value = (
            f"<div><b>{escape(situation.title)}</b></div>{picture}{_quote(situation.rule)}"
        )
