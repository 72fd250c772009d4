"""Grundy sequences: :func:`grundy.seq`."""

from __future__ import annotations

import numbers
import sys
import time

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from . import _native
from ._errors import Interrupted
from ._limits import DEFAULTS, Bytes, limits

if TYPE_CHECKING:
    import numpy as np

#: What ``progress=`` takes: ``None`` (a bar when shown interactively),
#: ``True``, ``False``, or a callable taking ``(done, total)``.
Progress = Union[None, bool, Callable[[int, int], Any]]


@dataclass(frozen=True, eq=False)
class Sequence:
    """The Grundy values of heaps ``0..n`` of a heap game and its period:
    ``G(n + period) = G(n) + saltus`` for every ``n >= preperiod``.

    ``proven`` is true only when a theorem certifies the period for every heap
    (``proof`` names it: Guy and Smith's for octal games, ...); a period seen
    only in the values computed is reported unproven. ``period`` and
    ``preperiod`` are ``None`` when none was found. ``complete`` is false for
    the values kept when Ctrl-C stopped the computation.
    """

    rule: str
    values: np.ndarray
    period: Optional[int]
    preperiod: Optional[int]
    saltus: int
    proven: bool
    proof: str
    complete: bool = True

    def to_dict(self) -> dict:
        """The object ``grundy seq --json RULE -n N`` prints (but ``computed``)."""
        return {
            "rule": self.rule,
            "values": [int(v) for v in self.values],
            "period": self.period,
            "preperiod": self.preperiod,
            "saltus": self.saltus,
            "proven": self.proven,
            "proof": self.proof,
        }

    def to_pandas(self) -> Any:
        """The values as a pandas Series indexed by the heap ``n``."""
        import pandas as pd

        return pd.Series(self.values, index=pd.RangeIndex(len(self.values), name="n"), name=self.rule)

    def plot(self) -> Any:
        """A matplotlib figure: the values against the heap, P-positions in red."""
        from . import _plots

        return _plots.line(range(len(self.values)), self.values, "n", "G(n)", self.rule)

    def _repr_png_(self) -> Optional[bytes]:
        from . import _plots

        try:
            return _plots.png(self.plot())
        except ImportError:
            return None

    def __len__(self) -> int:
        return len(self.values)

    def __repr__(self) -> str:
        shown = ", ".join(str(v) for v in self.values[:20])
        more = ", ..." if len(self.values) > 20 else ""
        if self.period is None:
            period = "no period found"
        else:
            period = f"period {self.period} from {self.preperiod}"
            if self.saltus:
                period += f", saltus {self.saltus}"
            period += " (proven)" if self.proven else " (not proven)"
        return f"<grundy.Sequence {self.rule}: [{shown}{more}]; {period}>"


