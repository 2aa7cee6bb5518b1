"""A map viewer for Corona de Hierro: pick a city, see what is near and how to get there.

The model answers from the board's road graph with the functions of
:mod:`coronas.hierro.routes` (distances in move actions, castles within n moves, a shortest
route); the view is the generic :class:`~coronas.widgets.calculators.Calculator` form, with
the map drawn by :func:`coronas.plotting.hierro.draw_board` and the route on top.

>>> model = MapModel(city="Friuli", target="Trento", moves=1)
>>> print(model.answer().text.splitlines()[0])
Route Friuli -> Trento: 2 move actions (Friuli, Belluno, Trento)
"""

from __future__ import annotations

from html import escape
from typing import Any

from coronas.formatting import plural
from coronas.widgets.calculators import Answer, Calculator, Field, OddsModel

__all__ = ["MapModel", "MapViewer"]


class MapModel(OddsModel):
    """Distances, castles within ``moves`` move actions of ``city``, a route to ``target``.

    ``board`` is a :class:`coronas.hierro.board.Board` (the default map if None).
    ``draw=False`` leaves the map picture out (faster, for scripts and tests).
    """

    title = "Corona de Hierro: the road map"

    def __init__(self, board: Any = None, draw: bool = True, **values: Any):
        from coronas.hierro.board import load_board

        self.board = board if board is not None else load_board()
        self.graph = self.board.graph()
        self.draw = draw
        cities = tuple(sorted(self.graph.nodes))
        castles = tuple(sorted(self.board.castles))
        self.fields = (
            Field("city", "From", castles[0], kind="choice", options=cities),
            Field("moves", "Castles within (moves)", 2, low=0, high=8),
            Field("target", "Route to", castles[-1], kind="choice", options=cities),
        )
        super().__init__(**values)

    def compute(self, city: str, moves: int, target: str) -> Answer:
        from coronas.hierro.routes import castles_within, move_actions, shortest_route

        G = self.graph
        for name in (city, target):
            if name not in G:
                raise ValueError(f"no city {name!r} on this map")
        route = shortest_route(G, city, target)
        n = move_actions(G, city, target)
        near = castles_within(G, city, moves)
        lines = [f"Route {city} -> {target}: {plural(n, 'move action')} ({', '.join(route)})"]
        rows = []
        for castle, d in near.items():
            data = G.nodes[castle]
            shield = data.get("shield")
            family = self.board.families[shield].name if shield is not None else "-"
            banners = f"{data.get('army_target')} | {data.get('emissary_target') or '-'}"
            rows.append((castle, d, data.get("kind"), family, banners))
            lines.append(
                f"{castle}: {plural(d, 'move')}, {data.get('kind')}, {family}, banners {banners}"
            )
        header = ("castle", "moves", "kind", "shield", "army | emissary")
        table = "".join(
            "<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in r) + "</tr>" for r in rows
        )
        actions = "move action" if n == 1 else "move actions"
        within = f"{plural(len(rows), 'castle')} within {plural(moves, 'move')}"
        html = (
            f"<p>Route <b>{escape(city)} → {escape(target)}</b>: <b>{n}</b> {actions} "
            f"({escape(' → '.join(route))})</p>"
            f"<p>{within} of {escape(city)}:</p>"
            "<table><tr>" + "".join(f"<th>{h}</th>" for h in header) + f"</tr>{table}</table>"
        )
        answer = Answer(
            text="\n".join(lines),
            html=html,
            values={"route": route, "moves": n, "castles": near},
        )
        if self.draw:
            answer.figure = self._figure(route, near)
        return answer

    def _figure(self, route: list[str], near: dict[str, int]) -> Any:
        from matplotlib.figure import Figure

        from coronas.plotting.hierro import draw_board

        fig = Figure(figsize=(12.5, 11))  # the map's own size: labels apart and readable
        ax = fig.add_subplot()
        draw_board(self.board, ax=ax, legend=False)
        pos = {n: d["pos"] for n, d in self.graph.nodes(data=True) if d.get("pos")}
        xs, ys = zip(*(pos[c] for c in route), strict=True)
        ax.plot(xs, ys, color="#1f5fbf", lw=4, alpha=0.7, zorder=7, solid_capstyle="round")
        for castle in near:
            x, y = pos[castle]
            ax.plot(x, y, "o", ms=16, mfc="none", mec="#1f5fbf", mew=2, zorder=7)
        return fig


class MapViewer(Calculator):
    """The map viewer as a widget: choose a city, a number of moves and a destination."""

    plain_title = "Map viewer for Corona de Hierro"

    def __init__(self, board: Any = None, **values: Any):
        super().__init__(MapModel(board=board, **values), dpi=70)
