"""Benchmarks of the Python package (docs/BENCHMARKS.md, "The Python package").

    python crates/grundy-py/benchmarks/bench.py [solve] [table] [survey] [survey-proven]

from the repository's root, with grundy installed (pip install ./crates/grundy-py)
and, for the survey's command-line column, GRUNDY_BIN naming the binary
(target/release/grundy or target/tests/grundy). Each figure is the median of
several runs; the machine's load is printed with them.
"""

from __future__ import annotations

import itertools
import os
import statistics
import subprocess
import sys
import time
import timeit


def load() -> str:
    return os.getloadavg().__repr__()


def bench_solve() -> None:
    runs = []
    for _ in range(7):
        done = subprocess.run(
            [sys.executable, "-c", "import time; t = time.perf_counter(); import grundy; print(time.perf_counter() - t)"],
            capture_output=True, text=True, check=True,
        )
        runs.append(float(done.stdout))
    print(f"import grundy: median {statistics.median(runs) * 1e3:.1f} ms of 7 (load {load()})")
    import grundy

    grundy.solve("nim(3, 5, 7)")
    per_call = []
    for _ in range(5):
        calls = 20_000
        seconds = timeit.timeit(lambda: grundy.solve("nim(3, 5, 7)"), number=calls)
        per_call.append(seconds / calls)
    print(f'grundy.solve("nim(3, 5, 7)"): median {statistics.median(per_call) * 1e6:.2f} us a call of 5 x 20000')
    answer = grundy.solve("nim(3, 5, 7)")
    seconds = timeit.timeit(lambda: grundy.solve("nim(3, 5, 7)").to_dict(), number=20_000) / 20_000
    print(f"  with to_dict(): {seconds * 1e6:.2f} us a call")
    assert answer.nimber == 1


def bench_table() -> None:
    import grundy

    n = 100_000
    game = grundy.Game(moves=lambda k: [k - t for t in (1, 3, 4) if t <= k], name="subtract")
    script = "script[@examples/scripts/subtraction.rhai](n)"
    timings = {"python": [], "rhai": [], "built-in": []}
    for _ in range(3):
        started = time.perf_counter()
        mine = grundy.table(game, n=range(0, n + 1))
        timings["python"].append(time.perf_counter() - started)
        started = time.perf_counter()
        rhai = grundy.table(script, n=range(0, n + 1))
        timings["rhai"].append(time.perf_counter() - started)
        started = time.perf_counter()
        builtin = grundy.table("sub[1, 3, 4](n)", n=range(0, n + 1))
        timings["built-in"].append(time.perf_counter() - started)
        assert mine.values == rhai.values == builtin.values
    python, rhai = statistics.median(timings["python"]), statistics.median(timings["rhai"])
    print(f"table of a subtraction game to 10^5 (median of 3, load {load()}):")
    for name, runs in timings.items():
        print(f"  {name}: {statistics.median(runs):.3f} s")
    print(f"  python / rhai: {python / rhai:.2f}")


def bench_survey(prove: bool = False) -> None:
    """The 512 codes 0.d1d2d3 to 10^5: the values and the period seen (as
    `grundy seq -n 100000`), or with `prove` each sequence grown until a theorem
    proves its period, up to 4n (`survey`'s default)."""
    import grundy
    from dask.distributed import Client, LocalCluster

    n = 100_000
    codes = [f"0.{a}{b}{c}" for a, b, c in itertools.product("01234567", repeat=3)]
    results = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            with Client(cluster) as client:
                started = time.perf_counter()
                frame = grundy.survey(codes, n, client=client, prove=prove)
                results[workers] = time.perf_counter() - started
        print(
            f"survey of {len(codes)} codes 0.d1d2d3 to 10^5 on {workers} Dask worker(s): {results[workers]:.1f} s "
            f"({int(frame['proven'].sum())} proven, {int(frame['error'].notna().sum())} errors; load {load()})",
            flush=True,
        )
    print(f"  speed-up with 2 workers: {results[1] / results[2]:.2f}")
    binary = os.environ.get("GRUNDY_BIN")
    if binary:
        started = time.perf_counter()
        failed = 0
        proof = ["--until-proven", "--max-heap", str(4 * n)] if prove else []
        for code in codes:
            done = subprocess.run(
                [binary, "seq", "--json", *proof, f"octal[{code}]", "-n", str(n)],
                capture_output=True, check=False,
            )
            failed += done.returncode != 0
        seconds = time.perf_counter() - started
        print(f"  the same, sequential in the CLI (grundy seq {' '.join(proof)} -n {n}, one process a code): {seconds:.1f} s ({failed} exits other than 0)")


if __name__ == "__main__":
    wanted = sys.argv[1:] or ["solve", "table", "survey"]
    for name in wanted:
        if name == "survey-proven":
            bench_survey(prove=True)
        else:
            globals()[f"bench_{name}"]()
