"""The rule set of Batalla de Coronas: every number of the rulebook, and every ruling, as data.

The defaults are the printed rules; where the rulebook is silent or contradicts itself the
field says which reading is taken (see ``docs/rulings.md``, section Batalla de Coronas). A
group that plays differently changes a field::

    >>> from coronas.batalla import Rules
    >>> Rules().dragon_costs
    (2, 3, 4, 5, 6)
    >>> Rules(reroll_on_tie=True).reroll_on_tie
    True
    >>> Rules().gold_cap(gems_won=1)      # each gem won covers the top square of the gold track
    6
"""

from __future__ import annotations

import dataclasses

from coronas.engine import RuleSet
from coronas.engine.rules import bounded

__all__ = [
    "CHURCH_SQUARES",
    "COUNSELORS",
    "COUNSELOR_COLOURS",
    "COUNSELOR_NAMES",
    "Rules",
]

COUNSELORS: tuple[str, ...] = (
    "militia_commander",
    "master_of_coin",
    "sorcerer",
    "smith",
    "noble",
    "priest",
)
"""The six counselors, by the key used in actions and saved games."""

COUNSELOR_NAMES: dict[str, str] = {
    "militia_commander": "Militia Commander",
    "master_of_coin": "Master of Coin",
    "sorcerer": "Sorcerer",
    "smith": "Smith",
    "noble": "Noble",
    "priest": "Priest",
}
"""How the rulebook names each counselor."""

COUNSELOR_COLOURS: dict[str, str] = {
    "militia_commander": "blue",
    "master_of_coin": "yellow",
    "sorcerer": "red",
    "smith": "black",
    "noble": "purple",
    "priest": "white",
}
"""The colour of each counselor's pawn."""

CHURCH_SQUARES: tuple[str, ...] = ("golden", "blue", "red")
"""The church squares the clergy disc can visit (the golden door is not one of them):
golden sets the enemy's gold to the bottom of the track, blue takes an enemy sword, red takes
a level from the enemy's dragon."""

_REVISIT = ("not_twice_in_a_row", "never")
_CROSS = ("priest", "reroll")


