"""The Corona de Hierro board: the default map, the file checks, the graph and its analysis."""

from __future__ import annotations

import copy
import json
import random
import tempfile
from collections import Counter
from fractions import Fraction
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coronas.hierro.board import (
    OFFMAP_AREAS,
    Board,
    BoardError,
    Castle,
    load_board,
    shuffle_tiles,
)
from coronas.hierro.routes import (
    betweenness,
    castles_by_shield,
    castles_within,
    cut_cities,
    move_actions,
    nearest_castles_by_shield,
    shortest_route,
)

NODE_ATTRIBUTES = {
    "name",
    "pos",
    "castle",
    "kind",
    "army_target",
    "emissary_target",
    "shield",
    "five_players_only",
}


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


@pytest.fixture(scope="module")
def G(board: Board) -> nx.Graph:
    return board.graph()


# --------------------------------------------------------------------------------------------
# The default board: counts and the rulebook's constraints
# --------------------------------------------------------------------------------------------


def test_sixteen_castles_five_start_ten_neutral_one_royal(board: Board) -> None:
    kinds = Counter(c.kind for c in board.castles.values())
    assert kinds == {"start": 5, "neutral": 10, "royal": 1}
    assert len(board.castles) == 16


def test_each_shield_is_held_by_one_start_and_two_neutral_castles(board: Board) -> None:
    # "Each of the five shields is held by three castles: one starting castle and two neutral"
    assert sorted(board.families) == [1, 2, 3, 4, 5]
    for shield in board.families:
        kinds = sorted(c.kind for c in board.castles.values() if c.shield == shield)
        assert kinds == ["neutral", "neutral", "start"], shield


def test_pavia_is_royal_without_shield_or_emissary_banner(board: Board) -> None:
    pavia = board.castles["Pavia"]
    assert pavia.kind == "royal"
    assert pavia.shield is None
    assert pavia.emissary_target is None
    assert not pavia.takes_emissaries
    assert board.royal == "Pavia"


def test_lucca_is_a_start_castle_only_with_five_players(board: Board) -> None:
    assert board.castles["Lucca"].kind == "start"
    assert board.castles["Lucca"].five_players_only
    assert [n for n, c in board.castles.items() if c.five_players_only] == ["Lucca"]
    assert "Lucca" in board.start_castles(5)
    for players in (3, 4):
        starts = board.start_castles(players)
        assert "Lucca" not in starts
        assert len(starts) == 4 >= players


def test_banners_are_numbers_a_d6_can_roll(board: Board) -> None:
    for name, castle in board.castles.items():
        assert castle.army_target in range(1, 7), name
        if castle.kind == "neutral":
            assert castle.emissary_target in range(1, 7), name
            assert castle.takes_emissaries
        else:
            # "Pavia and each player's starting castles cannot receive emissaries (that is why
            # they have no banner drawn on the right)"
            assert castle.emissary_target is None, name
            assert not castle.takes_emissaries


def test_families_use_the_houses_the_rulebook_names(board: Board) -> None:
    houses = " ".join(f"{f.name} {f.house}" for f in board.families.values())
    for named in ("Berengar", "Guido", "Adalbert", "Burgundy"):
        assert named in houses
    # Each family's start castle is its seat.
    seats = {f.name: board.castles_of(f.shield)[0] for f in board.families.values()}
    assert seats["Friuli"] == "Friuli"
    assert seats["Spoleto"] == "Spoleto"
    assert seats["Tuscany"] == "Lucca"


def test_off_map_areas(board: Board) -> None:
    assert set(board.offmap) == {"Rome", "Saracens", "Magyars", "Alliance Zone"}
    assert not set(board.offmap) & set(board.cities)
    assert board.graph().graph["offmap"] == board.offmap


