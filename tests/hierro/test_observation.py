"""What each player sees (ruling H17), and bots that decide on it alone."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from coronas.hierro import Game, HierroState, PlaySpy, SpyDiscard
from coronas.hierro.bots import GreedyBot, LightBot, RandomBot
from coronas.hierro.hidden import mix_bounds
from coronas.hierro.rules import MILITARY_KINDS, card_kind

from .helpers import BLUE, GREEN, RED, position

BOTS = (GreedyBot(), RandomBot(), LightBot())


def _deck_of(card: str) -> str:
    return "military" if card_kind(card) in MILITARY_KINDS else "political"


def twin(s: HierroState, player: int, rng: random.Random) -> HierroState:
    """A copy of ``s`` that differs only in what ``player`` cannot see: the other players'
    loyalty cards shuffled among those dealt one so far (who has been dealt a card is public;
    while the game lasts: at its end they are shown), and
    their hand and looked-at cards swapped with cards of the same deck (left in the deck or in
    another of them), every count kept. In the advanced game, where the draft hides how many
    cards of each deck a hand holds, two other hands may also swap a military card for a
    political one (:func:`mix_swap`). A hand ``player`` is looking at with Spy stays."""
    t = s.clone()
    seen = t.spied if t.step == "spy" and t.player == player else None
    others = [q for q in range(t.num_players) if q != player and q != seen]
    if not t.is_terminal():
        dealt = [q for q in others if t.loyalty[q] is not None]
        cards = [t.loyalty[q] for q in dealt]
        rng.shuffle(cards)
        for q, card in zip(dealt, cards, strict=True):
            t.loyalty[q] = card
    piles = [(q, name) for q in others for name in ("hands", "looking")]
    for q, name in piles:
        pile = list(getattr(t, name)[q])
        for i, card in enumerate(pile):
            deck = t.decks[_deck_of(card)]
            options = sorted(c for c, k in deck.items() if k and c != card)
            if options and rng.random() < 0.7:
                new = rng.choice(options)
                deck[new] -= 1
                if not deck[new]:
                    del deck[new]
                deck[card] = deck.get(card, 0) + 1
                pile[i] = new
        getattr(t, name)[q] = tuple(sorted(pile))
    # Two other players swap a card of the same deck.
    if len(others) >= 2:
        a, b = rng.sample(others, 2)
        for ca in t.hands[a]:
            cb = next((c for c in t.hands[b] if _deck_of(c) == _deck_of(ca)), None)
            if cb is not None:
                ha, hb = list(t.hands[a]), list(t.hands[b])
                ha.remove(ca), hb.remove(cb)
                t.hands[a] = tuple(sorted((*ha, cb)))
                t.hands[b] = tuple(sorted((*hb, ca)))
                break
    if t.rules.advanced and rng.random() < 0.7:
        mix_swap(s, t, player, rng)
    return t


def mix_swap(s: HierroState, t: HierroState, player: int, rng: random.Random) -> bool:
    """Swap, in ``t``, a military card of one hand ``player`` cannot see for a political card
    of another, where what ``player`` has seen of ``s`` allows both hands' new mix
    (:func:`~coronas.hierro.hidden.mix_bounds`: never in the basic game, where the mix is
    public); whether it found such a swap."""
    bounds = mix_bounds(s, player)
    pairs = [(a, b) for a in sorted(bounds) for b in sorted(bounds) if a != b]
    rng.shuffle(pairs)
    for a, b in pairs:
        ma = sum(_deck_of(c) == "military" for c in t.hands[a])
        mb = sum(_deck_of(c) == "military" for c in t.hands[b])
        if not (bounds[a][0] <= ma - 1 and mb + 1 <= bounds[b][1]):
            continue
        ca = next((c for c in t.hands[a] if _deck_of(c) == "military"), None)
        cb = next((c for c in t.hands[b] if _deck_of(c) == "political"), None)
        if ca is None or cb is None:
            continue
        ha, hb = list(t.hands[a]), list(t.hands[b])
        ha.remove(ca), hb.remove(cb)
        t.hands[a] = tuple(sorted((*ha, cb)))
        t.hands[b] = tuple(sorted((*hb, ca)))
        return True
    return False


def played(players: int, seed: int, steps: int, advanced: bool = False) -> HierroState:
    """A game after ``steps`` random steps (or its end)."""
    s = Game(players=players, seed=seed, rules={"advanced": advanced}).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    return s


# -- the observation -----------------------------------------------------------------------------
def test_observation_shows_own_secrets_and_none_of_the_others():
    s = position(
        hands=[("spy",), ("king_is_dead", "pope"), ("secret_pact:1-2-3",)],
        loyalty=["crown:green", "crown:blue", "crown:red"],
    )
    obs = s.observation(RED)
    json.dumps(obs)  # JSON-ready
    assert obs["observer"] == RED
    assert obs["loyalty"] == "crown:green" and obs["hand"] == ["spy"]
    assert obs["loyalty_cards"] == ["crown:green", None, None]
    assert obs["hand_sizes"] == [1, 2, 1]
    # The other players' cards appear nowhere but among the cards red cannot see, together
    # with the decks: 58 cards, less red's Spy.
    private = {k: v for k, v in obs.items() if k != "unseen"}
    text = json.dumps(private)
    for card in ("king_is_dead", "pope", "secret_pact:1-2-3", "crown:blue", "crown:red"):
        assert card not in text
    assert sum(obs["unseen"].values()) == 58 - 1
    assert obs["unseen"]["spy"] == 3 - 1 and obs["unseen"]["king_is_dead"] == 2
    assert obs["decks"] == {"military": 29, "political": 29 - 4}
    # Green sees its own and not red's.
    assert s.observation(GREEN)["hand"] == ["king_is_dead", "pope"]
    assert s.observation(GREEN)["loyalty_cards"] == [None, "crown:blue", None]


def test_the_board_is_open_to_everyone():
    s = position(
        castles={"Verona": (RED, False), "Milan": BLUE},
        armies={"Trento": {RED: 2, GREEN: 1}},
        emissaries={"Padua": [BLUE], "Rome": [GREEN]},
        alliances=[(RED, BLUE, True)],
        hostages=[(GREEN, BLUE)],
    )
    obs = [s.observation(p) for p in range(3)]
    board = ("castles", "armies", "rome", "alliances", "hostages", "legitimacy", "decks")
    for key in board:
        assert obs[0][key] == obs[1][key] == obs[2][key]
    assert obs[0]["armies"]["Trento"] == [2, 1, 0]
    assert obs[0]["castles"]["Verona"]["owner"] == RED
    assert obs[0]["castles"]["Verona"]["troops"] is False
    assert obs[0]["castles"]["Padua"]["emissaries"] == [[BLUE, -1]]
    assert obs[0]["rome"] == [GREEN] and obs[0]["alliances"] == [[RED, BLUE, True]]
    assert obs[0]["hostages"] == [[GREEN, BLUE]]


def test_loyalty_cards_are_shown_at_the_end():
    s = played(3, seed=4, steps=100_000)
    assert s.is_terminal()
    assert s.observation(RED)["loyalty_cards"] == list(s.loyalty)
    assert "Loyalty cards:" in s.observation_text(RED)


def test_observation_text_names_own_cards_only():
    s = position(hands=[("spy",), ("king_is_dead",), ()], loyalty=["self", "crown:red", None])
    text = s.observation_text(RED)
    assert "You are red. Loyalty card: Sole legitimate King." in text
    assert "Your initiative cards: Spy." in text
    for hidden in ("king_is_dead", "The King is dead", "crown:red", "Crown of red"):
        assert hidden not in text


def test_observation_refuses_a_seat_not_in_play():
    # three seats: the message lists them by the index the Python API takes and by colour
    with pytest.raises(ValueError, match=r"no seat 3; in Python the seats are 0 \(red\), 1 \("):
        position().observation(3)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(3, 5),
    steps=st.integers(0, 400),
    advanced=st.booleans(),
)
@example(seed=0, players=4, steps=5, advanced=False)  # loyalty cards half dealt
def test_what_a_player_cannot_see_does_not_change_its_observation(seed, players, steps, advanced):
    s = played(players, seed, steps, advanced)
    rng = random.Random(seed)
    for p in range(players):
        t = twin(s, p, rng)
        assert t.observation(p) == s.observation(p)
        assert t.observation_text(p) == s.observation_text(p)
        json.dumps(t.observation(p))


# -- bots decide on what they see ----------------------------------------------------------------
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(3, 5), advanced=st.booleans())
def test_bots_choose_alike_when_only_the_unseen_differs(seed, players, advanced):
    s = Game(players=players, seed=seed, rules={"advanced": advanced}).new_initial_state()
    rng = random.Random(seed)
    for step in range(600):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply(s.sample_chance(rng))
            continue
        if step % 3 == 0:
            p = s.current_player
            t = twin(s, p, rng)
            for bot in BOTS:
                k = rng.randrange(2**32)
                mine = bot.choose(s, random.Random(k))
                theirs = bot.choose(t, random.Random(k))
                assert mine == theirs, (bot, mine, theirs)
                assert theirs in t.legal_actions()
        s.apply(GreedyBot().choose(s, rng) if rng.random() < 0.5 else RandomBot().choose(s, rng))


def test_spy_names_its_target_and_shows_the_cards_only_once_played():
    """ "Spy: Allows us to look at all of another player's initiative cards, choose one, and
    discard it." Until Spy is played the legal actions name only the target."""
    s = position(hands=[("spy",), ("king_is_dead", "pope"), ("hostage",)])
    spies = [a for a in s.legal_actions() if isinstance(a, PlaySpy)]
    assert spies == [PlaySpy(GREEN), PlaySpy(BLUE)]
    # Two worlds in which green's two cards differ look the same to red, and so do red's
    # choices, for every bot and seed.
    t = s.clone()
    t.hands[GREEN] = ("hostage", "spy")
    t.hands[BLUE] = ("pope",)
    t.decks["political"]["king_is_dead"] += 1
    t.decks["political"]["spy"] -= 1
    assert t.observation(RED) == s.observation(RED)
    assert t.legal_actions() == s.legal_actions()
    for k in range(50):
        for bot in BOTS:
            assert bot.choose(s, random.Random(k)) == bot.choose(t, random.Random(k))
    # Played: red (and only red) now sees green's cards, and chooses one to discard.
    s.apply(PlaySpy(GREEN))
    assert s.step == "spy" and s.current_player == RED
    assert s.legal_actions() == [SpyDiscard("king_is_dead"), SpyDiscard("pope")]
    assert s.observation(RED)["spied_hand"] == ["king_is_dead", "pope"]
    assert s.observation(BLUE)["spied_hand"] is None
    assert s.observation(GREEN)["spied"] == GREEN
    assert "With Spy you see green's cards: The King is dead, Pope." in s.observation_text(RED)
    assert "The King is dead" not in s.observation_text(BLUE)
    s.apply(SpyDiscard("pope"))
    assert s.hands[GREEN] == ("king_is_dead",)
    assert s.discards == {"spy": 1, "pope": 1}
    assert s.step == "play" and s.observation(RED)["spied_hand"] is None


