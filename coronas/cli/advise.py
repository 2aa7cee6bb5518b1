"""``coronas advise FILE``: the position of a saved game and the exact odds of every move.

The file is a game saved by the stepper's Save, ``coronas play --save`` or ``State.save``.
The answer is a short paragraph on the position (the game, who is to move, what is being
done, the numbers the game names), then: at a decision, every legal action of the player to
move grouped by kind as the stepper groups them, each dice action with its exact chance of
success; at a reroll decision, the chance of each choice, the best marked; at a chance node,
the odds of the roll being made and its possible outcomes. ``--json`` gives the same as data,
each probability as ``{"fraction": "19/27", "float": 0.7037...}``.

``--win-chances`` adds who is likely to win the whole game from the position: each seat's chance
with its 95% interval, the number of games behind it and how the rest of the game is assumed to be
played, exact where it can be walked; at a decision, every legal action of the player to move ranked
by its chance of winning the game (:mod:`~coronas.manygames.winchances`,
:mod:`~coronas.manygames.moves`). ``--time S`` (default 10) bounds all of it, exact attempts
included: the command ends within about ``S`` seconds of its start, loading and odds
counted, with fewer games (and wider intervals) when time is short. The options of the games
are refused without ``--win-chances``.
"""

from __future__ import annotations

import argparse
import json
import textwrap
from pathlib import Path
from typing import Any

from coronas.cli._base import CommandError, count, cpu_count, cut, fmt, whole
from coronas.formatting import score_text

__all__ = ["MAX_OUTCOMES_SHOWN", "add_parser", "advice", "run"]

MAX_OUTCOMES_SHOWN = 24
"""How many outcomes of a chance node the text lists (``--json`` lists them all)."""

WIDTH = 92


def _to_move(state: Any) -> str:
    """Who is to move, in words."""
    if state.is_terminal():
        return f"the game is over after {count(len(state.history), 'step')}"
    if state.is_chance_node():
        n = len(state.chance_outcomes())
        # the outcomes listed below: faces of a die that play alike are one outcome
        if n > MAX_OUTCOMES_SHOWN:
            listed = f"its {n} outcomes, the first {MAX_OUTCOMES_SHOWN} listed below"
        else:
            listed = f"its {count(n, 'outcome')} {'is' if n == 1 else 'are'} listed below"
        return f"a roll or draw is being made; {listed}"
    return f"{state.player_name(state.current_player)} is to move"


def advice(state: Any) -> dict[str, Any]:
    """Everything ``coronas advise`` says about ``state``, as JSON-ready data: the game, the
    position's description, who is to move, the pending odds (roll or reroll advice), the
    legal actions by kind with their odds, the chance outcomes, and the scores at the end."""
    from coronas.engine import CHANCE, TERMINAL
    from coronas.widgets.stepper.odds import PositionOdds, exact_record, odds_record
    from coronas.widgets.stepper.outcomes import group_actions

    odds = PositionOdds()
    player = state.current_player
    text = str(state).strip()
    data: dict[str, Any] = {
        "game": state.game.name,
        "players": state.num_players,
        "seed": state.game.seed,
        "steps": len(state.history),
        "player": None if player < 0 else player,
        "to_move": None if player < 0 else state.player_name(player),
        "chance": player == CHANCE,
        "terminal": player == TERMINAL,
        "situation": text.splitlines()[0] if text else "",
        "summary": "",
        "position": text,
        "odds": None if player == TERMINAL else odds_record(odds.get(state)),
        "groups": [],
        "outcomes": [],
        "scores": None,
        "score_name": None,
        "winners": None,
    }
    for kind, actions in group_actions(state.legal_actions()).items():
        listed = [
            {"action": state.describe(a), "odds": odds_record(odds.get(state, a))} for a in actions
        ]
        data["groups"].append({"kind": kind, "actions": listed})
    data["outcomes"] = [
        {"outcome": state.describe(o), "probability": exact_record(p), "text": fmt(p)}
        for o, p in state.chance_outcomes()
    ]
    if player == TERMINAL:
        data["scores"] = [
            {"player": state.player_name(p), "score": score_text(s)}
            for p, s in enumerate(state.scores())
        ]
        data["winners"] = [state.player_name(p) for p in state.winners()]
        data["score_name"] = type(state.game).score_name
    data["summary"] = _summary(state, data)
    return data


