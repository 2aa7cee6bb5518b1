"""Advice a player can act on at once: the value model's quick ranking before any game, games
spent on the moves that could still be best, the shortlist read in order, the best move's
figure on games not used to pick it, and why the games stopped. On a toy whose every figure is
worked out by hand."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
import math
import random
import sys
import time
from fractions import Fraction
from pathlib import Path
from unittest.mock import ANY

import pytest

from coronas.engine import CHANCE, TERMINAL, Action, Game, IllegalAction, RandomBot, State
from coronas.engine.surface import GameSpec
from coronas.manygames.moves import (
    LIKELIEST_MOVES,
    MAX_KEPT,
    PRIOR_MASS,
    left_out,
    prior_kept,
    prior_values,
    quick_values,
    rank_actions,
)
from coronas.manygames.questions import Questions


@dataclasses.dataclass(frozen=True)
class Pick(Action):
    how: str  # "die": seat 0 wins on 1-4; "coin": on heads; "fold": seat 1 wins at once


@dataclasses.dataclass(frozen=True)
class Face(Action):
    value: int


class PickState(Questions, State):
    """Seat 0 picks how the game is decided, then one roll (if any) decides it."""

    def _setup(self) -> None:
        self.how = None
        self.winner = None

    def _current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return 0 if self.how is None else CHANCE

    def _legal_actions(self):
        return [Pick("die"), Pick("coin"), Pick("fold")]

    def _chance_outcomes(self):
        sides = 6 if self.how == "die" else 2
        return [(Face(v), Fraction(1, sides)) for v in range(1, sides + 1)]

    def _apply(self, action) -> None:
        if isinstance(action, Pick):
            self.how = action.how
            if action.how == "fold":
                self.winner = 1
        else:
            wins = action.value <= 4 if self.how == "die" else action.value == 1
            self.winner = 0 if wins else 1

    def _returns(self):
        return [1 if p == self.winner else 0 for p in (0, 1)]

    def describe(self, action) -> str:
        return action.how if isinstance(action, Pick) else f"a {action.value}"


def even_value(state: PickState) -> tuple[float, float]:
    """A value model that knows nothing: an even game wherever the game is not over."""
    return (0.5, 0.5)


class PickGame(Game):
    name = "toy-pick"
    state_class = PickState
    action_types = (Pick, Face)

    @classmethod
    def declare(cls) -> GameSpec:
        return GameSpec(evaluate=even_value)


def start() -> PickState:
    return PickGame().new_initial_state()


def test_the_quick_estimate_averages_the_roll_after_a_move_exactly():
    # The model knows nothing (1/2 everywhere), but the roll after each move is averaged
    # over its outcomes, each ending the game: die 4/6, coin 1/2, fold 0 (the game is over).
    assert quick_values(start()) == [pytest.approx(2 / 3), 0.5, 0.0]


def test_a_ranking_is_shown_at_once_as_a_quick_estimate_then_refined_by_games():
    seen = []
    began = time.monotonic()

    def update(ranking):
        seen.append((time.monotonic() - began, ranking))

    final = rank_actions(start(), RandomBot(), games=60, seed=1, exact=False, on_update=update)
    first_time, first = seen[0]
    assert first.quick and first.games == 0 and first_time < 1.0
    assert "quick estimate by the value model, not yet games" in str(first)
    assert [r["label"] for r in first.rows] == ["die", "coin", "fold"]
    assert all(not r.quick for _, r in seen[1:]) and not final.quick
    assert final.stopped == "games" and "every figure has its games" in str(final)


def test_a_move_far_behind_in_the_quick_estimate_is_left_out_of_the_games():
    ranking = rank_actions(start(), RandomBot(), games=40, seed=1, exact=False, drop_behind=0.5)
    rows = {r["label"]: r for r in ranking.rows}
    assert rows["fold"]["games"] == 0 and rows["fold"]["chance"] == 0
    assert rows["fold"]["dropped"].startswith("left out: the value model puts it 67")
    assert rows["coin"]["games"] == 40 and not rows["coin"]["dropped"]  # 17 points behind
    assert ranking.rows[-1]["label"] == "fold"  # dropped moves come last
    with pytest.raises(ValueError, match="drop_behind"):
        rank_actions(start(), RandomBot(), games=10, drop_behind=2)


def test_only_the_quick_estimate_s_best_few_moves_are_played_out_with_quick_kept():
    # quick estimates: die 2/3, coin 1/2, fold 0; the two best are played, fold is left out
    ranking = rank_actions(
        start(), RandomBot(), games=40, seed=1, exact=False, drop_behind=None, quick_kept=2
    )
    rows = {r["label"]: r for r in ranking.rows}
    assert rows["fold"]["games"] == 0 and ranking.rows[-1]["label"] == "fold"
    assert rows["fold"]["dropped"] == (
        "left out: not among the value model's 2 best moves, 67 points behind the best"
    )
    assert rows["die"]["games"] == rows["coin"]["games"] == 40
    assert "the value model's 2 best moves were played out" in ranking.basis()
    everything = rank_actions(start(), RandomBot(), games=10, seed=1, exact=False)
    assert "best moves were played out" not in everything.basis()
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="quick_kept is how many of the quick estimate"):
            rank_actions(start(), RandomBot(), games=10, quick_kept=bad)


def test_only_the_moves_asked_for_are_ranked_each_with_its_own_figures():
    # die: seat 0 wins on 1-4, 2/3; coin: 1/2; fold: 0. Asked for coin and die, in either
    # order, the ranking holds those two, exactly, and the state is unchanged
    state = start()
    ranking = rank_actions(state, RandomBot(), moves=[Pick("coin"), Pick("die")])
    assert [(r["label"], r["chance"]) for r in ranking.rows] == [
        ("die", Fraction(2, 3)),
        ("coin", Fraction(1, 2)),
    ]
    # the quick figures stay with their moves: fold (0) is 50 points behind coin (1/2)
    ranking = rank_actions(
        state,
        RandomBot(),
        games=20,
        seed=1,
        exact=False,
        drop_behind=None,
        quick_kept=1,
        moves=[Pick("fold"), Pick("coin")],
    )
    rows = {r["label"]: r for r in ranking.rows}
    assert set(rows) == {"coin", "fold"} and rows["coin"]["games"] == 20
    assert rows["fold"]["dropped"] == (
        "left out: not among the value model's 1 best moves, 50 points behind the best"
    )
    with pytest.raises(IllegalAction, match=r"'dice'.* is not a legal move of .* here"):
        rank_actions(state, RandomBot(), games=10, moves=[Pick("die"), Pick("dice")])
    with pytest.raises(ValueError, match="give at least one"):
        rank_actions(state, RandomBot(), games=10, moves=[])
    assert state.how is None and state.history == []


def test_quick_kept_keeps_that_many_a_tie_broken_by_the_listing_s_order():
    quick = [0.40, 0.10, 0.30, 0.30, 0.14]
    out = left_out(quick, None, drop_behind=None, quick_kept=2)
    # 0.40, then the first listed of the two at 0.30
    assert out == {
        1: "left out: not among the value model's 2 best moves, 30 points behind the best",
        3: "left out: not among the value model's 2 best moves, as good as the last of them, "
        "listed after it",
        4: "left out: not among the value model's 2 best moves, 26 points behind the best",
    }
    assert left_out(quick, None, drop_behind=None, quick_kept=5) == {}
    # a move the value model puts far behind says so once, whichever rule leaves it out
    assert left_out(quick, None, drop_behind=0.25, quick_kept=1)[1].startswith(
        "left out: the value model puts it 30 points behind"
    )


def test_the_move_prior_breaks_the_quick_estimate_s_ties_for_quick_kept():
    # the two at 0.30 tie for second place: the likelier by the prior (index 3) is kept
    quick = [0.40, 0.10, 0.30, 0.30, 0.14]
    prior = [0.05, 0.50, 0.10, 0.20, 0.15]
    out = left_out(quick, prior, drop_behind=None, prior_mass=None, quick_kept=2)
    assert sorted(out) == [1, 2, 4]
    assert out[2] == (
        "left out: not among the value model's 2 best moves, as good as the last of them, but "
        "the learned player would choose it less often"
    )
    assert out[4] == "left out: not among the value model's 2 best moves, 26 points behind the best"
    # tied on both: the first listed is kept
    flat = [0.05, 0.50, 0.20, 0.20, 0.15]
    assert sorted(left_out(quick, flat, drop_behind=None, prior_mass=None, quick_kept=2)) == [
        1,
        3,
        4,
    ]


def test_a_move_clearly_worse_on_the_paired_games_is_dropped_from_later_games():
    # fold loses every game: after 40 games its paired difference from the die (-2/3, sd 0.47)
    # is below zero at 95% corrected for two comparisons and one look (z = 2.50: -0.67 +- 0.19)
    ranking = rank_actions(start(), RandomBot(), games=200, seed=3, exact=False, drop_behind=None)
    rows = {r["label"]: r for r in ranking.rows}
    assert rows["fold"]["games"] == 40
    assert rows["fold"]["dropped"].startswith("dropped after 40 games: clearly worse")
    assert rows["die"]["best"] and rows["die"]["games"] == 200
    assert not rows["die"]["dropped"]
    without = rank_actions(
        start(), RandomBot(), games=200, seed=3, exact=False, drop_behind=None, race=False
    )
    assert all(r["games"] == 200 for r in without.rows)


def test_the_list_reads_in_order_and_the_best_is_measured_on_games_not_used_to_pick_it():
    ranking = rank_actions(start(), RandomBot(), games=60, seed=5, exact=False, drop_behind=None)
    keys = [(not r["best"], not r["shortlist"], bool(r["dropped"])) for r in ranking.rows]
    assert keys == sorted(keys)  # the best, the shortlist, the rest, the dropped
    for r in ranking.rows:
        if r["shortlist"] and not r["best"]:
            assert r["versus_best"][2] >= 0  # its paired difference from the best reaches 0
    chance, low, high = ranking.held_out
    assert low <= chance <= high and 0 < high - low < 0.5
    assert "the best move on games not used to pick it: " in str(ranking)


class TwoCoins(PickState):
    """Two bets on one fair coin, heads ("coin") or tails ("toss"): on the same games one wins
    where the other loses, and the lead passes from one to the other."""

    def _legal_actions(self):
        return [Pick("coin"), Pick("toss")]

    def _apply(self, action) -> None:
        if isinstance(action, Pick):
            self.how = action.how
        else:
            self.winner = 0 if action.value == (1 if self.how == "coin" else 2) else 1


class TwoCoinsGame(PickGame):
    name = "toy-two-coins"
    state_class = TwoCoins


def test_the_best_move_is_never_shown_against_an_earlier_best():
    # each move's difference from the best is measured against the best of that batch; a move
    # that was behind and then leads shows no difference from itself
    seen = []
    state = TwoCoinsGame().new_initial_state()
    rank_actions(state, RandomBot(), games=400, seed=1, exact=False, on_update=seen.append)
    leaders = [r.rows[0]["label"] for r in seen if not r.quick]
    assert len(set(leaders)) == 2  # the lead changed hands in this seeded run
    for ranking in seen:
        best, other = ranking.rows
        assert best["best"] and best["versus_best"] is None
        assert ranking.quick or other["versus_best"][0] <= 0  # the other minus the best


def test_win_chances_say_why_they_stopped():
    state = start()
    state.apply(Pick("die"))
    got = state.win_chances(RandomBot(), time=0.3, seed=1, exact=False)
    assert got.stopped == "time" and got.stop_note() == "stopped: the time was up"
    assert state.win_chances(RandomBot(), games=20, exact=False).stopped == "games"
    assert state.win_chances(RandomBot()).stop_note() == "exact: nothing left to play"


def test_the_quick_estimate_of_corona_de_hierro_takes_under_a_second_from_the_mover_view():
    import random

    from coronas.hierro import Game as Hierro

    state = Hierro(players=4, seed=1).new_initial_state()
    rng = random.Random(1)
    light = Hierro.bot("light")
    while len(state.history) < 40 or state.current_player < 0:
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(light.choose(state, rng))
    began = time.monotonic()
    values = quick_values(state, viewer=state.current_player)
    assert time.monotonic() - began < 1.0
    assert len(values) == len(state.legal_actions()) and all(0 <= v <= 1 for v in values)


def test_the_luck_of_a_roll_is_taken_out_exactly_where_the_model_sees_it():
    # After "die" one roll ends the game: E[V] over its six faces is (2/3, 1/3) and V at the
    # face drawn is the game's own shares, so every adjusted game is worth exactly 2/3 to
    # seat 0: the estimate is the exact chance and its interval has no width.
    state = start()
    state.apply(Pick("die"))
    plain = state.win_chances(RandomBot(), games=40, seed=2, exact=False)
    adjusted = state.win_chances(RandomBot(), games=40, seed=2, exact=False, luck=True)
    assert plain.chances[0] != Fraction(2, 3) and plain.high[0] - plain.low[0] > 0.2
    assert adjusted.chances == (Fraction(2, 3), Fraction(1, 3)) and adjusted.luck
    assert adjusted.high[0] - adjusted.low[0] < 1e-9
    assert "adjusted for the luck of their rolls" in str(adjusted)
    ranking = rank_actions(start(), RandomBot(), games=40, seed=2, exact=False, luck=True)
    rows = {r["label"]: r for r in ranking.rows}
    assert rows["die"]["chance"] == Fraction(2, 3) and rows["coin"]["chance"] == Fraction(1, 2)
    assert ranking.luck and rows["die"]["best"] and not rows["coin"]["shortlist"]
    with pytest.raises(ValueError, match="luck must be True or False"):
        state.win_chances(RandomBot(), games=10, luck="yes")


def load_benchmark(name: str, monkeypatch):
    """``benchmarks/<name>.py``, loaded as a module."""
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
    monkeypatch.syspath_prepend(str(path.parent))  # its helper modules: _machine, bench_advice
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def bench(monkeypatch):
    """benchmarks/bench_advice.py, loaded as a module."""
    return load_benchmark("bench_advice", monkeypatch)


def test_the_common_seeds_measure_gives_the_variances_worked_out_by_hand(monkeypatch):
    # benchmarks/bench_winchances.py --decisions: after "up to j" and "up to k" (j < k) one
    # die decides. On the same roll the difference of seat 0's shares is -1 when the die
    # shows j+1 to k, else 0: variance p(1 - p), p = (k - j)/6. On rolls of their own the
    # two moves' variances add: j/6 (1 - j/6) + k/6 (1 - k/6). 3,000 games a move: a sample
    # variance is within about 4% of its value (one standard deviation), so 15% is the
    # tolerance; the run is seeded.
    measure = load_benchmark("bench_winchances", monkeypatch)
    state = ReachGame().new_initial_state()
    for seed in (1, 2):
        j, k = sorted(a.k for a in random.Random(seed).sample(state.legal_actions(), 2))
        p = Fraction(k - j, 6)
        common, own, by_turn = measure.variances(state, 3000, seed)
        assert by_turn is None  # the toy declares no turns
        assert common == pytest.approx(float(p * (1 - p)), rel=0.15)
        assert own == pytest.approx(
            float(Fraction(j, 6) * (1 - Fraction(j, 6)) + Fraction(k, 6) * (1 - Fraction(k, 6))),
            rel=0.15,
        )


def test_the_advice_benchmark_times_the_readme_s_advise_command_as_typed(bench):
    # the whole command on the README's saved game, a row a command; a command that fails or
    # prints no ranking stops the benchmark with what it said
    (row,) = bench.command_times(1, (("advise game.json --win-chances --time 0.5", 0.5),))
    command, given, walls, within = row
    assert command == "coronas advise game.json --win-chances --time 0.5" and given == "0.5"
    assert float(walls) > 0 and within == ("yes" if float(walls) <= 0.5 else "no")
    with pytest.raises(SystemExit, match=r"advise game\.json --time 1: exit 2\n.*--time goes with"):
        bench.command_times(1, (("advise game.json --time 1", 1.0),))
    with pytest.raises(SystemExit, match=r"coronas advise game\.json: exit 0"):
        bench.command_times(1, (("advise game.json", 1.0),))  # the odds alone, no ranking
    assert [c for c, _ in bench.ADVISE_COMMANDS] == [
        "advise game.json --win-chances",  # the default time, 10 s
        "advise game.json --win-chances --time 3",  # the README's
    ]


def test_the_advice_benchmark_judges_the_moves_left_out_on_a_reference(bench):
    # at the README's position the shipped rule plays 4 of the 29 moves (docs/performance.md),
    # not "send an emissary to Turin" (its prior 0.1%): where a reference puts that move 10
    # points ahead of all the others, leaving it out loses 10 points; playing every move, none
    state = bench.readme_position()
    labels = [state.describe(a) for a in state.legal_actions()]
    turin = "send an emissary to Turin"
    ranking = [{"label": x, "chance": 0.6 if x == turin else 0.5} for x in labels]
    done = {
        ("hierro 4p seed 1 after 40", "advice"): {"group": "README", "picked": labels[0]},
        ("hierro 4p seed 1 after 40", "reference"): {"group": "README", "ranking": ranking},
        ("batalla 2p seed 1 after 30", "reference"): {"group": "batalla"},  # no ranking kept
    }
    rules = (("shipped", {}), ("every move", {"prior_mass": None, "drop_behind": None}))
    shipped, every = bench.judge_rules(done, rules)["README"]
    assert len(labels) == 29 and shipped["moves"] == every["moves"] == 29
    assert 3 <= shipped["played"] < 29 and shipped["loss"] == pytest.approx(10)
    assert every["played"] == 29 and every["loss"] == 0
    rows = bench.rules_table({"README": [shipped, every]})
    assert rows == [
        ["README", "shipped", "1", f"{shipped['played']:.1f} of 29.0", "0 of 1", "10.00"],
        ["README", "every move", "1", "29.0 of 29.0", "1 of 1", "0.00"],
    ]


def test_the_advice_benchmark_judges_every_move_on_another_run_s_references(
    bench, tmp_path, monkeypatch, capsys
):
    # --every-move --references FILE: a tiny advice (1 s, the first held-out Batalla decision)
    # with no move left out, its pick judged on the committed run's reference there; the
    # record says it played every move, and no reference is played
    kept_run = Path(bench.__file__).parent / "results" / "advice-b3b81f2.jsonl"
    results = tmp_path / "every.jsonl"
    argv = ["bench_advice.py", "--quick", "--game", "batalla", "--every-move"]
    argv += ["--references", str(kept_run), "--results", str(results), "--jobs", "1"]
    monkeypatch.setattr(sys, "argv", argv)
    bench.main()
    (record,) = [json.loads(line) for line in results.read_text().splitlines()]
    assert record["phase"] == "advice" and record["settings"]["every_move"] is True
    reference = bench.read_references(kept_run)[record["decision"]]
    judged = bench.verdict(reference["ranking"], record["picked"])
    out = capsys.readouterr().out
    assert "every move played out, halved, the references of" in out
    assert f"| {record['picked']} | {judged['best']} | {judged['regret']:.1f} (" in out
    monkeypatch.setattr(sys, "argv", [*argv, "--phase", "reference"])
    with pytest.raises(SystemExit):  # the references are given: no reference phase to run
        bench.main()


def test_the_advice_benchmark_judges_the_rules_with_another_move_prior(bench, tmp_path):
    # --prior GAME=FILE: the rules read that file's prior in place of the shipped one. A
    # prior with every weight 0 finds the README's 29 moves equally likely, so the rule with
    # no most keeps every one of them (each as likely as the last kept) and loses nothing
    import json

    from coronas.hierro import Game as Hierro

    state = bench.readme_position()
    labels = [state.describe(a) for a in state.legal_actions()]
    data = json.loads(Hierro.spec().learning.path("prior").read_text())
    data["weights"] = [0.0] * len(data["weights"])
    (tmp_path / "flat.json").write_text(json.dumps(data))
    flat = Hierro.spec().learning.move_prior(tmp_path / "flat.json")
    assert prior_values(state, prior=flat) == pytest.approx([1 / 29] * 29)
    ranking = [{"label": x, "chance": 0.6 if x == labels[-1] else 0.5} for x in labels]
    done = {("hierro 4p seed 1 after 40", "reference"): {"group": "README", "ranking": ranking}}
    rules = (("no most", {"most": None}),)
    (shipped,) = bench.judge_rules(done, rules)["README"]
    (judged,) = bench.judge_rules(done, rules, {"hierro": flat})["README"]
    assert shipped["played"] < 29 and judged["played"] == 29 and judged["loss"] == 0
    parser = bench.argparse.ArgumentParser()
    assert bench.read_priors(parser, [f"hierro={tmp_path / 'flat.json'}"])["hierro"].weights
    with pytest.raises(SystemExit):  # a prior of another game, refused with what is wrong
        bench.read_priors(parser, [f"carolus={tmp_path / 'flat.json'}"])


def test_the_advice_benchmark_measures_a_small_seeded_run(bench, tmp_path):
    # benchmarks/bench_advice.py's measure on a Batalla decision, 40 games against 200: the
    # figures it reports are there and within their ranges (a tiny run, not the targets);
    # its held-out decisions are seeded and come from games that reach them
    state = bench.position("batalla", 2, 1, 30)
    got = bench.advise(state, {"games": 40, "seed": 0})
    assert got["moves"] == len(state.legal_actions()) and got["games"] == 40
    assert got["moves"] * 40 >= got["total_games"] >= 40
    assert 1 <= got["shortlist"] <= got["moves"] and 0 <= got["settled"] <= got["moves"]
    assert got["quick"] < 1.0
    assert got["picked"] in {r["label"] for r in state.rank_actions(games=1).rows}
    assert bench.advise(state, {"games": 40, "seed": 0}) == {**got, "quick": ANY, "seconds": ANY}
    # the reference: twenty times the advice's games, spread over the moves, as a cap a move
    cap = bench.reference_games(got, 20)
    assert cap == max(bench.MIN_REFERENCE, -(-20 * got["total_games"] // got["moves"]))
    ref = bench.refer(state, got, {"games": cap, "seed": 1})
    assert ref["regret"] >= 0 and got["moves"] * cap >= ref["reference_games"] >= cap
    assert bench.refer(state, got, {"games": cap, "seed": 1}) == ref  # seeded: in games, not time
    # every move's figures are kept, in the reference's order, as JSON can hold them
    kept = json.loads(json.dumps(ref["ranking"]))
    assert kept == ref["ranking"] and len(kept) == got["moves"]
    assert kept[0]["label"] == ref["best"] and kept[0]["versus_best"] is None
    assert sum(m["games"] for m in kept) == ref["reference_games"]
    assert sum(m["shortlist"] for m in kept) == ref["reference_shortlist"]
    for move in kept:
        assert 0 <= move["low"] <= move["chance"] <= move["high"] <= 1
        assert move is kept[0] or move["versus_best"] is None or move["versus_best"][0] <= 0
    low, high = ref["regret_interval"]
    if ref["best"] == got["picked"]:
        assert ref["regret"] == low == high == 0 and ref["picked_on_shortlist"]
    else:
        assert low <= ref["regret"] <= high
        assert low <= 0 or not ref["picked_on_shortlist"]  # on it: the reference cannot tell
    # the regret's interval: the pick's paired comparison with the best while it was in the
    # race, else the two moves' intervals as independent ones (5 and 3 points: hypot 5.83)
    best = {"chance": Fraction(3, 5), "low": 0.55, "high": 0.65, "versus_best": None}
    live = {"chance": Fraction(1, 2), "dropped": "", "versus_best": (-0.1, -0.14, -0.06)}
    assert bench.regret_interval(best, best) == (0, 0)
    assert bench.regret_interval(best, live) == (0.06, 0.14)
    dropped = {**live, "dropped": "dropped after 40 games", "low": 0.47, "high": 0.53}
    low, high = bench.regret_interval(best, dropped)
    assert (round(low, 4), round(high, 4)) == (round(0.1 - 0.0583095, 4), round(0.1 + 0.0583095, 4))
    # the summary over a game's decisions: regrets 0, 1 and 3 points; the reference shows the
    # first within 2 points, cannot tell the second, shows the third behind by more than 2;
    # mean 4/3, sample deviation sqrt(7/3), 95% interval 4/3 -+ 1.96 sqrt(7/9)
    rows = [
        {"regret": 0.0, "regret_interval": [0.0, 0.0]},
        {"regret": 1.0, "regret_interval": [-1.0, 3.0]},
        {"regret": 3.0, "regret_interval": [2.5, 3.5]},
        {"moves": 4},  # advised, no reference yet
    ]
    assert bench.regrets(rows) == ["3", "2 of 3", "1 of 3", "1 of 3", "1.33 (-0.40 to 3.06)"]
    # a results file goes on where it stopped, and only with the settings it was measured with
    settings = {"time": 1.0, "factor": 2.0, "jobs": 1, "decisions": 1, "reference": "games"}
    results = tmp_path / "advice.jsonl"
    assert bench.read_results(results, settings) == {}
    lines = [{**got, "phase": "advice"}, {**ref, "phase": "reference"}]
    text = "".join(json.dumps({**r, "decision": "d", "settings": settings}) + "\n" for r in lines)
    results.write_text(text)
    read = bench.read_results(results, settings)
    assert read["d", "reference"]["regret"] == ref["regret"]
    assert read["d", "advice"]["picked"] == got["picked"]
    with pytest.raises(SystemExit, match=r"advice\.jsonl, line 1: measured with"):
        bench.read_results(results, {**settings, "time": 10.0})
    # a stop mid-write leaves a cut last line: it is cut off and its decision measured again
    results.write_text(text + text.splitlines()[0][:40])
    assert set(bench.read_results(results, settings)) == {("d", "advice"), ("d", "reference")}
    assert results.read_text() == text
    # another advice judged on these references: the regret of its pick from the kept
    # ranking (:func:`verdict`); on the references of the committed run, made before it
    # existed, it gives the regrets they worked out from their rankings when played
    kept_run = Path(bench.__file__).parent / "results" / "advice-b3b81f2.jsonl"
    records = [json.loads(line) for line in kept_run.read_text().splitlines()]
    picks = {r["decision"]: r["picked"] for r in records if r["phase"] == "advice"}
    played = [r for r in records if r["phase"] == "reference"]
    assert len(played) == 151
    for record in played:
        again = bench.verdict(record["ranking"], picks[record["decision"]])
        assert again["best"] == record["best"] and again["regret"] == pytest.approx(
            record["regret"]
        )
        assert again["regret_interval"] == pytest.approx(record["regret_interval"])
        assert again["picked_on_shortlist"] == record["picked_on_shortlist"]
        assert again["reference_games"] == record["reference_games"]
    assert bench.read_references(results) == {"d": read["d", "reference"]}
    other = ref["ranking"][-1]["label"]  # the reference's last move, picked instead
    judged = bench.verdict(ref["ranking"], other)
    assert judged["regret"] == pytest.approx(
        100 * (ref["ranking"][0]["chance"] - ref["ranking"][-1]["chance"])
    )
    assert judged["regret"] >= ref["regret"] or other == got["picked"]
    (tmp_path / "other.jsonl").write_text("not a results file\n")
    with pytest.raises(SystemExit, match=r"--references .*other\.jsonl"):
        bench.read_references(tmp_path / "other.jsonl")
    # a line that is not a record is named, not a traceback
    results.write_text(text + "[1, 2]\n")
    with pytest.raises(SystemExit, match=r"advice\.jsonl, line 3: expected a JSON object"):
        bench.read_results(results, settings)
    # the README's position is its own commands' game: 40 steps, then a Hierro decision
    readme = bench.readme_position()
    assert len(readme.history) == 40 and len(readme.legal_actions()) >= 2
    decisions = bench.held_out("batalla", 2)
    assert [(s, n) for s, n, _ in decisions] == [(s, n) for s, n, _ in bench.held_out("batalla", 2)]
    for seed, steps, decision in decisions:
        assert seed >= bench.FIRST_SEED and len(decision.history) >= steps
        assert decision.current_player >= 0 and len(decision.legal_actions()) >= 2


def test_the_advice_benchmark_measures_a_pick_and_the_reference_s_best_again(
    bench, tmp_path, monkeypatch, capsys
):
    # --verify FILE: where FILE's pick is not the reference's best, both moves are played
    # again on fresh games (here 40 each), and the regret is read from those games alone
    kept_run = Path(bench.__file__).parent / "results" / "advice-b3b81f2.jsonl"
    key = "batalla 2p seed 90005 after 53"
    line = next(x for x in kept_run.read_text().splitlines() if key in x and '"advice"' in x)
    advice = tmp_path / "advice.jsonl"
    advice.write_text(line + "\n")
    results = tmp_path / "verify.jsonl"
    argv = ["bench_advice.py", "--verify", str(advice), "--references", str(kept_run)]
    argv += ["--verify-games", "40", "--jobs", "1", "--results", str(results)]
    monkeypatch.setattr(sys, "argv", argv)
    bench.main()
    (record,) = [json.loads(x) for x in results.read_text().splitlines()]
    assert record["phase"] == "verify" and record["decision"] == key
    assert record["picked"] == json.loads(line)["picked"] != record["best"]
    assert record["best"] == bench.read_references(kept_run)[key]["best"]
    rows = {r["label"]: r for r in record["ranking"]}
    assert set(rows) == {record["best"], record["picked"]}
    assert all(r["games"] == 40 and not r["dropped"] for r in rows.values())
    gap = 100 * (rows[record["best"]]["chance"] - rows[record["picked"]]["chance"])
    low, high = record["regret_interval"]
    assert record["regret"] == pytest.approx(gap) and low <= record["regret"] <= high
    out = capsys.readouterr().out
    assert f"| {key} | {record['picked']} | {record['best']} |" in out
    assert "| batalla | 1 | 0 of 1 | 1 of 1 |" in out  # 0.6 points behind on the reference
    bench.main()  # measured already: read back, not played again
    assert results.read_text().count("\n") == 1
    assert "1 records read from" in capsys.readouterr().out
    assert (
        bench.decision_position(key, "batalla").history
        == bench.position("batalla", 2, 90005, 53).history
    )
    with pytest.raises(SystemExit, match="expected 'GAME Np seed S after K'"):
        bench.decision_position("batalla seed 1", "batalla")


@dataclasses.dataclass(frozen=True)
class Wait(Action):
    coin: bool  # toss a coin first (which decides nothing), or not


class WaitState(Questions, State):
    """Seat 0 chooses whether a coin is tossed in turn 0; in turn 1 a die decides: seat 0
    wins on 1-3. Either way its chance is 1/2, and the die is the game's last draw."""

    def _setup(self) -> None:
        self.turn, self.tossing, self.winner = 0, None, None

    def _current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return 0 if self.tossing is None else CHANCE

    def _legal_actions(self):
        return [Wait(True), Wait(False)]

    def _chance_outcomes(self):
        sides = 2 if self.tossing and self.turn == 0 else 6
        return [(Face(v), Fraction(1, sides)) for v in range(1, sides + 1)]

    def _apply(self, action) -> None:
        if isinstance(action, Wait):
            self.tossing = action.coin
            self.turn = 0 if action.coin else 1
        elif self.tossing and self.turn == 0:
            self.turn = 1  # the coin: nothing else changes
        else:
            self.winner = 0 if action.value <= 3 else 1

    def _returns(self):
        return [1 if p == self.winner else 0 for p in (0, 1)]

    def describe(self, action) -> str:
        return ("toss a coin" if action.coin else "no coin") if isinstance(action, Wait) else ""


