"""Fuzzing every way in: saved games, rule sets, board files, the command line and the odds
functions get damaged or hostile input, and must answer with one of the named errors
(SaveFileError, RulesError, BoardError, IllegalAction, ValueError for odds arguments), in
bounded time, never with another exception or a hang.

The saved games are the real fixtures of the three games with values replaced (wrong types,
huge numbers, long texts, deep nesting, paths where inline rules belong, "1/0"), fields
removed or added, lists cut or doubled."""

from __future__ import annotations

import json
import os
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coronas.cli import main
from coronas.engine import IllegalAction, RulesError, SaveFileError, State, load_game
from coronas.hierro.board import Board, load_board
from coronas.hierro.board_file import MAX_CITIES, BoardError
from tests.fuzzing import SAVED_GAMES, dumps, mutate, saved_text, time_limit

SCALE = int(os.environ.get("CORONAS_FUZZ_SCALE", "1"))
"""How many times more examples to try (``CORONAS_FUZZ_SCALE=20`` for a long local run)."""
FUZZ = settings(
    max_examples=25 * SCALE,
    deadline=None,
    derandomize=SCALE == 1,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
LIMIT = 10.0  # seconds any one load, check or question may take, even on a loaded machine

GAMES = sorted(SAVED_GAMES)
TEXTS = {g: [saved_text(f) for f in files] for g, files in SAVED_GAMES.items()}


def _use(state: State) -> None:
    """What a loaded game must bear: shown, its moves listed, saved again and loaded back."""
    str(state)
    if not state.is_terminal():
        if state.is_chance_node():
            state.chance_outcomes()
        else:
            state.legal_actions()
    assert State.from_json(state.to_json()) == state


def _mutated(game: str, seed: int, times: int) -> str:
    rng = random.Random(seed)
    text = rng.choice(TEXTS[game])
    return dumps(mutate(json.loads(text), rng, times))


def _load(text: str) -> str:
    """'ok' for a saved game that loads and can be used, 'refused' for a SaveFileError."""
    try:
        with time_limit(LIMIT):
            state = State.from_json(text)
            _use(state)
    except SaveFileError as exc:
        assert len(str(exc)) <= 300
        return "refused"
    return "ok"


# -- saved games -----------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(seed=st.integers(0, 2**32), times=st.integers(1, 3))
def test_a_mutated_saved_game_is_loaded_or_refused(game, seed, times):
    _load(_mutated(game, seed, times))


@pytest.mark.parametrize("game", GAMES)
def test_hundreds_of_mutated_saved_games_give_only_named_errors(game):
    outcomes = {"ok": 0, "refused": 0}
    for seed in range(300):
        outcomes[_load(_mutated(game, 10_000 + seed, 1 + seed % 2))] += 1
    # both kinds occur: mutations that keep a game playable, and ones that are refused
    assert outcomes["ok"] > 10 and outcomes["refused"] > 100, outcomes


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=10 * SCALE, deadline=None, derandomize=SCALE == 1)
@given(seed=st.integers(0, 2**32), times=st.integers(0, 2))
def test_load_game_the_stepper_and_replay_take_a_mutated_file(tmp_path_factory, game, seed, times):
    from coronas.widgets import StepperModel

    path = tmp_path_factory.mktemp("saves") / "game.json"
    path.write_text(_mutated(game, seed, times), encoding="utf-8")
    with time_limit(LIMIT):
        try:
            load_game(path)
            loads = True
        except SaveFileError as exc:
            assert str(path) in str(exc)
            loads = False
        model = StepperModel(State.from_json(TEXTS[game][0]).game.new_initial_state())
        loaded = model.load(str(path))
        assert loaded or not loads
        assert model.message
        if loaded:  # what the stepper shows of the loaded game
            assert model.status and model.situation is not None
            model.action_groups()
            model.results()
        status, err = _cli(["replay", str(path)])
    assert status == (0 if loads else 2)
    if not loads:
        _one_line(err)


def _cli(argv: list[str]) -> tuple[int, str]:
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, err.getvalue()


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    # never the catch-all of the command line: an exception that no check named
    assert not re.match(r"coronas: [A-Z]\w+(Error|Exception): ", lines[0]), lines[0]
    assert "out of memory" not in lines[0] and "recursion limit" not in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[" * 100_000,
        '{"format": "coronas-game", "version": 1, "game": "batalla", "params": '
        + '{"rules": "/etc/passwd"}, "actions": []}',
        '{"format": "coronas-game", "version": 1, "game": "hierro", "params": '
        + '{"board": "board.json"}, "actions": []}',
        '{"format": "coronas-game", "version": 1, "game": "batalla", "actions": '
        + '[{"type": "Accept"}'
        + ", 1" * 10
        + "]}",
        "1" * 5000,
        '{"format": "coronas-game", "version": ' + "9" * 5000 + "}",
    ],
)
def test_hostile_saved_game_texts_are_refused(text):
    assert _load(text) == "refused"