def _summary(state: Any, data: dict[str, Any]) -> str:
    """The short paragraph on the position."""
    seed = "" if data["seed"] is None else f"seed {data['seed']}, "
    head = (
        f"{data['game']}, {count(data['players'], 'player')}, {seed}"
        f"{count(data['steps'], 'step')} played."
    )
    parts = [head]
    if data["situation"]:
        parts.append(data["situation"].rstrip(".") + ".")
    move = _to_move(state)
    if data["groups"]:
        actions = [a for g in data["groups"] for a in g["actions"]]
        dice = sum(a["odds"] is not None for a in actions)
        move += (
            f": {count(len(actions), 'legal action')} of {count(len(data['groups']), 'kind')}"
            + (f", {dice} with dice" if dice else "")
        )
    parts.append(move[0].upper() + move[1:] + ".")
    return " ".join(parts)


def _text(data: dict[str, Any], board: bool) -> str:
    lines = textwrap.wrap(data["summary"], WIDTH)
    if board and data["position"]:
        lines += ["", data["position"]]
    if data["odds"] is not None:
        label = "odds" if data["chance"] else "advice"
        subject = data["odds"]["subject"]
        lines += ["", f"{label}: " + (f"{subject}: " if subject else "") + data["odds"]["text"]]
    for group in data["groups"]:
        lines += ["", f"{group['kind']} ({len(group['actions'])}):"]
        for action in group["actions"]:
            odds = action["odds"]
            lines.append(f"  {action['action']}" + (f": {odds['text']}" if odds else ""))
    outcomes = data["outcomes"]
    if outcomes:
        shown = outcomes[:MAX_OUTCOMES_SHOWN]
        width = max(len(o["outcome"]) for o in shown)
        lines += ["", "outcomes:"]
        lines += [f"  {o['outcome'].ljust(width)}  {o['text']}" for o in shown]
        if len(outcomes) > len(shown):
            lines.append(f"  ... and {len(outcomes) - len(shown)} more (--json lists them all)")
    if data["scores"] is not None:
        scores = "; ".join(f"{s['player']} {s['score']}" for s in data["scores"])
        lines += ["", f"{data['score_name']}: {scores}"]
        lines.append("winner(s): " + ", ".join(data["winners"]))
    return "\n".join(lines)


def _chances_record(chances: Any) -> dict[str, Any]:
    from coronas.widgets.stepper.odds import exact_record

    return {
        "exact": chances.exact,
        "games": chances.games,
        "unfinished": chances.unfinished,
        "assumption": chances.assumption,
        "view": chances.view,
        "seats": [
            {
                "player": name,
                "chance": exact_record(chances.chances[p]),
                "low": chances.low[p],
                "high": chances.high[p],
            }
            for p, name in enumerate(chances.names)
        ],
        "text": str(chances),
    }


def _ranking_record(ranking: Any) -> dict[str, Any]:
    from coronas.widgets.stepper.odds import exact_record, odds_record

    return {
        "player": ranking.player,
        "exact": ranking.exact,
        "games": ranking.games,
        "assumption": ranking.assumption,
        "view": ranking.view,
        "stopped": ranking.stopped,
        "held_out": None
        if ranking.held_out is None
        else dict(zip(("chance", "low", "high"), ranking.held_out, strict=True)),
        "actions": [
            {
                "action": r["label"],
                "chance": exact_record(r["chance"]),
                "low": r["low"],
                "high": r["high"],
                "best": r["best"],
                "shortlist": r["shortlist"],
                "too_close": r["too_close"],
                "games": r["games"],
                "quick": r["quick"],
                "prior": r["prior"],
                "dropped": r["dropped"],
                "versus_best": None
                if r["versus_best"] is None
                else dict(zip(("mean", "low", "high"), r["versus_best"], strict=True)),
                "odds": odds_record(r["odds"]),
            }
            for r in ranking.rows
        ],
        "text": str(ranking),
    }