def wait_turn(state: WaitState) -> tuple[int]:
    return (state.turn,)


class WaitGame(Game):
    name = "toy-wait"
    state_class = WaitState
    action_types = (Wait, Face)


class WaitByTurns(WaitGame):
    name = "toy-wait-turns"

    @classmethod
    def declare(cls) -> GameSpec:
        return GameSpec(turn=wait_turn)


def test_moves_compared_by_turns_roll_the_same_die_in_the_same_turn():
    # With one stream of draws a game, the coin tossed after one move shifts the die of the
    # next turn: the two moves' games disagree whenever the two dice fall on different
    # sides of 3, about half the time. Drawn by turns, the die of turn 1 is that turn's
    # first draw in both games: the same roll, the same winner, every game.
    options = dict(games=400, seed=3, exact=False, common=True, race=False, halving=False)
    plain = rank_actions(WaitByTurns().new_initial_state(), RandomBot(), **options)
    stepped = rank_actions(WaitByTurns().new_initial_state(), RandomBot(), by_turns=True, **options)
    (_, low, high) = next(r["versus_best"] for r in stepped.rows if not r["best"])
    assert low == high == 0
    assert len({r["chance"] for r in stepped.rows}) == 1
    (_, low, high) = next(r["versus_best"] for r in plain.rows if not r["best"])
    # the difference of two fair wins, disagreeing about half the time: variance about 1/2,
    # so a 95% half-width near 1.96 sqrt(0.5 / 400) = 6.9 points (a seeded run; 5 to 9)
    assert 0.05 <= (high - low) / 2 <= 0.09
    # the chance of each move is unchanged by how the games draw: 1/2, within 5 points
    # (two standard errors of 400 games)
    for ranking in (plain, stepped):
        assert all(abs(r["chance"] - Fraction(1, 2)) <= Fraction(5, 100) for r in ranking.rows)
    # a game that declares no turns, or games of their own, cannot be drawn by turns
    with pytest.raises(ValueError, match="toy-wait declares none"):
        rank_actions(WaitGame().new_initial_state(), RandomBot(), by_turns=True, games=10)
    with pytest.raises(ValueError, match=r"common random numbers \(common=False\)"):
        rank_actions(
            WaitByTurns().new_initial_state(), RandomBot(), by_turns=True, games=10, common=False
        )


