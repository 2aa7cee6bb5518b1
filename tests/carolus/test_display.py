"""Text, HTML, graph and picture views of a Carolus Magnus state."""

from __future__ import annotations

import subprocess
import sys

import networkx as nx

from coronas.carolus import JOKER, AssignJoker, ChooseDisc, Deploy, Draw, MoveEmperor, SetOrder
from tests.carolus.conftest import make


def sample_state():
    return make(
        phase="deploy",
        chosen=(2, 4),
        emperor=14,
        merged=((14, 15, 1), (5, 6)),
        knights={5: {"red": 2}, 14: {"blue": 1}},
        castles={5: (0, 2), 9: (1, 1)},
        courts=({"red": 2}, {"blue": 1}),
        reserves=({"red": 3, "pink": 1}, {"green": 3}),
    )


def test_action_labels_read_as_the_rulebook_speaks():
    assert str(Deploy("red", None)) == "deploy a red knight to the court"
    assert str(Deploy("blue", 4)) == "deploy a blue knight to region 4"
    assert str(MoveEmperor(2, 9)) == "move the emperor 2 steps to region 9"
    assert str(MoveEmperor(1, 3)) == "move the emperor 1 step to region 3"
    assert str(ChooseDisc(3)) == "choose disc 3"
    assert str(Draw(JOKER)) == "draw a joker" and str(Draw("pink")) == "draw a pink knight"
    assert str(AssignJoker("green")) == "the joker becomes a green knight"
    assert str(SetOrder((1, 0))) == "initial order: player 2, player 1"


def test_text_rendering_lists_regions_courts_and_status():
    text = str(sample_state())
    assert "round 1: player 1 (disc 2) deploys 3 more knights" in text
    assert "14+15+1 E" in text and "5+6" in text
    assert "2 of player 1" in text and "1 of player 2" in text
    lines = {
        line.split()[0] + " " + line.split()[1]: line
        for line in text.splitlines()
        if line.startswith("player ")
    }
    assert "*2" in lines["player 1"]  # controls red


def test_html_has_the_ring_picture_and_tables():
    html = sample_state()._repr_html_()
    assert html.count("<svg") == 1 and "<table>" in html
    assert "14+15+1" in html and "&#9876;" in html


def test_graph_is_a_cycle_of_the_current_regions():
    state = sample_state()
    g = state.graph()
    assert nx.is_isomorphic(g, nx.cycle_graph(12))  # 15 - 2 - 1 merged away
    assert g.graph["clockwise"] == [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13]
    node = g.nodes[5]
    assert node["members"] == (5, 6) and node["castles"] == 2 and node["owner"] == 0
    assert node["knights"]["red"] == 2 and not node["emperor"]
    assert g.nodes[1]["emperor"] and g.nodes[1]["name"] == "14+15+1"
    assert g.graph["control"]["red"] == 0 and g.graph["control"]["green"] is None
    assert g.edges[13, 1]["clockwise"] == (13, 1)


def test_draw_ring_and_write_figures(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from coronas.plotting.carolus import draw_ring, write_figures

    ax = draw_ring(sample_state())
    assert ax.get_title().startswith("Carolus Magnus: round 1")
    texts = {t.get_text() for t in ax.texts}
    assert {"14+15+1", "5+6", "2", "P1", "P2"} <= texts  # players counted from one
    plt.close(ax.figure)
    (path,) = write_figures(tmp_path)
    assert path.name == "carolus-ring.png" and path.read_bytes()[:4] == b"\x89PNG"


def test_the_library_does_not_import_matplotlib():
    code = (
        "import sys, coronas.carolus.odds, coronas.carolus.bots; print('matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