def test_every_node_has_the_documented_attributes(board: Board, G: nx.Graph) -> None:
    assert set(G) == set(board.cities)
    for node, data in G.nodes(data=True):
        assert set(data) >= NODE_ATTRIBUTES, node
        assert data["name"] == node
        assert data["castle"] == (node in board.castles)
        castle = board.castles.get(node)
        if castle is None:
            assert data["kind"] is data["army_target"] is data["shield"] is None
        else:
            assert (data["kind"], data["army_target"], data["emissary_target"]) == (
                castle.kind,
                castle.army_target,
                castle.emissary_target,
            )
            assert data["shield"] == castle.shield


def test_positions_are_in_northern_and_central_italy(board: Board) -> None:
    for city in board.cities.values():
        assert 6.5 < city.lon < 14.0 and 42.0 < city.lat < 46.6, city


def test_every_castle_is_reachable_from_every_start(board: Board, G: nx.Graph) -> None:
    assert nx.is_connected(G)
    for start in board.start_castles():
        reach = nx.single_source_shortest_path_length(G, start)
        assert set(board.castles) <= set(reach)


def test_graph_is_a_fresh_copy(board: Board) -> None:
    G = board.graph()
    G.nodes["Pavia"]["owner"] = 0
    G.remove_node("Trento")
    assert "owner" not in board.graph().nodes["Pavia"]
    assert "Trento" in board.graph()


def test_board_is_immutable(board: Board) -> None:
    with pytest.raises(TypeError):
        board.cities["Rome"] = board.cities["Pavia"]  # type: ignore[index]
    with pytest.raises(TypeError):
        board.castles["Trento"] = board.castles["Pavia"]  # type: ignore[index]
    with pytest.raises(AttributeError):
        board.roads = ()  # type: ignore[misc]


# --------------------------------------------------------------------------------------------
# The rulebook's examples hold on the map
# --------------------------------------------------------------------------------------------


def test_friuli_to_trento_is_two_roads_through_belluno(G: nx.Graph) -> None:
    # Page 7: "They may use both of their actions to move their army to Trento ... If the green
    # army were in Belluno, it could move one space (first action) and then attack."
    assert move_actions(G, "Friuli", "Trento") == 2
    assert list(nx.all_shortest_paths(G, "Friuli", "Trento")) == [["Friuli", "Belluno", "Trento"]]
    assert move_actions(G, "Belluno", "Trento") == 1


def test_trento_battle_takes_place_in_a_city(board: Board) -> None:
    # Page 8: the red and green armies fight in Trento, a city armies move through.
    assert "Trento" in board.cities


def test_romagna_is_a_castle_that_takes_recruits_and_brescia_is_on_the_map(board: Board) -> None:
    # Page 9: red uses both actions to reach the castle of Romagna, which belongs to green;
    # green recruits from it. Brescia: "the wide plains of Brescia".
    assert board.castles["Romagna"].kind in ("start", "neutral")
    assert "Brescia" in board.cities
    G = board.graph()
    assert any(move_actions(G, c, "Romagna") == 2 for c in board.cities)


def test_emissary_race_castle_exists(board: Board) -> None:
    # Page 11: green rolls 1 and fails, "because they needed 2 or more"; red rolls 3 and wins.
    targets = [c.emissary_target for c in board.castles.values() if c.takes_emissaries]
    assert 2 in targets


def test_pavia_is_central_and_contested(board: Board, G: nx.Graph) -> None:
    degree = dict(G.degree)
    assert degree["Pavia"] == max(degree.values())
    top5 = sorted(betweenness(G).items(), key=lambda kv: -kv[1])[:5]
    assert "Pavia" in [name for name, _ in top5]  # of 44 cities
    assert "Pavia" not in cut_cities(G)  # several ways in: it can be reached from all sides
    # Contested from the first turn: two start castles are a turn's march (2 moves) away.
    near = [s for s in board.start_castles() if move_actions(G, s, "Pavia") <= 2]
    assert len(near) >= 2


# --------------------------------------------------------------------------------------------
# Round trips
# --------------------------------------------------------------------------------------------