def batalla_decision():
    """A Batalla de Coronas decision a few moves in (seeded light play): games from it last
    dozens of actions, so a short horizon cuts nearly every one."""
    import random

    from coronas.batalla import Game as Batalla

    state = Batalla(seed=4).new_initial_state()
    rng, bot = random.Random(4), Batalla.bot("light")
    while len(state.history) < 12 or state.current_player < 0 or len(state.legal_actions()) < 2:
        state.apply(state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng))
    return state


def test_cut_games_are_scored_by_the_value_model_one_share_a_seat_summing_to_one():
    from coronas.manygames.estimator import FromPosition, Games, seat_bots

    state = batalla_decision()
    bots = seat_bots(state, None)
    with Games(bots, 5, None, 1, 100_000) as runs:
        tasks = runs.draw(12)
        cut = runs.play(FromPosition(state), tasks, horizon=4)
        plain = runs.play(FromPosition(state), tasks)
        beyond = runs.play(FromPosition(state), tasks, horizon=10**6)
    assert cut.ended == 12 and len(cut.adjusted) == 12
    for score in cut.adjusted:
        assert len(score) == 2 and all(math.isfinite(v) and 0 <= v <= 1 for v in score)
        assert sum(score) == pytest.approx(1, abs=1e-12)
    # at least one game is cut before its end: a score strictly between 0 and 1
    assert any(0 < score[0] < 1 for score in cut.adjusted)
    # a horizon past every game's end plays the very games a plain run plays (same seeds,
    # same order of draws), each scored by its win shares
    assert [tuple(map(float, g)) for g in plain.per_game] == list(beyond.adjusted)

    ranking = rank_actions(state, games=6, seed=2, exact=False, horizon=4)
    assert ranking.horizon == 4 and ranking.games == 6
    assert "games cut after 4 actions and scored by the value model" in ranking.basis()
    assert all(0 <= float(r["chance"]) <= 1 for r in ranking.rows)