# -- rule sets -------------------------------------------------------------------------------


def _rules_classes():
    from coronas.batalla import Rules as BatallaRules
    from coronas.carolus import Rules as CarolusRules
    from coronas.hierro.rules import Rules as HierroRules

    return {"batalla": BatallaRules, "carolus": CarolusRules, "hierro": HierroRules}


MAX_GAME_STEPS = 100_000
"""Random play of a game that a rule set accepts must end within this many steps (the
longest seen, Batalla de Coronas with 20-square militia tracks, takes about 16,000)."""


def _play(game_name: str, rules, seed: int = 0) -> None:
    """Start a game with ``rules`` and play random legal moves to its end: it must never
    fail, and it must end."""
    from coronas.engine.game import _GAMES, _import_games

    _import_games()
    game_cls = _GAMES[game_name]
    rng = random.Random(seed)
    state = game_cls(rules=rules, seed=seed).new_initial_state()
    for _ in range(MAX_GAME_STEPS):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        if len(state.history) % 1000 == 0:
            str(state)  # the text of a position deep in the game
    assert state.is_terminal(), f"no end after {MAX_GAME_STEPS} random steps"
    str(state)
    state.returns()


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(seed=st.integers(0, 2**32), times=st.integers(1, 3))
def test_mutated_rules_are_refused_or_playable(game, seed, times):
    cls = _rules_classes()[game]
    rng = random.Random(seed)
    data = mutate(cls().to_dict(), rng, times)
    with time_limit(LIMIT):
        try:
            rules = cls.from_dict(data)
        except RulesError as exc:
            assert len(str(exc)) < 2000, "a rule error names the field, not the whole value"
            return
        try:
            _play(game, rules, seed=seed)
        except (RulesError, ValueError) as exc:  # the game refuses a rule set it cannot start
            assert not isinstance(exc, IllegalAction), exc


def _corners(game: str):
    """Rule sets with one field at an end of its range (or a list at its longest)."""
    import dataclasses

    from coronas.engine.rules import DEFAULT_INT_RANGE, DEFAULT_LENGTH

    cls = _rules_classes()[game]
    default = cls()
    for f in dataclasses.fields(cls):
        value = getattr(default, f.name)
        low, high = f.metadata.get("range", DEFAULT_INT_RANGE)
        if isinstance(value, bool):
            yield f.name, not value
        elif isinstance(value, int):
            yield f.name, low
            yield f.name, high
        elif isinstance(value, tuple) and value and isinstance(value[0], int):
            longest = f.metadata.get("length", DEFAULT_LENGTH)[1]
            yield f.name, (high,) * len(value)
            yield f.name, (low,) * len(value)
            yield f.name, (value * longest)[:longest]


CORNERS = [(g, name, value) for g in GAMES for name, value in _corners(g)]


@pytest.mark.parametrize(("game", "field", "value"), CORNERS, ids=lambda v: str(v)[:20])
def test_rules_at_the_ends_of_their_ranges_are_refused_or_playable(game, field, value):
    cls = _rules_classes()[game]
    try:
        rules = cls(**{field: value})
    except RulesError:
        return
    with time_limit(LIMIT):
        try:
            _play(game, rules)
        except ValueError as exc:  # refused when the game starts: the rules do not fit it
            assert not isinstance(exc, IllegalAction), exc


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_rules_with_several_fields_at_their_ends_are_refused_or_playable(game, data):
    corners = [(name, value) for g, name, value in CORNERS if g == game]
    chosen = data.draw(st.lists(st.sampled_from(corners), min_size=2, max_size=6))
    cls = _rules_classes()[game]
    try:
        rules = cls(**dict(chosen))
    except RulesError:
        return
    with time_limit(LIMIT):
        try:
            _play(game, rules, seed=len(chosen))
        except ValueError as exc:
            assert not isinstance(exc, IllegalAction), exc


