"""Corona de Hierro: 3-5 players, a road map of northern Italy, coloured dice and castles."""

from coronas.hierro.rules import Rules

__all__ = ["Rules"]
