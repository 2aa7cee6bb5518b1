"""The Batalla de Coronas match: its rule set, seed and an optional position set up by hand.

A position set up by hand starts the match from the middle of a game (for odds and puzzles);
:func:`check_position` checks each of its fields and names the one that is wrong.

>>> from coronas.batalla import Game
>>> check_position({"gold": [3, 9]}, Game().rules)
Traceback (most recent call last):
...
ValueError: position: gold[1]: expected a whole number from -1 to 7, got 9
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from coronas.batalla.actions import ACTION_TYPES, TOKENS
from coronas.batalla.rules import CHURCH_SQUARES, COUNSELORS, Rules
from coronas.engine import Game, register_game
from coronas.engine.game import lazy_state_class
from coronas.formatting import listing

if TYPE_CHECKING:
    from coronas.batalla.state import BatallaState

__all__ = ["BatallaGame", "check_position"]

_POSITION_KEYS = (
    "to_move", "turn", "phase", "shields", "swords", "gold", "dragon", "gems_won", "chairs",
    "clergy", "crown", "cross", "smith", "bonus_taken",
)  # fmt: skip


def check_position(pos: Any, rules: Rules) -> dict[str, Any]:
    """Validate a set-up position; raise ValueError naming the field and what was expected."""
    if not isinstance(pos, Mapping):
        raise ValueError(f"position: expected an object of fields, got {pos!r}")
    unknown = sorted(set(pos) - set(_POSITION_KEYS))
    if unknown:
        raise ValueError(
            f"position: unknown field(s) {listing(unknown, 'and')}; "
            f"the fields are {listing(_POSITION_KEYS, 'and')}"
        )
    out: dict[str, Any] = {}

    def whole(v: Any, lo: int, hi: int, where: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(
                f"position: {where}: expected a whole number from {lo} to {hi}, got {v!r}"
            )
        return v

    def holder(v: Any, where: str) -> int | None:
        if v is None:
            return None
        return whole(v, 0, 1, where)

    def pair(key: str, lo: int, hi: int) -> list[int]:
        v = pos[key]
        if not isinstance(v, (list, tuple)) or len(v) != 2:
            raise ValueError(
                f"position: {key}: expected a list of 2 values (one a player), got {v!r}"
            )
        return [whole(x, lo, hi, f"{key}[{i}]") for i, x in enumerate(v)]

    bounds = {
        "shields": (0, rules.militia_max),
        "swords": (0, rules.militia_max),
        "gold": (rules.gold_min, rules.gold_max),
        "dragon": (0, rules.dragon_attack_level - 1),
        "gems_won": (0, rules.gems_each - 1),
    }
    for key, (lo, hi) in bounds.items():
        if key in pos:
            out[key] = pair(key, lo, hi)
    if "to_move" in pos:
        out["to_move"] = whole(pos["to_move"], 0, 1, "to_move")
    if "turn" in pos:
        out["turn"] = whole(pos["turn"], 1, 10**9, "turn")
    if "phase" in pos:
        if pos["phase"] not in ("roll", "buy"):
            raise ValueError(f"position: phase: expected 'roll' or 'buy', got {pos['phase']!r}")
        out["phase"] = pos["phase"]
    if "chairs" in pos:
        chairs = pos["chairs"]
        if not isinstance(chairs, (list, tuple)) or len(chairs) != 2:
            raise ValueError("position: chairs: expected a list of 2 councils")
        out["chairs"] = []
        for i, council in enumerate(chairs):
            if not isinstance(council, (list, tuple)) or len(council) != rules.chairs:
                raise ValueError(
                    f"position: chairs[{i}]: expected {rules.chairs} chairs "
                    f"(a counselor or null each), got {council!r}"
                )
            seated = [c for c in council if c is not None]
            bad = [c for c in seated if c not in COUNSELORS]
            if bad or len(set(seated)) != len(seated):
                raise ValueError(
                    f"position: chairs[{i}]: expected distinct counselors from "
                    f"{listing(COUNSELORS)}, got {council!r}"
                )
            out["chairs"].append(tuple(council))
    if "clergy" in pos:
        clergy = pos["clergy"]
        if (
            not isinstance(clergy, (list, tuple))
            or len(clergy) != 2
            or any(c is not None and c not in CHURCH_SQUARES for c in clergy)
        ):
            raise ValueError(
                f"position: clergy: expected 2 church squares from "
                f"{listing(CHURCH_SQUARES)} or null (the door), got {clergy!r}"
            )
        out["clergy"] = list(clergy)
    for key in ("crown", "cross", "smith", "bonus_taken"):
        if key in pos:
            out[key] = holder(pos[key], key)
    if "gold" in out and "gems_won" in out:
        for i in range(2):
            if out["gold"][i] > rules.gold_cap(out["gems_won"][i]):
                raise ValueError(
                    f"position: gold[{i}]: more than the cap of "
                    f"{rules.gold_cap(out['gems_won'][i])} for a player with "
                    f"{out['gems_won'][i]} gems won"
                )
    return out


def place(state: BatallaState, pos: Mapping[str, Any]) -> None:
    """Put a set-up position (already checked by :func:`check_position`) on a fresh state."""
    for key in ("shields", "swords", "gold", "dragon", "gems_won", "clergy"):
        if key in pos:
            setattr(state, key, list(pos[key]))
    if "chairs" in pos:
        state.chairs = [tuple(c) for c in pos["chairs"]]
    state.visited = [(c,) if c else () for c in state.clergy]
    for token in TOKENS:
        setattr(state, token, pos.get(token))
    state.bonus_taken = pos.get("bonus_taken")
    state.player = pos.get("to_move", 0)
    state.turn = pos.get("turn", 2)
    state.opening = state.turn == 1
    state.phase = pos.get("phase", "roll")


@register_game
class BatallaGame(Game):
    """A match of Batalla de Coronas (2 players).

    ``Game(seed=..., rules=Rules(...))``; ``position`` (optional) starts the match from a
    set-up position instead of the roll-off, for odds and puzzles: a dict with any of
    ``to_move`` (0/1), ``turn`` (default 2), ``phase`` ("roll" or "buy"), two-value lists
    ``shields``, ``swords``, ``gold``, ``dragon``, ``gems_won``, ``clergy``, the councils
    ``chairs`` (two lists of 6 counselor keys or None), and token holders ``crown``,
    ``cross``, ``smith``. It is saved with the game, so such a match replays too.

    >>> state = BatallaGame(position={"swords": [3, 2], "shields": [2, 1], "phase": "buy"}
    ...                     ).new_initial_state()
    >>> state.phase, state.swords
    ('buy', [3, 2])
    """

    name = "batalla"
    score_name = "gems won"
    return_name = "wins"  # 1 for the winner, 0 for the loser
    state_class = lazy_state_class("coronas.batalla.state", "BatallaState")
    rules_class = Rules
    action_types = ACTION_TYPES
    min_players = 2
    max_players = 2
    extra_params = ("position",)

    def __init__(
        self,
        players: int | None = None,
        seed: int | None = None,
        rules: Rules | Mapping[str, Any] | str | None = None,
        position: Mapping[str, Any] | None = None,
    ):
        super().__init__(players=players, seed=seed, rules=rules)
        self.position = None if position is None else check_position(position, self.rules)

    @classmethod
    def declare(cls) -> Any:
        """Batalla's plug-in surface: its bots, the light playout, the fitted evaluation, and
        rankings that play every move out, halved (within 2 points of a reference's best at
        48 of 50 held-out decisions, against 47 for the learned player's likeliest)."""
        from coronas.batalla import bots, features, playout
        from coronas.engine.surface import GameSpec
        from coronas.manygames.judgement import EVERY_MOVE

        return GameSpec(
            bots=bots.BOTS,
            playout=playout.LightBot(),
            evaluate=features.evaluate,
            search=playout.SEARCH,
            learning=features.LEARNING,
            drawing=(_drawing, {}),
            ranking=EVERY_MOVE,
        )

    def params(self) -> dict[str, Any]:
        out = super().params()
        if self.position is not None:
            out["position"] = {
                k: (list(v) if isinstance(v, tuple) else v) for k, v in self.position.items()
            }
            if "chairs" in out["position"]:
                out["position"]["chairs"] = [list(c) for c in self.position["chairs"]]
        return out

    def new_initial_state(self) -> BatallaState:
        return self.state_class(self)


def _drawing() -> Any:
    from coronas.plotting.batalla import draw_boards

    return draw_boards
