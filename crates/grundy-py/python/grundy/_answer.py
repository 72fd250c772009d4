"""Answers of :func:`grundy.solve`."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from . import _native


@dataclass(frozen=True)
class WinningMove:
    """A winning move: ``to`` is the position it leads to (an expression
    ``solve`` accepts, which it finds a P-position), ``move`` the move in words.
    For positions longer than 10,000 characters ``to`` is ``None`` and
    ``term``, ``component`` and ``component_to`` say what the move changes
    (the compact form of ``solve --json``)."""

    to: Optional[str]
    move: str
    term: Optional[int] = None
    component: Optional[int] = None
    component_to: Optional[str] = None


class Answer:
    """Who wins a position, its nimber, and every winning move.

    >>> import grundy
    >>> answer = grundy.solve("nim(3, 5, 7)")
    >>> answer.outcome, answer.first_player_wins, answer.nimber
    ('N', True, 1)
    >>> answer.winning_move_count
    3
    >>> answer.winning_moves[0].to
    'nim(2, 5, 7)'
    """

    __slots__ = ("_solved", "_dict")

    def __init__(self, solved: "_native.Solved") -> None:
        self._solved = solved
        self._dict: Optional[Dict[str, Any]] = None

    def to_dict(self) -> Dict[str, Any]:
        """The object ``grundy solve --json`` prints for this position, field
        for field (integers from 2^53 on are decimal strings, as there)."""
        return json.loads(self._solved.json)

    def _field(self, name: str) -> Any:
        if self._dict is None:
            self._dict = json.loads(self._solved.json)
        return self._dict.get(name)

    @property
    def position(self) -> str:
        """The canonical form of the position; it parses back to the same one."""
        return self._solved.position

    @property
    def convention(self) -> str:
        """``"normal"`` or ``"misere"``."""
        return self._field("convention")

    @property
    def outcome(self) -> str:
        """``"N"`` when the player to move wins, ``"P"`` when they lose."""
        return self._solved.outcome

    @property
    def first_player_wins(self) -> bool:
        """Whether the player to move wins (an N-position)."""
        return self._solved.outcome == "N"

    @property
    def nimber(self) -> Optional[int]:
        """The Sprague-Grundy value, of any size; ``None`` where the position has
        none (misère play)."""
        return self._solved.nimber

    @property
    def winning_moves(self) -> List[WinningMove]:
        """The winning moves listed (at most ``max_moves``; see ``truncated``)."""
        return [WinningMove(**move) for move in self._field("winning_moves")]

    @property
    def winning_move_count(self) -> Optional[int]:
        """The exact number of winning moves, even when the list was cut;
        ``None`` when they were not counted (``no_moves=True``)."""
        return self._solved.winning_move_count

    @property
    def truncated(self) -> bool:
        """Whether the list of winning moves was cut."""
        return bool(self._field("truncated"))

    @property
    def method(self) -> str:
        """The theorem or algorithm that gave the answer (``nim-sum``, ...)."""
        return self._field("method")

    @property
    def notes(self) -> List[str]:
        """Notes on the answer (what was not done, and why)."""
        return list(self._field("notes") or [])

    def parts(self) -> List[tuple]:
        """Each component alone and its nimber under normal play,
        ``[("nim(3)", 3), ...]``: the nim-sum table of a plain sum (empty for
        ``misere(...)``, ``every(...)``, ``rounds[k](...)``)."""
        return self._solved.parts()

    def __repr__(self) -> str:
        nimber = "" if self.nimber is None else f", nimber={self.nimber}"
        return f"<grundy.Answer {self.position!r}: {self.outcome}{nimber}>"

    def __str__(self) -> str:
        words = "first player wins" if self.first_player_wins else "second player wins"
        lines = [
            self.position,
            f"{words} ({self.outcome}-position, {self.convention} play)",
        ]
        if self.nimber is not None:
            lines.append(f"nimber: {self.nimber}")
        for move in self.winning_moves:
            lines.append(f"  {move.move}  ->  {move.to if move.to is not None else move.component_to}")
        lines.append(f"method: {self.method}")
        lines.extend(f"note: {note}" for note in self.notes)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """Jupyter's view: the position, who wins, the nim-sum table of its
        components and the winning moves."""
        e = html.escape
        words = "first player wins" if self.first_player_wins else "second player wins"
        out = [
            "<div class='grundy-answer'>",
            f"<p><code>{e(self.position)}</code></p>",
            f"<p><b>{e(self.outcome)}-position</b>: {e(words)} ({e(self.convention)} play)"
            + ("" if self.nimber is None else f", nimber <b>{self.nimber}</b>")
            + "</p>",
        ]
        parts = self.parts()
        if parts and self.convention == "normal":
            out.append("<table><tr><th>component</th><th>nimber</th></tr>")
            for term, nimber in parts:
                shown = "?" if nimber is None else str(nimber)
                out.append(f"<tr><td><code>{e(term)}</code></td><td>{shown}</td></tr>")
            total = "?" if self.nimber is None else str(self.nimber)
            out.append(f"<tr><td><b>nim-sum</b></td><td><b>{total}</b></td></tr></table>")
        moves = self.winning_moves
        if moves:
            count = self.winning_move_count
            heading = f"{count} winning move{'s' if count != 1 else ''}" if count is not None else "winning moves"
            out.append(f"<p>{e(heading)}:</p><ul>")
            for move in moves:
                target = move.to if move.to is not None else move.component_to
                out.append(f"<li>{e(move.move)} &rarr; <code>{e(str(target))}</code></li>")
            out.append("</ul>")
        elif not self.first_player_wins:
            out.append("<p>every move leads to a position the opponent wins</p>")
        out.append(f"<p><small>method: {e(self.method)}</small></p></div>")
        return "".join(out)
