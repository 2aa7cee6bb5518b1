"""Drawings of Corona de Hierro's battle odds: a heatmap of P(attacker wins) and the battle as
a Markov chain.

>>> import matplotlib; matplotlib.use("Agg")
>>> ax = draw_battle_heatmap(max_attacker=4, max_defender=4)
>>> ax.get_xlabel(), ax.get_ylabel()
('defending pawns', 'attacking pawns')
>>> ax = draw_battle_chain(2, 1)
>>> len(ax.texts) > 0
True
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from coronas.formatting import percent

__all__ = ["draw_battle_chain", "draw_battle_heatmap", "heatmap_text", "write_figures"]

_WIN, _LOSE, _MID = "#2e7d32", "#c62828", "#f7f3e3"


def _cmap() -> Any:
    from matplotlib.colors import LinearSegmentedColormap

    return LinearSegmentedColormap.from_list("battle", [_LOSE, _MID, _WIN])


def draw_battle_heatmap(
    table: Any = None,
    ax: Any = None,
    *,
    max_attacker: int = 10,
    max_defender: int = 10,
    attacker_shields: int = 0,
    defender_shields: int = 0,
    rules: Any = None,
    annotate: bool = True,
    title: str | None = None,
) -> Any:
    """Draw P(attacker wins) for every army size as a heatmap and return the axes.

    ``table`` is a matrix from :func:`coronas.hierro.odds.battle_table` (rows: attacking
    pawns from 1, columns: defending pawns from 1); without one, it is computed from the
    other arguments. Cells show the percentage (:func:`heatmap_text`); red is a likely
    loss, green a likely win.
    """
    import matplotlib.pyplot as plt

    if table is None:
        from coronas.hierro.odds import battle_table

        table = battle_table(
            max_attacker, max_defender, attacker_shields, defender_shields, rules=rules
        )
    rows, cols = table.shape
    values = [[float(table[i, j]) for j in range(cols)] for i in range(rows)]
    if ax is None:
        _, ax = plt.subplots(figsize=(0.55 * cols + 2, 0.5 * rows + 1.4))
    image = ax.imshow(values, cmap=_cmap(), vmin=0, vmax=1, origin="lower", aspect="auto")
    ax.set_xticks(range(cols), [str(j + 1) for j in range(cols)])
    ax.set_yticks(range(rows), [str(i + 1) for i in range(rows)])
    ax.set_xlabel("defending pawns")
    ax.set_ylabel("attacking pawns")
    if annotate:
        for i in range(rows):
            for j in range(cols):
                v = values[i][j]
                ax.text(
                    j,
                    i,
                    heatmap_text(table[i, j]),
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if abs(v - 0.5) > 0.3 else "black",
                )
    if title is None:
        title = "P(attacker wins), %" + (
            f", shields {attacker_shields} v {defender_shields}"
            if attacker_shields or defender_shields
            else ""
        )
    ax.set_title(title, fontsize=10)
    bar = ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label="%")
    bar.set_ticks([0, 0.25, 0.5, 0.75, 1], labels=["0", "25", "50", "75", "100"])  # as the cells
    return ax


def draw_battle_chain(
    attacker: Any,
    defender: int | None = None,
    attacker_shields: int = 0,
    defender_shields: int = 0,
    ax: Any = None,
    *,
    rules: Any = None,
    edge_labels: bool | None = None,
) -> Any:
    """Draw a battle as its Markov chain and return the axes.

    Pass either a chain from :func:`coronas.hierro.odds.battle_chain` or the battle's sizes
    (``draw_battle_chain(3, 2)``). States sit on a grid: attacking pawns up, defending pawns
    across; with shields, the states of one size are fanned out around their grid point.
    Absorbing states are squares, green where the attacker won and red where it lost; the
    number under each state is P(the battle passes through it). Edge labels give the exact
    transition probabilities (shown by default when the chain is small).
    """
    import matplotlib.pyplot as plt
    import networkx as nx

    if isinstance(attacker, nx.DiGraph):
        G = attacker
    else:
        from coronas.hierro.odds import battle_chain

        if defender is None:
            raise ValueError("draw_battle_chain needs a chain, or the attacker and defender sizes")
        G = battle_chain(attacker, defender, attacker_shields, defender_shields, rules=rules)
    if ax is None:
        a0 = max(d["attacker"] for _, d in G.nodes(data=True))
        d0 = max(d["defender"] for _, d in G.nodes(data=True))
        _, ax = plt.subplots(figsize=(1.6 * d0 + 2.5, 1.3 * a0 + 2))
    pos = _grid_positions(G)
    colours, shapes = [], []
    for _, data in G.nodes(data=True):
        colours.append(
            _WIN
            if data["winner"] == "attacker"
            else _LOSE
            if data["winner"] == "defender"
            else "#fff8dc"
        )
        shapes.append("s" if data["absorbing"] else "o")
    for shape in ("o", "s"):
        nodes = [n for n, s in zip(G.nodes, shapes, strict=True) if s == shape]
        nx.draw_networkx_nodes(
            G,
            pos,
            nodelist=nodes,
            ax=ax,
            node_shape=shape,
            node_size=900,
            node_color=[c for c, s in zip(colours, shapes, strict=True) if s == shape],
            edgecolors="#444",
        )
    nx.draw_networkx_edges(
        G,
        pos,
        ax=ax,
        arrows=True,
        arrowsize=12,
        node_size=900,
        edge_color="#777",
        connectionstyle="arc3,rad=0.08",
    )
    labels = {n: _short_label(d) for n, d in G.nodes(data=True)}
    nx.draw_networkx_labels(G, pos, labels=labels, ax=ax, font_size=7)
    for n, (x, y) in pos.items():
        ax.text(
            x,
            y - 0.32,
            percent(G.nodes[n]["reach"], 1),
            ha="center",
            va="top",
            fontsize=6,
            color="#333",
        )
    if edge_labels is None:
        edge_labels = G.number_of_edges() <= 30
    if edge_labels:
        nx.draw_networkx_edge_labels(
            G,
            pos,
            ax=ax,
            font_size=6,
            edge_labels={(u, v): _fraction_text(d["p"]) for u, v, d in G.edges(data=True)},
        )
    start = G.graph.get("start")
    if start is not None:
        p = G.nodes[start]["attacker_wins"]
        ax.set_title(
            f"Battle {_short_label(G.nodes[start])}: attacker wins {p} ({percent(p, 1)})",
            fontsize=9,
        )
    ax.set_axis_off()
    return ax


def heatmap_text(p: Any) -> str:
    """A heatmap cell's percentage, whole (the title says %): ``59``; a chance below 100%
    never reads ``100`` nor one above 0% ``0``, but ``>99`` and ``<1``.

    >>> from fractions import Fraction
    >>> heatmap_text(Fraction(1, 2)), heatmap_text(Fraction(9996, 10000)), heatmap_text(1)
    ('50', '>99', '100')
    """
    return percent(p, 0).removesuffix("%")


def _fraction_text(p: Fraction) -> str:
    return str(p) if len(str(p)) <= 9 else f"{float(p):.3f}"


def _short_label(data: dict) -> str:
    label = f"{data['attacker']}v{data['defender']}"
    if data["attacker_shields"] or data["defender_shields"]:
        label += f"\n{data['attacker_shields']}|{data['defender_shields']}"
    return label


def _grid_positions(G: Any) -> dict:
    """Defending pawns across (right to left as they fall), attacking pawns up."""
    groups: dict[tuple[int, int], list] = {}
    for n, d in G.nodes(data=True):
        groups.setdefault((d["attacker"], d["defender"]), []).append(n)
    pos = {}
    for (a, d), nodes in groups.items():
        nodes.sort(key=lambda n: (-G.nodes[n]["attacker_shields"], -G.nodes[n]["defender_shields"]))
        k = len(nodes)
        for i, n in enumerate(nodes):
            offset = (i - (k - 1) / 2) * 0.28
            pos[n] = (-d * 1.6 + offset, a * 1.3 - offset * 0.6)
    return pos


def write_figures(outdir: str | Path = "figures") -> list[Path]:
    """Write ``hierro-battle-heatmap.png`` (four shield cases) and ``hierro-battle-chain.png``."""
    import matplotlib.pyplot as plt

    from coronas.hierro.odds import battle_table

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    fig, axes = plt.subplots(2, 2, figsize=(11, 9.5))
    for ax, (sa, sd) in zip(axes.flat, ((0, 0), (2, 0), (0, 2), (2, 2)), strict=True):
        draw_battle_heatmap(
            battle_table(10, 10, sa, sd), ax=ax, title=f"attacker {sa} shields, defender {sd}"
        )
    fig.suptitle("Corona de Hierro: P(attacker wins a battle), %, shields played optimally")
    fig.tight_layout()
    path = outdir / "hierro-battle-heatmap.png"
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    written.append(path)

    fig, ax = plt.subplots(figsize=(8, 6.5))
    draw_battle_chain(3, 3, ax=ax)
    fig.tight_layout()
    path = outdir / "hierro-battle-chain.png"
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    written.append(path)
    return written
