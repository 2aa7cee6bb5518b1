"""The Corona de Hierro board as data: cities, roads, castles and shields, and its road graph.

The printed map was not transcribed, so the default board (``data/board.json``) is a
documented reconstruction of northern and central Italy around 887 (see ``docs/board.md``).
A group with a printed copy can enter its own map in the same format and load it with
``load_board(path)``; a malformed file raises :class:`BoardError` naming the file, the entry
and what was expected.

>>> board = load_board()
>>> len(board.cities), len(board.castles)
(44, 16)
>>> board.neighbors("Belluno")
('Friuli', 'Trento', 'Treviso')
>>> board.castles["Pavia"]
Castle(kind='royal', army_target=5, emissary_target=None, shield=None, five_players_only=False)

The road network as a networkx graph
------------------------------------
:meth:`Board.graph` returns a fresh :class:`networkx.Graph` (change it freely). Each node is a
city name; each edge is a road (one move action carries an army along one road). Node
attributes, plain values in a plain dict:

``name``               the city's name (the node itself)
``pos``                ``(lon, lat)``: real-world longitude and latitude, for drawing
``castle``             ``True`` where a castle stands (red dot), ``False`` otherwise (grey dot)
``kind``               ``"start"`` (grey castle), ``"neutral"`` (brown), ``"royal"`` (Pavia),
                       or ``None`` without a castle
``army_target``        left banner: the least roll that conquers it by arms (``None``: no castle)
``emissary_target``    right banner: the least roll that wins its support by diplomacy
                       (``None`` for start castles, Pavia and cities without a castle)
``shield``             the noble shield it bears, 1-5 (``None`` for Pavia and plain cities)
``five_players_only``  ``True`` for a start castle chosen only in 5-player games (Lucca)

Graph attributes: ``name``, ``source``, ``offmap`` (the off-map areas) and ``families``
(shield number -> family name). The analysis functions below take any graph with these node
attributes (networkx style), so they work on a hand-made graph as well as on the board's.

>>> G = board.graph()
>>> move_actions(G, "Friuli", "Trento")
2
>>> shortest_route(G, "Friuli", "Trento")
['Friuli', 'Belluno', 'Trento']
"""

from __future__ import annotations

import json
import math
import random
import re
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

import networkx as nx

