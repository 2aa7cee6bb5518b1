"""Batalla de Coronas drawings: both kingdom boards of a game state.

Each board shows the council (chairs 1-6 with the counselors' pawns in their colours), the
shield, sword, gold and dragon tracks with their discs (gold squares covered by won gems are
drawn with the gem on them, as on the table), the church with the clergy disc, the gems still
in the castle, and the tokens the kingdom holds.

>>> import matplotlib; matplotlib.use("Agg")
>>> fig = draw_boards()
>>> [ax.get_title() for ax in fig.axes]
['Player 1', 'Player 2']
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from coronas.batalla.rules import CHURCH_SQUARES, COUNSELOR_COLOURS, COUNSELOR_NAMES

__all__ = ["draw_board", "draw_boards", "mid_game_state", "write_figures"]

PAWN_COLOURS = {
    "blue": "#3b6fd8",
    "yellow": "#e8c31b",
    "red": "#d23c3c",
    "black": "#222222",
    "purple": "#8a3fb8",
    "white": "#f7f7f7",
}
"""Drawing tones of the pawn colours."""

_SQUARES = {"door": "#c9a227", "golden": "#f2d64b", "blue": "#6d9bf0", "red": "#e36b6b"}
_DISC = {"shields": "#3b6fd8", "swords": "#3b6fd8", "gold": "#e8c31b", "dragon": "#2e8b57"}
_BOARD, _CELL, _GEM = "#efe6d0", "#fbf7ec", "#1fb5a8"


def draw_board(state: Any, player: int, ax: Any = None) -> Any:
    """Draw one kingdom board of ``state`` (a Batalla de Coronas state) on ``ax``."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, FancyBboxPatch, Rectangle, RegularPolygon

    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 5))
    r, p = state.rules, player
    ax.set_xlim(0, 11)
    ax.set_ylim(0, 8.6)
    ax.set_aspect("equal")
    ax.axis("off")
    to_move = state.player == p and state.phase not in ("rolloff", "over")
    ax.add_patch(
        FancyBboxPatch(
            (0.1, 0.1),
            10.8,
            8.4,
            boxstyle="round,pad=0.02,rounding_size=0.3",
            fc=_BOARD,
            ec="#d4a017" if to_move else "#7a6a4f",
            lw=3 if to_move else 1.2,
        )
    )
    ax.set_title(f"Player {p + 1}", fontsize=12, fontweight="bold" if to_move else "normal")

    # council
    ax.text(0.4, 7.65, "council", fontsize=9, va="center")
    for n, c in enumerate(state.chairs[p], start=1):
        x = 2.05 + (n - 1) * 1.45  # chair 1 clear of the word "council"
        ax.add_patch(Rectangle((x - 0.55, 7.05), 1.1, 1.2, fc=_CELL, ec="#7a6a4f"))
        ax.text(x, 8.08, str(n), ha="center", va="center", fontsize=8, color="#7a6a4f")
        if c is not None:
            colour = PAWN_COLOURS[COUNSELOR_COLOURS[c]]
            ax.add_patch(Circle((x, 7.6), 0.3, fc=colour, ec="black", lw=0.8))
            ax.text(x, 7.15, COUNSELOR_NAMES[c].split()[-1], ha="center", va="center", fontsize=5.5)

    # tracks
    def track(
        name: str,
        y: float,
        low: int,
        high: int,
        value: int,
        cap: int | None = None,
        labels: dict[int, str] | None = None,
        notes: dict[int, str] | None = None,
    ) -> None:
        ax.text(0.4, y, name, fontsize=9, va="center")
        width = min(0.95, 8.8 / (high - low + 1))
        for i, v in enumerate(range(low, high + 1)):
            x = 2.0 + i * width
            covered = cap is not None and v > cap
            ax.add_patch(
                Rectangle(
                    (x - width / 2, y - 0.32),
                    width * 0.94,
                    0.64,
                    fc="#b9b2a0" if covered else _CELL,
                    ec="#7a6a4f",
                    lw=0.7,
                )
            )
            if covered:
                ax.add_patch(RegularPolygon((x, y), 4, radius=0.24, fc=_GEM, ec="black", lw=0.6))
                continue
            label = (labels or {}).get(v, str(v))
            ax.text(x, y + 0.19, label, ha="center", va="center", fontsize=6.5, color="#555")
            if notes and v in notes:
                ax.text(
                    x, y + 0.36, notes[v], ha="center", va="bottom", fontsize=5.5, color="#8a6d00"
                )
            if v == value:
                ax.add_patch(
                    Circle((x, y - 0.1), 0.17, fc=_DISC[name], ec="black", lw=0.8, zorder=3)
                )

    track("shields", 6.35, 0, r.militia_max, state.shields[p])
    track("swords", 5.5, 0, r.militia_max, state.swords[p])
    track("gold", 4.65, r.gold_min, r.gold_max, state.gold[p], cap=state.cap(p))
    level_costs = {i + 1: f"{c}g" for i, c in enumerate(r.dragon_costs)}
    track(
        "dragon",
        3.8,
        0,
        r.dragon_attack_level,
        state.dragon[p],
        labels={0: "X", r.dragon_attack_level: "D"},
        notes=level_costs,
    )

    # church
    ax.text(0.4, 2.75, "church", fontsize=9, va="center")
    here = state.clergy[p] or "door"
    for i, sq in enumerate(("door", *CHURCH_SQUARES)):
        x = 2.2 + i * 1.6  # the door clear of the word "church"
        ax.add_patch(Rectangle((x - 0.7, 2.45), 1.4, 0.6, fc=_SQUARES[sq], ec="#7a6a4f"))
        ax.text(x, 2.75, sq, ha="center", va="center", fontsize=7)
        if sq == here:
            ax.add_patch(Circle((x + 0.5, 2.75), 0.16, fc="white", ec="black", zorder=3))

    # gems in the castle and tokens
    ax.text(0.4, 1.6, "gems", fontsize=9, va="center")
    for i in range(state.gems_in_castle(p)):
        ax.add_patch(
            RegularPolygon((1.9 + i * 0.7, 1.6), 4, radius=0.28, fc=_GEM, ec="black", lw=0.6)
        )
    ax.text(0.4, 0.75, "tokens", fontsize=9, va="center")
    held = [t for t in ("crown", "cross", "smith") if getattr(state, t) == p]
    for i, t in enumerate(held):
        ax.text(
            2.0 + i * 1.7,
            0.75,
            t.capitalize(),
            ha="center",
            va="center",
            fontsize=8,
            bbox={"boxstyle": "round", "fc": "#fff3b0" if t == "crown" else "#e8e8e8"},
        )
    if not held:
        ax.text(1.7, 0.75, "none", fontsize=8, va="center", color="#777")
    return ax


