"""A table file: a game saved by a locked table, its secrets sealed under a passphrase.

A locked pass-and-play table saves to a *table file*, JSON whose public parts stay readable:
the game, the number of players and of steps, the view, the seats people play, the table's
notes (``the table was unlocked at action 57``) and the log as an onlooker saw it (``red
draws a military card``). The saved game itself (:meth:`State.to_json
<coronas.engine.State.to_json>`: the parameters and every step, so every loyalty card dealt,
every card drawn and kept) is *sealed*: encrypted with ``cryptography``'s Fernet (AES in CBC
mode with an HMAC, so a wrong passphrase or an altered byte is detected) under a key derived
from the passphrase by scrypt with a random salt. Read as text, a sealed file names no card
a seat holds in secret. A table unlocked before saving writes the saved game in the clear
instead, and its notes say it was unlocked.

A table file is untrusted input like any saved game: every field is checked before anything
is decrypted or replayed, the scrypt cost is the one written here (a file cannot ask for
more), and the sealed game is read with the engine's own checks
(:func:`~coronas.engine.saving.load_game_text`). A problem raises
:class:`~coronas.engine.SaveFileError` naming the file, the field and what was expected.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import os
from typing import Any

from coronas.engine import SaveFileError, State
from coronas.engine.saving import MAX_ACTIONS, load_game_text
from coronas.engine.schema import short

__all__ = ["TABLE_FORMAT", "Table", "WrongPassphrase", "is_table", "read_table", "table_text"]

TABLE_FORMAT = "coronas-table"
TABLE_VERSION = 1
SCRYPT = {"n": 2**15, "r": 8, "p": 1}
"""The scrypt cost (about 32 MiB and a tenth of a second): fixed, so a file cannot ask for
more."""
SALT_BYTES = 16
MAX_NOTES = 1_000
MAX_TEXT = 300
"""The longest note or log line a table file may hold."""
MAX_SEATS = 10
_FIELDS = {"format", "version", "game", "players", "steps", "view", "humans", "locked", "notes"}


class WrongPassphrase(SaveFileError):
    """The passphrase does not open the sealed game (or the sealed part was altered)."""


@dataclasses.dataclass(frozen=True)
class Table:
    """What a table file keeps besides the game: the view (``"pass"``, a seat, or
    ``"open"`` once unlocked), the seats people play, whether the table is locked, and its
    notes as (steps played when it happened, what happened)."""

    view: Any
    humans: tuple[int, ...]
    locked: bool
    notes: tuple[tuple[int, str], ...] = ()


def _fernet(passphrase: str, salt: bytes) -> Any:
    from cryptography.fernet import Fernet
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    key = Scrypt(salt=salt, length=32, **SCRYPT).derive(passphrase.encode("utf-8"))
    return Fernet(base64.urlsafe_b64encode(key))


def table_text(state: State, table: Table, log: list[str], passphrase: str | None) -> str:
    """The table file for ``state``: sealed under ``passphrase`` when the table is locked
    (a passphrase is then required), the saved game in the clear otherwise. ``log`` is the
    public log (the onlooker's lines)."""
    data: dict[str, Any] = {
        "format": TABLE_FORMAT,
        "version": TABLE_VERSION,
        "game": state.game.name,
        "players": state.num_players,
        "steps": len(state.history),
        "view": table.view,
        "humans": sorted(table.humans),
        "locked": table.locked,
        "notes": [[at, text] for at, text in table.notes],
        "log": list(log),
    }
    if table.locked:
        if not passphrase:
            raise ValueError("a locked table is saved sealed: give a passphrase")
        salt = os.urandom(SALT_BYTES)
        token = _fernet(passphrase, salt).encrypt(state.to_json().encode("utf-8"))
        data["sealed"] = {
            "cipher": "fernet",
            "kdf": "scrypt",
            **SCRYPT,
            "salt": base64.b64encode(salt).decode("ascii"),
            "token": token.decode("ascii"),
        }
    else:
        data["saved"] = state.to_dict()
    return json.dumps(data, indent=1)


def is_table(data: Any) -> bool:
    """Whether parsed JSON claims to be a table file (then :func:`read_table` checks it)."""
    return isinstance(data, dict) and data.get("format") == TABLE_FORMAT


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SaveFileError(
            f"{where}: expected a whole number from {low} to {high}, got {short(value)}"
        )
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise SaveFileError(
            f"{where}: expected text of at most {MAX_TEXT} characters, got {short(value)}"
        )
    return value


def _list(value: Any, where: str, most: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > most:
        raise SaveFileError(f"{where}: expected a list of at most {most} items, got {short(value)}")
    return value


def _header(data: dict[str, Any], source: str) -> tuple[int, int, Table]:
    """The public fields checked: (players, steps, table)."""
    if data.get("version") != TABLE_VERSION or isinstance(data.get("version"), bool):
        raise SaveFileError(
            f"{source}: version: expected {TABLE_VERSION}, got {short(data.get('version'))}"
        )
    body = "sealed" if data.get("locked") is True else "saved"
    unknown = sorted(set(data) - _FIELDS - {"log", body})
    if unknown:
        raise SaveFileError(f"{source}: unknown field(s) {short(unknown)}")
    missing = sorted(_FIELDS - set(data) | ({body} - set(data)))
    if missing:
        raise SaveFileError(f"{source}: missing field(s) {short(missing)}")
    if not isinstance(data["game"], str):
        raise SaveFileError(f"{source}: game: expected a game's name, got {short(data['game'])}")
    players = _whole(data["players"], f"{source}: players", 1, MAX_SEATS)
    steps = _whole(data["steps"], f"{source}: steps", 0, MAX_ACTIONS)
    view = data["view"]
    if view not in ("pass", "open") and (
        isinstance(view, bool) or not isinstance(view, int) or not 0 <= view < players
    ):
        raise SaveFileError(
            f"{source}: view: expected 'pass', 'open' or a seat from 0 to {players - 1}, "
            f"got {short(view)}"
        )
    humans = [
        _whole(p, f"{source}: humans[{i}]", 0, players - 1)
        for i, p in enumerate(_list(data["humans"], f"{source}: humans", players))
    ]
    if len(set(humans)) != len(humans):
        raise SaveFileError(f"{source}: humans: a seat is named twice in {short(humans)}")
    notes = []
    for i, note in enumerate(_list(data["notes"], f"{source}: notes", MAX_NOTES)):
        where = f"{source}: notes[{i}]"
        if not isinstance(note, list) or len(note) != 2:
            raise SaveFileError(f"{where}: expected [steps, text], got {short(note)}")
        notes.append((_whole(note[0], where, 0, steps), _text(note[1], where)))
    for i, line in enumerate(_list(data.get("log", []), f"{source}: log", MAX_ACTIONS)):
        _text(line, f"{source}: log[{i}]")
    if not isinstance(data["locked"], bool):
        raise SaveFileError(
            f"{source}: locked: expected true or false, got {short(data['locked'])}"
        )
    table = Table(view, tuple(humans), data["locked"], tuple(notes))
    return players, steps, table


def _unseal(sealed: Any, source: str, passphrase: str | None) -> str:
    """The sealed game's JSON text: the fields checked, then decrypted."""
    where = f"{source}: sealed"
    if not isinstance(sealed, dict):
        raise SaveFileError(f"{where}: expected an object, got {short(sealed)}")
    expected = {"cipher": "fernet", "kdf": "scrypt", **SCRYPT}
    if set(sealed) != {*expected, "salt", "token"}:
        raise SaveFileError(
            f"{where}: expected the fields {sorted({*expected, 'salt', 'token'})}, "
            f"got {short(sorted(sealed))}"
        )
    for name, value in expected.items():
        if sealed[name] != value or isinstance(sealed[name], bool):
            raise SaveFileError(f"{where}.{name}: expected {value!r}, got {short(sealed[name])}")
    try:
        salt = base64.b64decode(sealed["salt"], validate=True)
        token = sealed["token"].encode("ascii")
    except (binascii.Error, TypeError, AttributeError, UnicodeEncodeError, ValueError):
        raise SaveFileError(f"{where}: salt and token: expected base64 text") from None
    if len(salt) != SALT_BYTES:
        raise SaveFileError(f"{where}.salt: expected {SALT_BYTES} bytes, got {len(salt)}")
    if not passphrase:
        raise SaveFileError(f"{source}: this saved game is sealed: type its passphrase to load it")
    from cryptography.fernet import InvalidToken

    try:
        return _fernet(passphrase, salt).decrypt(token).decode("utf-8")
    except (InvalidToken, UnicodeDecodeError):
        raise WrongPassphrase(
            f"{source}: wrong passphrase (or the file was altered): nothing was loaded"
        ) from None


def read_table(data: dict[str, Any], source: str, passphrase: str | None) -> tuple[State, Table]:
    """The game and the table of a parsed table file, every field checked; the sealed game
    opened with ``passphrase`` (:class:`WrongPassphrase` if it does not open it)."""
    players, steps, table = _header(data, source)
    if table.locked:
        text = _unseal(data["sealed"], source, passphrase)
        state = load_game_text(text, f"{source} (sealed game)")
    else:
        if not isinstance(data["saved"], dict):
            raise SaveFileError(f"{source}: saved: expected an object, got {short(data['saved'])}")
        state = load_game_text(json.dumps(data["saved"]), f"{source}: saved")
    found = (state.game.name, state.num_players, len(state.history))
    if found != (data["game"], players, steps):
        raise SaveFileError(
            f"{source}: the saved game ({found[0]}, {found[1]} players, {found[2]} steps) "
            f"does not match the file's game, players and steps"
        )
    return state, table