class SendsThenWaits(concurrent.futures.Executor):
    """An executor that plays each chunk as it is sent and logs every sending and every wait
    for a result, in order."""

    def __init__(self) -> None:
        self.log: list[str] = []

    def submit(self, fn, *args, **kwargs):  # type: ignore[override]
        self.log.append("sent")
        done: concurrent.futures.Future = concurrent.futures.Future()
        done.set_result(fn(*args, **kwargs))
        log, get = self.log, done.result

        def result(timeout=None):
            log.append("waited")
            return get(timeout)

        done.result = result  # type: ignore[method-assign]
        return done


@pytest.mark.parametrize("options", [{"luck": True}, {"horizon": 4}])
def test_luck_adjusted_and_cut_games_of_every_move_are_sent_before_any_is_waited_for(options):
    # the workers go from one move's games to the next without waiting for each move's last
    # game; the figures are those of the same games played here, one move after another
    from coronas.manygames.estimator import FromPosition, Games, seat_bots

    state = batalla_decision()
    starts = [FromPosition(state, None, a) for a in state.legal_actions()[:2]]
    bots = seat_bots(state, None)
    with Games(bots, 5, None, 1, 100_000) as here:
        tasks = here.draw(8)
        alone = here.play_many(starts, [tasks, tasks], **options)
    pool = SendsThenWaits()
    with Games(bots, 5, pool, 2, 100_000) as runs:
        sent = runs.play_many(starts, [tasks, tasks], **options)
    chunks = pool.log.count("sent")
    assert chunks == 2 * 4  # 8 games a move in chunks of 2 (a quarter of them a worker)
    assert pool.log == ["sent"] * chunks + ["waited"] * chunks
    assert [p.per_game for p in sent] == [p.per_game for p in alone]
    assert [p.adjusted for p in sent] == [p.adjusted for p in alone]
    assert [p.luck_terms for p in sent] == [p.luck_terms for p in alone]
    assert any(p.adjusted or p.luck_terms for p in sent)


