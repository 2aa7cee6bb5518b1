"""Determinisations of Corona de Hierro: the cards a seat cannot see, drawn again with the
right chances and never against what it has seen; a search decides alike on twin positions."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from coronas.engine import MCTSBot, RandomBot, play
from coronas.hierro import Game
from coronas.hierro.actions import DiscardCard, Draw, TakeCard
from coronas.hierro.hidden import deck_of, mix_bounds

from .helpers import BLUE, GREEN, RED
from .test_observation import mix_swap, played, twin

# 11 degrees of freedom: 31.26 is the 0.999 quantile of chi-square, so a correct sampler fails
# with probability 1/1000 at most (the seed is fixed, so the test is deterministic).
CHI2_11_999 = 31.26


def small_game(political: dict[str, int], hands: list[tuple[str, ...]]):
    rules = {"political_deck": political}
    loyalty = ["crown:green", "crown:blue", "crown:red"]
    return Game(players=3, rules=rules).position(hands=hands, loyalty=loyalty)


def test_every_consistent_deal_is_drawn_with_its_chance():
    """Red holds a spy; green and blue one political card each; the deck one card. Red
    cannot tell which of pope, spy and hostage is where (3! = 6 ways), nor whose loyalty card
    is whose (2 ways): 12 deals, each 1/12."""
    s = small_game({"spy": 2, "pope": 1, "hostage": 1}, [("spy",), ("pope",), ("spy",)])
    seen = s.observation(RED)
    rng = random.Random(2024)
    n = 2400
    counts: Counter = Counter()
    for _ in range(n):
        t = s.resample(RED, rng)
        assert t.observation(RED) == seen
        assert t.hands[RED] == ("spy",) and t.loyalty[RED] == "crown:green"
        assert dict(t.decks["military"]) == dict(s.decks["military"])
        (deck_card,) = Counter(t.decks["political"]).elements()
        counts[(t.hands[GREEN], t.hands[BLUE], deck_card, t.loyalty[GREEN])] += 1
    deals = {
        ((g,), (b,), d, loyal)
        for g, b, d in [
            ("pope", "spy", "hostage"),
            ("pope", "hostage", "spy"),
            ("spy", "pope", "hostage"),
            ("spy", "hostage", "pope"),
            ("hostage", "pope", "spy"),
            ("hostage", "spy", "pope"),
        ]
        for loyal in ("crown:blue", "crown:red")
    }
    assert set(counts) == deals
    expected = n / 12
    chi2 = sum((k - expected) ** 2 / expected for k in counts.values())
    assert chi2 < CHI2_11_999


def test_repeated_cards_count_once_each():
    """Red holds the pope; green holds one card; the deck the rest of spy x3 and hostage:
    green holds a spy with chance 3/4 (binomial, 4 standard errors)."""
    s = small_game({"spy": 3, "pope": 1, "hostage": 1}, [("pope",), ("hostage",), ()])
    rng = random.Random(7)
    n = 2000
    spies = sum(s.resample(RED, rng).hands[GREEN] == ("spy",) for _ in range(n))
    assert abs(spies / n - 3 / 4) < 4 * (3 / 16 / n) ** 0.5
    assert s.resample(RED, rng).hands[BLUE] == ()


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_a_resampled_game_plays_on(seed):
    s = played(3 + seed % 3, seed, 40 + 50 * seed, advanced=seed % 2 == 1)
    while s.is_chance_node():
        s.apply(s.sample_chance(seed))
    p = s.current_player
    rng = random.Random(seed)
    for _ in range(5):
        t = s.resample(p, rng)
        assert t.observation(p) == s.observation(p)
        assert t.observation_text(p) == s.observation_text(p)
        assert t.legal_actions() == s.legal_actions()
        assert t.history == []
        before = t.clone()
        play(t, RandomBot(), rng=rng)
        assert t.is_terminal()
        while t.history:
            t.undo()
        assert t == before


def test_the_spied_hand_stays_and_the_end_shows_every_loyalty_card():
    s = small_game({"spy": 2, "pope": 1, "hostage": 1}, [("spy",), ("pope",), ("spy",)])
    from coronas.hierro import PlaySpy

    s.apply(PlaySpy(GREEN))
    t = s.resample(RED, random.Random(0))
    assert t.hands[GREEN] == ("pope",)
    over = played(3, 3, 5000)
    assert over.is_terminal()
    assert over.resample(RED, random.Random(0)).loyalty == over.loyalty


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_twins_get_the_same_search_and_decision(seed):
    """Positions that differ only in what the seat to move cannot see give it the same
    determinisations, so the same tree and choice for the same seed."""
    s = played(3, seed, 120 + 40 * seed)
    rng = random.Random(seed)
    while s.is_chance_node():
        s.apply(s.sample_chance(rng))
    p = s.current_player
    t = twin(s, p, rng)
    assert t != s
    assert s.resample(p, random.Random(3)) == t.resample(p, random.Random(3))
    bot = MCTSBot(simulations=12)
    mine = bot.choose(s, random.Random(seed))
    table = bot.last.table()
    assert bot.choose(t, random.Random(seed)) == mine
    assert bot.last.table() == table


def test_cards_seen_with_spy_stay_known_until_given_up():
    """Red spies on green (pope and hostage) and discards the hostage. Green then draws a
    card red does not see: red still knows the pope is there, the other card is drawn."""
    from coronas.hierro import Draw, PlaySpy, SpyDiscard, TakeCard

    political = {"spy": 2, "pope": 2, "hostage": 1, "king_is_dead": 2}
    s = small_game(political, [("spy",), ("hostage", "pope"), ("spy",)])
    s.apply(PlaySpy(GREEN))
    s.apply(SpyDiscard("hostage"))
    s.apply(next(a for a in s.legal_actions() if "Rome" in str(a)))
    s.apply(TakeCard("political"))
    s.apply(Draw("king_is_dead"))
    assert s.hands[GREEN] == ("king_is_dead", "pope")
    rng = random.Random(1)
    others = Counter()
    for _ in range(300):
        hand = list(s.resample(RED, rng).hands[GREEN])
        hand.remove("pope")
        others.update(hand)
    assert set(others) == {"spy", "pope", "king_is_dead"}
    # Blue never played Spy: it knows nothing of green's hand.
    assert {s.resample(BLUE, rng).hands[GREEN] for _ in range(100)} > {("king_is_dead", "pope")}


def test_win_chances_from_a_seat_do_not_change_with_what_it_cannot_see():
    """A seat's win chances start every game from its own resampled view: twin positions,
    the same seed, the same figures; the full-information figure is labelled as such."""
    from coronas.manygames.winchances import win_chances

    s = played(3, 5, 300)
    rng = random.Random(5)
    while s.is_chance_node():
        s.apply(s.sample_chance(rng))
    p = s.current_player
    t = twin(s, p, rng)
    assert t != s
    mine = win_chances(s, RandomBot(), games=12, seed=7, viewer=p)
    assert win_chances(t, RandomBot(), games=12, seed=7, viewer=p) == mine
    assert mine.games == 12 and not mine.exact and "view" in mine.view
    full = win_chances(s, RandomBot(), games=12, seed=7)
    assert full.view.startswith("full information")


def test_ranking_moves_from_a_seat_does_not_change_with_what_it_cannot_see():
    """rank_actions plays from the mover's own view by default: twins rank alike."""
    s = played(3, 4, 260)
    rng = random.Random(4)
    while s.is_chance_node():
        s.apply(s.sample_chance(rng))
    p = s.current_player
    t = twin(s, p, rng)
    assert t != s
    mine = s.rank_actions(games=4, seed=3)
    theirs = t.rank_actions(games=4, seed=3)
    assert mine.view == f"from {s.player_name(p)}'s view"
    seen = ("label", "chance", "prior", "dropped")
    assert [[r[k] for k in seen] for r in mine.rows] == [[r[k] for k in seen] for r in theirs.rows]


