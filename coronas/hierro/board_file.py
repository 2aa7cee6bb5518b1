"""The Corona de Hierro board file format: its fields, the values they describe, their checks.

A board file (JSON, see ``docs/board.md``) lists the noble families, the cities with their
castles, the roads and the off-map areas. :func:`parse_board_data` checks every entry and
turns it into :class:`City`, :class:`Castle` and :class:`Family` values; :func:`check_map`
checks the whole map (castle counts, a connected road network). A problem raises
:class:`BoardError` naming the file, the entry and what was expected.
:func:`coronas.hierro.board.load_board` is the way in.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import networkx as nx

from coronas.engine.schema import short
from coronas.formatting import listing

__all__ = [
    "BANNER_VALUES",
    "CASTLE_KINDS",
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_CITIES",
    "MAX_ROADS",
    "NEUTRAL_PER_SHIELD",
    "OFFMAP_AREAS",
    "SHIELDS",
    "START_PER_SHIELD",
    "BoardError",
    "Castle",
    "City",
    "Family",
    "check_map",
    "parse_board_data",
]

FORMAT = "coronas-hierro-board"
FORMAT_VERSION = 1
"""The ``format`` and ``version`` fields of a board file."""

BANNER_VALUES = (1, 2, 3, 4, 5, 6)
"""Numbers a banner may show: the faces of a d6, the die every castle roll uses."""

CASTLE_KINDS = ("start", "neutral", "royal")
"""Grey starting castles, brown neutral castles, and the King's castle (Pavia)."""

SHIELDS = (1, 2, 3, 4, 5)
"""The five noble shields, numbered as in the card rulings (H12)."""

START_PER_SHIELD = 1
NEUTRAL_PER_SHIELD = 2
"""Castles per shield: "one starting castle and two neutral castles" (the rulebook)."""

ROYAL_CASTLES = 1
"""One King's castle (Pavia): no shield, no emissaries."""

MIN_ALWAYS_ELIGIBLE_STARTS = 4
"""Start castles open to every player count (4-player games need four; Lucca waits for 5)."""

OFFMAP_AREAS = ("Rome", "Saracens", "Magyars", "Alliance Zone")
"""Areas of the board that are not on the road map; every board file names them."""

MAX_CITIES = 300
"""The most cities a board may have (the printed map has a few dozen)."""
MAX_ROADS = 2000
"""The most roads a board may have."""
MAX_OFFMAP = 20
"""The most off-map areas a board may list."""
MAX_NAME = 200
"""The longest name (of a city, a family, a house or an area) a board may give."""
MAX_DESCRIPTION = 5000
"""The longest ``name`` or ``description`` of the board itself."""
MAX_MESSAGE = 300
"""How long an error message about a board may be."""

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


class BoardError(ValueError):
    """A board file (or board data) that is not a valid Corona de Hierro map.

    The message names the file, the entry and what was expected.
    """


# --------------------------------------------------------------------------------------------
# Value types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Castle:
    """A castle and its banners.

    ``army_target`` is the left banner (conquest by arms succeeds on a roll at least this),
    ``emissary_target`` the right banner (support by diplomacy), ``None`` where the castle takes
    no emissaries (start castles and Pavia). ``shield`` is 1-5, ``None`` for Pavia.
    """

    kind: str
    army_target: int
    emissary_target: int | None = None
    shield: int | None = None
    five_players_only: bool = False

    @property
    def takes_emissaries(self) -> bool:
        """Only brown neutral castles receive emissaries."""
        return self.kind == "neutral"


@dataclass(frozen=True)
class City:
    """A dot on the map at a real-world position; ``castle`` is ``None`` for a grey dot."""

    name: str
    lon: float
    lat: float
    castle: Castle | None = None

    @property
    def pos(self) -> tuple[float, float]:
        """``(lon, lat)``, the drawing position."""
        return (self.lon, self.lat)


@dataclass(frozen=True)
class Family:
    """A noble family and its shield: number 1-5, short name, the house, a drawing colour."""

    shield: int
    name: str
    house: str = ""
    colour: str = "#808080"