def test_no_horizon_or_horizon_zero_keeps_games_played_to_the_end_exactly():
    state = batalla_decision()
    before = list(state.history)
    old = rank_actions(state, games=6, seed=2, exact=False)
    for horizon in (None, 0):
        again = rank_actions(state, games=6, seed=2, exact=False, horizon=horizon)
        assert again == old and again.horizon is None
    assert "cut" not in old.basis() and state.history == before
    assert all(isinstance(r["chance"], Fraction) for r in old.rows)


class BlindPickGame(PickGame):
    name = "toy-pick-blind"

    @classmethod
    def declare(cls) -> GameSpec:
        return GameSpec()  # no value model


@pytest.mark.parametrize("horizon", [-1, 1.5, True, "5", 10**10])
def test_a_bad_horizon_is_refused_before_anything_is_played(horizon):
    state = start()
    with pytest.raises(ValueError, match=r"horizon must be None or 0 .* got"):
        rank_actions(state, RandomBot(), games=4, exact=False, horizon=horizon)
    assert state.history == []


def test_a_horizon_needs_a_value_model_and_is_not_combined_with_luck():
    with pytest.raises(ValueError, match="horizon: toy-pick-blind declares no value model"):
        rank_actions(BlindPickGame().new_initial_state(), RandomBot(), games=4, horizon=3)
    with pytest.raises(ValueError, match="horizon and luck cannot be combined"):
        rank_actions(start(), RandomBot(), games=4, horizon=3, luck=True)


