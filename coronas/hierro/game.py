"""The Corona de Hierro match: players, seed, rule set and board.

>>> from coronas.hierro import Game
>>> game = Game(players=4, seed=1)
>>> state = game.new_initial_state()
>>> state.step, state.current_player
('choose_castle', 0)
>>> [a.castle for a in state.legal_actions()]   # Lucca only with 5 players
['Brescia', 'Friuli', 'Ivrea', 'Spoleto']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from coronas import engine
from coronas.engine import RulesError, register_game
from coronas.hierro.actions import ACTION_TYPES, Roll
from coronas.hierro.board import Board, load_board
from coronas.hierro.positions import position_kwargs, position_record
from coronas.hierro.rules import DIE_COLOURS, Rules
from coronas.hierro.state import BoardInfo, HierroState

__all__ = ["Game"]


@register_game
class Game(engine.Game):
    """A game of Corona de Hierro for 3 to 5 players.

    ``board`` is the default board (None), a :class:`~coronas.hierro.board.Board`, or the path
    of a board file. A saved game records the default board by name and any other board by
    its content, so it loads back equal.
    """

    name = "hierro"
    score_name = return_name = "VP"
    state_class = HierroState
    rules_class = Rules
    action_types = ACTION_TYPES
    min_players = 3
    max_players = 5
    extra_params = ("board", "position")
    has_secrets = True  # loyalty cards and hands

    @classmethod
    def declare(cls) -> Any:
        """Corona de Hierro's plug-in surface: its bots, the light playout without random
        moves, the fitted evaluation scored at settled positions, and rankings that play
        every move out, halved down to two: the move prior, which reads little more than the
        kind of a move, left the best move out of the games at 20 of 50 held-out decisions, and
        halving every move picked within 2 points of a reference's best at 42 of 50, against
        27. Two moves sharing the last part instead of three left every move within 5 points
        or dropped at 54 of 62 decisions against 47, and picked as well (47 of 62 within 2
        points, both ways; docs/performance.md). Its turns (``playout.turn_of``) let a ranking
        asked to (``by_turns``) draw its compared games by them."""
        from coronas.engine.surface import GameSpec
        from coronas.hierro import bots, features, playout
        from coronas.manygames.judgement import EVERY_MOVE

        return GameSpec(
            bots=bots.BOTS,
            playout=playout.PLAYOUT,
            evaluate=features.evaluate,
            settled=playout.settled,
            search=playout.SEARCH,
            learning=features.LEARNING,
            drawing=(_drawing, {"figsize": (9, 8)}),
            ranking={**EVERY_MOVE, "last_kept": 2},
            turn=playout.turn_of,
        )

    def __init__(
        self,
        players: int | None = None,
        seed: int | None = None,
        rules: Rules | Mapping[str, Any] | str | Path | None = None,
        board: Board | Mapping[str, Any] | str | Path | None = None,
        position: Mapping[str, Any] | None = None,
    ):
        super().__init__(players=players, seed=seed, rules=rules)
        if board is None or board == "default":
            board = load_board()
        elif isinstance(board, (str, Path)):
            board = load_board(board)
        elif isinstance(board, Mapping):
            board = Board.from_dict(board, source="saved board")
        elif not isinstance(board, Board):
            raise ValueError(f"board must be a Board, a board file path or None, got {board!r}")
        self.board = board
        self.info = _board_info(board, self.rules.army_pawns)
        self.colours = tuple(self.rules.colours)
        self.roll_outcomes = {
            colour: tuple(
                (Roll(v), Fraction(k, len(self.rules.faces(colour))))
                for v, k in sorted(Counter(self.rules.faces(colour)).items())
            )
            for colour in DIE_COLOURS
        }
        r = self.rules
        dealt = self.num_players * (r.draft_draw if r.advanced else 1)
        for kind in ("military", "political"):
            if sum(r.deck(kind).values()) <= dealt:
                raise ValueError(
                    f"the {kind} deck needs more than the {dealt} cards dealt at the start"
                )
        if r.shields_start * self.num_players > r.shields_total:
            raise RulesError(
                f"{r.shields_total} experience shields cannot give "
                f"{r.shields_start} to each of {self.num_players} players"
            )
        starts = len(board.start_castles(players=self.num_players))
        if starts < self.num_players:
            raise ValueError(
                f"the board has {starts} starting castles open to {self.num_players} players"
            )
        self.start_position = None if position is None else position_record(position)
        if self.start_position is not None:
            try:  # a position the rules refuse is refused here, not at the first state
                self.new_initial_state()
            except ValueError as exc:
                raise ValueError(f"position: {exc}") from None

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the board's tables (``info``), which the receiving process builds
        once per board and keeps, rather than copying them with every state sent."""
        return {k: v for k, v in self.__dict__.items() if k != "info"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.info = _board_info(self.board, self.rules.army_pawns)

    def _default_board(self) -> bool:
        default = load_board()
        return self.board is default or self.board == default

    def params(self) -> dict[str, Any]:
        out = super().params()
        out["board"] = "default" if self._default_board() else self.board.to_dict()
        if self.start_position is not None:
            out["position"] = self.start_position
        return out

    @classmethod
    def upgrade_action(cls, raw: Any, version: int) -> list[Any]:
        """Format 1 played Spy in one action, ``PlaySpy(target, discard)``; today it is
        ``PlaySpy(target)`` and then ``SpyDiscard(card)``, once the cards are seen."""
        old = version < 2 and isinstance(raw, dict) and raw.get("type") == "PlaySpy"
        if old and "discard" in raw:
            spy = {k: v for k, v in raw.items() if k != "discard"}
            return [spy, {"type": "SpyDiscard", "card": raw["discard"]}]
        return [raw]

    def new_initial_state(self) -> HierroState:
        """The start of the game, or the position this match starts from if it has one."""
        if self.start_position is None:
            return HierroState(self)
        return HierroState.from_position(self, **position_kwargs(self.start_position))

    def position(self, **kwargs: Any) -> HierroState:
        """A position set up by hand (see :meth:`HierroState.from_position` for the keywords),
        as the start of a match like this one: its game records the position, so the state
        saves and loads like any game, with the moves played from there."""
        match = type(self)(
            players=self.num_players,
            seed=self.seed,
            rules=self.rules,
            board=self.board,
            position=kwargs,
        )
        return match.new_initial_state()


# Lookup tables per board (the default board is loaded once, so its tables are built once).
# Keyed by id; the board itself is kept alongside so the id cannot be reused.
_INFO: dict[tuple[int, int], tuple[Board, BoardInfo]] = {}


def _board_info(board: Board, pawns: int) -> BoardInfo:
    key = (id(board), pawns)
    hit = _INFO.get(key)
    if hit is None or hit[0] is not board:
        if len(_INFO) > 32:
            _INFO.clear()
        hit = _INFO[key] = (board, BoardInfo(board, pawns=pawns))
    return hit[1]


def _drawing() -> Any:
    from coronas.plotting.hierro import draw_board

    return draw_board