def test_to_dict_round_trip(board: Board, tmp_path) -> None:
    again = Board.from_dict(json.loads(board.to_json()), source="copy")
    assert again == board
    path = tmp_path / "my-board.json"
    path.write_text(board.to_json(), encoding="utf-8")
    loaded = load_board(path)
    assert loaded == board
    assert loaded.source == str(path)
    assert board.source == "default"


def test_neighbors(board: Board) -> None:
    assert board.neighbors("Belluno") == ("Friuli", "Trento", "Treviso")
    for a, b in board.roads:
        assert b in board.neighbors(a) and a in board.neighbors(b)
    with pytest.raises(BoardError, match="Atlantis"):
        board.neighbors("Atlantis")


# --------------------------------------------------------------------------------------------
# Malformed boards
# --------------------------------------------------------------------------------------------


def _default_data() -> dict:
    return load_board().to_dict()


def _castle_entries(data: dict) -> list[dict]:
    return [c for c in data["cities"] if "castle" in c]


def _load_text(tmp_path, text: str) -> Board:
    path = tmp_path / "broken.json"
    path.write_text(text, encoding="utf-8")
    return load_board(path)


def test_bad_json_names_the_file_and_line(tmp_path) -> None:
    with pytest.raises(BoardError, match=r"broken\.json: not valid JSON \(line 2"):
        _load_text(tmp_path, '{"cities": [\n  oops]}')


def test_missing_file(tmp_path) -> None:
    with pytest.raises(BoardError, match=r"nowhere\.json: cannot read"):
        load_board(tmp_path / "nowhere.json")


def test_not_an_object(tmp_path) -> None:
    with pytest.raises(BoardError, match=r"broken\.json: the board: expected an object"):
        _load_text(tmp_path, "[1, 2, 3]")


def test_unknown_city_in_road_names_the_road(tmp_path) -> None:
    data = _default_data()
    data["roads"].append(["Pavia", "Rome"])
    with pytest.raises(BoardError, match=r"broken\.json: roads\[\d+\].*unknown city 'Rome'"):
        _load_text(tmp_path, json.dumps(data))


def test_missing_banner_names_the_castle(tmp_path) -> None:
    data = _default_data()
    verona = next(c for c in data["cities"] if c["name"] == "Verona")
    del verona["castle"]["emissary_target"]
    with pytest.raises(BoardError, match=r"city 'Verona' castle: .*emissary_target"):
        _load_text(tmp_path, json.dumps(data))


def test_shield_count_wrong_names_the_shield(tmp_path) -> None:
    data = _default_data()
    padua = next(c for c in data["cities"] if c["name"] == "Padua")
    padua["castle"]["shield"] = 2  # shield 1 loses a neutral castle, shield 2 gains one
    with pytest.raises(BoardError, match=r"shield 1: expected 2 neutral castle\(s\).*found 1"):
        _load_text(tmp_path, json.dumps(data))


def test_banner_a_die_cannot_roll(tmp_path) -> None:
    data = _default_data()
    pavia = next(c for c in data["cities"] if c["name"] == "Pavia")
    pavia["castle"]["army_target"] = 7
    with pytest.raises(BoardError, match=r"city 'Pavia' castle: .*army_target.*got 7"):
        _load_text(tmp_path, json.dumps(data))


def test_disconnected_map_names_the_cut_off_cities(tmp_path) -> None:
    data = _default_data()
    data["roads"] = [r for r in data["roads"] if "Aosta" not in r]
    with pytest.raises(BoardError, match=r"roads: the map must be connected.*'Aosta'"):
        _load_text(tmp_path, json.dumps(data))


def test_wrong_types(tmp_path) -> None:
    data = _default_data()
    data["cities"][0]["lon"] = "7.3"
    with pytest.raises(BoardError, match=r"city 'Aosta' 'lon': expected a number"):
        _load_text(tmp_path, json.dumps(data))
    data = _default_data()
    data["roads"] = {"Pavia": "Milan"}
    with pytest.raises(BoardError, match=r"field 'roads': expected a list"):
        _load_text(tmp_path, json.dumps(data))


