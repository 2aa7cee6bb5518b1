"""``coronas advise FILE``: the position of a saved game and the exact odds of every move.

The file is a game saved by the stepper's Save, ``coronas play --save`` or ``State.save``.
The answer is a short paragraph on the position (the game, who is to move, what is being
done, the numbers the game names), then: at a decision, every legal action of the player to
move grouped by kind as the stepper groups them, each dice action with its exact chance of
success; at a reroll decision, the chance of each choice, the best marked; at a chance node,
the odds of the roll being made and its possible outcomes. ``--json`` gives the same as data,
each probability as ``{"fraction": "19/27", "float": 0.7037...}``.
"""

from __future__ import annotations

import argparse
import json
import textwrap
from pathlib import Path
from typing import Any

from coronas.cli._base import count, fmt
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
        return f"a roll or draw is being made ({count(n, 'possible outcome')})"
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


def run(args: argparse.Namespace) -> int:
    from coronas.engine import load_game

    state = load_game(Path(args.file))
    data = advice(state)
    print(json.dumps(data, indent=2) if args.json else _text(data, args.board))
    return 0


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
    p.set_defaults(func=run, _parser=p)
