"""Odds calculators: small forms whose exact answer updates as the inputs change.

Each calculator is an :class:`OddsModel` (plain Python: named input fields and a
``compute(**values) -> Answer`` that asks the library for the odds) and the generic
:class:`Calculator` view, which makes one input widget per field and re-computes on every
change. The models hold no rules: they call the games' ``odds`` modules.

>>> model = DiceModel()
>>> model.set(target=5, rerolls=1)
>>> print(model.answer().text)
P(at least 5 on faces 1, 2, 3, 4, 5, 6 with up to 1 reroll) = 5/9 (55.56%)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from html import escape
from typing import Any

from coronas.dice import Die
from coronas.widgets._render import figure_html, fraction_text

__all__ = ["Answer", "Calculator", "DiceModel", "Field", "OddsModel", "parse_faces"]


@dataclasses.dataclass(frozen=True)
class Field:
    """One input of a calculator.

    ``kind`` is ``"int"`` (a slider from ``low`` to ``high``), ``"choice"`` (a dropdown of
    ``options``, each a value or a ``(label, value)`` pair), ``"bool"`` (a checkbox) or
    ``"text"`` (a text box).
    """

    name: str
    label: str
    default: Any
    kind: str = "int"
    low: int = 0
    high: int = 10
    options: tuple[Any, ...] = ()


@dataclasses.dataclass
class Answer:
    """A calculator's answer: exact text (fractions and percentages), HTML, maybe a figure.

    ``values`` holds the exact numbers themselves (name -> Fraction) for programs and tests.
    """

    text: str
    html: str = ""
    values: dict[str, Any] = dataclasses.field(default_factory=dict)
    figure: Any = None
    error: bool = False

    def __post_init__(self) -> None:
        if not self.html:
            self.html = "<br>".join(escape(line) for line in self.text.splitlines())


def answer_lines(rows: Sequence[tuple[str, Fraction]], title: str = "") -> Answer:
    """An :class:`Answer` listing ``label = fraction (percent)`` lines, bold in HTML."""
    text = "\n".join(f"{label} = {fraction_text(p)}" for label, p in rows)
    body = "".join(
        f"<tr><td>{escape(label)}</td><td style='text-align:right'><b>{p}</b></td>"
        f"<td style='color:#666'>({float(p) * 100:.2f}%)</td></tr>"
        for label, p in rows
    )
    head = f"<b>{escape(title)}</b>" if title else ""
    return Answer(
        text=(title + "\n" if title else "") + text,
        html=f"{head}<table>{body}</table>",
        values={label: p for label, p in rows},
    )


class OddsModel:
    """A calculator's logic: input fields with values, and the exact answer for them.

    Subclasses set ``title`` and ``fields`` and implement ``compute(**values) -> Answer``.
    A ``ValueError`` raised while computing becomes an answer that says what is wrong.
    """

    title: str = "odds"
    fields: tuple[Field, ...] = ()

    def __init__(self, **values: Any):
        self.values = {f.name: f.default for f in self.fields}
        self.set(**values)

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(
            f"{type(self).__name__} has no input {name!r}; "
            f"the inputs are {[f.name for f in self.fields]}"
        )

    def set(self, **values: Any) -> None:
        """Change some inputs."""
        for name, value in values.items():
            self.field(name)
            self.values[name] = value

    def answer(self) -> Answer:
        """The answer for the current inputs (an error answer if they make no sense)."""
        try:
            return self.compute(**self.values)
        except ValueError as exc:
            return Answer(text=f"cannot compute: {exc}", error=True)

    def compute(self, **values: Any) -> Answer:
        raise NotImplementedError(f"{type(self).__name__} must define compute()")


class Calculator:
    """The ipywidgets view of an :class:`OddsModel`: inputs on top, the answer below.

    ``calc.inputs[name]`` is the widget of each input, ``calc.output`` the HTML answer and
    ``calc.answer`` the last :class:`Answer`. Setting an input's ``value`` recomputes.
    """

    def __init__(self, model: OddsModel, dpi: int = 80):
        import ipywidgets as w

        self.model = model
        self.dpi = dpi
        self.inputs: dict[str, Any] = {}
        style = {"description_width": "14em"}
        layout = w.Layout(width="34em")
        for f in model.fields:
            value = model.values[f.name]
            if f.kind == "int":
                box = w.IntSlider(
                    value=value,
                    min=f.low,
                    max=f.high,
                    description=f.label,
                    style=style,
                    layout=layout,
                )
            elif f.kind == "choice":
                options = [o if isinstance(o, tuple) else (str(o), o) for o in f.options]
                box = w.Dropdown(
                    options=options, value=value, description=f.label, style=style, layout=layout
                )
            elif f.kind == "bool":
                box = w.Checkbox(value=value, description=f.label, style=style, layout=layout)
            elif f.kind == "text":
                box = w.Text(
                    value=value,
                    description=f.label,
                    continuous_update=False,
                    style=style,
                    layout=layout,
                )
            else:
                raise ValueError(f"unknown input kind {f.kind!r} for {f.name!r}")
            box.observe(self._changed(f.name), names="value")
            self.inputs[f.name] = box
        self.heading = w.HTML(f"<h4>{escape(model.title)}</h4>")
        self.output = w.HTML()
        self.figure = w.HTML()
        self.widget = w.VBox([self.heading, *self.inputs.values(), self.output, self.figure])
        self.answer: Answer
        self.refresh()

    def _changed(self, name: str) -> Callable[[Any], None]:
        def handler(change: Any) -> None:
            self.model.set(**{name: change["new"]})
            self.refresh()

        return handler

    def refresh(self) -> None:
        """Recompute and redraw the answer."""
        self.answer = self.model.answer()
        colour = "#a00" if self.answer.error else "inherit"
        self.output.value = f"<div style='color:{colour}'>{self.answer.html}</div>"
        self.figure.value = (
            figure_html(self.answer.figure, dpi=self.dpi) if self.answer.figure is not None else ""
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


# --------------------------------------------------------------------------------------------
# Dice (no game knowledge)
# --------------------------------------------------------------------------------------------


def parse_faces(text: str) -> Die:
    """A die from typed faces, ``"1,2,3,4,5,6"`` or ``"1 1 2"``.

    >>> parse_faces("1, 1, 2")
    Die({1: 2/3, 2: 1/3})
    """
    parts = text.replace(",", " ").split()
    if not parts:
        raise ValueError("type the faces of the die, e.g. 1,2,3,4,5,6")
    try:
        return Die(int(p) for p in parts)
    except ValueError:
        bad = next(p for p in parts if not p.lstrip("-").isdigit())
        raise ValueError(f"faces must be whole numbers; {bad!r} is not") from None


class DiceModel(OddsModel):
    """P(at least ``target`` on one die, rerolling a failure up to ``rerolls`` times)."""

    title = "One die, a target, rerolls"
    fields = (
        Field("faces", "Faces", "1,2,3,4,5,6", kind="text"),
        Field("target", "Target (at least)", 4, low=1, high=12),
        Field("rerolls", "Rerolls", 0, low=0, high=5),
    )

    def compute(self, faces: str, target: int, rerolls: int) -> Answer:
        die = parse_faces(faces)
        p = die.p_at_least(target, rerolls)
        shown = ", ".join(str(f) for f in sorted(die.outcomes()))
        times = "reroll" if rerolls == 1 else "rerolls"
        return answer_lines(
            [(f"P(at least {target} on faces {shown} with up to {rerolls} {times})", p)]
        )
