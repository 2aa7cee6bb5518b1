"""The companion for the table: a phone-sized app that answers "what are my odds?" mid-game.

Choose the game, then the situation; type in what is on the table; the exact chance shows at
once (fraction and percentage), with the advice where there is a decision (reroll or not, how
many shields) and the inverse question a player asks ("how many shields for 80%?"). Voilà
renders it as a web app (``coronas app``, docs/cli.md); no code is visible.

:class:`CompanionModel` is the logic, plain Python tested without a browser: each situation is
an :class:`~coronas.widgets.calculators.OddsModel` whose answer calls the games' ``odds``
functions, and the inverse questions only search over those functions' answers, so no
probability is worked out here. :class:`Companion` is the ipywidgets view: it wires buttons
and boxes to the model's calls.

>>> model = CompanionModel()
>>> model.choose("hierro", "castle")
>>> model.set(target=4, army=1, shields=0)
>>> model.answer().values["chance"]          # a 4 or more on a six-sided die: 3/6
Fraction(1, 2)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from html import escape
from typing import Any, ClassVar

from coronas.dice import exact_fractions, to_fraction
from coronas.formatting import is_long, listing, percent, plural, readable_probability
from coronas.widgets._render import GAME_TITLES, PlainTextFallback
from coronas.widgets.calculators import Answer, Field, OddsModel

__all__ = [
    "GAMES",
    "SITUATIONS",
    "BatallaAttack",
    "CarolusControl",
    "CarolusDraws",
    "CastleAttack",
    "Companion",
    "CompanionModel",
    "Diplomacy",
    "HierroBattle",
    "Situation",
    "dice_html",
]

GOAL = Field("goal", "Goal for the question below (%)", 80, low=5, high=95)
"""The chance the inverse question aims at ("how many shields for 80%?"), in percent."""

DIE_COLOURS = {"red": "#c62828", "yellow": "#f9a825", "green": "#2e7d32", "white": "#fafafa"}

# where the pips of each face sit on a 3 x 3 grid (row, column)
_PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (0, 2), (2, 0), (2, 2)],
    5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
    6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)],
}


def die_face_html(face: int, colour: str = "white", lit: bool = True) -> str:
    """One die face drawn in HTML (pips on a grid; a face beyond 6 is written as a number).
    ``lit`` False greys the face out: it is a face that does not give what is wanted."""
    back = DIE_COLOURS.get(colour, colour)
    pip = "#fff" if colour in ("red", "green") else "#222"
    style = (
        f"display:inline-grid;grid-template:repeat(3,1fr)/repeat(3,1fr);width:34px;height:34px;"
        f"padding:4px;margin:2px;border-radius:7px;border:1px solid #555;background:{back};"
        f"box-sizing:border-box;vertical-align:middle;opacity:{1 if lit else 0.28}"
    )
    if face not in _PIPS:
        return (
            f"<span title='{face}' style='{style};display:inline-flex;align-items:center;"
            f"justify-content:center;color:{pip};font-weight:bold'>{face}</span>"
        )
    dots = "".join(
        f"<span style='grid-area:{r + 1}/{c + 1};width:7px;height:7px;margin:auto;"
        f"border-radius:50%;background:{pip}'></span>"
        for r, c in _PIPS[face]
    )
    return f"<span title='{face}' style='{style}'>{dots}</span>"


def dice_html(
    faces: Sequence[int], colour: str = "white", lit: Callable[[int], bool] = bool
) -> str:
    """A die's faces side by side, those for which ``lit(face)`` is false greyed out."""
    return "".join(die_face_html(f, colour, bool(lit(f))) for f in faces)


def _quote(text: str) -> str:
    return f"<blockquote class='coronas-rule'>{escape(text)}</blockquote>"


