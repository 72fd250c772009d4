"""The exceptions of grundy: what the command line reports with exit 2 (bad
input: :class:`ParseError`; a game that fails or loops: :class:`GameError`) or
exit 3 (a limit: :class:`LimitError`), and :class:`Interrupted`, the Ctrl-C that
stopped a long ``seq`` or ``table`` with what it had computed."""

from __future__ import annotations

from typing import Any, Optional


class GrundyError(Exception):
    """The base of grundy's exceptions. ``str(error)`` is the command line's
    message (without ``error:``), limits naming the keyword that raises them."""

    def __init__(self, text: str, *args: Any) -> None:
        super().__init__(text, *args)
        self.text = text

    def __str__(self) -> str:
        return self.text

    def at(self, where: str) -> "GrundyError":
        """The same error, said of a place (``in the cell x = 3, y = 5``)."""
        args = list(self.args)
        args[0] = f"{self.text}\n{where}"
        return type(self)(*args)


class ParseError(GrundyError, ValueError):
    """Bad input (the command line's exit 2): an expression that does not parse
    or names no game, an invalid parameter, a malformed file.

    ``message`` says what is wrong; ``column`` (from 1) says where in the
    expression, and ``caret`` shows it: the expression and a caret under the
    place. Both are ``None`` for errors with no place in an expression.
    """

    def __init__(
        self,
        text: str,
        message: Optional[str] = None,
        column: Optional[int] = None,
        caret: Optional[str] = None,
    ) -> None:
        super().__init__(text, message, column, caret)
        self.message = message if message is not None else text
        self.column = column
        self.caret = caret


class LimitError(GrundyError):
    """A limit was reached (the command line's exit 3). The message names the
    limit and how to raise it; ``limit`` is the keyword argument that raises it
    (``"max_states"``, ``"max_memory"``, ...), or ``None`` when nothing does."""

    def __init__(self, text: str, limit: Optional[str] = None) -> None:
        super().__init__(text, limit)
        self.limit = limit


class GameError(GrundyError):
    """A game's rules failed: a Python game's function raised an exception (the
    message names the game and the position, the original exception is the
    ``__cause__``), returned something that is not a list of positions, or a
    position can be reached from itself (a loopy game), as for ``script[...]``
    games."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a ``seq`` or ``table``: ``partial`` holds what was computed
    (a :class:`~grundy.Sequence` or :class:`~grundy.Table`, marked incomplete)."""

    def __init__(self, message: str, partial: Any) -> None:
        super().__init__(message)
        self.partial = partial


class SurveyError(GrundyError):
    """A survey that could not run its tasks at all. Local surveys run on
    threads and no longer raise it; it is kept so that code catching it
    still runs."""
