"""The board as flat lookup tables for the rules, built once per board.

The rules ask the same questions of the board many times a turn (whose neighbours, which
banner, which shield): :class:`BoardInfo` answers them from plain dicts and tuples. It also
keeps ready the action instances that listing the legal actions hands out again and again:
actions are immutable, and building them is most of the cost of listing legal actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from coronas.hierro import actions
from coronas.hierro.actions import BARBARIANS, DECKS, ROME

if TYPE_CHECKING:
    from coronas.hierro.board import Board

__all__ = ["MAX_PLAYERS", "BoardInfo"]

MAX_PLAYERS = 5
"""The most players a game has: action tables are built for seats 0 to 4."""


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
        self._action_tables(pawns)

    def _action_tables(self, pawns: int) -> None:
        seats = range(MAX_PLAYERS)
        # moves_upto[c][k]: every Move of 1 to k pawns out of c, by number of pawns, then by
        # neighbour (the order legal_actions lists them in).
        self.moves_upto = {}
        for c in self.cities:
            upto: list[tuple[actions.Move, ...]] = [()]
            for k in range(1, pawns + 1):
                upto.append(upto[-1] + tuple(actions.Move(c, nb, k) for nb in self.adj[c]))
            self.moves_upto[c] = tuple(upto)
        self.attack_army = {c: tuple(actions.AttackArmy(c, q) for q in seats) for c in self.cities}
        self.cavalry = {
            c: tuple(actions.PlayCavalryCharge(c, q) for q in seats) for c in self.cities
        }
        # At a castle's gate: the assault, and the assault with Good fortune.
        self.gate = {
            c: (actions.AttackCastle(c), actions.PlayGoodFortune(c, "army")) for c in self.castles
        }
        self.recruit = {c: actions.Recruit(c) for c in self.castles}
        self.resistance = {
            c: tuple(actions.PlayResistance(c, q) for q in seats) for c in self.castles
        }
        self.take_hostage = {
            c: tuple(actions.TakeHostage(c, q) for q in seats) for c in self.castles
        }
        self.support = {
            c: (actions.RequestSupport(c), actions.PlayGoodFortune(c, "emissary"))
            for c in self.castles
        }
        places = (*self.castles, ROME, *BARBARIANS)
        self.send = {c: actions.SendEmissary(c) for c in places}
        self.retrieve = {c: actions.Retrieve(c) for c in places}
        # Neutral castles that take emissaries (all of them on a valid board).
        self.sendable = tuple(c for c in self.neutral if self.emissary_target[c] is not None)
        self.hostage = {c: tuple(actions.PlayHostage(q, c) for q in seats) for c in places}
        self.spy = tuple(actions.PlaySpy(q) for q in seats)
        self.request_alliance = tuple(actions.RequestAlliance(q) for q in seats)
        self.accept_alliance = tuple(actions.AcceptAlliance(q) for q in seats)
        self.retrieve_zone = tuple(actions.Retrieve(actions.ZONE, q) for q in seats)
        self.return_hostage = tuple(actions.ReturnHostage(q) for q in seats)
        self.take_card = {d: actions.TakeCard(d) for d in DECKS}
        self.draw_cards = {d: actions.DrawCards(d) for d in DECKS}