# --------------------------------------------------------------------------------------------
# Reading and checking
# --------------------------------------------------------------------------------------------


def _fail(source: str, where: str, problem: str) -> BoardError:
    text = f"{source}: {where}: {problem}"
    if len(text) > MAX_MESSAGE:
        text = text[: MAX_MESSAGE - 3] + "..."
    return BoardError(text)


def _list(value: Any, source: str, field: str, what: str, most: int, least: int = 0) -> list:
    """``value`` if it is a list of ``least`` to ``most`` entries, else BoardError."""
    if not isinstance(value, list):
        raise _fail(source, f"field {field!r}", f"expected a list of {what}, got {short(value)}")
    if not least <= len(value) <= most:
        raise _fail(
            source, f"field {field!r}", f"expected {least} to {most} {what}, got {len(value)}"
        )
    return value


def _object(value: Any, source: str, where: str, required: set[str], optional: set[str]) -> dict:
    if not isinstance(value, dict):
        raise _fail(source, where, f"expected an object {{...}}, got {short(value)}")
    missing = sorted(required - set(value))
    if missing:
        raise _fail(source, where, f"missing field(s) {listing(missing, 'and')}")
    unknown = sorted(set(value) - required - optional)
    if unknown:
        raise _fail(
            source,
            where,
            f"unknown field(s) {listing(unknown, 'and')}; expected "
            f"{listing(sorted(required | optional), 'and')}",
        )
    return value


def _text(value: Any, source: str, where: str, most: int = MAX_NAME) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > most:
        raise _fail(
            source,
            where,
            f"expected a non-empty text of at most {most} characters, got {short(value)}",
        )
    return value


def _whole(value: Any, allowed: Iterable[int], source: str, where: str, what: str) -> int:
    allowed = tuple(allowed)
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise _fail(source, where, f"{what} must be one of {listing(allowed)}, got {short(value)}")
    return value


def _coordinate(value: Any, limit: float, source: str, where: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not (isinstance(value, int) or math.isfinite(value))
        or abs(value) > limit
    ):
        raise _fail(
            source, where, f"expected a number between -{limit} and {limit}, got {short(value)}"
        )
    return float(value)


def parse_board_data(data: Any, source: str) -> dict[str, Any]:
    """Check board data (as read from JSON): the keywords of :class:`Board`, or BoardError."""
    top = _object(
        data,
        source,
        "the board",
        {"families", "cities", "roads", "offmap"},
        {"format", "version", "name", "description"},
    )
    if top.get("format", FORMAT) != FORMAT:
        raise _fail(source, "field 'format'", f"expected {FORMAT!r}, got {short(top['format'])}")
    if "version" in top:
        _whole(top["version"], (FORMAT_VERSION,), source, "field 'version'", "the version")
    name = top.get("name", "")
    description = top.get("description", "")
    for key, value in (("name", name), ("description", description)):
        if not isinstance(value, str) or len(value) > MAX_DESCRIPTION:
            raise _fail(
                source,
                f"field {key!r}",
                f"expected text of at most {MAX_DESCRIPTION} characters, got {short(value)}",
            )

    families = _parse_families(top["families"], source)
    cities = _parse_cities(top["cities"], families, source)
    roads = _parse_roads(top["roads"], cities, source)
    offmap = _parse_offmap(top["offmap"], cities, source)
    return {
        "cities": cities,
        "roads": roads,
        "families": families,
        "offmap": offmap,
        "source": source,
        "name": name,
        "description": description,
    }