def test_the_move_prior_keeps_its_likeliest_moves_until_they_hold_the_mass_asked():
    prior = [0.075, 0.5, 0.125, 0.25, 0.05]
    # 1/2 + 1/4 + 1/8 = 7/8 is short of 0.9, so the fourth likeliest (index 0) comes in: 0.95
    assert prior_kept(prior, 0.9) == {1, 3, 2, 0}
    assert prior_kept(prior, 0.5) == {1, 3, 2}  # 1/2 reached, but at least three are kept
    assert prior_kept(prior, 0.5, also=4) == {1, 3, 2, 4}  # and the quick estimate's best
    assert prior_kept([1 / 25] * 25, PRIOR_MASS) == set(range(25))  # a flat prior keeps all
    # 0.9 is reached with the third move, but the fourth is as likely as the third
    assert prior_kept([0.6, 0.3, 0.05, 0.05], 0.9) == {0, 1, 2, 3}
    assert prior_kept(prior, 0.5, least=1) == {1}  # 1/2 reached by the first alone
    assert prior_kept(prior, 0.7, least=1) == {1, 3}


def test_the_moves_left_out_of_the_games_each_say_why():
    quick = [0.40, 0.10, 0.38, 0.36, 0.14]  # move 1 is 30 points behind the best, move 4 26
    prior = [0.075, 0.5, 0.125, 0.25, 0.05]
    out = left_out(quick, prior, drop_behind=0.25, prior_mass=0.5)
    # the prior keeps 1, 3, 2 (at least three) and the quick estimate's best, 0; the value
    # model leaves 1 out before the prior is asked, and 4 on both counts (said once)
    assert set(out) == {1, 4}
    assert out[1] == "left out: the value model puts it 30 points behind the best move"
    assert out[4] == "left out: the value model puts it 26 points behind the best move"
    out = left_out(quick, prior, drop_behind=None, prior_mass=0.5, least=1, quick_best=False)
    assert out == {
        0: "left out: the learned player would choose it 7.5% of the time",
        2: "left out: the learned player would choose it 12.5% of the time",
        3: "left out: the learned player would choose it 25.0% of the time",
        4: "left out: the learned player would choose it 5.0% of the time",
    }
    assert left_out(None, None) == {} and left_out(quick, prior, None, None) == {}