# -- the advanced game: how many cards of each deck a hand holds is a secret -----------------
# 2 degrees of freedom: 13.82 is the 0.999 quantile of chi-square.
CHI2_2_999 = 13.82


def _military(hand: tuple[str, ...]) -> int:
    return sum(deck_of(c) == "military" for c in hand)


def advanced_game(to_move: int = GREEN):
    """Advanced rules, decks of one card each (13 of each, enough for the draft's check):
    red holds nothing, green and blue a Good fortune and a Pope each."""
    rules = {
        "advanced": True,
        "military_deck": {"good_fortune": 13},
        "political_deck": {"pope": 13},
    }
    hands = [(), ("good_fortune", "pope"), ("good_fortune", "pope")]
    loyalty = ["crown:green", "crown:blue", "crown:red"]
    return Game(players=3, rules=rules).position(hands=hands, loyalty=loyalty, to_move=to_move)


def test_the_advanced_game_draws_each_hands_mix_with_its_chance():
    """Red cannot see how the 2 military and 2 political cards the others hold split between
    them (only the decks' sizes are public): green holds g military cards in
    comb(2, g) * comb(2, 2 - g) of the 6 ways to choose the military places, so 0, 1, 2 with
    chances 1/6, 4/6, 1/6. Then green discards a Good fortune (military, in the open) and
    takes a military card: its draft cards held one military card at least, so green now
    holds 1 military card in 2 * 2 = 4 ways and 2 in 1 way (4/5, 1/5), never 0 (which its
    sizes alone would allow)."""
    s = advanced_game()
    assert mix_bounds(s, RED) == {GREEN: (0, 2), BLUE: (0, 2)}
    seen = s.observation(RED)
    rng = random.Random(31)
    n = 1800
    counts: Counter = Counter()
    for _ in range(n):
        t = s.resample(RED, rng)
        assert t.observation(RED) == seen
        assert _military(t.hands[GREEN]) + _military(t.hands[BLUE]) == 2
        counts[_military(t.hands[GREEN])] += 1
    expected = {0: n / 6, 1: 4 * n / 6, 2: n / 6}
    assert set(counts) == set(expected)
    chi2 = sum((counts[g] - e) ** 2 / e for g, e in expected.items())
    assert chi2 < CHI2_2_999
    s.apply(DiscardCard("good_fortune"))
    s.apply(TakeCard("military"))
    s.apply(Draw("good_fortune"))
    assert s.hands[GREEN] == ("good_fortune", "pope") and s.current_player == BLUE
    assert mix_bounds(s, RED) == {GREEN: (1, 2), BLUE: (0, 2)}
    n = 1500
    ones = 0
    for _ in range(n):
        m = _military(s.resample(RED, rng).hands[GREEN])
        assert m in (1, 2)
        ones += m == 1
    # binomial, 4 standard errors
    assert abs(ones / n - 4 / 5) < 4 * (4 / 25 / n) ** 0.5


