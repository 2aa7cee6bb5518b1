"""The learned player: :class:`PolicyBot`, a game's move prior played at once (``policy`` in
every game's bots), at light cost: one score per legal action, no playout, no search.

>>> import random
>>> from coronas.batalla import Game
>>> state = Game(seed=3).new_initial_state()
>>> while state.is_chance_node():
...     state.apply(state.sample_chance(3))
>>> PolicyBot().choose(state, random.Random(0)) in state.legal_actions()
True
"""

from __future__ import annotations

import random
import re
from typing import Any

from coronas.engine.learning import MovePrior, is_shipped, learning_of, softmax

__all__ = ["PolicyBot"]


class PolicyBot:
    """A fast learned player: the move prior's most likely action (ties at random), or, with
    a ``temperature`` above 0, an action drawn with probability proportional to
    ``p ** (1 / temperature)``. It reads what the move prior's features read: the position as
    the seat to move may see it, and the legal actions.

    ``prior`` is a :class:`MovePrior`, or None for the shipped prior of the state's game
    (looked up at the first decision, so the bot pickles small).
    """

    name = "policy"

    def __init__(self, temperature: float = 0.0, prior: MovePrior | None = None):
        if not (isinstance(temperature, int | float) and 0 <= temperature <= 100):
            raise ValueError(f"temperature is a number from 0 to 100, got {temperature!r}")
        self.temperature = float(temperature)
        self.prior = prior

    @classmethod
    def from_spec(cls, text: str) -> PolicyBot:
        """``policy:0.5``: a temperature from 0 to 100, in the digits 0-9 (``float`` alone
        would also take ``1_0``, ``1e1`` and other scripts' digits)."""
        if not re.fullmatch(r"[0-9]{1,3}(?:\.[0-9]{0,12})?|\.[0-9]{1,12}", text.strip(), re.ASCII):
            raise ValueError(
                f"expected a temperature from 0 to 100 such as 0.5, in the digits 0-9, got {text!r}"
            )
        return cls(float(text))

    def choose(self, state: Any, rng: random.Random) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        prior = self.prior
        if prior is None:
            prior = self.prior = learning_of(state.game).move_prior()
        scores = prior.scores(state, legal)
        if self.temperature > 0:
            p = softmax([s / self.temperature for s in scores])
            return rng.choices(legal, weights=p)[0]
        best = max(scores)
        top = [a for a, s in zip(legal, scores, strict=True) if s >= best - 1e-12]
        return top[0] if len(top) == 1 else rng.choice(top)

    def __getstate__(self) -> dict[str, Any]:
        # The shipped prior is looked up again in another process; one given by hand goes.
        shipped = self.prior is not None and is_shipped(self.prior)
        return {"temperature": self.temperature, "prior": None if shipped else self.prior}

    def __repr__(self) -> str:
        return f"PolicyBot(temperature={self.temperature})"
