"""grundy.survey and grundy.survey_boards: in parallel on local threads and on
a Dask cluster, errors as rows, resumed from Parquet, stopped by Ctrl-C."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import grundy
from grundy._survey import COLUMNS

TWO_DIGIT_CODES = [f"0.{a}{b}" for a, b in itertools.product("01234567", repeat=2)]


def assert_same_rows(left: pd.DataFrame, right: pd.DataFrame) -> None:
    assert list(left.columns) == COLUMNS and list(right.columns) == COLUMNS
    assert list(left["rule"]) == list(right["rule"])
    for column in ("period", "preperiod", "saltus", "proven", "proof", "max_nimber", "error"):
        assert left[column].tolist() == right[column].tolist(), column
    for a, b in zip(left["values"], right["values"]):
        assert (a is None and b is None) or np.array_equal(a, b)


@pytest.fixture(scope="module")
def sequential() -> pd.DataFrame:
    return grundy.survey(TWO_DIGIT_CODES, 10_000, threads=1)


def test_rows_are_the_sequences(sequential: pd.DataFrame) -> None:
    assert len(sequential) == 64 and sequential["error"].isna().all()
    reach = 4 * 10_000
    for rule, row in zip(TWO_DIGIT_CODES, sequential.itertuples()):
        plain = grundy.seq(f"octal[{rule}]", 10_000)
        assert np.array_equal(row.values, plain.values.astype(np.uint32)), rule
        assert row.max_nimber == int(plain.values.max())
        assert row.seconds >= 0
        if not row.proven:
            # No proof up to 4n: seq, asked for one, says so.
            with pytest.raises(grundy.LimitError):
                grundy.seq(f"octal[{rule}]", 10_000, until_proven=True, max_heap=reach)
            continue
        proven = grundy.seq(f"octal[{rule}]", 10_000, until_proven=True, max_heap=reach)
        assert (row.period, row.preperiod, row.saltus, row.proven, row.proof) == (
            proven.period,
            proven.preperiod,
            proven.saltus,
            True,
            proven.proof,
        ), rule
    kayles = sequential[sequential["rule"] == "0.77"].iloc[0]
    assert (kayles["period"], kayles["preperiod"], kayles["proven"]) == (12, 71, True)
    assert sequential["proven"].sum() >= 40


def test_a_dask_local_cluster_of_two_workers_gives_the_same_rows(sequential: pd.DataFrame) -> None:
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            distributed = grundy.survey(TWO_DIGIT_CODES, 10_000, client=client)
    assert_same_rows(distributed, sequential)


def test_local_threads_give_the_same_rows(sequential: pd.DataFrame) -> None:
    assert_same_rows(grundy.survey(TWO_DIGIT_CODES, 10_000, threads=2), sequential)
    # `processes`, the former name of `threads`, still says how many at once.
    assert_same_rows(grundy.survey(TWO_DIGIT_CODES[:8], 10_000, processes=2), sequential.iloc[:8].reset_index(drop=True))


def test_failed_and_limited_tasks_are_rows_with_their_error() -> None:
    frame = grundy.survey(["0.07", "octal[0.9]", "not_a_game", "0.6"], 100_000, prove=False, threads=2)
    errors = dict(zip(frame["rule"], frame["error"]))
    assert errors["0.07"] is None and errors["0.6"] is None
    assert errors["octal[0.9]"].startswith("LimitError: ") and "max_work" in errors["octal[0.9]"]
    assert errors["not_a_game"].startswith("ParseError: ")
    assert frame.loc[frame["rule"] == "0.6", "proven"].iloc[0] == False  # noqa: E712
    assert pd.isna(frame.loc[frame["rule"] == "not_a_game", "period"].iloc[0])


def test_a_survey_resumes_from_its_parquet_file(tmp_path: Path) -> None:
    path = str(tmp_path / "rows.parquet")
    first = grundy.survey(["0.07", "0.137", "octal[0.9]"], 20_000, threads=1, resume=path)
    kept = pd.read_parquet(path)
    assert list(kept["rule"]) == ["0.07", "0.137", "octal[0.9]"]
    # Rows already finished are taken from the file, not computed again: the
    # file's seconds come back; the row with an error is computed again.
    kept.loc[kept["rule"] == "0.07", "seconds"] = 1234.5
    kept.to_parquet(path, index=False)
    again = grundy.survey(["0.07", "0.137", "octal[0.9]", "0.6"], 20_000, threads=1, resume=path)
    assert list(again["rule"]) == ["0.07", "0.137", "octal[0.9]", "0.6"]
    assert again.loc[again["rule"] == "0.07", "seconds"].iloc[0] == 1234.5
    assert again.loc[again["rule"] == "octal[0.9]", "seconds"].iloc[0] != first.loc[2, "seconds"]
    assert np.array_equal(again["values"][1], first["values"][1])
    assert len(pd.read_parquet(path)) == 4


def test_boards_are_surveyed() -> None:
    frame = grundy.survey_boards("cram", range(1, 4), range(1, 5), threads=2)
    assert list(frame.columns) == ["game", "rows", "cols", "position", "nimber", "outcome", "method", "seconds", "error"]
    for row in frame.itertuples():
        assert row.nimber == grundy.solve(f"cram({row.rows}, {row.cols})", no_moves=True).nimber
    limited = grundy.survey_boards("cram", [5], [7], threads=1, max_states=1000)
    assert limited["error"].iloc[0].startswith("LimitError: ")


def test_a_rule_given_twice_is_named() -> None:
    with pytest.raises(ValueError) as caught:
        grundy.survey(["kayles", "0.137", "kayles"], 100)
    assert "'kayles' is given twice" in str(caught.value)


def test_the_readmes_survey_line_runs_in_a_plain_script(tmp_path: Path) -> None:
    """The README's survey line run as a plain script, with no
    `if __name__ == "__main__":` guard: local surveys run on threads, so
    nothing imports the script again (processes started by `spawn` did, and
    failed)."""
    import subprocess
    import sys

    script = tmp_path / "plain.py"
    script.write_text(
        'import grundy\nframe = grundy.survey(["0.137", "0.07", "kayles"], 10**4)\n'
        'print(frame["period"].tolist(), frame["proven"].tolist())\n'
    )
    ran = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "[34, 34, 12] [True, True, True]"


def test_ctrl_c_stops_a_survey_and_its_running_tasks(tmp_path: Path) -> None:
    """SIGINT to a script surveying rules that take minutes (no period within
    reach): the survey stops within seconds, its running tasks too, and the
    script ends with KeyboardInterrupt."""
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "long.py"
    script.write_text(
        "import grundy, sys\n"
        'print("started", flush=True)\n'
        'grundy.survey(["0.6", "0.16", "0.46", "0.56"], 10**6, prove=False, threads=2)\n'
        'print("returned", flush=True)\n'
    )
    process = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "started"
    time.sleep(1.5)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        _, stderr = process.communicate(timeout=20)
    finally:
        process.kill()
    took = time.monotonic() - sent
    assert process.returncode != 0
    assert "KeyboardInterrupt" in stderr, stderr
    assert took < 10, f"stopped {took:.1f} s after Ctrl-C"


def test_the_readmes_survey_line_as_written_runs_in_a_plain_script(tmp_path: Path) -> None:
    """The README's line itself, to heap 10**5, in a script without a
    `if __name__ == "__main__":` guard: the survey is the library's, on its
    own threads."""
    import subprocess
    import sys

    script = tmp_path / "readme.py"
    script.write_text('import grundy\nframe = grundy.survey(["0.137", "0.07", "kayles"], 10**5)\nprint(frame["error"].tolist())\n')
    ran = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "[None, None, None]"
    assert ran.stderr == "", "no progress bar where no one watches"


def test_a_surveys_progress_is_reported_to_a_callable() -> None:
    seen = []
    frame = grundy.survey(["0.07", "kayles", "0.137"], 1000, threads=2, progress=lambda done, total: seen.append((done, total)))
    assert len(frame) == 3
    assert [done for done, _ in seen] == [1, 2, 3] and {total for _, total in seen} == {3}
    with pytest.raises(TypeError, match="survey: `progress`"):
        grundy.survey(["kayles"], 10, progress="yes")  # type: ignore[arg-type]


def test_a_progress_bar_is_drawn_only_when_asked(capfd: pytest.CaptureFixture[str]) -> None:
    # Not interactive under pytest: no bar by default, nor with progress=False.
    grundy.survey(["0.07", "kayles"], 1000)
    grundy.survey(["0.07", "kayles"], 1000, progress=False)
    assert capfd.readouterr().err == ""
    grundy.survey(["0.07", "kayles"], 1000, progress=True)
    assert "rules" in capfd.readouterr().err