def test_missing_and_unknown_fields_are_named_in_words(tmp_path) -> None:
    data = _default_data()
    del data["roads"]
    with pytest.raises(BoardError, match=r"the board: missing field\(s\) roads$"):
        _load_text(tmp_path, json.dumps(data))
    data = _default_data()
    data["offmap"] = [a for a in data["offmap"] if a not in ("Rome", "Magyars")]
    with pytest.raises(BoardError, match=r"missing the off-map area\(s\) Rome and Magyars$"):
        _load_text(tmp_path, json.dumps(data))


def test_start_castle_with_emissary_banner_is_refused(tmp_path) -> None:
    data = _default_data()
    friuli = next(c for c in data["cities"] if c["name"] == "Friuli")
    friuli["castle"]["emissary_target"] = 3
    with pytest.raises(BoardError, match=r"city 'Friuli' castle: a start castle takes no"):
        _load_text(tmp_path, json.dumps(data))


def test_too_many_five_player_starts(tmp_path) -> None:
    data = _default_data()
    friuli = next(c for c in data["cities"] if c["name"] == "Friuli")
    friuli["castle"]["five_players_only"] = True
    with pytest.raises(BoardError, match=r"at least 4 start castles must be open to 3-4 players"):
        _load_text(tmp_path, json.dumps(data))


# Each edit breaks the default data in one way; the message must name what it expects.
def _edit_banner(data: dict, draw) -> str:
    entry = draw(st.sampled_from(_castle_entries(data)))
    banner = draw(st.sampled_from(["army_target", "emissary_target"]))
    value = draw(st.sampled_from([0, 7, -1, 2.5, "3", True, None, [4]]))
    if banner == "emissary_target" and entry["castle"]["kind"] != "neutral" and value is None:
        value = 3  # a start or royal castle given a right banner
    entry["castle"][banner] = value
    return entry["name"]


def _edit_drop_field(data: dict, draw) -> str:
    entry = draw(st.sampled_from(_castle_entries(data)))
    key = draw(st.sampled_from(sorted(k for k in entry["castle"] if k != "five_players_only")))
    del entry["castle"][key]
    return entry["name"]


def _edit_shield(data: dict, draw) -> str:
    entry = draw(st.sampled_from(_castle_entries(data)))
    old = entry["castle"].get("shield")
    new = draw(st.sampled_from([s for s in (None, 0, 1, 2, 3, 4, 5, 6, "1") if s != old]))
    if new is None:
        del entry["castle"]["shield"]
    else:
        entry["castle"]["shield"] = new
    # A wrong shield is reported either at the castle or in the count of the shield.
    return "shield" if isinstance(new, int) and 1 <= new <= 5 and old is not None else entry["name"]


def _edit_road(data: dict, draw) -> str:
    i = draw(st.integers(0, len(data["roads"]) - 1))
    end = draw(st.integers(0, 1))
    bad = draw(st.sampled_from(["Rome", "Venice", "", 3, None]))
    data["roads"][i][end] = bad
    return f"roads[{i}]"


def _edit_isolate(data: dict, draw) -> str:
    city = draw(st.sampled_from([c["name"] for c in data["cities"]]))
    data["roads"] = [r for r in data["roads"] if city not in r]
    return city


def _edit_kind(data: dict, draw) -> str:
    entry = draw(st.sampled_from(_castle_entries(data)))
    entry["castle"]["kind"] = draw(st.sampled_from(["grey", "brown", "", 1, None]))
    return entry["name"]


def _edit_duplicate_city(data: dict, draw) -> str:
    entry = draw(st.sampled_from(data["cities"]))
    data["cities"].append(copy.deepcopy(entry))
    return entry["name"]