# --------------------------------------------------------------------------------------------
# The situations (one odds model each)
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class _Reply:
    """What a situation answers, before it is written out as an :class:`Answer`."""

    question: str
    chance: Fraction
    more: list[tuple[str, Fraction]] = dataclasses.field(default_factory=list)
    advice: list[str] = dataclasses.field(default_factory=list)
    inverse: list[str] = dataclasses.field(default_factory=list)

    def answer(self) -> Answer:
        p = self.chance
        exact = "" if not is_long(p) else f"<div class='coronas-exact'>= {p}</div>"
        head = f"{p} ({percent(p)})" if not is_long(p) else percent(p)
        html = [
            f"<div class='coronas-chance' data-fraction='{p}'>{escape(head)}</div>",
            f"<div class='coronas-question'>{escape(self.question)}</div>{exact}",
        ]
        text = [f"{self.question}: {readable_probability(p)}"]
        if self.more:
            rows = "".join(
                f"<tr><td>{escape(label)}</td><td><b>{escape(readable_probability(q))}</b></td></tr>"
                for label, q in self.more
            )
            html.append(f"<table class='coronas-more'>{rows}</table>")
            text += [f"{label}: {readable_probability(q)}" for label, q in self.more]
        for kind, lines in (("advice", self.advice), ("inverse", self.inverse)):
            if lines:
                items = "".join(f"<li>{escape(line)}</li>" for line in lines)
                html.append(f"<ul class='coronas-{kind}'>{items}</ul>")
                text += lines
        values: dict[str, Any] = {"chance": p, "advice": self.advice, "inverse": self.inverse}
        values.update(dict(self.more))
        return Answer(text="\n".join(text), html="".join(html), values=values)


class Situation(OddsModel):
    """One question of the companion: its fields, the rulebook's words and a picture.

    ``compute`` asks the game's ``odds`` module (in plain Fractions, so no sympy is
    imported); ``shown(name)`` says whether an input matters with the current values (the
    view hides the others); ``picture()`` draws the dice involved.
    """

    game: ClassVar[str] = ""
    key: ClassVar[str] = ""
    label: ClassVar[str] = ""
    rule: ClassVar[str] = ""

    def answer(self) -> Answer:
        with exact_fractions():
            return super().answer()

    def shown(self, name: str) -> bool:
        """Whether the input ``name`` matters for the current values (default: all do)."""
        self.field(name)
        return True

    def picture(self) -> str:
        """HTML of the dice involved, the faces that succeed lit (default: none)."""
        return ""

    def goal(self) -> Fraction:
        """The inverse question's aim, as a probability."""
        return Fraction(int(self.values["goal"]), 100)


def _fewest(
    candidates: Sequence[int], chance: Callable[[int], Any], goal: Fraction
) -> tuple[int, Fraction] | None:
    """The first candidate whose chance (from an odds function) reaches ``goal``."""
    for n in candidates:
        p = to_fraction(chance(n))
        if p >= goal:
            return n, p
    return None


def _hierro_rules() -> Any:
    from coronas.hierro.rules import Rules

    return Rules()


