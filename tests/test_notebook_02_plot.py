"""Notebook 02's crossroads plot, run from the notebook's own cells: no city name covers a
dot, and the colour bar is as tall as the map."""

from __future__ import annotations

import json
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "02-the-road-network.ipynb"


def _cells(*marks: str) -> list[str]:
    """The notebook's code cells holding any of ``marks``, in order."""
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    sources = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    return [s for s in sources if any(m in s for m in marks)]


def test_the_crossroads_plot_hides_no_dot_and_its_bar_is_the_map_s_height():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    code = _cells("board = load_board()", "exact = betweenness(G)", "crossroads of the map")
    assert len(code) == 3, "the set-up, the betweenness and the plot cells"
    names: dict = {"__name__": "notebook02"}
    with plt.rc_context({"figure.dpi": 100}):
        for source in code:
            exec(source.replace("plt.show()", ""), names)
        fig, ax = names["fig"], names["ax"]
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        # every dot, as a square of its marker's size on the screen
        side = (names["nodes"].get_sizes()[0] ** 0.5) * fig.dpi / 72
        dots = {c: ax.transData.transform(p) for c, p in names["pos"].items()}
        labels = [t for t in ax.texts if t.get_text() in names["top"]]
        assert sorted(t.get_text() for t in labels) == sorted(names["top"])
        for label in labels:
            box = label.get_bbox_patch().get_window_extent(renderer)
            for city, (x, y) in dots.items():
                apart = (
                    x + side / 2 < box.x0
                    or x - side / 2 > box.x1
                    or y + side / 2 < box.y0
                    or y - side / 2 > box.y1
                )
                assert apart, f"the name {label.get_text()!r} covers the dot of {city}"
        bar = names["nodes"].colorbar.ax
        map_box, bar_box = ax.get_window_extent(renderer), bar.get_window_extent(renderer)
        assert abs(bar_box.height - map_box.height) <= 1, (bar_box, map_box)
        plt.close(fig)
