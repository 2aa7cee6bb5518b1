"""Seats as people read and type them: the game's own names, or numbers counted from one.

Inside the Python API a seat is a 0-based index (``bots={0: ...}``, ``state.current_player``);
everything printed calls it by :meth:`State.player_name <coronas.engine.State.player_name>`
(a colour in Corona de Hierro, ``"player 1"`` ... elsewhere), and everything typed (the
command line's ``--viewer``, the stepper's seat choosers) is read back by :func:`parse_seat`,
which takes either that name or the number a person says, ``1`` for the first seat.
"""

from __future__ import annotations

from typing import Any

from coronas.engine.schema import short

__all__ = ["check_seat", "parse_seat", "seat_names"]


def seat_names(state_or_game: Any) -> list[str]:
    """The name of every seat in order, as the game prints them (``["red", "green",
    "blue"]``, ``["player 1", "player 2"]``). Takes a state or a game (whose initial state
    then names them)."""
    state = state_or_game
    if not hasattr(state, "player_name"):
        state = state_or_game.new_initial_state()
    return [state.player_name(p) for p in range(state.num_players)]


def parse_seat(state_or_game: Any, text: str) -> int:
    """The 0-based seat that ``text`` names: the game's name for it, in any case and
    spacing (``"Red"``, ``"player  2"``), or its number counted from one (``"1"`` is the
    first seat, the one :meth:`~coronas.engine.State.player_name` calls ``"player 1"``).

    Anything else raises :class:`ValueError` listing the seats, so a person can type one:
    ``no seat 'purple': the seats are red, green, blue (or 1 to 3)``.
    """
    names = seat_names(state_or_game)
    said = " ".join(str(text).split()).lower()
    for seat, name in enumerate(names):
        if said == " ".join(name.split()).lower():
            return seat
    if said.isascii() and said.isdigit() and 1 <= int(said) <= len(names):
        return int(said) - 1
    raise ValueError(
        f"no seat {str(text)!r}: the seats are {', '.join(names)} (or 1 to {len(names)})"
    )


def check_seat(state: Any, player: Any, field: str = "player") -> int:
    """``player`` itself if it is a seat of ``state`` as the Python API counts them (0-based);
    else :class:`ValueError` naming ``field`` and listing every seat by its index and its
    name, so that a reader who counts from one sees which is which:
    ``player: there is no seat 3; in Python the seats are 0 (red), 1 (green), 2 (blue)``."""
    n = state.num_players
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        listed = ", ".join(f"{p} ({state.player_name(p)})" for p in range(n))
        raise ValueError(
            f"{field}: there is no seat {short(player)}; in Python the seats are {listed}"
        )
    return player
