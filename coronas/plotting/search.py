"""A Monte Carlo tree search drawn: the top levels of its tree, chance nodes in grey.

Used by notebook 09. Each node is as large as its visits; a decision node (or a node at the
end of the game) is coloured by the searching seat's mean win on a red-yellow-green scale,
and a chance node (where the dice roll, player -1) is plain grey, off that scale.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CHANCE_COLOUR", "draw_search_tree", "node_colours"]

CHANCE_COLOUR = "#b3b3b3"
"""A chance node's colour: a grey given as a hex string, never a number. Mixed into a list of
numbers, the string ``"0.7"`` would be read as a value on the colour scale, not as a grey."""


def node_colours(tree: Any, mover: int, cmap: str = "RdYlGn") -> list[tuple[float, ...]]:
    """One RGBA colour per node of ``tree`` (a :func:`coronas.engine.mcts.tree_graph`), in
    node order: :data:`CHANCE_COLOUR` at a chance node, else ``mover``'s mean win at the node
    on ``cmap`` from 0 to 1. Explicit colours, so no number can be mistaken for a grey."""
    from matplotlib import colormaps
    from matplotlib.colors import to_rgba

    scale = colormaps[cmap]
    return [
        to_rgba(CHANCE_COLOUR) if data["player"] == -1 else scale(float(data["values"][mover]))
        for _, data in tree.nodes(data=True)
    ]


def draw_search_tree(
    found: Any, max_depth: int = 3, ax: Any = None, cmap: str = "RdYlGn"
) -> tuple[Any, Any]:
    """Draw the top ``max_depth`` levels of a search's tree (``found``: the result of
    :func:`coronas.engine.search`), root on top, and return ``(ax, tree)``.

    A node's area grows with its visits; its colour is the searching seat's mean win there
    (the colour bar), or grey at a chance node.
    """
    import matplotlib.pyplot as plt
    import networkx as nx
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    tree = found.graph(max_depth=max_depth)
    mover = found.player
    pos = nx.multipartite_layout(tree, subset_key="depth", align="horizontal")
    pos = {n: (x, -y) for n, (x, y) in pos.items()}  # the root on top
    if ax is None:
        _, ax = plt.subplots(figsize=(10, 4.5))
    nx.draw_networkx_edges(tree, pos, ax=ax, alpha=0.3, arrows=False)
    nx.draw_networkx_nodes(
        tree,
        pos,
        ax=ax,
        node_size=[20 + 2 * tree.nodes[n]["visits"] for n in tree],
        node_color=node_colours(tree, mover, cmap),
    )
    chance = sum(1 for _, d in tree.nodes(data=True) if d["player"] == -1)
    ax.set_title(
        f"{tree.number_of_nodes()} positions in the top {max_depth} levels of the tree "
        f"({chance} chance nodes, grey)"
    )
    ax.axis("off")
    bar = ScalarMappable(norm=Normalize(0, 1), cmap=cmap)
    ax.figure.colorbar(bar, ax=ax, label=f"{found.state.player_name(mover)}'s mean win")
    return ax, tree
