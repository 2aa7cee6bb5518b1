"""Many games: what coronas learns by playing a position or a game out many times.

The floor between the engine and the games: written over the engine's protocol and each
game's declared surface, it imports no game, and each game's state inherits from it the two
questions a player asks of a position (:mod:`~coronas.manygames.questions`):

* :mod:`~coronas.manygames.runner`: seeded games on any executor, resumed from a file
  (:mod:`~coronas.manygames.results`: the records and their file);
* :mod:`~coronas.manygames.simulate`, :mod:`~coronas.manygames.tournament`,
  :mod:`~coronas.manygames.ratings`: the analyst's summaries of bots' games;
* :mod:`~coronas.manygames.estimator`: the one estimator of a position's figures from games
  (batches, executors, views), behind :mod:`~coronas.manygames.winchances` (each seat's
  chance of winning) and :mod:`~coronas.manygames.moves` (every move ranked: judged at once
  by :mod:`~coronas.manygames.judgement`, read as a :mod:`~coronas.manygames.ranking`), with
  its budgets and stopping rules (:mod:`~coronas.manygames.budget`), its exact attempts
  (:mod:`~coronas.manygames.exact`) and its games scored beyond their result
  (:mod:`~coronas.manygames.scoring`: luck-adjusted or cut);
* :mod:`~coronas.manygames.intervals`: the intervals around what they estimate.

The modules used to sit at the package's top (``coronas.winchances``, ``coronas.runner``
and the rest); those names still import, as the very same modules.
"""