DEFAULT_TIME = 10.0
"""``--time`` unless given: seconds for the whole command, the chances and the ranking in it."""
FINISH = 0.5
"""Seconds of ``--time`` kept for what the games' clock does not see: a ranking's last games
running past its time (up to 0.2 s measured), the answer written out, the interpreter's
exit and its start before the command's first import (about 0.3 s together)."""


def game_chances(state: Any, args: argparse.Namespace) -> dict[str, Any]:
    """``--win-chances``: the seats' chances and, at a decision, the ranking of the moves,
    as JSON-ready data. The time is counted from the command's start (``args.began``: the
    imports, the loading and the exact odds are in it) and shared: half of what is left for
    the chances, the rest for the ranking, each call keeping its share (exact attempts
    included), so that the whole command ends within ``--time`` seconds."""
    import time as clock

    from coronas.engine.seats import parse_seat
    from coronas.manygames.moves import EVERY_MOVE, rank_actions
    from coronas.manygames.winchances import win_chances

    viewer = None
    if args.viewer is not None:
        try:  # a seat's name or its number from one (docs/cli.md, "Seats")
            viewer = parse_seat(state, args.viewer)
        except ValueError as exc:
            raise CommandError(f"--viewer: {exc}") from None
    bots = None
    if args.bots:
        try:
            bots = [state.game.bot(name.strip()) for name in args.bots.split(",")]
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        bots = bots[0] if len(bots) == 1 else bots
    deciding = state.current_player >= 0 and len(state.legal_actions()) > 1
    if deciding:  # who wins and which move, from the same information
        from coronas.manygames.moves import ranking_view

        viewer = ranking_view(state, viewer)
    seconds = DEFAULT_TIME if args.time is None else args.time
    began = getattr(args, "began", None) or clock.monotonic()
    end = began + seconds - FINISH

    def left(share: float = 1.0) -> float:  # a share of the time left, a little at least
        return max(share * (end - clock.monotonic()), seconds / 100)

    options = dict(
        games=args.games,
        precision=0.01 if args.precision is None else args.precision,
        seed=0 if args.seed is None else args.seed,
        jobs=1 if args.jobs is None else args.jobs,
        viewer=viewer,
    )
    try:
        chances = win_chances(state, bots, time=left(0.5 if deciding else 1.0), **options)
        ranking = None
        if deciding:
            # the moves are ranked from the mover's view, whoever's view the chances are from
            mover = {**options, "viewer": None if viewer is None else state.current_player}
            every = EVERY_MOVE if args.every_move else {}
            ranking = rank_actions(
                state, bots, time=left(), on_update=_quick_first(args), **mover, **every
            )
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    return {
        "win_chances": _chances_record(chances),
        "ranking": None if ranking is None else _ranking_record(ranking),
    }


def _quick_first(args: argparse.Namespace) -> Any:
    """An ``on_update`` that prints the ranking's quick estimate (the value model's, within
    a second) to stderr while the games refine it; nothing with ``--json``."""
    import sys

    def show(ranking: Any) -> None:
        if ranking.quick and not args.json:
            print(f"{ranking}\n(refining with games...)\n", file=sys.stderr, flush=True)

    return show


def run(args: argparse.Namespace) -> int:
    from coronas.engine import load_game

    state = load_game(Path(args.file))
    data = advice(state)
    if args.win_chances:
        data.update(game_chances(state, args))
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    text = _text(data, args.board)
    if args.win_chances:
        text += "\n\nwho wins from here: " + data["win_chances"]["text"]
        if data["ranking"] is not None:
            text += "\n\n" + data["ranking"]["text"]
    print(text)
    return 0