def test_at_most_three_moves_are_played_out_the_quick_estimates_best_first():
    # 0.4 + 0.3 + 0.2 = 0.9 is short of 95%, so the prior keeps 0, 1, 2 and 3 (0.96), and the
    # quick estimate's best, 4: five moves. Three are played out: 4, then the prior's first
    # two, 0 and 1; 2 and 3 are left out with their priors.
    quick = [0.30, 0.32, 0.29, 0.31, 0.33]
    prior = [0.4, 0.3, 0.2, 0.06, 0.04]
    assert MAX_KEPT == 3
    assert left_out(quick, prior) == {
        2: "left out: the learned player would choose it 20.0% of the time, beyond the 3 "
        "moves played out",
        3: "left out: the learned player would choose it 6.0% of the time, beyond the 3 "
        "moves played out",
    }
    assert left_out(quick, prior, most=None) == {}  # no cap: the five are played out
    assert set(left_out(quick, prior, most=4)) == {3}  # 4, then the prior's 0, 1 and 2
    # A flat prior cannot order the moves: after the quick estimate's best (1), its next
    # best (3 at 0.25, then 2 at 0.2) are kept, and 0 is left out.
    flat = left_out([0.1, 0.3, 0.2, 0.25], [0.25] * 4)
    assert set(flat) == {0}
    # A move the value model leaves out takes no place among the three: here the prior's
    # first (0) is 30 points behind, so 4, 1 and 2 are played out.
    behind = left_out([0.03, 0.32, 0.29, 0.31, 0.33], prior)
    assert set(behind) == {0, 3}
    assert behind[0].startswith("left out: the value model puts it 30 points behind")
    # a move the prior itself leaves out says so alone: with least 1 and 50% the prior keeps
    # 0 and 1 (0.7), the quick estimate's best 4 joins them, and 2 and 3 fall below the mass
    alone = left_out(quick, prior, prior_mass=0.5, least=1)
    assert alone[2] == "left out: the learned player would choose it 20.0% of the time"


def test_moves_the_learned_player_would_hardly_choose_are_left_out_with_their_prior():
    from coronas.batalla import Game as Batalla

    state = Batalla(seed=1).new_initial_state()
    rng = random.Random(1)
    light = Batalla.bot("light")
    while state.is_chance_node() or len(state.legal_actions()) < 4:
        state.apply(
            state.sample_chance(rng) if state.is_chance_node() else light.choose(state, rng)
        )
    prior = prior_values(state)
    assert sum(prior) == pytest.approx(1) and len(prior) == len(state.legal_actions())
    # Batalla's own rankings play every move: asked for the likeliest, they are these
    ranking = state.rank_actions(games=4, seed=1, exact=False, **LIKELIEST_MOVES)
    quick = quick_values(state)
    out = left_out(quick, prior)
    kept = set(range(len(prior))) - set(out)
    assert 0 < len(kept) <= MAX_KEPT < len(prior)  # the prior is sure here: some moves go
    for i, action in enumerate(state.legal_actions()):
        (row,) = [r for r in ranking.rows if r["action"] == action]
        assert row["prior"] == pytest.approx(prior[i])
        if i in kept:
            assert row["games"] == 4 and not row["dropped"]
        else:
            assert row["games"] == 0
            assert row["dropped"].startswith("left out: the learned player would choose it")
    # the rule is said once, in what the figures rest on, not beside every move left out
    rule = (
        "the moves the learned player would choose, up to 95% of its choices, and the one the "
        "value model puts first, 3 at most, were played out"
    )
    assert ranking.prior_mass == PRIOR_MASS and rule in ranking.basis()
    assert str(ranking).count("of its choices") == 1
    every = state.rank_actions(games=4, seed=1, exact=False, prior_mass=None, drop_behind=None)
    assert all(r["games"] == 4 and not r["dropped"] for r in every.rows)
    assert every.prior_mass is None and "learned player" not in every.basis()
    with pytest.raises(ValueError, match="prior_mass"):
        state.rank_actions(games=4, prior_mass=1.5)


@dataclasses.dataclass(frozen=True)
class Reach(Action):
    k: int  # seat 0 wins if the die shows k or less


class ReachState(Questions, State):
    """Seat 0 picks a number from 1 to 6, then a die decides: seat 0 wins if it shows that
    number or less. Move ``k`` wins ``k`` games in 6, and on the same rolls (common random
    numbers) never fewer than a smaller number's."""

    def _setup(self) -> None:
        self.k = None
        self.winner = None

    def _current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return 0 if self.k is None else CHANCE

    def _legal_actions(self):
        return [Reach(k) for k in range(1, 7)]

    def _chance_outcomes(self):
        return [(Face(v), Fraction(1, 6)) for v in range(1, 7)]

    def _apply(self, action) -> None:
        if isinstance(action, Reach):
            self.k = action.k
        else:
            self.winner = 0 if action.value <= self.k else 1

    def _returns(self):
        return [1 if p == self.winner else 0 for p in (0, 1)]

    def describe(self, action) -> str:
        return f"up to {action.k}" if isinstance(action, Reach) else f"a {action.value}"


class ReachGame(Game):
    name = "toy-reach"
    state_class = ReachState
    action_types = (Reach, Face)