def test_during_the_draft_a_seat_keeps_what_it_looked_at_but_its_picks_are_drawn():
    """Red and green have kept 2 of the 4 political and 4 military cards each looked at;
    blue, about to choose, knows each holds and looks at 4 of each deck together, not how
    they split: a hand holds k military cards in comb(2, k) * comb(6, 4 - k) ways, so 0, 1,
    2 with chances 15/70, 40/70, 15/70."""
    s = played(3, 0, 0, advanced=True)
    rng = random.Random(0)
    while not (s.step == "keep" and s.keeper == BLUE):
        s.apply(s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    seen = s.observation(BLUE)
    n = 700
    counts: Counter = Counter()
    for _ in range(n):
        t = s.resample(BLUE, rng)
        assert t.observation(BLUE) == seen
        for q in (RED, GREEN):
            both = Counter(deck_of(c) for c in t.hands[q] + t.looking[q])
            assert both == Counter(military=4, political=4)
            counts[_military(t.hands[q])] += 1
    expected = {0: 2 * n * 15 / 70, 1: 2 * n * 40 / 70, 2: 2 * n * 15 / 70}
    chi2 = sum((counts[k] - e) ** 2 / e for k, e in expected.items())
    assert chi2 < CHI2_2_999


def test_spy_shows_a_hands_mix_for_good_and_only_to_its_player():
    from coronas.hierro import PlaySpy, SpyDiscard

    rules = {"advanced": True}
    hands = [("king_is_dead", "spy"), ("good_fortune", "pope"), ("hostage",)]
    s = Game(players=3, rules=rules).position(hands=hands)
    s.apply(PlaySpy(GREEN))
    s.apply(SpyDiscard("pope"))
    # Red saw a Good fortune and a Pope: the Good fortune is still there, for certain.
    assert mix_bounds(s, RED)[GREEN] == (1, 1)
    assert {s.resample(RED, random.Random(k)).hands[GREEN] for k in range(20)} == {
        ("good_fortune",)
    }
    # Blue saw only the Pope go: green's other card may be of either deck (red's last card
    # is the other one: the decks' sizes say one of the two is military).
    assert mix_bounds(s, BLUE)[GREEN] == (0, 1)
    assert {_military(s.resample(BLUE, random.Random(k)).hands[GREEN]) for k in range(40)} == {
        0,
        1,
    }


def mix_twins(seed: int):
    """An advanced game just after the draft, at a decision, and a twin in which two hands
    the seat to move cannot see have swapped a military card for a political one."""
    s = played(3, seed, 60, advanced=True)
    rng = random.Random(seed)
    while s.is_chance_node():
        s.apply(s.sample_chance(rng))
    p = s.current_player
    t = s.clone()
    assert mix_swap(s, t, p, rng)
    assert [_military(h) for h in t.hands] != [_military(h) for h in s.hands]
    assert t.observation(p) == s.observation(p)
    return s, t, p


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_twins_that_differ_in_a_hands_mix_get_the_same_determinisations(seed):
    s, t, p = mix_twins(seed)
    for k in range(5):
        assert s.resample(p, random.Random(k)) == t.resample(p, random.Random(k))


def test_win_chances_and_ranks_do_not_change_with_a_hands_secret_mix():
    from coronas.manygames.winchances import win_chances

    s, t, p = mix_twins(1)
    mine = win_chances(s, RandomBot(), games=12, seed=7, viewer=p)
    assert win_chances(t, RandomBot(), games=12, seed=7, viewer=p) == mine
    ranks = [x.rank_actions(games=2, seed=3) for x in (s, t)]
    seen = ("label", "chance", "prior", "dropped")
    assert [[r[k] for k in seen] for r in ranks[0].rows] == [
        [r[k] for k in seen] for r in ranks[1].rows
    ]


@pytest.mark.parametrize("advanced", [False, True])
def test_every_bot_decides_alike_on_twins(advanced):
    """Every bot the game offers (the search with a small budget), on twins: in the
    advanced game they differ in a hand's mix, in the basic game only in cards of one deck
    (the mix is public there)."""
    if advanced:
        s, t, p = mix_twins(2)
    else:
        s = played(3, 2, 200)
        rng = random.Random(2)
        while s.is_chance_node():
            s.apply(s.sample_chance(rng))
        p = s.current_player
        t = twin(s, p, rng)
    assert t != s and t.observation(p) == s.observation(p)
    names = sorted(Game.bots())
    assert "mcts" in names
    for name in names:
        bot = Game.bot("mcts:16" if name == "mcts" else name)
        for k in range(3):
            mine = bot.choose(s, random.Random(k))
            assert bot.choose(t, random.Random(k)) == mine, name
