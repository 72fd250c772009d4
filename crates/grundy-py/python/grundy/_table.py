"""Tables of nimbers or outcomes over one or two varying integers:
:func:`grundy.table`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

from . import _native
from ._errors import Interrupted
from ._limits import DEFAULTS, Bytes, limits

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True, eq=False)
class Table:
    """The cells of a table, row by row (the first variable down the rows),
    with the patterns found in it (the ``patterns`` of ``grundy table --json``:
    each a sentence stating the range it was checked on, never a proof).

    ``values`` is a list of ints (nimbers) or ``"P"``/``"N"`` (outcomes) for
    one variable, a list of rows for two. ``complete`` is false for the cells
    kept when Ctrl-C stopped it.
    """

    expression: str
    variables: List[Tuple[str, range]]
    measure: str
    values: list
    complete: bool
    patterns: List[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """The object ``grundy table --json`` prints."""
        return {
            "expression": self.expression,
            "variables": [{"name": name, "from": r.start, "to": r.stop - 1} for name, r in self.variables],
            "measure": self.measure,
            "values": self.values,
            "complete": self.complete,
            "patterns": self.patterns,
        }

    def _cells(self) -> list:
        if len(self.variables) == 1:
            return list(self.values)
        return [cell for row in self.values for cell in row]

    def to_pandas(self) -> Any:
        """A DataFrame indexed by the variables (a MultiIndex for two), with one
        column, ``nimber`` or ``outcome``."""
        import pandas as pd

        cells = self._cells()
        if len(self.variables) == 1:
            (name, values), = self.variables
            index = pd.Index(list(values)[: len(cells)], name=name)
        else:
            (x, xs), (y, ys) = self.variables
            index = pd.MultiIndex.from_product([list(xs), list(ys)], names=[x, y])[: len(cells)]
        return pd.DataFrame({self.measure: cells}, index=index)

    def _numbers(self) -> "np.ndarray":
        import numpy as np

        if self.measure == "outcome":
            to_number: Callable[[Any], float] = lambda cell: 0.0 if cell == "P" else 1.0
        else:
            to_number = float
        if len(self.variables) == 1:
            return np.array([to_number(c) for c in self.values], dtype=float)
        return np.array([[to_number(c) for c in row] for row in self.values], dtype=float)

    def plot(self) -> Any:
        """A matplotlib figure: one variable, the values against it with the
        P-positions in red; two, a heat map with the P-positions black."""
        from . import _plots

        numbers = self._numbers()
        if len(self.variables) == 1:
            (name, values), = self.variables
            return _plots.line(list(values)[: len(numbers)], numbers, name, self.measure, self.expression)
        (x, xs), (y, ys) = self.variables
        return _plots.heat_map(numbers, list(xs), list(ys), [x, y], self.measure, self.expression)

    def _repr_png_(self) -> Optional[bytes]:
        if not self.complete:
            return None
        from . import _plots

        try:
            return _plots.png(self.plot())
        except ImportError:
            return None

    def __repr__(self) -> str:
        ranges = ", ".join(f"{name}={r.start}..{r.stop - 1}" for name, r in self.variables)
        done = "" if self.complete else ", incomplete"
        return f"<grundy.Table {self.expression} over {ranges}: {len(self._cells())} cells{done}>"


def _consecutive(name: str, values: Iterable[int]) -> range:
    if isinstance(values, range):
        if values.step != 1:
            raise ValueError(f"{name}={values!r}: a variable takes consecutive integers (a range with step 1)")
        if len(values) == 0:
            raise ValueError(f"{name}={values!r}: the range is empty")
        return values
    items = list(values)
    if not items or any(b != a + 1 for a, b in zip(items, items[1:])):
        raise ValueError(f"{name}: a variable takes consecutive integers, e.g. {name}=range(0, 100)")
    return range(items[0], items[-1] + 1)


def table(
    expression: Union[str, Callable[..., Any], "_native.Game"],
    *,
    outcome: bool = False,
    max_cells: int = DEFAULTS["max_cells"],
    max_states: int = DEFAULTS["max_states"],
    max_digits: int = DEFAULTS["max_digits"],
    max_heap: int = DEFAULTS["max_heap"],
    max_memory: Bytes = DEFAULTS["max_memory"],
    max_work: int = DEFAULTS["max_work"],
    max_time: Optional[float] = None,
    **variables: Iterable[int],
) -> Table:
    """The nimbers (or, with ``outcome=True``, who wins) of a position over one
    or two varying integers, as ``grundy table --json``; the cells share one
    search.

    ``expression`` is an expression string whose variables are the keywords
    (``table("wythoff(x, y)", x=range(40), y=range(40))``), a function of the
    variables (by keyword) returning the parts of the position, or a
    :class:`grundy.Game`, called with the variables in order. Ctrl-C raises
    :class:`grundy.Interrupted` holding the cells done.

    >>> import grundy
    >>> t = grundy.table("bash[2](n)", n=range(9))
    >>> t.values
    [0, 1, 2, 0, 1, 2, 0, 1, 2]
    >>> t.patterns[-1]
    'P-positions for n <= 8 are exactly n = 0 (mod 3) (checked, not proven).'
    """
    axes = [(name, _consecutive(name, values)) for name, values in variables.items()]
    if not 1 <= len(axes) <= 2:
        raise TypeError("a table has one or two variables, given as keywords: table(\"wythoff(x, y)\", x=range(10), y=range(10))")
    if isinstance(expression, _native.Game):
        game = expression
        names = [name for name, _ in axes]
        shown = f"{game.name}({', '.join(names)})"
        cells_of: Any = lambda **values: game(*(values[name] for name in names))
    elif isinstance(expression, str):
        shown = expression
        cells_of = expression
    elif callable(expression):
        shown = getattr(expression, "__name__", "expression")
        cells_of = expression
    else:
        raise TypeError(f"a table's expression is a str, a function or a grundy.Game, not {type(expression).__name__}")
    given = limits(max_states, max_digits, max_heap, max_memory, max_work, max_time)
    native_axes = [(name, r.start, len(r)) for name, r in axes]
    cells, complete, patterns, interrupted = _native.table(
        cells_of, native_axes, given, outcome=outcome, max_cells=max_cells
    )
    values: list = cells
    if len(axes) == 2:
        width = len(axes[1][1])
        values = [cells[i : i + width] for i in range(0, len(cells), width)]
    found = Table(shown, axes, "outcome" if outcome else "nimber", values, complete, patterns)
    if interrupted:
        total = 1
        for _, r in axes:
            total *= len(r)
        raise Interrupted(f"interrupted (Ctrl-C) after {len(cells)} of {total} cells", found)
    return found
