"""Step through any game of the shared protocol: choose actions, roll or type dice, undo,
save the game to a file and load it back.

:class:`StepperModel` holds the logic in plain Python (tested without a browser);
:class:`Stepper` is the ipywidgets view over it. Nothing here knows a rule of any game:
everything comes from ``legal_actions()``, ``chance_outcomes()``, ``apply`` and ``undo``, and
games are saved and loaded with the engine's JSON (``State.save``, ``load_game``).

>>> from coronas.batalla import Game
>>> model = StepperModel(Game(seed=1).new_initial_state(), names=["player 1", "player 2"])
>>> outcome, p = model.chance_table()[0]
>>> print(outcome, p)
roll-off 1 against 2: player 2 goes first 1/30
>>> model.enter("3 3")              # a tie is rolled again: not an outcome
False
>>> print(model.message[:41])
'3 3' is not a possible outcome here; the
>>> model.enter("5 2"), model.log
(True, ['chance: roll-off 5 against 2: player 1 goes first  (probability 1/30 (3.33%))'])

The parts: :mod:`~coronas.widgets.stepper.outcomes` (typed outcomes, kinds of actions),
:mod:`~coronas.widgets.stepper.model` (the model), :mod:`~coronas.widgets.stepper.files`
(save and load), :mod:`~coronas.widgets.stepper.sealed` (a locked table's file, its secrets
sealed under a passphrase), :mod:`~coronas.widgets.stepper.odds` (the odds of the move at
hand, worded and cached per position), :mod:`~coronas.widgets.stepper.seats` (whose eyes are
shown: the open view, a seat's view of its secrets, pass and play, the locked table),
:mod:`~coronas.widgets.stepper.chances` (who wins from here, from those eyes) and
:mod:`~coronas.widgets.stepper.view` (the widgets).
"""

from coronas.formatting import score_text
from coronas.widgets.stepper.model import StepperModel
from coronas.widgets.stepper.odds import PositionOdds, odds_phrase, odds_record
from coronas.widgets.stepper.outcomes import action_group, group_actions, parse_outcome
from coronas.widgets.stepper.seats import OPEN, PASS_AND_PLAY
from coronas.widgets.stepper.view import Stepper

__all__ = [
    "OPEN",
    "PASS_AND_PLAY",
    "PositionOdds",
    "Stepper",
    "StepperModel",
    "action_group",
    "group_actions",
    "odds_phrase",
    "odds_record",
    "parse_outcome",
    "score_text",
]
