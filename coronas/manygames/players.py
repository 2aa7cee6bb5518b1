"""Who plays the rest of the game in an estimate: one bot per seat from what the caller gave
(:func:`seat_bots`, the game's light player by default), and the assumption every figure from
games rests on, in a player's words (:func:`describe_bots`: "if every seat plays like the
learned player (policy)")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from coronas.engine.state import State

__all__ = ["DEFAULT_BOT", "PLAYER_WORDS", "bot_label", "describe_bots", "player_words", "seat_bots"]


PLAYER_WORDS = {
    "light": "the quick playout player",
    "greedy": "the greedy player",
    "policy": "the learned player",
    "mcts": "the search player",
    "random": "a player choosing at random",
}
"""The bots by name in a player's words (``mcts:200`` is the search player too)."""


def player_words(label: str) -> str:
    """``the learned player (policy)``: a bot's label in a player's words, its name kept."""
    words = PLAYER_WORDS.get(label.split(":")[0])
    return label if words is None else f"{words} ({label})"


def describe_bots(names: Sequence[str], labels: Sequence[str]) -> str:
    """``if every seat plays like the learned player (policy)`` or ``if red plays like the
    search player (mcts), green like the greedy player (greedy)...``: the assumption every
    figure from games rests on, in a player's words."""
    if len(set(labels)) == 1:
        return f"if every seat plays like {player_words(labels[0])}"
    return "if " + ", ".join(
        f"{n} plays like {player_words(b)}" if i == 0 else f"{n} like {player_words(b)}"
        for i, (n, b) in enumerate(zip(names, labels, strict=True))
    )


def bot_label(bot: Any) -> str:
    """How a bot is named: as it was given (``"mcts:500"``), else its ``name`` (``greedy``),
    else the function's or the class's name."""
    if isinstance(bot, str):
        return bot.strip()
    name = getattr(bot, "name", None)
    if isinstance(name, str) and name:
        return name
    return str(getattr(bot, "__name__", None) or type(bot).__name__)


DEFAULT_BOT = "light"
"""Who plays the rest of the game by default: each game's light playout policy (its
``playout.LightBot``), the fastest bot that plays sensibly (about 100 to 200 games a second on
one core, where a greedy bot plays 5 to 35 and a search bot one game in tens of seconds), so a
first figure comes within a second and a narrow one within a minute."""


def seat_bots(state: State, bots: Any) -> list[Any]:
    """One bot per seat from ``bots``: None (the game's :data:`DEFAULT_BOT`), a name
    (``"greedy"``, ``"mcts:200"``) or a bot for every seat, or a list of them, one per seat.
    Anything else is refused here, before a game is played: a :class:`TypeError` naming it
    (a bot is a name, an object with ``choose(state, rng)`` or a function ``f(state, rng)``)
    or the :class:`ValueError` of an unknown name."""
    n = state.num_players
    if bots is None:
        bots = DEFAULT_BOT if DEFAULT_BOT in state.game.bots() else "random"
    seated = list(bots) if isinstance(bots, (list, tuple)) else [bots] * n
    if len(seated) != n:
        raise ValueError(f"{len(seated)} bots for {n} seats: give one bot, or one per seat")
    for bot in seated:
        if not (isinstance(bot, str) or hasattr(bot, "choose") or callable(bot)):
            raise TypeError(
                "bots: a bot is a name such as 'greedy', an object with a "
                f"choose(state, rng) method or a function f(state, rng), got {bot!r}"
            )
    return [state.game.bot(b) if isinstance(b, str) else b for b in seated]
