"""How a Carolus Magnus state shows itself: text, HTML with an SVG ring, its networkx graph,
and what a player sees (:meth:`StateViews.observation`).

:class:`StateViews` is a part of :class:`~coronas.carolus.state.CarolusState`. The HTML is
drawn by hand in SVG so the library needs no plotting package; the matplotlib picture is in
:mod:`coronas.plotting.carolus`. Colours are shared by both.
"""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING, Any

from coronas.carolus.actions import player_name
from coronas.carolus.board import region_name, ring_graph
from coronas.engine.seats import check_seat
from coronas.formatting import plural

if TYPE_CHECKING:
    import networkx as nx

    from coronas.carolus.state import CarolusState

__all__ = [
    "FAMILY_COLOURS",
    "PLAYER_COLOURS",
    "PLAYER_TINTS",
    "StateViews",
    "base_angle",
    "family_colour",
    "observation_text",
    "ring_svg",
    "state_html",
]

FAMILY_COLOURS = {
    "red": "#d62728",
    "yellow": "#f2c200",
    "green": "#2ca02c",
    "blue": "#1f77b4",
    "pink": "#e377c2",
}
"""Drawing colour of each default family; other names get colours from ``_SPARE``."""
_SPARE = ("#8c564b", "#17becf", "#7f7f7f", "#bcbd22", "#9467bd")

PLAYER_COLOURS = ("#555555", "#b5651d", "#6a3d9a")
"""Castle and court colour of players 0, 1 and 2."""
PLAYER_TINTS = ("#e6e6e6", "#f6dcc4", "#e2d6ef")
"""Light fill of regions owned by players 0, 1 and 2."""


def family_colour(family: str, families: tuple[str, ...] = ()) -> str:
    """The colour a family is drawn in."""
    if family in FAMILY_COLOURS:
        return FAMILY_COLOURS[family]
    i = families.index(family) if family in families else 0
    return _SPARE[i % len(_SPARE)]


def _arc_path(cx: float, cy: float, r0: float, r1: float, a0: float, a1: float) -> str:
    """SVG path of an annular sector between angles a0 > a1 (radians, clockwise)."""

    def pt(r: float, a: float) -> str:
        return f"{cx + r * math.cos(a):.1f},{cy - r * math.sin(a):.1f}"

    large = 1 if (a0 - a1) > math.pi else 0
    return (
        f"M{pt(r1, a0)} A{r1},{r1} 0 {large} 1 {pt(r1, a1)} "
        f"L{pt(r0, a1)} A{r0},{r0} 0 {large} 0 {pt(r0, a0)} Z"
    )


def base_angle(number: int, regions: int) -> tuple[float, float]:
    """(start, end) angles of region ``number``: region 1 at the top, numbers run clockwise."""
    width = 2 * math.pi / regions
    start = math.pi / 2 + width / 2 - (number - 1) * width
    return start, start - width


