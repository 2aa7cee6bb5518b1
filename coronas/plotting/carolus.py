"""Carolus Magnus drawings: the ring of regions with knights, castles, the emperor and courts.

>>> import matplotlib; matplotlib.use("Agg")
>>> from coronas.carolus import Game
>>> ax = draw_ring(Game(players=2).new_initial_state())
>>> ax.get_title().startswith("Carolus Magnus")
True
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

from coronas.carolus.board import region_name
from coronas.carolus.state import CarolusState
from coronas.carolus.views import PLAYER_COLOURS, PLAYER_TINTS, base_angle, family_colour

__all__ = ["draw_ring", "midgame_state", "write_figures"]

_R_OUT, _R_IN = 1.0, 0.62


def _polar(r: float, a: float) -> tuple[float, float]:
    return r * math.cos(a), r * math.sin(a)


def draw_ring(state: CarolusState, ax: Any = None) -> Any:
    """Draw ``state`` on a matplotlib axes (a new figure if ``ax`` is None) and return it.

    Regions are sectors of a ring, region 1 at the top and numbers running clockwise; a
    merged region is one sector. A sector's fill shows its castle owner, squares its castles
    (with their count), dots its knights in family colours, and a gold ring marks the
    emperor. The middle shows each court: one box per family with its knights, a thick
    black edge where the player controls the family.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Rectangle, Wedge

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 8))
    rules = state.rules
    nr = rules.regions
    fams = rules.families
    width = 2 * math.pi / nr
    for r in state.ring:
        members = state.members[r]
        a0 = base_angle(members[0], nr)[0]
        a1 = a0 - len(members) * width
        owner = state.owner[r]
        fill = PLAYER_TINTS[owner] if owner >= 0 else "#fbf8ef"
        emperor = r == state.emperor
        ax.add_patch(
            Wedge(
                (0, 0),
                _R_OUT,
                math.degrees(a1),
                math.degrees(a0),
                width=_R_OUT - _R_IN,
                facecolor=fill,
                edgecolor="#c9a227" if emperor else "#444444",
                linewidth=4 if emperor else 1.2,
                zorder=2 if emperor else 1,
            )
        )
        mid = (a0 + a1) / 2
        label = region_name(members) if len(members) < 4 else f"{members[0]}-{members[-1]}"
        x, y = _polar(_R_OUT + 0.07, mid)
        ax.text(x, y, label, ha="center", va="center", fontsize=10, fontweight="bold")
        # knights: dots in rows from the inside out, spread across the sector
        dots = [f for f, c in zip(fams, state.knights[r], strict=True) for _ in range(c)]
        span = (a0 - a1) * 0.78
        for k, f in enumerate(dots[:40]):
            row_len = max(2, int(span * 0.8 / 0.075))
            row, col = divmod(k, row_len)
            n_row = min(row_len, len(dots) - row * row_len)
            rad = _R_IN + 0.1 + row * 0.065
            a = mid + (col - (n_row - 1) / 2) * (span / row_len)
            ax.add_patch(
                Circle(
                    _polar(rad, a),
                    0.024,
                    facecolor=family_colour(f, fams),
                    edgecolor="#222222",
                    linewidth=0.5,
                    zorder=3,
                )
            )
        if state.castles[r]:
            x, y = _polar(_R_OUT - 0.09, mid)
            ax.add_patch(
                Rectangle(
                    (x - 0.045, y - 0.045),
                    0.09,
                    0.09,
                    facecolor=PLAYER_COLOURS[owner],
                    edgecolor="white",
                    zorder=4,
                )
            )
            ax.text(
                x,
                y,
                str(state.castles[r]),
                color="white",
                ha="center",
                va="center",
                fontsize=9,
                fontweight="bold",
                zorder=5,
            )
        if emperor:
            x, y = _polar(_R_OUT + 0.17, mid)
            ax.plot(
                [x],
                [y],
                marker="*",
                markersize=22,
                color="#c9a227",
                markeredgecolor="#222222",
                zorder=5,
            )
    # courts
    n = state.num_players
    box = 0.09
    x0 = -len(fams) * box / 2
    for p in range(n):
        y = 0.2 - p * 0.2
        ax.text(
            x0 - 0.04,
            y + box / 2,
            f"P{p + 1}",
            ha="right",
            va="center",
            fontsize=11,
            color=PLAYER_COLOURS[p],
            fontweight="bold",
        )
        for i, f in enumerate(fams):
            holder = state.control[i] == p
            ax.add_patch(
                Rectangle(
                    (x0 + i * box, y),
                    box * 0.9,
                    box,
                    facecolor=family_colour(f, fams),
                    edgecolor="black" if holder else "white",
                    linewidth=3 if holder else 0.5,
                )
            )
            ax.text(
                x0 + i * box + box * 0.45,
                y + box / 2,
                str(state.court[p][i]),
                ha="center",
                va="center",
                color="#222222" if f == "yellow" else "white",
                fontsize=10,
                fontweight="bold",
            )
        totals = state.castle_totals()[p]
        ax.text(
            x0 + len(fams) * box + 0.03,
            y + box / 2,
            f"{totals} castles",
            va="center",
            fontsize=9,
            color=PLAYER_COLOURS[p],
        )
    ax.text(0, 0.2 + box + 0.05, "courts (thick edge = controls)", ha="center", fontsize=9)
    handles = [
        Line2D(
            [],
            [],
            marker="o",
            linestyle="",
            color=family_colour(f, fams),
            markeredgecolor="#222222",
            label=f,
        )
        for f in fams
    ]
    handles += [
        Rectangle(
            (0, 0),
            1,
            1,
            facecolor=PLAYER_TINTS[p],
            edgecolor=PLAYER_COLOURS[p],
            label=f"player {p + 1}'s region",  # as the game's texts count, from one
        )
        for p in range(n)
    ]
    handles.append(
        Line2D(
            [],
            [],
            marker="*",
            linestyle="",
            color="#c9a227",
            markersize=14,
            markeredgecolor="#222222",
            label="emperor",
        )
    )
    ax.legend(
        handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=9, frameon=False
    )
    ax.set_xlim(-1.3, 1.3)
    ax.set_ylim(-1.3, 1.3)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"Carolus Magnus: {state.status()}", fontsize=11)
    return ax


def midgame_state(seed: int = 7, players: int = 2) -> CarolusState:
    """A reproducible mid-game position: greedy players from ``seed`` until
    the start of a round with at least one merged region and castles for everyone."""
    from coronas.carolus import Game
    from coronas.carolus.bots import GreedyBot

    state = Game(players=players, seed=seed).new_initial_state()
    rng = random.Random(seed)
    bots = [GreedyBot() for _ in range(players)]
    while not state.is_terminal():
        if (
            state.phase == "disc"
            and state.cursor == 0
            and len(state.ring) <= state.rules.regions - 2
            and min(state.castle_totals()) > 0
        ):
            return state
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(bots[state.current_player].choose(state, rng))
    return state


def write_figures(outdir: str | Path) -> list[Path]:
    """Write ``carolus-ring.png``: the ring in a seeded mid-game position."""
    import matplotlib.pyplot as plt

    outdir = Path(outdir)
    fig, ax = plt.subplots(figsize=(9.5, 8))
    draw_ring(midgame_state(), ax)
    fig.tight_layout()
    path = outdir / "carolus-ring.png"
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return [path]
