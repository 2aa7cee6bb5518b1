"""A table file: a game saved by a locked table, sealed whole under a passphrase.

A locked pass-and-play table saves to a *table file*: JSON whose public part stays readable
(the game, the number of players and of steps, the view, the seats people play, the
table's notes, ``the table was unlocked at action 57``, and the log as an onlooker saw it,
``red draws a military card``) and a sealed part. The sealed part is encrypted with
``cryptography``'s Fernet (AES in CBC mode with an HMAC, so a wrong passphrase or an altered
byte is detected) under a key derived from the passphrase by scrypt with a random salt. It
holds everything the table needs: the saved game (:meth:`State.to_dict
<coronas.engine.State.to_dict>`: the parameters and every step, so every loyalty card dealt
and every card drawn), the seats' PIN digests, the check of a teacher's passphrase, and a
copy of the public part. Loading opens the sealed part, writes the whole file again from
it and refuses the file unless every byte is the same: an edited view, a note erased, a
space added or another file's public part over this sealed part is refused with the message
a wrong passphrase gets. Read as text, a sealed file names no card a seat holds in secret.
A sealed file always opens as a locked table in pass and play. A table unlocked before
saving writes the saved game in the clear instead, and its notes say it was unlocked (such
a file is not protected: anyone may edit it).

A table file is untrusted input like any saved game: the sealed part's fields are checked
before anything is decrypted, the scrypt cost is the one written here (a file cannot ask
for more), and the sealed game is read with the engine's own checks
(:func:`~coronas.engine.saving.load_game_text`). A problem raises
:class:`~coronas.engine.SaveFileError` naming the file, the field and what was expected.
Sealed files of version 1 sealed only the game, not the rest: they are refused.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import hashlib
import hmac
import json
import os
from typing import Any

from coronas.engine import SaveFileError, State
from coronas.engine.saving import MAX_ACTIONS, load_game_text
from coronas.engine.schema import short

__all__ = [
    "MIN_PASSPHRASE",
    "TABLE_FORMAT",
    "Check",
    "Table",
    "WrongPassphrase",
    "is_table",
    "passphrase_check",
    "passphrase_matches",
    "passphrase_problem",
    "read_table",
    "table_text",
]

TABLE_FORMAT = "coronas-table"
TABLE_VERSION = 2
"""Version 2 seals the whole file; version 1 sealed only the game (its files in the clear
still load, its sealed files are refused)."""
SCRYPT = {"n": 2**15, "r": 8, "p": 1}
"""The scrypt cost (about 32 MiB and a tenth of a second): fixed, so a file cannot ask for
more."""
SALT_BYTES = 16
MIN_PASSPHRASE = 8
MAX_PASSPHRASE = 1_000
MAX_NOTES = 1_000
MAX_TEXT = 300
"""The longest note or log line a table file may hold."""
MAX_SEATS = 10
_PUBLIC = ("format", "version", "game", "players", "steps", "view", "humans", "locked", "notes")
_SEALED = ("table", "pins", "teacher", "saved")  # what the sealed part holds

Check = tuple[bytes, bytes]
"""What checks a passphrase without keeping it: (salt, SHA-256 of the key scrypt derives
from the passphrase and the salt)."""


class WrongPassphrase(SaveFileError):
    """The passphrase does not open the sealed part, or some byte of the file was altered."""


@dataclasses.dataclass(frozen=True)
class Table:
    """What a table file keeps besides the game: the view (``"pass"``, a seat, or
    ``"open"`` once unlocked), the seats people play, whether the table is locked, and its
    notes as (steps played when it happened, what happened). A sealed file also keeps the
    seats' PIN digests (seat, digest) with their salt and the check of a teacher's
    passphrase; :func:`read_table` adds the check of the passphrase that opened it."""

    view: Any
    humans: tuple[int, ...]
    locked: bool
    notes: tuple[tuple[int, str], ...] = ()
    pins: tuple[tuple[int, bytes], ...] = ()
    pin_salt: bytes = b""
    teacher: Check | None = None
    opened_with: Check | None = None


def passphrase_problem(passphrase: Any) -> str | None:
    """Why ``passphrase`` may not seal a table (None: it may): fewer than
    :data:`MIN_PASSPHRASE` characters, only spaces, or absurdly long."""
    if not isinstance(passphrase, str) or len(passphrase) < MIN_PASSPHRASE:
        return f"a passphrase has at least {MIN_PASSPHRASE} characters"
    if not passphrase.strip():
        return "a passphrase may not be only spaces"
    if len(passphrase) > MAX_PASSPHRASE:
        return f"a passphrase has at most {MAX_PASSPHRASE} characters"
    return None


def _key(passphrase: str, salt: bytes) -> bytes:
    """The 32 bytes scrypt derives from ``passphrase`` and ``salt`` (a tenth of a second)."""
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    return Scrypt(salt=salt, length=32, **SCRYPT).derive(passphrase.encode("utf-8"))


def _fernet(key: bytes) -> Any:
    from cryptography.fernet import Fernet

    return Fernet(base64.urlsafe_b64encode(key))


def _check_of(salt: bytes, key: bytes) -> Check:
    return salt, hashlib.sha256(key).digest()


def passphrase_check(passphrase: str) -> Check:
    """A :data:`Check` of ``passphrase`` under a fresh salt (the passphrase is not kept)."""
    salt = os.urandom(SALT_BYTES)
    return _check_of(salt, _key(passphrase, salt))


def passphrase_matches(check: Check, passphrase: str | None) -> bool:
    """Whether ``passphrase`` is the one ``check`` was made from."""
    if not passphrase or len(passphrase) > MAX_PASSPHRASE:
        return False
    salt, digest = check
    return hmac.compare_digest(_check_of(salt, _key(passphrase, salt))[1], digest)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _render(public: dict[str, Any], sealed: dict[str, Any]) -> str:
    """The whole text of a sealed table file, its fields in their fixed order: what is
    written, and what a file must be, byte for byte, to be loaded."""
    data = {name: public[name] for name in (*_PUBLIC, "log")}
    data["sealed"] = {name: sealed[name] for name in _sealed_fields()}
    return json.dumps(data, indent=1)


def _sealed_fields() -> tuple[str, ...]:
    return ("cipher", "kdf", *SCRYPT, "salt", "token")


def table_text(
    state: State, table: Table, log: list[str], passphrase: str | None
) -> tuple[str, Check | None]:
    """The table file for ``state`` and, for a sealed one, the :data:`Check` of its
    passphrase. A locked table (in pass and play: the view ``"pass"``) is sealed under
    ``passphrase``, which must pass :func:`passphrase_problem` (else ValueError); an
    unlocked one is written in the clear. ``log`` is the public log (the onlooker's
    lines)."""
    public: dict[str, Any] = {
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
    if not table.locked:
        return json.dumps({**public, "saved": state.to_dict()}, indent=1), None
    if table.view != "pass":
        raise ValueError("a sealed table opens in pass and play: its view must be 'pass'")
    problem = passphrase_problem(passphrase)
    if problem is not None:
        raise ValueError(f"{problem}: a locked table is saved sealed under it")
    assert passphrase is not None
    teacher = table.teacher
    payload = {
        "table": public,
        "pins": {
            "salt": _b64(table.pin_salt),
            "digests": [[seat, digest.hex()] for seat, digest in sorted(table.pins)],
        },
        "teacher": None
        if teacher is None
        else {"salt": _b64(teacher[0]), "digest": _b64(teacher[1])},
        "saved": state.to_dict(),
    }
    salt = os.urandom(SALT_BYTES)
    key = _key(passphrase, salt)
    token = _fernet(key).encrypt(json.dumps(payload).encode("utf-8"))
    sealed = {
        "cipher": "fernet",
        "kdf": "scrypt",
        **SCRYPT,
        "salt": _b64(salt),
        "token": token.decode("ascii"),
    }
    return _render(public, sealed), _check_of(salt, key)


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


def _bytes(value: Any, where: str, size: int) -> bytes:
    try:
        data = base64.b64decode(value, validate=True)
    except (binascii.Error, TypeError, ValueError):
        raise SaveFileError(f"{where}: expected base64 text, got {short(value)}") from None
    if len(data) != size:
        raise SaveFileError(f"{where}: expected {size} bytes, got {len(data)}")
    return data


def _header(data: dict[str, Any], source: str, body: str | None) -> tuple[int, int, Table]:
    """The table's fields checked: (players, steps, table). ``body`` is the field that
    holds the game (``"saved"`` in a file in the clear); None for the copy in a sealed
    part, which holds the log and nothing else."""
    fields = {*_PUBLIC, "log"} if body is None else {*_PUBLIC, body}
    optional = set() if body is None else {"log"}
    unknown = sorted(set(data) - fields - optional)
    if unknown:
        raise SaveFileError(f"{source}: unknown field(s) {short(unknown)}")
    missing = sorted(fields - set(data))
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


def _wrong(source: str) -> WrongPassphrase:
    return WrongPassphrase(
        f"{source}: wrong passphrase (or the file was altered): nothing was loaded"
    )


def _sealed_block(sealed: Any, source: str) -> tuple[bytes, bytes]:
    """The sealed part's fields checked: (salt, token)."""
    where = f"{source}: sealed"
    if not isinstance(sealed, dict):
        raise SaveFileError(f"{where}: expected an object, got {short(sealed)}")
    expected = {"cipher": "fernet", "kdf": "scrypt", **SCRYPT}
    if set(sealed) != set(_sealed_fields()):
        raise SaveFileError(
            f"{where}: expected the fields {sorted(_sealed_fields())}, got {short(sorted(sealed))}"
        )
    for name, value in expected.items():
        if sealed[name] != value or isinstance(sealed[name], bool):
            raise SaveFileError(f"{where}.{name}: expected {value!r}, got {short(sealed[name])}")
    salt = _bytes(sealed["salt"], f"{where}.salt", SALT_BYTES)
    token = sealed["token"]
    if not isinstance(token, str) or not token.isascii():
        raise SaveFileError(f"{where}.token: expected base64 text, got {short(token)}")
    return salt, token.encode("ascii")


