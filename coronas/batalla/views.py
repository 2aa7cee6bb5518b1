"""How a Batalla de Coronas state shows itself: the phase in words, text, HTML and its graph.

:class:`StateViews` is a part of :class:`~coronas.batalla.state.BatallaState`;
:func:`state_html` draws both kingdom boards for Jupyter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coronas.batalla.actions import PHASES, SIDES, TOKENS, _name
from coronas.batalla.rules import CHURCH_SQUARES, COUNSELOR_COLOURS

if TYPE_CHECKING:
    import networkx as nx

    from coronas.batalla.state import BatallaState

__all__ = ["StateViews", "state_html"]


class StateViews:
    """Names, the phase in words, text, HTML and the graph of a state (a part of
    ``BatallaState``)."""

    @property
    def attacker_die(self) -> int | None:
        return None if self.bdice is None else self.bdice[0]

    def player_name(self, player: int) -> str:
        """``"player 1"`` or ``"player 2"``: the rulebook counts the players from one."""
        return f"player {player + 1}"

    def gems_in_castle(self, p: int) -> int:
        """Gems still in player ``p``'s power area."""
        return self.rules.gems_each - self.gems_won[1 - p]

    def token_holders(self) -> dict[str, int | None]:
        """Who holds each token (None: the common supply)."""
        return {t: getattr(self, t) for t in TOKENS}

    def describe_phase(self) -> str:
        """The phase in words, with whose turn it is."""
        if self.phase == "over":
            return f"game over: {self.player_name(self.winner)} wins"
        if self.phase == "rolloff":
            return PHASES["rolloff"]
        text = f"turn {self.turn}, {self.player_name(self.player)}: {PHASES[self.phase]}"
        if self.phase == "reroll_choice":
            who = self.player if self.decider == 0 else 1 - self.player
            text += f" ({self.player_name(who)}, the {SIDES[self.decider]}, decides)"
        return text

    def chance_text(self) -> str:
        """What the chance node being resolved decides, in words: ``"player 2 rolls the two
        dice"``; ``""`` at a decision."""
        if not self.is_chance_node():
            return ""
        if self.phase == "rolloff":
            return "the roll-off for the first turn: each player rolls a die"
        who, other = self.player_name(self.player), self.player_name(1 - self.player)
        if self.phase == "roll":
            return f"{who} rolls the two dice"
        if self.phase == "battle":
            return f"the battle roll: {who} attacks {other}, each rolls a die"
        return f"{who}'s battle against {other}: {PHASES[self.phase].split(': ', 1)[-1]}"

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-ready data: the whole position.

        Batalla de Coronas hides nothing: both kingdom boards, the tokens, the dice of the
        turn and of a battle lie open on the table, and the rulebook has no card or counter
        kept from the other player. So every player's observation is the public position
        (each field of the state, tuples as lists, ``player`` being whose turn it is), with
        ``observer`` (who looks),
        ``to_move`` (the player to move, -1 at a chance node, -4 at the end) and
        ``gold_cap``.

        >>> from coronas.batalla import Game
        >>> s = Game(seed=1).new_initial_state()
        >>> s.observation(0) == s.observation(1) | {"observer": 0}
        True
        >>> s.observation(0)["shields"]
        [2, 2]
        """
        return {**super().observation(player), "gold_cap": [self.cap(0), self.cap(1)]}

    def graph(self) -> nx.Graph:
        """Both kingdoms as a networkx graph.

        Nodes (all with a ``kind`` attribute):

        * ``("kingdom", p)``: kind "kingdom", ``player`` (0/1), ``gems_in_castle``,
          ``gems_won``, ``gold_cap``, ``to_move`` (bool);
        * ``("chair", p, n)`` for n = 1..6: kind "chair", ``number``, ``counselor`` (key or
          None), ``colour`` (pawn colour or None);
        * ``("track", p, name)`` for shields, swords, gold, dragon: kind "track", ``value``,
          ``low``, ``high`` (the bounds now; the gold high is the current cap);
        * ``("church", p, square)`` for the door and the three squares: kind "church",
          ``clergy`` (bool: the white disc is here), ``visited`` (bool);
        * ``("token", name)`` for crown, cross, smith: kind "token", ``holder`` (0, 1, None);
        * ``"supply"``: kind "supply".

        Edges: kingdom - chair, kingdom - track, kingdom - church (``relation="part of"``);
        token - kingdom or supply (``relation="held by"``); kingdom - kingdom
        (``relation="enemy"``) and kingdom - supply (``relation="beside"``: the neutral zone
        between the boards), so the graph is connected.
        """
        import networkx as nx

        r = self.rules
        g = nx.Graph()
        g.add_node("supply", kind="supply")
        for p in range(2):
            k = ("kingdom", p)
            g.add_node(
                k,
                kind="kingdom",
                player=p,
                gems_in_castle=self.gems_in_castle(p),
                gems_won=self.gems_won[p],
                gold_cap=self.cap(p),
                to_move=(self.player == p and self.phase not in ("rolloff", "over")),
            )
            for n, c in enumerate(self.chairs[p], start=1):
                g.add_node(
                    ("chair", p, n),
                    kind="chair",
                    number=n,
                    counselor=c,
                    colour=COUNSELOR_COLOURS.get(c) if c else None,
                )
                g.add_edge(k, ("chair", p, n), relation="part of")
            tracks = {
                "shields": (self.shields[p], 0, r.militia_max),
                "swords": (self.swords[p], 0, r.militia_max),
                "gold": (self.gold[p], r.gold_min, self.cap(p)),
                "dragon": (self.dragon[p], 0, r.dragon_attack_level),
            }
            for name, (value, low, high) in tracks.items():
                g.add_node(("track", p, name), kind="track", value=value, low=low, high=high)
                g.add_edge(k, ("track", p, name), relation="part of")
            for square in ("door", *CHURCH_SQUARES):
                here = self.clergy[p] == square or (square == "door" and self.clergy[p] is None)
                g.add_node(
                    ("church", p, square),
                    kind="church",
                    clergy=here,
                    visited=square in self.visited[p],
                )
                g.add_edge(k, ("church", p, square), relation="part of")
        g.add_edge(("kingdom", 0), ("kingdom", 1), relation="enemy")
        for p in range(2):
            g.add_edge(("kingdom", p), "supply", relation="beside")
        for t in TOKENS:
            holder = getattr(self, t)
            g.add_node(("token", t), kind="token", holder=holder)
            g.add_edge(
                ("token", t),
                "supply" if holder is None else ("kingdom", holder),
                relation="held by",
            )
        return g

    def board_text(self, p: int) -> str:
        """One kingdom board as text."""
        r = self.rules
        held = [t.capitalize() for t in TOKENS if getattr(self, t) == p]
        lines = [
            f"Player {p + 1}: {self.gems_in_castle(p)} gems in the castle, "
            f"{self.gems_won[p]} won; tokens: {', '.join(held) or 'none'}",
            "  council  "
            + "  ".join(f"{n}:{_name(c) if c else '-'}" for n, c in enumerate(self.chairs[p], 1)),
            f"  shields  {_track(self.shields[p], 0, r.militia_max)}",
            f"  swords   {_track(self.swords[p], 0, r.militia_max)}",
            f"  gold     {_track(self.gold[p], r.gold_min, r.gold_max, self.cap(p))}",
            f"  dragon   {_track(self.dragon[p], 0, r.dragon_attack_level, labels='X')}",
            "  church   "
            + "  ".join(
                (f"[{s}]" if (self.clergy[p] or "door") == s else s)
                for s in ("door", *CHURCH_SQUARES)
            ),
        ]
        return "\n".join(lines)

    def __str__(self) -> str:
        head = f"Batalla de Coronas: {self.describe_phase()}"
        extra = []
        if self.dice is not None and self.phase not in ("battle", "roll"):
            extra.append(f"decision dice: {self.dice[0]} and {self.dice[1]}")
        if self.bdice is not None:
            extra.append(f"battle dice: attacker {self.bdice[0]}, defender {self.bdice[1]}")
        body = [self.board_text(0), self.board_text(1)]
        return "\n".join([head, *extra, *body])

    def _repr_html_(self) -> str:
        return state_html(self)


def _track(value: int, low: int, high: int, cap: int | None = None, labels: str = "") -> str:
    cells = []
    for v in range(low, high + 1):
        text = labels if (labels and v == 0) else str(v)
        if cap is not None and v > cap:
            text = "#"
        cells.append(f"[{text}]" if v == value else f" {text} ")
    return "".join(cells) + f"  = {value}"


_PAWN_CSS = {
    "blue": "#3b6fd8",
    "yellow": "#e8c31b",
    "red": "#d23c3c",
    "black": "#222222",
    "purple": "#8a3fb8",
    "white": "#f4f4f4",
}
_TRACK_CSS = {"shields": "#3b6fd8", "swords": "#3b6fd8", "gold": "#e8c31b", "dragon": "#2e8b57"}
_SQUARE_CSS = {"door": "#c9a227", "golden": "#f2d64b", "blue": "#6d9bf0", "red": "#e36b6b"}


def state_html(state: BatallaState) -> str:
    """Both kingdom boards as HTML tables (what Jupyter shows for a state)."""
    from html import escape

    r = state.rules
    cell = "padding:2px 6px;border:1px solid #bbb;text-align:center;min-width:1.6em"

    def track_row(name: str, value: int, low: int, high: int, cap: int | None = None) -> str:
        cells = []
        for v in range(low, high + 1):
            label = "X" if (name == "dragon" and v == 0) else str(v)
            style = cell
            if v == value:
                style += f";background:{_TRACK_CSS[name]};color:white;font-weight:bold"
            elif cap is not None and v > cap:
                style += ";background:#999;color:#999"
                label = "&#9670;"
            cells.append(f"<td style='{style}'>{label}</td>")
        return f"<tr><th style='text-align:left'>{name}</th>{''.join(cells)}</tr>"

    boards = []
    for p in range(2):
        turn = state.player == p and state.phase not in ("rolloff", "over")
        chairs = []
        for n, c in enumerate(state.chairs[p], start=1):
            if c is None:
                chairs.append(f"<td style='{cell}'>{n}<br>&mdash;</td>")
            else:
                colour = _PAWN_CSS[COUNSELOR_COLOURS[c]]
                fg = "black" if COUNSELOR_COLOURS[c] in ("white", "yellow") else "white"
                chairs.append(
                    f"<td style='{cell};background:{colour};color:{fg}' "
                    f"title='{escape(_name(c))}'>{n}<br>{escape(_name(c))}</td>"
                )
        church = []
        for sq in ("door", *CHURCH_SQUARES):
            here = (state.clergy[p] or "door") == sq
            mark = " &#9679;" if here else ""
            church.append(f"<td style='{cell};background:{_SQUARE_CSS[sq]}'>{sq}{mark}</td>")
        tokens = [t.capitalize() for t in TOKENS if getattr(state, t) == p]
        gems = "&#128142;" * state.gems_in_castle(p)
        won = "&#128142;" * state.gems_won[p]
        rows = [
            f"<tr><th style='text-align:left'>council</th>{''.join(chairs)}</tr>",
            track_row("shields", state.shields[p], 0, r.militia_max),
            track_row("swords", state.swords[p], 0, r.militia_max),
            track_row("gold", state.gold[p], r.gold_min, r.gold_max, state.cap(p)),
            track_row("dragon", state.dragon[p], 0, r.dragon_attack_level),
            f"<tr><th style='text-align:left'>church</th>{''.join(church)}</tr>",
        ]
        border = "3px solid #d4a017" if turn else "1px solid #888"
        boards.append(
            f"<div style='border:{border};border-radius:6px;padding:6px;margin:4px'>"
            f"<b>Player {p + 1}</b>{' (to move)' if turn else ''}<br>"
            f"castle: {gems or 'no gems'} &nbsp; won: {won or 'none'} &nbsp; "
            f"tokens: {escape(', '.join(tokens) or 'none')}"
            f"<table style='border-collapse:collapse;margin-top:4px'>{''.join(rows)}</table></div>"
        )
    info = [escape(state.describe_phase())]
    if state.dice is not None and state.phase not in ("battle", "roll"):
        info.append(f"decision dice: {state.dice[0]} and {state.dice[1]}")
    if state.bdice is not None:
        info.append(f"battle dice: attacker {state.bdice[0]}, defender {state.bdice[1]}")
    return (
        f"<div><div>{'<br>'.join(info)}</div>"
        f"<div style='display:flex;flex-wrap:wrap'>{''.join(boards)}</div></div>"
    )
