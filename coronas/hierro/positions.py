"""Positions set up by hand: how they are built and checked, and how a saved game records them.

A position is given by keywords (castles, armies, legitimacy, hands, emissaries, ...; see
:func:`build_position`). :meth:`Game.position <coronas.hierro.Game.position>` builds one as the
start of a match, and the match keeps its keywords as plain JSON (:func:`position_record`), so
the state saves and loads like any game. A position the rules refuse is a ValueError saying
which keyword is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from coronas.engine.schema import short
from coronas.formatting import listing
from coronas.hierro.actions import MAGYARS, ROME, SARACENS
from coronas.hierro.rules import MILITARY_KINDS, card_kind

__all__ = ["build_position", "position_kwargs", "position_record"]


def build_position(
    cls: type,
    game: Any,
    *,
    castles: Mapping[str, int | tuple[int, bool]] | None = None,
    armies: Mapping[str, Mapping[int, int]] | None = None,
    legitimacy: Iterable[int] | None = None,
    shields: Iterable[int] | None = None,
    hands: Iterable[Iterable[str]] | None = None,
    emissaries: Mapping[str, Iterable[int]] | None = None,
    alliances: Iterable[tuple[int, int, bool]] = (),
    hostages: Iterable[tuple[int, int]] = (),
    loyalty: Iterable[str] | None = None,
    vp: Iterable[int] | None = None,
    to_move: int = 0,
    actions_left: int | None = None,
    turn: int = 1,
) -> Any:
    """A state of class ``cls`` (a ``HierroState``) for ``game``, set up by hand as
    :meth:`HierroState.from_position <coronas.hierro.state.HierroState.from_position>`
    describes; a keyword the rules refuse is a ValueError."""
    state = cls.__new__(cls)
    state.game = game
    state.history = []
    state._undo = []
    state._setup()
    n = game.num_players
    r = game.rules
    info = game.info
    state.loyalty = list(loyalty) if loyalty is not None else [None] * n
    if len(state.loyalty) != n:
        raise ValueError(f"loyalty: expected {n} cards, got {len(state.loyalty)}")
    cards = (*(f"crown:{c}" for c in r.colours), "self")
    for card in state.loyalty:
        if card is not None and card not in cards:
            raise ValueError(f"loyalty: expected one of {listing(cards)} or null, got {card!r}")
    for c, spec in (castles or {}).items():
        if c not in info.castle_set:
            raise ValueError(f"castles: there is no castle called {c}")
        owner, inside = (spec, True) if isinstance(spec, int) else spec
        _check_player(owner, n, f"castles[{c!r}]")
        state.owner[c] = owner
        state.troops[c] = bool(inside)
        state.banners[owner] -= 1
    for city, here in (armies or {}).items():
        if city not in info.adj:
            raise ValueError(f"armies: there is no city called {city}")
        for q, k in here.items():
            _check_player(q, n, f"armies[{city!r}]")
            _check_count(k, 0, r.army_pawns, f"armies[{city!r}][{q}]")
            if k > 0:
                state._add_pawns(city, q, k)
    if legitimacy is not None:
        state.legit = [r.clamp(v) for v in _per_player(legitimacy, n, 0, r.crown, "legitimacy")]
    if shields is not None:
        state.shields = _per_player(shields, n, 0, r.shields_total, "shields")
        state.supply = r.shields_total - sum(state.shields)
    if vp is not None:
        state.vp = _per_player(vp, n, 0, MAX_VP, "vp")
    if hands is not None:
        state.hands = [tuple(sorted(h)) for h in hands]
        if len(state.hands) != n:
            raise ValueError(f"hands: expected {n} hands, got {len(state.hands)}")
        for h in state.hands:
            if len(h) > r.hand_limit or not all(isinstance(c, str) for c in h):
                raise ValueError(f"hands: expected at most {r.hand_limit} cards a player")
            for card in h:
                deck = state.decks["military" if card_kind(card) in MILITARY_KINDS else "political"]
                if deck.get(card, 0) < 1:
                    raise ValueError(f"hands: no {card} card left in its deck")
                deck[card] -= 1
                if not deck[card]:
                    del deck[card]
    for place, players in (emissaries or {}).items():
        for q in players:
            _check_player(q, n, f"emissaries[{place!r}]")
            state.hand_em[q] -= 1
            if place == ROME:
                state.rome = (*state.rome, q)
            elif place == SARACENS:
                state.saracens = (*state.saracens, q)
            elif place == MAGYARS:
                state.magyars = (*state.magyars, q)
            elif place in info.castle_set:
                state.at_castle[place] = (*state.at_castle.get(place, ()), (q, -1))
            else:
                raise ValueError(f"emissaries: there is no castle or area called {place}")
    for a, b, ok in alliances:
        _check_player(a, n, "alliances")
        _check_player(b, n, "alliances")
        if a == b or not isinstance(ok, bool):
            raise ValueError("alliances: expected [requester, target, accepted] of two players")
        state.hand_em[a] -= 1
        state.zone[(a, b)] = bool(ok)
    for h, o in hostages:
        _check_player(h, n, "hostages")
        _check_player(o, n, "hostages")
        state.hand_em[o] -= 1
        state._hold(h, o)
    for name, values in (
        ("pawns", state.pawns),
        ("banners", state.banners),
        ("emissaries", state.hand_em),
        ("shields", state.shields),
    ):
        if any(v < 0 for v in values):
            raise ValueError(f"{name}: a player would need more pieces than it has")
    if state.supply < 0:
        raise ValueError(f"shields: more than the {r.shields_total} experience shields")
    _check_player(to_move, n, "to_move")
    _check_count(turn, 1, MAX_TURN, "turn")
    if actions_left is not None:
        _check_count(actions_left, 1, r.actions_per_turn, "actions_left")
    state.step = "play"
    state.turn = turn * n + to_move
    state.player = to_move
    state.left = r.actions_per_turn if actions_left is None else actions_left
    return state


MAX_TURN = 100_000
"""The highest round number a hand-set position may give."""
MAX_VP = 10_000
"""The most victory points a hand-set position may give a player."""


def _check_count(k: Any, low: int, high: int, where: str) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or not low <= k <= high:
        raise ValueError(f"{where}: expected a whole number from {low} to {high}, got {short(k)}")


def _per_player(values: Iterable[Any], n: int, low: int, high: int, where: str) -> list[int]:
    """One whole number from ``low`` to ``high`` for each of the ``n`` players."""
    out = list(values)
    if len(out) != n:
        raise ValueError(f"{where}: expected one number for each of the {n} players")
    for v in out:
        _check_count(v, low, high, where)
    return out


def _check_player(q: Any, n: int, where: str) -> None:
    if isinstance(q, bool) or not isinstance(q, int) or not 0 <= q < n:
        raise ValueError(f"{where}: expected a player 0-{n - 1}, got {short(q)}")


_POSITION_FIELDS = {
    "castles": "a mapping castle -> owner or [owner, troops inside]",
    "armies": "a mapping city -> {player: pawns}",
    "legitimacy": "a list of one level a player",
    "shields": "a list of one count a player",
    "hands": "a list of one list of cards a player",
    "emissaries": "a mapping castle or area -> list of players",
    "alliances": "a list of [requester, target, accepted]",
    "hostages": "a list of [holder, owner]",
    "loyalty": "a list of one loyalty card a player",
    "vp": "a list of one count a player",
    "to_move": "a player",
    "actions_left": "a number of actions",
    "turn": "a round number",
}


def position_record(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The keywords of a hand-set position as plain JSON (lists, string keys), the form a
    saved game keeps; a field that is unknown or of the wrong shape is a ValueError."""
    unknown = sorted(set(kwargs) - set(_POSITION_FIELDS))
    if unknown:
        raise ValueError(
            f"position: unknown field {unknown[0]!r}; the fields are {', '.join(_POSITION_FIELDS)}"
        )
    out: dict[str, Any] = {}
    for name, value in kwargs.items():
        if value is None:
            continue
        try:
            if name == "castles":
                value = {
                    str(c): [v, True] if isinstance(v, int) else [v[0], bool(v[1])]
                    for c, v in value.items()
                }
            elif name == "armies":
                value = {
                    str(city): {str(int(q)): int(k) for q, k in here.items()}
                    for city, here in value.items()
                }
            elif name == "emissaries":
                value = {str(place): list(players) for place, players in value.items()}
            elif name in ("hands", "alliances", "hostages"):
                value = [list(v) for v in value]
            elif name in ("legitimacy", "shields", "loyalty", "vp"):
                value = list(value)
            elif not isinstance(value, int) or isinstance(value, bool):
                raise TypeError
        except (TypeError, ValueError, AttributeError, IndexError, KeyError, OverflowError):
            raise ValueError(
                f"position: {name}: expected {_POSITION_FIELDS[name]}, got {value!r}"
            ) from None
        out[name] = value
    return out


def position_kwargs(record: Mapping[str, Any]) -> dict[str, Any]:
    """The keywords of :func:`build_position` from a position record."""
    kwargs = dict(record)
    if "castles" in kwargs:
        kwargs["castles"] = {c: tuple(v) for c, v in kwargs["castles"].items()}
    if "armies" in kwargs:
        kwargs["armies"] = {
            city: {int(q): k for q, k in here.items()} for city, here in kwargs["armies"].items()
        }
    for name in ("alliances", "hostages"):
        if name in kwargs:
            kwargs[name] = [tuple(v) for v in kwargs[name]]
    return kwargs
