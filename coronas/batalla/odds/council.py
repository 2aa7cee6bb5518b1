"""Exact odds of one's own turn in Batalla de Coronas: the decision dice, gold and the dragon.

The two decision dice choose a council chair and bring gold (:func:`p_chair`,
:func:`decision_table`, :func:`gold_income`); :func:`dragon_turns` counts the turns until the
dragon attacks under a dragon-first way of playing.

>>> p_chair(3)                            # a die shows 3: 1 - (5/6)**2
11/36
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from coronas.batalla.rules import COUNSELORS, Rules
from coronas.bounds import whole
from coronas.dice import Die, ProbTable, rational
from coronas.formatting import listing

if TYPE_CHECKING:
    import sympy

__all__ = [
    "DEFAULT_COUNCIL",
    "chair_table",
    "decision_table",
    "dragon_policy_choice",
    "dragon_turn",
    "dragon_turns",
    "gold_income",
    "gold_table",
    "p_chair",
    "p_doubles",
]

ZERO, ONE = Fraction(0), Fraction(1)
MAX_HORIZON = 1000
"""The most turns :func:`dragon_turns` looks ahead."""


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules: expected a coronas.batalla.Rules, got {type(rules).__name__}")
    return rules


def _chair(name: str, chair: int | None, rules: Rules) -> None:
    if chair is not None:
        whole(name, chair, 1, rules.chairs)


def _position(level: int, gold: int, gems_won: int, rules: Rules) -> None:
    """Refuse a dragon level, gold or gems won that is not on its track."""
    whole("gems_won", gems_won, 0, rules.gems_each)
    whole("level", level, 0, rules.dragon_attack_level - 1)
    whole("gold", gold, rules.gold_min, max(rules.gold_min, rules.gold_cap(gems_won)))


def _face_pmf(rules: Rules) -> tuple[tuple[int, Fraction], ...]:
    return Die(rules.die_faces).items()


# --------------------------------------------------------------------------------------------
# The decision dice
# --------------------------------------------------------------------------------------------


def _pairs(rules: Rules) -> list[tuple[int, int, Fraction]]:
    """The 2d6 outcomes as unordered pairs (low, high) with their probabilities."""
    acc: dict[tuple[int, int], Fraction] = {}
    for a, pa in _face_pmf(rules):
        for b, pb in _face_pmf(rules):
            key = (min(a, b), max(a, b))
            acc[key] = acc.get(key, ZERO) + pa * pb
    return [(lo, hi, p) for (lo, hi), p in sorted(acc.items())]


def p_chair(
    chair: int, noble_chair: int | None = None, rules: Rules | None = None
) -> sympy.Rational | Fraction:
    """P(the counselor on ``chair`` can be activated this turn): a die shows ``chair``, or,
    with the Noble seated on ``noble_chair``, a die shows that chair.

    >>> p_chair(3, noble_chair=5)          # 1 - (4/6)**2
    5/9
    """
    rules = _rules(rules)
    _chair("chair", chair, rules)
    _chair("noble_chair", noble_chair, rules)
    wanted = {chair} if noble_chair is None else {chair, noble_chair}
    return rational(sum((p for lo, hi, p in _pairs(rules) if {lo, hi} & wanted), ZERO))


def p_doubles(rules: Rules | None = None) -> sympy.Rational | Fraction:
    """P(both decision dice show the same number): then that chair and that much gold."""
    rules = _rules(rules)
    return rational(sum((p for lo, hi, p in _pairs(rules) if lo == hi), ZERO))


def decision_table(rules: Rules | None = None) -> ProbTable:
    """The outcomes of the two decision dice: for each, the (council chair, gold) choices.

    36 ordered outcomes give 21 rows: doubles have probability 1/36, others 2/36.
    """
    rules = _rules(rules)
    rows = []
    for lo, hi, p in _pairs(rules):
        if lo == hi:
            choice = f"chair {lo} and {lo} gold (doubles)"
        else:
            choice = f"chair {lo} + {hi} gold, or chair {hi} + {lo} gold"
        rows.append((f"{lo} and {hi}", choice, p))
    return ProbTable(rows, header=("roll", "choices", "P"))


def chair_table(rules: Rules | None = None) -> ProbTable:
    """For each chair: P(it can be used this turn), alone and with the Noble on another chair."""
    rules = _rules(rules)
    rows = []
    for c in range(1, rules.chairs + 1):
        other = next(n for n in range(1, rules.chairs + 1) if n != c) if rules.chairs > 1 else c
        alone = sum((p for lo, hi, p in _pairs(rules) if c in (lo, hi)), ZERO)
        noble = sum((p for lo, hi, p in _pairs(rules) if {lo, hi} & {c, other}), ZERO)
        rows.append((f"chair {c}", alone, noble))
    return ProbTable(rows, header=("chair", "P(usable)", "P(usable or Noble's chair)"))


def gold_income(policy: str = "most", chair: int | None = None, rules: Rules | None = None) -> Die:
    """The gold a decision roll brings (before the cap), under a way of choosing the die:

    * ``"most"``: the higher die is gold (the lower goes to the council);
    * ``"least"``: the lower die is gold;
    * with ``chair``: whenever a die shows ``chair`` it goes to the council and the other die
      is gold; otherwise ``policy`` decides.

    >>> gold_income()[6]                   # P(the higher die is 6) = 11/36
    Fraction(11, 36)
    """
    rules = _rules(rules)
    _chair("chair", chair, rules)
    if policy not in ("most", "least"):
        raise ValueError(f"policy must be 'most' or 'least', got {policy!r}")
    out: list[tuple[int, Fraction]] = []
    for lo, hi, p in _pairs(rules):
        if chair is not None and chair in (lo, hi):
            gold = hi if lo == chair else lo
        else:
            gold = hi if policy == "most" else lo
        out.append((gold, p))
    return Die.from_pmf(out)


def gold_table(rules: Rules | None = None) -> ProbTable:
    """P(gold income = g) when taking the higher die and when taking the lower die."""
    rules = _rules(rules)
    most, least = gold_income("most", rules=rules), gold_income("least", rules=rules)
    return ProbTable(
        [(f"{g} gold", most[g], least[g]) for g in rules.faces],
        header=("income", "higher die is gold", "lower die is gold"),
    )


# --------------------------------------------------------------------------------------------
# The dragon
# --------------------------------------------------------------------------------------------

DEFAULT_COUNCIL: tuple[str | None, ...] = (
    "militia_commander", "smith", "sorcerer", "priest", "noble", "master_of_coin",
)  # fmt: skip
"""The council assumed by :func:`dragon_turns` unless told: chair 1 Militia Commander ...
chair 6 Master of Coin (the Sorcerer on 3, the Noble on 5)."""


def _council(
    council: Sequence[str | None] | Mapping[int, str] | None, rules: Rules
) -> tuple[str | None, ...]:
    if council is None:
        council = DEFAULT_COUNCIL
    if isinstance(council, Mapping):
        council = tuple(council.get(n) for n in range(1, rules.chairs + 1))
    council = tuple(council)
    seated = [c for c in council if c is not None]
    if (
        len(council) != rules.chairs
        or len(set(seated)) != len(seated)
        or not set(seated) <= set(COUNSELORS)
    ):
        raise ValueError(
            f"council must list {rules.chairs} chairs, each a distinct counselor from "
            f"{listing(COUNSELORS)} or None, got {council!r}"
        )
    return council


def _dragon_options(
    lo: int, hi: int, council: tuple[str | None, ...]
) -> list[tuple[str | None, int]]:
    """The (counselor activated, gold die) choices of a roll; None: an unused chair."""
    seated = [c for c in council if c is not None]
    out: list[tuple[str | None, int]] = []
    for chair, gold in {(lo, hi), (hi, lo)}:
        c = council[chair - 1]
        targets = [t for t in seated if t != "noble"] if c == "noble" else []
        out += [(t, gold) for t in targets] or [(c, gold)]
    return out


def _order(counselor: str | None) -> int:
    return COUNSELORS.index(counselor) if counselor in COUNSELORS else len(COUNSELORS)


def _dragon_step(
    level: int, gold: int, counselor: str | None, die_gold: int, rules: Rules, cap: int
) -> tuple[int, int, int]:
    """(dragon levels gained, level, gold) after the decision phase with this choice."""
    gold = min(gold + die_gold, cap)
    gained = 0
    if counselor == "sorcerer":
        gained = rules.sorcerer_levels
    elif counselor == "master_of_coin":
        gold = min(gold + rules.master_of_coin_gold, cap)
    return gained, level + gained, gold


def dragon_policy_choice(
    level: int,
    gold: int,
    lo: int,
    hi: int,
    council: Sequence[str | None] | Mapping[int, str] | None = None,
    gems_won: int = 0,
    rules: Rules | None = None,
) -> tuple[str | None, int]:
    """The decision of the dragon-first policy of :func:`dragon_turns` on roll (lo, hi): the
    (counselor to activate, gold die) that raises the dragon if possible, then gives the most
    gold. Ties go to the lower council die, then to the counselor listed first."""
    rules = _rules(rules)
    council = _council(council, rules)
    _position(level, gold, gems_won, rules)
    for name, face in (("lo", lo), ("hi", hi)):
        if face not in rules.faces:
            raise ValueError(
                f"{name}: expected a die face, one of {listing(rules.faces)}, got {face!r}"
            )
    cap = rules.gold_cap(gems_won)
    best, best_key = None, None
    for c, g in _dragon_options(lo, hi, council):
        gained, _, new_gold = _dragon_step(level, gold, c, g, rules, cap)
        key = (gained, new_gold, g, -_order(c))
        if best_key is None or key > best_key:
            best, best_key = (c, g), key
    return best


def _buy_dragon(level: int, gold: int, rules: Rules, attacked: bool = False) -> tuple:
    """Buy levels while the next one is affordable; (attacked, level, gold) at the end."""
    top = rules.dragon_attack_level
    while gold >= rules.dragon_costs[level]:
        gold -= rules.dragon_costs[level]
        level += 1
        if level >= top:
            attacked, level = True, 0
    return attacked, level, gold


def dragon_turn(
    level: int,
    gold: int,
    council: Sequence[str | None] | Mapping[int, str] | None = None,
    gems_won: int = 0,
    rules: Rules | None = None,
) -> Die:
    """One turn of the dragon-first policy (see :func:`dragon_turns`): the distribution of
    (attacked, level, gold) at the end of the buying phase."""
    rules = _rules(rules)
    council = _council(council, rules)
    _position(level, gold, gems_won, rules)
    cap = rules.gold_cap(gems_won)
    out: list[tuple[tuple[bool, int, int], Fraction]] = []
    for lo, hi, p in _pairs(rules):
        c, g = dragon_policy_choice(level, gold, lo, hi, council, gems_won, rules)
        _, lvl, gld = _dragon_step(level, gold, c, g, rules, cap)
        attacked = lvl >= rules.dragon_attack_level
        out.append((_buy_dragon(0 if attacked else lvl, gld, rules, attacked), p))
    return Die.from_pmf(out)


def dragon_turns(
    level: int = 0,
    gold: int = 0,
    council: Sequence[str | None] | Mapping[int, str] | None = None,
    gems_won: int = 0,
    horizon: int = 60,
    rules: Rules | None = None,
) -> Die:
    """The exact distribution of the number of own turns until the dragon attacks (1: during
    the coming turn), under the *dragon-first* policy:

    * decision phase: activate the Sorcerer if a die (or the Noble's die) allows it, else
      choose the activation that gives the most gold (the Master of Coin counts); the other
      die is gold;
    * buying phase: buy dragon levels while the next one is affordable, nothing else;
    * the enemy's Priest is ignored (nothing takes gold or dragon levels away).

    ``council`` lists the counselor on chairs 1-6 (default :data:`DEFAULT_COUNCIL`, a full
    council). A chair given as None stands for a counselor that touches neither gold nor the
    dragon (so a council without Sorcerer models saving up for every level). If the dragon
    may still not have attacked after ``horizon`` turns (a gold cap below a level's price),
    the remaining probability is the outcome ``None``. ``horizon`` is from 1 to 1000; level,
    gold and gems won must be on their tracks.

    >>> dragon_turns(level=4, gold=6)[1]   # level 5 costs 6: bought at once
    Fraction(1, 1)
    """
    rules = _rules(rules)
    council = _council(council, rules)
    _position(level, gold, gems_won, rules)
    whole("horizon", horizon, 1, MAX_HORIZON)
    dist: dict[tuple[int, int], Fraction] = {(level, gold): ONE}
    out: dict[int | None, Fraction] = {}
    steps: dict[tuple[int, int], Die] = {}
    for t in range(1, horizon + 1):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (lvl, gld), p in dist.items():
            if (lvl, gld) not in steps:
                steps[(lvl, gld)] = dragon_turn(lvl, gld, council, gems_won, rules)
            for (attacked, l2, g2), q in steps[(lvl, gld)].items():
                if attacked:
                    out[t] = out.get(t, ZERO) + p * q
                else:
                    nxt[(l2, g2)] = nxt.get((l2, g2), ZERO) + p * q
        dist = nxt
        if not dist:
            break
    rest = sum(dist.values(), ZERO)
    if rest:
        out[None] = rest
    return Die.from_pmf(out)
