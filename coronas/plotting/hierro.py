"""Corona de Hierro drawings: the road map of Italy with its castles, banners and shields.

:func:`draw_board` draws a board, or a game on it: pass a state (anything with a ``graph()``
method, or a graph itself) and whatever of these node attributes it carries is drawn; absent
ones are simply left out, so the same picture serves a bare board and a game in progress:

``owner``       player index holding the castle: a thick outline in the player's colour
``troops``      ``True`` while a recruitable army is inside: a white pawn dot in the castle
``armies``      ``{player: pawns}``: a counter per player beside the city, with its size
``emissaries``  list of players (or ``{player: count}``): small diamonds by the castle
``alliances``   on the ``Alliance Zone`` node: ``(requester, target, accepted)`` triples

Off-map nodes (``Rome``, ``Saracens``, ``Magyars``, ``Alliance Zone``) have no position: they
are drawn as boxes at the map's edges, with their emissaries. Graph attributes ``colours``
(one per player), ``legitimacy``, ``vp`` (headed ``vp_label``, else "VP") and ``shields`` add a
players' table if present.

>>> import matplotlib; matplotlib.use("Agg")
>>> fig, ax = draw_board()
>>> ax.get_title()
'Corona de Hierro: Kingdom of Italy, 887 (reconstruction)'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from coronas.hierro.board import Board, load_board

__all__ = ["draw_board", "write_figures"]

KIND_COLOURS = {"start": "#a7a7a7", "neutral": "#9c6b3c", "royal": "#e0b400"}
"""Castle fill by kind: grey start castles, brown neutral castles, the King's gold."""

PLAYER_COLOURS = {
    "red": "#d62728",
    "green": "#2ca02c",
    "blue": "#1f5fbf",
    "yellow": "#f5c400",
    "black": "#222222",
}
"""Drawing tones for the players' colour names (other names go to matplotlib as they are)."""

_FALLBACK_PLAYERS = ("red", "green", "blue", "yellow", "black")

_LAND, _SEA, _ROAD, _RIVER = "#f3ecd9", "#d5e6f0", "#8a7f6a", "#7fb0d0"
_EXTENT = (6.55, 14.45, 41.75, 46.65)  # lon min, lon max, lat min, lat max

# A coarse coastline of the peninsula (lon, lat): enough to place the map, not a survey.
_LAND_OUTLINE = [
    (6.0, 43.60), (7.53, 43.79), (7.78, 43.82), (8.20, 43.98), (8.48, 44.31), (8.93, 44.41),
    (9.40, 44.27), (9.83, 44.10), (10.24, 43.87), (10.31, 43.55), (10.52, 42.93),
    (11.00, 42.70), (11.20, 42.44), (11.80, 42.09), (12.29, 41.73), (12.70, 41.45),
    (13.00, 41.25), (15.00, 41.25), (15.00, 41.95), (14.70, 42.10), (14.21, 42.47),
    (13.88, 42.95), (13.80, 43.18), (13.62, 43.55), (13.52, 43.62), (13.22, 43.72),
    (12.92, 43.92), (12.58, 44.07), (12.40, 44.20), (12.30, 44.45), (12.25, 44.70),
    (12.53, 44.95), (12.28, 45.22), (12.33, 45.43), (12.88, 45.60), (13.38, 45.68),
    (13.53, 45.80), (13.77, 45.65), (13.57, 45.53), (13.59, 45.23), (13.85, 44.87),
    (14.12, 45.08), (14.44, 45.33), (15.00, 45.20), (15.00, 47.20), (6.0, 47.20),
]  # fmt: skip
_PO = [
    (7.20, 44.70), (7.69, 45.07), (7.95, 45.19), (8.45, 45.13), (8.90, 45.05), (9.20, 45.12),
    (9.69, 45.06), (10.02, 45.12), (10.60, 45.00), (11.13, 45.07), (11.60, 44.95),
    (12.05, 44.95), (12.45, 44.95),
]  # fmt: skip

# Hand placement on the default map where labels would collide (other boards: the defaults).
_CASTLE_BELOW = frozenset({"Pavia", "Mantua"})
_LABEL_LEFT = frozenset({"Vicenza", "Novara", "Reggio", "Como"})

