"""Bradley-Terry ratings: fits checked against strengths worked out by hand."""

import math

import pytest

from coronas.manygames.ratings import bradley_terry, pairwise, whitewash_gap


def duel(winner, loser):
    """A two-player game: ``(bot, share)`` per seat."""
    return ((winner, 1), (loser, 0))


def test_two_bots_rating_is_the_log_odds_of_the_wins_with_the_prior():
    # 7 wins in 10; the prior adds a drawn game: 7.5 to 3.5, so 400 log10(7.5 / 3.5)
    games = [duel(0, 1)] * 7 + [duel(1, 0)] * 3
    r = bradley_terry(games, ["mcts", "random"], resamples=0)
    assert r.anchor == "random"
    assert r.elo[1] == 0
    assert r.elo[0] == pytest.approx(400 * math.log10(7.5 / 3.5), abs=1e-6)


def test_three_bots_fit_the_strengths_the_results_were_made_from():
    # Strengths 4, 2, 1 predict 0 beats 1 with 2/3, 0 beats 2 with 4/5, 1 beats 2 with 2/3.
    # 2-1, 4-1 and 2-1 results meet the likelihood equations W_i = sum n_ij g_i / (g_i + g_j)
    # exactly (W = 6, 3, 2), so without a prior the fit is 400 log10(4) and 400 log10(2).
    games = (
        [duel(0, 1)] * 2 + [duel(1, 0)]
        + [duel(0, 2)] * 4 + [duel(2, 0)]
        + [duel(1, 2)] * 2 + [duel(2, 1)]
    )  # fmt: skip
    r = bradley_terry(games, ["a", "b", "c"], anchor="c", prior=0, resamples=0)
    assert r.elo[0] == pytest.approx(400 * math.log10(4), abs=1e-6)
    assert r.elo[1] == pytest.approx(400 * math.log10(2), abs=1e-6)
    assert r.elo[2] == 0
    assert [row["bot"] for row in r.rows()] == ["a", "b", "c"]


def test_a_clean_sweep_gets_a_finite_rating():
    # 20 of 20: 20.5 to 0.5 with the prior
    r = bradley_terry([duel(0, 1)] * 20, ["mcts", "random"], resamples=0)
    assert r.elo[0] == pytest.approx(400 * math.log10(41), abs=1e-6)


def test_multiplayer_games_count_winners_against_losers_only():
    assert pairwise([(0, 1), (1, 0), (2, 0)]) == [(0, 1, 1.0), (0, 2, 1.0)]
    # two seats of bot 3 are not compared; its losing seat and bot 1 both lost
    assert pairwise([(3, 0), (3, 1), (1, 0)]) == [(3, 1, 1.0)]
    # a three-player table won by bot 0 against two copies of bot 1: 2 pairwise wins a game
    games = [((0, 1), (1, 0), (1, 0))] * 3 + [((0, 0), (1, 1), (1, 0))]
    r = bradley_terry(games, ["mcts", "greedy"], anchor="greedy", resamples=0)
    # bot 0 won 6 comparisons and lost 1 (plus the prior's draw): 6.5 to 1.5
    assert r.elo[0] == pytest.approx(400 * math.log10(6.5 / 1.5), abs=1e-6)
    assert r.pairs == 7


def test_bootstrap_intervals_are_seeded_and_hold_the_estimate():
    games = [duel(0, 1)] * 30 + [duel(1, 0)] * 10 + [duel(1, 2)] * 25 + [duel(2, 1)] * 15
    labels = ["mcts", "greedy", "random"]
    one = bradley_terry(games, labels, seed=3, resamples=200)
    two = bradley_terry(games, labels, seed=3, resamples=200)
    assert one == two
    for i in range(3):
        assert one.low[i] <= one.elo[i] <= one.high[i]
    assert one.low[2] == one.high[2] == 0  # the anchor does not move
    assert one.high[0] - one.low[0] > 50  # 40 games cannot pin a rating to a few points
    assert "from 80 games" in str(one)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="anchor 'x' is not one of the bots"):
        bradley_terry([duel(0, 1)], ["a", "b"], anchor="x")
    with pytest.raises(ValueError, match="names bot 2, but there are 2 bots"):
        bradley_terry([duel(0, 2)], ["a", "b"])
    with pytest.raises(ValueError, match="nothing to rate"):
        bradley_terry([((0, 1), (0, 0))], ["a", "b"])