def _edit_coordinate(data: dict, draw) -> str:
    entry = draw(st.sampled_from(data["cities"]))
    key = draw(st.sampled_from(["lon", "lat"]))
    entry[key] = draw(st.sampled_from([None, "north", 200.0, -181, float("nan"), False]))
    return entry["name"]


def _edit_top_level(data: dict, draw) -> str:
    key = draw(st.sampled_from(["families", "cities", "roads", "offmap"]))
    if draw(st.booleans()):
        del data[key]
    else:
        data[key] = draw(st.sampled_from([None, 5, "x", {}]))
    return key


def _edit_family(data: dict, draw) -> str:
    i = draw(st.integers(0, len(data["families"]) - 1))
    what = draw(st.sampled_from(["drop", "shield", "colour", "name"]))
    if what == "drop":
        del data["families"][i]
        return "families"
    family = data["families"][i]
    bad = {"shield": [None, 9, "1"], "colour": [None, 9, "red", "#12345"], "name": [None, 9, ""]}
    family[what] = draw(st.sampled_from(bad[what]))
    return "famil"


def _edit_offmap(data: dict, draw) -> str:
    area = draw(st.sampled_from(list(OFFMAP_AREAS)))
    data["offmap"].remove(area)
    if draw(st.booleans()):
        others = [a for a in (*OFFMAP_AREAS, "Pavia", "Byzantium") if a != area]
        data["offmap"].append(draw(st.sampled_from(others)))
    return "offmap"


EDITS = [
    _edit_banner,
    _edit_drop_field,
    _edit_shield,
    _edit_road,
    _edit_isolate,
    _edit_kind,
    _edit_duplicate_city,
    _edit_coordinate,
    _edit_top_level,
    _edit_family,
    _edit_offmap,
]


@settings(max_examples=150, deadline=None)
@given(edit=st.sampled_from(EDITS), draw=st.data())
def test_any_broken_edit_gives_a_board_error_naming_it(edit, draw) -> None:
    data = _default_data()
    named = edit(data, draw.draw)
    with pytest.raises(BoardError) as info:
        Board.from_dict(data, source="my-board.json")
    message = str(info.value)
    assert message.startswith("my-board.json: ")
    assert str(named) in message, message


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)