class CastleAttack(Situation):
    """Corona de Hierro: an army attacks a castle (the left banner), rerolling with shields."""

    game = "hierro"
    key = "castle"
    label = "Castle"
    title = "Attack a castle"
    rule = (
        "If our roll equals or exceeds the number on the left banner of the castle [...] "
        "With a small army (1 pawn) they roll the red die, with a medium army (2 pawns) the "
        "yellow die, and with a large army (3 or more pawns) the green die. [...] They may use "
        "experience shields to roll again without spending actions."
    )
    fields = (
        Field("target", "Left banner (roll at least)", 4, low=1, high=6),
        Field("army", "Pawns in the army", 1, low=1, high=8),
        Field("shields", "Shields you will spend", 0, low=0, high=5),
        Field("troops_inside", "Owner's troops still inside", False, kind="bool"),
        Field("good_fortune", "Play Good fortune (green die)", False, kind="bool"),
        GOAL,
    )

    def _odds(self, **change: Any) -> Any:
        from coronas.hierro.odds import castle_assault

        v = {**self.values, **change}
        return castle_assault(
            v["target"],
            army=v["army"],
            shields=v["shields"],
            troops_inside=v["troops_inside"],
            good_fortune=v["good_fortune"],
        )

    def compute(self, **values: Any) -> Answer:
        odds = self._odds()
        shields, target = values["shields"], values["target"]
        what = "clear the troops inside" if values["troops_inside"] else "take the castle"
        reply = _Reply(f"to {what} with this action ({odds.colour} die)", odds.probability)
        reply.more.append(("one roll, no reroll", odds.single_roll))
        if shields:
            reply.advice.append(
                f"Roll; while the die shows less than {target}, spend a shield and roll again "
                f"(up to {plural(shields, 'reroll')}): a reroll costs no action. "
                f"Shields spent on average: {odds.expected_shields}."
            )
        else:
            reply.advice.append("One roll: no shield to spend on a reroll.")
        if values["troops_inside"]:
            mean = odds.actions.mean
            if mean is not None:
                reply.advice.append(
                    f"Troops inside: two successes are needed; actions to take it, on "
                    f"average: {mean} ({float(mean):.2f})."
                )
        goal = self.goal()
        found = _fewest(range(16), lambda k: self._odds(shields=k).probability, goal)
        if found:
            k, p = found
            reply.inverse.append(
                f"For {percent(goal, 0)}: spend up to {plural(k, 'shield')} "
                f"({readable_probability(p)})."
            )
        else:
            reply.inverse.append(f"No number of shields reaches {percent(goal, 0)}.")
        by_army = {to_fraction(self._odds(army=n).probability) for n in (1, 2, 3)}
        if len(by_army) == 1:
            reply.inverse.append(
                "More pawns change nothing here: the red, yellow and green dice have the same "
                "faces."
            )
        else:
            found = _fewest(range(1, 9), lambda n: self._odds(army=n).probability, goal)
            reply.inverse.append(
                f"For {percent(goal, 0)} with {plural(shields, 'shield')}: "
                + (f"{plural(found[0], 'pawn')}." if found else "no army is big enough.")
            )
        return reply.answer()

    def picture(self) -> str:
        rules = _hierro_rules()
        v = self.values
        colour = rules.good_fortune_die if v["good_fortune"] else rules.army_colour(int(v["army"]))
        faces = rules.faces(colour)
        return f"<div>The {colour} die: a roll of {v['target']} or more takes it</div>" + dice_html(
            faces, colour, lambda f: f >= v["target"]
        )


