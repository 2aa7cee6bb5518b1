"""The search tree drawing of notebook 09: chance nodes grey, the others on the colour scale."""

import random

import matplotlib
import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_rgba

from coronas.batalla import Game as Batalla
from coronas.engine import search
from coronas.plotting.search import CHANCE_COLOUR, draw_search_tree, node_colours

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def found():
    """Notebook 09's Batalla endgame, searched with a smaller budget."""
    game = Batalla(seed=3, position={"gems_won": [2, 2], "gold": [3, 1], "swords": [3, 2]})
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    return search(state, simulations=120, rng=1)


def is_grey(rgba):
    r, g, b, _ = rgba
    return r == g == b


def test_the_chance_colour_is_a_grey_string():
    assert isinstance(CHANCE_COLOUR, str) and is_grey(to_rgba(CHANCE_COLOUR))


def test_every_chance_node_is_drawn_grey_and_no_other_node_is(found):
    ax, tree = draw_search_tree(found, max_depth=3)
    faces = [tuple(c) for c in ax.collections[-1].get_facecolors()]  # the nodes, in order
    chance = [d["player"] == -1 for _, d in tree.nodes(data=True)]
    assert len(faces) == tree.number_of_nodes()
    assert sum(chance) >= 3, "the endgame's tree has chance nodes in its top levels"
    for face, is_chance in zip(faces, chance, strict=True):
        if is_chance:
            assert face == pytest.approx(to_rgba(CHANCE_COLOUR))
        else:
            assert not is_grey(face), face  # RdYlGn has no grey
    assert f"({sum(chance)} chance nodes, grey)" in ax.get_title()
    plt.close(ax.figure)


def test_a_decision_node_is_coloured_by_the_movers_mean_win(found):
    tree = found.graph(max_depth=1)
    colours = node_colours(tree, found.player)
    root_win = tree.nodes[0]["values"][found.player]
    assert colours[0] == pytest.approx(matplotlib.colormaps["RdYlGn"](root_win))
