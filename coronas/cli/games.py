"""Games and bots by name, and the arguments ``play`` and ``simulate`` share."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from coronas.cli._base import CommandError, count, whole
from coronas.formatting import score_text

__all__ = ["MAX_PLAYERS", "MAX_SEED", "bots_for", "find_game", "game_arguments", "make_bots"]

MAX_PLAYERS = 10
"""``--players`` at parse time; each game then allows its own range (hierro 3-5 ...)."""
MAX_SEED = 2**63 - 1


def _games() -> dict[str, type]:
    from coronas.engine import available_games

    return available_games()


def find_game(name: str) -> type:
    """The registered game class called ``name`` ("hierro", "carolus", "batalla")."""
    games = _games()
    if name not in games:
        import difflib

        near = difflib.get_close_matches(name, list(games), n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise CommandError(f"unknown game {name!r}{hint} (the games are {', '.join(games)})")
    return games[name]


def bots_for(game_cls: type) -> dict[str, Callable[[], Any]]:
    """The bots a game offers, by name (:meth:`~coronas.engine.Game.bots`)."""
    return game_cls.bots()


def players(game_cls: type, args: argparse.Namespace) -> int:
    """``--players``, else one per bot named, else the game's minimum; within the game's
    range."""
    if args.players is not None:
        n = args.players
    else:
        names = [n for n in args.bots.split(",") if n.strip()]
        n = len(names) if len(names) > 1 else game_cls.min_players
    low, high = game_cls.min_players, game_cls.max_players
    if not low <= n <= high:
        raise CommandError(f"{game_cls.name} is for {low}-{high} players, got {n}")
    return n


def make_bots(game_cls: type, spec: str, n_players: int) -> tuple[list[str], list[Any]]:
    """The bot names (one per seat) and fresh bots for ``--bots spec``."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise CommandError("--bots needs at least one bot name")
    if len(names) == 1:
        names = names * n_players
    if len(names) != n_players:
        raise CommandError(
            f"{len(names)} bots for {count(n_players, 'player')}: give one bot, or one per player"
        )
    return names, [_make_bot(game_cls, n) for n in names]


def _make_bot(game_cls: type, spec: str) -> Any:
    """A fresh bot for ``name`` or ``name:settings`` (``mcts:2000``, ``mcts:1s``)."""
    try:
        return game_cls.bot(spec)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


class _BotNames(argparse.Action):
    """``--bots mcts greedy greedy`` and ``--bots mcts,greedy,greedy`` alike: kept as one
    comma-separated text."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
        setattr(namespace, self.dest, ",".join(values))


def game_arguments(p: argparse.ArgumentParser, default_bots: str = "random") -> None:
    """GAME, --players, --bots, --seed and --rules."""
    p.add_argument("game", metavar="GAME", help="hierro, carolus or batalla")
    p.add_argument(
        "--players",
        type=whole(1, MAX_PLAYERS),
        help="number of players, within the game's range (hierro 3-5, carolus 2-3, batalla 2)",
    )
    p.add_argument(
        "--bots",
        default=default_bots,
        nargs="+",
        action=_BotNames,
        metavar="BOT",
        help="bot names, one for all seats or one per seat, separated by spaces or commas; "
        "mcts takes a budget: mcts:2000 (simulations), mcts:1s (seconds a decision) "
        f"(default {default_bots})",
    )
    p.add_argument(
        "--seed", type=whole(0, MAX_SEED), default=0, help="random seed, 0 to 2**63-1 (default 0)"
    )
    p.add_argument("--rules", metavar="FILE", help="a JSON rule file (fields that differ)")


def step_line(state: Any, action: Any, number: int, labels: Sequence[str] | None) -> str:
    """A line of a game's log: the step's number, who played it and what it was."""
    from coronas.engine import CHANCE

    player = state.current_player
    if player == CHANCE:
        who = "chance"
    else:
        who = state.player_name(player)
        if labels is not None:
            who += f" ({labels[player]})"
    return f"{number:5d}. {who}: {state.describe(action)}"


def print_end(state: Any, labels: Sequence[str] | None = None, show: bool = True) -> None:
    """The final position (unless ``show`` is false), the scores named as the game names
    them (``gems won: player 1 3; player 2 0``) and the winners; or who is to move when the
    game stopped before its end."""
    if show:
        print()
        print(state)
    print()
    if state.is_chance_node():
        print("the game is not over: a roll or draw is being made")
        return
    if not state.is_terminal():
        print(f"the game is not over: {state.player_name(state.current_player)} to move")
        return
    names = [
        state.player_name(p) + (f" ({labels[p]})" if labels else "")
        for p in range(state.num_players)
    ]
    scores = zip(names, state.scores(), strict=True)
    label = type(state.game).score_name
    print(f"{label}: " + "; ".join(f"{n} {score_text(s)}" for n, s in scores))
    print("winner(s): " + ", ".join(names[p] for p in state.winners()))
