"""The protocol the three games share: games, states, actions, chance nodes, history.

Modelled on OpenSpiel's game API and python-chess's habits:

* ``Game(players=..., seed=..., rules=...)`` describes a match; ``game.new_initial_state()``
  gives a :class:`State`.
* A state is either a *chance node* (``is_chance_node()``; ``chance_outcomes()`` lists
  ``(outcome, Fraction)`` pairs summing to 1), a *decision node* for ``current_player``
  (``legal_actions()``), or *terminal* (``is_terminal()``, ``scores()``, ``winners()``).
* ``apply(action)`` changes the state in place (like ``push``) and records only what it
  changed; ``undo()`` plays that record backwards (like ``pop``); ``child(action)`` returns a
  changed copy. An action that is not legal raises :class:`IllegalAction` with the reason and
  leaves the state as it was.
* Chance outcomes are applied like actions, so a seeded RNG (``sample_chance``), an exact
  tree walk (:func:`exact_distribution`) or a person typing the number they rolled all drive
  the same code.
* ``to_json()`` / ``State.from_json(text)`` save and load a game as JSON with a format version:
  the game's parameters and the list of actions, replayed on load.

A game implements a :class:`State` subclass with a handful of ``_``-methods (see the class
docstring) and a :class:`Game` subclass naming it. Actions are frozen dataclasses whose fields
are ints, strings, ``None`` or tuples of those; list every action type in
``Game.action_types`` so saved games can be read back.

The modules: :mod:`~coronas.engine.errors`, :mod:`~coronas.engine.actions` (actions and their
JSON), :mod:`~coronas.engine.rules` (rule sets), :mod:`~coronas.engine.game` (matches and the
registry), :mod:`~coronas.engine.state` (the State), :mod:`~coronas.engine.advice` (the odds
of the move at hand), :mod:`~coronas.engine.journal` (the undo
log), :mod:`~coronas.engine.saving` (saved games), :mod:`~coronas.engine.search` (bots, playouts,
the exact tree walk), :mod:`~coronas.engine.chains` (exact answers where play has cycles),
:mod:`~coronas.engine.mcts` (Monte Carlo tree search), :mod:`~coronas.engine.playouts` (where a
playout may stop), :mod:`~coronas.engine.mctsbot` (the search as a bot, and its budgets),
:mod:`~coronas.engine.seats` (seats by name or by number counted from one, as people type them).
"""

from coronas.engine.actions import Action, action_from_dict, action_to_dict
from coronas.engine.advice import Odds
from coronas.engine.errors import IllegalAction, RulesError, SaveFileError
from coronas.engine.game import Game, available_games, register_game
from coronas.engine.mcts import Search
from coronas.engine.mcts import search as _search
from coronas.engine.mctsbot import MCTSBot
from coronas.engine.rules import RuleSet
from coronas.engine.saving import FORMAT_VERSION, load_game
from coronas.engine.search import (
    Bot,
    GameDidNotEnd,
    RandomBot,
    UnfinishedWalk,
    exact_distribution,
    play,
)
from coronas.engine.seats import parse_seat, seat_names
from coronas.engine.state import CHANCE, TERMINAL, State

# importing the submodule coronas.engine.search binds the package's name `search` to it:
# the name is the tree search function
search = _search

__all__ = [
    "CHANCE",
    "FORMAT_VERSION",
    "TERMINAL",
    "Action",
    "Bot",
    "Game",
    "GameDidNotEnd",
    "IllegalAction",
    "MCTSBot",
    "Odds",
    "RandomBot",
    "RuleSet",
    "RulesError",
    "SaveFileError",
    "Search",
    "State",
    "UnfinishedWalk",
    "action_from_dict",
    "action_to_dict",
    "available_games",
    "exact_distribution",
    "load_game",
    "parse_seat",
    "play",
    "register_game",
    "search",
    "seat_names",
]
