"""Ctrl-C (KeyboardInterrupt) stops a long computation within 100 ms, the GIL
being released meanwhile; seq and table keep what they computed."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import grundy

# Run in a child: SIGINT is sent to it while it computes, from a thread of its own
# (Python runs signal handlers on its main thread, which is in grundy's code).
CHILD = textwrap.dedent(
    """
    import json, os, signal, sys, threading, time
    import grundy

    what = sys.argv[1]
    sent = []

    def interrupt():
        time.sleep(0.8)
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt, daemon=True).start()
    report = {"what": what}
    try:
        if what == "seq":
            grundy.seq("octal[0.6]", 400_000_000, max_memory="8G")
        elif what == "solve":
            grundy.solve("cram(7, 7)", max_states=10**9)
        elif what == "table":
            grundy.table("cram(x, y)", x=range(1, 9), y=range(1, 9), max_states=10**9)
        elif what == "game":
            g = grundy.Game(moves=lambda n: [n - k for k in range(1, min(n, 64) + 1)])
            grundy.seq(g, 10**8)
        report["finished"] = True
    except grundy.Interrupted as error:
        report["ms"] = (time.perf_counter() - sent[0]) * 1000
        report["interrupted"] = True
        partial = error.partial
        report["kept"] = len(partial.values) if hasattr(partial, "rule") else len(partial._cells())
        if what in ("seq", "game"):
            rule = "octal[0.6]" if what == "seq" else None
            if rule:
                check = grundy.seq(rule, report["kept"] - 1)
                report["right"] = list(check.values) == list(partial.values)
    except KeyboardInterrupt:
        report["ms"] = (time.perf_counter() - sent[0]) * 1000
        report["interrupted"] = True
    print(json.dumps(report))
    """
)


@pytest.mark.parametrize("what", ["seq", "solve", "table", "game"])
def test_ctrl_c_stops_within_100_ms(what: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, what], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report.get("interrupted"), report
    assert report["ms"] < 100, report
    if what in ("seq", "table", "game"):
        assert report["kept"] > 0, report
    if what == "seq":
        assert report["right"], report


@pytest.mark.filterwarnings("ignore:estimated time")
def test_the_gil_is_released_while_computing() -> None:
    ticks = []
    stop = threading.Event()

    def tick() -> None:
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.005)

    thread = threading.Thread(target=tick)
    thread.start()
    started = time.perf_counter()
    grundy.seq("octal[0.6]", 3_000_000)
    elapsed = time.perf_counter() - started
    stop.set()
    thread.join()
    during = [t for t in ticks if started <= t <= started + elapsed]
    # The other thread kept running: at least half the ticks it would get alone.
    assert elapsed > 0.2
    assert len(during) >= 0.5 * elapsed / 0.0055, (len(during), elapsed)


def test_max_time_stops_a_computation() -> None:
    started = time.perf_counter()
    with pytest.raises(grundy.LimitError) as caught:
        grundy.seq("octal[0.6]", 400_000_000, max_memory="8G", max_time=0.3)
    assert caught.value.limit == "max_time"
    assert time.perf_counter() - started < 2
