"""Jupyter widgets over the library: a stepper for any game, odds calculators, a map viewer.

Each widget is a thin ipywidgets view over a plain-Python model that holds the logic and is
tested without a browser. No rules live here: the models call the games' engines and
``odds`` modules. ipywidgets and matplotlib are imported only when a view is built.
"""

from coronas.widgets.calculators import Answer, Calculator, DiceModel, Field, OddsModel
from coronas.widgets.stepper import Stepper, StepperModel, parse_outcome

__all__ = [
    "Answer",
    "Calculator",
    "DiceModel",
    "Field",
    "OddsModel",
    "Stepper",
    "StepperModel",
    "parse_outcome",
]