@pytest.mark.parametrize(
    ("game", "field", "value"),
    [
        ("batalla", "sorcerer_levels", -1),
        ("batalla", "militia_max", 10**9),
        ("hierro", "army_pawns", 10**9),
        ("hierro", "forced_march_small", 10**9),
        ("hierro", "forced_march_medium", 10**9),
        ("hierro", "draw_many_count", 10**9),
        ("carolus", "regions", 10**9),
        ("batalla", "dragon_costs", [1] * 10**5),
    ],
)
def test_rules_that_would_make_a_game_unplayable_are_refused(game, field, value):
    cls = _rules_classes()[game]
    with time_limit(LIMIT), pytest.raises(RulesError, match=field):
        cls.from_dict({field: value})
    with time_limit(LIMIT), pytest.raises(RulesError, match=field):
        cls(**{field: tuple(value) if isinstance(value, list) else value})


def test_a_rule_file_is_bounded_like_a_saved_game(tmp_path):
    from coronas.batalla import Rules

    deep = tmp_path / "deep.json"
    deep.write_text('{"die_faces": ' + "[" * 5000 + "]" * 5000 + "}")
    with pytest.raises(RulesError, match="nested too deeply"):
        Rules.load(deep)
    with pytest.raises(RulesError, match="not a regular file"):
        Rules.load(tmp_path)
    binary = tmp_path / "rules.bin"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RulesError, match="not UTF-8"):
        Rules.load(binary)


# -- boards ----------------------------------------------------------------------------------


def _board_data() -> dict:
    return json.loads(load_board().to_json())


@FUZZ
@given(seed=st.integers(0, 2**32), times=st.integers(1, 3))
def test_a_mutated_board_is_refused_or_built(seed, times):
    data = mutate(_board_data(), random.Random(seed), times)
    with time_limit(LIMIT):
        try:
            board = Board.from_dict(data)
        except BoardError as exc:
            assert len(str(exc)) <= 300
            return
        board.graph()
        board.start_castles()


def test_a_huge_board_is_refused_quickly(tmp_path):
    data = _board_data()
    n = 100_000
    data["cities"] = data["cities"] + [{"name": f"c{i}", "lon": 0.0, "lat": 0.0} for i in range(n)]
    data["roads"] = data["roads"] + [[f"c{i}", f"c{i + 1}"] for i in range(n - 1)]
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    with time_limit(5.0), pytest.raises(BoardError, match=f"{MAX_CITIES}"):
        load_board(path)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with time_limit(5.0), pytest.raises(BoardError, match="nested too deeply"):
        load_board(deep)


# -- the command line ------------------------------------------------------------------------

TOKENS = [
    "odds",
    "hierro-castle",
    "hierro-diplomacy",
    "hierro-battle",
    "batalla-battle",
    "carolus-draws",
    "risk",
    "replay",
    "--army",
    "--shields",
    "--legitimacy",
    "--gold",
    "--crown",
    "--gems-won",
    "--cross",
    "--defender-cross",
    "--at-least",
    "--family",
    "--table",
    "--rules",
    "--players",
    "--seed",
    "0",
    "1",
    "3",
    "-1",
    "5",
    "101",
    "1e9",
    "99999999999999999999999",
    "nan",
    "x",
    "",
    "/etc/passwd",
    "/nonexistent.json",
    "--",
    "-",
]


@settings(max_examples=150 * SCALE, deadline=None, derandomize=SCALE == 1)
@given(argv=st.lists(st.sampled_from(TOKENS), min_size=1, max_size=7))
def test_bad_command_lines_fail_on_one_line(argv):
    with time_limit(LIMIT):
        status, err = _cli(argv)
    assert status in (0, 1, 2)
    if status:
        _one_line(err)


# -- odds arguments --------------------------------------------------------------------------

VALUES = st.one_of(
    st.integers(-2, 6),
    st.sampled_from([10**9, -(10**9), 10**100, 1.5, float("nan"), "3", None, [1], True, (1, 2)]),
)


def _odds_calls():
    from coronas import attrition
    from coronas.batalla import odds as batalla
    from coronas.carolus import odds as carolus
    from coronas.hierro import odds as hierro

    return {
        "batalla.battle": (batalla.battle, 4),
        "batalla.gem_probability": (batalla.gem_probability, 4),
        "batalla.gem_table": (batalla.gem_table, 2),
        "batalla.p_chair": (batalla.p_chair, 2),
        "batalla.dragon_turn": (lambda a, b, c: batalla.dragon_turn(a, b, gems_won=c), 3),
        "batalla.dragon_turns": (lambda a, b, c: batalla.dragon_turns(a, b, horizon=c), 3),
        "hierro.battle": (hierro.battle, 4),
        "hierro.battle_table": (hierro.battle_table, 4),
        "hierro.castle_assault": (hierro.castle_assault, 3),
        "hierro.diplomacy": (hierro.diplomacy, 3),
        "hierro.emissary_race": (
            lambda t, a, s: hierro.emissary_race(t, shields=(s, 0), attempts_per_turn=a),
            3,
        ),
        "hierro.simulate_battle": (
            lambda a, d, n: hierro.simulate_battle(a, d, n=n),
            3,
        ),
        "carolus.family_draw_distribution": (carolus.family_draw_distribution, 1),
        "carolus.knights_for_family": (carolus.knights_for_family, 2),
        "carolus.replenish_distribution": (carolus.replenish_distribution, 1),
        "attrition.solve": (lambda a, d: attrition.solve(attrition.RISK, a, d), 2),
        "attrition.win_table": (lambda a, d: attrition.win_table(attrition.HIERRO, a, d), 2),
        "attrition.markov_chain": (lambda a, d: attrition.markov_chain(attrition.RISK, a, d), 2),
        "attrition.simulate": (lambda a, d, n: attrition.simulate(attrition.RISK, a, d, n=n), 3),
        "attrition.negative_binomial_win": (
            lambda a, d: attrition.negative_binomial_win(attrition.Fraction(1, 2), a, d),
            2,
        ),
    }