def test_whitewash_gap_is_the_one_sided_clopper_pearson_bound_on_the_elo_scale():
    # 12 of 12: p^12 = 0.025, p = exp(ln 0.025 / 12) = 0.73535; 400 log10(2.7786) = 177.5
    p = 0.025 ** (1 / 12)
    assert p == pytest.approx(0.735352, abs=1e-6)
    assert whitewash_gap(12) == pytest.approx(400 * math.log10(p / (1 - p)), abs=1e-9)
    assert round(whitewash_gap(12)) == 178 and round(whitewash_gap(20)) == 277
    with pytest.raises(ValueError, match="at least one game"):
        whitewash_gap(0)


def test_a_whitewash_is_bounded_on_one_side_only_by_the_data():
    # mcts beat greedy and random 12-0, greedy beat random 12-0: no game caps either rating
    games = [duel(2, 1)] * 12 + [duel(2, 0)] * 12 + [duel(1, 0)] * 12
    r = bradley_terry(games, ["random", "greedy", "mcts"], seed=1, resamples=100)
    for bot in (1, 2):
        assert r.high[bot] == math.inf
        # the 12 wins against random, the only bot bounded on both sides (the anchor)
        assert r.low[bot] == pytest.approx(whitewash_gap(12), abs=1e-9)
        assert r.interval_text(bot) == "at least +178"
        assert r.held_by_prior(bot)
    assert r.interval_text(0) == "anchor" and r.low[0] == r.high[0] == 0
    text = str(r)
    assert "+0 to +0" not in text and "anchor" in text
    assert "at least +178" in text and "one drawn game added between every pair" in text
    assert "at least +178" in r._repr_html_()


def test_a_bot_that_never_won_gets_an_upper_bound_and_an_unlinked_bot_none():
    # 20 losses of 20 to the anchor: at most -277
    r = bradley_terry([duel(1, 0)] * 20, ["weak", "random"], resamples=50)
    assert r.low[0] == -math.inf
    assert r.high[0] == pytest.approx(-whitewash_gap(20), abs=1e-9)
    assert r.interval_text(0) == "at most -277"
    # bots 2 and 3 only ever played each other: nothing ties them to the anchor
    games = [duel(0, 1)] * 30 + [duel(1, 0)] * 20 + [duel(2, 3), duel(3, 2)]
    r = bradley_terry(games, ["a", "random", "c", "d"], resamples=50)
    assert r.interval_text(2) == r.interval_text(3) == "not bounded"
    assert not r.held_by_prior(0) and math.isfinite(r.low[0]) and math.isfinite(r.high[0])


def test_a_plot_of_one_sided_intervals_draws_an_arrow_on_the_open_side():
    import matplotlib

    matplotlib.use("Agg")
    games = [duel(0, 1)] * 12
    fig = bradley_terry(games, ["mcts", "random"], resamples=20).plot()
    ax = fig.axes[0]
    arrows = [c for c in ax.get_children() if type(c).__name__ == "Annotation"]
    assert len(arrows) == 1
    assert arrows[0].xy[0] > bradley_terry(games, ["mcts", "random"], resamples=0).elo[0]
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_a_resample_that_is_a_whitewash_counts_as_no_limit_not_as_the_priors_number():
    # 9 wins, 1 loss: a resample of the 10 games is 10-0 with chance 0.9^10 = 35%, far above
    # 2.5%, so the data do not cap the rating at 95%; the prior's 10-0 figure, 400 log10(21),
    # must not appear as the upper bound
    r = bradley_terry([duel(0, 1)] * 9 + [duel(1, 0)], ["mcts", "random"], seed=2, resamples=400)
    assert r.high[0] == math.inf and math.isfinite(r.low[0]) and r.low[0] < r.elo[0]
    assert r.interval_text(0).startswith("at least ")
    assert not r.held_by_prior(0)  # one loss bounds the point: no *, no note
    assert "*" not in str(r)
    # 30 wins, 10 losses: a 40-0 resample has chance 0.75^40 = 1e-5; both bounds are numbers
    r = bradley_terry([duel(0, 1)] * 30 + [duel(1, 0)] * 10, ["mcts", "random"], seed=2)
    assert math.isfinite(r.low[0]) and math.isfinite(r.high[0])
    assert r.high[0] != pytest.approx(400 * math.log10(40.5 / 0.5), abs=1)
