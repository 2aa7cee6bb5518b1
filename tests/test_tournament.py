"""manygames.tournament and ``coronas tournament``: line-ups, rotated seats, win rates against the
exact odds, ratings, the results file and resume, bad input."""

from __future__ import annotations

import json
import math
from fractions import Fraction as F

import pytest

from coronas.cli import main
from coronas.manygames.results import GameRecord
from coronas.manygames.tournament import Ladder, line_ups, tournament
from tests.test_simulate import DuelGame, Roller, Safe


def duel(n=600, seed=7, **kw):
    return tournament(DuelGame, [Roller(), Safe()], games=n, seed=seed, progress=False, **kw)


def test_line_ups_are_every_multiset_with_two_different_bots():
    assert line_ups(2, 2) == [(0, 1)]
    assert line_ups(3, 2) == [(0, 1), (0, 2), (1, 2)]
    # three seats, two bots: one of A with two of B, and two of A with one of B
    assert line_ups(2, 3) == [(0, 0, 1), (0, 1, 1)]
    # C(3 + 3 - 1, 3) = 10 multisets of three seats from three bots, less the 3 of one bot
    assert len(line_ups(3, 3)) == 7


def test_seats_rotate_so_every_bot_sits_everywhere_equally():
    ladder = tournament(
        "hierro", ["random", "greedy"], games=3, seed=1, progress=False, max_steps=5000
    )
    for k, line_up in enumerate(ladder.line_ups):
        games = [r for r in ladder.records if r.index // 3 == k]
        for bot in set(line_up):
            for seat in range(3):
                held = sum(1 for r in games if r.seats[seat] == bot)
                # a bot with c of the 3 seats sits at each seat in c of the 3 games
                assert held == line_up.count(bot)


def test_duel_win_rate_and_rating_match_the_exact_odds():
    # The roller rolls a d6 against the safe player's sure 3: it wins on 4-6 (1/2), ties on
    # 3 (1/6, a shared win: 1/2 each), loses on 1-2. Its share of the wins: 1/2 + 1/12 = 7/12.
    ladder = duel()
    roller = next(r for r in ladder.rows() if r["bot"] == "roller")
    assert roller["games"] == 600 and roller["fair"] == F(1, 2)
    # The share's variance is 13/24 - (7/12)**2 = 29/144, so 600 games have a standard error
    # of sqrt(29/144/600) = 0.0183; seeded, within 4 standard errors.
    assert abs(float(roller["win_rate"]) - 7 / 12) < 4 * math.sqrt(29 / 144 / 600)
    assert roller["ci_low"] < 7 / 12 < roller["ci_high"]
    # Bradley-Terry with a draw as half a win: 7/12 against 5/12 is 400 log10(7/5) = 58.5 Elo;
    # one standard error of the share is 400 / ln 10 / (p (1 - p)) * 0.0183 = 13 Elo.
    ratings = ladder.ratings
    assert ratings.anchor == "roller"
    safe = ratings.elo[ratings.labels.index("safe")]
    assert abs(-safe - 400 * math.log10(7 / 5)) < 4 * 13
    assert ratings.low[1] < -400 * math.log10(7 / 5) < ratings.high[1]


def test_the_table_counts_shared_wins_as_fractions():
    ladder = duel(n=3)
    records = [
        GameRecord(0, 1, 2, (0, 1), (0,), (6, 3), 3, 2),
        GameRecord(1, 1, 2, (1, 0), (0, 1), (3, 3), 3, 2),
        GameRecord(2, 1, 2, (0, 1), (1,), (2, 3), 3, 2),
    ]
    table = Ladder(
        ladder.game, 2, ladder.labels, ladder.line_ups, 3, 7, records, ladder.ratings
    ).rows()
    # the roller won game 0, shared game 1 and lost game 2: 1 + 1/2 + 0 of 3 games
    assert [(r["bot"], r["wins"], r["win_rate"]) for r in table] == [
        ("roller", F(3, 2), F(1, 2)),
        ("safe", F(3, 2), F(1, 2)),
    ]


def test_same_seed_same_ladder_on_one_or_two_workers():
    one = duel(n=40, seed=3)
    two = duel(n=40, seed=3, jobs=2)
    assert one.records == two.records
    assert one.ratings == two.ratings
    assert duel(n=40, seed=4).records != one.records


def test_three_bots_every_pairing_and_a_stated_anchor():
    ladder = tournament("batalla", ["random", "greedy", "mcts:10"], games=4, seed=2, progress=False)
    assert [ladder.line_up_name(u) for u in ladder.line_ups] == [
        "random vs greedy",
        "random vs mcts:10",
        "greedy vs mcts:10",
    ]
    assert len(ladder.records) == 12
    assert ladder.ratings.anchor == "random"
    assert ladder.ratings.elo[0] == 0
    text = str(ladder)
    assert "greedy vs mcts:10" in text and "random = 0" in text
    assert "95% interval" in ladder._repr_html_()
    assert ladder.plot() is not None
    assert set(ladder.to_pandas().columns) >= {"game", "line_up", "seat", "bot", "share"}


def test_a_results_file_is_kept_and_resumed(tmp_path):
    out = tmp_path / "ladder.jsonl"
    first = duel(n=10, seed=5, out=out)
    lines = out.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["run"] == "tournament" and header["bots"] == ["roller", "safe"]
    assert len(lines) == 11
    # a run cut short: the last four games lost; resume plays only them, with the same seeds
    out.write_text("\n".join(lines[:7]) + "\n")
    again = duel(n=10, seed=5, out=out, resume=True)
    assert again.records == first.records
    with pytest.raises(FileExistsError):
        duel(n=10, seed=5, out=out)
    from coronas.manygames.results import ResultsFileError

    with pytest.raises(ResultsFileError, match="seed"):
        duel(n=10, seed=6, out=out, resume=True)


def test_resume_refuses_a_winner_counted_twice(capsys, tmp_path):
    # [1, 1] would give the second seat's bot a whole win and the other none where a shared
    # win gives each a half: the line is refused, naming it, and nothing is printed.
    out = tmp_path / "ladder.jsonl"
    argv = ["tournament", "batalla", "--bots", "random", "greedy", "--games", "4"]
    argv += ["--no-progress", "--out", str(out)]
    assert main(argv) == 0
    capsys.readouterr()
    lines = out.read_text().splitlines()
    game = json.loads(lines[2])
    game["winners"] = [1, 1]
    out.write_text("\n".join([*lines[:2], json.dumps(game), *lines[3:]]) + "\n")
    assert main([*argv, "--resume"]) == 2
    got = capsys.readouterr()
    assert got.out == "" and "Traceback" not in got.err
    assert f"{out}, line 3: 'winners': expected different seats, got [1, 1]" in got.err


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, "games must be a whole number"),
        ({"bots": ["random"]}, "at least two bots"),
        ({"bots": ["random", "randon"]}, "did you mean 'random'"),
        ({"anchor": "mcts"}, "anchor 'mcts' is not one of the bots"),
        ({"resume": True}, "needs the results file"),
        ({"game": "chess"}, "unknown game 'chess'"),
    ],
)
def test_bad_arguments_are_refused_with_a_reason(kwargs, message):
    args = {"game": "batalla", "bots": ["random", "greedy"], "games": 2, "progress": False}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        tournament(args.pop("game"), args.pop("bots"), **args)