def _pins(value: Any, where: str, players: int) -> tuple[bytes, tuple[tuple[int, bytes], ...]]:
    """The sealed PINs checked: (salt, ((seat, digest), ...))."""
    if not isinstance(value, dict) or set(value) != {"salt", "digests"}:
        raise SaveFileError(f"{where}: expected an object with salt and digests")
    salt = _bytes(value["salt"], f"{where}.salt", SALT_BYTES)
    pins: dict[int, bytes] = {}
    for i, pin in enumerate(_list(value["digests"], f"{where}.digests", players)):
        at = f"{where}.digests[{i}]"
        if not isinstance(pin, list) or len(pin) != 2:
            raise SaveFileError(f"{at}: expected [seat, digest], got {short(pin)}")
        seat = _whole(pin[0], at, 0, players - 1)
        try:
            digest = bytes.fromhex(pin[1])
        except (TypeError, ValueError):
            digest = b""
        if len(digest) != 32 or seat in pins:
            raise SaveFileError(f"{at}: expected a seat named once and a SHA-256 digest in hex")
        pins[seat] = digest
    return salt, tuple(sorted(pins.items()))


def _teacher(value: Any, where: str) -> Check | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"salt", "digest"}:
        raise SaveFileError(f"{where}: expected null or an object with salt and digest")
    return _bytes(value["salt"], f"{where}.salt", SALT_BYTES), _bytes(
        value["digest"], f"{where}.digest", 32
    )


