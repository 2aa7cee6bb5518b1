"""Analysis of the Corona de Hierro road map: distances in move actions, castles in reach,
the cities that cut the map, exact betweenness, the nearest castles of each shield.

These are functions of a networkx graph, like networkx's own: they take the board's graph
(:meth:`Board.graph <coronas.hierro.board.Board.graph>`) or any graph with the same node
attributes (``castle``, ``kind``, ``shield``), so they work on a hand-made graph too.

>>> from coronas.hierro.board import load_board
>>> G = load_board().graph()
>>> move_actions(G, "Friuli", "Trento")
2
>>> shortest_route(G, "Friuli", "Trento")
['Friuli', 'Belluno', 'Trento']
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from fractions import Fraction

import networkx as nx

__all__ = [
    "betweenness",
    "castles_by_shield",
    "castles_within",
    "cut_cities",
    "move_actions",
    "nearest_castles_by_shield",
    "shortest_route",
]


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
