"""The companion's situations, game by game: each states its fields (a table of
:class:`~coronas.widgets.calculators.Field`), the rulebook's words, its answer and its picture.

The answers ask the games' ``odds`` functions and the inverse questions only search over those
functions' answers (:meth:`~coronas.widgets.situation.Situation.ask`), so no probability is
worked out here.

>>> s = CastleAttack(target=5, shields=1)
>>> s.answer().values["chance"]          # 5 or more on a six-sided die, one reroll: 1 - (2/3)**2
Fraction(5, 9)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from coronas.dice import to_fraction
from coronas.formatting import listing, percent, plural, readable_probability
from coronas.widgets.calculators import Answer, Field
from coronas.widgets.situation import GOAL, Reply, Situation, dice_html, die_face_html, fewest

__all__ = [
    "GAMES",
    "SITUATIONS",
    "BatallaAttack",
    "CarolusControl",
    "CarolusDraws",
    "CastleAttack",
    "Diplomacy",
    "HierroBattle",
]

NO_REROLL = "One roll: no shield to spend on a reroll."


def _hierro_rules() -> Any:
    from coronas.hierro.rules import Rules

    return Rules()


def _target_die(caption: str, colour: str, target: int) -> str:
    """A Corona de Hierro die under ``caption``, its faces of ``target`` or more lit."""
    faces = _hierro_rules().faces(colour)
    return f"<div>{caption}</div>" + dice_html(faces, colour, lambda f: f >= target)


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
        reply = Reply(f"to {what} with this action ({odds.colour} die)", odds.probability)
        reply.more.append(("one roll, no reroll", odds.single_roll))
        if shields:
            reply.advice.append(
                f"Roll; while the die shows less than {target}, spend a shield and roll again "
                f"(up to {plural(shields, 'reroll')}): a reroll costs no action. "
                f"Shields spent on average: {odds.expected_shields}."
            )
        else:
            reply.advice.append(NO_REROLL)
        if values["troops_inside"]:
            mean = odds.actions.mean
            if mean is not None:
                reply.advice.append(
                    f"Troops inside: two successes are needed; actions to take it, on "
                    f"average: {mean} ({float(mean):.2f})."
                )
        goal = self.goal()  # no shield count reaching it is a sentence of its own
        found = fewest(range(16), lambda k: self._odds(shields=k).probability, goal)
        reply.inverse.append(
            f"For {percent(goal, 0)}: spend up to {plural(found[0], 'shield')} "
            f"({readable_probability(found[1])})."
            if found
            else f"No number of shields reaches {percent(goal, 0)}."
        )
        by_army = {to_fraction(self._odds(army=n).probability) for n in (1, 2, 3)}
        if len(by_army) == 1:
            reply.inverse.append(
                "More pawns change nothing here: the red, yellow and green dice have the same "
                "faces."
            )
        else:
            self.ask(
                reply,
                range(1, 9),
                lambda n: self._odds(army=n).probability,
                lambda n, _: f"{plural(n, 'pawn')}.",
                "no army is big enough.",
                about=f" with {plural(shields, 'shield')}",
            )
        return reply.answer()

    def picture(self) -> str:
        rules = _hierro_rules()
        v = self.values
        colour = rules.good_fortune_die if v["good_fortune"] else rules.army_colour(int(v["army"]))
        return _target_die(
            f"The {colour} die: a roll of {v['target']} or more takes it", colour, v["target"]
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
    shown_when = dict.fromkeys(("rival_legitimacy", "rival_shields", "you_first"), "rival")

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
        if values["rival"]:
            reply = Reply("to win the castle's support before the rival", self._race())
            reply.more.append(("your one roll, no reroll", odds.single_roll))
            reply.advice.append(
                f"Each turn you roll up to {plural(_hierro_rules().actions_per_turn, 'time')}. "
                "Spend "
                "your shields on your first failed rolls: a reroll now comes before the "
                "rival's next chance."
            )
            chance: Callable[[int], Any] = lambda k: self._race(shields=k)  # noqa: E731
        else:
            reply = Reply(
                f"to win the support with this roll ({odds.colour} die)", odds.probability
            )
            reply.more.append(("one roll, no reroll", odds.single_roll))
            reply.advice.append(
                f"While the die shows less than {values['target']}, spend a shield and roll "
                f"again. Shields spent on average: {odds.expected_shields}."
                if values["shields"]
                else NO_REROLL
            )
            chance = lambda k: self._alone(shields=k).probability  # noqa: E731
        self.ask(
            reply,
            range(16),
            chance,
            lambda k, p: f"up to {plural(k, 'shield')} of yours ({p}).",
            "no number of your shields is enough.",
        )
        return reply.answer()

    def picture(self) -> str:
        v = self.values
        colour = _hierro_rules().band(int(v["legitimacy"]))
        return _target_die(
            f"Legitimacy {v['legitimacy']}: the {colour} die, {v['target']} or more",
            colour,
            v["target"],
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
        reply = Reply("the attacker wins the battle", win)
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
        column = battle_table(self.most_pawns, d, s, t, cavalry_charge=card)
        self.ask(
            reply,
            range(1, self.most_pawns + 1),
            lambda n: column[n - 1][d - 1],
            lambda n, p: f"attack with {plural(n, 'pawn')} ({p}).",
            f"not even {plural(self.most_pawns, 'pawn')} are enough.",
            about=f" against {plural(d, 'pawn')}",
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
        reply = Reply("to take a gem with this attack", to_fraction(odds.gem))
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
        self.ask(
            reply,
            range(0, 8),
            lambda g: self._odds(attacker_gold=g).gem,
            lambda g, p: f"{g} gold to pay for rerolls ({p}).",
            "no amount of gold is enough.",
        )
        self.ask(
            reply,
            range(1, 6),
            lambda n: self._odds(swords=n).gem,
            lambda n, p: f"{plural(n, 'sword')} ({p}).",
            "no number of swords is enough.",
            about=" with this gold",
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
        reply = Reply(
            f"at least {plural(k, 'knight')} of one family among {n} drawn (jokers count)",
            to_fraction(knights_for_family(n, k, family)),
        )
        self.ask(
            reply,
            range(0, 61),
            lambda m: knights_for_family(m, k, family),
            lambda m, p: f"draw {plural(m, 'knight')} ({p}).",
            "more than 60 draws.",
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
        reply = Reply(f"to {keep} control of the family in your next deployment", p)
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
        self.ask(
            reply,
            range(0, 9),
            lambda r: control_chance(self._state(reserve=r)[0], 0, family, rival_gain=gain),
            lambda r, p: f"keep {plural(r, 'knight')} of the family in reserve ({p}).",
            "no reserve is enough: one deployment cannot place the knights needed.",
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