def test_command_prints_the_table_and_the_ratings(capsys, tmp_path):
    plot = tmp_path / "ratings.png"
    status = main(
        [
            "tournament",
            "batalla",
            "--bots",
            "random",
            "greedy",
            "--games",
            "6",
            "--no-progress",
            "--plot",
            str(plot),
        ]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "random vs greedy" in out and "Bradley-Terry ratings" in out
    assert plot.stat().st_size > 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "random"], "at least two bots"),
        (["--bots", "random", "random"], "names a bot twice"),
        (["--bots", "random", "greedyy"], "did you mean 'greedy'"),
        (["--bots", "random", "mcts:fast"], "mcts:fast"),
        (["--bots", "random", "greedy", "--anchor", "mcts"], "--anchor 'mcts'"),
        (["--players", "3"], "batalla is for 2-2 players"),
        (["--resume"], "--resume needs --out"),
        (["--games", "0"], "--games"),
    ],
)
def test_command_refuses_bad_input_in_one_line(capsys, argv, message):
    assert main(["tournament", "batalla", *argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_tournament_over_its_size_limit_is_a_usage_mistake(capsys):
    # three bots at five seats: 18 line-ups; 18 x 100000 games is over the million allowed
    argv = ["tournament", "hierro", "--bots", "random", "greedy", "mcts", "--players", "5"]
    assert main([*argv, "--games", "100000", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "18 line-ups" in err and "1800000 games, more than the limit of 1000000" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    with pytest.raises(ValueError, match="more than the limit of 1000000 games"):
        tournament("hierro", ["random", "greedy", "mcts"], players=5, games=100_000)


def test_bots_by_name_with_settings():
    from coronas.batalla import Game
    from coronas.engine import MCTSBot

    bot = Game.bot("mcts:50")
    assert isinstance(bot, MCTSBot) and bot.simulations == 50
    assert {"random", "greedy", "mcts"} <= set(Game.bots())
    with pytest.raises(ValueError, match="did you mean 'greedy'"):
        Game.bot("gredy")
    with pytest.raises(ValueError, match="takes no settings"):
        Game.bot("greedy:3")
