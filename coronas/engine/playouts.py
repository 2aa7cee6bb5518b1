"""Where a playout stops short of the game's end: the one rule the tree search's cut playouts
(:mod:`coronas.engine.mcts`) and the estimator's cut games (:mod:`coronas.manygames.scoring`)
share, and the length after which any playout is scored where it stands."""

from __future__ import annotations

from collections.abc import Callable

from coronas.engine.state import State

__all__ = ["MAX_PLAYOUT", "MAX_UNSETTLED", "may_cut"]

MAX_UNSETTLED = 200
"""Actions a cut playout may run past its depth while waiting for a settled position."""
MAX_PLAYOUT = 20_000
"""Actions after which a playout that has not ended is scored where it stands: by the
evaluation if there is one, else as a draw between every seat (a policy that never errs at
random can go round in circles)."""


def may_cut(state: State, past: int, settled: Callable[[State], bool] | None) -> bool:
    """Whether a playout cut after its depth, ``past`` actions beyond it, may stop at
    ``state`` and be scored by the value model: at a position ``settled`` calls settled (any
    position without one), or :data:`MAX_UNSETTLED` actions past the depth whatever it is.
    What the search's cut playouts and the estimator's cut games share."""
    return settled is None or past >= MAX_UNSETTLED or settled(state)