def _open_sealed(
    text: str, data: dict[str, Any], source: str, passphrase: str | None
) -> tuple[dict[str, Any], Table]:
    """The sealed part opened, the whole file checked against it byte for byte: (the saved
    game, the table)."""
    if data.get("version") == 1:
        raise SaveFileError(
            f"{source}: sealed by an older version of coronas, which sealed the game but not "
            "the rest of the file (the view, the notes): it is not opened, since it may have "
            "been edited; open it with the version that saved it"
        )
    if data.get("version") != TABLE_VERSION or isinstance(data.get("version"), bool):
        raise SaveFileError(
            f"{source}: version: expected {TABLE_VERSION}, got {short(data.get('version'))}"
        )
    if "sealed" not in data:
        raise SaveFileError(f"{source}: missing field(s) ['sealed']")
    salt, token = _sealed_block(data["sealed"], source)
    if not passphrase:
        raise SaveFileError(f"{source}: this saved game is sealed: type its passphrase to load it")
    if len(passphrase) > MAX_PASSPHRASE:
        raise _wrong(source)
    from cryptography.fernet import InvalidToken

    key = _key(passphrase, salt)
    try:
        payload = json.loads(_fernet(key).decrypt(token).decode("utf-8"))
    except (InvalidToken, UnicodeDecodeError, ValueError):
        raise _wrong(source) from None
    where = f"{source} (sealed part)"
    if not isinstance(payload, dict) or set(payload) != set(_SEALED):
        raise SaveFileError(f"{where}: expected the fields {list(_SEALED)}")
    public = payload["table"]
    if not isinstance(public, dict) or set(public) != {*_PUBLIC, "log"}:
        raise SaveFileError(f"{where}: table: expected the fields {[*_PUBLIC, 'log']}")
    if _render(public, data["sealed"]) != text:  # any byte edited, or another file's part
        raise _wrong(source)
    players, _, table = _header(public, where, None)
    if table.view != "pass" or not table.locked or public["version"] != TABLE_VERSION:
        raise SaveFileError(f"{where}: expected a locked table in pass and play")
    pin_salt, pins = _pins(payload["pins"], f"{where}: pins", players)
    table = dataclasses.replace(
        table,
        pins=pins,
        pin_salt=pin_salt,
        teacher=_teacher(payload["teacher"], f"{where}: teacher"),
        opened_with=_check_of(salt, key),
    )
    return public | {"saved": payload["saved"]}, table


