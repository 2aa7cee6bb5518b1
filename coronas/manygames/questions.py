"""The two questions a player asks of a position, as its methods: who wins from here
(:meth:`Questions.win_chances`) and which move (:meth:`Questions.rank_actions`).

A game's state class inherits :class:`Questions` beside :class:`~coronas.engine.State` (the
three games' states do), so that a player asks the position itself. The methods are doors
to :func:`~coronas.manygames.winchances.win_chances` and
:func:`~coronas.manygames.moves.rank_actions`, which generic code calls directly and which
answer for any state of any game; the estimator is imported the first time a position is
asked, so that importing a game stays light. The engine below knows nothing of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coronas.manygames.ranking import ActionRanking
    from coronas.manygames.winchances import WinChances

__all__ = ["Questions"]


class Questions:
    """The estimates from games that a position answers for: a mixin of a game's state."""

    __slots__ = ()

    def win_chances(self, bots: Any = None, **options: Any) -> WinChances:
        """Each seat's chance of winning the game from here, with its 95% interval, the
        games behind it and the assumption about the rest of the game; exact where the rest
        can be walked (:func:`coronas.manygames.winchances.win_chances`, which takes
        ``games``, ``precision``, ``time``, ``seed``, ``exact``, ``viewer``, ``executor``,
        ``jobs``)."""
        from coronas.manygames.winchances import win_chances

        return win_chances(self, bots, **options)

    def rank_actions(self, bots: Any = None, **options: Any) -> ActionRanking:
        """Every legal action of the seat to move with its chance of winning the game after
        it: at once by the value model, then from games, the best and the shortlist of moves
        the games cannot tell from it at the top (:func:`coronas.manygames.moves.rank_actions`:
        the same options as :meth:`win_chances`; the view is the mover's)."""
        from coronas.manygames.moves import rank_actions

        return rank_actions(self, bots, **options)