def _paths(value, prefix=()):
    """Every position in nested JSON data, as a tuple of keys and indices."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


DEFAULT_PATHS = [p for p in _paths(load_board().to_dict()) if p]


@settings(max_examples=150, deadline=None)
@given(where=st.sampled_from(DEFAULT_PATHS), value=JSON_VALUES)
def test_any_value_anywhere_is_accepted_or_refused_with_a_board_error(where, value) -> None:
    data = _default_data()
    target = data
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    try:
        Board.from_dict(data, source="fuzz.json")
    except BoardError as exc:
        assert str(exc).startswith("fuzz.json: ")


@settings(max_examples=40, deadline=None)
@given(cut=st.integers(0, 10_000))
def test_truncated_file_gives_a_board_error(cut) -> None:
    text = load_board().to_json()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "truncated.json"
        path.write_text(text[: cut % len(text)], encoding="utf-8")
        with pytest.raises(BoardError, match=r"truncated\.json: "):
            load_board(path)


# --------------------------------------------------------------------------------------------
# Analysis on a small hand-made map with known answers
# --------------------------------------------------------------------------------------------
#
#   A - B - C - D - F        A: start, shield 1     C, E: neutral, shield 1
#        \     /             F: start, shield 2     B, D: no castle
#         - E -


def _small() -> nx.Graph:
    G = nx.Graph()
    castles = {
        "A": ("start", 4, None, 1),
        "C": ("neutral", 3, 4, 1),
        "E": ("neutral", 5, 2, 1),
        "F": ("start", 4, None, 2),
    }
    for node in "ABCDEF":
        kind, army, emissary, shield = castles.get(node, (None, None, None, None))
        G.add_node(
            node,
            name=node,
            pos=(0, 0),
            castle=kind is not None,
            kind=kind,
            army_target=army,
            emissary_target=emissary,
            shield=shield,
            five_players_only=False,
        )
    G.add_edges_from([("A", "B"), ("B", "C"), ("B", "E"), ("C", "D"), ("E", "D"), ("D", "F")])
    return G


def test_move_actions_small() -> None:
    G = _small()
    assert move_actions(G, "A", "F") == 4  # A-B-C-D-F
    assert move_actions(G, "C", "E") == 2
    assert move_actions(G, "D", "D") == 0
    with pytest.raises(nx.NodeNotFound, match="Z"):
        move_actions(G, "A", "Z")


def test_shortest_route_small_takes_the_alphabetical_first_of_equal_routes() -> None:
    G = _small()
    # A-B-C-D and A-B-E-D are both 3 roads long.
    assert shortest_route(G, "A", "D") == ["A", "B", "C", "D"]
    assert shortest_route(G, "F", "B") == ["F", "D", "C", "B"]


def test_castles_within_small() -> None:
    G = _small()
    assert castles_within(G, "A", 0) == {"A": 0}
    assert castles_within(G, "A", 2) == {"A": 0, "C": 2, "E": 2}
    assert castles_within(G, "D", 1) == {"C": 1, "E": 1, "F": 1}
    assert list(castles_within(G, "B", 3)) == ["A", "C", "E", "F"]


def test_cut_cities_small() -> None:
    # Without B, A is cut off; without D, F is.
    assert cut_cities(_small()) == ["B", "D"]


def test_betweenness_small() -> None:
    # B: every pair {A, x} for x in C, D, E, F runs through B (4), and one of the two C-E
    # routes (C-B-E, C-D-E) does (1/2): 9/2. D likewise with F: 9/2.
    # C: half of the routes A-D, A-F, B-D, B-F (A-B-C-D or A-B-E-D ...): 4 * 1/2 = 2; E the same.
    # Check: the sum over pairs of (distance - 1) is 13 = 9/2 + 9/2 + 2 + 2.
    expected = {
        "A": Fraction(0),
        "B": Fraction(9, 2),
        "C": Fraction(2),
        "D": Fraction(9, 2),
        "E": Fraction(2),
        "F": Fraction(0),
    }
    assert betweenness(_small()) == expected


def test_betweenness_agrees_with_networkx_on_the_board(G: nx.Graph) -> None:
    exact = betweenness(G)
    floats = nx.betweenness_centrality(G, normalized=False)
    assert all(isinstance(v, Fraction) for v in exact.values())
    assert max(abs(float(exact[v]) - floats[v]) for v in G) < 1e-9


def test_castles_by_shield_small() -> None:
    assert castles_by_shield(_small()) == {1: ["A", "C", "E"], 2: ["F"]}


def test_castles_by_shield_on_the_board(board: Board, G: nx.Graph) -> None:
    groups = castles_by_shield(G)
    assert sorted(groups) == [1, 2, 3, 4, 5]
    for shield, names in groups.items():
        assert names == list(board.castles_of(shield))
        assert board.castles[names[0]].kind == "start"


def test_nearest_castles_by_shield_small() -> None:
    G = _small()
    assert nearest_castles_by_shield(G, "A") == {1: (2, ["C", "E"]), 2: (4, ["F"])}
    # From F, its own castle does not count; the start castle A does, by arms.
    assert nearest_castles_by_shield(G, "F") == {1: (2, ["C", "E"])}
    assert nearest_castles_by_shield(G, "F", kinds=("start",)) == {1: (4, ["A"])}


# --------------------------------------------------------------------------------------------
# Advanced rules: castle tiles
# --------------------------------------------------------------------------------------------


def _tiles(board: Board) -> Counter:
    return Counter(c for c in board.castles.values() if c.kind == "neutral")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_shuffle_tiles_is_reproducible_and_keeps_the_tiles(seed) -> None:
    board = load_board()
    shuffled = shuffle_tiles(board, seed)
    assert shuffle_tiles(board, random.Random(seed)) == shuffled
    assert _tiles(shuffled) == _tiles(board)
    # Tiles land on the brown positions only; start castles and Pavia keep their own.
    assert {n for n, c in shuffled.castles.items() if c.kind == "neutral"} == {
        n for n, c in board.castles.items() if c.kind == "neutral"
    }
    for name, castle in board.castles.items():
        if castle.kind != "neutral":
            assert shuffled.castles[name] == castle
    assert shuffled.roads == board.roads
    assert {n: c.pos for n, c in shuffled.cities.items()} == {
        n: c.pos for n, c in board.cities.items()
    }
    # Still a valid board by the file rules.
    assert Board.from_dict(shuffled.to_dict()) == shuffled


def test_shuffle_tiles_moves_tiles() -> None:
    board = load_board()
    boards = [shuffle_tiles(board, seed) for seed in range(5)]
    assert any(b != board for b in boards)
    assert len({b.to_json() for b in boards}) > 1
    assert "shuffled" in boards[0].source


def test_castle_value_type() -> None:
    assert Castle("neutral", 3, 4, 1).takes_emissaries
    assert not Castle("start", 4, None, 1).takes_emissaries


# --------------------------------------------------------------------------------------------
# The map drawing
# --------------------------------------------------------------------------------------------


def _texts(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


def test_draw_board_shows_every_castle_and_its_banners(board: Board) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from coronas.plotting.hierro import draw_board

    fig, ax = draw_board()
    texts = _texts(ax)
    for name, castle in board.castles.items():
        assert name in texts
        banner = str(castle.army_target)
        if castle.emissary_target is not None:
            banner += f" | {castle.emissary_target}"
        assert banner in texts, name
    for area in board.offmap:
        assert any(t.startswith(area) for t in texts), area
    plt.close(fig)


def test_draw_board_takes_whatever_state_attributes_exist(board: Board) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from coronas.plotting.hierro import draw_board

    G = board.graph()
    G.nodes["Trento"]["armies"] = {0: 3, 1: 2}  # no owners, no emissaries anywhere
    G.nodes["Verona"]["owner"] = 1
    G.add_node("Rome", offmap=True, emissaries=[0, 2])  # off-map nodes have no position
    G.nodes["Parma"]["emissaries"] = {1: 2}

    class Position:  # anything with a graph() method will do
        def graph(self):
            return G

    for state in (G, Position()):
        fig, ax = draw_board(board, state)
        assert {"3", "2"} <= set(_texts(ax))
        plt.close(fig)
    fig, ax = plt.subplots()
    assert draw_board(board, ax=ax, legend=False, labels=False) == (fig, ax)
    assert "Pavia" not in _texts(ax)
    plt.close(fig)


def test_write_figures(tmp_path) -> None:
    from coronas.plotting.hierro import write_figures

    paths = write_figures(tmp_path)
    assert [p.name for p in paths] == ["hierro-map.png", "hierro-map.svg"]
    assert paths[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in paths[1].read_text(encoding="utf-8")


def test_examples_in_docs_board_md_run() -> None:
    import doctest
    import re

    path = Path(__file__).resolve().parents[2] / "docs" / "board.md"
    # a code fence ends an example's expected output, as a blank line would
    text = re.sub(r"^```.*$", "", path.read_text(encoding="utf-8"), flags=re.M)
    test = doctest.DocTestParser().get_doctest(text, {}, "board.md", str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0


def test_board_built_in_code_is_checked_too(board: Board) -> None:
    cities = dict(board.cities)
    del cities["Aosta"]
    with pytest.raises(BoardError, match=r"by hand: roads\[0\] \('Aosta', 'Ivrea'\)"):
        Board(cities, board.roads, board.families, source="by hand")
    roads = tuple(r for r in board.roads if "Rieti" not in r)
    with pytest.raises(BoardError, match=r"by hand: roads: the map must be connected.*Rieti"):
        Board(board.cities, roads, board.families, source="by hand")
