"""The stepper speaks like the rulebooks: every string it shows in a game played to its
end, in each of the three games, is scanned for the engine's identifiers (step names, card
ids, ``None``, snake_case names, Python reprs)."""

import re

import pytest

from coronas.batalla import Game as Batalla
from coronas.carolus import Game as Carolus
from coronas.hierro import Game as Hierro
from coronas.hierro.views import card_name
from coronas.widgets import Stepper

# ... and the status of a chance node that does not say what it decides
ENGINE_WORDS = re.compile(
    r"Step |crown:|None|\b[a-z]+_[a-z_]+\b|\b[A-Z][A-Za-z]+\(|\b[a-z_]+:[0-9-]+\b|\(s\)"
    r"|Roll the dice or draw"
)
TAG = re.compile(r"<[^>]*>")
GAMES = {
    "hierro": lambda: Hierro(players=3, seed=5).new_initial_state(),
    "carolus": lambda: Carolus(seed=5).new_initial_state(),
    "batalla": lambda: Batalla(seed=5).new_initial_state(),
}


def shown(view):
    """Every string the stepper shows now, its HTML tags left out."""
    parts = [
        view.status.value,
        view.board.value,
        view.message.value,
        view.results.value,
        view.log.value,
        view.chance_html.value,
        *(label for label, _ in view.group_select.options),
        *(label for label, _ in view.action_select.options),
        *(label for label, _ in view.outcome_select.options),
        view.handover_button.description,
        view.takeback_button.description,
    ]
    return [TAG.sub(" ", part) for part in parts]


def played_to_the_end(game, every=1):
    """A seeded game played by the bots to its end in a stepper, and every engine word
    shown on the way (each ``every`` steps, and at the end), with the text it was in."""
    view = Stepper(GAMES[game](), seed=5, draw=False, log_lines=1000)
    found = {}
    steps = 0
    while True:
        if steps % every == 0 or view.state.is_terminal():
            for text in shown(view):
                for word in ENGINE_WORDS.findall(text):
                    found.setdefault(word, text[:200])
        if view.state.is_terminal():
            return view, found
        view.bot_button.click()
        steps += 1


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_played_to_its_end_shows_no_engine_identifiers(game):
    view, found = played_to_the_end(game)
    assert view.state.is_terminal() and len(view.state.history) > 100
    assert found == {}


def test_corona_de_hierro_s_game_over_screen_agrees_with_its_scores():
    view, _ = played_to_the_end("hierro", every=10_000)
    state = view.state
    totals = [s["total"] for s in state.scores()]
    # each player's line and the Scores line give the same figure, the winners' the highest
    board = TAG.sub(" ", view.board.value)
    for p, total in enumerate(totals):
        name = state.colour(p)
        assert f"{name}: {total} (" in view.results.value or f"{name}: {total}<" in (
            view.results.value + "<"
        )
        assert f"{name}: legitimacy {state.legit[p]} ({state.band(p)} band)" in str(state)
        assert f"score {total};" in str(state).splitlines()[1 + p]
    # the loyalty cards are revealed by name, to every seat
    named = ", ".join(f"{state.colour(p)} {card_name(c)}" for p, c in enumerate(state.loyalty))
    assert f"Loyalty cards: {named}." in board
    view.view_select.value = 1
    seat = TAG.sub(" ", view.board.value)
    assert f"Loyalty cards: {named}." in seat and "not dealt yet" not in seat
    assert f"Loyalty card: {card_name(state.loyalty[1])}." in seat


def test_an_undone_draw_is_named_by_its_card():
    from coronas.hierro import Draw, TakeCard

    state = Hierro(players=3, seed=1).position(hands=[("pope",), (), ()])
    view = Stepper(state, seed=7, draw=False)
    view.model.play(TakeCard("military"))
    view.model.play(Draw("loyal_vassal:3"))
    view.undo_button.click()
    assert "undone: draw Loyal vassal 3" in view.message.value