CHANCE_OPTIONS = ("bots", "games", "precision", "time", "seed", "viewer", "jobs")
"""The options of ``--win-chances``'s games: refused without it (they would do nothing)."""


def check(args: argparse.Namespace) -> None:
    used = [f"--{o}" for o in CHANCE_OPTIONS if getattr(args, o) is not None]
    used += ["--every-move"] if args.every_move else []
    if used and not args.win_chances:
        named = used[0] if len(used) == 1 else f"{', '.join(used[:-1])} and {used[-1]}"
        raise CommandError(f"{named} go{'es' if len(used) == 1 else ''} with --win-chances")
    if args.precision is not None and not 0 < args.precision < 0.5:
        raise CommandError(
            f"--precision: expected a half-width above 0 and below 0.5, got {args.precision}"
        )
    if args.time is not None and not 0 < args.time <= 3600:
        raise CommandError(f"--time: expected seconds above 0 and at most 3600, got {args.time:g}")


def _seconds(text: str) -> float:
    """A decimal number in the digits 0-9 (``float`` alone would also take ``1_0``, ``inf``
    and other scripts' digits)."""
    import re

    if not re.fullmatch(r"\s*(?:[0-9]{1,12}(?:\.[0-9]{0,12})?|\.[0-9]{1,12})\s*", text, re.ASCII):
        raise argparse.ArgumentTypeError(
            f"expected a decimal number such as 1.5, got {cut(repr(text), 40)}"
        )
    return float(text)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "advise", help="the position of a saved game and the exact odds of every move"
    )
    p.add_argument(
        "file", help="a game saved with the stepper's Save, coronas play --save or State.save"
    )
    p.add_argument("--board", action="store_true", help="also print the whole position")
    p.add_argument(
        "--json",
        action="store_true",
        help='print the answer as JSON (probabilities as {"fraction": "19/27", "float": ...})',
    )
    chances = p.add_argument_group("who wins from here")
    chances.add_argument(
        "--win-chances",
        action="store_true",
        help="each seat's chance of winning the game from here, with its 95%% interval, and "
        "every move ranked by it",
    )
    chances.add_argument(
        "--bots",
        help="who plays the rest of the game: one bot for all seats or one per seat, "
        "comma-separated (default: light, the game's fast playout policy)",
    )
    chances.add_argument(
        "--games", type=whole(1, 10**6), help="games to play out (an action's, in the ranking)"
    )
    chances.add_argument(
        "--precision",
        type=_seconds,
        metavar="HALF_WIDTH",
        help="stop when every 95%% interval is at most this wide on each side (e.g. 0.01)",
    )
    chances.add_argument(
        "--time",
        type=_seconds,
        metavar="SECONDS",
        help="end within about this many seconds in all, exact attempts included; fewer "
        "games when time is short (default 10)",
    )
    chances.add_argument("--seed", type=whole(0, 2**63 - 1), help="seed of the games (default 0)")
    chances.add_argument(
        "--viewer",
        metavar="SEAT",
        help="play out from what this seat has seen, never from the others' hidden cards: its "
        "name (red, 'player 2') or its number from 1, the first seat (default: the whole "
        "position, an analyst's view, except at a decision in a game with hidden cards: the "
        "mover's, the view the moves are ranked from)",
    )
    chances.add_argument(
        "--jobs", type=whole(1, cpu_count), help="worker processes (default 1: this process)"
    )
    chances.add_argument(
        "--every-move",
        action="store_true",
        help="play every legal move out in the ranking and halve them: none left out by the "
        "value model's quick estimate or by the learned player's choices (Batalla's and "
        "Corona de Hierro's rankings do anyway; Carolus's play only the value model's five "
        "best by default)",
    )
    p.set_defaults(func=run, check=check, _parser=p)