def ring_svg(state: CarolusState, size: int = 360) -> str:
    """The ring as an SVG picture: sectors per region, knights, castles, emperor, courts."""
    rules = state.rules
    nr = rules.regions
    cx = cy = size / 2
    r1, r0 = size * 0.48, size * 0.30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}" style="font-family:sans-serif">'
    ]
    for r in state.ring:
        members = state.members[r]
        a0 = base_angle(members[0], nr)[0]
        a1 = a0 - len(members) * 2 * math.pi / nr
        owner = state.owner[r]
        fill = PLAYER_TINTS[owner] if owner >= 0 else "#fbf8ef"
        stroke = "#c9a227" if r == state.emperor else "#444"
        width = 3.5 if r == state.emperor else 1.2
        title = escape(f"region {region_name(members)}")
        parts.append(
            f'<path d="{_arc_path(cx, cy, r0, r1, a0, a1)}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width}"><title>{title}</title></path>'
        )
        mid = (a0 + a1) / 2
        # knights: small dots in rows along the middle radius
        dots = [f for f, c in zip(rules.families, state.knights[r], strict=True) for _ in range(c)]
        span = (a0 - a1) * 0.8
        per_row = max(2, int(span * (r0 + r1) / 2 / 9))
        for k, f in enumerate(dots[:24]):
            row, col = divmod(k, per_row)
            n_row = min(per_row, len(dots) - row * per_row)
            a = mid + (col - (n_row - 1) / 2) * (span / max(per_row, 1))
            rad = r0 + 8 + row * 8
            parts.append(
                f'<circle cx="{cx + rad * math.cos(a):.1f}" '
                f'cy="{cy - rad * math.sin(a):.1f}" r="3.6" '
                f'fill="{family_colour(f, rules.families)}" stroke="#222" '
                f'stroke-width="0.5"/>'
            )
        lx, ly = cx + (r1 - 11) * math.cos(mid), cy - (r1 - 11) * math.sin(mid)
        label = region_name(members) if len(members) < 4 else f"{members[0]}..{members[-1]}"
        parts.append(
            f'<text x="{lx:.1f}" y="{ly + 3:.1f}" font-size="9" '
            f'text-anchor="middle">{escape(label)}</text>'
        )
        if state.castles[r]:
            bx, by = cx + (r1 - 26) * math.cos(mid), cy - (r1 - 26) * math.sin(mid)
            parts.append(
                f'<rect x="{bx - 6:.1f}" y="{by - 6:.1f}" width="12" height="12" '
                f'fill="{PLAYER_COLOURS[owner]}"/><text x="{bx:.1f}" y="{by + 4:.1f}" '
                f'font-size="9" fill="white" text-anchor="middle">'
                f"{state.castles[r]}</text>"
            )
        if r == state.emperor:
            ex, ey = cx + (r1 + 0) * math.cos(mid), cy - (r1 + 0) * math.sin(mid)
            parts.append(
                f'<circle cx="{ex:.1f}" cy="{ey:.1f}" r="7" fill="#c9a227" '
                f'stroke="#222"/><text x="{ex:.1f}" y="{ey + 3.5:.1f}" font-size="9" '
                f'text-anchor="middle">E</text>'
            )
    # courts in the middle: one row per player, a bar per family
    fams = rules.families
    n = state.num_players
    for p in range(n):
        y = cy - 14 * n + p * 28 + 6
        parts.append(
            f'<text x="{cx - r0 + 22:.1f}" y="{y + 10:.1f}" font-size="10" '
            f'fill="{PLAYER_COLOURS[p]}">P{p + 1}</text>'
        )
        for i, f in enumerate(fams):
            x = cx - r0 + 44 + i * 22
            c = state.court[p][i]
            stroke = ' stroke="#000" stroke-width="2"' if state.control[i] == p else ""
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="18" height="14" '
                f'fill="{family_colour(f, fams)}"{stroke}/><text x="{x + 9:.1f}" '
                f'y="{y + 11:.1f}" font-size="10" text-anchor="middle" fill="white">'
                f"{c}</text>"
            )
    parts.append("</svg>")
    return "".join(parts)


