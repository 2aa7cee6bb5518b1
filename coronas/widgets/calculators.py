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

import abc
import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from html import escape
from typing import Any

from coronas.dice import Die, to_fraction
from coronas.formatting import is_long, percent, plural, readable_probability
from coronas.widgets._render import PlainTextFallback, figure_html

__all__ = [
    "Answer",
    "BatallaBattleModel",
    "Calculator",
    "CarolusDrawsModel",
    "CastleAssaultModel",
    "DiceModel",
    "DiplomacyModel",
    "EmissaryRaceModel",
    "Field",
    "HierroBattleModel",
    "OddsModel",
    "answer_lines",
    "heatmap_figure",
    "parse_faces",
]


@dataclasses.dataclass(frozen=True)
class Field:
    """One input of a calculator.

    ``kind`` is ``"int"`` (a slider from ``low`` to ``high`` by ``step``), ``"choice"`` (a
    dropdown of ``options``, each a value or a ``(label, value)`` pair), ``"bool"`` (a
    checkbox) or ``"text"`` (a text box).
    """

    name: str
    label: str
    default: Any
    kind: str = "int"
    low: int = 0
    high: int = 10
    options: tuple[Any, ...] = ()
    step: int = 1


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


def _probability_cells(p: Fraction) -> str:
    """Two table cells: the exact fraction and its percentage, or (a fraction too long to
    read) the percentage, with the fraction as its tooltip."""
    if is_long(p):
        return f"<td style='text-align:right' title='{p}'><b>{percent(p)}</b></td><td></td>"
    return f"<td style='text-align:right'><b>{p}</b></td><td style='color:#666'>({percent(p)})</td>"


def answer_lines(rows: Sequence[tuple[str, Fraction]], title: str = "") -> Answer:
    """An :class:`Answer` listing ``label = fraction (percent)`` lines, bold in HTML; a
    fraction too long to read shows as its percentage, the fraction in its tooltip."""
    text = "\n".join(f"{label} = {readable_probability(p)}" for label, p in rows)
    body = "".join(f"<tr><td>{escape(label)}</td>{_probability_cells(p)}</tr>" for label, p in rows)
    head = f"<b>{escape(title)}</b>" if title else ""
    return Answer(
        text=(title + "\n" if title else "") + text,
        html=f"{head}<table>{body}</table>",
        values={label: p for label, p in rows},
    )


class OddsModel(abc.ABC):
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

    @abc.abstractmethod
    def compute(self, **values: Any) -> Answer:
        """The answer for these inputs; each calculator defines it."""


