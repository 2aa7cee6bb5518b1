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
(shield number -> family name). The analysis functions of :mod:`coronas.hierro.routes`
(distances, castles in reach, shortest routes; importable from here too) take any graph with
these node attributes (networkx style), so they work on a hand-made graph as well as on the
board's.

>>> G = board.graph()
>>> move_actions(G, "Friuli", "Trento")
2

The file format and its checks are in :mod:`coronas.hierro.board_file`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

import networkx as nx

from coronas.engine.textfile import parse_json, read_text_file
from coronas.hierro.board_file import (
    BANNER_VALUES,
    CASTLE_KINDS,
    FORMAT,
    FORMAT_VERSION,
    NEUTRAL_PER_SHIELD,
    OFFMAP_AREAS,
    SHIELDS,
    START_PER_SHIELD,
    BoardError,
    Castle,
    City,
    Family,
    check_map,
    parse_board_data,
)
from coronas.hierro.routes import (
    betweenness,
    castles_by_shield,
    castles_within,
    cut_cities,
    move_actions,
    nearest_castles_by_shield,
    shortest_route,
)

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
        check_map(self.cities, self.roads, self.source)
        adjacent: dict[str, list[str]] = {name: [] for name in self.cities}
        for a, b in self.roads:
            adjacent[a].append(b)
            adjacent[b].append(a)
        set_(
            self, "_adjacent", MappingProxyType({k: tuple(sorted(v)) for k, v in adjacent.items()})
        )
        set_(self, "_graph", self._build_graph())

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the arguments that build it (worker processes receive states); the
        default board as a call to the one the process already holds."""
        if self is _default_board():
            return (_default_board, ())
        return (
            Board,
            (
                dict(self.cities),
                self.roads,
                dict(self.families),
                self.offmap,
                self.source,
                self.name,
                self.description,
            ),
        )

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
        return cls(**parse_board_data(data, source))

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
    text = read_text_file(path, BoardError, "board file")
    return _from_text(text, str(Path(path)))


@lru_cache(maxsize=1)
def _default_board() -> Board:
    text = resources.files("coronas.hierro").joinpath("data/board.json").read_text("utf-8")
    return _from_text(text, "default")


def _from_text(text: str, source: str) -> Board:
    data = parse_json(text, source, BoardError)
    return Board(**parse_board_data(data, source))


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