def _parse_families(value: Any, source: str) -> dict[int, Family]:
    _list(value, source, "families", "families", len(SHIELDS))
    families: dict[int, Family] = {}
    for i, entry in enumerate(value):
        where = f"families[{i}]"
        entry = _object(entry, source, where, {"shield", "name"}, {"house", "colour"})
        shield = _whole(entry["shield"], SHIELDS, source, where, "'shield'")
        if shield in families:
            raise _fail(source, where, f"shield {shield} is listed twice")
        where = f"family {shield}"
        fam_name = _text(entry["name"], source, f"{where} 'name'")
        house = entry.get("house", "")
        if not isinstance(house, str) or len(house) > MAX_NAME:
            raise _fail(source, f"{where} 'house'", f"expected text, got {short(house)}")
        colour = entry.get("colour", "#808080")
        if not isinstance(colour, str) or not _COLOUR.match(colour):
            raise _fail(
                source, f"{where} 'colour'", f"expected a colour '#rrggbb', got {short(colour)}"
            )
        families[shield] = Family(shield, fam_name, house, colour)
    missing = [s for s in SHIELDS if s not in families]
    if missing:
        raise _fail(
            source,
            "field 'families'",
            f"expected one family for each shield 1-5, missing {listing(missing, 'and')}",
        )
    return dict(sorted(families.items()))


def _parse_cities(value: Any, families: Mapping[int, Family], source: str) -> dict[str, City]:
    _list(value, source, "cities", "cities", MAX_CITIES, least=1)
    cities: dict[str, City] = {}
    for i, entry in enumerate(value):
        where = f"cities[{i}]"
        entry = _object(entry, source, where, {"name", "lon", "lat"}, {"castle", "note"})
        name = _text(entry["name"], source, f"{where} 'name'")
        where = f"city {name!r}"
        if name in cities:
            raise _fail(source, where, "the name is listed twice")
        lon = _coordinate(entry["lon"], 180, source, f"{where} 'lon'")
        lat = _coordinate(entry["lat"], 90, source, f"{where} 'lat'")
        castle = None
        if entry.get("castle") is not None:
            castle = _parse_castle(entry["castle"], source, f"{where} castle")
        cities[name] = City(name, lon, lat, castle)
    return cities


def _parse_castle(value: Any, source: str, where: str) -> Castle:
    entry = _object(
        value,
        source,
        where,
        {"kind", "army_target"},
        {"emissary_target", "shield", "five_players_only"},
    )
    kind = entry["kind"]
    if kind not in CASTLE_KINDS:
        raise _fail(
            source, f"{where} 'kind'", f"expected one of {listing(CASTLE_KINDS)}, got {short(kind)}"
        )
    army = _whole(
        entry["army_target"], BANNER_VALUES, source, where, "the left banner 'army_target'"
    )
    emissary = entry.get("emissary_target")
    if kind == "neutral":
        if emissary is None:
            raise _fail(
                source, where, "a neutral castle needs its right banner 'emissary_target' (1-6)"
            )
        emissary = _whole(
            emissary, BANNER_VALUES, source, where, "the right banner 'emissary_target'"
        )
    elif emissary is not None:
        raise _fail(
            source,
            where,
            f"a {kind} castle takes no emissaries, so it has no 'emissary_target' "
            f"(got {short(emissary)})",
        )
    shield = entry.get("shield")
    if kind == "royal":
        if shield is not None:
            raise _fail(source, where, f"the royal castle bears no shield (got {short(shield)})")
    else:
        if shield is None:
            raise _fail(source, where, f"a {kind} castle needs a 'shield' (1-5)")
        shield = _whole(shield, SHIELDS, source, where, "'shield'")
    five = entry.get("five_players_only", False)
    if not isinstance(five, bool):
        raise _fail(
            source, f"{where} 'five_players_only'", f"expected true or false, got {short(five)}"
        )
    if five and kind != "start":
        raise _fail(source, where, "only a start castle can be 'five_players_only'")
    return Castle(kind, army, emissary, shield, five)