def draw_boards(state: Any = None, fig: Any = None) -> Any:
    """Both kingdom boards side by side, with the phase as the figure's title.

    ``state`` defaults to a new game's board (after the roll-off is still to come). Returns the
    matplotlib ``Figure``.
    """
    import matplotlib.pyplot as plt

    if state is None:
        from coronas.batalla import Game

        state = Game().new_initial_state()
    if fig is None:
        fig = plt.figure(figsize=(12.5, 5.6))
    else:
        fig.clear()
    axes = fig.subplots(1, 2)
    for p, ax in enumerate(axes):
        draw_board(state, p, ax)
    title = f"Batalla de Coronas: {state.describe_phase()}"
    if state.bdice is not None:
        title += f"; battle dice {state.bdice[0]} vs {state.bdice[1]}"
    elif state.dice is not None:
        title += f"; dice {state.dice[0]} and {state.dice[1]}"
    fig.suptitle(title, fontsize=11)
    # the boards below the title: its line and the players' headings never overprint
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    return fig


def mid_game_state(seed: int = 2037, turns: int = 10) -> Any:
    """A reproducible game in progress: a greedy and a random player, ``turns`` turns in,
    stopped in a buying phase."""
    from coronas.batalla import Game
    from coronas.batalla.bots import GreedyBot, RandomBot

    state = Game(seed=seed).new_initial_state()
    rng = random.Random(seed)
    bots = [GreedyBot(), RandomBot()]
    while not state.is_terminal() and not (state.turn >= turns and state.phase == "buy"):
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(bots[state.current_player].choose(state, rng))
    return state


def write_figures(outdir: str | Path) -> list[Path]:
    """Write ``batalla-boards.png`` (a seeded mid-game state) into ``outdir``."""
    import matplotlib.pyplot as plt

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    fig = draw_boards(mid_game_state())
    path = outdir / "batalla-boards.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [path]