def read_table(
    text: str, data: dict[str, Any], source: str, passphrase: str | None
) -> tuple[State, Table]:
    """The game and the table of a table file (``text``, parsed as ``data``), every field
    checked; a sealed one opened with ``passphrase`` (:class:`WrongPassphrase` if it does
    not open it or the file is not, byte for byte, the one that was sealed)."""
    if "sealed" in data or data.get("locked") is True:
        fields, table = _open_sealed(text, data, source, passphrase)
        players, steps = fields["players"], fields["steps"]
        saved, where = fields["saved"], f"{source} (sealed game)"
    else:
        if data.get("version") not in (1, TABLE_VERSION) or isinstance(data.get("version"), bool):
            raise SaveFileError(
                f"{source}: version: expected {TABLE_VERSION}, got {short(data.get('version'))}"
            )
        players, steps, table = _header(data, source, "saved")
        fields, saved, where = data, data["saved"], f"{source}: saved"
    if not isinstance(saved, dict):
        raise SaveFileError(f"{where}: expected an object, got {short(saved)}")
    state = load_game_text(json.dumps(saved), where)
    found = (state.game.name, state.num_players, len(state.history))
    if found != (fields["game"], players, steps):
        raise SaveFileError(
            f"{source}: the saved game ({found[0]}, {found[1]} players, {found[2]} steps) "
            f"does not match the file's game, players and steps"
        )
    return state, table