class Diplomacy(Situation):
    """Corona de Hierro: an emissary's roll for a castle's support, alone or racing a rival's
    emissary in the same castle."""

    game = "hierro"
    key = "diplomacy"
    label = "Diplomacy"
    title = "An emissary's roll (and the race)"
    rule = (
        "If our roll equals or exceeds the number on the right banner of the castle, we have "
        "obtained the castle's support. [...] If they are in the red band they roll the red "
        "die, if they are in the yellow band they roll the yellow die, and if they are in the "
        "green band they roll the green die. Each castle may hold up to two emissaries."
    )
    fields = (
        Field("target", "Right banner (roll at least)", 4, low=1, high=6),
        Field("legitimacy", "Your legitimacy level", 2, low=0, high=14),
        Field("shields", "Your shields", 0, low=0, high=5),
        Field("rival", "A rival's emissary is there too", False, kind="bool"),
        Field("rival_legitimacy", "Rival's legitimacy level", 2, low=0, high=14),
        Field("rival_shields", "Rival's shields", 0, low=0, high=5),
        Field("you_first", "You roll first", True, kind="bool"),
        GOAL,
    )

    def shown(self, name: str) -> bool:
        self.field(name)
        return bool(self.values["rival"]) or name not in (
            "rival_legitimacy",
            "rival_shields",
            "you_first",
        )

    def _race(self, **change: Any) -> Fraction:
        """P(you obtain the support first), from :func:`coronas.hierro.odds.emissary_race`."""
        from coronas.hierro.odds import emissary_race

        v = {**self.values, **change}
        you = (v["legitimacy"], v["shields"])
        rival = (v["rival_legitimacy"], v["rival_shields"])
        first, second = (you, rival) if v["you_first"] else (rival, you)
        race = emissary_race(
            v["target"], legitimacy=(first[0], second[0]), shields=(first[1], second[1])
        )
        return to_fraction(race.first_wins if v["you_first"] else race.second_wins)

    def _alone(self, **change: Any) -> Any:
        from coronas.hierro.odds import diplomacy

        v = {**self.values, **change}
        return diplomacy(v["target"], legitimacy=v["legitimacy"], shields=v["shields"])

    def compute(self, **values: Any) -> Answer:
        odds = self._alone()
        goal = self.goal()
        if values["rival"]:
            reply = _Reply("to win the castle's support before the rival", self._race())
            reply.more.append(("your one roll, no reroll", odds.single_roll))
            reply.advice.append(
                f"Each turn you roll up to {plural(_hierro_rules().actions_per_turn, 'time')}. "
                "Spend "
                "your shields on your first failed rolls: a reroll now comes before the "
                "rival's next chance."
            )
            chance: Callable[[int], Any] = lambda k: self._race(shields=k)  # noqa: E731
        else:
            reply = _Reply(
                f"to win the support with this roll ({odds.colour} die)", odds.probability
            )
            reply.more.append(("one roll, no reroll", odds.single_roll))
            reply.advice.append(
                f"While the die shows less than {values['target']}, spend a shield and roll "
                f"again. Shields spent on average: {odds.expected_shields}."
                if values["shields"]
                else "One roll: no shield to spend on a reroll."
            )
            chance = lambda k: self._alone(shields=k).probability  # noqa: E731
        found = _fewest(range(16), chance, goal)
        reply.inverse.append(
            f"For {percent(goal, 0)}: "
            + (
                f"up to {plural(found[0], 'shield')} of yours ({readable_probability(found[1])})."
                if found
                else "no number of your shields is enough."
            )
        )
        return reply.answer()

    def picture(self) -> str:
        rules = _hierro_rules()
        v = self.values
        colour = rules.band(int(v["legitimacy"]))
        return (
            f"<div>Legitimacy {v['legitimacy']}: the {colour} die, {v['target']} or more</div>"
            + dice_html(rules.faces(colour), colour, lambda f: f >= v["target"])
        )


class HierroBattle(Situation):
    """Corona de Hierro: two armies fight to the end; both sides play their shields best."""

    game = "hierro"
    key = "battle"
    label = "Battle"
    title = "A battle between two armies"
    rule = (
        "The attacker rolls first. If they are not satisfied with the result, they may use "
        "experience shields to roll again [...] Then the defender rolls their die and, if not "
        "satisfied with the result, may use experience shields to roll again. Ties go to the "
        "attacker; the loser of a roll loses a pawn."
    )
    fields = (
        Field("attacker", "Attacking pawns", 3, low=1, high=8),
        Field("defender", "Defending pawns", 2, low=1, high=8),
        Field("attacker_shields", "Attacker's shields", 0, low=0, high=5),
        Field("defender_shields", "Defender's shields", 0, low=0, high=5),
        Field("cavalry_charge", "Attacker plays Cavalry charge", False, kind="bool"),
        GOAL,
    )
    most_pawns = 12  # the inverse question looks for an army up to this size

    def compute(self, **values: Any) -> Answer:
        from coronas.hierro.odds import battle, battle_table

        a, d = values["attacker"], values["defender"]
        s, t = values["attacker_shields"], values["defender_shields"]
        card = values["cavalry_charge"]
        result = battle(a, d, s, t, cavalry_charge=card)
        win = to_fraction(result.attacker_wins)
        reply = _Reply("the attacker wins the battle", win)
        reply.more.append(("the defender wins", 1 - win))
        rows = {(r[0], r[1], r[2]): r[3:] for r in result.policy.rows()}
        att, dfd = rows.get((f"{a} v {d}", s, t), ("-", "-"))
        for side, held, rule in (("Attacker", s, att), ("Defender", t, dfd)):
            if not held:
                reply.advice.append(f"{side}: no shield to spend.")
            elif rule == "-":
                reply.advice.append(f"{side}: keep the first roll, a reroll cannot help.")
            else:
                by = "by the attacker's die, " if rule.startswith("after") else ""
                reply.advice.append(f"{side}, first roll: {by}{rule}.")
        spent = (result.attacker_shields_spent.mean(), result.defender_shields_spent.mean())
        if s or t:
            reply.advice.append(
                f"Shields spent on average: attacker {spent[0]} ({float(spent[0]):.2f}), "
                f"defender {spent[1]} ({float(spent[1]):.2f})."
            )
        goal = self.goal()
        column = battle_table(self.most_pawns, d, s, t, cavalry_charge=card)
        found = _fewest(range(1, self.most_pawns + 1), lambda n: column[n - 1][d - 1], goal)
        reply.inverse.append(
            f"For {percent(goal, 0)} against {plural(d, 'pawn')}: "
            + (
                f"attack with {plural(found[0], 'pawn')} ({readable_probability(found[1])})."
                if found
                else f"not even {plural(self.most_pawns, 'pawn')} are enough."
            )
        )
        return reply.answer()

    def picture(self) -> str:
        rules = _hierro_rules()
        v = self.values
        parts = []
        for side, n in (("Attacker", v["attacker"]), ("Defender", v["defender"])):
            colour = rules.army_colour(int(n))
            if side == "Attacker" and v["cavalry_charge"]:
                colour = rules.cavalry_die
            parts.append(
                f"<div>{side}, {plural(int(n), 'pawn')}: the {colour} die "
                + die_face_html(max(rules.faces(colour)), colour)
                + "</div>"
            )
        return "".join(parts)


