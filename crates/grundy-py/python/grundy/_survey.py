"""Surveys: the Grundy sequences of many rules at once, in parallel on local
threads or on a Dask cluster, one task per rule (:func:`grundy.survey`), and
the values of many boards (:func:`grundy.survey_boards`).

A local survey of rules is the library's (``workflow::survey``): every rule
on the native threads of this process, with the GIL released, under one
cancellation, so that Ctrl-C stops them all within milliseconds, and nothing
is imported again (processes started by ``spawn`` import the script that
starts them, which a plain script without ``if __name__ == "__main__":``
cannot survive). On a Dask cluster each rule is a task, the same survey of
one rule. Boards are tasks on local threads.

A task that fails or reaches a limit is a row with its ``error``, never a lost
survey; finished rows can be kept in a Parquet file (``resume=PATH``), from
which a survey started again takes them instead of computing them anew.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from ._limits import DEFAULTS, Bytes
from ._sequence import Progress, _Progress

#: The columns of a survey, in order.
COLUMNS = ["rule", "values", "period", "preperiod", "saltus", "proven", "proof", "max_nimber", "seconds", "error"]
#: The columns of a survey of boards, in order.
BOARD_COLUMNS = ["game", "rows", "cols", "position", "nimber", "outcome", "method", "seconds", "error"]

#: By default a survey looks for a proof up to this many times ``n``
#: (``max_heap``), and at least to heap 16384 (as ``grundy seq``).
SURVEY_PROOF_FACTOR = 4
SURVEY_PROOF_LEAST = 1 << 14
#: Finished rows are written to the ``resume`` file at least this often (seconds).
SAVE_EVERY = 30.0

def _row(rule: str, n: int, found: Tuple[Any, ...]) -> Dict[str, Any]:
    """The row of ``rule`` from what the native survey hands on: ``(values,
    period, seconds, error)``."""
    import numpy as np

    raw, periodicity, seconds, error = found
    row: Dict[str, Any] = {column: None for column in COLUMNS}
    row.update(rule=rule, seconds=seconds)
    if error is not None:
        row["error"] = f"{type(error).__name__}: {error}"
        return row
    values = np.frombuffer(raw, dtype="<u4")[: n + 1].copy()
    period, preperiod, saltus, proven, proof = periodicity or (None, None, 0, False, "none")
    row.update(
        values=values,
        period=period,
        preperiod=preperiod,
        saltus=saltus,
        proven=proven,
        proof=proof,
        max_nimber=int(values.max()) if len(values) else None,
    )
    return row


def _survey_native(
    rules: List[str],
    n: int,
    prove: bool,
    max_heap: int,
    max_memory: Bytes,
    max_work: int,
    max_time: Optional[float],
    threads: Optional[int],
    record: Callable[[int, Dict[str, Any]], None],
) -> None:
    """The library's survey of ``rules``: ``record(index, row)`` for each row
    as it finishes."""
    import numpy  # noqa: F401  (imported before the computation, so that Ctrl-C does not wait for it)

    from . import _native
    from ._limits import limits

    given = limits(DEFAULTS["max_states"], DEFAULTS["max_digits"], DEFAULTS["max_heap"], max_memory, max_work, max_time)
    if not rules:
        return

    recorded = set()

    def on_row(index: int, found: Tuple[Any, ...]) -> None:
        recorded.add(index)
        record(index, _row(rules[index], n, found))

    try:
        _native.survey(rules, n, given, prove, max_heap, threads, on_row)
    except (KeyboardInterrupt, TypeError):
        raise
    except Exception as error:  # a bad argument: every row has it
        for index, rule in enumerate(rules):
            if index not in recorded:
                record(index, {**{column: None for column in COLUMNS}, "rule": rule, "error": f"{type(error).__name__}: {error}"})


def survey_one(
    rule: str,
    n: int,
    prove: bool,
    max_heap: int,
    max_memory: Bytes,
    max_work: int,
    max_time: Optional[float],
) -> Dict[str, Any]:
    """One row of a survey: the sequence of ``rule`` to heap ``n``, or the
    error that stopped it; a task on a Dask worker."""
    rows: List[Dict[str, Any]] = []
    _survey_native([rule], n, prove, max_heap, max_memory, max_work, max_time, 1, lambda _, row: rows.append(row))
    return rows[-1]


def board_one(
    game: str,
    rows: int,
    cols: int,
    max_states: int,
    max_memory: Bytes,
    max_time: Optional[float],
    stop: Optional[threading.Event] = None,
) -> Dict[str, Any]:
    """One row of a survey of boards: the nimber of ``game(rows, cols)``. A
    board already being solved when ``stop`` is set is finished (its
    ``max_time`` bounds it)."""
    if stop is not None and stop.is_set():
        raise KeyboardInterrupt
    from . import solve

    started = time.perf_counter()
    row: Dict[str, Any] = {column: None for column in BOARD_COLUMNS}
    row.update(game=game, rows=rows, cols=cols, position=f"{game}({rows}, {cols})")
    try:
        answer = solve(row["position"], no_moves=True, max_states=max_states, max_memory=max_memory, max_time=max_time)
        row.update(position=answer.position, nimber=answer.nimber, outcome=answer.outcome, method=answer.method)
    except KeyboardInterrupt:
        raise
    except Exception as error:
        row["error"] = f"{type(error).__name__}: {error}"
    row["seconds"] = time.perf_counter() - started
    return row


def _run(
    task: Callable[..., Dict[str, Any]],
    arguments: List[Tuple[Any, ...]],
    client: Any,
    threads: Optional[int],
    record: Callable[[int, Dict[str, Any]], None],
) -> None:
    """Runs ``task`` on each tuple of ``arguments``: on the Dask ``client``'s
    workers (one task each), on local threads, or here when ``threads=1``.
    Calls ``record(index, row)`` as they finish; a task whose worker died is
    a row with the error."""
    if not arguments:
        return
    if client is not None:
        from distributed import as_completed as dask_completed

        futures = [client.submit(task, *args, pure=False) for args in arguments]
        where = {future.key: index for index, future in enumerate(futures)}
        try:
            for future in dask_completed(futures):
                index = where[future.key]
                try:
                    row = future.result()
                except Exception as error:
                    row = {"error": f"{type(error).__name__}: {error}"}
                record(index, row)
        finally:
            for future in futures:
                future.cancel()
        return
    if threads == 1:
        for index, args in enumerate(arguments):
            record(index, task(*args))
        return
    from concurrent.futures import Future, ThreadPoolExecutor, as_completed

    workers = threads or os.cpu_count() or 1
    stop = threading.Event()
    pool = ThreadPoolExecutor(max_workers=min(workers, len(arguments)), thread_name_prefix="grundy-survey")
    futures: Dict[Future[Dict[str, Any]], int] = {
        pool.submit(task, *args, stop=stop): index for index, args in enumerate(arguments)
    }
    try:
        for future in as_completed(futures):
            index = futures[future]
            try:
                row = future.result()
            except KeyboardInterrupt:
                # Only raised when the survey is being stopped.
                continue
            except Exception as error:
                row = {"error": f"{type(error).__name__}: {error}"}
            record(index, row)
    finally:
        # Ctrl-C (or the caller leaving): the tasks not started never start,
        # those running stop at their next look at `stop`.
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)


def _frame(rows: List[Dict[str, Any]], columns: List[str]) -> Any:
    import pandas as pd

    frame = pd.DataFrame([{column: row.get(column) for column in columns} for row in rows], columns=columns)
    for column in ("period", "preperiod", "saltus", "max_nimber", "rows", "cols"):
        if column in frame:
            frame[column] = frame[column].astype("Int64")
    if "proven" in frame:
        frame["proven"] = frame["proven"].astype("boolean")
    # None where there is no error (not NaN, which a column of text would hold).
    frame["error"] = pd.Series([row.get("error") for row in rows], index=frame.index, dtype=object)
    return frame


def _save(frame: Any, path: str) -> None:
    """Writes the rows to the Parquet file at ``path``, whole or not at all."""
    temporary = f"{path}.partial"
    frame.to_parquet(temporary, index=False)
    os.replace(temporary, path)


def _finished(path: Optional[str], key: str) -> Dict[Any, Dict[str, Any]]:
    """The rows without error in the Parquet file at ``path``, by ``key``."""
    if path is None or not os.path.exists(path):
        return {}
    import numpy as np
    import pandas as pd

    kept = pd.read_parquet(path)
    rows = {}
    for record in kept.to_dict("records"):
        if record.get("error") is None or (isinstance(record.get("error"), float) and np.isnan(record["error"])):
            record["error"] = None
            if "values" in record and record["values"] is not None:
                record["values"] = np.asarray(record["values"], dtype=np.uint32)
            rows[record[key] if isinstance(key, str) else tuple(record[k] for k in key)] = record
    return rows


def _collect(
    keys: List[Any],
    run: Callable[[List[int], Callable[[int, Dict[str, Any]], None]], None],
    columns: List[str],
    key: Any,
    resume: Optional[str],
    fill: Callable[[Any, Dict[str, Any]], None],
    progress: _Progress,
) -> Any:
    """The rows of ``keys``: those kept in the ``resume`` file, and the others
    computed by ``run(todo, record)``, which calls ``record(i, row)`` for the
    ``i``-th key of ``todo`` as its row finishes."""
    kept = _finished(resume, key)
    rows: List[Optional[Dict[str, Any]]] = [kept.get(k) for k in keys]
    todo = [index for index, row in enumerate(rows) if row is None]
    last_save = time.monotonic()
    done = len(keys) - len(todo)

    def record(at: int, row: Dict[str, Any]) -> None:
        nonlocal last_save, done
        index = todo[at]
        fill(keys[index], row)
        if rows[index] is None:
            done += 1
        rows[index] = row
        progress(done, len(keys))
        if resume is not None and time.monotonic() - last_save > SAVE_EVERY:
            _save(_frame([r for r in rows if r is not None], columns), resume)
            last_save = time.monotonic()

    try:
        run(todo, record)
    finally:
        progress.close()
        if resume is not None:
            finished = [r for r in rows if r is not None]
            if finished:
                _save(_frame(finished, columns), resume)
    return _frame([r for r in rows if r is not None], columns)


def survey(
    rules: Iterable[str],
    n: int,
    *,
    client: Any = None,
    prove: bool = True,
    threads: Optional[int] = None,
    processes: Optional[int] = None,
    resume: Optional[str] = None,
    max_heap: Optional[int] = None,
    max_memory: Bytes = DEFAULTS["max_memory"],
    max_work: int = DEFAULTS["max_work"],
    max_time: Optional[float] = None,
    progress: Progress = None,
) -> Any:
    """The Grundy sequences of ``rules`` to heap ``n``, one row per rule, in
    parallel: a pandas DataFrame with the columns ``rule`` (as given),
    ``values`` (a NumPy uint32 array, heaps ``0..n``), ``period``,
    ``preperiod``, ``saltus``, ``proven``, ``proof``, ``max_nimber``,
    ``seconds`` (the task's time) and ``error`` (``None``, or why the row has no
    values: ``"LimitError: ..."``).

    A rule is any ``seq`` rule (``"kayles"``, ``"sub[1, 3, 4]"``) or an octal
    (hexadecimal) code alone, ``"0.137"``. The rules are computed on the
    library's threads (``threads`` at once, all cores by default; ``1``
    computes them here, one after the other; ``processes`` is its former
    name), which need no ``if __name__ == "__main__":`` guard in a script and
    stop on Ctrl-C, or each is a task on a Dask cluster when ``client`` is a
    ``dask.distributed.Client`` (``Client("tcp://scheduler:8786")``).
    ``prove=True`` grows each sequence until a theorem proves its period (up to
    ``max_heap``, by default ``4 n`` and at least 16384), and reports it
    unproven otherwise; ``max_memory``,
    ``max_work`` and ``max_time`` bound each task. With ``resume=PATH`` the
    finished rows are kept in a Parquet file (written as they come, at least
    every 30 seconds, and at the end, even when interrupted), and a survey with
    the same file computes only the rules it lacks (or whose row has an error).
    ``progress`` shows the rows finished as :func:`grundy.seq` shows its
    values: a progress bar (tqdm) in a notebook or on a terminal once the
    survey has lasted a second by default, ``True`` always, ``False`` never,
    or a callable called with ``(done, total)``.

    >>> import grundy
    >>> frame = grundy.survey(["0.07", "0.137"], 100, threads=1)
    >>> frame["period"].tolist(), frame["proven"].tolist()
    ([34, 34], [True, True])
    """
    rules = list(rules)
    if max_heap is None:
        max_heap = max(SURVEY_PROOF_FACTOR * n, SURVEY_PROOF_LEAST)
    seen = set()
    for rule in rules:
        if rule in seen:
            raise ValueError(f"a survey's rules must be different (each is one row): {rule!r} is given twice")
        seen.add(rule)
    shown = _Progress(progress, "survey", unit=" rules", caller="survey")

    def run(todo: List[int], record: Callable[[int, Dict[str, Any]], None]) -> None:
        asked = [rules[index] for index in todo]
        if client is None:
            _survey_native(asked, n, prove, max_heap, max_memory, max_work, max_time, _threads(threads, processes), record)
        else:
            arguments = [(rule, n, prove, max_heap, max_memory, max_work, max_time) for rule in asked]
            _run(survey_one, arguments, client, None, record)

    def fill(rule: Any, row: Dict[str, Any]) -> None:
        row.setdefault("rule", rule)

    return _collect(rules, run, COLUMNS, "rule", resume, fill, shown)


def survey_boards(
    game: str = "cram",
    rows: Iterable[int] = range(1, 7),
    cols: Iterable[int] = range(1, 8),
    *,
    client: Any = None,
    threads: Optional[int] = None,
    processes: Optional[int] = None,
    resume: Optional[str] = None,
    max_states: int = DEFAULTS["max_states"],
    max_memory: Bytes = DEFAULTS["max_memory"],
    max_time: Optional[float] = None,
    progress: Progress = None,
) -> Any:
    """The nimbers of the boards ``game(r, c)`` (``cram``, ``chomp``: any game
    of two integers) for ``r`` in ``rows`` and ``c`` in ``cols``, one row each,
    in parallel as :func:`survey`: a DataFrame with the columns ``game``,
    ``rows``, ``cols``, ``position``, ``nimber``, ``outcome``, ``method``,
    ``seconds`` and ``error``; ``progress`` as for :func:`survey`.

    >>> import grundy
    >>> frame = grundy.survey_boards("cram", range(1, 3), range(1, 4), threads=1)
    >>> frame["nimber"].tolist()
    [0, 1, 1, 1, 0, 1]
    """
    keys = [(game, r, c) for r in rows for c in cols]
    arguments = [(game, r, c, max_states, max_memory, max_time) for (_, r, c) in keys]
    shown = _Progress(progress, f"{game} boards", unit=" boards", caller="survey_boards")

    def run(todo: List[int], record: Callable[[int, Dict[str, Any]], None]) -> None:
        _run(board_one, [arguments[index] for index in todo], client, _threads(threads, processes), record)

    def fill(key: Any, row: Dict[str, Any]) -> None:
        row.setdefault("game", key[0])
        row.setdefault("rows", key[1])
        row.setdefault("cols", key[2])

    return _collect(keys, run, BOARD_COLUMNS, ("game", "rows", "cols"), resume, fill, shown)


def _threads(threads: Optional[int], processes: Optional[int]) -> Optional[int]:
    """How many tasks run at once here: ``threads``, or ``processes``, its
    former name (surveys ran on processes)."""
    return threads if threads is not None else processes
