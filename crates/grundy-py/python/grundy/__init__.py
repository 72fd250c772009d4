"""grundy: solve impartial combinatorial games from Python.

Who wins a position, its nimber (Sprague-Grundy value) and every winning move
with their exact count; Grundy sequences of heap games with their periods and
the theorems that prove them; tables of nimbers with the patterns in them;
your own game as a Python function; surveys of many rules on local processes
or a Dask cluster. The answers are those of the ``grundy`` command line (its
library, called directly).

>>> import grundy
>>> grundy.solve("nim(3, 5, 7)").nimber
1
>>> g = grundy.Game(moves=lambda n: [n - k for k in (1, 3, 4) if k <= n])
>>> grundy.solve(g(10), "nim(2)").first_player_wins
True
>>> grundy.seq("kayles", 12).period
12

Notation: an N-position is a win for the player to move (the *next* player),
a P-position for the *previous* player.
"""

from __future__ import annotations

import numbers
from typing import Any, Dict, List, Optional, Union

from . import _native
from ._answer import Answer, WinningMove
from ._errors import GameError, GrundyError, Interrupted, LimitError, ParseError, SurveyError
from ._limits import DEFAULTS, Bytes, limits as _limits
from ._sequence import Sequence, seq
from ._survey import survey, survey_boards
from ._table import Table, table

Game = _native.Game
GamePosition = _native.GamePosition

__version__: str = _native.VERSION

__all__ = [
    "Answer",
    "Game",
    "GameError",
    "GamePosition",
    "GrundyError",
    "Interrupted",
    "LimitError",
    "ParseError",
    "Sequence",
    "SurveyError",
    "Table",
    "WinningMove",
    "games",
    "parse",
    "quotient",
    "seq",
    "solve",
    "survey",
    "survey_boards",
    "table",
]


def __dir__() -> List[str]:
    """Only grundy's own names (not the typing helpers it imports)."""
    return sorted(__all__ + ["__version__"])

Part = Union[str, "_native.GamePosition"]


def solve(
    *parts: Part,
    max_moves: int = 100,
    no_moves: bool = False,
    max_states: int = DEFAULTS["max_states"],
    max_digits: int = DEFAULTS["max_digits"],
    max_heap: int = DEFAULTS["max_heap"],
    max_memory: Bytes = DEFAULTS["max_memory"],
    max_work: int = DEFAULTS["max_work"],
    max_time: Optional[float] = None,
    play: str = "normal",
    rounds: Optional[int] = None,
) -> Answer:
    """Answers the sum of ``parts``: each an expression (``"nim(3, 5, 7)"``,
    ``"misere(bash[3](4) + nim(2))"``; ``grundy.games()`` lists the games) or a
    position of a :class:`Game` (``g(7)``). Several expressions are read as one,
    joined by ``+``, so the answer is ``grundy solve``'s for that text.

    ``play`` says how the whole sum is played, as the language's compounds
    do: ``"normal"``, ``"misere"`` (``misere(...)``: whoever moves last
    loses) or ``"every"`` (``every(...)``: each move moves every component
    that can); ``rounds=k`` plays a match of ``k`` rounds of the sum
    (``rounds[k](...)``). They apply to positions of a :class:`Game` as to
    any family: ``solve(g(7), "nim(2)", play="misere")``.

    The limits are the command line's flags: ``max_moves`` (winning moves
    listed; all are counted), ``max_states`` (positions a search stores),
    ``max_digits`` (digits of an integer), ``max_heap`` (the largest heap whose
    values are computed without a proven period), ``max_memory`` (bytes, or
    ``"512M"``, ``"4G"``), ``max_work`` (steps of work beyond linear),
    ``max_time`` (seconds, a last resort). ``no_moves=True`` answers the
    nimber alone, without the winning moves' search.

    Raises :class:`ParseError` for bad input, :class:`LimitError` at a limit,
    :class:`GameError` when a game's rules fail or loop; Ctrl-C stops it
    (``KeyboardInterrupt``) within milliseconds.

    >>> answer = solve("nim(3, 5, 7) + bash[3](10)")
    >>> answer.outcome, answer.nimber
    ('N', 3)
    """
    given = _limits(max_states, max_digits, max_heap, max_memory, max_work, max_time)
    return Answer(
        _native.solve(
            parts, given, max_moves=max_moves, no_moves=no_moves, play=play, rounds=rounds
        )
    )


def parse(
    expression: str,
    *,
    max_digits: int = DEFAULTS["max_digits"],
    max_heap: int = DEFAULTS["max_heap"],
    max_memory: Bytes = DEFAULTS["max_memory"],
    max_work: int = DEFAULTS["max_work"],
) -> str:
    """The canonical form of a position (the ``position`` of its answer): names
    resolved (``multi_nim`` is ``lasker``), blanks normalised.

    Raises :class:`ParseError`, carrying the ``column`` and the ``caret`` text.

    >>> parse("nim(3,5 , 7)")
    'nim(3, 5, 7)'
    >>> try:
    ...     parse("nim(3")
    ... except ParseError as error:
    ...     print(error.column)
    6
    """
    given = _limits(DEFAULTS["max_states"], max_digits, max_heap, max_memory, max_work, None)
    return _native.parse(expression, given)


def quotient(
    rule: str,
    n: Optional[int] = None,
    *,
    max_order: int = 1 << 16,
    max_memory: Bytes = DEFAULTS["max_memory"],
    max_time: Optional[float] = None,
) -> Dict[str, Any]:
    """The misère quotient (Plambeck and Siegel) of a heap rule for heaps
    ``0..=n``, or, without ``n``, built until the periodicity theorem for
    misère quotients proves it for heaps of every size (up to heap 1000): the
    object ``grundy quotient --json RULE [-n N]`` prints, as a dict (``order``,
    ``presentation``, ``elements``, ``p_portion``, ``heap_map``, ``orders``,
    ``proven``, ``proof``, ``period``, ``table``).

    Raises :class:`LimitError` when the quotient outgrows ``max_order``
    elements or ``max_memory`` (the message gives the orders computed), or
    ``max_time`` passes; Ctrl-C raises ``KeyboardInterrupt``.

    >>> q = quotient("octal[0.75]")
    >>> q["order"], q["proven"], q["p_portion"]
    (8, True, [1, 6])
    """
    import json

    if isinstance(n, bool) or (n is not None and not isinstance(n, numbers.Integral)):
        raise TypeError(f"quotient: `n` (the largest heap) must be an integer or None, not {type(n).__name__} ({n!r})")
    if n is not None and n < 0:
        raise ValueError(f"n={n}: a heap is a non-negative integer (0, 1, 2, ...)")
    given = _limits(DEFAULTS["max_states"], DEFAULTS["max_digits"], DEFAULTS["max_heap"], max_memory, DEFAULTS["max_work"], max_time)
    text = _native.quotient(rule, None if n is None else int(n), given, max_order)
    result: Dict[str, Any] = json.loads(text)
    return result


def games() -> List[Dict[str, Any]]:
    """The catalogue, as ``grundy games`` shows it: one dict per game, with
    ``name``, ``summary``, ``rules`` (the theorem and its source), ``syntax``,
    ``aliases`` and ``examples``.

    >>> any(game["name"] == "wythoff" for game in games())
    True
    """
    return _native.games()
