"""Text, HTML, graph and matplotlib views of a Batalla de Coronas state."""

import networkx as nx

from coronas.batalla import Attack, BattleRoll, Roll
from tests.batalla.helpers import play_out, position
from tests.batalla.test_rulebook import example_of_a_game


def test_text_board_after_the_example_of_a_game():
    text = str(example_of_a_game())
    assert "turn 3, player 1: rolling the two dice" in text
    assert "Player 1: 2 gems in the castle, 0 won; tokens: Cross" in text
    assert "Player 2: 3 gems in the castle, 1 won; tokens: Crown" in text
    assert "council  1:Smith  2:-" in text and "2:Priest" in text
    assert "shields  [0] 1  2  3  4  5   = 0" in text
    assert "church   door  golden  [blue]  red" in text
    # the gem won covers the top gold square of player 2
    assert " 6  #   = 0" in text.split("Player 2")[1]


def test_html_shows_both_boards_and_the_battle():
    state = play_out(position(phase="buy", gold=[2, 3], crown=0), [Attack(), BattleRoll(2, 5)])
    html = state._repr_html_()
    assert html.count("<table") == 2 and "Player 1" in html and "Player 2" in html
    assert "battle dice: attacker 2, defender 5" in html and "Crown" in html
    assert "reroll or keep" in html


def test_graph_nodes_and_attributes():
    state = example_of_a_game()
    g = state.graph()
    assert isinstance(g, nx.Graph)
    assert g.nodes[("chair", 0, 1)] == {
        "kind": "chair",
        "number": 1,
        "counselor": "smith",
        "colour": "black",
    }
    assert g.nodes[("track", 1, "swords")]["value"] == 1
    assert g.nodes[("track", 1, "gold")]["high"] == 6
    assert g.nodes[("kingdom", 0)]["gems_in_castle"] == 2
    assert g.nodes[("church", 1, "blue")]["clergy"] is True
    assert g.has_edge(("token", "crown"), ("kingdom", 1))
    assert g.has_edge(("token", "smith"), "supply")
    chairs = [n for n, d in g.nodes(data=True) if d["kind"] == "chair"]
    assert len(chairs) == 12 and nx.is_connected(g)


def test_matplotlib_boards(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from coronas.plotting.batalla import draw_boards, write_figures

    state = play_out(position(), [Roll(2, 5)])
    fig = draw_boards(state)
    assert [ax.get_title() for ax in fig.axes] == ["Player 1", "Player 2"]
    assert "dice 2 and 5" in fig._suptitle.get_text()
    paths = write_figures(tmp_path)
    assert [p.name for p in paths] == ["batalla-boards.png"] and paths[0].stat().st_size > 10_000


def test_the_boards_title_and_labels_overprint_nothing():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from coronas.plotting.batalla import draw_boards, mid_game_state

    fig = draw_boards(mid_game_state())
    renderer = fig.canvas.get_renderer()
    title = fig._suptitle.get_window_extent(renderer)
    for ax in fig.axes:
        heading = ax.title.get_window_extent(renderer)
        assert heading.y1 < title.y0, (ax.get_title(), heading, title)  # below the title
        # the row names ("council", "church") clear of the first chair and the church door
        for word in ("council", "church"):
            label = next(t for t in ax.texts if t.get_text() == word)
            box, y = label.get_window_extent(renderer), label.get_position()[1]
            row = [
                p
                for p in ax.patches
                if type(p).__name__ == "Rectangle" and p.get_y() <= y <= p.get_y() + p.get_height()
            ]
            first = min(row, key=lambda p: p.get_x())
            assert box.x1 < first.get_window_extent(renderer).x0, (word, box)
    plt.close(fig)