CALLS = _odds_calls()


@pytest.mark.parametrize("name", sorted(CALLS))
@settings(max_examples=30 * SCALE, deadline=None, derandomize=SCALE == 1)
@given(data=st.data())
def test_odds_refuse_bad_arguments_with_a_value_error(name, data):
    fn, arity = CALLS[name]
    args = [data.draw(VALUES) for _ in range(arity)]
    with time_limit(LIMIT):
        try:
            fn(*args)
        except ValueError as exc:
            assert len(str(exc)) < 500


@pytest.mark.parametrize(
    ("call", "limit"),
    [
        ("batalla.gem_probability(3, 2, 10**9)", "attacker_gold"),
        ("carolus.knights_for_family(1.5, 1)", "draws"),
        ("carolus.knights_for_family(10_000, 1)", "1000"),
        ("hierro.emissary_race(3, attempts_per_turn=10**9)", "attempts_per_turn"),
        ("attrition.solve(attrition.RISK, 10**6, 10**6)", "1000"),
        ("attrition.simulate(attrition.RISK, 3, 2, n=0)", "n"),
        ("hierro.battle(10**5, 10**5)", "100"),
        ("hierro.battle(100, 100, 1, 1)", "20,000"),
        ("carolus.replenish_distribution(30)", "20,000"),
    ],
)
def test_known_crashes_are_value_errors_naming_the_limit(call, limit):
    from coronas import attrition
    from coronas.batalla import odds as batalla
    from coronas.carolus import odds as carolus
    from coronas.hierro import odds as hierro

    names = {"attrition": attrition, "batalla": batalla, "carolus": carolus, "hierro": hierro}
    with time_limit(LIMIT), pytest.raises(ValueError, match=re.escape(limit)):
        eval(call, names)


@pytest.fixture(scope="module")
def table_texts(tmp_path_factory) -> dict[bool, str]:
    """A locked hierro table's file, sealed (True) and, once unlocked, in the clear (False)."""
    from coronas.hierro import Game
    from coronas.widgets import StepperModel

    model = StepperModel(Game(players=3).new_initial_state(), view="pass", lock_view=True)
    for _ in range(12):
        model.take_laptop()
        if model.state.is_chance_node():
            model.roll()
        else:
            model.play(model.state.legal_actions()[0])
    texts = {}
    folder = tmp_path_factory.mktemp("table")
    for sealed in (True, False):
        if not sealed:
            assert model.unlock("a passphrase")  # the one it was sealed with
        path = folder / f"table-{sealed}.json"
        assert model.save(path, "a passphrase")
        texts[sealed] = path.read_text(encoding="utf-8")
    return texts


@pytest.mark.parametrize("sealed", [True, False])
@settings(max_examples=10 * SCALE, deadline=None, derandomize=SCALE == 1)
@given(seed=st.integers(0, 2**32), times=st.integers(1, 2))
def test_the_stepper_takes_a_mutated_table_file(tmp_path_factory, table_texts, sealed, seed, times):
    from coronas.hierro import Game
    from coronas.widgets import StepperModel

    rng = random.Random(seed)
    path = tmp_path_factory.mktemp("tables") / "table.json"
    path.write_text(dumps(mutate(json.loads(table_texts[sealed]), rng, times)), encoding="utf-8")
    model = StepperModel(Game(players=3).new_initial_state(), view="pass", lock_view=True)
    with time_limit(LIMIT):
        loaded = model.load(str(path), "a passphrase")
    assert model.message
    if not loaded:  # refused: named, and nothing changed
        assert model.message.startswith(str(path)) and model.state.history == []
        assert model.notes == [] and model.locked