def seq(
    rule: Union[str, _native.Game],
    n: int,
    *,
    until_proven: bool = False,
    method: str = "fast",
    max_heap: int = DEFAULTS["seq_max_heap"],
    max_memory: Bytes = DEFAULTS["max_memory"],
    max_work: int = DEFAULTS["max_work"],
    max_time: Optional[float] = None,
    genus: bool = False,
    progress: Progress = None,
) -> Any:
    """The Grundy values of heaps ``0..=n`` of ``rule`` and its period, as
    ``grundy seq --json RULE -n N``.

    With ``genus=True``, Conway's genus of each heap instead (Winning Ways,
    ch. 13: the Grundy values of the heap under normal play, then under misère
    play of sums with ``nim(2)``...), as ``grundy seq --genus --json RULE -n N``:
    a dict ``{"rule", "n", "genus"}``, ``genus`` a list of symbols such as
    ``"1^{031}"`` (``rule`` a heap rule given as text).

    ``rule`` is a heap rule (``"octal[0.07]"``, ``"kayles"``, ``"sub[1, 3, 4]"``,
    ``"lasker"``, a ``"script[...]"`` rule) or a :class:`grundy.Game` of one
    integer. The period is looked for past ``n`` (to heap 16384), or with
    ``until_proven=True`` until a theorem proves it (up to ``max_heap``). The
    values must fit ``max_memory`` and ``max_work`` by estimate
    (:class:`grundy.LimitError` otherwise). Ctrl-C raises
    :class:`grundy.Interrupted` holding the values computed.

    A run estimated to take more than a few seconds says so first, as a
    ``UserWarning`` (with ``until_proven=True``, for every heap it may go on
    to). ``progress`` shows how far it is: by default a progress bar (tqdm) in
    a notebook or on a terminal once a run has lasted a second; ``True``
    always, ``False`` never; a callable is called with ``(done, total)``, the
    values computed and wanted, a few times a second.

    >>> import grundy
    >>> s = grundy.seq("octal[0.07]", 6)
    >>> s.values.tolist(), s.period, s.preperiod, s.proven
    ([0, 0, 1, 1, 2, 0, 3], 34, 53, True)
    """
    # Imported before the computation, so that Ctrl-C does not wait for it.
    import numpy as np

    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"seq: `n` (the largest heap) must be an integer, not {type(n).__name__} ({n!r})")
    n = int(n)
    if n < 0:
        raise ValueError(f"n={n}: a heap is a non-negative integer (0, 1, 2, ...)")
    given = limits(DEFAULTS["max_states"], DEFAULTS["max_digits"], DEFAULTS["max_heap"], max_memory, max_work, max_time)
    if genus:
        if not isinstance(rule, str):
            raise TypeError("seq: genus=True takes a heap rule given as text (\"kayles\", \"octal[0.75]\")")
        import json

        return json.loads(_native.genera(rule, n, given))
    report = _Progress(progress, rule if isinstance(rule, str) else "values")
    try:
        name, raw, periodicity, complete, interrupted = _native.seq(
            rule, n, given, until_proven=until_proven, max_heap=max_heap, method=method, progress=report
        )
    finally:
        report.close()
    values = np.frombuffer(raw, dtype="<u4").astype(np.uint64)
    if complete or interrupted:
        values = values[: n + 1]
    period, preperiod, saltus, proven, proof = periodicity or (None, None, 0, False, "none")
    found = Sequence(name, values, period, preperiod, saltus, proven, proof, complete)
    if interrupted:
        raise Interrupted(
            f"interrupted (Ctrl-C): the values of {name} up to heap {len(values) - 1} are kept, of the {n + 1} asked",
            found,
        )
    return found


class _Progress:
    """The ``progress`` of :func:`seq` and of the surveys: called by the
    computation with ``(done, total)``; draws a tqdm bar (counting ``unit``)
    or hands the figures on. ``caller`` names the function in errors."""

    #: A run shows a bar by default once it has lasted this long (seconds).
    QUIET_FOR = 1.0

    def __init__(self, progress: Progress, label: str, unit: str = " values", caller: str = "seq") -> None:
        if progress is not None and not isinstance(progress, bool) and not callable(progress):
            raise TypeError(
                f"{caller}: `progress` is True, False, None (a bar when shown interactively) or a callable "
                f"taking (done, total), not {type(progress).__name__}"
            )
        self._given = progress
        self._label = label
        self._unit = unit
        self._caller = caller
        self._started = time.monotonic()
        self._bar: Any = None
        self._tqdm: Any = None
        if progress is True or (progress is None and _interactive()):
            try:
                self._tqdm = _bar_class()
            except ImportError:
                if progress is True:
                    raise ImportError(f"{caller}: progress=True draws its bar with tqdm: pip install tqdm") from None

    def __call__(self, done: int, total: int) -> None:
        if callable(self._given):
            self._given(done, total)
            return
        if self._tqdm is None:
            return
        if self._bar is None:
            if self._given is None and time.monotonic() - self._started < self.QUIET_FOR:
                return
            options = dict(total=total, unit=self._unit, unit_scale=True, desc=self._label, leave=False)
            try:
                self._bar = self._tqdm(**options)
            except ImportError:
                # A notebook without ipywidgets: the text bar.
                from tqdm.std import tqdm

                self._tqdm = tqdm
                self._bar = tqdm(**options)
        self._bar.total = total
        self._bar.n = done
        self._bar.refresh()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def _bar_class() -> Any:
    """tqdm's widget bar in a notebook that has ipywidgets, its text bar
    otherwise (chosen here, so that a notebook without ipywidgets gets the
    text bar without tqdm's warning about it)."""
    if "ipykernel" in sys.modules:
        try:
            import ipywidgets  # noqa: F401
            from tqdm.notebook import tqdm

            return tqdm
        except ImportError:
            pass
    from tqdm.std import tqdm

    return tqdm


def _interactive() -> bool:
    """Whether a person is likely watching: a notebook's kernel, or a terminal."""
    if "ipykernel" in sys.modules:
        return True
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