def state_html(state: CarolusState) -> str:
    """The ``_repr_html_`` of a state: status line, SVG ring, courts and regions tables."""
    fams = state.rules.families
    dot = '<span style="color:{c}">&#9679;</span>'
    head = "".join(f"<th>{dot.format(c=family_colour(f, fams))} {escape(f)}</th>" for f in fams)
    rows = []
    totals = state.castle_totals()
    for p in range(state.num_players):
        cells = "".join(
            f"<td style='text-align:center'>{'<b>' if state.control[i] == p else ''}"
            f"{state.court[p][i]}{' &#9876;</b>' if state.control[i] == p else ''}</td>"
            for i in range(len(fams))
        )
        reserve = (
            ", ".join(f"{c} {f}" for f, c in zip(fams, state.reserve[p], strict=True) if c)
            or "empty"
        )
        used = ", ".join(map(str, state.used[p])) or "none"
        disc = state.chosen[p] or "-"
        rows.append(
            f"<tr><th style='color:{PLAYER_COLOURS[p]}'>{player_name(p)}</th>{cells}"
            f"<td>{totals[p]}</td><td>{disc}</td><td>{used}</td>"
            f"<td>{escape(reserve)}</td></tr>"
        )
    courts = (
        f"<table><tr><th>court</th>{head}<th>castles</th><th>disc</th>"
        f"<th>discs used</th><th>reserve</th></tr>{''.join(rows)}</table>"
    )
    reg_rows = []
    for r in state.ring:
        cells = "".join(f"<td style='text-align:center'>{c or ''}</td>" for c in state.knights[r])
        owner = state.owner[r]
        castle = f"{state.castles[r]} ({player_name(owner)})" if state.castles[r] else ""
        emp = " &#9819;" if r == state.emperor else ""
        reg_rows.append(
            f"<tr><th>{escape(region_name(state.members[r]))}{emp}</th>{cells}"
            f"<td>{castle}</td></tr>"
        )
    regions = f"<table><tr><th>region</th>{head}<th>castles</th></tr>{''.join(reg_rows)}</table>"
    last = ""
    if state.last is not None:
        last = f"<div>last stop: region {state.last.region}: {escape(state.last.describe())}</div>"
    order = ", ".join(player_name(p) for p in state.order)
    return (
        f"<div><b>Carolus Magnus</b>, {state.num_players} players. "
        f"{escape(state.status())}<br>order: {order}{last}"
        f"<div style='display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap'>"
        f"{ring_svg(state)}<div>{courts}<br>{regions}</div></div>"
        f"<div style='font-size:smaller'>&#9876; controls the family; &#9819; the emperor"
        f"</div></div>"
    )