__all__ = [
    "BANNER_VALUES",
    "CASTLE_KINDS",
    "NEUTRAL_PER_SHIELD",
    "OFFMAP_AREAS",
    "SHIELDS",
    "START_PER_SHIELD",
    "Board",
    "BoardError",
    "Castle",
    "City",
    "Family",
    "betweenness",
    "castles_by_shield",
    "castles_within",
    "cut_cities",
    "load_board",
    "move_actions",
    "nearest_castles_by_shield",
    "shortest_route",
    "shuffle_tiles",
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


@dataclass(frozen=True, eq=False)
class Board:
    """An immutable Corona de Hierro map. Build it with :func:`load_board` or :meth:`from_dict`.

    ``cities`` maps names to :class:`City`, ``roads`` lists ``(a, b)`` pairs, ``castles`` maps
    the names of cities with a castle to their :class:`Castle`, ``families`` maps shield numbers
    to :class:`Family`, ``offmap`` names the areas beside the map, ``source`` is the file it
    came from (``"default"`` for the built-in map).
    """

    cities: Mapping[str, City]
    roads: tuple[tuple[str, str], ...]
    families: Mapping[int, Family]
    offmap: tuple[str, ...] = OFFMAP_AREAS
    source: str = "default"
    name: str = ""
    description: str = ""
    castles: Mapping[str, Castle] = field(init=False, repr=False)
    _adjacent: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)
    _graph: nx.Graph = field(init=False, repr=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "cities", MappingProxyType(dict(self.cities)))
        set_(self, "families", MappingProxyType(dict(self.families)))
        set_(self, "roads", tuple((a, b) for a, b in self.roads))
        set_(self, "offmap", tuple(self.offmap))
        castles = {n: c.castle for n, c in self.cities.items() if c.castle is not None}
        set_(self, "castles", MappingProxyType(castles))
        # A board built in code gets the same whole-map checks as one read from a file.
        for i, road in enumerate(self.roads):
            if not set(road) <= set(self.cities) or road[0] == road[1]:
                raise _fail(self.source, f"roads[{i}] {road!r}", "expected two different cities")
        _check_counts(self.cities, self.source)
        _check_connected(self.cities, self.roads, self.source)
        adjacent: dict[str, list[str]] = {name: [] for name in self.cities}
        for a, b in self.roads:
            adjacent[a].append(b)
            adjacent[b].append(a)
        set_(
            self, "_adjacent", MappingProxyType({k: tuple(sorted(v)) for k, v in adjacent.items()})
        )
        set_(self, "_graph", self._build_graph())

    # -- queries ---------------------------------------------------------------------------

    def graph(self) -> nx.Graph:
        """The road network as a new networkx graph (attributes in the module docstring)."""
        return self._graph.copy()

    def neighbors(self, city: str) -> tuple[str, ...]:
        """Cities one road (one move action) away from ``city``, sorted by name."""
        try:
            return self._adjacent[city]
        except KeyError:
            raise BoardError(f"{self.source}: no city named {city!r} on this map") from None

    def start_castles(self, players: int | None = None) -> tuple[str, ...]:
        """Grey start castles a player may choose; with fewer than 5 players Lucca is not."""
        return tuple(
            name
            for name, castle in self.castles.items()
            if castle.kind == "start"
            and (players is None or players >= 5 or not castle.five_players_only)
        )

    def castles_of(self, shield: int) -> tuple[str, ...]:
        """The castles bearing ``shield``: its start castle first, then the neutral ones by name."""
        found = [n for n, c in self.castles.items() if c.shield == shield]
        return tuple(sorted(found, key=lambda n: (self.castles[n].kind != "start", n)))

    @property
    def royal(self) -> str:
        """The name of the King's castle (Pavia on the default board)."""
        return next(n for n, c in self.castles.items() if c.kind == "royal")

    # -- conversion ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The board in the file format read by :func:`load_board` (JSON-ready)."""
        cities = []
        for city in self.cities.values():
            entry: dict[str, Any] = {"name": city.name, "lon": city.lon, "lat": city.lat}
            if city.castle is not None:
                c = city.castle
                castle: dict[str, Any] = {"kind": c.kind, "army_target": c.army_target}
                if c.emissary_target is not None:
                    castle["emissary_target"] = c.emissary_target
                if c.shield is not None:
                    castle["shield"] = c.shield
                if c.five_players_only:
                    castle["five_players_only"] = True
                entry["castle"] = castle
            cities.append(entry)
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "name": self.name,
            "description": self.description,
            "families": [
                {"shield": f.shield, "name": f.name, "house": f.house, "colour": f.colour}
                for f in self.families.values()
            ],
            "cities": cities,
            "roads": [list(road) for road in self.roads],
            "offmap": list(self.offmap),
        }

    def to_json(self, indent: int | None = 1) -> str:
        """The board file's text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any, source: str = "board") -> Board:
        """Check board data (as read from JSON) and build the board, or raise BoardError."""
        return _parse(data, source)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            dict(self.cities) == dict(other.cities)
            and {frozenset(r) for r in self.roads} == {frozenset(r) for r in other.roads}
            and dict(self.families) == dict(other.families)
            and set(self.offmap) == set(other.offmap)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Board {self.name or self.source!r}: {len(self.cities)} cities, "
            f"{len(self.roads)} roads, {len(self.castles)} castles>"
        )

    def _repr_html_(self) -> str:
        """A table of the castles: city, kind, banners and shield."""
        rows = []
        for name, c in sorted(self.castles.items(), key=lambda kv: (kv[1].shield or 0, kv[0])):
            family = self.families[c.shield].name if c.shield is not None else "(King)"
            emissary = "-" if c.emissary_target is None else str(c.emissary_target)
            note = " (5 players)" if c.five_players_only else ""
            rows.append(
                f"<tr><td>{name}</td><td>{c.kind}{note}</td><td>{c.army_target}</td>"
                f"<td>{emissary}</td><td>{c.shield or '-'} {family}</td></tr>"
            )
        return (
            f"<p><b>{self.name or self.source}</b>: {len(self.cities)} cities, "
            f"{len(self.roads)} roads</p><table><tr><th>castle</th><th>kind</th>"
            f"<th>army</th><th>emissary</th><th>shield</th></tr>{''.join(rows)}</table>"
        )

    def _build_graph(self) -> nx.Graph:
        G = nx.Graph(
            name=self.name,
            source=self.source,
            offmap=self.offmap,
            families={n: f.name for n, f in self.families.items()},
        )
        for city in self.cities.values():
            c = city.castle
            G.add_node(
                city.name,
                name=city.name,
                pos=city.pos,
                castle=c is not None,
                kind=None if c is None else c.kind,
                army_target=None if c is None else c.army_target,
                emissary_target=None if c is None else c.emissary_target,
                shield=None if c is None else c.shield,
                five_players_only=False if c is None else c.five_players_only,
            )
        G.add_edges_from(self.roads)
        return G


# --------------------------------------------------------------------------------------------
# Loading and checking
# --------------------------------------------------------------------------------------------


def load_board(path: str | Path | None = None) -> Board:
    """The default board, or the board in the JSON file ``path``.

    Raises :class:`BoardError` (naming the file, the entry and what was expected) if the file
    cannot be read, is not JSON, or does not describe a valid map.
    """
    if path is None:
        return _default_board()
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardError(f"{path}: cannot read the board file ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise BoardError(f"{path}: not a UTF-8 text file ({exc.reason})") from None
    return _from_text(text, str(path))


@lru_cache(maxsize=1)
def _default_board() -> Board:
    text = resources.files("coronas.hierro").joinpath("data/board.json").read_text("utf-8")
    return _from_text(text, "default")


def _from_text(text: str, source: str) -> Board:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardError(
            f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    return _parse(data, source)


def _fail(source: str, where: str, problem: str) -> BoardError:
    return BoardError(f"{source}: {where}: {problem}")


def _object(value: Any, source: str, where: str, required: set[str], optional: set[str]) -> dict:
    if not isinstance(value, dict):
        raise _fail(source, where, f"expected an object {{...}}, got {value!r}")
    missing = sorted(required - set(value))
    if missing:
        raise _fail(source, where, f"missing field(s) {missing}")
    unknown = sorted(set(value) - required - optional)
    if unknown:
        raise _fail(
            source, where, f"unknown field(s) {unknown}; expected {sorted(required | optional)}"
        )
    return value


def _text(value: Any, source: str, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(source, where, f"expected a non-empty text, got {value!r}")
    return value


def _whole(value: Any, allowed: Iterable[int], source: str, where: str, what: str) -> int:
    allowed = tuple(allowed)
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise _fail(source, where, f"{what} must be one of {list(allowed)}, got {value!r}")
    return value


def _coordinate(value: Any, limit: float, source: str, where: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or abs(value) > limit
    ):
        raise _fail(source, where, f"expected a number between -{limit} and {limit}, got {value!r}")
    return float(value)


def _parse(data: Any, source: str) -> Board:
    top = _object(
        data,
        source,
        "the board",
        {"families", "cities", "roads", "offmap"},
        {"format", "version", "name", "description"},
    )
    if top.get("format", FORMAT) != FORMAT:
        raise _fail(source, "field 'format'", f"expected {FORMAT!r}, got {top['format']!r}")
    if "version" in top:
        _whole(top["version"], (FORMAT_VERSION,), source, "field 'version'", "the version")
    name = top.get("name", "")
    description = top.get("description", "")
    for key, value in (("name", name), ("description", description)):
        if not isinstance(value, str):
            raise _fail(source, f"field {key!r}", f"expected text, got {value!r}")

    families = _parse_families(top["families"], source)
    cities = _parse_cities(top["cities"], families, source)
    roads = _parse_roads(top["roads"], cities, source)
    offmap = _parse_offmap(top["offmap"], cities, source)
    return Board(  # checks the counts and that the map is connected
        cities=cities,
        roads=roads,
        families=families,
        offmap=offmap,
        source=source,
        name=name,
        description=description,
    )


def _parse_families(value: Any, source: str) -> dict[int, Family]:
    if not isinstance(value, list):
        raise _fail(source, "field 'families'", f"expected a list of families, got {value!r}")
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
        if not isinstance(house, str):
            raise _fail(source, f"{where} 'house'", f"expected text, got {house!r}")
        colour = entry.get("colour", "#808080")
        if not isinstance(colour, str) or not _COLOUR.match(colour):
            raise _fail(source, f"{where} 'colour'", f"expected a colour '#rrggbb', got {colour!r}")
        families[shield] = Family(shield, fam_name, house, colour)
    missing = [s for s in SHIELDS if s not in families]
    if missing:
        raise _fail(
            source,
            "field 'families'",
            f"expected one family for each shield 1-5, missing {missing}",
        )
    return dict(sorted(families.items()))


def _parse_cities(value: Any, families: Mapping[int, Family], source: str) -> dict[str, City]:
    if not isinstance(value, list) or not value:
        raise _fail(source, "field 'cities'", f"expected a non-empty list of cities, got {value!r}")
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
            source, f"{where} 'kind'", f"expected one of {list(CASTLE_KINDS)}, got {kind!r}"
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
            f"(got {emissary!r})",
        )
    shield = entry.get("shield")
    if kind == "royal":
        if shield is not None:
            raise _fail(source, where, f"the royal castle bears no shield (got {shield!r})")
    else:
        if shield is None:
            raise _fail(source, where, f"a {kind} castle needs a 'shield' (1-5)")
        shield = _whole(shield, SHIELDS, source, where, "'shield'")
    five = entry.get("five_players_only", False)
    if not isinstance(five, bool):
        raise _fail(source, f"{where} 'five_players_only'", f"expected true or false, got {five!r}")
    if five and kind != "start":
        raise _fail(source, where, "only a start castle can be 'five_players_only'")
    return Castle(kind, army, emissary, shield, five)


def _parse_roads(value: Any, cities: Mapping[str, City], source: str) -> tuple:
    if not isinstance(value, list):
        raise _fail(
            source, "field 'roads'", f"expected a list of [city, city] pairs, got {value!r}"
        )
    roads: list[tuple[str, str]] = []
    seen: set[frozenset[str]] = set()
    for i, road in enumerate(value):
        where = f"roads[{i}] {road!r}"
        if not isinstance(road, list) or len(road) != 2:
            raise _fail(source, where, "expected a pair of city names [a, b]")
        for end in road:
            if not isinstance(end, str) or end not in cities:
                raise _fail(source, where, f"unknown city {end!r} (not listed under 'cities')")
        a, b = road
        if a == b:
            raise _fail(source, where, "a road must join two different cities")
        if frozenset(road) in seen:
            raise _fail(source, where, f"the road {a} - {b} is listed twice")
        seen.add(frozenset(road))
        roads.append((a, b))
    return tuple(roads)


def _parse_offmap(value: Any, cities: Mapping[str, City], source: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(source, "field 'offmap'", f"expected a list of area names, got {value!r}")
    missing = [a for a in OFFMAP_AREAS if a not in value]
    if missing:
        raise _fail(source, "field 'offmap'", f"missing the off-map area(s) {missing}")
    if len(set(value)) != len(value):
        raise _fail(source, "field 'offmap'", "an area is listed twice")
    clash = [a for a in value if a in cities]
    if clash:
        raise _fail(source, "field 'offmap'", f"{clash} are off the map but also listed as cities")
    return tuple(value)


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


# --------------------------------------------------------------------------------------------
# Advanced rules: shuffled castle tiles
# --------------------------------------------------------------------------------------------


def shuffle_tiles(board: Board, rng: random.Random | int | None = None) -> Board:
    """The board after the advanced-rules setup: castle tiles laid at random on the brown castles.

    Each tile carries a neutral castle's two banners and its shield; the tiles are shuffled
    among the brown positions. Start castles and Pavia keep theirs. ``rng`` is a
    :class:`random.Random` or a seed, so the same seed gives the same board.

    >>> shuffled = shuffle_tiles(load_board(), 7)
    >>> shuffled == shuffle_tiles(load_board(), 7)
    True
    """
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    positions = [n for n, c in board.castles.items() if c.kind == "neutral"]
    tiles = [board.castles[n] for n in positions]
    rng.shuffle(tiles)
    cities = dict(board.cities)
    for name, tile in zip(positions, tiles, strict=True):
        city = cities[name]
        cities[name] = City(city.name, city.lon, city.lat, tile)
    return Board(
        cities=cities,
        roads=board.roads,
        families=board.families,
        offmap=board.offmap,
        source=f"{board.source} (castle tiles shuffled)",
        name=board.name,
        description=board.description,
    )


# --------------------------------------------------------------------------------------------
# Analysis over the road graph (functions of a networkx graph, like networkx's own)
# --------------------------------------------------------------------------------------------


def _city(G: nx.Graph, name: str) -> str:
    if name not in G:
        raise nx.NodeNotFound(f"no city {name!r} on the map")
    return name


def _castles(G: nx.Graph) -> list[str]:
    return [n for n, d in G.nodes(data=True) if d.get("castle")]


def move_actions(G: nx.Graph, source: str, target: str) -> int:
    """Move actions needed to bring an army from ``source`` to ``target`` (one road per action).

    Attacking once there is one more action; with two actions a turn, a castle at distance 1
    can be reached and attacked in the same turn.
    """
    return nx.shortest_path_length(G, _city(G, source), _city(G, target))


def castles_within(G: nx.Graph, city: str, n: int) -> dict[str, int]:
    """Castles an army in ``city`` can reach in at most ``n`` move actions, with the number.

    Sorted by distance, then name; a castle in ``city`` itself is at distance 0.
    """
    dist = nx.single_source_shortest_path_length(G, _city(G, city), cutoff=n)
    found = [(d, c) for c, d in dist.items() if G.nodes[c].get("castle")]
    return {c: d for d, c in sorted(found)}


def cut_cities(G: nx.Graph) -> list[str]:
    """Cities whose loss cuts the map in two (articulation points), sorted by name.

    An army holding such a city stands on the only way between two parts of the map.
    """
    return sorted(nx.articulation_points(G))


def betweenness(G: nx.Graph) -> dict[str, Fraction]:
    """Exact betweenness of each city: how many shortest routes between other cities use it.

    For each unordered pair of other cities {s, t}, a city scores the fraction of the shortest
    s-t routes that pass through it. The values are exact fractions (Brandes' algorithm in
    rationals); ``networkx.betweenness_centrality(G, normalized=False)`` gives them as floats.
    Divide by ``(n - 1)(n - 2) / 2`` for the normalized value.
    """
    score: dict[str, Fraction] = dict.fromkeys(G, Fraction(0))
    for s in G:
        # Breadth-first search counting shortest paths (sigma) from s.
        order: list[str] = []
        preds: dict[str, list[str]] = {v: [] for v in G}
        sigma = dict.fromkeys(G, 0)
        dist = dict.fromkeys(G, -1)
        sigma[s], dist[s] = 1, 0
        queue = deque([s])
        while queue:
            v = queue.popleft()
            order.append(v)
            for w in G[v]:
                if dist[w] < 0:
                    dist[w] = dist[v] + 1
                    queue.append(w)
                if dist[w] == dist[v] + 1:
                    sigma[w] += sigma[v]
                    preds[w].append(v)
        # Accumulate dependencies back from the farthest cities.
        delta = dict.fromkeys(G, Fraction(0))
        for w in reversed(order):
            for v in preds[w]:
                delta[v] += Fraction(sigma[v], sigma[w]) * (1 + delta[w])
            if w != s:
                score[w] += delta[w]
    # Each unordered pair was counted from both ends.
    return {v: x / 2 for v, x in score.items()}


def castles_by_shield(G: nx.Graph) -> dict[int, list[str]]:
    """Castles grouped by shield (start castle first, then by name); Pavia bears none."""
    groups: dict[int, list[str]] = {}
    for n in sorted(_castles(G), key=lambda n: (G.nodes[n]["kind"] != "start", n)):
        shield = G.nodes[n].get("shield")
        if shield is not None:
            groups.setdefault(shield, []).append(n)
    return dict(sorted(groups.items()))


def nearest_castles_by_shield(
    G: nx.Graph, start: str, kinds: Iterable[str] = ("start", "neutral")
) -> dict[int, tuple[int, list[str]]]:
    """For an army at ``start``, the nearest castles of each shield: ``{shield: (moves, names)}``.

    Only castles of the given ``kinds`` count, and not the one at ``start`` itself (a player's
    own start castle). Ties at the same distance are all listed, sorted by name. Useful to plan
    towards 2 or 3 castles of one shield (4 and 9 points).
    """
    kinds = set(kinds)
    dist = nx.single_source_shortest_path_length(G, _city(G, start))
    best: dict[int, tuple[int, list[str]]] = {}
    for n in sorted(_castles(G)):
        data = G.nodes[n]
        shield = data.get("shield")
        if n == start or shield is None or data.get("kind") not in kinds or n not in dist:
            continue
        d = dist[n]
        if shield not in best or d < best[shield][0]:
            best[shield] = (d, [n])
        elif d == best[shield][0]:
            best[shield][1].append(n)
    return dict(sorted(best.items()))


def shortest_route(G: nx.Graph, source: str, target: str) -> list[str]:
    """A shortest route from ``source`` to ``target`` as a list of cities.

    Among equally short routes, the one first in alphabetical order, so the answer does not
    depend on the order the roads were listed in.
    """
    return min(nx.all_shortest_paths(G, _city(G, source), _city(G, target)))
