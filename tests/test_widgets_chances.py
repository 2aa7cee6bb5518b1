"""The stepper's "who wins from here" panel: figures refined in a thread, a bar per seat with
its interval, nothing on the hand-over screen, figures cleared when the position changes, and
a seat's figures blind to what it cannot see; the panel's thread plays on its own copy while
the game on the table goes on."""

from __future__ import annotations

import random
import sys
import threading
import time

from coronas.batalla import Game as Batalla
from coronas.hierro import Game as Hierro
from coronas.manygames.judgement import LEFT_BY_QUICK
from coronas.widgets import Stepper, StepperModel
from coronas.widgets.stepper.chances import WinPanel
from tests.hierro.test_observation import played, twin


def test_the_panel_refines_its_figures_and_shows_a_bar_per_seat():
    stepper = Stepper(Batalla(seed=1).new_initial_state(), seed=1)
    panel = stepper.panel
    panel.precision, panel.seconds = 0.08, 60.0
    shown: list[str] = []
    assert panel.start(shown.append)
    panel._thread.join(timeout=60)
    assert not panel.running
    # the first words at once, then one figure a batch of 20 games, each narrower
    assert "Playing the rest of the game out" in shown[0]
    figures = shown[1:]
    assert len(figures) >= 2
    assert all(html.count("coronas-win-bar") == 2 for html in figures)
    assert all(html.count("coronas-win-interval") == 2 for html in figures)
    assert panel.result.half_width <= 0.08 and panel.result.games % 20 == 0
    assert f"{panel.result.games} games" in figures[-1]
    # the same seed, the same figures, run at once
    again = WinPanel(stepper.model, precision=0.08, seconds=60.0).compute()
    assert again == panel.result


def test_figures_belong_to_their_position():
    stepper = Stepper(Batalla(seed=2).new_initial_state(), seed=2)
    stepper.panel.seconds = 0.2
    stepper.panel.start()
    stepper.panel._thread.join(timeout=30)
    assert stepper.panel.html
    stepper.model.bot_move()
    stepper.refresh()
    assert stepper.panel.html == "" and stepper.panel.result is None


def test_nothing_is_shown_while_the_laptop_is_handed_over():
    state = Hierro(players=3, seed=9).new_initial_state()
    stepper = Stepper(state, view="pass", humans=[0, 1, 2])
    while stepper.model.state.is_chance_node():
        stepper.model.roll()
    stepper.refresh()
    assert stepper.model.handover is not None
    assert stepper.chances.layout.display == "none"
    assert not stepper.panel.start()
    assert "Hand the laptop over" in stepper.panel.html


def test_a_seats_figures_do_not_change_with_what_it_cannot_see():
    s = played(3, 5, 300)
    rng = random.Random(5)
    while s.is_chance_node():
        s.apply(s.sample_chance(rng))
    p = s.current_player
    t = twin(s, p, rng)
    assert t != s
    figures = [WinPanel(StepperModel(x, view=p, seed=7)).compute(games=12) for x in (s, t)]
    assert figures[0] == figures[1]
    assert figures[0].view == f"from {s.player_name(p)}'s view"
    # the open view at a decision answers from the mover's view, as the ranking of the moves
    # must: both panels answer from the same information, and say whose
    mover = WinPanel(StepperModel(s, seed=7)).compute(games=12)
    assert mover == figures[0] and mover.view == f"from {s.player_name(p)}'s view"
    # away from a decision the open view plays from the true position, and says so
    u = s.clone()
    while not u.is_chance_node():
        u.apply(u.legal_actions()[0])
    full = WinPanel(StepperModel(u, seed=7)).compute(games=12)
    assert full.view.startswith("full information")


def test_a_seats_figures_do_not_change_with_a_hands_secret_mix():
    """Advanced game, just after the draft: two hands the seat cannot see swap a military
    card for a political one; the seat's figures stay the same."""
    from tests.hierro.test_hidden import mix_twins

    s, t, p = mix_twins(3)
    figures = [WinPanel(StepperModel(x, view=p, seed=7)).compute(games=12) for x in (s, t)]
    assert figures[0] == figures[1]


def test_the_moves_are_ranked_on_request_for_the_seat_to_move_only():
    stepper = Stepper(Batalla(seed=1).new_initial_state(), seed=1)
    model, panel = stepper.model, stepper.panel
    while model.state.is_chance_node():
        model.roll()
    shown: list[str] = []
    panel.precision, panel.seconds = 0.2, 30.0
    assert panel.start(shown.append, moves=True)
    panel._thread.join(timeout=60)
    assert "value model" in shown[0]
    assert "moves by the chance of winning the game" in shown[-1] and "best" in shown[-1]
    assert len(panel.result.rows) == len(model.state.legal_actions())
    # a seat's view ranks only its own moves
    mover = model.state.current_player
    seat = StepperModel(model.state.clone(), view=1 - mover, seed=1)
    other = WinPanel(seat)
    assert not other.start(moves=True)
    assert f"The moves are {model.state.player_name(mover)}&#x27;s to rank" in other.html