@pytest.mark.parametrize("seed", [3, 11])
def test_public_scores_leave_out_the_secret_loyalty_points(seed):
    s = played(3, seed, 120, False)
    assert not s.is_terminal()
    full, public = s.scores(), s.public_scores()
    for row, seen in zip(full, public, strict=True):
        assert seen["loyalty"] == 0 and seen["total"] == row["total"] - row["loyalty"]
        assert {k: v for k, v in seen.items() if k not in ("loyalty", "total")} == {
            k: v for k, v in row.items() if k not in ("loyalty", "total")
        }
    rng = random.Random(seed)
    for p in range(3):  # what a player cannot see does not change them
        assert twin(s, p, rng).public_scores() == public


def test_only_spy_reveals_a_secret_to_its_player():
    s = position(hands=[("spy", "pope"), ("king_is_dead",), ()])
    assert s.reveals(PlaySpy(GREEN)) == [RED]
    assert all(s.reveals(a) == [] for a in s.legal_actions() if not isinstance(a, PlaySpy))


def test_the_basic_game_shows_each_hands_mix_and_the_advanced_game_hides_it():
    """Basic game: every card is dealt or taken from a named deck and leaves in the open, so
    how many of each deck a hand holds is public, and a twin that moved a card to the other
    deck would be told apart. Advanced game: the draft picks are secret; nothing shows them."""
    hands = [("spy",), ("good_fortune", "pope"), ("hostage",)]
    s = position(hands=hands)
    obs = s.observation(RED)
    assert obs["hand_decks"] == [
        {"military": 0, "political": 1},
        {"military": 1, "political": 1},
        {"military": 0, "political": 1},
    ]
    swapped = position(hands=[("spy",), ("hostage", "pope"), ("good_fortune",)])
    assert swapped.observation(RED) != obs
    advanced = Game(players=3, rules={"advanced": True})
    a = advanced.position(hands=hands)
    b = advanced.position(hands=[("spy",), ("hostage", "pope"), ("good_fortune",)])
    assert a.observation(RED)["hand_decks"] is None
    assert a.observation(RED) == b.observation(RED)
    assert a.observation_text(RED) == b.observation_text(RED)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_advanced_twins_differ_in_a_hands_mix_and_look_alike(seed):
    """Just after the draft the twin helper can move a card to the other deck between two
    hands red cannot see; the observation does not change."""
    s = played(3, seed, 60, advanced=True)
    while s.is_chance_node():
        s.apply(s.sample_chance(random.Random(seed)))
    p = s.current_player
    t = s.clone()
    assert mix_swap(s, t, p, random.Random(seed))

    def mixes(x: HierroState) -> list[int]:
        return [sum(_deck_of(c) == "military" for c in h) for h in x.hands]

    assert mixes(t) != mixes(s)
    assert t.observation(p) == s.observation(p)
    assert t.observation_text(p) == s.observation_text(p)
