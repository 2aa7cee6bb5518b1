"""Untrusted JSON files (saved games, rule files, board files): bounded in size and depth.

A file someone sent you is read only if it is a regular file of at most
:data:`MAX_FILE_BYTES` of UTF-8 text, and parsed only if its JSON nests at most
:data:`~coronas.engine.schema.MAX_DEPTH` deep; otherwise the caller's error class (a
``ValueError`` such as :class:`~coronas.engine.errors.SaveFileError`) names the file and the
problem.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from coronas.engine.errors import SaveFileError
from coronas.engine.schema import check_depth, short

__all__ = ["MAX_FILE_BYTES", "parse_json", "read_text_file"]

MAX_FILE_BYTES = 16 * 2**20
"""The largest file read (16 MiB: a few hundred long games' worth of actions)."""


def parse_json(text: str, source: str, error: type[ValueError] = SaveFileError) -> Any:
    """JSON text checked for size and depth; ``error`` names the problem otherwise."""
    if not isinstance(text, str):
        raise error(f"{source}: expected JSON text, got {short(text)}")
    if len(text) > MAX_FILE_BYTES:
        raise error(f"{source}: larger than {MAX_FILE_BYTES // 2**20} MiB")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(
            f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise error(f"{source}: nested too deeply to be a coronas file") from None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise error(f"{source}: not readable JSON ({short(str(exc), 80)})") from None
    deep = check_depth(data)
    if deep is not None:
        raise error(f"{source}: nested too deeply at {deep}")
    return data


def read_text_file(path: str | Path, error: type[ValueError], what: str) -> str:
    """The text of a regular file of bounded size, or ``error`` saying why it cannot be read."""
    path = Path(path)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{path}: not a regular file, so not a {what}")
        if info.st_size > MAX_FILE_BYTES:
            raise error(f"{path}: larger than {MAX_FILE_BYTES // 2**20} MiB, so not a {what}")
        with path.open("rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise error(f"{path}: cannot read the file ({exc.strerror})") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{path}: not a {what} (not UTF-8 text)") from None
