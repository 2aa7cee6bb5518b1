"""The errors every game raises: one family, so callers can catch a game's refusals alike."""

from __future__ import annotations

__all__ = ["IllegalAction", "RulesError", "SaveFileError"]


class IllegalAction(ValueError):
    """An action that the rules do not allow now. The message says why, in the game's words."""


class SaveFileError(ValueError):
    """A saved game that cannot be read: the message names the problem."""


class RulesError(ValueError):
    """A rule set (or rule file) with a field that is missing, unknown or of the wrong kind."""