class Calculator(PlainTextFallback):
    """The ipywidgets view of an :class:`OddsModel`: inputs on top, the answer below.

    ``calc.inputs[name]`` is the widget of each input, ``calc.output`` the HTML answer and
    ``calc.answer`` the last :class:`Answer`. Setting an input's ``value`` recomputes.
    """

    def __init__(self, model: OddsModel, dpi: int = 80):
        import ipywidgets as w

        self.model = model
        self.dpi = dpi
        self.inputs: dict[str, Any] = {}
        # wide enough for the longest label ("Right banner (emissary target)") in full
        style = {"description_width": "19em"}
        layout = w.Layout(width="42em")
        for f in model.fields:
            value = model.values[f.name]
            if f.kind == "int":
                box = w.IntSlider(
                    value=value,
                    min=f.low,
                    max=f.high,
                    step=f.step,
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

    @property
    def plain_title(self) -> str:
        """What the widget is, in words (its text before the notebook is run)."""
        return f"Odds calculator ({self.model.title})"


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
        again = f"up to {plural(rerolls, 'reroll')}" if rerolls else "no reroll"
        return answer_lines([(f"P(at least {target} on faces {shown} with {again})", p)])


# --------------------------------------------------------------------------------------------
# The games' odds (each model imports its game lazily, when it computes)
# --------------------------------------------------------------------------------------------


def _mean_text(count: Any) -> str:
    mean = getattr(count, "mean", None)
    return "never" if mean is None else f"{mean} ({float(mean):.3f})"


class CastleAssaultModel(OddsModel):
    """Corona de Hierro: attacking a castle by arms (the left banner), with shield rerolls."""

    title = "Corona de Hierro: attack a castle"
    fields = (
        Field("target", "Left banner (army target)", 4, low=1, high=6),
        Field("army", "Pawns in the army", 1, low=1, high=8),
        Field("shields", "Shields to spend on rerolls", 0, low=0, high=5),
        Field("troops_inside", "Owner's troops still inside", False, kind="bool"),
        Field("good_fortune", "Play Good fortune (green die)", False, kind="bool"),
    )

    def compute(
        self, target: int, army: int, shields: int, troops_inside: bool, good_fortune: bool
    ) -> Answer:
        from coronas.hierro.odds import castle_assault

        odds = castle_assault(
            target,
            army=army,
            shields=shields,
            troops_inside=troops_inside,
            good_fortune=good_fortune,
        )
        return _roll_answer(odds, f"{target}+ with a {army}-pawn army ({odds.colour} die)")


class DiplomacyModel(OddsModel):
    """Corona de Hierro: an emissary's roll for a castle's support (the right banner)."""

    title = "Corona de Hierro: diplomacy"
    fields = (
        Field("target", "Right banner (emissary target)", 4, low=1, high=6),
        Field("legitimacy", "Legitimacy level", 2, low=0, high=14),
        Field("shields", "Shields to spend on rerolls", 0, low=0, high=5),
        Field("good_fortune", "Play Good fortune (green die)", False, kind="bool"),
    )

    def compute(self, target: int, legitimacy: int, shields: int, good_fortune: bool) -> Answer:
        from coronas.hierro.odds import diplomacy

        odds = diplomacy(target, legitimacy=legitimacy, shields=shields, good_fortune=good_fortune)
        return _roll_answer(odds, f"{target}+ at legitimacy {legitimacy} ({odds.colour} die)")


def _roll_answer(odds: Any, title: str) -> Answer:
    rows = [
        ("P(one roll succeeds)", to_fraction(odds.single_roll)),
        (
            "P(the action succeeds, "
            + (f"up to {plural(odds.shields, 'reroll')})" if odds.shields else "no reroll)"),
            to_fraction(odds.probability),
        ),
    ]
    answer = answer_lines(rows, title)
    extra = [
        ("shields spent in that action (mean)", str(odds.expected_shields)),
        ("actions until taken (mean)", _mean_text(odds.actions)),
        ("turns until taken (mean)", _mean_text(odds.turns)),
    ]
    answer.text += "\n" + "\n".join(f"{k}: {v}" for k, v in extra)
    answer.html += (
        "<table>"
        + "".join(f"<tr><td>{escape(k)}</td><td>{escape(v)}</td></tr>" for k, v in extra)
        + "</table>"
    )
    return answer


class EmissaryRaceModel(OddsModel):
    """Corona de Hierro: two emissaries in one castle, rolling in turn for its support."""

    title = "Corona de Hierro: emissary race"
    fields = (
        Field("target", "Right banner (emissary target)", 4, low=1, high=6),
        Field("first_legitimacy", "First player's legitimacy", 2, low=0, high=14),
        Field("second_legitimacy", "Second player's legitimacy", 2, low=0, high=14),
        Field("first_shields", "First player's shields", 0, low=0, high=5),
        Field("second_shields", "Second player's shields", 0, low=0, high=5),
        Field("attempts", "Rolls per turn", 2, low=1, high=2),
    )

    def compute(
        self,
        target: int,
        first_legitimacy: int,
        second_legitimacy: int,
        first_shields: int,
        second_shields: int,
        attempts: int,
    ) -> Answer:
        from coronas.hierro.odds import emissary_race

        race = emissary_race(
            target,
            legitimacy=(first_legitimacy, second_legitimacy),
            shields=(first_shields, second_shields),
            attempts_per_turn=attempts,
        )
        rows = [
            ("P(first to roll wins the castle)", to_fraction(race.first_wins)),
            ("P(second to roll wins the castle)", to_fraction(race.second_wins)),
        ]
        if race.never:
            rows.append(("P(nobody ever wins it)", to_fraction(race.never)))
        answer = answer_lines(rows, f"Emissary race for a castle needing {target}+")
        if race.expected_turns is not None:
            t = race.expected_turns
            answer.text += f"\nexpected turns until decided: {t} ({float(t):.3f})"
            answer.html += f"<p>Expected turns until decided: {t} ({float(t):.3f})</p>"
        return answer


class HierroBattleModel(OddsModel):
    """Corona de Hierro: a battle fought to the end, shields played optimally by both sides.

    The answer has the exact chance, the reroll policy and a heatmap of P(attacker wins) for
    every army size up to ``heatmap_size`` with the same shields (the chosen battle boxed).
    """

    title = "Corona de Hierro: battle"
    heatmap_size = 6
    fields = (
        Field("attacker", "Attacking pawns", 3, low=1, high=8),
        Field("defender", "Defending pawns", 2, low=1, high=8),
        Field("attacker_shields", "Attacker's shields", 0, low=0, high=3),
        Field("defender_shields", "Defender's shields", 0, low=0, high=3),
        Field("cavalry_charge", "Attacker plays Cavalry charge", False, kind="bool"),
    )

    def compute(
        self,
        attacker: int,
        defender: int,
        attacker_shields: int,
        defender_shields: int,
        cavalry_charge: bool,
    ) -> Answer:
        from coronas.hierro.odds import battle, battle_table

        result = battle(
            attacker, defender, attacker_shields, defender_shields, cavalry_charge=cavalry_charge
        )
        win = to_fraction(result.attacker_wins)
        rows = [("P(attacker wins)", win), ("P(defender wins)", 1 - win)]
        answer = answer_lines(rows, result.title)
        card = ", Cavalry charge" if cavalry_charge else ""
        spent = (result.attacker_shields_spent.mean(), result.defender_shields_spent.mean())
        answer.text += f"\nshields spent on average: attacker {spent[0]}, defender {spent[1]}"
        answer.html += f"<p>Shields spent on average: attacker {spent[0]}, defender {spent[1]}.</p>"
        policy = result.policy.rows()
        # the first round: the starting pawns with every shield still in hand
        start = (f"{attacker} v {defender}", attacker_shields, defender_shields)
        first = [r for r in policy if tuple(r[:3]) == start]
        if first:
            answer.html += (
                "<p>When to reroll in the first round (pawns and shields as the battle "
                "starts):</p>"
                + _html_table(
                    ("pawns", "att. shields", "def. shields", "attacker", "defender"), first
                )
            )
            answer.text += "\nwhen to reroll in the first round: " + "; ".join(
                f"{r[0]} {r[1]}/{r[2]}: attacker {r[3]}, defender {r[4]}" for r in first
            )
        answer.values["policy"] = policy
        size = self.heatmap_size
        matrix = battle_table(
            size, size, attacker_shields, defender_shields, cavalry_charge=cavalry_charge
        )
        answer.figure = heatmap_figure(
            matrix,
            mark=(attacker, defender),
            title=f"P(attacker wins) in %, shields {attacker_shields} v {defender_shields}{card}",
        )
        return answer


def _html_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in r) + "</tr>" for r in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def heatmap_figure(
    table: Any, mark: tuple[int, int] | None = None, title: str | None = None
) -> Any:
    """A Corona de Hierro heatmap (:func:`coronas.plotting.odds.draw_battle_heatmap`) of a
    ``battle_table`` on its own figure; ``mark`` boxes one (attackers, defenders) cell."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    from coronas.plotting.odds import draw_battle_heatmap

    rows, cols = table.shape
    fig = Figure(figsize=(0.8 * cols + 2, 0.7 * rows + 1.4))
    ax = draw_battle_heatmap(table, ax=fig.add_subplot(), title=title)
    for label in ax.texts:  # the percentages in the cells, readable at the widget's size
        label.set_fontsize(11)
    if mark is not None and mark[0] <= rows and mark[1] <= cols:
        ax.add_patch(Rectangle((mark[1] - 1.5, mark[0] - 1.5), 1, 1, fill=False, lw=2.5))
    return fig


class BatallaBattleModel(OddsModel):
    """Batalla de Coronas: one battle, swords against shields, gold for paid rerolls."""

    title = "Batalla de Coronas: battle"
    fields = (
        Field("swords", "Attacker's swords", 2, low=1, high=5),
        Field("shields", "Defender's shields", 2, low=0, high=5),
        Field("attacker_gold", "Attacker's gold (-1: in debt)", 0, low=-1, high=7),
        Field("defender_gold", "Defender's gold (-1: in debt)", 0, low=-1, high=7),
    )

    def compute(self, swords: int, shields: int, attacker_gold: int, defender_gold: int) -> Answer:
        from coronas.batalla.odds import battle

        odds = battle(swords, shields, attacker_gold, defender_gold)
        rows = [
            ("P(gem) with optimal paid rerolls", to_fraction(odds.gem)),
            ("P(gem) if nobody rerolls", to_fraction(odds.gem_no_rerolls)),
        ]
        answer = answer_lines(rows, odds.title)
        ga, gd = odds.expected_gold_spent()
        answer.text += f"\nexpected gold spent: attacker {ga}, defender {gd}"
        answer.html += (
            f"<p>Expected gold spent: attacker {ga} ({float(ga):.2f}), "
            f"defender {gd} ({float(gd):.2f})</p>" + odds.table()._repr_html_()
        )
        if min(attacker_gold, defender_gold) < 0:
            note = (
                "Gold -1 is the bottom of the gold track: a kingdom can be pushed into debt "
                "(the Priest's golden church square sends it there), but nobody spends "
                "below 0, so it buys no reroll, like 0 gold."
            )
            answer.text += "\n" + note
            answer.html += f"<p style='color:#555'>{escape(note)}</p>"
        return answer


class CarolusDrawsModel(OddsModel):
    """Carolus Magnus: how likely are enough knights for one family among the next draws?"""

    title = "Carolus Magnus: knight draws"

    def __init__(self, **values: Any):
        from coronas.carolus import Rules

        families = Rules().families
        self.fields = (
            Field("draws", "Knights drawn", 3, low=1, high=12),
            Field("at_least", "At least this many", 2, low=0, high=12),
            Field("family", "For the family", families[0], kind="choice", options=families),
        )
        super().__init__(**values)

    def compute(self, draws: int, at_least: int, family: str) -> Answer:
        from coronas.carolus.odds import family_draw_distribution, knights_for_family

        p = to_fraction(knights_for_family(draws, at_least, family))
        answer = answer_lines(
            [(f"P(at least {at_least} of {draws} draws can go to {family}, jokers included)", p)]
        )
        answer.html += (
            family_draw_distribution(draws, family).table(f"{family} or joker")._repr_html_()
        )
        return answer