class BatallaAttack(Situation):
    """Batalla de Coronas: an attack for a gem, swords against shields, rerolls paid in gold."""

    game = "batalla"
    key = "attack"
    label = "Attack"
    title = "An attack for a gem"
    rule = (
        "Whoever gets the highest result will win the battle. [...] The result of this "
        "subtraction will indicate how many swords the attacking kingdom must spend to reduce "
        "the shields of the defending kingdom. [...] The first time you reroll your die it "
        "will cost 1 gold. The second time 2 gold."
    )
    fields = (
        Field("swords", "Your swords (attacker)", 2, low=1, high=5),
        Field("shields", "Defender's shields", 2, low=0, high=5),
        Field("attacker_gold", "Your gold", 0, low=-1, high=7),
        Field("defender_gold", "Defender's gold", 0, low=-1, high=7),
        GOAL,
    )

    def _odds(self, **change: Any) -> Any:
        from coronas.batalla.odds import battle

        v = {**self.values, **change}
        return battle(v["swords"], v["shields"], v["attacker_gold"], v["defender_gold"])

    def compute(self, **values: Any) -> Answer:
        odds = self._odds()
        reply = _Reply("to take a gem with this attack", to_fraction(odds.gem))
        reply.more.append(("if nobody rerolls", to_fraction(odds.gem_no_rerolls)))
        # the first roll's decisions: the rows at the starting gold (no tokens here)
        start = f"{values['attacker_gold']} / {values['defender_gold']}"
        for side in ("attacker", "defender"):
            pay = [
                r[0]
                for r in odds.policy.rows
                if r[1] == start and r[2] == side and r[3].startswith("pay")
            ]
            who = "You" if side == "attacker" else "The defender"
            gold = values["attacker_gold" if side == "attacker" else "defender_gold"]
            if gold <= 0:
                reply.advice.append(f"{who}: no gold to pay for a reroll.")
            elif pay:
                reply.advice.append(
                    f"{who}: pay 1 gold and reroll at {listing(pay, 'or')} "
                    f"(dice: attacker vs defender); keep otherwise."
                )
            else:
                reply.advice.append(f"{who}: keep the first roll, a paid reroll cannot help.")
        ga, gd = odds.expected_gold_spent()
        reply.advice.append(f"Gold spent on average: you {ga}, the defender {gd}.")
        goal = self.goal()
        found = _fewest(range(0, 8), lambda g: self._odds(attacker_gold=g).gem, goal)
        reply.inverse.append(
            f"For {percent(goal, 0)}: "
            + (
                f"{found[0]} gold to pay for rerolls ({readable_probability(found[1])})."
                if found
                else "no amount of gold is enough."
            )
        )
        found = _fewest(range(1, 6), lambda n: self._odds(swords=n).gem, goal)
        reply.inverse.append(
            f"For {percent(goal, 0)} with this gold: "
            + (
                f"{plural(found[0], 'sword')} ({readable_probability(found[1])})."
                if found
                else "no number of swords is enough."
            )
        )
        return reply.answer()

    def picture(self) -> str:
        return (
            "<div>Both roll a six-sided die; the higher wins, the attacker's margin is the "
            "shields it can break</div>" + dice_html(range(1, 7), "white")
        )