class StateViews:
    """Text, HTML and the graph of a state (a part of ``CarolusState``)."""

    def player_name(self, player: int) -> str:
        """``"player 1"`` ... ``"player 3"``: seats are counted from one, as in the rulebook."""
        return player_name(player)

    def region_data(self, region: int) -> dict[str, Any]:
        """The node attributes of ``region`` in :meth:`graph`."""
        owner = self.owner[region]
        return {
            "members": self.members[region],
            "name": region_name(self.members[region]),
            "knights": dict(zip(self.rules.families, self.knights[region], strict=True)),
            "castles": self.castles[region],
            "owner": owner if owner >= 0 else None,
            "emperor": region == self.emperor,
        }

    def graph(self) -> nx.Graph:
        """The ring as a networkx cycle graph, one node per current (possibly merged) region.

        Node attributes: ``members`` (region numbers, clockwise), ``name``, ``knights``
        ({family: count}), ``castles`` (count), ``owner`` (player or None), ``emperor`` (bool).
        Edges join clockwise neighbours (attribute ``clockwise``). Graph attributes:
        ``clockwise`` (ids in order), ``emperor``, ``courts`` and ``reserves`` (per player
        {family: count}), ``control`` ({family: player or None}), ``castle_totals``,
        ``order``, ``round``, ``phase``. A merge shows as nodes contracting into one.
        """
        fams = self.rules.families
        return ring_graph(
            self.ring,
            {r: self.region_data(r) for r in self.ring},
            emperor=self.emperor,
            courts=[dict(zip(fams, c, strict=True)) for c in self.court],
            reserves=[dict(zip(fams, c, strict=True)) for c in self.reserve],
            control={f: (p if p >= 0 else None) for f, p in zip(fams, self.control, strict=True)},
            castle_totals=self.castle_totals(),
            order=list(self.order),
            round=self.round,
            phase=self.phase,
        )

    def chance_text(self) -> str:
        """What the chance node being resolved decides, in words: ``"a knight is drawn for
        region 3"``; ``""`` at a decision."""
        if not self.is_chance_node():
            return ""
        if self.phase == "board":
            return f"a knight is drawn from the bag for region {self.next_region}"
        if self.phase == "reserve":
            return f"{player_name(self.drawer)} draws a knight from the bag for the reserve"
        if self.phase == "order":
            return "the initial playing order is drawn"
        return f"{player_name(self.acting_player)} draws a knight from the bag to replenish"

    def status(self) -> str:
        """One line: the round and what happens next."""
        if self.phase == "board":
            return f"set-up: shuffling knights onto the board (region {self.next_region} next)"
        if self.phase == "reserve":
            extra = ", assigning a joker" if self.joker else ""
            return (
                f"set-up: {player_name(self.drawer)} draws the reserve ({self.left} to go{extra})"
            )
        if self.phase == "order":
            return "set-up: drawing the initial playing order"
        if self.phase == "over":
            w = self.winners()
            who = " and ".join(player_name(p) for p in w)
            return (
                f"game over after round {self.round} ({self.end_reason}): "
                f"{who} {'win' if len(w) > 1 else 'wins'} with {max(self.returns())} castles"
            )
        p = self.acting_player
        head = f"round {self.round}: "
        if self.phase == "disc":
            return head + f"{player_name(p)} chooses a disc"
        disc = f" (disc {self.chosen[p]})"
        if self.phase == "deploy":
            return head + f"{player_name(p)}{disc} deploys {plural(self.left, 'more knight')}"
        if self.phase == "move":
            return head + f"{player_name(p)}{disc} moves the emperor"
        extra = ", assigning a joker" if self.joker else ""
        return head + f"{player_name(p)} replenishes ({self.left} to draw{extra})"

    def __str__(self) -> str:
        fams = self.rules.families
        width = max(len(f) for f in fams)
        lines = [f"Carolus Magnus, {self.num_players} players. {self.status()}"]
        head = "region".ljust(12) + " ".join(f.rjust(width) for f in fams) + "  castles"
        lines.append(head)
        for r in self.ring:
            name = region_name(self.members[r]) + (" E" if r == self.emperor else "")
            row = name.ljust(12) + " ".join(str(c).rjust(width) for c in self.knights[r])
            if self.castles[r]:
                row += f"  {self.castles[r]} of {player_name(self.owner[r])}"
            lines.append(row)
        lines.append(
            "court".ljust(12)
            + " ".join(f.rjust(width) for f in fams)
            + "  reserve; castles; discs used"
        )
        for p in range(self.num_players):
            cells = []
            for i, c in enumerate(self.court[p]):
                mark = "*" if self.control[i] == p else ""
                cells.append(f"{mark}{c}".rjust(width))
            reserve = (
                " ".join(f"{f[0]}{c}" for f, c in zip(fams, self.reserve[p], strict=True) if c)
                or "empty"
            )
            used = ",".join(map(str, self.used[p])) or "-"
            lines.append(
                player_name(p).ljust(12)
                + " ".join(cells)
                + f"  {reserve}; {self.castle_totals()[p]}; {used}"
            )
        order = ", ".join(
            player_name(p) + (f" (disc {self.chosen[p]})" if self.chosen[p] else "")
            for p in self.order
        )
        lines.append(f"order: {order}   (E = emperor, * = controls the family)")
        if self.last is not None:
            lines.append(f"last stop: region {self.last.region}: {self.last.describe()}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return state_html(self)

    # -- what a player sees ----------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-ready data: in Carolus Magnus, the whole position.

        Nothing is hidden (ruling "Nothing is hidden" in ``docs/rulings.md``): regions,
        knights, castles, the emperor, every court and every reserve lie open on the table,
        a disc is chosen openly in turn order (the rule "a number that no other player has
        selected this round" needs the choices seen), and a draw has six equally likely
        outcomes, so there is no bag whose order could be secret. During the set-up the
        knights still to shuffle onto the board are known by count (``bag``: three of each
        family less those already placed). So every player's observation is the same but for
        ``viewer``, and bots that decide on it decide on the position.

        What happened before is not part of it (the last stop, knights drawn so far): that is
        the history, and two games that reach the same position give equal observations.

        >>> from coronas.carolus import Game
        >>> obs = Game(players=2).new_initial_state().observation(1)
        >>> obs["viewer"], obs["phase"], obs["bag"]["red"], len(obs["regions"])
        (1, 'board', 3, 15)
        """
        check_seat(self, player)
        n = self.num_players
        fams = self.rules.families

        def counts(row: tuple[int, ...]) -> dict[str, int]:
            return dict(zip(fams, row, strict=True))

        phase = self.phase
        drawing = phase in ("reserve", "replenish")
        return {
            "game": "carolus",
            "players": n,
            "viewer": player,
            "phase": phase,
            "round": self.round,
            "status": self.status(),
            "order": list(self.order),
            "turn": self.cursor,
            "acting": self.acting_player,
            "left": self.left if phase in ("deploy", "reserve", "replenish") else None,
            "joker": bool(self.joker),
            "drawer": self.drawer if drawing else None,
            "next_region": self.next_region if phase == "board" else None,
            "bag": counts(tuple(self.bag)),
            "emperor": self.emperor,
            "regions": [
                {
                    "id": r,
                    "members": list(self.members[r]),
                    "knights": counts(self.knights[r]),
                    "castles": self.castles[r],
                    "owner": self.owner[r] if self.owner[r] >= 0 else None,
                }
                for r in self.ring
            ],
            "courts": [counts(c) for c in self.court],
            "reserves": [counts(c) for c in self.reserve],
            "control": {
                f: (p if p >= 0 else None) for f, p in zip(fams, self.control, strict=True)
            },
            "chosen": list(self.chosen),
            "used": [list(u) for u in self.used],
            "castle_totals": self.castle_totals(),
            "end": self.end_reason if phase == "over" else None,
        }

    def observation_text(self, player: int) -> str:
        """:meth:`observation` as text: the status, each region, the courts and reserves."""
        return observation_text(self.observation(player))


def observation_text(obs: dict[str, Any]) -> str:
    """A player's observation (:meth:`StateViews.observation`) as a few lines of text."""
    fams = list(obs["control"])
    lines = [f"Carolus Magnus seen by {player_name(obs['viewer'])}: {obs['status']}"]
    for reg in obs["regions"]:
        name = region_name(tuple(reg["members"]))
        emperor = " (emperor)" if reg["id"] == obs["emperor"] else ""
        knights = ", ".join(f"{c} {f}" for f, c in reg["knights"].items() if c) or "no knights"
        castles = (
            f"; {plural(reg['castles'], 'castle')} of {player_name(reg['owner'])}"
            if reg["castles"]
            else ""
        )
        lines.append(f"region {name}{emperor}: {knights}{castles}")
    if obs["phase"] == "board":
        left = ", ".join(f"{c} {f}" for f, c in obs["bag"].items() if c)
        lines.append(f"still to shuffle onto the board: {left}")
    for p in range(obs["players"]):
        court = ", ".join(
            f"{c} {f}{' (controls)' if obs['control'][f] == p else ''}"
            for f, c in obs["courts"][p].items()
            if c
        )
        reserve = ", ".join(f"{c} {f}" for f, c in obs["reserves"][p].items() if c)
        disc = f"; disc {obs['chosen'][p]}" if obs["chosen"][p] else ""
        lines.append(
            f"{player_name(p)}: court {court or 'empty'}; reserve {reserve or 'empty'}; "
            f"{plural(obs['castle_totals'][p], 'castle')}{disc}"
        )
    free = [f for f in fams if obs["control"][f] is None]
    if free:
        lines.append("nobody controls " + ", ".join(free))
    lines.append("order: " + ", ".join(player_name(p) for p in obs["order"]))
    return "\n".join(lines)
