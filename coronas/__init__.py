"""coronas: exact dice probabilities, rules engines and notebooks for three dice board games.

* :mod:`coronas.dice`: dice and exact distributions (no game knowledge);
* :mod:`coronas.engine`: the protocol every game follows (chance nodes, undo, save/load);
* :mod:`coronas.hierro`, :mod:`coronas.carolus`, :mod:`coronas.batalla`: the three games.
"""

__version__ = "0.1.0"