def _carolus_rules() -> Any:
    from coronas.carolus.rules import Rules

    return Rules()


FAMILY_COLOURS = {"red": "#c62828", "yellow": "#f9a825", "green": "#2e7d32", "blue": "#1565c0"}


def _draw_picture(family: str) -> str:
    """The six outcomes of a draw: the five families and the joker, those for ``family`` lit."""
    rules = _carolus_rules()
    cells = []
    for name in (*rules.families, "joker"):
        lit = name in (family, "joker")
        colour = FAMILY_COLOURS.get(name, "#d81b60" if name == "pink" else "#777")
        mark = "★" if name == "joker" else ""
        cells.append(
            f"<span title='{name}' style='display:inline-flex;align-items:center;"
            f"justify-content:center;width:30px;height:30px;margin:2px;border-radius:50%;"
            f"background:{colour};color:#fff;opacity:{1 if lit else 0.28}'>{mark}</span>"
        )
    return f"<div>Each knight drawn: one of six, 1/6 each ({family} or joker lit)</div>" + "".join(
        cells
    )


class CarolusDraws(Situation):
    """Carolus Magnus: enough knights of one family (jokers included) among the next draws."""

    game = "carolus"
    key = "draws"
    label = "Draws"
    title = "Knights of one family in a replenish"
    rule = (
        "Each draw has six equally likely outcomes: one of the five families or a joker. A "
        "joker must be assigned to a family before proceeding. Replenish: draw three new "
        "knights with two players, or four with three players."
    )
    fields = (
        Field("draws", "Knights drawn", 4, low=1, high=12),
        Field("at_least", "Wanted for the family (at least)", 2, low=0, high=12),
        GOAL,
    )

    def compute(self, **values: Any) -> Answer:
        from coronas.carolus.odds import knights_for_family

        n, k = values["draws"], values["at_least"]
        family = _carolus_rules().families[0]
        reply = _Reply(
            f"at least {plural(k, 'knight')} of one family among {n} drawn (jokers count)",
            to_fraction(knights_for_family(n, k, family)),
        )
        goal = self.goal()
        found = _fewest(range(0, 61), lambda m: knights_for_family(m, k, family), goal)
        reply.inverse.append(
            f"For {percent(goal, 0)}: draw {plural(found[0], 'knight')} "
            f"({readable_probability(found[1])})."
            if found
            else f"For {percent(goal, 0)}: more than 60 draws."
        )
        reply.advice.append("The families are alike: the answer holds for any one of them.")
        return reply.answer()

    def picture(self) -> str:
        return _draw_picture(_carolus_rules().families[0])