def test_halving_drops_the_worse_half_at_the_end_of_each_equal_part_of_the_games():
    # 6 moves halve once, to 3: the games in two equal parts of 20. Checked every 4 games
    # (the halving batch), the cut comes at 20, and on the same rolls "up to 4" to "up to 6"
    # are the best three (this seed rolls a 4 within the first 20 games: "up to 4" is ahead
    # of "up to 3")
    state = ReachGame().new_initial_state()
    ranking = rank_actions(state, RandomBot(), games=40, seed=2, exact=False, halving=True)
    rows = {r["label"]: r for r in ranking.rows}
    for k in (1, 2, 3):
        assert rows[f"up to {k}"]["games"] == 20
        assert rows[f"up to {k}"]["dropped"].startswith(
            "dropped after 20 games: outside the top 3 of the 6 moves still played ("
        )
    for k in (4, 5, 6):
        assert rows[f"up to {k}"]["games"] == 40 and not rows[f"up to {k}"]["dropped"]
    assert ranking.rows[0]["label"] == "up to 6" and ranking.stopped == "games"
    # without halving every move plays its 40 games (none is clearly worse before 40)
    plain = rank_actions(state, RandomBot(), games=40, seed=2, exact=False)
    assert all(r["games"] == 40 and not r["dropped"] for r in plain.rows)


def test_a_longer_last_part_cuts_sooner_and_leaves_the_rest_to_the_moves_kept():
    # the last part three quarters of the 40 games: the one cut of 6 moves to 3 comes after
    # a quarter, 10 games, at the first look past them (every 4 games: at 12)
    state = ReachGame().new_initial_state()
    ranking = rank_actions(
        state, RandomBot(), games=40, seed=2, exact=False, halving=True, last_part=0.75
    )
    games = sorted(r["games"] for r in ranking.rows)
    assert games == [12, 12, 12, 40, 40, 40]
    assert (
        sum(
            r["dropped"].startswith("dropped after 12 games: outside the top 3")
            for r in ranking.rows
        )
        == 3
    )
    for bad in (0, 1, 1.5, -0.2):
        with pytest.raises(ValueError, match="last_part is a share between 0 and 1"):
            rank_actions(state, RandomBot(), games=40, halving=True, last_part=bad)


def test_halving_down_to_two_cuts_twice_and_leaves_the_last_part_to_two_moves():
    # last_kept=2: 6 moves are cut to 3, then to 2, after a third and two thirds of the 40
    # games, at the first looks past them (every 4 games: at 16 and at 28). "up to 6" wins
    # every game, so it is always kept.
    state = ReachGame().new_initial_state()
    ranking = rank_actions(
        state, RandomBot(), games=40, seed=2, exact=False, halving=True, last_kept=2
    )
    assert sorted(r["games"] for r in ranking.rows) == [16, 16, 16, 28, 40, 40]
    reasons = [r["dropped"] for r in ranking.rows if r["dropped"]]
    assert (
        sum(x.startswith("dropped after 16 games: outside the top 3 of the 6") for x in reasons)
        == 3
    )
    assert (
        sum(x.startswith("dropped after 28 games: outside the top 2 of the 3") for x in reasons)
        == 1
    )
    assert ranking.rows[0]["label"] == "up to 6" and ranking.kept == 2
    assert "the moves halved" in ranking.basis() and "2 played to the end" in ranking.basis()
    assert (
        "3 played to the end"
        in rank_actions(state, RandomBot(), games=40, seed=2, exact=False, halving=True).basis()
    )
    for bad in (0, 4, 2.0, True, "2", None):
        with pytest.raises(
            ValueError, match="last_kept is how many moves halving plays to the end"
        ):
            rank_actions(state, RandomBot(), games=40, halving=True, last_kept=bad)


def test_halving_needs_a_budget_of_time_or_games_to_part():
    # with a precision only there are no parts to cut at: the racing alone drops moves
    state = ReachGame().new_initial_state()
    ranking = rank_actions(state, RandomBot(), precision=0.2, seed=2, exact=False, halving=True)
    assert not any("outside the top" in r["dropped"] for r in ranking.rows)


def test_halving_on_a_clock_keeps_three_moves_to_the_end():
    state = ReachGame().new_initial_state()
    ranking = rank_actions(
        state, RandomBot(), time=1.0, seed=2, exact=False, halving=True, race=False
    )
    live = [r for r in ranking.rows if not r["dropped"]]
    assert len(live) == 3 and ranking.stopped == "time"
    assert all("outside the top 3 of the 6" in r["dropped"] for r in ranking.rows[3:])


class HalvingReachGame(ReachGame):
    name = "toy-reach-halving"

    @classmethod
    def declare(cls) -> GameSpec:
        return GameSpec(ranking={"halving": True})


def test_a_game_declares_how_its_rankings_spend_their_games_and_a_caller_overrides_it():
    state = HalvingReachGame().new_initial_state()
    declared = rank_actions(state, RandomBot(), games=40, seed=2, exact=False)
    assert declared.halving and "the moves halved" in declared.basis()
    assert sorted(r["games"] for r in declared.rows) == [20, 20, 20, 40, 40, 40]
    asked = rank_actions(state, RandomBot(), games=40, seed=2, exact=False, halving=False)
    assert not asked.halving and all(r["games"] == 40 for r in asked.rows)
    with pytest.raises(TypeError, match="ranking: 'halve' is not an option"):
        GameSpec(ranking={"halve": True})


def test_the_advice_benchmark_skips_the_decisions_measured_before(bench, tmp_path, monkeypatch):
    # --skip 1: the first held-out decision (and the README's position) left out, the next
    # one measured, and the skip kept in the record's settings
    results = tmp_path / "fresh.jsonl"
    argv = ["bench_advice.py", "--quick", "--game", "hierro", "--skip", "1", "--phase"]
    argv += ["advice", "--results", str(results), "--jobs", "1"]
    monkeypatch.setattr(sys, "argv", argv)
    bench.main()
    (record,) = [json.loads(line) for line in results.read_text().splitlines()]
    (first, second) = bench.held_out("hierro", 2)
    assert record["decision"] == f"hierro 4p seed {second[0]} after {second[1]}"
    assert second[0] != first[0] and record["settings"]["skip"] == 1


def test_the_advice_benchmark_plays_the_likeliest_moves_when_asked(bench, tmp_path, monkeypatch):
    # --likeliest: the learned player's likeliest moves, though Corona de Hierro's own
    # rankings play every move; with --every-move it is refused, the two being two rules
    results = tmp_path / "likeliest.jsonl"
    argv = ["bench_advice.py", "--quick", "--game", "hierro", "--skip", "1", "--likeliest"]
    argv += ["--phase", "advice", "--results", str(results), "--jobs", "1"]
    monkeypatch.setattr(sys, "argv", argv)
    bench.main()
    (record,) = [json.loads(line) for line in results.read_text().splitlines()]
    assert record["settings"]["likeliest"] is True and record["total_games"] > 0
    monkeypatch.setattr(sys, "argv", [*argv, "--every-move"])
    with pytest.raises(SystemExit):
        bench.main()
