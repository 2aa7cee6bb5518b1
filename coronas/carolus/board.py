"""The ring of regions: clockwise steps, neighbours, names, and the ring as a networkx graph.

The board is a ring of regions numbered 1..15 clockwise (ruling C1). Neighbours with the same
castle owner merge into one region; a merged region is an arc of consecutive numbers and is
known by its smallest number (its *id*), so the arc 14, 15, 1 is region 1. The current ring is
a list of ids in clockwise order; sorting ids gives that order, because only the arc holding
region 1 can run across the closing boundary between 15 and 1.

>>> ring = [1, 2, 5, 9]
>>> step(ring, 5, 1), step(ring, 5, 3), step(ring, 5, 4)
(9, 2, 5)
>>> neighbours(ring, 1)
(9, 2)
>>> region_name((14, 15, 1))
'14+15+1'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["merged_members", "neighbours", "region_name", "ring_graph", "step"]


def step(ring: Sequence[int], region: int, steps: int) -> int:
    """The region ``steps`` clockwise from ``region``; a merged region is one step."""
    i = ring.index(region)
    return ring[(i + steps) % len(ring)]


def neighbours(ring: Sequence[int], region: int) -> tuple[int, int]:
    """(counter-clockwise neighbour, clockwise neighbour) of ``region``, across 15 -> 1."""
    i = ring.index(region)
    n = len(ring)
    return ring[(i - 1) % n], ring[(i + 1) % n]


def region_name(members: Sequence[int]) -> str:
    """A region's name: its numbers in clockwise order, joined by ``+`` when merged."""
    return "+".join(str(m) for m in members)


def merged_members(parts: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The members of consecutive regions ``parts`` (given counter-clockwise to clockwise)
    joined into one clockwise arc.

    >>> merged_members([(15,), (1, 2), (3,)])
    (15, 1, 2, 3)
    """
    out: list[int] = []
    for p in parts:
        out.extend(p)
    return tuple(out)


def ring_graph(
    ring: Sequence[int],
    regions: Mapping[int, Mapping[str, Any]],
    **graph_attrs: Any,
) -> nx.Graph:
    """The ring as a networkx cycle graph.

    ``ring`` lists region ids clockwise; ``regions[id]`` holds the node attributes. Each edge
    joins clockwise neighbours and records them in its ``clockwise`` attribute as
    ``(from, to)``; the graph attribute ``clockwise`` keeps the full order (with two regions
    left the cycle has a single edge). Extra keyword arguments become graph attributes.

    >>> g = ring_graph([1, 4], {1: {"castles": 2}, 4: {"castles": 0}})
    >>> sorted(g.nodes(data="castles")), g.graph["clockwise"]
    ([(1, 2), (4, 0)], [1, 4])
    """
    import networkx as nx

    g = nx.Graph(clockwise=list(ring), **graph_attrs)
    for rid in ring:
        g.add_node(rid, **dict(regions[rid]))
    n = len(ring)
    for i, rid in enumerate(ring):
        nxt = ring[(i + 1) % n]
        if not g.has_edge(rid, nxt):
            g.add_edge(rid, nxt, clockwise=(rid, nxt))
    return g
