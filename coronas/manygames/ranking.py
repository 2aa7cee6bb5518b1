"""The ranking of the moves as a result: :class:`ActionRanking`, every legal action of the
seat to move with its chance of winning the game after it, in reading order, and how it reads:
what its figures rest on and why the games stopped, in words; a text table; an HTML table with a
bar a move (what the stepper's "Rank the moves" shows); a DataFrame.

:func:`~.moves.rank_actions` makes it, after each batch of games; nothing here plays a game, so
a ranking is read, shown or built by hand (as the tests of its tables do) apart from the games.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from coronas.manygames.budget import STOPPED
from coronas.manygames.judgement import MAX_KEPT

__all__ = ["ActionRanking"]


@dataclasses.dataclass(frozen=True, repr=False)
class ActionRanking:
    """Every legal action of the seat to move with its chance of winning the game after it.

    ``rows`` are dicts in reading order: the shortlist first (the best, then every move the
    games cannot tell from it, by chance), then the other moves played out, by chance, then
    the dropped ones. Each row has ``action``, ``label`` (in the game's words), ``chance`` (a
    Fraction: exact, the share of the games won after the action, or with ``quick`` the value
    model's figure), ``low``/``high`` (its 95% interval; the point itself when exact or
    quick), ``games`` (the move's own), ``best``, ``shortlist`` (the best, or the 95%
    interval of its difference from the best, measured on the same games, reaches 0),
    ``too_close`` (on the shortlist but not the best, kept for older readers),
    ``versus_best`` (that difference and its interval, ``(mean, low, high)``; None when exact
    or quick), ``quick`` (the value model's figure, or None), ``prior`` (the learned player's
    probability of choosing it, by the game's move prior, or None), ``dropped`` (why the move was
    left out of the games; "" if not) and ``odds`` (the action's own exact dice odds, for a
    dice action; else None).

    ``quick`` says the whole ranking is the value model's, before any game; ``common``
    whether the moves were played on the same games; ``held_out`` the best move's figure
    and 95% interval on the games not used to pick it, ``(chance, low, high)`` (None when
    exact, quick, or too few games); ``stopped`` why the games stopped (``games``,
    ``precision``, ``time``; "" while they go on); ``luck`` whether each game's shares were
    adjusted by the luck of its rolls; ``horizon`` the actions after which each game was cut
    and scored by the value model (None: games played to the end). A cut game's figure is the
    value model's chance at the cut, so the figures and intervals are those of that score, a
    biased estimate of the chance of winning by as much as the model errs there.
    ``prior_mass``, when the move prior left moves out of the games, is the share of the
    learned player's choices the moves played out were taken to hold (None: it left none out);
    the rule is said once, in :meth:`basis`, and each move left out gives only its own prior.
    ``quick_kept``, when only the value model's best few moves were played out, is how many
    (None: no move left out that way), said once in :meth:`basis` too. ``halving`` says the
    moves were halved (sequential halving: the worse half dropped at
    the end of each part of the games), ``kept`` how many were played to the end, said once in
    :meth:`basis` too.
    """

    player: str
    rows: tuple[dict[str, Any], ...]
    exact: bool
    assumption: str
    view: str
    games: int
    common: bool = True
    quick: bool = False
    held_out: tuple[float, float, float] | None = None
    stopped: str = dataclasses.field(default="", compare=False)
    luck: bool = False
    horizon: int | None = None
    prior_mass: float | None = None
    quick_kept: int | None = None
    halving: bool = False
    kept: int = MAX_KEPT

    def basis(self) -> str:
        """What the figures rest on, in words."""
        if self.quick:
            return f"quick estimate by the value model, not yet games; {self.view}"
        how = "exact" if self.exact else f"{self.games} games a move still in the running"
        if not self.exact:
            how += ", adjusted for the luck of their rolls" if self.luck else ""
            if self.horizon:
                how += (
                    f", games cut after {self.horizon} actions and scored by the value model "
                    "(its figure there, not the games' result)"
                )
            how += ", 95% intervals"
            how += ", the same games for every move" if self.common else ", games of its own"
            if self.prior_mass is not None:
                how += (
                    "; the moves the learned player would choose, up to "
                    f"{self.prior_mass:.0%} of its choices, and the one the value model puts "
                    f"first, {MAX_KEPT} at most, were played out"
                )
            if self.quick_kept is not None:
                how += (
                    f"; the value model's {self.quick_kept} best moves were played out (between "
                    "moves it values alike, the ones the learned player would choose more often, "
                    "then the first listed)"
                )
            if self.halving:
                how += (
                    "; the moves halved: the worse half dropped at the end of each part "
                    f"of the games, {self.kept} played to the end"
                )
        return f"{how}; {self.assumption}; {self.view}"

    def stop_note(self) -> str:
        """Why the figures stopped changing, in words ("" while they may still change)."""
        return STOPPED.get("exact" if self.exact else self.stopped, "")

    def held_out_text(self) -> str:
        """The best move's figure on the games not used to pick it, in words ("" if none)."""
        if self.held_out is None:
            return ""
        chance, low, high = self.held_out
        return f"the best move on games not used to pick it: {chance:.1%} ({low:.1%}-{high:.1%})"

    def _cells(self, row: dict[str, Any]) -> tuple[str, str, str]:
        chance = float(row["chance"])
        if self.exact:
            figure, interval = f"{row['chance']} ({chance:.1%})", "exact"
        elif self.quick or row["games"] == 0:
            figure, interval = f"{chance:.1%}", "quick estimate"
        else:
            figure, interval = f"{chance:.1%}", f"{row['low']:.1%} - {row['high']:.1%}"
        if row["best"]:
            mark = "best"
        elif row.get("shortlist", row.get("too_close")):
            mark = "shortlist"
        elif row.get("dropped"):
            mark = "dropped"
        else:
            mark = ""
        return figure, interval, mark

    def __str__(self) -> str:
        lines = [f"{self.player}'s moves by the chance of winning the game [{self.basis()}]"]
        for row in self.rows:
            figure, interval, mark = self._cells(row)
            odds = f"; roll: {row['odds'].success}" if row["odds"] is not None else ""
            why = f" ({row['dropped']})" if row.get("dropped") else ""
            lines.append(f"{figure:>16}  {interval:>15}  {mark:<10}{row['label']}{odds}{why}")
        extra = [t for t in (self.held_out_text(), self.stop_note()) if t]
        if extra:
            lines.append("; ".join(extra))
        return "\n".join(lines)

    def __repr__(self) -> str:
        best = self.rows[0]
        return (
            f"<ActionRanking {self.player}: {len(self.rows)} moves, best {best['label']!r} "
            f"{float(best['chance']):.1%} [{self.basis()}]>"
        )

    def _repr_html_(self) -> str:
        from html import escape

        from coronas.formatting import percent

        body = []
        for row in self.rows:
            figure, interval, mark = self._cells(row)
            odds = row["odds"]
            # the roll's odds as a percentage, its exact fraction and aim in the tooltip: a
            # row stays on one line in a notebook at 1280 px with its file browser open
            tip = "" if odds is None else escape(f"{odds.success} to {odds.aim}", quote=True)
            dice = "" if odds is None else f"<span title='{tip}'>{percent(odds.success)}</span>"
            verdict = escape(mark)
            if row.get("dropped"):
                verdict = f"<span title='{escape(row['dropped'], quote=True)}'>dropped</span>"
            cells = (escape(row["label"]), figure, interval, verdict, dice)
            attributes = ("", " " + _bar(row), "", "", "")
            body.append(
                "<tr>"
                + "".join(f"<td{a}>{c}</td>" for a, c in zip(attributes, cells, strict=True))
                + "</tr>"
            )
        heads = ("move", "chance", "95% interval", "verdict", "roll's odds")
        notes = [self.basis(), self.held_out_text(), self.stop_note()]
        return (
            "<table style='white-space:nowrap;border-collapse:collapse'><caption>"
            f"{escape(self.player)}'s moves by the chance of winning the game</caption><tr>"
            + "".join(f"<th>{h}</th>" for h in heads)
            + f"</tr>{''.join(body)}</table>"
            + "".join(f"<p>{escape(n)}</p>" for n in notes if n)
        )

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame (needs pandas, the ``analysis`` extra)."""
        import pandas as pd

        return pd.DataFrame(
            [{**r, "action": str(r["action"]), "chance": float(r["chance"])} for r in self.rows]
        )


def _bar(row: dict[str, Any]) -> str:
    """A move's chance as a bar behind its figure: the cell's background filled to the
    chance, light blue (grey for a dropped move), its 95% interval a darker band along the
    bottom. A background adds no element and no width, so a row stays on one line."""
    chance = float(row["chance"]) * 100
    colour = "#d9d9d9" if row.get("dropped") else "#c9d7ee"
    layers = [f"linear-gradient(to right, {colour} {chance:.1f}%, transparent {chance:.1f}%)"]
    if row["games"] and row["high"] > row["low"]:
        low, high = row["low"] * 100, row["high"] * 100
        layers.insert(
            0,
            f"linear-gradient(to right, transparent {low:.1f}%, #4c72b0 {low:.1f}%, "
            f"#4c72b0 {high:.1f}%, transparent {high:.1f}%) bottom / 100% 3px no-repeat",
        )
    return f"class='coronas-move-bar' style='background:{', '.join(layers)}'"