def _parse_roads(value: Any, cities: Mapping[str, City], source: str) -> tuple:
    _list(value, source, "roads", "[city, city] pairs", MAX_ROADS)
    roads: list[tuple[str, str]] = []
    seen: set[frozenset[str]] = set()
    for i, road in enumerate(value):
        where = f"roads[{i}] {short(road)}"
        if not isinstance(road, list) or len(road) != 2:
            raise _fail(source, where, "expected a pair of city names [a, b]")
        for end in road:
            if not isinstance(end, str) or end not in cities:
                raise _fail(source, where, f"unknown city {short(end)} (not listed under 'cities')")
        a, b = road
        if a == b:
            raise _fail(source, where, "a road must join two different cities")
        if frozenset(road) in seen:
            raise _fail(source, where, f"the road {a} - {b} is listed twice")
        seen.add(frozenset(road))
        roads.append((a, b))
    return tuple(roads)


def _parse_offmap(value: Any, cities: Mapping[str, City], source: str) -> tuple[str, ...]:
    _list(value, source, "offmap", "area names", MAX_OFFMAP)
    if not all(isinstance(v, str) and 0 < len(v) <= MAX_NAME for v in value):
        raise _fail(source, "field 'offmap'", f"expected a list of area names, got {short(value)}")
    missing = [a for a in OFFMAP_AREAS if a not in value]
    if missing:
        raise _fail(
            source, "field 'offmap'", f"missing the off-map area(s) {listing(missing, 'and')}"
        )
    if len(set(value)) != len(value):
        raise _fail(source, "field 'offmap'", "an area is listed twice")
    clash = [a for a in value if a in cities]
    if clash:
        raise _fail(source, "field 'offmap'", f"{clash} are off the map but also listed as cities")
    return tuple(value)


def check_map(cities: Mapping[str, City], roads: tuple[tuple[str, str], ...], source: str) -> None:
    """The whole-map checks, for a board read from a file or built in code: every road joins
    two different cities of the map, the castle counts of the rulebook, a connected map of
    at most :data:`MAX_CITIES` cities and :data:`MAX_ROADS` roads."""
    if len(cities) > MAX_CITIES or len(roads) > MAX_ROADS:
        raise _fail(
            source,
            "the board",
            f"expected at most {MAX_CITIES} cities and {MAX_ROADS} roads, "
            f"got {len(cities)} and {len(roads)}",
        )
    for i, road in enumerate(roads):
        if not set(road) <= set(cities) or road[0] == road[1]:
            raise _fail(source, f"roads[{i}] {short(road)}", "expected two different cities")
    _check_counts(cities, source)
    _check_connected(cities, roads, source)


def _check_counts(cities: Mapping[str, City], source: str) -> None:
    castles = {n: c.castle for n, c in cities.items() if c.castle is not None}
    royal = [n for n, c in castles.items() if c.kind == "royal"]
    if len(royal) != ROYAL_CASTLES:
        raise _fail(source, "castles", f"expected exactly one royal castle (Pavia), found {royal}")
    for shield in SHIELDS:
        for kind, wanted in (("start", START_PER_SHIELD), ("neutral", NEUTRAL_PER_SHIELD)):
            found = sorted(n for n, c in castles.items() if c.shield == shield and c.kind == kind)
            if len(found) != wanted:
                raise _fail(
                    source,
                    f"shield {shield}",
                    f"expected {wanted} {kind} castle(s) bearing it, found {len(found)} {found}",
                )
    open_starts = [n for n, c in castles.items() if c.kind == "start" and not c.five_players_only]
    if len(open_starts) < MIN_ALWAYS_ELIGIBLE_STARTS:
        raise _fail(
            source,
            "castles",
            f"at least {MIN_ALWAYS_ELIGIBLE_STARTS} start castles must be open to 3-4 players "
            f"(not 'five_players_only'), found {open_starts}",
        )


def _check_connected(cities: Mapping[str, City], roads: Iterable[tuple[str, str]], source: str):
    G = nx.Graph()
    G.add_nodes_from(cities)
    G.add_edges_from(roads)
    parts = sorted(nx.connected_components(G), key=len, reverse=True)
    if len(parts) > 1:
        cut_off = sorted(set().union(*parts[1:]))
        raise _fail(
            source,
            "roads",
            f"the map must be connected, but no road leads from {next(iter(parts[0]))!r} "
            f"to {cut_off}",
        )