@dataclasses.dataclass(frozen=True)
class Rules(RuleSet):
    """Every number and variant of Batalla de Coronas. Defaults: the rulebook and the rulings
    B1-B12 of ``docs/rulings.md`` (the ids the comments below cite).

    Tracks (B1): shields and swords run 0..``militia_max`` and start at ``shields_start`` /
    ``swords_start``; gold runs ``gold_min``..``gold_max`` and starts at ``gold_start``; the
    dragon climbs one level per entry of ``dragon_costs`` (the price of entering levels 1, 2,
    ...) and attacks on reaching the last level.
    """

    # -- dice and council -------------------------------------------------------------------
    die_faces: tuple[int, ...] = bounded((1, 2, 3, 4, 5, 6), 1, 6, length=(1, 36))
    """Faces of every die (decision dice, battle dice, roll-off). Chairs are numbered 1-6."""
    chairs: int = bounded(6, 1, 6)
    """Number of council chairs (one per counselor)."""

    # -- tracks (B1) --------------------------------------------------------------------------
    shields_start: int = bounded(2, 0, 20)
    swords_start: int = bounded(2, 0, 20)
    militia_max: int = bounded(5, 1, 20)
    gold_start: int = bounded(0, -20, 50)
    gold_min: int = bounded(-1, -20, 0)
    gold_max: int = bounded(7, 0, 50)
    gems_each: int = bounded(3, 1, 10)
    """Gems in each castle at the start; taking all of the enemy's wins (B9)."""
    gem_covers_gold: bool = True
    """B1: each gem won covers the top square of its winner's gold track (cap 7 - gems won)."""

    # -- prices -------------------------------------------------------------------------------
    militia_cost: int = bounded(3, 0, 50)
    """Gold for one shield or one sword."""
    dragon_costs: tuple[int, ...] = bounded((2, 3, 4, 5, 6), 1, 50, length=(1, 20))
    """B2: gold to enter dragon levels 1..5 (the rulebook prints only level 1 = 2)."""

    # -- counselors (B3-B5) and tokens (B11) ----------------------------------------------
    militia_commander_units: int = bounded(1, 0, 20)
    master_of_coin_gold: int = bounded(3, 0, 50)
    sorcerer_levels: int = bounded(1, 0, 20)
    smith_units: int = bounded(2, 1, 20)
    """Units the Smith token gives for the price of one."""
    crown_gold: int = bounded(3, 0, 50)
    crown_in_battle: bool = True
    """B11: the Crown is spent "at any time during your turn", its attack included, so its
    gold pays for the attacker's rerolls (a reroll is offered to an attacker who can pay only
    with the Crown). False: only outside the battle (the Example of a Game spends it "during
    his buying phase")."""
    battle_token_moment: bool = True
    """B11: whenever the defender is about to decide on a reroll, the attacker may first spend
    a token (the Cross to the golden square takes the defender's gold). False: the attacker
    spends tokens in the battle only at its own decisions (its reroll, its swords)."""
    council_bonus: bool = True
    """B5: the first player to fill every chair activates the Noble once more, at once."""
    cross_effect: str = "priest"
    """What spending the Cross does: "priest" (the Functions of the Tokens: move the clergy to
    another church square, with its effect) or "reroll" (the Example of a Game: one free
    battle reroll, for attacker or defender)."""
    cross_needs_priest: bool = False
    """Whether the Cross can move the clergy only once the Priest sits on the council."""

    # -- church (B6) --------------------------------------------------------------------------
    church_revisit: str = "not_twice_in_a_row"
    """"not_twice_in_a_row": the clergy moves to any square but the one it is on (B6);
    "never": only to squares it has not visited yet this game."""
    church_sword_loss: int = bounded(1, 0, 20)
    church_dragon_loss: int = bounded(1, 0, 20)

    # -- dragon (B2) --------------------------------------------------------------------------
    dragon_damage: int = bounded(4, 0, 20)
    """Shields the enemy loses when the dragon attacks (no defence)."""
    dragon_takes_gem: bool = True
    """B2: a dragon attack that leaves the enemy at 0 shields takes a gem, as a battle does."""

    # -- battle (B7, B8) ----------------------------------------------------------------------
    first_turn_attack: bool = False
    """The first player may not declare an attack on the first turn of the game."""
    min_swords_to_attack: int = bounded(1, 1, 20)
    reroll_first_cost: int = bounded(1, 0, 50)
    reroll_cost_step: int = bounded(1, 0, 50)
    """A player's k-th reroll in one battle costs first + (k-1) * step gold (B7: k gold)."""
    reroll_on_tie: bool = False
    """B7: on a tie nobody rerolls. True: the attacker, then the defender, may pay to reroll."""
    min_swords_spent: int = bounded(0, 0, 20)
    """B8: a winning attacker "can spend up to" the margin (its swords and the defender's
    shields bound it too), so from 0; 1 for a group that makes a won battle cost a sword."""

    def __post_init__(self) -> None:
        def need(ok: bool, what: str) -> None:
            if not ok:
                raise ValueError(what)

        need(len(self.die_faces) > 0, "die_faces: a die needs at least one face")
        # "If there is a tie, both players must continue rolling until they get different
        # results": with one face only, the roll for the first player would never end.
        need(
            len(set(self.die_faces)) >= 2,
            "die_faces: the die needs two different faces (a tie for the first player is "
            "rolled again until the dice differ)",
        )
        need(
            1 <= self.chairs <= len(COUNSELORS),
            f"chairs: expected 1 to {len(COUNSELORS)} (one counselor a chair)",
        )
        need(
            all(1 <= f <= self.chairs for f in self.die_faces),
            f"die_faces: every face must name a chair, 1 to {self.chairs}",
        )
        need(0 <= self.shields_start <= self.militia_max, "shields_start: outside 0..militia_max")
        need(0 <= self.swords_start <= self.militia_max, "swords_start: outside 0..militia_max")
        need(self.gold_min <= 0 <= self.gold_max, "gold_min/gold_max: the track must hold 0")
        need(self.gold_min <= self.gold_start <= self.gold_max, "gold_start: outside the track")
        need(self.gems_each >= 1, "gems_each: expected at least 1")
        need(self.militia_cost >= 0, "militia_cost: expected 0 or more")
        need(len(self.dragon_costs) >= 1, "dragon_costs: the dragon needs at least one level")
        need(all(c >= 1 for c in self.dragon_costs), "dragon_costs: expected 1 or more each")
        need(self.church_revisit in _REVISIT, f"church_revisit: expected one of {_REVISIT}")
        need(self.cross_effect in _CROSS, f"cross_effect: expected one of {_CROSS}")
        need(self.reroll_first_cost >= 0, "reroll_first_cost: expected 0 or more")
        need(self.reroll_cost_step >= 0, "reroll_cost_step: expected 0 or more")
        need(self.smith_units >= 1, "smith_units: expected at least 1")
        need(self.min_swords_to_attack >= 1, "min_swords_to_attack: expected at least 1")
        need(self.min_swords_spent >= 0, "min_swords_spent: expected 0 or more")

    # -- derived numbers ------------------------------------------------------------------
    @property
    def dragon_attack_level(self) -> int:
        """The level at which the dragon attacks and goes home (5 by default)."""
        return len(self.dragon_costs)

    def gold_cap(self, gems_won: int) -> int:
        """The most gold a player who has won ``gems_won`` gems may hold."""
        return self.gold_max - gems_won if self.gem_covers_gold else self.gold_max

    def reroll_cost(self, rerolls_done: int) -> int:
        """Gold for the next reroll by a player who has rerolled ``rerolls_done`` times."""
        return self.reroll_first_cost + rerolls_done * self.reroll_cost_step

    @property
    def faces(self) -> tuple[int, ...]:
        """The distinct die faces, sorted."""
        return tuple(sorted(set(self.die_faces)))
