"""Shared helpers for the Batalla de Coronas tests."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from coronas.batalla import Attack, Game, State


def position(**fields: Any) -> State:
    """A state set up at the start of player 1's turn (or as ``fields`` say)."""
    rules = fields.pop("rules", None)
    return Game(rules=rules, position=fields).new_initial_state()


def play_out(state: State, actions: Iterable[Any]) -> State:
    """Apply ``actions`` in order (each must be legal) and return the state."""
    for action in actions:
        state.apply(action)
    return state


def _battle_over(state: State) -> bool:
    return state.phase in ("roll", "over")


def battle_walk(state: State) -> Fraction:
    """P(the attacker takes a gem in the battle at hand, or in the one it is about to
    declare), by the engine's game-tree walk with the odds module's optimal choices."""
    from coronas.batalla.odds import battle_choice
    from coronas.engine import exact_distribution

    attacker, gems = state.player, state.gems_won[state.player]
    if state.phase == "buy":
        state = state.child(Attack())
    d = exact_distribution(
        state, battle_choice, lambda s: s.gems_won[attacker] > gems, stop=_battle_over
    )
    return d[True] if True in d else Fraction(0)


def battle_minimax(state: State) -> Fraction:
    """The same chance found without the odds module: every legal action of the attacker
    (tokens included) maximises it, every one of the defender minimises it."""
    attacker, gems = state.player, state.gems_won[state.player]
    memo: dict[Any, Fraction] = {}

    def value(s: State) -> Fraction:
        if _battle_over(s):
            return Fraction(int(s.gems_won[attacker] > gems))
        k = s.key()
        if k not in memo:
            if s.is_chance_node():
                memo[k] = sum((p * value(s.child(o)) for o, p in s.chance_outcomes()), Fraction(0))
            else:
                values = [value(s.child(a)) for a in s.legal_actions()]
                memo[k] = max(values) if s.current_player == attacker else min(values)
        return memo[k]

    return value(state.child(Attack()) if state.phase == "buy" else state)
