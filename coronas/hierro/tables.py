"""The board as flat lookup tables for the rules, built once per board.

The rules ask the same questions of the board many times a turn (whose neighbours, which
banner, which shield): :class:`BoardInfo` answers them from plain dicts and tuples, and keeps
ready the action instances that listing the legal actions hands out again and again (actions
are immutable, and building them is most of the cost of listing legal actions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from coronas.hierro.actions import Move

if TYPE_CHECKING:
    from coronas.hierro.board import Board

__all__ = ["BoardInfo"]


class BoardInfo:
    """The board as flat lookup tables for the rules (built once per game)."""

    def __init__(self, board: Board, pawns: int = 8):
        self.board = board
        self.cities = tuple(sorted(board.cities))
        self.adj: dict[str, tuple[str, ...]] = {c: tuple(board.neighbors(c)) for c in self.cities}
        self.castles = tuple(sorted(board.castles))
        self.kind = {c: board.castles[c].kind for c in self.castles}
        self.army_target = {c: board.castles[c].army_target for c in self.castles}
        self.emissary_target = {c: board.castles[c].emissary_target for c in self.castles}
        self.shield = {c: board.castles[c].shield for c in self.castles}
        self.five_only = frozenset(c for c in self.castles if board.castles[c].five_players_only)
        self.start = tuple(c for c in self.castles if self.kind[c] == "start")
        self.neutral = tuple(c for c in self.castles if self.kind[c] == "neutral")
        self.royal = frozenset(c for c in self.castles if self.kind[c] == "royal")
        # A castle stands in the city of the same name.
        self.castle_set = frozenset(self.castles)
        # The Move actions out of each city, by number of pawns (built once: actions are
        # immutable, and building them is most of the cost of listing legal actions).
        self.moves = {
            c: [()] + [tuple(Move(c, nb, k) for nb in self.adj[c]) for k in range(1, pawns + 1)]
            for c in self.cities
        }
