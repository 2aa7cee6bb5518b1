"""Turning states, figures and fractions into HTML for the widgets (no ipywidgets here)."""

from __future__ import annotations

import base64
import io
from collections.abc import Callable
from fractions import Fraction
from html import escape
from typing import Any

from coronas.formatting import probability_text

__all__ = [
    "GAME_TITLES",
    "PlainTextFallback",
    "figure_html",
    "find_drawer",
    "fraction_text",
    "plain_text",
    "state_html",
]

# The games' names as a reader knows them, by the short name of their engine.
GAME_TITLES = {
    "hierro": "Corona de Hierro",
    "carolus": "Carolus Magnus",
    "batalla": "Batalla de Coronas",
}


def plain_text(view: Any) -> str:
    """One human line saying what a widget view is and how to start it.

    It is what a notebook shows before its cells are run (JupyterLab without widget state,
    GitHub, nbviewer): "Stepper for Corona de Hierro: run this cell to play". A view names
    itself with a ``plain_title`` attribute; a stepper (a view with ``model.state``) is
    named after its game.
    """
    title = getattr(view, "plain_title", None)
    if title:
        return f"{title}: run this cell to use it"
    state = getattr(getattr(view, "model", None), "state", None)
    game = getattr(getattr(state, "game", None), "name", None)
    if game is not None:
        return f"Stepper for {GAME_TITLES.get(game, game)}: run this cell to play"
    return f"{type(view).__name__} (an interactive widget): run this cell to use it"


class PlainTextFallback:
    """Display a view's ``widget`` in Jupyter with a human ``text/plain`` fallback.

    ipywidgets puts the widget's Python repr (``VBox(children=(HTML(...``) in ``text/plain``;
    a notebook committed without widget state shows that text until it is run. This mixin
    keeps the widget's own view and replaces the fallback with :func:`plain_text`.
    """

    widget: Any

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        text = plain_text(self)
        if isinstance(bundle, tuple):  # (data, metadata)
            data, metadata = bundle
            return {**data, "text/plain": text}, metadata
        if bundle is None:
            return {"text/plain": text}
        return {**bundle, "text/plain": text}

    def __repr__(self) -> str:
        return f"<{plain_text(self)}>"


def fraction_text(p: Fraction) -> str:
    """An exact probability as ``"7/12 (58.33%)"``: the fraction first, the percentage after."""
    return probability_text(p)


def figure_html(fig: Any, dpi: int = 80) -> str:
    """A matplotlib figure as an inline ``<img>`` (PNG, base64), then closed.

    Rendering to an image keeps the widget's view in one ``HTML`` widget, so it can be
    checked without a browser and nothing leaks into the notebook's cell output.
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    try:
        import matplotlib.pyplot as plt

        plt.close(fig)
    except ImportError:  # pragma: no cover - matplotlib is a core dependency
        pass
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f"<img style='max-width:100%' src='data:image/png;base64,{data}'/>"


def find_drawer(state: Any) -> Callable[[Any], Any] | None:
    """The drawing function the state's game declares (its surface's ``drawing``), or None if
    there is none (or it cannot be imported): the state's own HTML is shown instead."""
    game = getattr(state, "game", None)
    drawing = game.spec().drawing if game is not None else None
    if drawing is None:
        return None
    load, kwargs = drawing
    try:
        fn = load()
    except (ImportError, AttributeError):
        return None
    return lambda s: fn(state=s, **kwargs)


def _as_figure(drawn: Any) -> Any:
    """A figure from whatever a drawing function returned (figure, axes, or (fig, ax))."""
    if isinstance(drawn, tuple):
        drawn = drawn[0]
    if hasattr(drawn, "savefig"):
        return drawn
    return getattr(drawn, "figure", None)


def state_html(state: Any, draw: Callable[[Any], Any] | None = None) -> str:
    """The state as HTML: its drawing if ``draw`` makes one, else its ``_repr_html_``/str."""
    if draw is not None:
        try:
            fig = _as_figure(draw(state))
        except Exception as exc:  # a drawing bug must not break stepping through a game
            note = f"<p style='color:#a00'>(the drawing failed: {escape(str(exc))})</p>"
        else:
            if fig is not None:
                return figure_html(fig)
            note = ""
        return note + _plain_html(state)
    return _plain_html(state)


def _plain_html(state: Any) -> str:
    rich = getattr(state, "_repr_html_", None)
    if callable(rich):
        out = rich()
        if out:
            return out
    return f"<pre>{escape(str(state))}</pre>"