# Where the off-map areas sit (lon, lat of the box centre) and what they stand for.
_OFFMAP_PLACES = {
    "Rome": ((12.49, 42.1), "the Pope"),
    "Saracens": ((9.55, 42.55), "raiders from the sea"),
    "Magyars": ((14.05, 45.85), "raiders from the east"),
    "Alliance Zone": ((13.75, 44.55), "requests and pacts"),
}


def _player_colour(G: Any, player: int) -> str:
    names = G.graph.get("colours") or _FALLBACK_PLAYERS
    name = names[player] if 0 <= player < len(names) else "grey"
    return PLAYER_COLOURS.get(name, name)


def _player_name(G: Any, player: int) -> str:
    names = G.graph.get("colours")
    return names[player] if names and 0 <= player < len(names) else f"player {player + 1}"


def _as_graph(board: Board, state: Any) -> Any:
    if state is None:
        return board.graph()
    graph = getattr(state, "graph", None)
    if callable(graph):
        return graph()
    return state  # already a graph


def _emissary_list(value: Any) -> list[int]:
    if not value:
        return []
    if isinstance(value, Mapping):
        return [p for p, n in sorted(value.items()) for _ in range(int(n))]
    return list(value)


def draw_board(
    board: Board | None = None,
    state: Any = None,
    ax: Any = None,
    *,
    labels: bool = True,
    legend: bool = True,
    title: str | None = None,
    figsize: tuple[float, float] = (12.5, 11.0),
) -> tuple[Any, Any]:
    """Draw the map (and the game in ``state``, if given); return ``(figure, axes)``.

    Cities sit at their longitude and latitude; roads are lines. A red dot marks a city with a
    castle, a grey dot one without. Each castle is a square above its city: grey for starting
    castles, brown for neutral ones, gold for Pavia; the round badge beside it is its shield
    (number and colour), and the tag below reads ``army | emissary``, the numbers on its left
    and right banners (a single number where it takes no emissaries).

    ``board`` defaults to the state's board, else the default board. ``state`` is a game state
    (its ``graph()`` is drawn) or a graph with the same attributes; see the module docstring
    for what is drawn of it. ``ax`` is an existing matplotlib axes to draw on.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Polygon

    if board is None:
        board = getattr(state, "board", None) or load_board()
    G = _as_graph(board, state)
    if ax is None:
        fig, ax = plt.subplots(figsize=figsize)
    else:
        fig = ax.figure
    lon0, lon1, lat0, lat1 = _EXTENT
    ax.set_xlim(lon0, lon1)
    ax.set_ylim(lat0, lat1)
    ax.set_aspect(1 / math.cos(math.radians((lat0 + lat1) / 2)))
    ax.set_facecolor(_SEA)
    ax.add_patch(Polygon(_LAND_OUTLINE, closed=True, fc=_LAND, ec="#b9ad8f", lw=0.8, zorder=0))
    ax.plot(*zip(*_PO, strict=True), color=_RIVER, lw=1.6, zorder=0.5, solid_capstyle="round")
    ax.text(8.55, 45.17, "Po", color="#4f86ad", fontsize=8, style="italic", zorder=0.6)
    ax.text(9.6, 46.35, "A L P S", color="#a09578", fontsize=11, ha="center", zorder=0.6)
    ax.text(13.3, 43.95, "Adriatic Sea", color="#6b8fa8", fontsize=9, style="italic", zorder=0.6)
    ax.text(8.0, 43.55, "Ligurian Sea", color="#6b8fa8", fontsize=9, style="italic", zorder=0.6)
    ax.set_xticks([])
    ax.set_yticks([])

    pos = {n: d["pos"] for n, d in G.nodes(data=True) if d.get("pos") is not None}
    for a, b in G.edges():
        if a in pos and b in pos:
            (x0, y0), (x1, y1) = pos[a], pos[b]
            ax.plot([x0, x1], [y0, y1], color=_ROAD, lw=1.3, zorder=1, solid_capstyle="round")

    dy = 0.105  # castle square height above its city, in degrees of latitude
    for name, (x, y) in pos.items():
        data = G.nodes[name]
        has_castle = bool(data.get("castle"))
        ax.plot(
            x,
            y,
            "o",
            ms=6.5 if has_castle else 5,
            mfc="#d0202a" if has_castle else "#8c8c8c",
            mec="white",
            mew=0.8,
            zorder=3,
        )
        if not has_castle:
            if labels:
                left = name in _LABEL_LEFT
                ax.annotate(
                    name,
                    (x, y),
                    xytext=(-4 if left else 4, -3),
                    textcoords="offset points",
                    ha="right" if left else "left",
                    va="top",
                    fontsize=6.5,
                    color="#555555",
                    zorder=5,
                )
            continue
        below = name in _CASTLE_BELOW
        cy = y - dy if below else y + dy
        _draw_castle(ax, G, board, x, cy, data)
        if labels:
            ax.annotate(
                name,
                (x, cy),
                xytext=(0, -8 if below else 7),
                textcoords="offset points",
                ha="center",
                va="top" if below else "baseline",
                fontsize=8,
                fontweight="bold",
                color="#2b2118",
                zorder=6,
            )
        if below:  # banners under the name, clear of the roads above the city
            _draw_banners(ax, x, cy, data, offset=-21)
        else:
            _draw_banners(ax, x, y, data)

    for name, (x, y) in pos.items():
        armies = G.nodes[name].get("armies") or {}
        for i, (player, size) in enumerate(sorted(armies.items())):
            if size <= 0:
                continue
            ax.annotate(
                str(size),
                (x, y),
                xytext=(-11 - 12 * i, 0),
                textcoords="offset points",
                ha="center",
                va="center",
                fontsize=7,
                fontweight="bold",
                color="white" if _player_name(G, player) != "yellow" else "black",
                bbox={"boxstyle": "circle,pad=0.25", "fc": _player_colour(G, player), "ec": "k"},
                zorder=8,
            )

    _draw_offmap(ax, board, G)
    if legend:
        _draw_legend(ax, board, Line2D)
    _draw_players(ax, G)
    ax.set_title(title if title is not None else f"Corona de Hierro: {board.name or board.source}")
    return fig, ax


def _draw_castle(ax: Any, G: Any, board: Board, x: float, y: float, data: Mapping) -> None:
    kind = data.get("kind")
    owner = data.get("owner")
    edge = _player_colour(G, owner) if owner is not None else "#3b2f22"
    ax.plot(
        x,
        y,
        "*" if kind == "royal" else "s",
        ms=17 if kind == "royal" else 11,
        mfc=KIND_COLOURS.get(kind, "white"),
        mec=edge,
        mew=3.0 if owner is not None else 0.9,
        zorder=4,
    )
    if data.get("troops"):
        ax.plot(x, y, "o", ms=3.5, mfc="white", mec="k", mew=0.5, zorder=5)
    shield = data.get("shield")
    if shield is not None:
        family = board.families.get(shield)
        colour = family.colour if family is not None else "#666666"
        ax.annotate(
            str(shield),
            (x, y),
            xytext=(10, 0),
            textcoords="offset points",
            ha="center",
            va="center",
            fontsize=6.5,
            fontweight="bold",
            color="white",
            bbox={"boxstyle": "circle,pad=0.2", "fc": colour, "ec": "white", "lw": 0.6},
            zorder=6,
        )
    for i, player in enumerate(_emissary_list(data.get("emissaries"))):
        ax.plot(
            x - 0.13 - 0.07 * i,
            y,
            "D",
            ms=5,
            mfc=_player_colour(G, player),
            mec="k",
            mew=0.5,
            zorder=7,
        )


def _draw_banners(ax: Any, x: float, y: float, data: Mapping, offset: float = -6) -> None:
    army, emissary = data.get("army_target"), data.get("emissary_target")
    if army is None:
        return
    text = f"{army} | {emissary}" if emissary is not None else f"{army}"
    ax.annotate(
        text,
        (x, y),
        xytext=(0, offset),
        textcoords="offset points",
        ha="center",
        va="top",
        fontsize=7,
        fontweight="bold",
        color="#2b2118",
        bbox={"boxstyle": "round,pad=0.18", "fc": "white", "ec": "#9c6b3c", "lw": 0.6},
        zorder=6,
    )


def _draw_offmap(ax: Any, board: Board, G: Any) -> None:
    from matplotlib.transforms import offset_copy

    for area in board.offmap:
        (x, y), what = _OFFMAP_PLACES.get(area, ((7.3, 42.2), "off the map"))
        data = G.nodes[area] if area in G else {}
        lines = [area, what]
        alliances = data.get("alliances") or []
        for requester, target, accepted in alliances:
            mark = "allied" if accepted else "asks"
            lines.append(f"{_player_name(G, requester)} {mark} {_player_name(G, target)}")
        ax.text(
            x,
            y,
            "\n".join(lines),
            ha="center",
            va="center",
            fontsize=7.5,
            color="#2b2118",
            bbox={
                "boxstyle": "round,pad=0.4",
                "fc": "#fffaf0",
                "ec": "#7a6a50",
                "lw": 1.0,
                "ls": "--",
            },
            zorder=6,
        )
        if area != "Alliance Zone":
            players = _emissary_list(data.get("emissaries"))
            for i, player in enumerate(players):
                shifted = offset_copy(
                    ax.transData,
                    fig=ax.figure,
                    x=9 * (i - (len(players) - 1) / 2),
                    y=-24,
                    units="points",
                )
                ax.plot(
                    x,
                    y,
                    "D",
                    ms=6,
                    mfc=_player_colour(G, player),
                    mec="k",
                    mew=0.5,
                    transform=shifted,
                    zorder=7,
                )


def _draw_legend(ax: Any, board: Board, Line2D: Any) -> None:
    def marker(m: str, fc: str, ms: float = 9, ec: str = "#3b2f22", **kw: Any) -> Any:
        return Line2D([], [], marker=m, ls="", mfc=fc, mec=ec, ms=ms, **kw)

    handles = [
        marker("s", KIND_COLOURS["start"]),
        marker("s", KIND_COLOURS["neutral"]),
        marker("*", KIND_COLOURS["royal"], ms=13),
        marker("o", "#d0202a", ms=6, ec="white"),
        marker("o", "#8c8c8c", ms=5, ec="white"),
        Line2D([], [], color=_ROAD, lw=1.3),
    ]
    texts = [
        "starting castle (grey)",
        "neutral castle (brown)",
        "Pavia, the King's castle",
        "city with a castle",
        "city",
        "road (one move)",
    ]
    for shield, family in board.families.items():
        handles.append(marker("o", family.colour, ms=8, ec="white"))
        texts.append(f"shield {shield}: {family.name}")
    handles.append(Line2D([], [], ls=""))
    texts.append("banners: army | emissary")
    leg = ax.legend(
        handles,
        texts,
        loc="lower left",
        fontsize=7,
        framealpha=0.92,
        title="Map",
        title_fontsize=8,
        borderpad=0.6,
    )
    leg.set_zorder(9)


def _draw_players(ax: Any, G: Any) -> None:
    colours = G.graph.get("colours")
    players = G.graph.get("players")
    if not colours or not players:
        return
    rows = []
    for p in range(players):
        parts = [f"{colours[p]:<7}"]
        # the VP as the state names them ("VP now" before the end, "score" at the end)
        vp = G.graph.get("vp_label", "VP")
        for key, label in (("legitimacy", "legit."), ("vp", vp), ("shields", "exp.")):
            values = G.graph.get(key)
            if values is not None and p < len(values):
                parts.append(f"{label} {values[p]}")
        rows.append("  ".join(parts))
    ax.text(
        0.01,
        0.99,
        "\n".join(rows),
        transform=ax.transAxes,
        ha="left",
        va="top",
        fontsize=7.5,
        family="monospace",
        bbox={"boxstyle": "round,pad=0.4", "fc": "white", "ec": "#7a6a50", "alpha": 0.92},
        zorder=9,
    )


def write_figures(outdir: str | Path) -> list[Path]:
    """Write ``hierro-map.png`` and ``hierro-map.svg`` (the default board) into ``outdir``."""
    import matplotlib.pyplot as plt

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    paths = [outdir / "hierro-map.png", outdir / "hierro-map.svg"]
    with plt.rc_context({"svg.hashsalt": "coronas-hierro"}):  # same SVG ids on every run
        fig, _ = draw_board()
        fig.savefig(paths[0], dpi=150, bbox_inches="tight", metadata={"Software": None})
        fig.savefig(paths[1], bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    return paths