class CarolusControl(Situation):
    """Carolus Magnus: will the next replenish let you take (or keep) control of a family?"""

    game = "carolus"
    key = "control"
    label = "Control"
    title = "Control of a family after the replenish"
    rule = (
        "A player controls a family when their court contains more knights of that colour "
        "than every other court. At a tie, the existing controller keeps control. With no "
        "existing controller, tied courts do not gain control."
    )
    fields = (
        Field("players", "Players", 2, low=2, high=3),
        Field("court", "Your court: knights of the family", 1, low=0, high=10),
        Field("rival_court", "Strongest rival court", 2, low=0, high=10),
        Field(
            "holder",
            "Who controls the family now",
            "rival",
            kind="choice",
            options=(("you", "you"), ("a rival", "rival"), ("nobody", "nobody")),
        ),
        Field("reserve", "Your reserve: knights of the family", 0, low=0, high=8),
        Field("rival_gain", "Knights the rival could add next turn", 0, low=0, high=4),
        GOAL,
    )

    def _state(self, **change: Any) -> Any:
        from coronas.carolus import Game
        from coronas.carolus.game import Position

        v = {**self.values, **change}
        family = _carolus_rules().families[0]
        players = int(v["players"])
        courts = ({family: v["court"]}, {family: v["rival_court"]}) + ({},) * (players - 2)
        reserves = ({family: v["reserve"]},) + ({},) * (players - 1)
        holder = {"you": {family: 0}, "rival": {family: 1}, "nobody": {}}[v["holder"]]
        if v["holder"] == "rival" and v["rival_court"] == 0:
            raise ValueError("a rival who controls the family has a knight of it at court")
        if v["holder"] == "you" and v["court"] == 0:
            raise ValueError("to control the family you need a knight of it at court")
        position = Position(courts=courts, reserves=reserves, control=holder)
        return Game(players=players, position=position).new_initial_state(), family

    def compute(self, **values: Any) -> Answer:
        from coronas.carolus.odds import control_chance, control_need

        state, family = self._state()
        gain = values["rival_gain"]
        rules = state.rules
        p = to_fraction(control_chance(state, 0, family, rival_gain=gain))
        need = control_need(state, 0, family, rival_gain=gain)
        deploy, draws = rules.deploy_count(state.num_players), rules.draw_count(state.num_players)
        keep = "keep" if values["holder"] == "you" else "take"
        reply = _Reply(f"to {keep} control of the family in your next deployment", p)
        if need == 0:
            reply.advice.append("You need no more knights at court: control is yours already.")
        elif need > deploy:
            reply.advice.append(
                f"You need {plural(need, 'knight')} at court, more than one deployment "
                f"({deploy}) can place."
            )
        else:
            reply.advice.append(
                f"Deploy {plural(need, 'knight')} of the family to your court; you hold "
                f"{values['reserve']} and draw {draws} (jokers count)."
            )
        goal = self.goal()
        found = _fewest(
            range(0, 9),
            lambda r: control_chance(self._state(reserve=r)[0], 0, family, rival_gain=gain),
            goal,
        )
        reply.inverse.append(
            f"For {percent(goal, 0)}: "
            + (
                f"keep {plural(found[0], 'knight')} of the family in reserve "
                f"({readable_probability(found[1])})."
                if found
                else "no reserve is enough: one deployment cannot place the knights needed."
            )
        )
        return reply.answer()

    def picture(self) -> str:
        return _draw_picture(_carolus_rules().families[0])


SITUATIONS: tuple[type[Situation], ...] = (
    CastleAttack,
    Diplomacy,
    HierroBattle,
    BatallaAttack,
    CarolusDraws,
    CarolusControl,
)
"""Every situation, in the order the app lists them."""

GAMES: tuple[str, ...] = ("hierro", "batalla", "carolus")
"""The games, by short name, in the app's order (``GAME_TITLES`` names them)."""


# --------------------------------------------------------------------------------------------
# The model of the whole app
# --------------------------------------------------------------------------------------------


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
            options=[
                (
                    GAME_TITLES[g]
                    .replace("Corona de ", "")
                    .replace(" de Coronas", "")
                    .replace(" Magnus", ""),
                    g,
                )
                for g in GAMES
            ],
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
            step = 5 if f.name == "goal" else 1
            box = w.BoundedIntText(
                value=value, min=f.low, max=f.high, step=step, layout=w.Layout(width="4.2em")
            )
            minus = w.Button(description="−", layout=w.Layout(width="48px", height="44px"))
            plus = w.Button(description="+", layout=w.Layout(width="48px", height="44px"))
            minus.add_class("coronas-minus")
            plus.add_class("coronas-plus")

            def nudge(by: int) -> Callable[[Any], None]:
                def click(_: Any) -> None:
                    box.value = max(f.low, min(f.high, box.value + by))

                return click

            minus.on_click(nudge(-step))
            plus.on_click(nudge(step))
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