def test_every_move_plays_out_the_moves_carolus_s_value_model_would_leave_out():
    # "every move": the ranking plays every legal move out (none left out by the move
    # prior or the value model); the box in the panel sets it. Carolus's own rankings play
    # the value model's five best, so the box starts unticked, and unticked again they do
    from coronas.carolus import Game as Carolus

    state = Carolus(seed=1).new_initial_state()
    rng, light = random.Random(1), Carolus.bot("light")
    while state.is_chance_node() or len(state.legal_actions()) <= 5:  # more than five
        state.apply(
            state.sample_chance(rng) if state.is_chance_node() else light.choose(state, rng)
        )
    stepper = Stepper(state, seed=1)
    panel = stepper.panel
    shown = panel.compute(moves=True, games=4)
    assert any(r["dropped"].startswith("left out") for r in shown.rows)
    (box,) = [c for c in stepper.chances.children[0].children if c.description == "every move"]
    assert not box.value
    box.value = True
    assert panel.every_move
    every = panel.compute(moves=True, games=4)
    assert len(every.rows) == len(state.legal_actions())
    assert not any(r["dropped"] for r in every.rows)
    assert all(r["games"] == 4 for r in every.rows)
    box.value = False
    assert panel.every_move is False and not panel.plays_every_move
    again = panel.compute(moves=True, games=4)
    assert [r["dropped"] for r in again.rows] == [r["dropped"] for r in shown.rows]
    assert any(r["dropped"].startswith(LEFT_BY_QUICK) for r in again.rows)


def test_in_corona_de_hierro_the_box_starts_ticked_and_unticked_plays_the_likeliest_moves():
    # Corona de Hierro's rankings play every move, halved: the box says so at once, and
    # unticked the panel plays out only the learned player's likeliest moves
    state = Hierro(players=3, seed=9).new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node() or len(state.legal_actions()) < 6:
        state.apply(
            state.sample_chance(rng)
            if state.is_chance_node()
            else random.Random(3).choice(state.legal_actions())
        )
    stepper = Stepper(state, seed=1)
    panel = stepper.panel
    (box,) = [c for c in stepper.chances.children[0].children if c.description == "every move"]
    assert box.value and panel.plays_every_move and panel.every_move is None
    box.value = False
    assert panel.every_move is False and not panel.plays_every_move
    likeliest = panel.compute(moves=True, games=2)
    assert sum(not r["dropped"] for r in likeliest.rows) <= 3
    assert any(r["dropped"].startswith("left out") for r in likeliest.rows)


def _first_figures(shown: list[str], timeout: float = 60.0) -> None:
    """Wait until a run showed its first figures (after its opening words)."""
    deadline = time.monotonic() + timeout
    while len(shown) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(shown) >= 2, "no figures in time"


def test_clicks_while_the_panel_refines_change_only_the_game_on_the_table():
    """The panel plays Corona de Hierro games in its thread (in this process) while the main
    thread steps and undoes, threads switching as often as they can: the game on the table
    is exactly its history, undo takes it back to where the run started, and the run shows
    no figures once its position has left the table (the ones it showed are its start's)."""
    game = Hierro(players=3, seed=4)
    model = StepperModel(game.new_initial_state(), seed=4)
    panel = WinPanel(model, precision=0.001, seconds=60.0)  # would refine for a minute
    shown: list[str] = []
    assert panel.start(shown.append)
    _first_figures(shown)
    start = model.state.clone()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with panel._lock:  # the first click lands between two batches of figures
            assert model.bot_move() is not None
            figures, result = list(shown), panel.result
        clicks = 0  # more clicks, for as long as the run goes on: steps, some taken back
        while clicks < 40 or (panel.running and clicks < 3000):
            if model.state.is_terminal() or clicks % 3 == 2:
                assert model.undo() is not None
            else:
                assert model.bot_move() is not None
            clicks += 1
    finally:
        sys.setswitchinterval(interval)
    panel._thread.join(timeout=60)
    assert not panel.running  # it ended at its next batch, long before its minute
    # the game on the table is its history replayed, and undo takes it back to the start
    replay = game.new_initial_state()
    for action in model.state.history:
        replay.apply(action)
    assert replay == model.state and replay.key() == model.state.key()
    while len(model.state.history) > len(start.history):
        model.undo()
    assert model.state == start and model.state.key() == start.key()
    # nothing shown after the first click, and what was shown is the start's figures
    assert shown == figures and panel.result is result
    again = WinPanel(StepperModel(start, seed=4)).compute(games=result.games)
    assert again == result
    # the stepper, refreshed, clears them (the position is the start again, but other
    # clicks came between: the count of changes tells)
    assert panel.follow() and panel.html == "" and panel.result is None


def test_the_panel_plays_on_a_copy_taken_before_its_thread_starts(monkeypatch):
    stepper = Stepper(Batalla(seed=3).new_initial_state(), seed=3)
    model, panel = stepper.model, stepper.panel
    cloned: list[tuple[threading.Thread, object]] = []
    state_type = type(model.state)
    clone = state_type.clone

    def noting_clone(self):
        cloned.append((threading.current_thread(), self))
        return clone(self)

    monkeypatch.setattr(state_type, "clone", noting_clone)
    panel.seconds = 0.3
    assert panel.start()
    panel._thread.join(timeout=30)
    assert panel.result is not None
    # the state on the table was cloned once, on this thread; the run never touched it
    assert [t for t, s in cloned if s is model.state] == [threading.current_thread()]


def test_the_panel_says_why_its_figures_stopped():
    stepper = Stepper(Batalla(seed=1).new_initial_state(), seed=1)
    panel = stepper.panel
    panel.precision, panel.seconds = 0.0001, 0.5  # the time runs out first
    shown: list[str] = []
    assert panel.start(shown.append)
    panel._thread.join(timeout=60)
    assert "stopped: the time was up" in shown[-1].lower()
    # Stop, pressed while the games go on, is said under the figures so far
    panel.seconds = 60.0
    shown.clear()
    assert panel.start(shown.append)
    deadline = time.monotonic() + 30
    while len(shown) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    panel.stop(by_player=True)
    assert not panel.running
    assert "Stopped by Stop" in panel.html and "coronas-win-bar" in panel.html
    assert "Stopped by Stop" in shown[-1]
